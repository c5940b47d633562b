"""A block's lines for the corpus statistics (:mod:`tokexplorer.core.analysis.stats`),
read once whatever the tokenizers: per line its script label, UTF-8 bytes, code
points and words, as numpy columns, and their sums per label (:func:`block_lines`).

The block's UTF-8 bytes are read as one array: line ends are its LF bytes and
the CR bytes not followed by LF; bytes and code points (bytes that are not
continuation bytes) per line are sums over each line's range. An ASCII line is
labelled from such sums too, and a few byte patterns, as
:func:`~tokexplorer.core.text.scripts.classify_line` labels it, wherever the
rules decide from them alone (:mod:`tokexplorer.core.analysis.stats_ascii`).
Other lines (non-ASCII ones, and the ASCII lines left by those rules: led by a
keyword, a closing bracket first...) are read one by one, once per distinct
line (:class:`LineCache`). A block mostly of non-ASCII lines has its ASCII lines
read as arrays on their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import regex

from tokexplorer.core.analysis.stats_ascii import (
    _LABEL_CODES,
    _ascii_labels,
    _ascii_line_labels,
    _line_ends,
)
from tokexplorer.core.analysis.stats_groups import GroupStats
from tokexplorer.core.analysis.stats_unicode import CLUSTER_JOINERS, other_line_labels
from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED, classify_line

__all__ = [
    "CLUSTER_JOINERS",
    "BlockLines",
    "GroupStats",
    "LineCache",
    "LongLine",
    "block_lines",
    "cluster_insides",
    "grapheme_unknown_lines",
    "has_long_clusters",
    "long_line",
]


@dataclass(slots=True)
class BlockLines:
    """A block and its lines, with what every tokenizer shares, one numpy column
    per attribute (index ``i`` is line ``i``).

    Attributes:
        block: the block's text (its lines: :attr:`lines`).
        codes: each line's script label, as its index in :data:`SCRIPTS` (int64, shape ``(n,)``).
        starts: the byte offset in the block where each line starts, then the
            block's size in UTF-8 bytes (int64, shape ``(n + 1,)``).
        words: each line's whitespace-separated words, 0 outside space-delimited
            scripts (int64, shape ``(n,)``).
        last_ends: whether the last line ends in this block (False: it goes on
            in the next block, which counts it as a line).
        by_label: label -> GroupStats with its lines, chars, bytes, words.
        long_clusters: see :func:`has_long_clusters`.
        joiner_lines: the lines holding one of :data:`CLUSTER_JOINERS`'
            characters (int64 indices; CRLF aside).
        continued: whether the first line began in an earlier block (a line
            longer than a block, :class:`LongLine`).
        head_text: that line's whole text (without its line ending) when it ends
            in this block, where it is counted; else None.
    """

    block: str
    codes: np.ndarray
    starts: np.ndarray
    words: np.ndarray
    last_ends: bool = True
    by_label: dict[str, GroupStats] = field(default_factory=dict)
    long_clusters: bool = False
    joiner_lines: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    continued: bool = False
    head_text: str | None = None
    _lines: list[str] | None = None

    @property
    def lines(self) -> list[str]:
        """The block's lines, line endings included (cut on first use: counting from
        ids needs only the lines read one by one)."""
        if self._lines is None:
            self._lines = _split_lines(self.block)
        return self._lines

    @property
    def n_bytes(self) -> int:
        """The block's size in UTF-8 bytes."""
        return int(self.starts[-1])

    @property
    def labels(self) -> list[str]:
        """Each line's script label."""
        return [SCRIPTS[c] for c in self.codes.tolist()]


class _Joiners(dict):
    """Character -> whether it is one of :data:`CLUSTER_JOINERS` (filled on first sight)."""

    def __missing__(self, ch: str) -> bool:
        value = self[ch] = CLUSTER_JOINERS.match(ch) is not None
        return value


_JOINERS = _Joiners()


def has_long_clusters(bl: BlockLines) -> bool:
    """True when the block may hold a grapheme cluster of several code points
    (it has CRLF or one of :data:`CLUSTER_JOINERS`), where tokens can hold part
    of a grapheme (found from :func:`cluster_insides`, or from spans under the
    ``"special"`` policy).

    >>> has_long_clusters(block_lines("ok 你好 한국어\\n")), has_long_clusters(block_lines("e\\u0301\\n"))
    (False, True)
    """
    return bl.long_clusters


def grapheme_unknown_lines(bl: BlockLines, *, exact: bool) -> np.ndarray:
    """Per line of the block, 1 where its parts of graphemes cannot be counted: the
    tokens' spans are approximate (``exact`` False: a normalizer rewrote the text)
    and the line may hold a cluster of several code points; else 0 (int64).

    >>> bl = block_lines("ok\\ne\\u0301\\n")
    >>> grapheme_unknown_lines(bl, exact=False).tolist(), grapheme_unknown_lines(bl, exact=True).tolist()
    ([0, 1], [0, 0])
    """
    if exact or not bl.long_clusters:
        return np.zeros(len(bl.lines), dtype=np.int64)
    return np.array([CLUSTER_JOINERS.search(line) is not None for line in bl.lines], dtype=np.int64)


_CLUSTER = regex.compile(r"\X", regex.DOTALL)


def cluster_insides(bl: BlockLines) -> np.ndarray:
    """Byte offsets in the block strictly inside a grapheme cluster of several
    code points (``regex`` ``\\X``), unsorted, maybe repeated (int64): the LF of
    each CRLF, and inside the clusters of the lines holding a joiner. No cluster
    runs over a line end (Unicode breaks after LF and CR, and before them but
    within CRLF), so the lines are read on their own.

    >>> cluster_insides(block_lines("ok\\r\\ne\\u0301 x\\n")).tolist()
    [3, 5]
    """
    data = np.frombuffer(bl.block.encode("utf-8"), dtype=np.uint8)
    parts = [np.flatnonzero((data[1:] == 0x0A) & (data[:-1] == 0x0D)) + 1]
    for i in bl.joiner_lines.tolist():
        line = bl.lines[i]
        inner = [k for m in _CLUSTER.finditer(line) for k in range(m.start() + 1, m.end())]
        if inner:  # code point offsets -> byte offsets from the code points' UTF-8 lengths
            cps = np.frombuffer(line.encode("utf-32-le"), dtype=np.uint32)
            at = np.zeros(len(cps) + 1, dtype=np.int64)
            np.cumsum(1 + (cps >= 0x80) + (cps >= 0x800) + (cps >= 0x10000), out=at[1:])
            parts.append(int(bl.starts[i]) + at[inner])
    return np.concatenate(parts)


_LINE_RE = regex.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")
# what str.splitlines also cuts at, besides CR and LF
_OTHER_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"


class LineCache(dict):
    """Line text (with its ending) -> (label code, words, whether it holds one of
    :data:`CLUSTER_JOINERS`' characters), for the lines read one by one;
    computed on first sight and kept across blocks (a corpus repeats lines).
    The label code is the label's index in :data:`SCRIPTS`.

    >>> LineCache()["if x:\\n"], LineCache()["e\\u0301 ok\\n"]
    ((12, 0, False), (0, 2, True))
    """

    def __missing__(self, line: str) -> tuple[int, int, bool]:
        label = classify_line(line)
        words = len(line.split()) if label in SPACE_DELIMITED else 0
        joins = not line.isascii() and any(map(_JOINERS.__getitem__, set(line)))
        value = self[line] = (_LABEL_CODES[label], words, joins)
        return value


def _split_lines(block: str) -> list[str]:
    """``_LINE_RE.findall(block)``; ``str.splitlines`` (faster) cuts the same
    where the block has no other line separator."""
    if any(map(block.__contains__, _OTHER_BREAKS)):
        return _LINE_RE.findall(block)
    return block.splitlines(True)


@dataclass(frozen=True, slots=True)
class LongLine:
    """A line that a block cut runs through (longer than a block), read whole once:
    every piece of it gets its label, so that every tokenizer (those counting a file
    in blocks, and those counting it whole) sees the same line.

    Attributes:
        code: its script label, as an index in :data:`SCRIPTS`.
        words: its whitespace-separated words (0 outside space-delimited scripts).
        text: its text without its line ending.
    """

    code: int
    words: int
    text: str


_BREAK = regex.compile(r"[\r\n]")


def long_line(text: str, at: int, *, seen: LineCache | None = None) -> LongLine:
    """The :class:`LongLine` of ``text`` holding character offset ``at`` (a block
    cut inside a line), labelled as :func:`block_lines` labels it in the whole text.

    >>> long_line("ab\\nif x > 1: y = 2\\nz\\n", 8)
    LongLine(code=12, words=0, text='if x > 1: y = 2')
    """
    start = max(text.rfind("\n", 0, at), text.rfind("\r", 0, at)) + 1
    m = _BREAK.search(text, at)
    end = len(text) if m is None else m.start()
    stop = end + (2 if text.startswith("\r\n", end) else 1 if end < len(text) else 0)
    bl = block_lines(text[start:stop], seen=seen)
    return LongLine(int(bl.codes[0]), int(bl.words[0]), text[start:end])


#: Non-ASCII lines in a block from which they are labelled as arrays
#: (:func:`~tokexplorer.core.analysis.stats_unicode.other_line_labels`); fewer are read one by one.
OTHER_LINES_AS_ARRAYS = 16


def _other_lines(
    block: str, char_starts: np.ndarray, ascii_lines: np.ndarray, codes: np.ndarray, words: np.ndarray,
    by_hand: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """Label the non-ASCII lines as arrays (``codes``, ``words`` set and ``by_hand``
    cleared for them in place), when the block has at least
    :data:`OTHER_LINES_AS_ARRAYS`; return those holding a cluster joiner (int64 indices)."""
    other = np.flatnonzero(~ascii_lines)
    if len(other) < OTHER_LINES_AS_ARRAYS:
        return np.zeros(0, dtype=np.int64)
    if len(other) == len(ascii_lines):
        text, at = block, char_starts
    else:  # those lines' text, one after another
        spans = list(zip(char_starts[other].tolist(), char_starts[other + 1].tolist()))
        text = "".join([block[a:b] for a, b in spans])
        at = np.concatenate(([0], np.cumsum(char_starts[other + 1] - char_starts[other])))
    labels, n_words, joins = other_line_labels(text, at)
    codes[other], words[other] = labels, n_words
    by_hand[other] = False
    return other[joins]


def block_lines(
    block: str,
    *,
    last_block: bool = True,
    seen: LineCache | None = None,
    head: LongLine | None = None,
    tail: LongLine | None = None,
) -> BlockLines:
    """The block's lines with their endings. LF, CRLF and CR end a line, as in
    :func:`tokexplorer.core.io.corpus.count_lines` (``str.splitlines`` would also
    cut at form feeds and other separators, and disagree with the corpus tab).
    A block that is not the text's last may end inside a line (cut between two
    words): that piece is marked (``last_ends=False``) and is not counted as a line.
    ``seen`` keeps the lines read one by one across blocks.

    A line longer than a block is labelled from its whole text: ``head`` is the
    :class:`LongLine` the block starts inside (its piece here continues it),
    ``tail`` the one the block ends inside. Each of its pieces takes its label;
    its words go to the block where it ends (where it is counted as a line), the
    other pieces have none.

    >>> bl = block_lines("hello world\\n你好\\n")
    >>> bl.labels, bl.starts.tolist(), bl.words.tolist(), bl.n_bytes
    (['Latin', 'Han'], [0, 12, 19], [2, 0], 19)
    """
    seen = LineCache() if seen is None else seen
    if not block:
        none = np.zeros(0, dtype=np.int64)
        return BlockLines(block, none, np.zeros(1, dtype=np.int64), none, _lines=[])
    raw = block.encode("utf-8")
    data = np.frombuffer(raw, dtype=np.uint8)
    ends = _line_ends(data)
    starts = np.concatenate(([0], ends))
    line_starts = starts[:-1]
    sizes = ends - line_starts
    chars, char_starts = sizes, starts
    if len(raw) != len(block):  # code points: the bytes that are not continuation bytes
        chars = np.add.reduceat((data & 0xC0) != 0x80, line_starts, dtype=np.int64)
        char_starts = np.concatenate(([0], np.cumsum(chars)))
    ascii_lines = sizes == chars
    if 2 * int(sizes[ascii_lines].sum()) < len(raw):  # mostly other lines: the ASCII ones on their own
        codes, words, by_hand = _ascii_line_labels(raw, line_starts, ends, ascii_lines)
    else:
        codes, words, by_hand = _ascii_labels(raw, data, line_starts, ends)
    by_hand |= ~ascii_lines
    joiner_lines = _other_lines(block, char_starts, ascii_lines, codes, words, by_hand)
    hand = np.flatnonzero(by_hand)  # the lines left: read one by one
    if len(hand):
        cuts = zip(char_starts[hand].tolist(), char_starts[hand + 1].tolist())
        read = list(map(seen.__getitem__, [block[a:b] for a, b in cuts]))
        hand_codes, hand_words, hand_joins = zip(*read)
        codes[hand] = hand_codes
        words[hand] = hand_words
        if any(hand_joins):
            joiner_lines = np.union1d(joiner_lines, hand[np.array(hand_joins, dtype=bool)])
    joins = len(joiner_lines) > 0
    result = BlockLines(block, codes, starts, words)
    if joins:
        result.joiner_lines = joiner_lines
    result.last_ends = last_block or block[-1] in "\r\n"
    if tail is not None and not result.last_ends:
        codes[-1], words[-1] = tail.code, 0
    if head is not None:
        result.continued = True
        codes[0] = head.code
        ends_here = len(codes) > 1 or result.last_ends
        words[0] = head.words if ends_here else 0
        result.head_text = head.text if ends_here else None
    # CLUSTER_JOINERS.search(block) is not None, from the lines' characters
    result.long_clusters = b"\r\n" in raw or joins
    k = len(SCRIPTS)
    n_lines = np.bincount(codes, minlength=k).tolist()
    # sums per label (float64 sums of integers far below 2**53: exact)
    sums = [np.bincount(codes, weights=column, minlength=k).tolist() for column in (chars, sizes, words)]
    for c in np.flatnonzero(n_lines).tolist():
        g = result.by_label[SCRIPTS[c]] = GroupStats(n_lines[c], *(int(s[c]) for s in sums))
        if not result.last_ends and codes[-1] == c:
            g.lines -= 1
    return result
