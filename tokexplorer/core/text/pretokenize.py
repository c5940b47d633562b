"""Named pre-tokenizers (split patterns).

A pre-tokenizer cuts text into *chunks* before BPE runs; merges never cross a
chunk boundary. The patterns are the ones tiktoken uses, as written in
``tiktoken_ext/openai_public.py`` of tiktoken 0.14 (``r50k_pat_str`` for GPT-2 /
r50k_base / p50k_base, the ``cl100k_base`` and ``o200k_base`` ``pat_str``). They
need the third-party :mod:`regex` module (``\\p{..}`` Unicode classes, which
the standard :mod:`re` lacks).

:func:`compile_splitter` gives the same chunks faster: for the three built-in
patterns it scans text without astral characters (all but emoji and rare
scripts) with an equivalent standard-library :mod:`re` pattern, about 2.5x
faster than :mod:`regex`, and only the neighbourhood of astral characters with
:mod:`regex`.

Unicode versions: :mod:`regex` follows Unicode 18.0 (regex 2026.12.2), tiktoken's
own regex (the Rust ``regex`` crate) an older one, 16.0 in tiktoken 0.14 (for the
installed versions: :mod:`~tokexplorer.core.text.class_drift`): to tiktoken the
letters and digits assigned since are unassigned. A splitter made
with ``unicode="tiktoken"`` (our engine running a tiktoken encoding's ranks)
takes those code points out of ``\\p{L}``, ``\\p{N}``... as tiktoken does
(:func:`tiktoken_pattern`), so it gives tiktoken's chunks on every code point.

>>> split("hi \\U0001F642 ok", "gpt2")
['hi', ' 🙂', ' ok']
>>> split("\\tindent", "cl100k")
['\\tindent']
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

import regex

from tokexplorer.core.errors import InputError
from tokexplorer.core.text.class_drift import CLASS_KEYS, regex_unicode_version, tiktoken_unicode_version, view_table
from tokexplorer.core.text.safe_cuts import LINE_START_CUT, SPACE_CUT

#: Whose Unicode tables a splitter's classes follow: the :mod:`regex` module's
#: (our own models) or tiktoken's (our engine running a tiktoken encoding's ranks).
UNICODE_VIEWS: tuple[str, ...] = ("regex", "tiktoken")

#: GPT-2 / r50k_base / p50k_base split pattern (tiktoken ``r50k_pat_str``).
GPT2_PATTERN = r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""

#: cl100k_base split pattern (tiktoken ``cl100k_base()["pat_str"]``).
CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)

#: o200k_base split pattern (tiktoken ``o200k_base()["pat_str"]``).
O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)

#: Pattern name -> pattern string. ``"none"`` means the whole text is one chunk.
PATTERNS: dict[str, str | None] = {
    "gpt2": GPT2_PATTERN,
    "cl100k": CL100K_PATTERN,
    "o200k": O200K_PATTERN,
    "none": None,
}

PATTERN_NAMES: tuple[str, ...] = tuple(PATTERNS)

#: Split patterns of published tokenizers, by name: the three above and those of
#: published rank files. ``llama3``: ``Tokenizer.pat_str`` of llama-models 0.3
#: ``llama3/tokenizer.py``; ``qwen``: ``PAT_STR`` of dashscope 2.0
#: ``tokenizers/qwen_tokenizer.py`` (Qwen's own tokenization code: one digit per
#: chunk); ``whisper``: the ``pat_str`` of ``get_encoding`` in openai-whisper
#: 20250625 ``whisper/tokenizer.py`` (GPT-2's original pattern). Llama 4's
#: ``O200K_PATTERN`` is o200k's, character for character.
PUBLISHED_PATTERNS: dict[str, str] = {name: pat for name, pat in PATTERNS.items() if pat is not None} | {
    "llama3": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+",
    "qwen": r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+",
    "whisper": r"'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+",
}


def pattern_string(name: str) -> str | None:
    """Return the regex source of a named pattern (None for ``"none"``).

    Raises:
        InputError: unknown name.

    >>> pattern_string("none") is None, pattern_string("gpt2") == GPT2_PATTERN
    (True, True)
    >>> pattern_string("gpt3")
    Traceback (most recent call last):
    ...
    tokexplorer.core.errors.InputError: unknown pre-tokenizer 'gpt3'; choose one of gpt2, cl100k, o200k, none
    """
    try:
        return PATTERNS[name]
    except KeyError:
        raise InputError(
            f"unknown pre-tokenizer {name!r}; choose one of {', '.join(PATTERN_NAMES)}"
        ) from None


def name_of_pattern(pat_str: str | None) -> str | None:
    """Return the name of a known pattern string, or None if it is not one of ours.

    >>> name_of_pattern(CL100K_PATTERN), name_of_pattern("[a-z]+")
    ('cl100k', None)
    """
    for name, pat in PATTERNS.items():
        if pat == pat_str:
            return name
    return None


def pattern_name_of(pat_str: str | None) -> str | None:
    """The name of a split pattern string: one of :data:`PUBLISHED_PATTERNS`
    (``"gpt2"``, ``"cl100k"``, ``"o200k"``, ``"llama3"``, ``"qwen"``, ``"whisper"``),
    ``"none"`` for no pattern (None: the whole text is one chunk), or None for
    any other regular expression.

    >>> pattern_name_of(PUBLISHED_PATTERNS["llama3"]), pattern_name_of(None), pattern_name_of(r"\\w+")
    ('llama3', 'none', None)
    """
    if pat_str is None:
        return "none"
    return next((name for name, pat in PUBLISHED_PATTERNS.items() if pat == pat_str), None)


def pattern_label(pat_str: str | None) -> str:
    """How every view names a split pattern (the one rule of the window and the
    command line): ``"llama3 pattern"``, ``"cl100k pattern"``, ``"no pre-tokenizer"``
    (None), ``"custom pattern"`` (a regular expression of no published tokenizer).

    >>> pattern_label(CL100K_PATTERN), pattern_label(None), pattern_label(r"\\w+|\\s+")
    ('cl100k pattern', 'no pre-tokenizer', 'custom pattern')
    """
    name = pattern_name_of(pat_str)
    if name == "none":
        return "no pre-tokenizer"
    return f"{name or 'custom'} pattern"


@lru_cache(maxsize=32)
def compile_pattern(pat_str: str) -> regex.Pattern[str]:
    """Compile (and cache) a split pattern with the :mod:`regex` module.

    Raises:
        InputError: the pattern does not compile.

    >>> compile_pattern("[0-9]+").findall("a12b3")
    ['12', '3']
    """
    try:
        return regex.compile(pat_str)
    except regex.error as exc:
        raise InputError(f"split pattern does not compile: {exc}") from None


def _ranges_body(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges)


@lru_cache(maxsize=16)
def tiktoken_class(key: str) -> str:
    """The :mod:`regex` (``V1``) spelling of tiktoken's view of a class.

    Args:
        key: ``"L"``, ``"N"``, ``"M"``, ``"Lu"``, ``"Ll"``, ``"Lt"``, ``"Lm"``,
            ``"Lo"`` (``\\p{..}``) or ``"S"`` (``\\s``).

    Returns:
        ``\\p{L}`` minus the code points tiktoken does not put in it, plus those
        it puts in it and :mod:`regex` does not (a ``V1`` set expression).

    >>> tiktoken_class("Lt")
    '\\\\p{Lt}'
    >>> tiktoken_class("N").startswith("[\\\\p{N}--[")
    True
    """
    removed, added = view_table().diffs[key]
    out = "\\s" if key == "S" else f"\\p{{{key}}}"
    if removed:
        out = f"[{out}--[{_ranges_body(removed)}]]"
    if added:
        out = f"[{out}[{_ranges_body(added)}]]"
    return out


_CLASS_REF = regex.compile(r"(?<!\\)\\p\{(" + "|".join(k for k in CLASS_KEYS if k != "S") + r")\}|(?<!\\)\\s")


@lru_cache(maxsize=32)
def tiktoken_pattern(pat_str: str) -> str:
    """``pat_str`` with its classes as tiktoken's regex sees them.

    Each ``\\p{L}``, ``\\p{N}``, ``\\p{M}``, ``\\p{Lu}``... and ``\\s`` becomes
    :func:`tiktoken_class` of it, and the pattern gets the ``(?V1)`` flag its set
    operations need. Other spellings of classes (``\\pL``, ``\\p{Letter}``) are
    left as they are.

    >>> p = tiktoken_pattern(GPT2_PATTERN)
    >>> p.startswith("(?V1)"), regex.findall(p, "a\\u0c5c's"), regex.findall(GPT2_PATTERN, "a\\u0c5c's")
    (True, ['a', "\\u0c5c'", 's'], ['a\\u0c5c', "'s"])
    """
    out = _CLASS_REF.sub(lambda m: tiktoken_class(m.group(1) or "S"), pat_str)
    return pat_str if out == pat_str else "(?V1)" + out


def iter_chunks(text: str, pat_str: str | None) -> Iterator[str]:
    """Yield the chunks of ``text`` under a pattern string (None: the whole text).

    The chunks always join back to ``text``: tiktoken's patterns match every
    character (the final ``\\s`` alternative catches what the others leave).
    An empty text yields nothing.

    >>> list(iter_chunks("hi there", GPT2_PATTERN)), list(iter_chunks("hi there", None))
    (['hi', ' there'], ['hi there'])
    """
    if not text:
        return
    if pat_str is None:
        yield text
        return
    for m in compile_pattern(pat_str).finditer(text):
        yield m.group()


def split(text: str, pattern: str = "gpt2") -> list[str]:
    """Split ``text`` into chunks with the named pattern (see :data:`PATTERNS`).

    Args:
        text: any str.
        pattern: ``"gpt2"``, ``"cl100k"``, ``"o200k"`` or ``"none"``.

    Returns:
        list of str chunks whose concatenation is ``text``.

    Raises:
        InputError: unknown pattern name.

    >>> split("don't stop", "cl100k")
    ['don', "'t", ' stop']
    """
    return list(iter_chunks(text, pattern_string(pattern)))


# ------------------------------------------------------------- fast splitting
# Twins of the built-in patterns for the standard-library ``re``, exact on text
# without astral characters (code points above U+FFFF). ``re`` has no \p{..}
# classes, so each class is spelled out as the list of Basic Multilingual Plane
# code points that the installed ``regex`` module itself puts in it: the twin
# follows the Unicode version of ``regex``, not that of ``unicodedata``.
# ``regex``'s \s (Unicode White_Space) is spelled out the same way (``re``'s
# \s also holds \x1c-\x1f), and so are the letters of the case-insensitive
# groups (``(?i:s)`` also matches U+017F, the long s). On BMP text ``re``
# tests such classes through a bitmap: about 2.5-3x faster than ``regex`` on
# English and on Chinese.
_TWIN_TEMPLATES: dict[str, str] = {
    GPT2_PATTERN: (
        r"""'(?:[sdmt]|ll|ve|re)| ?[%(L)s]++| ?[%(N)s]++| ?[^%(S)s%(L)s%(N)s]++|[%(S)s]++$"""
        r"""|[%(S)s]+(?![^%(S)s])|[%(S)s]"""
    ),
    CL100K_PATTERN: (
        r"""'(?:[%(i_s)s%(i_d)s%(i_m)s%(i_t)s]|[%(i_l)s][%(i_l)s]|[%(i_v)s][%(i_e)s]|[%(i_r)s][%(i_e)s])"""
        r"""|[^\r\n%(L)s%(N)s]?+[%(L)s]++|[%(N)s]{1,3}+| ?[^%(S)s%(L)s%(N)s]++[\r\n]*+"""
        r"""|[%(S)s]++$|[%(S)s]*[\r\n]|[%(S)s]+(?![^%(S)s])|[%(S)s]"""
    ),
    O200K_PATTERN: "|".join(
        [
            r"""[^\r\n%(L)s%(N)s]?[%(Lu)s%(Lt)s%(Lm)s%(Lo)s%(M)s]*[%(Ll)s%(Lm)s%(Lo)s%(M)s]+%(o200k_suffix)s""",
            r"""[^\r\n%(L)s%(N)s]?[%(Lu)s%(Lt)s%(Lm)s%(Lo)s%(M)s]+[%(Ll)s%(Lm)s%(Lo)s%(M)s]*%(o200k_suffix)s""",
            r"""[%(N)s]{1,3}""",
            r""" ?[^%(S)s%(L)s%(N)s]+[\r\n/]*""",
            r"""[%(S)s]*[\r\n]+""",
            r"""[%(S)s]+(?![^%(S)s])""",
            r"""[%(S)s]+""",
        ]
    ),
}
_TWIN_CLASSES = {
    "L": r"\p{L}", "N": r"\p{N}", "S": r"\s", "Lu": r"\p{Lu}", "Ll": r"\p{Ll}",
    "Lt": r"\p{Lt}", "Lm": r"\p{Lm}", "Lo": r"\p{Lo}", "M": r"\p{M}",
}


class _TwinFields(dict):
    """Class bodies and case-folded letters for the twin templates, read off the
    installed ``regex`` module over all 65,536 BMP code points, each computed on
    first use (a template asks only for the fields it holds; about 3 ms each).
    With ``unicode="tiktoken"`` the classes are tiktoken's (:func:`tiktoken_class`)."""

    _bmp = "".join(map(chr, range(0x10000)))

    def __init__(self, unicode: str) -> None:
        super().__init__()
        self.unicode = unicode

    def __missing__(self, key: str) -> str:
        if key in _TWIN_CLASSES:
            prefix, body = ("(?V1)", tiktoken_class(key)) if self.unicode == "tiktoken" else ("", _TWIN_CLASSES[key])
            # each run of matches in the string of all BMP code points is a range
            value = "".join(
                f"\\u{m.start():04x}-\\u{m.end() - 1:04x}" for m in regex.finditer(f"{prefix}(?:{body})+", self._bmp)
            )
        elif key.startswith("i_"):  # the characters (?i:letter) matches
            if "_folds" not in self:
                self["_folds"] = "".join(regex.findall("(?i:[sdmtlvre])", self._bmp))
            letter = regex.compile(f"(?i:{key[2:]})")
            value = "".join(f"\\u{ord(c):04x}" for c in self["_folds"] if letter.fullmatch(c))
        elif key == "o200k_suffix":
            suffixes = ["s", "t", "re", "ve", "m", "ll", "d"]
            alternatives = "|".join("'" + "".join(f"[{self['i_' + c]}]" for c in sfx) for sfx in suffixes)
            value = f"(?:{alternatives})?"
        else:
            raise KeyError(key)
        self[key] = value
        return value


_TWIN_FIELDS = {view: _TwinFields(view) for view in UNICODE_VIEWS}


@lru_cache(maxsize=8)
def _twin(pat_str: str, unicode: str = "regex") -> re.Pattern[str] | None:
    """The compiled ``re`` twin of a built-in pattern (None for other patterns)."""
    template = _TWIN_TEMPLATES.get(pat_str)
    if template is None:
        return None
    try:
        return re.compile(template % _TWIN_FIELDS[unicode])
    except re.error:  # possessive quantifiers need Python 3.11's re; regex alone then
        return None


# The splitter cuts a text with astral characters at safe cut points (see
# safe_cuts): its own rule (SPACE_CUT) and the one every user shares.
_CUT_SRC = SPACE_CUT + "|" + LINE_START_CUT
_CUT_FORWARD = regex.compile(_CUT_SRC)
_CUT_BACKWARD = regex.compile(_CUT_SRC, regex.REVERSE)

#: Stretches without astral characters shorter than this (in characters) are
#: left to ``regex``: switching engines costs a few microseconds, which a short
#: stretch does not win back.
FAST_MIN_CHARS = 48
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_BMP_STRETCH = re.compile(f"[^\U00010000-\U0010ffff]{{{FAST_MIN_CHARS},}}")


class Splitter:
    """A compiled pre-tokenizer: ``findall(text)`` gives the chunks of ``text``.

    The result is always identical to ``regex.compile(pat_str).findall(text)``.
    For the built-in patterns (:data:`PATTERNS`), text without astral
    characters (above U+FFFF) is scanned with an equivalent standard-library
    :mod:`re` pattern (its twin), and text holding some, such as emoji, is cut
    at safe points into stretches without them (scanned with the twin) and the
    neighbourhoods of astral characters (scanned with :mod:`regex`). Any other
    pattern is scanned with :mod:`regex` alone.

    With ``unicode="tiktoken"`` the classes are tiktoken's (:func:`tiktoken_pattern`):
    the code points assigned after tiktoken's Unicode version are no letters or
    digits, as in tiktoken itself.

    Args:
        pat_str: the pattern string.
        unicode: ``"regex"`` (the :mod:`regex` module's Unicode) or ``"tiktoken"``.

    Raises:
        InputError: the pattern does not compile, or an unknown ``unicode``.

    Attributes:
        pat_str: the pattern string.
        unicode: whose Unicode tables the classes follow.
        unicode_version: that Unicode version (``"18.0"``, ``"16.0"``).
        pattern: the compiled :mod:`regex` pattern (for ``finditer`` and spans).
        fast: True when a twin is used.

    >>> s = Splitter(O200K_PATTERN)
    >>> s, s.findall("Hello world \U0001F30D!")
    (<Splitter 'o200k' fast=True>, ['Hello', ' world', ' 🌍!'])
    >>> Splitter(CL100K_PATTERN, unicode="tiktoken").findall("a\u0c5c's")
    ['a', "\\u0c5c'", 's']
    """

    def __init__(self, pat_str: str, *, unicode: str = "regex") -> None:
        if unicode not in UNICODE_VIEWS:
            raise InputError(f"unknown Unicode view {unicode!r}; choose regex or tiktoken")
        self.pat_str = pat_str
        self.unicode = unicode
        self.unicode_version = tiktoken_unicode_version() if unicode == "tiktoken" else regex_unicode_version()
        self.pattern = compile_pattern(tiktoken_pattern(pat_str) if unicode == "tiktoken" else pat_str)
        self._twin = _twin(pat_str, unicode)
        self.fast = self._twin is not None

    def __repr__(self) -> str:
        view = " unicode=tiktoken" if self.unicode == "tiktoken" else ""
        return f"<Splitter {name_of_pattern(self.pat_str) or self.pat_str!r} fast={self.fast}{view}>"

    def findall(self, text: str) -> list[str]:
        """Chunks of ``text`` (list of str joining back to ``text``; [] for "")."""
        twin = self._twin
        if twin is None:
            return self.pattern.findall(text)
        if text.isascii() or _ASTRAL.search(text) is None:
            return twin.findall(text)
        slow = self.pattern.findall
        fast = twin.findall
        n = len(text)
        out: list[str] = []
        pos = 0  # everything before pos is done; pos is a safe cut
        for g in _BMP_STRETCH.finditer(text):
            gs, ge = g.span()
            # a: the first safe cut in the stretch, b: the last one; a lookaround
            # may need the two characters after a cut, hence the end + 2. No cut
            # lies after ge: text[ge] is astral, so it is neither the space nor
            # the line break that a cut after it would need.
            m = _CUT_FORWARD.search(text, gs, min(n, ge + 2))
            if m is None:
                continue
            a = m.start()
            m = _CUT_BACKWARD.search(text, a, min(n, ge + 2))
            b = m.start() if m is not None else a
            if b - a < FAST_MIN_CHARS:
                continue
            if a > pos:
                out += slow(text, pos, a)
            out += fast(text, a, b)
            pos = b
        if pos < n:
            out += slow(text, pos)
        return out


@lru_cache(maxsize=32)
def compile_splitter(pat_str: str, *, unicode: str = "regex") -> Splitter:
    """Compile (and cache) a :class:`Splitter` for a pattern string.

    Args:
        pat_str: the pattern string.
        unicode: ``"regex"`` or ``"tiktoken"`` (see :class:`Splitter`).

    Raises:
        InputError: the pattern does not compile, or an unknown ``unicode``.

    >>> compile_splitter("[a-z]+|[^a-z]"), compile_splitter(GPT2_PATTERN) is compile_splitter(GPT2_PATTERN)
    (<Splitter '[a-z]+|[^a-z]' fast=False>, True)
    """
    return Splitter(pat_str, unicode=unicode)
