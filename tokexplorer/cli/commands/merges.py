"""``merges``: the merge records of a BPE, tiktoken encodings too."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from tokexplorer.cli.inputs import lead_as_given, spec_file
from tokexplorer.cli.output import note, print_json, write_out

if TYPE_CHECKING:
    from tokexplorer.core.types import MergeRecord


def cmd_merges(ns: argparse.Namespace) -> int:
    """``tokexplorer merges SPEC [--json]``: the merge records of a BPE, rank order
    (:func:`~tokexplorer.core.analysis.merge_lists.load_merge_list`: ours, tiktoken's,
    rank files, tekken.json, a Hugging Face BPE's; other models raise an
    :class:`~tokexplorer.core.analysis.merge_lists.NoMergesError` saying why they have none).

    Text output: one line per merge, ``rank<TAB>left<TAB>right<TAB>merged<TAB>count``,
    tokens as readable text (space as ``␣``, partial UTF-8 as ``\\xNN``), count
    ``-`` when unknown. ``--json``: a list of ``{"rank", "left", "right",
    "merged" (lower-case hex), "count" (int or null)}``.

    A note on stderr says what a byte-level BPE's vocabulary holds, in the merge table's words
    (``vocab 100,261 tokens (100,256 ranked + 5 special; ids to 100,276, 16 unused); 100,000 merges``).
    Ranks with tokens that no merge builds (Llama 3's) get a note on stderr,
    and those tokens follow the merges: text lines ``-<TAB><TAB><TAB>merged<TAB>-``,
    JSON objects with ``"rank": null``, ``"id"`` and ``"whole_chunk_only": true``
    (see :func:`~tokexplorer.core.analysis.merges.merges_json`).
    """
    from tokexplorer.core.analysis import load_merge_list, merges_json

    listing = load_merge_list(ns.spec, pattern=ns.pattern)
    merges, vocab, unbuilt = listing.merges, listing.vocab, listing.unbuilt
    path = spec_file(ns.spec)
    for line in listing.notes:
        note(line if path is None else lead_as_given(path, line))
    if listing.tokens:
        note(f"{ns.spec}: vocab {listing.tokens}; {len(merges):,} merges")
    if unbuilt:
        note(
            (f"{len(unbuilt):,} tokens are" if len(unbuilt) > 1 else "1 token is")
            + " built by no merge (merging the bytes ends with other parts; such a token is emitted"
            " only for a whole chunk that is the token); listed after the merges, "
            + ("with rank null" if ns.json else "with rank '-'")
        )
    if ns.json:
        print_json(merges_json(merges, vocab, unbuilt))
        return 0
    _write_text(merges, vocab, unbuilt)
    return 0


def _write_text(merges: list[MergeRecord], vocab: dict[int, bytes], unbuilt: list[int]) -> None:
    """Write the merges, then the tokens no merge builds, as tab-separated lines on stdout,
    each token as every view shows it (:func:`~tokexplorer.core.text.piece_display`:
    spaces as ``␣``, look-alikes such as ``│`` or ``’`` as ``<U+2502>``, partial bytes ``\\xNN``)."""
    from tokexplorer.core.text import piece_display

    lines = []
    for m in merges:
        left = vocab.get(m.left, b"")
        right = m.merged[len(left) :]
        count = "-" if m.count is None else str(m.count)
        lines.append(
            f"{m.rank}\t{piece_display(left, visible_spaces=True)}\t{piece_display(right, visible_spaces=True)}"
            f"\t{piece_display(m.merged, visible_spaces=True)}\t{count}\n"
        )
        if len(lines) >= 4096:
            write_out("".join(lines))
            lines = []
    lines.extend(f"-\t\t\t{piece_display(vocab[i], visible_spaces=True)}\t-\n" for i in unbuilt)
    write_out("".join(lines))
