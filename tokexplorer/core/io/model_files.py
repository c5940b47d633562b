"""Reading a model file the user named (our BPE model, a ``.tiktoken`` rank
file, a SentencePiece ``.model``): its bytes, read whole, with one wording for a
file that is missing or cannot be read.

>>> import pathlib, tempfile
>>> p = pathlib.Path(tempfile.mkdtemp()) / "m.bin"
>>> _ = p.write_bytes(b"\\x00\\x01")
>>> read_model_file(p)
b'\\x00\\x01'
>>> read_model_file(p.parent / "missing.model")
Traceback (most recent call last):
...
tokexplorer.core.errors.InputError: no such file: .../missing.model
"""

from __future__ import annotations

import os
from pathlib import Path

from tokexplorer.core.errors import InputError

__all__ = ["read_model_file"]


def read_model_file(path: str | os.PathLike) -> bytes:
    """The whole content of the model file at ``path``, in bytes.

    Raises:
        InputError: ``"no such file: PATH"``, or ``"cannot read PATH: REASON"``
            for any other ``OSError`` (a folder, no permission...).
    """
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"no such file: {p}") from None
    except OSError as exc:
        raise InputError(f"cannot read {p}: {exc.strerror or exc}") from None
