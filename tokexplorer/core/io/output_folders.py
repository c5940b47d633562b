"""Where an export is written: the folder it needs, created when missing (parents too).

One rule for the command line and the window: a file is written into its folder, a
folder format (GPT-2's ``vocab.json`` + ``merges.txt``) into the folder given; a
folder that does not exist is created, and said; a path that is a file where a folder
is needed (or a folder where a file is), or a folder that cannot be created, is refused
before any work, with the reason.

>>> import pathlib, tempfile
>>> top = pathlib.Path(tempfile.mkdtemp())
>>> needed_folder(top / "a" / "b", folder=True) == top / "a" / "b"
True
>>> needed_folder(top / "m.tiktoken", folder=False) is None
True
>>> make_folder(top / "a" / "b") == f"created folder {top / 'a' / 'b'} (it did not exist)"
True
"""

from __future__ import annotations

import os
from pathlib import Path

from tokexplorer.core.errors import InputError

__all__ = ["created_note", "make_folder", "needed_folder"]


def needed_folder(path: str | os.PathLike, *, folder: bool) -> Path | None:
    """The folder that must be created before ``path`` can be written, or None when it exists.

    Args:
        path: the output: a file (``folder=False``: its parent must be a folder) or a
            folder (``folder=True``: written into).
        folder: whether ``path`` itself is the folder written into.

    Returns:
        the missing folder (``path``, or its parent for a file), None when it is there.

    Raises:
        InputError: ``path`` is a file where a folder is needed, or a folder where a file
            is; a part of the way is a file (the folder cannot be created there).
    """
    p = Path(path)
    if folder and p.exists() and not p.is_dir():
        raise InputError(f"cannot write into {p}: it is a file, not a folder")
    if not folder and p.is_dir():
        raise InputError(f"cannot write {p}: it is a folder")
    target = p if folder else p.parent
    if target.is_dir():
        return None
    for up in (target, *target.parents):
        if up.exists():
            if not up.is_dir():
                raise InputError(f"cannot create folder {target}: {up} is a file")
            break
    return target


def make_folder(folder: str | os.PathLike) -> str:
    """Create ``folder`` and its missing parents; the note that says so.

    Returns:
        ``"created folder out/gpt2 (it did not exist)"``.

    Raises:
        InputError: the folder cannot be created (no permission, a file in the way...).
    """
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        raise InputError(f"cannot create folder {folder}: {exc.strerror or exc}") from None
    return created_note(folder)


def created_note(folder: str | os.PathLike) -> str:
    """What a note says of a folder created for an output: ``"created folder out (it did not exist)"``."""
    return f"created folder {folder} (it did not exist)"
