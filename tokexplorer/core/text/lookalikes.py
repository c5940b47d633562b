"""Look-alikes: code points a reader takes for other ones (``│`` for ``|``, a no-break space for a
space, a Cyrillic ``а`` for ``a``), which the display of tokens and vocabulary pieces writes
``<U+XXXX>`` (:func:`~tokexplorer.core.text.pieces.piece_display`), and :func:`code_point_list`,
every code point of a piece spelled out (its tooltip).

Source: Unicode's confusables data (UTS #39 ``confusables.txt``), as the package
``confusable-homoglyphs`` ships it, turned into :mod:`~tokexplorer.core.text.lookalike_table` by
``tools/make_lookalike_table.py`` (no run-time dependency); with it NFKC's mappings to ASCII
punctuation (``․`` is ``.``), the box-drawing characters and block elements, every space other
than U+0020, and what the data maps to two ASCII characters or to a letter (:data:`_ALSO`).
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from itertools import chain

import unicodedata2 as unicodedata

from tokexplorer.core.text.char_names import char_name
from tokexplorer.core.text.lookalike_table import LETTERS, PUNCTUATION

#: Look-alikes of ASCII punctuation the confusables data gives otherwise: the vertical bars ǀ and
#: ∣ (to it an ``l``), the em dash and horizontal bar (a katakana ``ー``), curly double quotes and
#: the double prime (two ``'``), the low double quote „ (absent).
_ALSO = frozenset("\u01c0\u2223\u2014\u2015\u201c\u201d\u201e\u2033")

_PUNCT_STARTS = [a for a, _ in PUNCTUATION]
_LETTER_STARTS = [a for a, _ in LETTERS]


def _in(ranges: tuple[tuple[int, int], ...], starts: list[int], cp: int) -> bool:
    i = bisect_right(starts, cp) - 1
    return i >= 0 and cp <= ranges[i][1]


@lru_cache(maxsize=8192)  # the same few characters, over and over (a text of 100,000 characters)
def is_lookalike(ch: str) -> bool:
    """True for a visible non-ASCII code point drawn one cell wide that a reader takes for another
    character, whatever surrounds it: one the confusables data takes for ASCII punctuation
    (``’``, ``‐``, ``∕``, ``ǃ``), one NFKC makes ASCII punctuation (``․`` is ``.``), one of
    :data:`_ALSO` (``—``, ``“``), a box-drawing character or block element (``│`` looks like
    ``|``, ``▁`` like ``_``), a space other than U+0020 (no-break, ideographic). Wide forms
    (``，``, ``！``) are told apart by their width, letters and digits NFKC changes (``ﬁ``, ``²``)
    by their shape: neither is a look-alike. A letter another script shares with ASCII
    (Cyrillic ``а``) is one only in a piece that reads as ASCII: :func:`letter_lookalikes`.

    >>> [is_lookalike(c) for c in ("\u2502", "\u2581", "\u2019", "\u2024", "\u00a0", "|", "\uff0c", "é", "你")]
    [True, True, True, True, True, False, False, False, False]
    >>> [is_lookalike(c) for c in ("\u3000", "\ufb01", "\u00b2", "\u2122", "\u2014", "\u01c3", "\u0430")]
    [True, False, False, False, True, True, False]
    """
    cp = ord(ch)
    if cp < 0x80:
        return False
    if unicodedata.category(ch) == "Zs":
        return True  # a space, whatever its width: blank like U+0020
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return False
    if 0x2500 <= cp <= 0x259F or ch in _ALSO or _in(PUNCTUATION, _PUNCT_STARTS, cp):
        return True
    folded = unicodedata.normalize("NFKC", ch)
    return len(folded) == 1 and folded.isascii() and not folded.isalnum() and not folded.isspace()


def letter_lookalikes(text: str) -> list[int]:
    """The indices of the letters of ``text`` that are look-alikes there: letters of another
    script the confusables data takes for an ASCII letter or digit (Cyrillic ``а``, ``о``,
    ``с``, Greek ``ο``), when every letter of ``text`` is ASCII or such a letter, so that the
    whole reads as ASCII (``а`` alone, ``pаypal``, ``сор``). In a word of the other script
    (``слово``: ``л`` and ``в`` look like no ASCII letter) they stay as they are.

    >>> letter_lookalikes("\u0430"), letter_lookalikes("p\u0430yp\u0430l")
    ([0], [1, 4])
    >>> letter_lookalikes("\u0441\u043b\u043e\u0432\u043e")
    []
    >>> letter_lookalikes("a"), letter_lookalikes(" \u043e\u0445!"), letter_lookalikes("\u03bf")
    ([], [1, 2], [0])
    """
    if text.isascii():
        return []
    out: list[int] = []
    for i, ch in enumerate(text):
        if ch.isascii() or not ch.isalpha():
            continue
        if not _in(LETTERS, _LETTER_STARTS, ord(ch)):
            return []  # a letter like no ASCII one: the text does not read as ASCII
        out.append(i)
    return out


def code_point_list(text: str | bytes, *, limit: int | None = None) -> str:
    """Every code point of ``text`` with its name (:func:`~.char_names.char_name`: a control,
    a lone surrogate or an unassigned one by its code point label), one per line (a piece's or
    a token's tooltip). Bytes are read as UTF-8, a byte that is no whole character listed as
    ``byte 0xNN (part of a character)``. With ``limit``, only the first ``limit`` lines and a
    last one saying how many more there are.

    >>> print(code_point_list("\u2581|"))
    U+2581 LOWER ONE EIGHTH BLOCK
    U+007C VERTICAL LINE
    >>> code_point_list("\\udc80"), code_point_list("")
    ('U+DC80 <surrogate-DC80>', '')
    >>> print(code_point_list(b"a\\xe4\\xbd", limit=2))
    U+0061 LATIN SMALL LETTER A
    byte 0xE4 (part of a character)
    … 1 more
    """
    raw = isinstance(text, (bytes, bytearray))
    chars = bytes(text).decode("utf-8", "surrogateescape") if raw else text
    n = len(chars) if limit is None else min(limit, len(chars))
    lines = (
        f"byte 0x{ord(c) - 0xDC00:02X} (part of a character)" if raw and 0xDC80 <= ord(c) <= 0xDCFF
        else f"U+{ord(c):04X} {char_name(ord(c))}"
        for c in chars[:n]
    )  # fmt: skip
    more = [f"… {len(chars) - n:,} more"] if n < len(chars) else []
    return "\n".join(chain(lines, more))
