"""tiktoken's ``.tiktoken`` rank files: one ``base64(token bytes) rank`` per line
(what tiktoken downloads and caches, and what :func:`read_tiktoken_file` reads
for a ``tiktoken-file:PATH`` spec).

>>> import pathlib, tempfile
>>> p = pathlib.Path(tempfile.mkdtemp()) / "tiny.tiktoken"
>>> write_tiktoken_file({b"a": 0, b"b": 1, b"ab": 2}, p)
>>> p.read_text()
'YQ== 0\\nYg== 1\\nYWI= 2\\n'
>>> read_tiktoken_file(p)
{b'a': 0, b'b': 1, b'ab': 2}
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path

from tokexplorer.core.errors import ModelFormatError
from tokexplorer.core.io.atomic import atomic_write_bytes
from tokexplorer.core.io.model_files import read_model_file

__all__ = ["read_tiktoken_file", "write_tiktoken_file"]


def read_tiktoken_file(path: str | os.PathLike) -> dict[bytes, int]:
    """Read a ``.tiktoken`` file: ``base64(token) rank`` per line.

    Returns:
        token bytes -> rank (tiktoken's ``mergeable_ranks``).

    Raises:
        InputError: the file does not exist.
        ModelFormatError: a malformed line (the message names its number), a
            repeated token or rank, or a file with no tokens.
    """
    p = Path(path)
    data = read_model_file(p)
    ranks: dict[bytes, int] = {}
    seen_ranks: set[int] = set()
    for lineno, raw in enumerate(data.splitlines(), 1):
        parts = raw.split()
        if not parts:
            continue
        try:
            if len(parts) != 2:
                raise ValueError
            tok = base64.b64decode(parts[0], validate=True)
            rank = int(parts[1])
            if rank < 0:
                raise ValueError
        except (binascii.Error, ValueError):
            shown = raw[:40].decode("utf-8", "replace")
            raise ModelFormatError(
                f"{p.name} line {lineno}: expected 'base64-token rank', got {shown!r}"
            ) from None
        if tok in ranks or rank in seen_ranks:
            raise ModelFormatError(f"{p.name} line {lineno}: token or rank {rank} repeats")
        ranks[tok] = rank
        seen_ranks.add(rank)
    if not ranks:
        raise ModelFormatError(f"{p.name} holds no tokens (expected 'base64-token rank' lines)")
    return ranks


def write_tiktoken_file(ranks: dict[bytes, int], path: str | os.PathLike) -> None:
    """Write ``mergeable_ranks`` as a ``.tiktoken`` file (atomic), in rank order."""
    body = "".join(
        f"{base64.b64encode(tok).decode('ascii')} {rank}\n"
        for tok, rank in sorted(ranks.items(), key=lambda kv: kv[1])
    )
    atomic_write_bytes(path, body.encode("ascii"))
