"""The counts of corpus statistics for a SentencePiece model, one block at a time,
from its pieces as numpy columns (:meth:`SentencePieceTokenizer.piece_columns
<tokexplorer.core.backends.sentencepiece.tokenizer.SentencePieceTokenizer.piece_columns>`:
ids, byte spans, partial flags) instead of a token object per piece.

A piece belongs to the line its span starts in; the partial, unknown and
part-of-a-grapheme pieces of each line are sums over those columns; a piece
holds part of a grapheme cluster when its spans are exact (the normalizer
changed nothing), it holds whole code points, is no control piece or
user-defined symbol, and starts or ends strictly inside a cluster of several code
points (:func:`~tokexplorer.core.analysis.stats_lines.cluster_insides`). Every line
is encoded and decoded on its own for the round trip, all in one call. The
counts are those :func:`~tokexplorer.core.analysis.stats_blocks.span_block` finds
from the tokens with spans.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from tokexplorer.core.analysis.stats_lines import _LABEL_CODES, BlockLines, GroupStats, cluster_insides
from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED
from tokexplorer.core.types import SpecialPolicy

if TYPE_CHECKING:  # (the adapter is loaded where a SentencePiece model is counted)
    from tokexplorer.core.backends import SentencePieceTokenizer

__all__ = ["piece_block"]


def piece_block(
    tokenizer: SentencePieceTokenizer, bl: BlockLines, special: SpecialPolicy
) -> tuple[GroupStats, dict[str, GroupStats]]:
    """Counts of one block from the model's piece columns: (block total, per label).

    Raises:
        SpecialTokenError: ``special="raise"`` and the block spells a control piece
            or a user-defined symbol.

    >>> from tokexplorer.core.analysis.stats_lines import block_lines
    >>> from tokexplorer.core.backends.sentencepiece.training import train_sentencepiece
    >>> tok = train_sentencepiece(["low lower lowest newest widest"] * 20, vocab_size=18, model_type="unigram")
    >>> total, scripts = piece_block(tok, block_lines("lowest\\nnew\\n"), "plain")
    >>> total.tokens, total.unknown, {k: g.tokens for k, g in scripts.items()}
    (6, 0, {'Latin': 6})
    """
    cols = tokenizer.piece_columns(bl.block, special=special)
    n_lines = len(bl.lines)
    total = GroupStats()
    if not n_lines:
        return total, {}
    line = np.maximum(np.searchsorted(bl.starts[:-1], cols.starts, side="right") - 1, 0)
    unknown = tokenizer.table.unknown[cols.ids]
    grapheme = np.zeros(len(cols.ids), dtype=bool)
    if cols.exact_offsets and bl.long_clusters:
        inside = cluster_insides(bl)
        whole = ~cols.partial & ~tokenizer.table.special[cols.ids] & (cols.ends > cols.starts)
        grapheme = whole & (np.isin(cols.starts, inside) | np.isin(cols.ends, inside))
    texts = [text.rstrip("\r\n") for text in bl.lines]
    # the block passed the policy's check, so each of its lines does: their ids are the plain ones
    kept = tokenizer.round_trips(texts, special="plain" if special == "raise" else special)
    failed = np.array([bool(text) and not ok for text, ok in zip(texts, kept)], dtype=np.int64)
    k = len(SCRIPTS)
    sums = [
        np.bincount(bl.codes, weights=np.bincount(line, weights=w, minlength=n_lines), minlength=k).tolist()
        for w in (None, cols.partial, unknown, grapheme)
    ]
    n_failed = np.bincount(bl.codes, weights=failed, minlength=k).tolist()
    scripts: dict[str, GroupStats] = {}
    for label, sizes in bl.by_label.items():
        c = _LABEL_CODES[label]
        g = GroupStats(sizes.lines, sizes.chars, sizes.bytes, sizes.words, tokens=int(sums[0][c]))
        g.partial, g.unknown, g.grapheme_part = (int(s[c]) for s in sums[1:])
        g.roundtrip_failed = int(n_failed[c])
        if label in SPACE_DELIMITED:
            g.word_tokens = g.tokens
        scripts[label] = g
        total.add(g)
    return total, scripts
