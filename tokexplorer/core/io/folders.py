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
from collections.abc import Callable, Generator, Iterable
from pathlib import Path

from tokexplorer.core.errors import Cancelled, CorpusError, InputError
from tokexplorer.core.io.corpus import RAW, Corpus, CorpusFile, PathLike, decode_file_bytes
from tokexplorer.core.io.file_encodings import FileEncodings, codec_for, given_codecs
from tokexplorer.core.io.labels import name_as_given
from tokexplorer.core.io.walking import path_list, walk_files
from tokexplorer.core.types import Progress, run_to_end

__all__ = ["CHUNK_BYTES", "collect_files", "load_corpus", "path_list", "read_corpus"]

#: Read size for :func:`read_corpus` progress reports, in bytes.
CHUNK_BYTES = 1 << 20


def check_encoding(encoding: str | FileEncodings | None) -> None:
    """Refuse an ``encoding`` that is not a known codec (None: detect per file; :data:`RAW` is known;
    a :class:`~.file_encodings.FileEncodings`: each codec it names).

    Raises:
        InputError: ``"unknown encoding 'x'"``.

    >>> check_encoding("gbk"), check_encoding(None)
    (None, None)
    """
    for codec in given_codecs(encoding):
        if codec != RAW:
            try:
                codecs.lookup(codec)
            except LookupError:
                raise InputError(f"unknown encoding {codec!r}") from None


def _size_or_zero(p: Path) -> int:
    """Size of a file in bytes; 0 when it cannot be read (the error comes when it is opened)."""
    try:
        return p.stat().st_size
    except OSError:
        return 0


def collect_files(paths: PathLike | Iterable[PathLike], *, recursive: bool = True) -> tuple[list[Path], list[str]]:
    """Expand files and folders into a list of files, by the rule of
    :func:`~tokexplorer.core.io.walking.walk_files`.

    Folders are walked in sorted order (names compared as str), skipping hidden
    files and folders (names starting with ``.``) and tokenizer model files (told
    by content: :func:`~tokexplorer.core.io.walking.model_kind`); with
    ``recursive=False`` only a folder's direct files are taken. Files named
    explicitly are kept even if hidden or a model (``walk_files`` notes the models).

    Args:
        paths: one path or an iterable of paths (files or folders).
        recursive: descend into sub-folders.

    Returns:
        (files, errors): the files in order, and one line per path that does not
        exist or cannot be listed (naming it by its path as given).
    """
    walk = walk_files(paths, recursive=recursive)
    return walk.files, walk.errors


def read_corpus(
    paths: PathLike | Iterable[PathLike],
    *,
    recursive: bool = True,
    encoding: str | FileEncodings | None = None,
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
            :func:`read_text_file`), or a :class:`~.file_encodings.FileEncodings` (codecs by file).
        keep_bom: keep byte order marks as U+FEFF.
        cancel: called between chunks; when it returns True the run stops.
        chunk_bytes: read size in bytes (>= 1).

    Yields:
        :class:`~tokexplorer.core.types.Progress` with phase ``"reading"`` (units: bytes).

    Returns:
        :class:`Corpus` (via ``StopIteration.value``; see :func:`load_corpus`); its
        :attr:`~Corpus.notes` name the tokenizer model files the folders held (left out)
        and the model files named by themselves (read).

    Raises:
        Cancelled: ``cancel()`` returned True.
        InputError: ``chunk_bytes`` < 1, or ``encoding`` is not a known codec.
    """
    if chunk_bytes < 1:
        raise InputError(f"chunk_bytes must be at least 1, not {chunk_bytes}")
    check_encoding(encoding)
    roots = path_list(paths)
    walk = walk_files(roots, recursive=recursive)
    files, errors = walk.files, walk.errors
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
            out.append(decode_file_bytes(bytes(buf), path=f, encoding=codec_for(encoding, f), keep_bom=keep_bom))
        except CorpusError as exc:
            errors.append(name_as_given(f, str(exc)))
    return Corpus(tuple(out), tuple(errors), roots=roots, notes=walk.notes)


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
