"""``count``: the word-count table of text files, here or on a Dask cluster.

The table (:mod:`tokexplorer.core.io.word_counts`) holds each pre-tokenized
chunk and its count; ``train --word-counts`` trains from it.
"""

from __future__ import annotations

import argparse
import sys

from tokexplorer.cli.inputs import check_output_path, skipped_or_fail
from tokexplorer.cli.output import ProgressPrinter, drive, note


def cmd_count(ns: argparse.Namespace) -> int:
    """``tokexplorer count FILES... -o COUNTS [--dask ADDRESS]``: count, save, report in one line.

    Files are read by the one reading rule (:mod:`tokexplorer.core.io.reading`), as
    ``train`` and ``stats`` read them: each with its own codec (UTF-8, else guessed
    and noted; ``--encoding`` forces one), binary and damaged files skipped with a note.
    """
    from tokexplorer.cli.inputs import checked_file_notes
    from tokexplorer.core.io import count_word_counts, counting_files, save_word_counts
    from tokexplorer.core.types import DEFAULT_PATTERN

    check_output_path(ns.output)
    printer = ProgressPrinter(sys.stderr)
    hint = "fix the file, choose its real --encoding, or pass --allow-damaged to count it as it reads"
    reading = counting_files(list(ns.files), encoding=ns.encoding, allow_damaged=ns.allow_damaged, damaged_hint=hint)
    files, problems = drive(reading, printer)
    for f in files:
        checked_file_notes(f.path, f.notes)
        if f.counted and f.lossy:
            note(f"{f.path}: counting text with U+FFFD where bytes could not be decoded")
    usable = [f for f in files if f.counted]
    skipped_or_fail(problems, bool(usable), "no files to count")
    steps = count_word_counts(
        [str(f.path) for f in usable],
        pattern=ns.pattern or DEFAULT_PATTERN,
        special_tokens=ns.special or (),
        encoding=[f.encoding for f in usable],
        errors="replace" if ns.allow_damaged else "strict",
        dask=ns.dask,
    )
    table = drive(steps, printer)
    save_word_counts(table, ns.output)
    where = "" if ns.dask is None else f" on Dask ({ns.dask})"
    print(
        f"counted {len(table.counts):,} distinct chunks in {table.files:,} file{'s' * (table.files != 1)} "
        f"({table.bytes:,} bytes){where}; saved to {ns.output}"
    )
    return 0
