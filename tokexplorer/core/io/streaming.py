"""Corpora too large to hold in memory: files scanned in bounded pieces, a sample kept.

:func:`stream_corpus` is how the window opens files and folders. Below
``stream_bytes`` in total (:data:`STREAM_BYTES`, the command line's streaming
threshold too) it is :func:`~tokexplorer.core.io.folders.read_corpus`: every text
held, as always. At or above it no text is held: each file is read in pieces of
``piece_bytes`` (:data:`PIECE_BYTES`) and becomes a :class:`CorpusFile` with
``streamed=True`` and ``text=""`` whose size, encoding, BOM, line endings,
character and line counts and notes are the ones :func:`read_text_file` would
give (the one reading rule of :mod:`tokexplorer.core.io.corpus`). The
:class:`Corpus` keeps a sample: its first ``sample_chars`` characters
(:data:`SAMPLE_CHARS`), in file order and one text per file, for the views that show text.

How a streamed file is read:

* valid UTF-8 (a UTF-8 BOM included) is decoded piece by piece and never held;
* any other file (a UTF-16/32 BOM, bytes that are not UTF-8, an encoding given)
  is read whole by :func:`decode_file_bytes`, so its encoding is guessed by the same
  rule, and its text dropped after counting; a file larger than ``whole_bytes``
  (:data:`STREAM_BYTES`) that needs this is refused with a one-line reason (convert it to UTF-8);
* a binary file is refused from its first 64 KiB, as :func:`check_binary` does.

:func:`file_text_pieces` reads a streamed file's text again, in pieces (the
statistics, training on other encodings).

>>> import pathlib, tempfile
>>> from tokexplorer.core.types import run_to_end
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "a.txt").write_bytes(b"one\\r\\ntwo\\r\\n"), (d / "b.txt").write_bytes(b"three\\n")
>>> steps = stream_corpus([d], stream_bytes=1, piece_bytes=4, sample_chars=7)
>>> corpus = run_to_end(steps)
>>> [(f.name, f.text, f.n_lines, f.line_ending, f.streamed) for f in corpus.files]
[('a.txt', '', 2, 'CRLF', True), ('b.txt', '', 1, 'LF', True)]
>>> corpus.sample, corpus.sample_note
(('one\\r\\ntw',), 'sample: first 7 characters of 16 B, 2 files')
"""

from __future__ import annotations

import codecs
import dataclasses
import multiprocessing
from collections.abc import Callable, Generator, Iterable, Iterator
from multiprocessing.connection import Connection
from pathlib import Path
from typing import BinaryIO

from tokexplorer.core.errors import Cancelled, CorpusError, InputError
from tokexplorer.core.io.corpus import Corpus, CorpusFile, PathLike, _bom_note, decode_file_bytes, endings_note
from tokexplorer.core.io.encodings import BINARY_SNIFF_BYTES, check_binary, control_note, detect_bom
from tokexplorer.core.io.file_encodings import FileEncodings, codec_for
from tokexplorer.core.io.folders import _size_or_zero, check_encoding, path_list, read_corpus
from tokexplorer.core.io.labels import name_as_given
from tokexplorer.core.io.sizes import format_size
from tokexplorer.core.io.walking import walk_files
from tokexplorer.core.types import Progress

__all__ = ["PIECE_BYTES", "SAMPLE_CHARS", "STREAM_BYTES", "file_text_pieces", "stream_corpus"]

#: Corpora at least this large (bytes on disk) are streamed, not held in memory.
STREAM_BYTES = 64 << 20
#: Bytes read at a time while streaming a file.
PIECE_BYTES = 1 << 20
#: Characters of a streamed corpus kept as its sample (:attr:`Corpus.sample`).
SAMPLE_CHARS = 200_000

_UTF8_BOM = b"\xef\xbb\xbf"


class _Tally:
    """Counts over a text seen piece by piece: characters, LF/CRLF/CR, the last
    character, the head for the control-character note."""

    def __init__(self) -> None:
        self.n_chars = self.lf = self.crlf = self.cr = 0
        self.last = ""
        self.head = ""
        self.held_cr = False  # a CR ending the previous piece (a CRLF may straddle two)

    def add(self, text: str) -> None:
        if not text:
            return
        self.n_chars += len(text)
        if len(self.head) < BINARY_SNIFF_BYTES:
            self.head += text[: BINARY_SNIFF_BYTES - len(self.head)]
        self.last = text[-1]
        if self.held_cr:
            text = "\r" + text
            self.held_cr = False
        if text.endswith("\r"):
            self.held_cr = True
            text = text[:-1]
        crlf = text.count("\r\n")
        self.crlf += crlf
        self.lf += text.count("\n") - crlf
        self.cr += text.count("\r") - crlf

    def finish(self) -> None:
        if self.held_cr:
            self.cr += 1
            self.held_cr = False

    @property
    def n_lines(self) -> int:
        if not self.n_chars:
            return 0
        return self.lf + self.crlf + self.cr + (0 if self.last in "\r\n" else 1)


def _record_of(p: Path, tally: _Tally, *, size: int, bom: bool, keep_bom: bool) -> CorpusFile:
    """The streamed file's record: the fields :func:`read_text_file` gives, without the text."""
    kinds = [k for k, n in (("LF", tally.lf), ("CRLF", tally.crlf), ("CR", tally.cr)) if n]
    ending = "none" if not kinds else kinds[0] if len(kinds) == 1 else "mixed"
    notes = [_bom_note("UTF-8", keep_bom=keep_bom)] if bom else []
    ctrl = control_note(tally.head)
    if ctrl:
        notes.append(f"{p.name}: {ctrl}")
    if ending == "mixed":
        notes.append(endings_note(tally.lf, tally.crlf, tally.cr))
    return CorpusFile(
        p, "", size, "utf-8-sig" if bom else "utf-8", False, "UTF-8" if bom else None, ending,
        tally.n_chars, tally.n_lines, tuple(notes), streamed=True,
    )  # fmt: skip


def _scan_utf8(
    p: Path, fh: BinaryIO, head: bytes, *, size: int, keep_bom: bool, piece_bytes: int, keep_chars: int,
    cancel: Callable[[], bool] | None,
) -> Generator[int, None, tuple[CorpusFile, str] | None]:  # fmt: skip
    """Decode a file strictly as UTF-8 piece by piece (yielding bytes read);
    ``(record, its first keep_chars characters)``, or None when it is not UTF-8."""
    bom = head.startswith(_UTF8_BOM)
    decoder = codecs.getincrementaldecoder("utf-8")("strict")
    tally = _Tally()
    kept: list[str] = []
    n_kept = 0
    if bom and keep_bom:
        tally.add("\ufeff")
        kept.append("\ufeff")
        n_kept = 1
    raw, data = head, head[3:] if bom else head
    while True:
        try:
            text = decoder.decode(data, final=not raw)
        except UnicodeDecodeError:
            return None
        tally.add(text)
        if n_kept < keep_chars and text:
            kept.append(text[: keep_chars - n_kept])
            n_kept += len(kept[-1])
        if not raw:
            break
        yield len(raw)
        if cancel is not None and cancel():
            raise Cancelled("reading cancelled")
        raw = data = fh.read(piece_bytes)
    tally.finish()
    return _record_of(p, tally, size=size, bom=bom, keep_bom=keep_bom), "".join(kept)


def _scan_file(
    p: Path, *, encoding: str | None, keep_bom: bool, piece_bytes: int, whole_limit: int, keep_chars: int,
    cancel: Callable[[], bool] | None,
) -> Generator[int, None, tuple[CorpusFile, str]]:  # fmt: skip
    """One file of a streamed corpus (see the module rule), yielding bytes read.

    Raises:
        CorpusError: unreadable, binary, or too large to read whole when it is not UTF-8.
    """
    try:
        size = p.stat().st_size
        with open(p, "rb") as fh:
            head = fh.read(max(piece_bytes, BINARY_SNIFF_BYTES))
            found = detect_bom(head)
            if head and encoding is None and (found is None or found[0] == "UTF-8"):
                check_binary(p.name, head)
                got = yield from _scan_utf8(
                    p, fh, head, size=size, keep_bom=keep_bom, piece_bytes=piece_bytes, keep_chars=keep_chars,
                    cancel=cancel,
                )  # fmt: skip
                if got is not None:
                    return got
            if size > whole_limit:
                why = f"given as {encoding}" if encoding is not None else "not UTF-8"
                raise CorpusError(
                    f"{p.name}: {why} and too large ({format_size(size)}) to read whole in a streamed corpus; "
                    "convert it to UTF-8 to use it"
                )
            fh.seek(0)
            data = fh.read()
    except OSError as exc:
        raise CorpusError(f"{p.name}: cannot read ({exc.strerror or exc})") from None
    f = decode_file_bytes(data, path=p, encoding=encoding, keep_bom=keep_bom)
    yield len(data)
    return dataclasses.replace(f, text="", streamed=True), f.text[:keep_chars]


def stream_corpus(
    paths: PathLike | Iterable[PathLike],
    *,
    recursive: bool = True,
    encoding: str | FileEncodings | None = None,
    keep_bom: bool = False,
    cancel: Callable[[], bool] | None = None,
    stream_bytes: int = STREAM_BYTES,
    piece_bytes: int = PIECE_BYTES,
    sample_chars: int = SAMPLE_CHARS,
    whole_bytes: int = STREAM_BYTES,
    in_child: bool = False,
) -> Generator[Progress | CorpusFile, None, Corpus]:
    """Open files and folders as a corpus, streaming it when it is large (see the module rule).

    Args:
        paths: one path or an iterable of paths (files or folders).
        recursive: descend into sub-folders.
        encoding: codec for every file (None: detect per file), or :data:`RAW`, or a
            :class:`~.file_encodings.FileEncodings` (codecs by file).
        keep_bom: keep byte order marks as U+FEFF.
        cancel: polled after every piece; True stops the run.
        stream_bytes: total size (bytes) from which the corpus is streamed; below
            it the corpus is read into memory by :func:`read_corpus`.
        piece_bytes: bytes read at a time (>= 1).
        sample_chars: characters kept as the streamed corpus's sample.
        whole_bytes: the largest file (bytes) read whole when streaming because
            it is not UTF-8; a larger one is refused.
        in_child: stream in a spawned process (a window: the reading then holds no
            lock its event loop needs); cancelling ends that process.

    Yields:
        ``Progress("reading", done bytes, total bytes, the file's path as given)`` after each
        piece, and when streaming, each file's :class:`CorpusFile` once it is read.

    Returns:
        the :class:`Corpus` (``StopIteration.value``); a streamed corpus has
        ``streamed=True`` files and its :attr:`Corpus.sample`; :attr:`Corpus.notes` name
        the tokenizer model files the folders held, left out (as :func:`read_corpus`).

    Raises:
        Cancelled: ``cancel()`` returned True.
        InputError: ``piece_bytes`` < 1, or ``encoding`` is not a known codec.
        CorpusError: with ``in_child``, the process failed (one line).
    """
    if piece_bytes < 1:
        raise InputError(f"piece_bytes must be at least 1, not {piece_bytes}")
    check_encoding(encoding)
    roots = path_list(paths)
    walk = walk_files(roots, recursive=recursive)
    files, errors = walk.files, walk.errors
    total = sum(_size_or_zero(f) for f in files)
    if total < stream_bytes:
        read = yield from read_corpus(files, encoding=encoding, keep_bom=keep_bom, cancel=cancel)
        return dataclasses.replace(read, errors=tuple(errors) + read.errors, roots=roots, notes=walk.notes)
    yield Progress("reading", 0, total, f"{len(files)} files", unit="bytes")
    opts = _ScanOptions(encoding, keep_bom, piece_bytes, whole_bytes, sample_chars)
    events = _scan_in_child(files, opts, cancel) if in_child else _scan_all(files, opts, cancel)
    out: list[CorpusFile] = []
    sample: list[str] = []
    done = 0
    for kind, value in events:
        if kind == "bytes":
            n, name = value
            done += n
            yield Progress("reading", min(done, total), total, name, unit="bytes")
        elif kind == "error":
            errors.append(value)
        else:
            f, head = value
            out.append(f)
            sample.append(head)
            yield f
    samples = tuple(part for part in sample if part)
    return Corpus(tuple(out), tuple(errors), sample=samples, roots=roots, notes=walk.notes)


@dataclasses.dataclass(frozen=True)
class _ScanOptions:
    encoding: str | FileEncodings | None
    keep_bom: bool
    piece_bytes: int
    whole_bytes: int
    sample_chars: int


def _scan_all(
    files: list[Path], opts: _ScanOptions, cancel: Callable[[], bool] | None
) -> Iterator[tuple[str, object]]:
    """Scan ``files`` in order: ``("bytes", (n, the file's path as given))`` after each piece, then per file
    ``("file", (record, sample part))`` or ``("error", one line)``."""
    n_sample = 0
    for p in files:
        steps = _scan_file(
            p, encoding=codec_for(opts.encoding, p), keep_bom=opts.keep_bom, piece_bytes=opts.piece_bytes,
            whole_limit=opts.whole_bytes, keep_chars=opts.sample_chars - n_sample, cancel=cancel,
        )  # fmt: skip
        try:
            while True:
                yield "bytes", (next(steps), str(p))
        except StopIteration as stop:
            f, head = stop.value
        except CorpusError as exc:
            yield "error", name_as_given(p, str(exc))
            continue
        head = "" if f.lossy else head
        n_sample += len(head)
        yield "file", (f, head)


def _child_main(conn: Connection, files: list[Path], opts: _ScanOptions) -> None:
    """The scanning process: every event of :func:`_scan_all` sent to the parent. It runs
    nicer (:data:`~tokexplorer.core.bpe.count_pool.WINDOW_WORKER_NICE`), as the window's
    training and counting processes do, so that on a machine of few cores the window's own
    threads come first for them; it ends with the window, as they do
    (:func:`~tokexplorer.core.bpe.count_pool.child_of_parent`)."""
    from tokexplorer.core.bpe.count_pool import WINDOW_WORKER_NICE, child_of_parent

    child_of_parent(WINDOW_WORKER_NICE)
    try:
        for event in _scan_all(files, opts, None):
            conn.send(event)
        conn.send(("end", None))
    except BaseException as exc:  # noqa: BLE001 - any failure reaches the parent as one line
        conn.send(("failed", f"{type(exc).__name__}: {exc}"))
    finally:
        conn.close()


def _scan_in_child(
    files: list[Path], opts: _ScanOptions, cancel: Callable[[], bool] | None
) -> Iterator[tuple[str, object]]:
    """:func:`_scan_all` run in a spawned process, so the work holds no lock of this
    process (a window's event loop stays free); cancelling ends the process.

    Raises:
        Cancelled: ``cancel()`` returned True.
        CorpusError: the process failed or ended early.
    """
    ctx = multiprocessing.get_context("spawn")
    ours, theirs = ctx.Pipe(duplex=False)
    child = ctx.Process(target=_child_main, args=(theirs, files, opts), daemon=True)
    try:
        child.start()
    except RuntimeError:  # a main script without the __main__ guard cannot spawn: scan here
        theirs.close()
        ours.close()
        yield from _scan_all(files, opts, cancel)
        return
    theirs.close()
    try:
        while True:
            if cancel is not None and cancel():
                raise Cancelled("reading cancelled")
            if not ours.poll(0.05):
                continue
            try:
                kind, value = ours.recv()
            except EOFError:
                raise CorpusError("the reading process ended early") from None
            if kind == "end":
                return
            if kind == "failed":
                raise CorpusError(f"reading failed: {value}")
            yield kind, value
    finally:
        if child.is_alive():
            child.terminate()
        child.join()
        ours.close()


def file_text_pieces(f: CorpusFile, *, piece_bytes: int = PIECE_BYTES) -> Iterator[str]:
    """The text of a file, read again from disk piece by piece (about ``piece_bytes``
    bytes each, never held whole when it is UTF-8): a file in memory gives its
    text; a streamed file is decoded with its encoding (U+FFFD where it was read
    lossily), its BOM dropped unless the record kept it (the text starts with U+FEFF).
    The pieces joined are the text :func:`read_text_file` gives.

    Raises:
        CorpusError: the file cannot be read any more.

    >>> import pathlib, tempfile
    >>> from tokexplorer.core.types import run_to_end
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = p.write_bytes(b"\\xef\\xbb\\xbfcaf\\xc3\\xa9\\n")
    >>> f = run_to_end(stream_corpus([p], stream_bytes=1)).files[0]
    >>> list(file_text_pieces(f, piece_bytes=4))
    ['c', 'afé', '\\n']
    """
    if not f.streamed:
        if f.text:
            yield f.text
        return
    if f.encoding not in ("utf-8", "utf-8-sig"):
        try:
            data = f.path.read_bytes()
        except OSError as exc:
            raise CorpusError(f"{f.name}: cannot read ({exc.strerror or exc})") from None
        detected = f.encoding_guessed or f.bom is not None
        keep = any(n.endswith("kept as U+FEFF") for n in f.notes)
        yield decode_file_bytes(data, path=f.path, encoding=None if detected else f.encoding, keep_bom=keep).text
        return
    decoder = codecs.getincrementaldecoder("utf-8")("replace" if f.lossy else "strict")
    first = True
    try:
        with open(f.path, "rb") as fh:
            while True:
                data = fh.read(piece_bytes)
                text = decoder.decode(data, final=not data)
                if first and f.bom and data:
                    kept = any(n.endswith("kept as U+FEFF") for n in f.notes)
                    text = ("\ufeff" if kept else "") + text.removeprefix("\ufeff")
                    first = False
                if text:
                    yield text
                if not data:
                    return
    except OSError as exc:
        raise CorpusError(f"{f.name}: cannot read ({exc.strerror or exc})") from None
