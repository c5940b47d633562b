"""``count``: the word-count table of text files, here or on a Dask cluster (:func:`count_on_dask`,
which ``train --dask`` uses too).

The table (:mod:`tokexplorer.core.io.word_counts`) holds each pre-tokenized
chunk and its count; ``train --word-counts`` trains from it.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tokexplorer.cli.inputs import check_output_path, damaged_hint, say_counted, streamed_files, walked
from tokexplorer.cli.output import ProgressPrinter, drive, say

if TYPE_CHECKING:
    from tokexplorer.core.io import WordCounts


def cmd_count(ns: argparse.Namespace) -> int:
    """``tokexplorer count FILES... -o COUNTS [--dask ADDRESS]``: count, save, report in one line.

    Files are read by the one reading rule (:mod:`tokexplorer.core.io.reading`), as
    ``train`` and ``stats`` read them: each with its own codec (UTF-8, else guessed
    and noted; ``--encoding`` forces one), binary and damaged files skipped with a note.
    With ``--dask`` only each file's start is read here; the workers check the rest
    (:mod:`tokexplorer.core.io.checked_counting`), and the notes, the same, come after counting.
    """
    from tokexplorer.core.io import count_word_counts, save_word_counts
    from tokexplorer.core.types import DEFAULT_PATTERN

    check_output_path(ns.output)
    printer = ProgressPrinter(sys.stderr)
    if ns.dask is not None:
        table = count_on_dask(ns, printer, DEFAULT_PATTERN)
    else:
        walked(ns.files)  # the notes of the walk: the model files left out of a folder
        paths, codecs = streamed_files(ns.files, ns.encoding, printer, allow_damaged=ns.allow_damaged, verb="count")
        steps = count_word_counts(
            paths,
            pattern=ns.pattern or DEFAULT_PATTERN,
            special_tokens=ns.special or (),
            encoding=codecs,
            errors="replace" if ns.allow_damaged else "strict",
        )
        table = drive(steps, printer)
    save_word_counts(table, ns.output)
    where = "" if ns.dask is None else f" on Dask ({ns.dask})"
    say(
        f"counted {len(table.counts):,} distinct chunks in {table.files:,} file{'s' * (table.files != 1)} "
        f"({table.bytes:,} bytes){where}; saved to {ns.output}"
    )
    return 0


def count_on_dask(ns: argparse.Namespace, printer: ProgressPrinter, default_pattern: str) -> WordCounts:
    """``count --dask`` (and ``train --dask``): each file's start checked here, the rest on the
    workers; then every file's notes and the files skipped, as counting here says them (in
    file order). ``ns`` holds ``files``, ``dask``, ``pattern``, ``special``, ``encoding`` and
    ``allow_damaged``; ``printer`` shows the progress.

    Raises:
        CorpusError: no file can be counted (says why).
        InputError: no Dask scheduler at the address; BackendUnavailableError: Dask missing.
    """
    from tokexplorer.core.io import count_checked, counting_files

    hint = damaged_hint("count")
    walked(ns.files)  # the notes of the walk: the model files left out of a folder
    reading = counting_files(
        list(ns.files), encoding=ns.encoding, allow_damaged=ns.allow_damaged, damaged_hint=hint, head_only=True
    )
    files, problems = drive(reading, printer)
    if not any(f.counted for f in files):
        say_counted(files, problems, verb="count", paths=ns.files)  # nothing to count: says why and raises
    steps = count_checked(
        files, address=ns.dask, pattern=ns.pattern or default_pattern, special_tokens=ns.special or (),
        encoding=ns.encoding, allow_damaged=ns.allow_damaged, damaged_hint=hint,
    )  # fmt: skip
    result = drive(steps, printer)
    after = iter(result.files)
    say_counted([next(after) if f.counted else f for f in files], [*problems, *result.problems], verb="count")
    return result.table
