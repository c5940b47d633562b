"""Chunk counting for BPE training: the word-frequency table, at scale.

Training needs only how often each pre-tokenizer chunk occurs, so the corpus is
never needed as a whole: text is cut into pieces at points no chunk crosses,
each piece is pre-tokenized and counted (in a process pool on large inputs,
using every core), and the per-piece tables are summed. Files are read in
ranges of a few MiB by the workers themselves, so peak memory grows with the
number of distinct chunks, not with the corpus size.

Pieces are cut at safe cut points (:mod:`tokexplorer.core.text.safe_cuts`),
where no chunk of the gpt2, cl100k or o200k pattern ever crosses and where
cutting does not change how the text on either side splits: the shared
:data:`~tokexplorer.core.text.safe_cuts.LINE_START_CUT` (``x\\n|T``) and
counting's own :data:`~tokexplorer.core.text.safe_cuts.LETTER_SPACE_CUT`
(``ab| cd``: no branch matches a letter followed by a space).

Counting the pieces therefore gives exactly the counts of the whole text (a
property test checks it for all three patterns).

>>> counts, n_special = run(count_texts(["a b a\\nb"], pattern="gpt2"))
>>> sorted(counts.items())
[('\\n', 1), (' a', 1), (' b', 1), ('a', 1), ('b', 1)]
"""

from __future__ import annotations

import codecs
import os
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

import regex

from tokexplorer.core.bpe.count_pool import default_workers, merge_counts, pool_map, task_batches
from tokexplorer.core.bpe.specials import special_regex
from tokexplorer.core.errors import Cancelled, CorpusError
from tokexplorer.core.text import (
    LETTER_SPACE_CUT,
    LETTER_SPACE_CUT_ASCII,
    LINE_START_CUT,
    LINE_START_CUT_ASCII,
    clean_text,
    codec_name,
    compile_splitter,
    pattern_string,
)
from tokexplorer.core.types import Progress, run_to_end

run = run_to_end  # the name the doctests and callers use

PIECE_CHARS = 1 << 18
"""Characters per piece when counting in this process (progress and cancel checks)."""

POOL_PIECE_CHARS = 1 << 20
"""Characters (or bytes, for files) per piece sent to a worker process."""

POOL_MIN_CHARS = 1 << 22
"""Below this many characters in total the pool's start-up cost is not worth it."""

# Counting's safe cut points (see tokexplorer.core.text.safe_cuts): the shared
# line-start rule and counting's own letter-space rule; on raw file bytes their
# ASCII twins (a byte below 0x80 is that ASCII character in UTF-8 and in
# ASCII-compatible encodings).
_SAFE_CUT = regex.compile(LINE_START_CUT + "|" + LETTER_SPACE_CUT)
_SAFE_CUT_BYTES = regex.compile(LINE_START_CUT_ASCII + b"|" + LETTER_SPACE_CUT_ASCII)
_BYTE_CUT_ENCODINGS = {"utf8", "utf8sig", "ascii", "latin1", "iso88591", "cp1252", "windows1252"}


def _codec_key(encoding: str) -> str:
    """The codec's canonical name without dashes and underscores (``"utf8"``); LookupError if unknown."""
    return codecs.lookup(encoding).name.replace("-", "").replace("_", "")


def safe_pieces(text: str, size: int = PIECE_CHARS) -> Iterator[str]:
    """Cut ``text`` into pieces of about ``size`` characters at safe cut points.

    A text without a safe point after ``size`` characters stays one piece.

    >>> list(safe_pieces("one two three\\nFour five", size=5))
    ['one two', ' three\\n', 'Four five']
    """
    if not text:
        return
    n = len(text)
    start = 0
    while start < n:
        m = _SAFE_CUT.search(text, start + size) if start + size < n else None
        end = m.start() if m else n
        yield text[start:end]
        start = end


def count_piece(
    text: str, pat_str: str | None, specials: Sequence[str], *, into: Counter | None = None, clean: bool = True
) -> tuple[Counter, int]:
    """Count the chunks of one piece of text (runs in a worker process too).

    Args:
        text: the piece; lone surrogates are cleaned first.
        pat_str: the split pattern string, or None for no pre-tokenization.
        specials: special token texts to cut out before splitting.
        into: a table to add the counts to (at C speed) instead of a new one.
        clean: False skips looking for surrogates, for text that cannot hold any
            (decoded from bytes by a codec that never makes one; looking is a tenth
            of the time of counting a range of English).

    Returns:
        ``(Counter of chunk str -> count, number of special token spellings cut out)``;
        the Counter is ``into`` when given.

    >>> count_piece("ab ab<s>ab", pattern_string("gpt2"), ["<s>"])
    (Counter({'ab': 2, ' ab': 1}), 1)
    """
    if clean:
        text = clean_text(text).text
    counts: Counter = Counter() if into is None else into
    sre = special_regex(specials)
    segments = sre.split(text) if sre is not None else [text]
    n_special = len(segments) - 1
    if pat_str is None:
        counts.update(s for s in segments if s)
    else:
        pat = compile_splitter(pat_str)
        for seg in segments:
            counts.update(pat.findall(seg))
    return counts, n_special


@dataclass(frozen=True)
class FileRange:
    """One counting job: bytes ``[start, end)`` of a file and how to count them.

    Attributes:
        path: the file.
        start: first byte (inclusive); a safe cut point (see :func:`plan_file_ranges`).
        end: end byte (exclusive); a safe cut point or the file's end.
        encoding: the file's encoding (Python codec name).
        pat_str: the split pattern string, or None for no pre-tokenization.
        specials: special token texts to cut out before splitting.
        errors: decode error handler (``"replace"``: undecodable bytes become U+FFFD).
    """

    path: str
    start: int
    end: int
    encoding: str
    pat_str: str | None
    specials: Sequence[str]
    errors: str = "strict"


def count_file_range(job: FileRange, *, into: Counter | None = None) -> tuple[Counter, int]:
    """Read bytes ``[job.start, job.end)`` of a file, decode them and count their
    chunks (runs in a worker process too); a UTF-8 BOM at byte 0 is dropped.

    Args:
        job: the range and how to count it.
        into: a table to add the counts to instead of a new one.

    Returns:
        ``(Counter of chunk str -> count, number of special token spellings cut out)``;
        the Counter is ``into`` when given.

    Raises:
        CorpusError: the bytes are not valid in ``job.encoding`` (the message
            gives the absolute byte offset: :func:`undecodable_message`).
    """
    try:
        text = range_text(job)
    except UnicodeDecodeError as exc:
        raise CorpusError(undecodable_message(job.path, job.encoding, job.start + exc.start, exc.reason)) from None
    return count_range_text(job, text, into=into)


def range_text(job: FileRange) -> str:
    """The text of bytes ``[job.start, job.end)`` decoded with ``job.encoding`` and
    ``job.errors`` (a UTF-8 BOM at byte 0 dropped).

    Raises:
        UnicodeDecodeError: bytes that do not decode (``start`` counted from ``job.start``).
        OSError: the file cannot be read.
    """
    with open(job.path, "rb") as f:
        f.seek(job.start)
        data = f.read(job.end - job.start)
    text = data.decode(job.encoding, job.errors)
    if job.start == 0 and text.startswith("\ufeff") and job.encoding.replace("-", "").lower() in ("utf8", "utf8sig"):
        text = text[1:]
    return text


def count_range_text(job: FileRange, text: str, *, into: Counter | None = None) -> tuple[Counter, int]:
    """Count the chunks of ``text``, the :func:`range_text` of ``job`` (as :func:`count_file_range`)."""
    # UTF-8 and single-byte codecs never decode to a surrogate (UTF-7 can)
    clean = job.errors not in ("strict", "replace") or _codec_key(job.encoding) not in _BYTE_CUT_ENCODINGS
    return count_piece(text, job.pat_str, job.specials, into=into, clean=clean)


def undecodable_message(path: str | os.PathLike, encoding: str, offset: int, reason: str) -> str:
    """The one line of a file whose bytes do not decode: where and why.

    >>> undecodable_message("/c/late.txt", "utf-8", 120003, "invalid continuation byte")
    'late.txt: not valid UTF-8 at byte 120003 (invalid continuation byte)'
    """
    return f"{os.path.basename(path)}: not valid {codec_name(encoding)} at byte {offset} ({reason})"


def count_file_ranges(jobs: Sequence[FileRange]) -> tuple[Counter, int]:
    """Count several file ranges into one table (a worker task of :func:`count_files`).

    Returns:
        ``(Counter of chunk str -> count, number of special token spellings cut out)``.

    Raises:
        CorpusError: as :func:`count_file_range`.
    """
    counts: Counter = Counter()
    n_special = 0
    for job in jobs:
        n_special += count_file_range(job, into=counts)[1]
    return counts, n_special


def plan_file_ranges(path: str, size: int = POOL_PIECE_CHARS) -> list[tuple[int, int]]:
    """Cut a file into byte ranges of about ``size`` bytes at safe cut points.

    Cuts fall after a ``\\n`` byte followed by an ASCII letter or digit, which is
    a safe point in UTF-8 and in ASCII-compatible legacy encodings (GBK, Big5,
    Shift_JIS, Latin-1: none uses byte 0x0A inside a multi-byte character).
    Only a small window around each cut is read.

    Returns:
        list of half-open ``(start, end)`` byte ranges covering the file.
    """
    total = os.path.getsize(path)
    ranges: list[tuple[int, int]] = []
    start = 0
    with open(path, "rb") as f:
        while start < total:
            probe = start + size
            if probe >= total:
                ranges.append((start, total))
                break
            cut = None
            pos = probe
            while pos < total and cut is None:
                f.seek(pos - 2)
                window = f.read((1 << 16) + 2)
                m = _SAFE_CUT_BYTES.search(window, 2)
                if m:
                    cut = pos - 2 + m.start()
                elif len(window) < (1 << 16) + 2:
                    break
                else:
                    pos += 1 << 16
            end = cut if cut is not None else total
            ranges.append((start, end))
            start = end
    return ranges


def count_texts(
    texts: str | Iterable[str],
    *,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    cancel: Callable[[], bool] | None = None,
    workers: int | None = None,
) -> Generator[Progress, None, tuple[Counter, int]]:
    """Count chunks over in-memory texts, yielding progress.

    Args:
        texts: one str or an iterable of str (files, lines...).
        pattern: pre-tokenizer name.
        special_tokens: special token texts, cut out before splitting.
        cancel: called between pieces; returning True raises :class:`Cancelled`.
        workers: processes for large inputs (default: all cores; 1 = this process).

    Yields:
        Progress("pre-tokenizing", characters done, total characters or None).

    Returns:
        ``(Counter chunk -> count, special token spellings cut out)``.

    Raises:
        Cancelled: ``cancel()`` returned True.
        InputError: unknown pattern name.

    Worker processes are forked on Linux when this process runs no other
    thread, and started with ``spawn`` otherwise (the GUI, macOS, Windows);
    ``spawn`` imports the main module again, so a script that trains should
    keep its top-level code under ``if __name__ == "__main__":`` (otherwise
    counting falls back to this process).

    >>> counts, n_special = run(count_texts(["ab ab", "ab"], pattern="gpt2", workers=1))
    >>> sorted(counts.items()), n_special
    ([(' ab', 1), ('ab', 2)], 0)
    """
    pat_str = pattern_string(pattern)
    specials = list(special_tokens)
    if isinstance(texts, str):
        texts = [texts]
    total = sum(len(t) for t in texts) if isinstance(texts, (list, tuple)) else None
    workers = default_workers() if workers is None else max(1, workers)
    # A special token spelled across a cut point would be missed: then do not cut.
    may_cut = pat_str is not None and not any("\n" in s for s in specials)
    if workers > 1 and total is not None and total >= POOL_MIN_CHARS:
        jobs: list[tuple] = []
        sizes: list[int] = []
        batch: list[str] = []
        batch_len = 0

        def flush() -> None:
            nonlocal batch, batch_len
            if batch:
                jobs.append((batch,))  # texts stay separate: a text's end is not a cut point
                sizes.append(batch_len)
                batch, batch_len = [], 0

        for text in texts:
            pieces = safe_pieces(text, POOL_PIECE_CHARS) if may_cut else [text]
            for piece in pieces:
                batch.append(piece)
                batch_len += len(piece)
                if batch_len >= POOL_PIECE_CHARS:
                    flush()
        flush()
        try:
            return (yield from pool_map(
                [(j[0], pat_str, specials) for j in jobs], _count_batch, workers, sizes, total, cancel,
                unit="characters",
            ))
        except BrokenProcessPool:
            pass  # e.g. a main script without the __main__ guard: count here instead

    counts: Counter = Counter()
    n_special = 0
    done = 0
    for text in texts:
        pieces = safe_pieces(text) if may_cut else [text]
        for piece in pieces:
            c, n = count_piece(piece, pat_str, specials)
            merge_counts(counts, c)
            n_special += n
            done += len(piece)
            if cancel is not None and cancel():
                raise Cancelled("training cancelled")
            yield Progress("pre-tokenizing", done, total, unit="characters")
    return counts, n_special


def _count_batch(batch: str | list[str], pat_str: str | None, specials: Sequence[str]) -> tuple[Counter, int]:
    """Worker entry: count a piece, or a list of texts counted one by one."""
    if isinstance(batch, str):
        return count_piece(batch, pat_str, specials)
    counts: Counter = Counter()
    n_special = 0
    for text in batch:
        c, n = count_piece(text, pat_str, specials)
        merge_counts(counts, c)
        n_special += n
    return counts, n_special


def file_jobs(
    paths: Sequence[str | os.PathLike],
    *,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    encoding: str | Sequence[str] = "utf-8",
    errors: str | Sequence[str] = "strict",
) -> tuple[list[FileRange], list[int]]:
    """The counting jobs of files, ``(jobs, sizes)``: a :class:`FileRange` per range of
    about 1 MiB cut at safe points (:func:`plan_file_ranges`) and its size in bytes;
    whole files where no cut is safe (no pattern, a special token with a space or line
    break, a codec not ASCII-compatible). ``encoding`` and ``errors``: one codec (error
    handler) for every file, or one per path. CorpusError: bad codec, unreadable file.

    >>> import pathlib, tempfile; p = pathlib.Path(tempfile.mkdtemp(), "a"); _ = p.write_text("word " * 600_000)
    >>> [(j.start, j.end) for j in file_jobs([p])[0]]
    [(0, 1048579), (1048579, 2097159), (2097159, 3000000)]
    """
    pat_str = pattern_string(pattern)
    specials = list(special_tokens)
    file_codecs = [encoding] * len(paths) if isinstance(encoding, str) else list(encoding)
    handlers = [errors] * len(paths) if isinstance(errors, str) else list(errors)
    if len(file_codecs) != len(paths) or len(handlers) != len(paths):
        raise CorpusError(f"{len(file_codecs)} encodings and {len(handlers)} error handlers for {len(paths)} files")
    no_cut = pat_str is None or any("\n" in s or " " in s for s in specials)
    jobs: list[FileRange] = []
    sizes: list[int] = []
    for p, enc, handler in zip(paths, file_codecs, handlers):
        p = os.fspath(p)
        try:
            codec = _codec_key(enc)
        except LookupError:
            raise CorpusError(f"unknown encoding {enc!r}") from None
        try:
            size = os.path.getsize(p)
            ranges = [(0, size)] if no_cut or codec not in _BYTE_CUT_ENCODINGS else plan_file_ranges(p)
        except OSError as exc:
            raise CorpusError(f"{os.path.basename(p)}: cannot read ({exc.strerror or exc})") from None
        for a, b in ranges:
            jobs.append(FileRange(p, a, b, encoding=enc, pat_str=pat_str, specials=specials, errors=handler))
            sizes.append(b - a)
    return jobs, sizes


def count_files(
    paths: Sequence[str | os.PathLike],
    *,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    encoding: str | Sequence[str] = "utf-8",
    cancel: Callable[[], bool] | None = None,
    workers: int | None = None,
    errors: str = "strict",
) -> Generator[Progress, None, tuple[Counter, int]]:
    """Count chunks over files without ever holding a whole file in memory.

    Worker processes read, decode and count the ranges of :func:`file_jobs`; a
    leading UTF-8 BOM is dropped. With ``pattern="none"`` a file is one chunk.

    Args:
        paths: text files.
        pattern: pre-tokenizer name.
        special_tokens: special token texts, cut out before splitting.
        encoding: the files' encoding (Python codec name), or one per path.
        cancel: returning True raises :class:`Cancelled`.
        workers: processes (default: all cores; 1 = this process).
        errors: decode error handler; ``"replace"`` trains on U+FFFD where
            bytes are undecodable instead of raising.

    Yields:
        Progress("pre-tokenizing", bytes done, total bytes).

    Returns:
        ``(Counter chunk -> count, special token spellings cut out)``.

    Raises:
        CorpusError: a file cannot be read or decoded (names the file and byte offset).
        Cancelled: ``cancel()`` returned True.
    """
    jobs, sizes = file_jobs(paths, pattern=pattern, special_tokens=special_tokens, encoding=encoding, errors=errors)
    total = sum(sizes)
    workers = default_workers() if workers is None else max(1, workers)
    if workers > 1 and len(jobs) > 1:
        batches = task_batches(sizes, workers)
        tasks = [([jobs[i] for i in b],) for b in batches]
        task_sizes = [sum(sizes[i] for i in b) for b in batches]
        try:
            return (yield from pool_map(tasks, count_file_ranges, workers, task_sizes, total, cancel, unit="bytes"))
        except BrokenProcessPool:
            pass  # e.g. a main script without the __main__ guard: count here instead
    counts: Counter = Counter()
    n_special = 0
    done = 0
    for job, size in zip(jobs, sizes):
        c, n = count_file_range(job)
        merge_counts(counts, c)
        n_special += n
        done += size
        if cancel is not None and cancel():
            raise Cancelled("training cancelled")
        yield Progress("pre-tokenizing", done, total, unit="bytes")
    return counts, n_special
