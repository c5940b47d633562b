"""Which script a token's bytes are in, and whether they hold only part of a
character: the merge table's filters.

>>> [token_script(t) for t in (b" the", "\\u4f60\\u597d".encode(), b"\\xe4\\xbd")]
['Latin', 'Han', 'Bytes only']
"""

from __future__ import annotations

import regex
import unicodedata2

__all__ = ["SCRIPTS", "is_partial_utf8", "token_script"]


#: The script classes of :func:`token_script`, in the order the filter lists them.
SCRIPTS: tuple[str, ...] = (
    "Latin", "Han", "Kana", "Hangul", "Cyrillic", "Greek", "Arabic", "Hebrew",
    "Devanagari", "Thai", "Other letters", "Emoji", "Digits", "Punctuation",
    "Whitespace", "Other", "Bytes only",
)  # fmt: skip


_LETTER_SCRIPTS = (
    ("Latin", r"\p{Latin}"),
    ("Han", r"\p{Han}"),
    ("Kana", r"[\p{Hiragana}\p{Katakana}]"),
    ("Hangul", r"\p{Hangul}"),
    ("Cyrillic", r"\p{Cyrillic}"),
    ("Greek", r"\p{Greek}"),
    ("Arabic", r"\p{Arabic}"),
    ("Hebrew", r"\p{Hebrew}"),
    ("Devanagari", r"\p{Devanagari}"),
    ("Thai", r"\p{Thai}"),
    ("Other letters", r"\p{L}"),
)


_SCRIPT_RE = regex.compile(
    "|".join(f"(?P<g{i}>{pat})" for i, (_, pat) in enumerate(_LETTER_SCRIPTS))
    + r"|(?P<emoji>\p{Extended_Pictographic}|\p{Regional_Indicator})"
    + r"|(?P<digit>\p{N})|(?P<punct>[\p{P}\p{S}])|(?P<space>\s)"
)


_GROUP_NAME = {f"g{i}": name for i, (name, _) in enumerate(_LETTER_SCRIPTS)} | {
    "emoji": "Emoji",
    "digit": "Digits",
    "punct": "Punctuation",
    "space": "Whitespace",
}


_CLASS_ORDER = {name: i for i, name in enumerate(SCRIPTS)}


def _whole_chars(data: bytes) -> str:
    """The characters of ``data`` that are whole UTF-8 characters (partial bytes dropped)."""
    return data.decode("utf-8", "ignore")


def is_partial_utf8(data: bytes) -> bool:
    """True when ``data`` is not valid UTF-8 on its own (it holds part of a character).

    >>> is_partial_utf8("你".encode()[:2]), is_partial_utf8("你".encode())
    (True, False)
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def token_script(data: bytes) -> str:
    """The script class of a token (one of :data:`SCRIPTS`) for the merge table's filter.

    The first class found wins in this order: a letter's script (Latin, Han,
    Kana, ...), emoji, digits, punctuation and symbols, whitespace, other
    characters. A token with no whole character (``E4 BD``) is ``"Bytes only"``.
    Partial bytes around whole characters are ignored (``" 你\\xE5"`` is Han).

    >>> token_script(b" the"), token_script("你好".encode()), token_script(b"\\xe4\\xbd")
    ('Latin', 'Han', 'Bytes only')
    >>> token_script("👍".encode()), token_script(b"  "), token_script(b"42")
    ('Emoji', 'Whitespace', 'Digits')
    """
    text = _whole_chars(data)
    if not text:
        return "Bytes only"
    best = None
    for m in _SCRIPT_RE.finditer(text):
        name = _GROUP_NAME[m.lastgroup or ""]
        if best is None or _CLASS_ORDER[name] < _CLASS_ORDER[best]:
            best = name
            if _CLASS_ORDER[name] <= _CLASS_ORDER["Other letters"]:
                break
    if best is None:
        cat = unicodedata2.category(text[0])
        best = "Whitespace" if cat.startswith("Z") else "Other"
    return best
