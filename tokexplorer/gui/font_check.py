"""Which scripts of a text no installed font draws, said in words.

A machine with only Latin fonts draws Chinese, Japanese, Telugu or emoji as boxes
("tofu") and Qt says nothing about it. :func:`missing_scripts` finds the scripts of a
text that no installed font has a glyph for (the check asks Qt's font fallback, so
any installed font counts), :func:`missing_line` words them as the one line the app
prints on stderr, :func:`missing_status` as the status bar's warning.
:data:`QT_SCRIPTS` names the numbers of Qt's own notices ("script 17" is Telugu).

Needs a QGuiApplication (font metrics); one check of a character costs about
50 µs and is remembered, so a text is checked once per new character.
"""

from __future__ import annotations

import unicodedata

import regex
from PySide6.QtGui import QFontMetrics, QGuiApplication

#: Qt's ``QChar::Script`` numbers (as in its "OpenType support missing ..., script N"
#: notices) -> the script's name; numbers past this list are said as numbers.
QT_SCRIPTS: tuple[str, ...] = (
    "Unknown", "Inherited", "Common", "Latin", "Greek", "Cyrillic", "Armenian", "Hebrew", "Arabic",
    "Syriac", "Thaana", "Devanagari", "Bengali", "Gurmukhi", "Gujarati", "Oriya", "Tamil", "Telugu",
    "Kannada", "Malayalam", "Sinhala", "Thai", "Lao", "Tibetan", "Myanmar", "Georgian", "Hangul",
    "Ethiopic", "Cherokee", "Canadian Aboriginal", "Ogham", "Runic", "Khmer", "Mongolian", "Hiragana",
    "Katakana", "Bopomofo", "Han", "Yi", "Old Italic", "Gothic", "Deseret", "Tagalog", "Hanunoo",
    "Buhid", "Tagbanwa", "Coptic",
)  # fmt: skip

#: Debian packages with fonts for a script (default: :data:`DEFAULT_PACKAGE`).
PACKAGES: dict[str, str] = {
    "Han": "fonts-noto-cjk", "Hiragana": "fonts-noto-cjk", "Katakana": "fonts-noto-cjk",
    "Hangul": "fonts-noto-cjk", "Bopomofo": "fonts-noto-cjk", "emoji": "fonts-noto-color-emoji",
}  # fmt: skip
DEFAULT_PACKAGE = "fonts-noto-core"
#: At most this many leading characters of a text are checked (a few ms the first time).
CHECKED_CHARS = 200_000

_NAMED = [n for n in QT_SCRIPTS[3:]]
_SCRIPT_OF = regex.compile(
    r"(?P<emoji>[\p{Extended_Pictographic}\p{Regional_Indicator}])|"
    + "|".join(f"(?P<s{i}>\\p{{Script={n.replace(' ', '_')}}})" for i, n in enumerate(_NAMED))
)
#: Characters that draw nothing of their own (controls, format, marks, spaces, unassigned).
_SILENT = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Mn", "Me", "Zs", "Zl", "Zp"})
_covered: dict[str, bool] = {}
#: Scripts said already (on stderr and in the status bar), by the check of the shown text
#: and by Qt's notices; each is said once a run.
said_scripts: set[str] = set()


def qt_script_name(number: int) -> str:
    """The name of Qt's script ``number`` (``17`` -> ``"Telugu"``; unknown -> ``"script 99"``).

    >>> qt_script_name(17), qt_script_name(37), qt_script_name(999)
    ('Telugu', 'Han', 'script 999')
    """
    return QT_SCRIPTS[number] if 0 <= number < len(QT_SCRIPTS) else f"script {number}"


def char_script(ch: str) -> str:
    """The script of one character in words: a name of :data:`QT_SCRIPTS`, ``"emoji"``,
    or ``"symbols"`` (other scripts, punctuation, signs).

    >>> [char_script(c) for c in "你の\u0c24\U0001f44b\u24d8"]
    ['Han', 'Hiragana', 'Telugu', 'emoji', 'symbols']
    """
    m = _SCRIPT_OF.match(ch)
    if m is None:
        return "symbols"
    if m.lastgroup == "emoji":
        return "emoji"
    return _NAMED[int(m.lastgroup[1:])]


def has_glyph(ch: str) -> bool:
    """True when some installed font has a glyph for ``ch`` (Qt's font fallback of the
    application font; remembered per character)."""
    known = _covered.get(ch)
    if known is None:
        known = _covered[ch] = QFontMetrics(QGuiApplication.font()).inFontUcs4(ord(ch))
    return known


def missing_scripts(text: str) -> dict[str, list[str]]:
    """The scripts of ``text`` (its first :data:`CHECKED_CHARS` characters) with characters
    no installed font draws -> those characters, each once, in the order they come.

    Spaces, controls, joiners and combining marks are not checked (they draw nothing of
    their own).
    """
    out: dict[str, list[str]] = {}
    head = text[:CHECKED_CHARS]
    if head.isascii():
        return out
    for ch in dict.fromkeys(head):
        if ch.isascii() or unicodedata.category(ch) in _SILENT or has_glyph(ch):
            continue
        out.setdefault(char_script(ch), []).append(ch)
    return out


def _named(missing: dict[str, list[str]]) -> tuple[str, str, str]:
    """The scripts, one example of each (with its code point), the packages to install."""
    missing = dict(sorted(missing.items(), key=lambda kv: kv[0] == "symbols"))  # symbols last
    names = ", ".join(missing)
    examples = ", ".join(f"{chars[0]} U+{ord(chars[0]):04X}" for chars in missing.values())
    # punctuation and signs come with the fonts of the scripts around them
    scripts = [s for s in missing if s != "symbols"] or list(missing)
    packages = " ".join(dict.fromkeys(PACKAGES.get(s, DEFAULT_PACKAGE) for s in scripts))
    return names, examples, packages


def missing_line(missing: dict[str, list[str]]) -> str:
    """The one line said on stderr for :func:`missing_scripts`' answer.

    >>> missing_line({"Han": ["你", "好"], "Hiragana": ["の"]})
    'tokexplorer: no installed font shows Han, Hiragana (e.g. 你 U+4F60, の U+306E): install fonts-noto-cjk'
    """
    names, examples, packages = _named(missing)
    return f"tokexplorer: no installed font shows {names} (e.g. {examples}): install {packages}"


def missing_status(missing: dict[str, list[str]], warning: str = "\u26a0") -> str:
    """The status bar's warning for :func:`missing_scripts`' answer; ``warning`` is the sign
    it starts with (a plain ``"!"`` where no font has ⚠).

    >>> missing_status({"Telugu": ["\u0c24"]}, "!")
    '! some characters show as boxes: no installed font has Telugu (e.g. \u0c24 U+0C24); install fonts-noto-core'
    """
    names, examples, packages = _named(missing)
    boxes = f"{warning} some characters show as boxes"
    return f"{boxes}: no installed font has {names} (e.g. {examples}); install {packages}"
