"""``count``: the word-count table of text files, here or on a Dask cluster.

The table (:mod:`tokexplorer.core.io.word_counts`) holds each pre-tokenized
chunk and its count; ``train --word-counts`` trains from it.
"""

from __future__ import annotations

import argparse
import sys

from tokexplorer.cli.inputs import check_output_path, streamed_files
from tokexplorer.cli.output import ProgressPrinter, drive


def cmd_count(ns: argparse.Namespace) -> int:
    """``tokexplorer count FILES... -o COUNTS [--dask ADDRESS]``: count, save, report in one line.

    Files are read by the one reading rule (:mod:`tokexplorer.core.io.reading`), as
    ``train`` and ``stats`` read them: each with its own codec (UTF-8, else guessed
    and noted; ``--encoding`` forces one), binary and damaged files skipped with a note.
    """
    from tokexplorer.core.io import count_word_counts, save_word_counts
    from tokexplorer.core.types import DEFAULT_PATTERN

    check_output_path(ns.output)
    printer = ProgressPrinter(sys.stderr)
    paths, codecs = streamed_files(ns.files, ns.encoding, printer, allow_damaged=ns.allow_damaged, verb="count")
    steps = count_word_counts(
        paths,
        pattern=ns.pattern or DEFAULT_PATTERN,
        special_tokens=ns.special or (),
        encoding=codecs,
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
