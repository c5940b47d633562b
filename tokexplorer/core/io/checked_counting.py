"""``count --dask``: each file's start checked here, the rest where it is counted.

Reading every byte here to check that a corpus decodes doubled what counting reads,
on the one machine that is not a worker (hundreds of GB). Here, instead,
:func:`~tokexplorer.core.io.reading.counting_files` with ``head_only`` checks each
file's first :data:`~tokexplorer.core.io.reading.HEAD_BYTES` (byte order mark,
binary or not, control characters, whether it starts as UTF-8 or as the codec
given); a file that does not start so is read whole here, as counting here reads it.
The workers decode the rest strictly as they count it, and report the ranges that do
not decode and each file's line ends (:func:`~tokexplorer.core.bpe.dask_counting.count_files_dask_checked`).

:func:`count_checked` then gives each file the notes counting here gives it: the
mixed-line-endings note from the workers' line ends, and for a file the workers could
not decode, the one reading rule's: that file alone is read whole here
(:func:`~tokexplorer.core.io.corpus.decode_file_bytes`: "not valid UTF-8 at byte N
(…); read as gb18030 (guessed, …)", or damaged and left out), its decoded ranges are
taken back out of the counts, and it is counted again with the codec the rule chose.
The table is the one counting here makes.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, replace

from tokexplorer.core.bpe.counting import FileRange, count_file_range, count_file_ranges, file_jobs, merge_counts
from tokexplorer.core.bpe.dask_counting import RangesReport, count_files_dask_checked
from tokexplorer.core.io.corpus import decode_file_bytes, endings_note
from tokexplorer.core.io.file_encodings import FileEncodings, codec_for
from tokexplorer.core.io.reading import DAMAGED_HINT, CountedFile, damaged_message
from tokexplorer.core.io.word_counts import WordCounts
from tokexplorer.core.types import Progress

__all__ = ["CheckedCounts", "count_checked"]


@dataclass(frozen=True, slots=True)
class CheckedCounts:
    """The table of :func:`count_checked` and what counting found about the files.

    Attributes:
        table: the word-count table (of the files counted: :attr:`WordCounts.files`, ``bytes``).
        files: every file given, in order, as read in the end: :attr:`CountedFile.checked`,
            its codec and its notes complete (those of ``files`` plus the mixed-line-endings
            note, or the reading rule's for a file the workers could not decode); not
            :attr:`CountedFile.counted` when counting found it damaged.
        problems: one line per file left out while counting (damaged), as
            :func:`~tokexplorer.core.io.reading.counting_files` says it.
    """

    table: WordCounts
    files: list[CountedFile]
    problems: list[str]


def count_checked(
    files: Sequence[CountedFile],
    *,
    address: str,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    encoding: str | FileEncodings | None = None,
    allow_damaged: bool = False,
    damaged_hint: str = DAMAGED_HINT,
    cancel: Callable[[], bool] | None = None,
) -> Generator[Progress, None, CheckedCounts]:
    """Count ``files`` (those :attr:`~CountedFile.counted` of ``counting_files(head_only=True)``)
    on the Dask cluster at ``address``, checking there what was not checked here.

    Args:
        files: the files and how to decode them (a lossy one with U+FFFD: ``errors="replace"``).
        address: the scheduler's address, or ``"local"`` for a local cluster.
        pattern, special_tokens: as :func:`~tokexplorer.core.io.word_counts.count_word_counts`.
        encoding: the codec given for every file (``--encoding``), None for UTF-8 or the guess, or
            a :class:`~.file_encodings.FileEncodings` (codecs by file).
        allow_damaged: count a file whose decode inserts U+FFFD (else it is left out).
        damaged_hint: how to go on, ending the line of a damaged file.
        cancel: returning True raises ``Cancelled``.

    Yields:
        Progress("pre-tokenizing", bytes done, total bytes).

    Raises:
        BackendUnavailableError: Dask is not installed.
        InputError: no Dask scheduler at ``address``.
        CorpusError: a file cannot be read.
    """
    usable = [f for f in files if f.counted]
    specials = tuple(dict.fromkeys(special_tokens))
    report, jobs = yield from count_files_dask_checked(
        [str(f.path) for f in usable], address=address, pattern=pattern, special_tokens=specials,
        encoding=[f.encoding for f in usable], errors=["replace" if f.lossy else "strict" for f in usable],
        cancel=cancel,
    )  # fmt: skip
    out: list[CountedFile] = []
    problems: list[str] = []
    for f in usable:
        key = str(f.path)
        if key not in report.undecodable:
            ends = report.line_ends.get(key, [0, 0, 0])
            mixed = (endings_note(*ends),) if not f.checked and sum(1 for k in ends if k) > 1 else ()
            out.append(replace(f, notes=f.notes + mixed, checked=True))
            continue
        # read as counting here reads it, its decoded ranges taken back out of the counts
        got = decode_file_bytes(f.path.read_bytes(), path=f.path, encoding=codec_for(encoding, f.path))
        _take_out(report, [j for j in jobs if j.path == key and (key, j.start) not in report.failed])
        left_out = got.lossy and not allow_damaged
        if left_out:
            problems.append(damaged_message(got, hint=damaged_hint))
        else:
            errors = "replace" if got.lossy else "strict"
            again = file_jobs([key], pattern=pattern, special_tokens=specials, encoding=got.encoding, errors=errors)[0]
            counts, n = count_file_ranges(again)
            merge_counts(report.counts, counts)
            report.n_special += n
        out.append(CountedFile(f.path, got.encoding, got.notes, got.lossy, counted=not left_out))
    counted = [f for f in out if f.counted]
    size = sum(os.path.getsize(f.path) for f in counted)
    table = WordCounts(report.counts, pattern, specials, report.n_special, files=len(counted), bytes=size)
    return CheckedCounts(table, out, problems)


def _take_out(report: RangesReport, jobs: Sequence[FileRange]) -> None:
    """Subtract the counts of ``jobs`` (ranges the workers decoded and counted) from ``report``."""
    counts: Counter = report.counts
    for job in jobs:
        part, n = count_file_range(job)
        report.n_special -= n
        for chunk, k in part.items():
            left = counts[chunk] - k
            if left:
                counts[chunk] = left
            else:
                del counts[chunk]
