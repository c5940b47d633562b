"""Where tiktoken's regex engine and the ``regex`` module class code points
differently, for the versions of both that are installed.

tiktoken runs split patterns on the Rust ``fancy-regex``/``regex`` crates, whose
Unicode tables are older than those of the Python :mod:`regex` module our
splitter uses: to tiktoken 0.14 (Unicode 16.0) the letters, digits and marks
assigned in Unicode 17.0 and 18.0 are unassigned, and U+0295 is a lowercase
letter where Unicode 17.0 made it ``Lo``. A text holding such a code point can
be cut into other chunks, so get other ids.

:func:`class_table` says, per class of the split patterns (``\\p{L}``,
``\\p{N}``, ``\\p{M}``, ``\\p{Lu}``, ``\\p{Ll}``, ``\\p{Lt}``, ``\\p{Lm}``,
``\\p{Lo}``, ``\\s``, and ``(?i:s)``... for each case-insensitive letter), which
code points each engine alone puts in it. It is the generated table
(:mod:`~tokexplorer.core.text.tiktoken_unicode`) when the installed ``regex``
and ``tiktoken`` are the versions it was generated with; for any other version
it is probed at first use (:func:`probe_class_table`, under a second):
tiktoken's own engine is asked, with an encoding whose pattern is the class and
whose ranks are the 256 bytes, which of all 1,112,064 code points it matches
(tiktoken drops the text its pattern does not match).

:func:`drift_check` gives, for a split pattern and the Unicode view of our
splitter (``"regex"``: our own models; ``"tiktoken"``: ranks of a tiktoken
encoding, whose classes already follow tiktoken's, see
:class:`~tokexplorer.core.text.pretokenize.Splitter`), the code points where the
two engines may cut a text differently; a text holding none of them gets the
same chunks from both, so the same ids.

>>> from tokexplorer.core.text.pretokenize import CL100K_PATTERN
>>> check = drift_check(CL100K_PATTERN, "regex")
>>> check.first("a\\u0c5c's"), check.first("naïve 漢字 🙂"), drift_check(CL100K_PATTERN, "tiktoken").empty
(3164, None, True)
"""

from __future__ import annotations

import re
import string
import sys
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import regex

from tokexplorer.core.errors import InputError
from tokexplorer.core.text import tiktoken_unicode as generated

__all__ = [
    "CLASS_KEYS", "FOLD_KEYS", "VERSION_MARKERS", "ClassTable", "DriftCheck", "Ranges", "class_table",
    "drift_check", "generated_table", "installed_versions", "merge_ranges", "pattern_keys",
    "probe_class_table", "regex_unicode_version", "tiktoken_unicode_version", "view_table",
]  # fmt: skip

#: Inclusive code point ranges ``((first, last), ...)``.
Ranges = tuple[tuple[int, int], ...]

#: The character classes of the split patterns: ``\p{X}`` for each key but ``S``, ``\s`` for ``S``.
CLASS_KEYS: tuple[str, ...] = ("L", "N", "M", "Lu", "Ll", "Lt", "Lm", "Lo", "S")
#: Keys of the code points a letter matches case-insensitively: ``"i:s"`` for ``(?i:s)``.
FOLD_KEYS: tuple[str, ...] = tuple(f"i:{c}" for c in string.ascii_lowercase)
_SPELLINGS = {key: r"\s" if key == "S" else f"\\p{{{key}}}" for key in CLASS_KEYS} | {
    key: f"(?i:{key[2]})" for key in FOLD_KEYS
}

#: A letter (``Lo``) of a script or block new in each Unicode version (KAWI LETTER A, CJK
#: extension I, GARAY VOWEL SIGN A, SIDETIC LETTER N01, JURCHEN CHARACTER-18E00): the newest
#: one an engine puts in ``\p{L}`` names its version.
VERSION_MARKERS: dict[str, int] = {"15.0": 0x11F04, "15.1": 0x2EBF0, "16.0": 0x10D4A, "17.0": 0x10940, "18.0": 0x18E00}


@dataclass(frozen=True)
class ClassTable:
    """Which code points each engine alone puts in each class.

    Attributes:
        diffs: key of :data:`CLASS_KEYS` or :data:`FOLD_KEYS` -> (the ranges ``regex``
            puts in the class and tiktoken does not, the ranges tiktoken puts in it
            and ``regex`` does not).
        tiktoken_unicode: the Unicode version of tiktoken's regex tables (``"16.0"``).
        regex_unicode: the Unicode version of the ``regex`` module's tables (``"18.0.0"``).
        origin: where the table comes from: ``"generated for tiktoken 0.14.0 and regex
            2026.12.2"`` or ``"probed (tiktoken X, regex Y)"``.
    """

    diffs: Mapping[str, tuple[Ranges, Ranges]]
    tiktoken_unicode: str
    regex_unicode: str
    origin: str

    def ranges(self, keys: frozenset[str]) -> Ranges:
        """The code points of ``keys`` that the engines class differently, merged into ranges."""
        return merge_ranges(r for key in keys for side in self.diffs[key] for r in side)


def merge_ranges(ranges: Iterable[tuple[int, int]]) -> Ranges:
    """Sorted, merged inclusive ranges of an iterable of ``(first, last)`` pairs.

    >>> merge_ranges([(5, 6), (1, 2), (3, 3), (9, 9)])
    ((1, 3), (5, 6), (9, 9))
    """
    out: list[list[int]] = []
    for a, b in sorted(ranges):
        if out and a <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return tuple((a, b) for a, b in out)


def _points_to_ranges(points: set[int]) -> Ranges:
    return merge_ranges((c, c) for c in points)


def _every_code_point() -> str:
    """All 1,112,064 code points but the surrogates, in order (as one str, built in milliseconds)."""
    cps = array("I", range(0xD800)) + array("I", range(0xE000, 0x110000))
    return cps.tobytes().decode("utf-32-le" if sys.byteorder == "little" else "utf-32-be")


def _version(members: set[str], fallback: str) -> str:
    """The newest Unicode version whose marker letter is in ``members`` (``\\p{L}``)."""
    known = [v for v, cp in VERSION_MARKERS.items() if chr(cp) in members]
    return known[-1] if known else fallback


def probe_class_table() -> ClassTable:
    """Ask tiktoken's regex engine and ``regex`` which code points are in each class.

    For each key, a ``tiktoken.Encoding`` whose pattern is the class (``(?:\\p{L})+``)
    and whose ranks are the 256 single bytes encodes the string of every code point:
    tiktoken encodes only the text its pattern matches, so the bytes of its ids are
    the code points in its class. ``regex`` is asked the same with ``findall``.

    Returns:
        the :class:`ClassTable` of the installed versions (about 0.5 s).

    Raises:
        ImportError: tiktoken is not installed.
        TypeError: tiktoken has no ``Encoding(name, pat_str=, mergeable_ranks=, special_tokens=)``.
    """
    import tiktoken

    every = _every_code_point()
    ranks = {bytes([b]): b for b in range(256)}
    diffs: dict[str, tuple[Ranges, Ranges]] = {}
    letters = ""
    for key, spelling in _SPELLINGS.items():
        pat = f"(?:{spelling})+"
        enc = tiktoken.Encoding("tokexplorer-class-probe", pat_str=pat, mergeable_ranks=ranks, special_tokens={})
        theirs = bytes(enc.encode_ordinary(every)).decode("utf-8")
        ours = "".join(regex.findall(pat, every))
        if key == "L":
            letters = theirs
        if theirs == ours:
            diffs[key] = ((), ())
            continue
        a, b = set(ours), set(theirs)
        diffs[key] = (_points_to_ranges({ord(c) for c in a - b}), _points_to_ranges({ord(c) for c in b - a}))
    origin = f"probed (tiktoken {_package_version(tiktoken, 'tiktoken')}, regex {_package_version(regex, 'regex')})"
    regex_letters = set(regex.findall(r"\p{L}", every))
    return ClassTable(diffs, _version(set(letters), "older than 15.0"), _regex_unicode(regex_letters), origin)


def _regex_unicode(letters: set[str]) -> str:
    """The Unicode version of ``regex``: the newest marker letter it knows, written as
    ``unicodedata2`` writes it (``"18.0.0"``) when that is the same version."""
    import unicodedata2

    version = _version(letters, "older than 15.0")
    return unicodedata2.unidata_version if unicodedata2.unidata_version.startswith(version + ".") else version


def _package_version(module, name: str) -> str:
    """A package's ``__version__`` (tiktoken before 0.8 has none: then its distribution's)."""
    version = getattr(module, "__version__", None)  # (a third-party module)
    if version is None:
        from importlib.metadata import PackageNotFoundError
        from importlib.metadata import version as dist_version

        try:
            version = dist_version(name)
        except PackageNotFoundError:
            version = "unknown"
    return str(version)


def installed_versions() -> tuple[str, str] | None:
    """``(tiktoken's version, regex's version)``, or None without tiktoken."""
    try:
        import tiktoken
    except ImportError:
        return None
    return _package_version(tiktoken, "tiktoken"), _package_version(regex, "regex")


def generated_table() -> ClassTable:
    """The table written by ``tools/make_tiktoken_unicode.py`` (right for the versions it names)."""
    return ClassTable(
        generated.CLASS_DIFFS,
        generated.TIKTOKEN_UNICODE_VERSION,
        generated.REGEX_UNICODE_VERSION,
        f"generated for tiktoken {generated.TIKTOKEN_VERSION} and regex {generated.REGEX_VERSION}",
    )


@lru_cache(maxsize=1)
def class_table() -> ClassTable | None:
    """The class differences of the installed ``regex`` and ``tiktoken``: the generated
    table for the versions it was generated with, else probed now; None when tiktoken
    cannot be probed (not installed, or too old for the probe).

    >>> class_table().tiktoken_unicode, class_table().diffs["N"][0][0]
    ('16.0', (73184, 73193))
    """
    versions = installed_versions()
    if versions == (generated.TIKTOKEN_VERSION, generated.REGEX_VERSION):
        return generated_table()
    if versions is None:
        return None
    try:
        return probe_class_table()
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - an old tiktoken's TypeError, or a pyo3 panic
        return None


def view_table() -> ClassTable:
    """The table our splitter's ``"tiktoken"`` view follows: :func:`class_table`, or the
    generated table when tiktoken cannot be probed (then :func:`drift_check` makes every
    non-ASCII text count, whatever the view)."""
    return class_table() or generated_table()


@lru_cache(maxsize=1)
def regex_unicode_version() -> str:
    """The Unicode version of the installed ``regex`` module's tables (no tiktoken needed).

    >>> regex_unicode_version()
    '18.0.0'
    """
    if _package_version(regex, "regex") == generated.REGEX_VERSION:
        return generated.REGEX_UNICODE_VERSION
    return _regex_unicode({chr(cp) for cp in VERSION_MARKERS.values() if regex.match(r"\p{L}", chr(cp))})


def tiktoken_unicode_version() -> str:
    """The Unicode version of tiktoken's regex tables, as :func:`view_table` has it.

    >>> tiktoken_unicode_version()
    '16.0'
    """
    return view_table().tiktoken_unicode


# A reference to a class in a pattern: \p{X} \P{X} \pX \PX, \s \S, the classes no
# table covers (\w \d \b and their negations, any other \p spelling, [[:name:]]), a
# case-insensitive flag, or any other escape (skipped, so that \\p is no class).
_REF = regex.compile(
    r"\\(?:(?P<p>[pP])(?:\{(?P<name>\^?\w+)\}|(?P<short>\w))|(?P<s>[sS])|(?P<other>[wWdDbBpP]))"
    r"|(?P<posix>\[\[:)|(?P<fold>\(\?[a-zA-Z]*i[a-zA-Z]*[:)])|\\."
)


def pattern_keys(pat_str: str | None) -> tuple[frozenset[str], frozenset[str]] | None:
    """The classes a split pattern reads: ``(keys, keys_not_rewritten)``, where the
    second part holds those that :func:`~tokexplorer.core.text.pretokenize.tiktoken_pattern`
    does not rewrite into tiktoken's view (``\\S``, ``\\P{L}``, ``\\pL``, and the
    case-insensitive letters :data:`FOLD_KEYS`: with a ``(?i`` flag, every ASCII letter
    spelled in the pattern); None when the pattern reads a class no table covers
    (``\\w``, ``\\d``, ``\\b``, ``\\p{Greek}``, ``\\p{L&}``, ``[[:alpha:]]``).

    >>> from tokexplorer.core.text.pretokenize import GPT2_PATTERN, CL100K_PATTERN
    >>> [sorted(part) for part in pattern_keys(GPT2_PATTERN)], pattern_keys(r"\\w+")
    ([['L', 'N', 'S'], ['S']], None)
    >>> [sorted(part) for part in pattern_keys(CL100K_PATTERN)][1]
    ['S', 'i:d', 'i:e', 'i:l', 'i:m', 'i:r', 'i:s', 'i:t', 'i:v']
    """
    keys: set[str] = set()
    kept: set[str] = set()
    fold = False
    for m in _REF.finditer(pat_str or ""):
        if m["other"] or m["posix"]:
            return None
        if m["fold"]:
            fold = True
        elif m["s"]:
            keys.add("S")
            if m["s"] == "S":
                kept.add("S")
        elif m["p"]:
            key = m["name"] or m["short"]
            if key not in CLASS_KEYS or key == "S":
                return None
            keys.add(key)
            if m["p"] == "P" or m["short"]:
                kept.add(key)
    if fold:  # the letters spelled outside escapes and flags
        letters = {c.lower() for c in _REF.sub("", pat_str or "") if c in string.ascii_letters}
        folds = {f"i:{c}" for c in letters}
        keys |= folds
        kept |= folds
    return frozenset(keys), frozenset(kept)


class DriftCheck:
    """Finds, in a text, the first code point the two engines may read differently.

    Args:
        ranges: the code points to look for (inclusive ranges), or None when they are
            not known: then every non-ASCII code point counts (ASCII is classed alike
            by every Unicode version).
        why: what such a code point is, for notes (``"a character Unicode 18.0.0 classes
            otherwise than tiktoken's regex (Unicode 16.0)"``).

    The search is one pass of a standard-library :mod:`re` character class in C: the
    Basic Multilingual Plane ranges are looked up in a bitmap, every astral character
    is a candidate, checked against a set (about 5 ns per character of non-ASCII
    text; an ASCII text is answered at once).

    Attributes:
        ranges: as given.
        why: as given.
    """

    def __init__(self, ranges: Ranges | None, why: str) -> None:
        self.ranges = ranges
        self.why = why
        self._astral: frozenset[int] = frozenset()
        if ranges is None:
            self._scan: re.Pattern[str] | None = re.compile("[^\x00-\x7f]")
            return
        bmp = [(a, min(b, 0xFFFF)) for a, b in ranges if a <= 0xFFFF]
        self._astral = frozenset(c for a, b in ranges if b > 0xFFFF for c in range(max(a, 0x10000), b + 1))
        body = "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in bmp) + ("\U00010000-\U0010ffff" if self._astral else "")
        self._scan = re.compile(f"[{body}]") if body else None

    @property
    def empty(self) -> bool:
        """True when no code point can make the engines differ (no search runs)."""
        return self._scan is None

    def first(self, text: str) -> int | None:
        """The first code point of ``text`` the engines may read differently, or None."""
        scan = self._scan
        if scan is None or text.isascii():
            return None
        astral = self._astral
        if not astral:
            m = scan.search(text)
            return None if m is None else ord(m.group())
        for ch in scan.findall(text):  # BMP hits, and every astral character
            cp = ord(ch)
            if cp <= 0xFFFF or cp in astral:
                return cp
        return None

    def __repr__(self) -> str:
        n = "unknown" if self.ranges is None else sum(b - a + 1 for a, b in self.ranges)
        return f"<DriftCheck {n} code points>"


@lru_cache(maxsize=32)
def drift_check(pat_str: str | None, unicode: str) -> DriftCheck:
    """The :class:`DriftCheck` of a split pattern (None: no pattern) read with our
    splitter's Unicode view ``unicode`` (``"regex"`` or ``"tiktoken"``) against
    tiktoken's regex engine, for the installed versions (:func:`class_table`).

    With ``"regex"`` every code point the two engines class differently in a class
    the pattern reads counts (17,480 for the gpt2 and cl100k patterns today, 17,560
    for o200k's); with ``"tiktoken"`` only those of classes our view does not rewrite
    (none today). Unknown differences (tiktoken not probed, a class no table covers)
    make every non-ASCII code point count.

    >>> from tokexplorer.core.text.pretokenize import O200K_PATTERN
    >>> drift_check(O200K_PATTERN, "regex"), drift_check(None, "regex").empty
    (<DriftCheck 17560 code points>, True)
    """
    if unicode not in ("regex", "tiktoken"):
        raise InputError(f"unknown Unicode view {unicode!r}; choose regex or tiktoken")
    table = class_table()
    keys = pattern_keys(pat_str)
    if keys is None:
        return DriftCheck(None, "a non-ASCII character, and the pattern reads classes (\\w, \\d, \\b...) "
                                "whose tables in the two engines were not compared")  # fmt: skip
    if table is None:
        return DriftCheck(None, "a non-ASCII character, and tiktoken's character classes could not be probed")
    ranges = table.ranges(keys[0] if unicode == "regex" else keys[1])
    tiktoken_version = f"tiktoken's regex (Unicode {table.tiktoken_unicode})"
    return DriftCheck(ranges, f"a character Unicode {table.regex_unicode} classes otherwise than {tiktoken_version}")
