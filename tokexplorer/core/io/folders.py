"""Reading many files: folders walked in a stable order, progress while reading,
the :class:`~tokexplorer.core.io.corpus.Corpus` at the end.

Each file is decoded by the rules of :mod:`tokexplorer.core.io.corpus`; a file
that cannot be read or looks binary becomes one line in
:attr:`~tokexplorer.core.io.corpus.Corpus.errors` and does not stop the run.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "b.txt").write_text("two\\n"), (d / "a.txt").write_text("one\\n"), (d / ".hidden").write_text("x")
>>> [f.name for f in load_corpus(d)]
['a.txt', 'b.txt']
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Callable, Generator, Iterable
from pathlib import Path

from tokexplorer.core.errors import Cancelled, CorpusError, InputError
from tokexplorer.core.io.corpus import RAW, Corpus, CorpusFile, PathLike, decode_file_bytes
from tokexplorer.core.io.labels import name_as_given
from tokexplorer.core.types import Progress, run_to_end

__all__ = ["CHUNK_BYTES", "collect_files", "load_corpus", "read_corpus"]

#: Read size for :func:`read_corpus` progress reports, in bytes.
CHUNK_BYTES = 1 << 20


def check_encoding(encoding: str | None) -> None:
    """Refuse an ``encoding`` that is not a known codec (None: detect per file; :data:`RAW` is known).

    Raises:
        InputError: ``"unknown encoding 'x'"``.

    >>> check_encoding("gbk"), check_encoding(None)
    (None, None)
    """
    if encoding is not None and encoding != RAW:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise InputError(f"unknown encoding {encoding!r}") from None


def _size_or_zero(p: Path) -> int:
    """Size of a file in bytes; 0 when it cannot be read (the error comes when it is opened)."""
    try:
        return p.stat().st_size
    except OSError:
        return 0


def _is_hidden(p: Path) -> bool:
    return p.name.startswith(".")


def path_list(paths: PathLike | Iterable[PathLike]) -> tuple[str, ...]:
    """``paths`` as given, one str each: one path (str or path-like) or an iterable of them.

    >>> path_list("a.txt"), path_list([Path("x"), "y"])
    (('a.txt',), ('x', 'y'))
    """
    return (str(paths),) if isinstance(paths, (str, os.PathLike)) else tuple(str(p) for p in paths)


def collect_files(paths: PathLike | Iterable[PathLike], *, recursive: bool = True) -> tuple[list[Path], list[str]]:
    """Expand files and folders into a list of files.

    Folders are walked in sorted order (names compared as str), skipping hidden
    files and folders (names starting with ``.``); with ``recursive=False`` only
    a folder's direct files are taken. Files named explicitly are kept even if
    hidden.

    Args:
        paths: one path or an iterable of paths (files or folders).
        recursive: descend into sub-folders.

    Returns:
        (files, errors): the files in order, and one line per path that does not
        exist or cannot be listed (naming it by its path as given).
    """
    files: list[Path] = []
    errors: list[str] = []

    def walk(folder: Path) -> None:
        try:
            entries = sorted(folder.iterdir(), key=lambda e: e.name)
        except OSError as exc:
            errors.append(f"{folder}: cannot list folder ({exc.strerror or exc})")
            return
        for e in entries:
            if _is_hidden(e):
                continue
            if e.is_dir():
                if recursive:
                    walk(e)
            elif e.is_file():
                files.append(e)

    for raw in path_list(paths):
        p = Path(raw)
        if p.is_dir():
            walk(p)
        elif p.is_file():
            files.append(p)
        else:
            errors.append(f"{p}: no such file or folder")
    return files, errors


def read_corpus(
    paths: PathLike | Iterable[PathLike],
    *,
    recursive: bool = True,
    encoding: str | None = None,
    keep_bom: bool = False,
    cancel: Callable[[], bool] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> Generator[Progress, None, Corpus]:
    """Read files and folders, yielding progress; the generator returns the :class:`Corpus`.

    Each file is read in chunks of ``chunk_bytes`` bytes, with a
    ``Progress("reading", done_bytes, total_bytes, message=<the file's path as given>)`` after
    each chunk (totals are the files' sizes when listed). Files that cannot be
    read or look binary go to :attr:`Corpus.errors`; they do not stop the run.

    Args:
        paths: one path or an iterable of paths (files or folders).
        recursive: descend into sub-folders.
        encoding: codec for every file (None: detect per file; see
            :func:`read_text_file`).
        keep_bom: keep byte order marks as U+FEFF.
        cancel: called between chunks; when it returns True the run stops.
        chunk_bytes: read size in bytes (>= 1).

    Yields:
        :class:`~tokexplorer.core.types.Progress` with phase ``"reading"`` (units: bytes).

    Returns:
        :class:`Corpus` (via ``StopIteration.value``; see :func:`load_corpus`).

    Raises:
        Cancelled: ``cancel()`` returned True.
        InputError: ``chunk_bytes`` < 1, or ``encoding`` is not a known codec.
    """
    if chunk_bytes < 1:
        raise InputError(f"chunk_bytes must be at least 1, not {chunk_bytes}")
    check_encoding(encoding)
    roots = path_list(paths)
    files, errors = collect_files(roots, recursive=recursive)
    total = sum(_size_or_zero(f) for f in files)
    done = 0
    yield Progress("reading", 0, total, f"{len(files):,} file{'s' * (len(files) != 1)}", unit="bytes")
    out: list[CorpusFile] = []
    for f in files:
        buf = bytearray()
        try:
            with open(f, "rb") as fh:
                while True:
                    if cancel is not None and cancel():
                        raise Cancelled("reading cancelled")
                    chunk = fh.read(chunk_bytes)
                    if not chunk:
                        break
                    buf += chunk
                    done += len(chunk)
                    yield Progress("reading", done, max(total, done), str(f), unit="bytes")
        except OSError as exc:
            errors.append(f"{f}: cannot read ({exc.strerror or exc})")
            continue
        try:
            out.append(decode_file_bytes(bytes(buf), path=f, encoding=encoding, keep_bom=keep_bom))
        except CorpusError as exc:
            errors.append(name_as_given(f, str(exc)))
    return Corpus(tuple(out), tuple(errors), roots=roots)


def load_corpus(
    paths: PathLike | Iterable[PathLike],
    *,
    recursive: bool = True,
    encoding: str | None = None,
    keep_bom: bool = False,
) -> Corpus:
    """Read files and folders to the end (see :func:`read_corpus`) and return the :class:`Corpus`.

    Raises:
        InputError: ``encoding`` is not a known codec.
    """
    return run_to_end(read_corpus(paths, recursive=recursive, encoding=encoding, keep_bom=keep_bom))
