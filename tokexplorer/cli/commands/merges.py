"""``merges``: the merge records of a BPE, tiktoken encodings too."""

from __future__ import annotations

import argparse
import sys

from tokexplorer.cli.output import print_json


def cmd_merges(ns: argparse.Namespace) -> int:
    """``tokexplorer merges SPEC [--json]``: the merge records of a BPE, rank order.

    Text output: one line per merge, ``rank<TAB>left<TAB>right<TAB>merged<TAB>count``,
    tokens as readable text (space as ``␣``, partial UTF-8 as ``\\xNN``), count
    ``-`` when unknown. ``--json``: a list of ``{"rank", "left", "right",
    "merged" (lower-case hex), "count" (int or null)}``.
    """
    from tokexplorer.core.analysis import load_bpe_spec, merges_json
    from tokexplorer.core.text import token_display

    bpe = load_bpe_spec(ns.spec)
    merges, vocab = bpe.merges, bpe.vocab
    if ns.json:
        print_json(merges_json(merges, vocab))
        return 0
    out = sys.stdout
    lines = []
    for m in merges:
        left = vocab.get(m.left, b"")
        right = m.merged[len(left) :]
        count = "-" if m.count is None else str(m.count)
        lines.append(
            f"{m.rank}\t{token_display(left, visible_spaces=True)}\t{token_display(right, visible_spaces=True)}"
            f"\t{token_display(m.merged, visible_spaces=True)}\t{count}\n"
        )
        if len(lines) >= 4096:
            out.write("".join(lines))
            lines = []
    out.write("".join(lines))
    return 0
