"""How the window names a corpus file: by its path relative to the folder it was
opened from, so ``x/a.txt`` and ``y/a.txt`` of one folder stay apart.

A corpus remembers what it was opened from (:attr:`~tokexplorer.core.io.corpus.Corpus.roots`,
as given). A file found in a folder that was opened is named by its path below that
folder (``x/a.txt``; with several files and folders opened, below the folder and its
name: ``books/x/a.txt``); a file opened by itself by its name (as given when another
file opened has that name too). (Paths in the
examples are POSIX; on Windows the separator is ``\\``.) Notes and problems of a
file start with its bare name or its path as given (the reader's one rule), and
:func:`label_message` puts the label there instead. The command line names a file by
its path as given (``corpus/x/a.txt``), which is already unambiguous.

>>> file_label("corpus/x/a.txt", ["corpus"]), file_label("notes/b.txt", ["corpus", "notes/b.txt"])
('x/a.txt', 'b.txt')
>>> file_label("corpus/a.txt", ["corpus", "notes/b.txt"]), file_label("old/b.txt", ["new/b.txt", "old/b.txt"])
('corpus/a.txt', 'old/b.txt')
>>> label_message("a.txt: read as gbk (guessed)", "corpus/x/a.txt", ["corpus"])
'x/a.txt: read as gbk (guessed)'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tokexplorer.core.io.corpus import PathLike

__all__ = ["file_label", "label_message", "label_problem", "name_as_given"]


def name_as_given(path: PathLike, message: str) -> str:
    """``message`` about the file at ``path``, naming it by the path as given (the rule of
    every problem of a corpus read and of the command line's notes): ``"gbk.txt: …"``
    becomes ``"odd/gbk.txt: …"``, one that names no file gets the path in front.

    >>> name_as_given("odd/gbk.txt", "gbk.txt: looks binary"), name_as_given("odd/e.txt", "empty file")
    ('odd/gbk.txt: looks binary', 'odd/e.txt: empty file')
    """
    p = Path(path)
    if message.startswith(f"{p}: "):
        return message
    if message.startswith(f"{p.name}: "):
        return f"{p}{message[len(p.name):]}"
    return f"{p}: {message}"


def file_label(path: PathLike, roots: Sequence[PathLike]) -> str:
    """The name of the corpus file at ``path`` in a corpus opened from ``roots`` (see the module).

    Args:
        path: the file's path (as collected from ``roots``).
        roots: the files and folders the corpus was opened from, as given.

    Returns:
        ``"x/a.txt"`` (the path below the opened folder; with several files and folders,
        below the folder and its name); for a file opened by itself its name (its path as
        given when another file opened has that name); the path as given for a file under
        none of ``roots``.
    """
    p = Path(path)
    given = [Path(r) for r in roots]
    for root in given:
        if p == root:  # a file opened by itself: its name, unless another one opened has that name
            return p.name if sum(r.name == p.name for r in given) == 1 else str(p)
        if p.is_relative_to(root):
            below = p.relative_to(root)
            return str(Path(root.name or str(root)) / below if len(given) > 1 else below)
    return str(p)


def label_message(message: str, path: PathLike, roots: Sequence[PathLike]) -> str:
    """``message`` about the file at ``path`` with the file named by :func:`file_label`: a
    message that starts with its path as given or its bare name gets the label there; any
    other is returned as it is."""
    p = Path(path)
    label = file_label(p, roots)
    for start in (str(p), p.name):
        if start and message.startswith(f"{start}: "):
            return f"{label}{message[len(start):]}"
    return message


def label_problem(message: str, roots: Sequence[PathLike]) -> str:
    """A problem of reading the corpus (:attr:`~tokexplorer.core.io.corpus.Corpus.errors`,
    which name a file by its path as given) with the file named by :func:`file_label`.

    >>> label_problem("books/x/b.bin: looks binary (NUL bytes)", ["books"])
    'x/b.bin: looks binary (NUL bytes)'
    """
    head, sep, rest = message.partition(": ")
    return f"{file_label(head, roots)}: {rest}" if sep else message


def parent_folders(roots: Sequence[PathLike]) -> list[Path]:
    """The folders holding ``roots``: a file named by :func:`file_label` from there keeps
    its folder's name (two folders' ``image.bin`` read apart).

    >>> label_problem("binonly/image.bin: looks binary", parent_folders(["binonly"]))
    'binonly/image.bin: looks binary'
    """
    return [Path(r).parent for r in roots]
