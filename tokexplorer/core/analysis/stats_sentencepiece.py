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

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import numpy as np

from tokexplorer.core.analysis.stats_blocks import whole_files
from tokexplorer.core.analysis.stats_lines import _LABEL_CODES, BlockLines, GroupStats, _split_lines, cluster_insides
from tokexplorer.core.analysis.stats_prefetch import PrefetchedIds
from tokexplorer.core.backends.base import CancelCheck
from tokexplorer.core.errors import Cancelled
from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED
from tokexplorer.core.types import SpecialPolicy

if TYPE_CHECKING:  # (the adapter is loaded where a SentencePiece model is counted)
    from tokexplorer.core.backends import SentencePieceTokenizer
    from tokexplorer.core.backends.sentencepiece.columns import PieceColumns

__all__ = ["ROUND_TRIP_LINES", "piece_block", "piece_parts", "sentencepiece_counts"]

#: Lines whose round trips one call into SentencePiece checks.
ROUND_TRIP_LINES = 8_192


def piece_parts(
    tokenizer: SentencePieceTokenizer, block: str, special: SpecialPolicy
) -> tuple[PieceColumns, list[bool]]:
    """What the model computes for one block: its piece columns, and per line (as
    :func:`~tokexplorer.core.analysis.stats_lines.block_lines` cuts them, without its
    line ending) whether it decodes back to itself (the work the blocks ahead get on
    other threads, :class:`~tokexplorer.core.analysis.stats_prefetch.PrefetchedIds`).

    Raises:
        SpecialTokenError: ``special="raise"`` and the block spells a control piece
            or a user-defined symbol.
    """
    cols = tokenizer.piece_columns(block, special=special)
    texts = [text.rstrip("\r\n") for text in _split_lines(block)]
    # the block passed the policy's check, so each of its lines does: their ids are the plain ones
    policy: SpecialPolicy = "plain" if special == "raise" else special
    kept: list[bool] = []
    for k in range(0, len(texts), ROUND_TRIP_LINES):  # (a whole file's lines a batch at a time)
        kept += tokenizer.round_trips(texts[k : k + ROUND_TRIP_LINES], special=policy)
    return cols, kept


def piece_block(
    tokenizer: SentencePieceTokenizer,
    bl: BlockLines,
    special: SpecialPolicy,
    parts: tuple[PieceColumns, list[bool]] | None = None,
) -> tuple[GroupStats, dict[str, GroupStats]]:
    """Counts of one block from the model's piece columns: (block total, per label);
    ``parts``: the block's :func:`piece_parts` when computed ahead.

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
    cols, kept = piece_parts(tokenizer, bl.block, special) if parts is None else parts
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
    failed = np.array([not ok and bool(line.rstrip("\r\n")) for line, ok in zip(bl.lines, kept)], dtype=np.int64)
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


def sentencepiece_counts(
    tokenizer: SentencePieceTokenizer,
    blocks: list[list[str]],
    lines_of: Callable[[int], BlockLines],
    special: SpecialPolicy,
    cancel: CancelCheck | None,
    *,
    whole_of: Callable[[int], BlockLines],
) -> Iterator[tuple[GroupStats, dict[str, GroupStats]] | None]:
    """Per block of each file (``blocks``; ``lines_of(k)``: the lines of block ``k``,
    counting all files' blocks in order) its counts ``(block total, per label)``
    (:func:`piece_block`), and ``None`` after each file's last block; the blocks
    ahead get their :func:`piece_parts` on other threads (SentencePiece releases the
    interpreter lock while it encodes and normalizes). A model whose ids a cut at a
    line start could change (``line_cuts_exact`` False) counts each file whole
    (``whole_of(i)``: the lines of file ``i``).

    Raises:
        Cancelled: ``cancel()`` turned True (checked between blocks).
        SpecialTokenError: ``special="raise"`` and a block spells a control piece
            or a user-defined symbol.
    """
    if not tokenizer.line_cuts_exact:
        yield from whole_files(lambda bl: piece_block(tokenizer, bl, special), len(blocks), whole_of, cancel)
        return
    parts_of = PrefetchedIds(tokenizer, [b for fb in blocks for b in fb], special, work=piece_parts)
    k = 0
    try:
        for fblocks in blocks:
            for _block in fblocks:
                if cancel is not None and cancel():
                    raise Cancelled("cancelled")
                yield piece_block(tokenizer, lines_of(k), special, next(parts_of))
                k += 1
            yield None
    finally:
        parts_of.close()
