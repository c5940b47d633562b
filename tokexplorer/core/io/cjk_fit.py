"""How well a text read with an East Asian codec looks like that codec's language.

A wrong East Asian codec turns Chinese into a mix of Hangul, loose jamo and rare Han
(``'汉字'`` in GBK read as cp949 is ``'볶俚'``), and Japanese or Chinese into rare
characters of another codec. Two measures, both over the decoded text:

* the share of its characters in the codec's own scripts (:func:`cjk_fit`);
* the share of its double-byte characters among the codec's most frequent ones, each
  character's bytes in that codec (:func:`common_share`): GB2312's level 1 (the 3,755
  most used hanzi) for the GB codecs, Big5's frequently used block, JIS X 0208's
  level 1 kanji and the kana for the Japanese codecs, and the 2,350 Hangul syllables
  of KS X 1001 for the Korean ones.

>>> east_asian_score("gbk", "汉字"), east_asian_score("cp949", "볶俚")
(1.0, -0.5)
"""

from __future__ import annotations

import codecs

import regex
import unicodedata2

__all__ = ["cjk_scripts", "cjk_fit", "common_share", "east_asian_score", "frequent_reading", "language_share"]

_HAN = ("Han",)
_JAPANESE = ("Han", "Hiragana", "Katakana")
_HANGUL = ("Hangul",)

#: Python codec name -> (the scripts its text is written in, the family of its frequent characters).
_FAMILIES: dict[str, tuple[tuple[str, ...], str]] = {
    "gbk": (_HAN, "gb"), "gb18030": (_HAN, "gb"), "gb2312": (_HAN, "gb"), "hz": (_HAN, "gb"),
    "big5": (_HAN, "big5"), "cp950": (_HAN, "big5"), "big5hkscs": (_HAN, "big5"),
    "cp932": (_JAPANESE, "sjis"), "shift_jis": (_JAPANESE, "sjis"), "shift_jis_2004": (_JAPANESE, "sjis"),
    "shift_jisx0213": (_JAPANESE, "sjis"), "euc_jp": (_JAPANESE, "eucjp"), "euc_jis_2004": (_JAPANESE, "eucjp"),
    "euc_jisx0213": (_JAPANESE, "eucjp"), "cp949": (_HANGUL, "kr"), "euc_kr": (_HANGUL, "kr"),
    "johab": (_HANGUL, ""),
}  # fmt: skip

#: Family -> (lead byte ranges, lowest trail byte) of its frequent double-byte characters.
_FREQUENT: dict[str, tuple[tuple[tuple[int, int], ...], int]] = {
    "gb": (((0xB0, 0xD7),), 0xA1),  # GB2312 level 1 hanzi
    "big5": (((0xA4, 0xC6),), 0x40),  # Big5 frequently used characters
    "sjis": (((0x88, 0x98), (0x82, 0x83)), 0x40),  # JIS X 0208 level 1 kanji, hiragana, katakana
    "eucjp": (((0xB0, 0xCF), (0xA4, 0xA5)), 0xA1),  # the same in EUC-JP
    "kr": (((0xB0, 0xC8),), 0xA1),  # KS X 1001 Hangul syllables
}

_CJK_SCRIPTS = ("Han", "Hangul", "Hiragana", "Katakana")
_SCRIPT_RE = {name: regex.compile(rf"\p{{{name}}}") for name in _CJK_SCRIPTS}


def cjk_scripts(codec: str) -> tuple[str, ...] | None:
    """The scripts an East Asian codec writes (``("Han",)`` for gbk), None for any other codec.

    >>> cjk_scripts("GBK"), cjk_scripts("cp1252")
    (('Han',), None)
    """
    try:
        name = codecs.lookup(codec).name
    except LookupError:
        return None
    found = _FAMILIES.get(name)
    return found[0] if found else None


def cjk_fit(text: str, scripts: tuple[str, ...]) -> float:
    """How well a decoded text looks like the language of a CJK codec, in [-2, 1].

    Over the non-ASCII characters that are not punctuation or symbols: the share in
    the codec's own scripts, minus twice the share in the other CJK scripts, in
    loose Hangul jamo (real Korean text is written in syllable blocks) or in
    control and private-use characters.

    >>> cjk_fit("汉字", ("Han",)), cjk_fit("볶俚", ("Han",))
    (1.0, -0.5)
    """
    wide = [c for c in text if ord(c) >= 0x80 and unicodedata2.category(c)[0] not in "PSZ"]
    if not wide:
        return 0.0
    own = other = bad = 0
    for c in wide:
        o = ord(c)
        if 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F or 0xFFA0 <= o <= 0xFFDC:
            bad += 1  # Hangul jamo standing alone
        elif any(_SCRIPT_RE[sc].match(c) for sc in scripts):
            own += 1
        elif any(_SCRIPT_RE[sc].match(c) for sc in _CJK_SCRIPTS):
            other += 1
        elif unicodedata2.category(c) in ("Cc", "Co", "Cn", "Cs"):
            bad += 1
    return (own - 2 * (other + bad)) / len(wide)


def _frequent_counts(codec: str, text: str) -> tuple[int, int]:
    """(characters counted, of them among the codec's frequent double-byte ones)."""
    found = _FAMILIES.get(codecs.lookup(codec).name)
    table = _FREQUENT.get(found[1]) if found else None
    if table is None:
        return 0, 0
    leads, trail = table
    n = common = 0
    for c in text:
        if ord(c) < 0x80 or unicodedata2.category(c)[0] in "PSZ":
            continue
        try:
            b = c.encode(codec)
        except UnicodeEncodeError:
            continue
        n += 1
        common += len(b) == 2 and b[1] >= trail and any(lo <= b[0] <= hi for lo, hi in leads)
    return n, common


def common_share(codec: str, text: str) -> float:
    """Share (0–1) of the text's characters (past ASCII, punctuation and symbols) that are
    double-byte characters of ``codec`` among its frequent ones (see the module
    docstring); 0.0 for a codec without such a table.

    >>> common_share("gbk", "汉字"), common_share("big5", "中文"), common_share("cp932", "ｶﾀ")
    (1.0, 1.0, 0.0)
    """
    n, common = _frequent_counts(codec, text)
    return common / n if n else 0.0


def frequent_reading(codec: str, text: str) -> bool:
    """True when all characters of ``text`` past ASCII (two at least, or one that is the
    whole text) are frequent double-byte characters of ``codec``: bytes of another
    encoding seldom decode so (each pair of bytes has a chance of about 1/4 to 1/8),
    while any bytes decode in a single-byte code page.

    >>> frequent_reading("gbk", "中文"), frequent_reading("gbk", "中"), frequent_reading("gbk", "a中")
    (True, True, False)
    """
    n, common = _frequent_counts(codec, text)
    return common == n and (n >= 2 or (n == 1 and len(text.strip()) == 1))


#: Family -> the language whose most frequent characters charset-normalizer lists.
_LANGUAGES = {"gb": "Chinese", "big5": "Chinese", "sjis": "Japanese", "eucjp": "Japanese", "kr": "Korean"}


def language_share(codec: str, text: str) -> float:
    """Share (0–1) of the text's CJK characters that are among the most frequent ones of
    the codec's language, by charset-normalizer's own frequency tables (the 100 most
    frequent hanzi, 79 Japanese characters, 26 Hangul syllables): Korean read as GBK
    is valid but unusual hanzi.

    >>> language_share("cp949", "한국어"), language_share("gbk", "茄惫绢")
    (0.3333333333333333, 0.0)
    """
    from charset_normalizer.constant import FREQUENCIES

    found = _FAMILIES.get(codecs.lookup(codec).name)
    top = frozenset(FREQUENCIES.get(_LANGUAGES.get(found[1], ""), ())) if found else frozenset()
    chars = [c for c in text if any(r.match(c) for r in _SCRIPT_RE.values())]
    return sum(c in top for c in chars) / len(chars) if chars else 0.0


def east_asian_score(codec: str, text: str) -> float:
    """:func:`cjk_fit` of ``text`` in the codec's scripts, a positive fit weighted by
    :func:`common_share` (from half for no frequent character to all of it); 0.0 for a
    codec that is not East Asian.

    >>> east_asian_score("big5", "中文"), east_asian_score("cp1252", "abc")
    (1.0, 0.0)
    """
    scripts = cjk_scripts(codec)
    if scripts is None:
        return 0.0
    fit = cjk_fit(text, scripts)
    return fit * (0.5 + 0.5 * common_share(codec, text)) if fit > 0 else fit
