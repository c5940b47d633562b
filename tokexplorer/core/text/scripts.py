"""Which writing system a line of text is mostly in: the per-script breakdown of
the corpus statistics.

Each line gets one label from :data:`SCRIPTS`. Letters are counted per Unicode
``Script`` property (``regex``'s ``\\p{Script=Han}`` ...); emoji are characters
with the ``Extended_Pictographic`` property or regional indicators; a line is
``"code"`` when it looks like program text (see :func:`looks_like_code`).

Rules, in order:

1. only whitespace → ``"blank"``;
2. looks like code → ``"code"``;
3. more emoji than letters → ``"emoji"``;
4. no letters → ``"other"`` (digits, punctuation, symbols);
5. else the script with the most letters (Hiragana and Katakana count as
   ``"Kana"``; scripts outside the list give ``"other script"``). A mixed
   Chinese/English line therefore goes to whichever has more letters.

>>> classify_line("你好，世界")
'Han'
>>> classify_line("hello world")
'Latin'
>>> classify_line("    return x + 1;")
'code'
>>> classify_line("🎉🎉 ok")
'emoji'
"""

from __future__ import annotations

from collections import Counter

import regex

from tokexplorer.core.text.code_keywords import keyword_signal

__all__ = [
    "SCRIPTS",
    "SPACE_DELIMITED",
    "classify_line",
    "looks_like_code",
    "script_counts",
]

#: Labels :func:`classify_line` returns, in display order.
SCRIPTS: tuple[str, ...] = (
    "Latin",
    "Han",
    "Kana",
    "Hangul",
    "Cyrillic",
    "Greek",
    "Arabic",
    "Hebrew",
    "Devanagari",
    "Thai",
    "other script",
    "emoji",
    "code",
    "other",
    "blank",
)

#: Scripts whose words are separated by spaces: tokens per word is reported for them.
SPACE_DELIMITED: frozenset[str] = frozenset(
    {"Latin", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari", "Hangul"}
)

_NAMED = ("Latin", "Han", "Hangul", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari", "Thai")
_LETTER_SCRIPTS = regex.compile(
    "|".join(f"(?P<{n}>\\p{{Script={n}}})" for n in _NAMED)
    + r"|(?P<Kana>[\p{Script=Hiragana}\p{Script=Katakana}])"
    + r"|(?P<emoji>[\p{Extended_Pictographic}\p{Regional_Indicator}])"
    + r"|(?P<other>\p{L})"
)

_CODE_END = regex.compile(r"[{};]\s*$|^\s*[}\])]+[;,)]*\s*$|\)\s*:\s*$")
_CODE_ASSIGN = regex.compile(
    r"^\s*[A-Za-z_][\w.]*(?:\[[^\]]*\])?(?:\s*,\s*[A-Za-z_][\w.]*)*\s*(?:[-+*/%|&]|<<|>>)?=\s*\S"
)
_OPERATORS = ("==", "!=", "<=", ">=", "=>", "->", "::", "&&", "||", "+=", "-=", "()", "//", "/*", "*/")
_CODE_OPERATOR = regex.compile("|".join(map(regex.escape, _OPERATORS)))
_CODE_SYMBOLS = frozenset("{}()[];=<>+*/&|!%^~$#@\\:")


def looks_like_code(line: str) -> bool:
    """True when ``line`` looks like program text.

    Signals: a leading keyword (``def``, ``return``, ``#include``, ``const``, a
    block header ``for ...:``...) followed by what looks like code
    (:func:`~tokexplorer.core.text.code_keywords.keyword_signal`: ``use std::io;``,
    ``import os``, ``for x in items:``; never the keyword alone, so ``use the force``,
    ``for the record`` and ``import duties rose`` are prose), an ending ``{``, ``}``
    or ``;`` (or a line of closing brackets), an assignment (``a, b = ...``), an
    operator such as ``==``, ``->``, ``&&`` or ``()``, and the share of the symbols
    ``{}()[];=<>+*/&|!%^~$#@\\:`` among the non-space characters. A keyword signal
    or ending alone is enough; an operator needs 10 % symbols; otherwise 25 % symbols.

    >>> looks_like_code("if (x == 1) {")
    True
    >>> looks_like_code("Hello, world: a story.")
    False
    >>> looks_like_code("def"), looks_like_code("def f"), looks_like_code("return;")
    (False, True, True)
    >>> looks_like_code("use the force"), looks_like_code("use std::io;")
    (False, True)
    """
    stripped = line.strip()
    if not stripped:
        return False
    if _may_start_code(line, stripped) and (keyword_signal(line) or _CODE_ASSIGN.match(line)):
        return True
    if (stripped[-1] in _LAST_CHARS or stripped[0] in _FIRST_CHARS) and _CODE_END.search(line):
        return True
    utf8 = stripped.encode("utf-8")  # the symbols are ASCII: one byte each, in no other character's bytes
    n_symbols = len(utf8) - len(utf8.translate(None, _SYMBOL_BYTES))
    if not n_symbols:
        return False
    share = n_symbols / len("".join(stripped.split()))  # over the non-space characters
    if share < 0.10:
        return False
    return share >= 0.25 or _CODE_OPERATOR.search(line) is not None


# Cheap exact tests before the patterns (most lines of prose match none): after
# ``^\s*`` each start signal begins at the stripped line's first character (\s
# is a subset of str.isspace), with a keyword of _CODE_START (or a prefix of
# one), or with a name for the assignment, which also needs "=". Every ending
# of _CODE_END ends the stripped line with one of _LAST_CHARS or starts it with
# one of _FIRST_CHARS (what follows is \s*).
_START_WORDS = (
    "def", "class", "import", "from", "return", "elif", "else:", "try:", "except", "raise", "func", "const",
    "let", "var", "pub", "private", "protected", "static", "fn", "use", "impl", "struct", "enum", "package",
    "#include", "#define", "#!", "@", "for", "while", "if", "with", "async", "switch", "case", "finally",
)  # fmt: skip
_NAME_FIRST = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_LAST_CHARS = frozenset("{};:")
_FIRST_CHARS = frozenset("}])")
_SYMBOL_BYTES = "".join(sorted(_CODE_SYMBOLS)).encode("ascii")
_ASCII_LETTER_BYTES = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def _may_start_code(line: str, stripped: str) -> bool:
    return stripped.startswith(_START_WORDS) or (stripped[0] in _NAME_FIRST and "=" in line)


def script_counts(text: str) -> Counter[str]:
    """Letters per script label in ``text`` (emoji counted under ``"emoji"``,
    letters of unlisted scripts under ``"other script"``).

    >>> sorted(script_counts("ab 你").items())
    [('Han', 1), ('Latin', 2)]
    """
    counts: Counter[str] = Counter(map(_CHAR_LABELS.__getitem__, text))
    counts.pop(None, None)
    return counts


class _CharLabels(dict):
    """Character -> its label in :func:`script_counts` (None: not a letter nor an
    emoji), filled on first sight: each branch of the pattern matches one code
    point, so labelling characters one by one gives the counts of ``finditer``."""

    def __missing__(self, ch: str) -> str | None:
        m = _LETTER_SCRIPTS.match(ch)
        label = None if m is None else ("other script" if m.lastgroup == "other" else m.lastgroup)
        self[ch] = label
        return label


_CHAR_LABELS = _CharLabels()


def classify_line(line: str) -> str:
    """The label of one line (see the module docstring for the rules).

    Args:
        line: one line, with or without its line ending.

    Returns:
        one of :data:`SCRIPTS`.

    >>> [classify_line(s) for s in ("hello world", "\u4f60\u597d", "def f(x):", "  ")]
    ['Latin', 'Han', 'code', 'blank']
    """
    if not line.strip():
        return "blank"
    if looks_like_code(line):
        return "code"
    if line.isascii():  # every ASCII letter is Latin, and no ASCII character is an emoji
        ascii_bytes = line.encode("ascii")
        return "Latin" if len(ascii_bytes.translate(None, _ASCII_LETTER_BYTES)) < len(line) else "other"
    counts = script_counts(line)
    emoji = counts.pop("emoji", 0)
    letters = sum(counts.values())
    if emoji and emoji >= letters:
        return "emoji"
    if not letters:
        return "other"
    best = max(counts.items(), key=lambda kv: (kv[1], -SCRIPTS.index(kv[0])))
    return best[0]
