"""``count``: the word-count table of text files, here or on a Dask cluster.

The table (:mod:`tokexplorer.core.io.word_counts`) holds each pre-tokenized
chunk and its count; ``train --word-counts`` trains from it.
"""

from __future__ import annotations

import argparse
import sys

from tokexplorer.cli.inputs import check_output_path
from tokexplorer.cli.output import ProgressPrinter, drive
from tokexplorer.core.errors import CorpusError


def cmd_count(ns: argparse.Namespace) -> int:
    """``tokexplorer count FILES... -o COUNTS [--dask ADDRESS]``: count, save, report in one line."""
    from tokexplorer.core.io import check_binary, collect_files, count_word_counts, save_word_counts
    from tokexplorer.core.types import DEFAULT_PATTERN

    check_output_path(ns.output)
    files, errors = collect_files(list(ns.files))
    if errors:
        raise CorpusError(errors[0])
    if not files:
        raise CorpusError("no files to count")
    for f in files:
        with open(f, "rb") as fh:
            check_binary(f.name, fh.read(1 << 16))
    steps = count_word_counts(
        [str(f) for f in files],
        pattern=ns.pattern or DEFAULT_PATTERN,
        special_tokens=ns.special or (),
        encoding=ns.encoding or "utf-8",
        errors="replace" if ns.allow_damaged else "strict",
        dask=ns.dask,
    )
    table = drive(steps, ProgressPrinter(sys.stderr))
    save_word_counts(table, ns.output)
    where = "" if ns.dask is None else f" on Dask ({ns.dask})"
    print(
        f"counted {len(table.counts):,} distinct chunks in {table.files:,} files "
        f"({table.bytes:,} bytes){where}; saved to {ns.output}"
    )
    return 0
