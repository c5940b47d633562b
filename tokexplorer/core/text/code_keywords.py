"""Whether a line that starts with a programming keyword is code: the keyword alone is
no evidence (``use the force``, ``for the record``, ``import duties rose``,
``return to sender`` are prose), what follows it must look like code.

What follows the keyword (its *rest*, a trailing ``# comment`` left out) is code when
it holds code punctuation (:data:`_EVIDENCE`: a call or index ``f(``/``a[``, a brace,
``;``, ``=``, ``::``, ``->``, ``&&``, ``//``, arithmetic between spaces, a string or
bracket right after the keyword...), or when it has the shape the keyword takes in
code:

* ``def``/``class``/``return``/``raise``/``package``/``struct``/``enum``/``impl``/
  ``fn``/``func``/``elif``/``import``: one name (dotted, maybe ending in ``:``/``;``/``,``):
  ``import os``, ``return x``, ``class Foo:``; ``import`` also a list of names
  (``import a, b as c``), ``from`` the shape ``from NAME import ...``;
* ``if``/``elif``/``while``/``with``/``case``/``except``, ending in ``:``: one name
  before it (``if not done:``, ``except ValueError:``, ``with lock:``), ``for`` a
  ``for NAMES in ...:`` header, ``else``/``try``/``finally`` the colon right after
  (``else:``); the name may be a comparison of names by ``is``, ``is not``, ``in``,
  ``not in``, ``and``, ``or`` (``if data is None:``);
* ``async`` followed by ``def``/``for``/``with`` as above;
* ``@name`` alone or followed by ``(`` (a decorator, an annotation); ``#include``,
  ``#define`` and ``#!/`` always.

The modifiers (``public``, ``private``, ``protected``, ``static``, ``const``, ``let``,
``var``, ``pub``) and ``use`` need punctuation: one word after them is prose as often
as code (``static electricity``, ``use cases``). Keywords are lower case, as the
languages spell them.

>>> [keyword_signal(s) for s in ("use the force", "for the record", "import duties rose")]
[False, False, False]
>>> [keyword_signal(s) for s in ("use std::io;", "for x in items:", "import os, sys", "def f(x):")]
[True, True, True, True]
>>> keyword_signal("hello world") is None
True
"""

from __future__ import annotations

import regex

__all__ = ["SIGNAL_WORDS", "keyword_signal"]

_LEAD = regex.compile(r"\s*(#include|#define|#!/|@[A-Za-z_][\w.]*|[a-z]+)(.*)", regex.DOTALL)
_COMMENT = regex.compile(r"\s+#.*$", regex.DOTALL)
_EVIDENCE = regex.compile(
    r"\w[(\[]|[{}=]|;\s*$|::\w|->|=>|&&|\|\||//|/\*|\+\+|\[\]|\(\)|\s[+*/%<>&|^]\s|^[\"'`\[*<]|^\($"
)
# ``inline literals`` of reST and Markdown: code quoted in prose, no evidence of code
_INLINE_LITERAL = regex.compile(r"``[^`]*``|`[^`]*`")
_NAME = r"[A-Za-z_][\w.]*"
_VALUE = rf"(?:{_NAME}|\d[\w.]*|[rbfu]*'[^']*'|[rbfu]*\"[^\"]*\"|\({_NAME}(?:\s*,\s*{_NAME})*\))"
_ONE_NAME = regex.compile(rf"{_VALUE}(?:\s*,\s*{_VALUE})*[:;,]?")
_NAMES = regex.compile(rf"\.*{_NAME}(?:\s+as\s+\w+)?(?:\s*,\s*{_NAME}(?:\s+as\s+\w+)?)*\s*;?")
_FROM = regex.compile(r"\S+\s+import\b")
_OPERAND = rf"(?:not\s+)?{_VALUE}"
_HEADER = regex.compile(
    rf"{_OPERAND}(?:\s+(?:is\s+not|is|not\s+in|in|and|or)\s+{_OPERAND})*(?:\s+as\s+\w+)?"
    r":(?:\s*(?:return|raise|pass|break|continue)\b.*)?"
)
_FOR = regex.compile(r"[\w, ()]+\s+in\s+\S.*")

_ONE_NAME_KEYWORDS = frozenset("def class return raise package struct enum impl fn func elif import".split())
_HEADER_KEYWORDS = frozenset("if elif while with case except".split())
_EVIDENCE_ONLY = frozenset("public private protected static const let var pub use function switch".split())
_ALWAYS = ("#include", "#define", "#!/")

#: The lower-case leading words that :func:`keyword_signal` reads what follows
#: of: a line led by any other run of ``a``-``z`` (``used``, ``default``, ``format``),
#: or by one of these followed by a letter, digit or ``_`` (``for2``, ``classy``), gets None.
SIGNAL_WORDS: frozenset[str] = (
    _ONE_NAME_KEYWORDS | _HEADER_KEYWORDS | _EVIDENCE_ONLY | {"async", "else", "try", "finally", "from", "for"}
)


def keyword_signal(line: str) -> bool | None:
    """Whether ``line``, which starts (after white space) with a keyword, is code by
    what follows the keyword (see the module docstring); None when it starts with
    no keyword at all (the other signals then decide)."""
    m = _LEAD.match(line)
    if m is None:
        return None
    kw, raw = m.group(1), m.group(2)
    if kw in _ALWAYS:
        return True
    if kw.startswith("@"):
        rest = raw.strip()
        return not rest or rest.startswith("(")
    if raw[:1].isalnum() or raw[:1] == "_":
        return None  # a longer word ("classy", "importé")
    rest = _INLINE_LITERAL.sub("", _COMMENT.sub("", raw)).strip()
    if kw == "async":
        inner = regex.match(r"(def|for|with)\b", rest)
        return inner is not None and keyword_signal(rest) is True
    if kw in ("else", "try", "finally"):
        return rest.startswith(":")
    if kw == "from":
        return _FROM.match(rest) is not None
    if kw == "for":
        return (rest.endswith(":") and _FOR.fullmatch(rest[:-1].strip()) is not None) or _has_evidence(rest)
    if kw not in _ONE_NAME_KEYWORDS and kw not in _HEADER_KEYWORDS and kw not in _EVIDENCE_ONLY:
        return None
    if not rest:  # a keyword alone on its line: a word of prose too, unless a statement indented as code is
        return kw in ("return", "raise") and line[:1] in " \t" and line.startswith(("    ", "\t"))
    if _has_evidence(rest):
        return True
    if kw in _HEADER_KEYWORDS and _HEADER.fullmatch(rest):
        return True
    if kw in _ONE_NAME_KEYWORDS and _ONE_NAME.fullmatch(rest):
        return True
    return kw == "import" and _NAMES.fullmatch(rest) is not None


def _has_evidence(rest: str) -> bool:
    return _EVIDENCE.search(rest) is not None
