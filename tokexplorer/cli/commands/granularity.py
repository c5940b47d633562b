"""``granularity``: a corpus at word, character, byte and subword level
(:mod:`tokexplorer.core.analysis.granularity`)."""

from __future__ import annotations

import argparse
import sys

from tokexplorer.cli.inputs import checked_file, load_all, named, skipped_or_fail, walked
from tokexplorer.cli.output import ProgressPrinter, drive, note, print_json, table, write_out
from tokexplorer.core.errors import CorpusError


def _fmt(value: float | None, pattern: str) -> str:
    return "—" if value is None else format(value, pattern)


def cmd_granularity(ns: argparse.Namespace) -> int:
    """``tokexplorer granularity FILE ... [--tokenizer SPEC ...] [--train-fraction F] [--json]``:
    one row per level (word, character, byte, each tokenizer): vocabulary, tokens,
    characters per token and the held-out rate."""
    from tokexplorer.core.analysis import WORD_PATTERN, granularity_iter
    from tokexplorer.core.io import codec_for, read_text_file

    tokenizers = load_all(ns.tokenizer or [])
    paths, errors = walked(ns.files)
    if errors:
        raise CorpusError(errors[0])
    texts: list[str] = []
    problems: list[str] = []
    for path in paths:
        try:
            texts.append(checked_file(read_text_file(path, encoding=codec_for(ns.encoding, path))).text)
        except CorpusError as exc:
            problems.append(named(path, str(exc)))
    skipped_or_fail(problems, bool(texts), "no files to measure", paths=list(ns.files))
    report = drive(granularity_iter(texts, tokenizers, train_fraction=ns.train_fraction, special=ns.special),
                   ProgressPrinter(sys.stderr))  # fmt: skip
    for name, error in report.errors:
        note(f"{name}: {error}")
    if ns.json:
        print_json(report.to_json())
        return 0
    # vocab: the level's vocabulary (all 256 byte values); seen: how many of them occur in the corpus
    rows = [["level", "vocab", "seen", "tokens", "chars/token", "held-out rate", "name"]]
    for lv in report.levels:
        rate = None if lv.heldout_rate is None else 100 * lv.heldout_rate
        rows.append([lv.level, f"{lv.vocab_size:,}", _fmt(lv.seen, ","), f"{lv.tokens:,}",
                     _fmt(lv.chars_per_token, ".2f"), _fmt(rate, ".2f") + ("%" if rate is not None else ""),
                     lv.name])  # fmt: skip
    write_out(table(rows, right=[False, True, True, True, True, True, False]))
    write_out(
        f"held-out: {report.heldout_chars:,} of {report.chars:,} characters (the end of each file), against "
        f"vocabularies built on the other {report.train_chars:,}; word: {WORD_PATTERN}\n"
    )
    return 0
