"""Grapheme clusters: the user-perceived characters of a text.

They come from the :mod:`regex` module's ``\\X`` (Unicode Standard Annex #29,
extended grapheme clusters): a letter with its combining marks, an emoji with
its skin tone, a ZWJ sequence, the two regional indicators of a flag.

>>> [(start, end) for _, start, end in grapheme_spans("e\\u0301x\\U0001F44B\\U0001F3FD")]
[(0, 2), (2, 3), (3, 5)]
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

_GRAPHEME = regex.compile(r"\X")


@dataclass(frozen=True, slots=True)
class GraphemeInfo:
    """One grapheme cluster (``regex`` ``\\X``, UAX #29 extended grapheme cluster).

    Attributes:
        index: grapheme index in the text.
        text: the cluster's code points.
        char_start: first code point index (inclusive).
        char_end: end code point index (exclusive).
        byte_start: first byte (inclusive).
        byte_end: end byte (exclusive).
    """

    index: int
    text: str
    char_start: int
    char_end: int
    byte_start: int
    byte_end: int

    def __repr__(self) -> str:
        return f"GraphemeInfo({self.index}: {self.text!r} [{self.byte_start}:{self.byte_end}])"

    @property
    def n_code_points(self) -> int:
        """Number of code points in the cluster."""
        return self.char_end - self.char_start


def grapheme_spans(text: str) -> list[tuple[str, int, int]]:
    """The grapheme clusters of ``text`` as ``(cluster, char_start, char_end)``.

    Character offsets count code points (half-open); the clusters join back to
    ``text``. An empty text has none.

    >>> grapheme_spans("a\\U0001F1EB\\U0001F1F7")
    [('a', 0, 1), ('🇫🇷', 1, 3)]
    """
    return [(m.group(), *m.span()) for m in _GRAPHEME.finditer(text)]
