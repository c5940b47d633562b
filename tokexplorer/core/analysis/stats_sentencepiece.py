"""The counts of corpus statistics for a SentencePiece model, one block at a time,
from its pieces as numpy columns (:meth:`SentencePieceTokenizer.piece_columns
<tokexplorer.core.backends.sentencepiece.tokenizer.SentencePieceTokenizer.piece_columns>`:
ids, byte spans, partial flags) instead of a token object per piece.

A piece belongs to the line of its first byte that is not a line break (the normalizer
turns the line break before ``def`` into the ``▁`` of ``▁def``), and a ``▁`` made of line
breaks alone to the line of the word it marks
(:func:`~tokexplorer.core.analysis.stats_blocks.owner_starts`); the partial, unknown and
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

from tokexplorer.core.analysis.stats_blocks import owner_starts, whole_files
from tokexplorer.core.analysis.stats_lines import (
    _LABEL_CODES,
    BlockLines,
    GroupStats,
    _split_lines,
    cluster_insides,
    grapheme_unknown_lines,
)
from tokexplorer.core.analysis.stats_prefetch import PrefetchedIds
from tokexplorer.core.analysis.stats_roundtrip import failed_lines, recheck
from tokexplorer.core.backends.base import CancelCheck
from tokexplorer.core.errors import Cancelled
from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED
from tokexplorer.core.types import SpecialPolicy

if TYPE_CHECKING:  # (the adapter is loaded where a SentencePiece model is counted)
    from tokexplorer.core.backends import SentencePieceTokenizer
    from tokexplorer.core.backends.sentencepiece.columns import PieceColumns

__all__ = [
    "ID_ARRAY_CHUNK", "ROUND_TRIP_LINES", "WholeCallShares", "id_array", "piece_block", "piece_parts",
    "sentencepiece_counts",
]  # fmt: skip

#: Lines whose round trips one call into SentencePiece checks.
ROUND_TRIP_LINES = 8_192

#: Ids turned into a numpy array per call by :func:`id_array`: one call holds Python's
#: interpreter lock throughout, and the window's thread waits for it (a 10 MiB English
#: file's 2.3 million ids in one call: 0.28 s without a repaint).
ID_ARRAY_CHUNK = 1 << 16


def id_array(ids: list[int]) -> np.ndarray:
    """``ids`` as an int64 array, converted :data:`ID_ARRAY_CHUNK` ids at a time (the
    lock is handed over between the calls).

    >>> id_array([3, 1, 2]).tolist()
    [3, 1, 2]
    """
    if len(ids) <= ID_ARRAY_CHUNK:
        return np.array(ids, dtype=np.int64)
    out = np.empty(len(ids), dtype=np.int64)
    for k in range(0, len(ids), ID_ARRAY_CHUNK):
        out[k : k + ID_ARRAY_CHUNK] = ids[k : k + ID_ARRAY_CHUNK]
    return out


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
    # the lines the normalizer changed judged here by the rule, so that the one counting
    # judges again only those that fail it (a worker process's work, not the window's)
    return cols, recheck(tokenizer, texts, kept, policy)


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
    raw = np.frombuffer(bl.block.encode("utf-8"), dtype=np.uint8)
    pieces = tokenizer.table.pieces
    ids = cols.ids

    def marks(k: np.ndarray) -> np.ndarray:  # (the few pieces made of line breaks alone)
        return np.array([pieces[i].startswith("\u2581") for i in ids[k].tolist()], dtype=bool)

    owners = owner_starts(raw, cols.starts, cols.ends, marks=marks)
    line = np.maximum(np.searchsorted(bl.starts[:-1], owners, side="right") - 1, 0)
    unknown = tokenizer.table.unknown[cols.ids]
    grapheme = np.zeros(len(cols.ids), dtype=bool)
    if cols.exact_offsets and bl.long_clusters:
        inside = cluster_insides(bl)
        whole = ~cols.partial & ~tokenizer.table.special[cols.ids] & (cols.ends > cols.starts)
        grapheme = whole & (np.isin(cols.starts, inside) | np.isin(cols.ends, inside))
    failed = failed_lines(tokenizer, bl, special, exact=kept)
    k = len(SCRIPTS)
    sums = [
        np.bincount(bl.codes, weights=np.bincount(line, weights=w, minlength=n_lines), minlength=k).tolist()
        for w in (None, cols.partial, unknown, grapheme)
    ]
    n_failed = np.bincount(bl.codes, weights=failed, minlength=k).tolist()
    unknown_lines = np.bincount(bl.codes, weights=grapheme_unknown_lines(bl, exact=cols.exact_offsets), minlength=k)
    scripts: dict[str, GroupStats] = {}
    for label, sizes in bl.by_label.items():
        c = _LABEL_CODES[label]
        g = GroupStats(sizes.lines, sizes.chars, sizes.bytes, sizes.words, tokens=int(sums[0][c]))
        g.partial, g.unknown, g.grapheme_part = (int(s[c]) for s in sums[1:])
        g.roundtrip_failed = int(n_failed[c])
        g.grapheme_unknown = int(unknown_lines[c])
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
    interpreter lock while it encodes and normalizes), or in worker processes for a large
    corpus (:mod:`~tokexplorer.core.analysis.stats_processes`: its calls on lists of
    lines hold the lock, which stalled the window's event loop). A unigram model, whose ids at a
    near tie a cut could change (``line_cuts_exact`` False), counts each block with its
    share of one call on the whole file (:class:`WholeCallShares`); a model whose pieces a
    cut at a line start changes (``line_cuts_keep_pieces`` False: its normalizer keeps
    line breaks) counts each file whole (``whole_of(i)``: the lines of file ``i``).

    Raises:
        Cancelled: ``cancel()`` turned True (checked between blocks).
        SpecialTokenError: ``special="raise"`` and a block spells a control piece
            or a user-defined symbol.
    """
    from tokexplorer.core.backends.sentencepiece.counting import WHOLE_CALL_MAX_CHARS

    if not tokenizer.line_cuts_keep_pieces:
        yield from whole_files(lambda bl: piece_block(tokenizer, bl, special), len(blocks), whole_of, cancel)
        return
    from tokexplorer.core.analysis.stats_processes import ProcessParts, in_processes

    flat = [b for fb in blocks for b in fb]
    parts_of: ProcessParts | PrefetchedIds
    if in_processes(tokenizer, flat):  # (a large corpus: its encoding holds no lock of this process)
        parts_of = ProcessParts(tokenizer, flat, special)
    else:
        parts_of = PrefetchedIds(tokenizer, flat, special, work=piece_parts)
    plain: SpecialPolicy = "plain" if special == "raise" else special
    k = 0
    try:
        for fblocks in blocks:
            shares = None
            if not tokenizer.line_cuts_exact:
                text = "".join(fblocks)
                if len(text) <= WHOLE_CALL_MAX_CHARS:
                    ids = parts_of.whole_ids(text, plain) if isinstance(parts_of, ProcessParts) else None
                    shares = WholeCallShares(tokenizer, text, special, ids=ids)
                else:
                    tokenizer.note_own_ids(texts=1)
                del text
            for block in fblocks:
                if cancel is not None and cancel():
                    raise Cancelled("cancelled")
                parts = next(parts_of)
                if shares is not None:
                    parts = shares.take(block, parts)
                yield piece_block(tokenizer, lines_of(k), special, parts)
                k += 1
            if shares is not None:
                shares.finish()
            yield None
    finally:
        parts_of.close()


class WholeCallShares:
    """The ids of one call on a whole file, shared out among its blocks: for a unigram
    model, whose ids at a near tie depend on the text before them (see
    :attr:`SentencePieceTokenizer.line_cuts_exact
    <tokexplorer.core.backends.sentencepiece.tokenizer.SentencePieceTokenizer.line_cuts_exact>`),
    so that the statistics count the ids ``encode`` gives the file.

    A block's own ids are kept where they are the next ones of the whole call (nearly
    always). Where not, its share is the run of the whole call's ids that takes as many
    bytes of the normalized text and holds as many unknown pieces (length 0 in the
    table) as its own ids do, the nearest to its own number of ids, and its columns are
    those of that share. Where no run fits, the block keeps its own ids and the model
    says so in its :attr:`~SentencePieceTokenizer.counting_notes`.

    Args:
        tokenizer: the model.
        text: the file's whole text (its blocks joined).
        special: the policy (a text the policy refuses is refused by its blocks).
        ids: the ids of that call when the caller has them (from a worker process,
            :meth:`~tokexplorer.core.analysis.stats_processes.ProcessParts.whole_ids`);
            None: the model is asked here.
    """

    def __init__(
        self, tokenizer: SentencePieceTokenizer, text: str, special: SpecialPolicy, *, ids: np.ndarray | None = None
    ) -> None:
        self.tokenizer = tokenizer
        self.special = special
        plain: SpecialPolicy = "plain" if special == "raise" else special
        self.ids = id_array(tokenizer.encode(text, special=plain)) if ids is None else ids  # (a file's ids: in pieces)
        self.pos = 0
        self.kept_own = 0

    def take(
        self, block: str, parts: tuple[PieceColumns, list[bool]]
    ) -> tuple[PieceColumns, list[bool]]:
        """``parts`` (the block's :func:`piece_parts`) with the block's share of the whole call."""
        cols, kept = parts
        n, pos = len(cols.ids), self.pos
        if np.array_equal(self.ids[pos : pos + n], cols.ids):
            self.pos = pos + n
            return parts
        table = self.tokenizer.table
        window = self.ids[pos : pos + 2 * n + 64]
        fits = np.flatnonzero(
            (np.cumsum(table.normalized_lengths[window]) == int(table.normalized_lengths[cols.ids].sum()))
            & (np.cumsum(table.unknown[window]) == int(table.unknown[cols.ids].sum()))
        )
        self.kept_own += 1  # (taken back below where the share fits)
        if not len(fits):
            self.pos = pos + n
            return parts
        end = self.pos = pos + int(fits[np.argmin(np.abs(fits + 1 - n))]) + 1
        share = self.tokenizer.piece_columns(block, special=self.special, ids=self.ids[pos:end].tolist())
        if len(share.ids) != end - pos:  # an unknown piece's length could not be placed in the share
            return parts
        self.kept_own -= 1
        return share, kept

    def finish(self) -> None:
        """Tell the model how many blocks kept their own ids (none, nearly always)."""
        if self.kept_own or self.pos != len(self.ids):
            self.tokenizer.note_own_ids(blocks=max(self.kept_own, 1))
