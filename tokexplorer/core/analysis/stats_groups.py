"""The counts of one group of the corpus statistics (:mod:`tokexplorer.core.analysis.stats`):
the corpus, a file or a script label. This module imports no numpy.

>>> g = GroupStats(lines=1, tokens=3)
>>> g.add(GroupStats(lines=2, tokens=4))
>>> g.lines, g.tokens
(3, 7)
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["COLUMNS", "COLUMN_TITLES", "GroupStats"]


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
        grapheme_unknown: lines with grapheme clusters of several code points whose
            tokens' spans are approximate (a normalizer rewrote the text), so
            ``grapheme_part`` is not known for them (the statistics show no number).
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
    grapheme_unknown: int = 0

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
        self.grapheme_unknown += other.grapheme_unknown


#: Keys of one row of :meth:`CorpusStats.rows`, in table/CSV order.
COLUMNS: tuple[str, ...] = (
    "tokenizer",
    "group_kind",
    "group",
    "lines",
    "chars",
    "bytes",
    "words",
    "tokens",
    "chars_per_token",
    "bytes_per_token",
    "tokens_per_word",
    "partial_pct",
    "grapheme_part_pct",
    "unknown_pct",
    "roundtrip_failed_lines",
    "error",
)

#: Column titles for tables and charts.
COLUMN_TITLES: dict[str, str] = {
    "tokenizer": "tokenizer",
    "group_kind": "by",
    "group": "group",
    "lines": "lines",
    "chars": "characters",
    "bytes": "UTF-8 bytes (decoded)",
    "words": "words",
    "tokens": "tokens",
    "chars_per_token": "chars/token",
    "bytes_per_token": "bytes/token",
    "tokens_per_word": "tokens/word",
    "partial_pct": "partial UTF-8 %",
    "grapheme_part_pct": "part of a grapheme %",
    "unknown_pct": "unknown %",
    "roundtrip_failed_lines": "round-trip failures (lines)",
    "error": "error",
}
