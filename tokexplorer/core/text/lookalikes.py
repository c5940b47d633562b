"""Look-alikes: code points a reader takes for other ones (``│`` for ``|``, a no-break space for a
space), which the display of vocabulary pieces writes ``<U+XXXX>``
(:func:`~tokexplorer.core.text.display.piece_display`), and :func:`code_point_list`, every code
point of a text spelled out (a piece's tooltip).
"""

from __future__ import annotations

import unicodedata2 as unicodedata

from tokexplorer.core.text.char_names import char_name

#: One-cell characters that look like ASCII punctuation but that NFKC leaves as they are: vertical
#: bars (ǀ ∣), hyphens, dashes and the minus sign, curly quotes and primes, the ratio ∶.
_LOOKS_ASCII = frozenset(
    "\u01c0\u2223\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2018\u2019\u201a\u201b\u201c\u201d\u201e"
    "\u2032\u2033\u02b9\u02bc\u02c8\u02cb\u2236\u2217\u2215\u2216"
)


def is_lookalike(ch: str) -> bool:
    """True for a visible non-ASCII code point drawn one cell wide that a reader takes for another
    character: one NFKC makes ASCII (``․`` is ``.``), one of the look-alikes of ASCII punctuation
    NFKC keeps (``ǀ``, ``–``, ``’``, ``−``), a box-drawing character or block element (``│`` looks
    like ``|``, ``▁`` like ``_``), a space other than U+0020 (no-break, ideographic). Wide forms
    (``，``, ``！``) are told apart by their width, letters and digits NFKC changes (``ﬁ``, ``²``)
    by their shape: neither is a look-alike.

    >>> [is_lookalike(c) for c in ("\u2502", "\u2581", "\u2019", "\u2024", "\u00a0", "|", "\uff0c", "é", "你")]
    [True, True, True, True, True, False, False, False, False]
    >>> [is_lookalike(c) for c in ("\u3000", "\ufb01", "\u00b2", "\u2122")]
    [True, False, False, False]
    """
    cp = ord(ch)
    if cp < 0x80:
        return False
    if unicodedata.category(ch) == "Zs":
        return True  # a space, whatever its width: blank like U+0020
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return False
    if 0x2500 <= cp <= 0x259F or ch in _LOOKS_ASCII:
        return True
    folded = unicodedata.normalize("NFKC", ch)
    return len(folded) == 1 and folded.isascii() and not folded.isalnum() and not folded.isspace()


def code_point_list(text: str) -> str:
    """Every code point of ``text`` with its name (:func:`~.char_names.char_name`: a control,
    a lone surrogate or an unassigned one by its code point label), one per line (a piece's tooltip).

    >>> print(code_point_list("\u2581|"))
    U+2581 LOWER ONE EIGHTH BLOCK
    U+007C VERTICAL LINE
    >>> code_point_list("\\udc80"), code_point_list("")
    ('U+DC80 <surrogate-DC80>', '')
    """
    return "\n".join(f"U+{ord(c):04X} {char_name(ord(c))}" for c in text)
