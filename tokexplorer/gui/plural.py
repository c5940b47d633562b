"""Counts with their noun in the right number: ``"1 code point"``, ``"2 code points"``."""

from __future__ import annotations


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` (with thousands separators) and ``word``, or ``many`` (default ``word + "s"``) unless n is 1.

    >>> plural(1, "code point"), plural(2_000, "byte"), plural(0, "grapheme cluster")
    ('1 code point', '2,000 bytes', '0 grapheme clusters')
    """
    return f"{n:,} {word if n == 1 else (many or word + 's')}"
