"""``count``: the word-count table of text files, here or on a Dask cluster.

The table (:mod:`tokexplorer.core.io.word_counts`) holds each pre-tokenized
chunk and its count; ``train --word-counts`` trains from it.
"""

from __future__ import annotations

import argparse
import sys

from tokexplorer.cli.inputs import check_output_path, skipped_or_fail
from tokexplorer.cli.output import ProgressPrinter, drive
from tokexplorer.core.errors import CorpusError


def cmd_count(ns: argparse.Namespace) -> int:
    """``tokexplorer count FILES... -o COUNTS [--dask ADDRESS]``: count, save, report in one line."""
    from tokexplorer.cli.commands.train import utf8_head
    from tokexplorer.core.io import check_binary, collect_files, count_word_counts, save_word_counts
    from tokexplorer.core.types import DEFAULT_PATTERN

    check_output_path(ns.output)
    files, errors = collect_files(list(ns.files))
    if errors:
        raise CorpusError(errors[0])
    if not files:
        raise CorpusError("no files to count")
    usable, problems = [], []
    for f in files:  # a binary file is skipped with a note, as train and stats skip it
        with open(f, "rb") as fh:
            head = fh.read(1 << 16)
        try:
            check_binary(str(f), head)
        except CorpusError as exc:
            problems.append(str(exc))
            continue
        if ns.encoding is None and not utf8_head(head):
            raise CorpusError(
                f"{f}: not UTF-8 in its first 64 KiB; count reads every file with one encoding: "
                "give it (--encoding ENC, e.g. gbk), or convert the file to UTF-8"
            )
        usable.append(str(f))
    skipped_or_fail(problems, bool(usable), "no files to count")
    steps = count_word_counts(
        usable,
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
        f"counted {len(table.counts):,} distinct chunks in {table.files:,} file{'s' * (table.files != 1)} "
        f"({table.bytes:,} bytes){where}; saved to {ns.output}"
    )
    return 0
