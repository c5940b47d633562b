"""WordPiece's words: the normalizer and the pre-tokenizers, with offsets.

WordPiece encodes one pre-tokenized *word* at a time. The words come from one of
our split patterns (``gpt2``, ``cl100k``, ``o200k``, ``none``; see
:data:`tokexplorer.core.text.pretokenize.PATTERNS`) or from BERT's own
pre-tokenizer, ``bert``, which works as the Hugging Face ``tokenizers``
``BertNormalizer`` + ``BertPreTokenizer`` pair does:

* clean the text: drop U+0000, U+FFFD and control, format and private-use
  characters (Unicode ``Cc``, ``Cf``, ``Co``; not tab, line feed and carriage
  return; unassigned code points, ``Cn``, stay), turn every white-space
  character (Unicode ``White_Space``) into a space;
* put spaces around CJK ideographs (the CJK Unified Ideographs blocks and their
  extensions A-E as ``tokenizers`` lists them, the compatibility ideographs), so
  each is a word of its own;
* split on white space (dropped) and isolate every punctuation character
  (Unicode ``P*`` and all ASCII symbols such as ``$``, ``+``, ``<``, ``^``).

``tokenizers`` tells format and punctuation characters from tables of Unicode 8.0:
the 20 format characters and 145 punctuation characters assigned since are
ordinary characters there, and here too, and the two that became symbols since are
still punctuation; where its accent stripping and lowercasing (Rust's) give
otherwise than Python's, its result is taken: the tables of
:mod:`~tokexplorer.core.wordpiece.bert_unicode`, generated from ``tokenizers``
itself, so a vocab.txt of ours gives the same words there.

Two options apply with any pre-tokenizer: ``strip_accents`` (NFD, then drop the
non-spacing marks, category ``Mn``) and ``lowercase`` (``str.lower`` of each
character, in this order, as ``BertNormalizer`` does them). Every step works on
one character at a time, so each character of the normalized text keeps the
index of the original character it came from.

>>> [w.text for w in pre_tokenize("Héllo, 世界!", pattern="bert", lowercase=True, strip_accents=True)]
['hello', ',', '世', '界', '!']
>>> [(w.text, w.start, w.end) for w in pre_tokenize("Héllo, 世界!", pattern="gpt2")]
[('Héllo', 0, 5), (',', 5, 6), (' 世界', 6, 9), ('!', 9, 10)]
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import regex

from tokexplorer.core.errors import InputError
from tokexplorer.core.text import PATTERN_NAMES, compile_splitter, pattern_string
from tokexplorer.core.wordpiece.bert_unicode import KEPT_FORMAT, LOWER, NOT_PUNCTUATION, ONLY_PUNCTUATION, STRIP

__all__ = ["BERT_PATTERN", "WORDPIECE_PATTERNS", "Word", "normalize", "pre_tokenize", "validate_pattern"]

#: The name of BERT's pre-tokenizer (white space and punctuation, CJK ideographs apart).
BERT_PATTERN = "bert"
#: The pre-tokenizers a WordPiece may use: BERT's, then our split patterns.
WORDPIECE_PATTERNS: tuple[str, ...] = (BERT_PATTERN, *PATTERN_NAMES)

#: Unicode ``White_Space`` (what Rust's ``char::is_whitespace`` tests).
WHITESPACE = frozenset("\t\n\x0b\x0c\r \x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000") | frozenset(
    map(chr, range(0x2000, 0x200B))
)
# tokenizers' ranges: extension E from U+2B920 (BERT's own code has U+2B820; the 256
# ideographs between are part of a word there)
_CJK_RANGES = (
    (0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F),
)  # fmt: skip
_WS_CLASS = "".join(f"\\u{ord(c):04x}" for c in sorted(WHITESPACE))


def _class_ranges(ranges: tuple[tuple[int, int], ...]) -> str:
    return "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges)


# what tokenizers' BERT pre-tokenizer isolates as punctuation (its tables: bert_unicode)
_PUNCT_CLASS = (
    f"[[\\p{{P}}--[{_class_ranges(NOT_PUNCTUATION)}]]!-/:-@\\[-`{{-~{_class_ranges(ONLY_PUNCTUATION)}]"
)
_BERT_WORDS = regex.compile(f"(?V1)[^{_WS_CLASS}{_PUNCT_CLASS}]+|{_PUNCT_CLASS}")
_KEPT_FORMAT = frozenset(c for a, b in KEPT_FORMAT for c in range(a, b + 1))
# Categories come from the ``regex`` module, whose Unicode tables are newer than
# ``unicodedata``'s on Python 3.11 (Unicode 14): an emoji of Unicode 15 such as
# U+1FAE8 is "unassigned" (Cn) there but a symbol here, as in ``tokenizers``.
_OTHER = regex.compile(r"[\p{Cc}\p{Cf}\p{Co}]")
_NONSPACING_MARK = regex.compile(r"\p{Mn}")


@dataclass(frozen=True, slots=True)
class Word:
    """One pre-tokenized word.

    Attributes:
        text: the word as WordPiece sees it (normalized).
        start: index of its first character in the original text (code points).
        end: end index (exclusive) in the original text, after the original
            character its last normalized character came from.
    """

    text: str
    start: int
    end: int


def validate_pattern(pattern: str) -> None:
    """Refuse a pre-tokenizer name WordPiece does not know.

    Raises:
        InputError: ``pattern`` is not one of :data:`WORDPIECE_PATTERNS`.

    >>> validate_pattern("bert")
    >>> validate_pattern("bart")
    Traceback (most recent call last):
    ...
    tokexplorer.core.errors.InputError: unknown pre-tokenizer 'bart' for WordPiece; choose one of bert, gpt2, ...
    """
    if pattern not in WORDPIECE_PATTERNS:
        raise InputError(
            f"unknown pre-tokenizer {pattern!r} for WordPiece; choose one of {', '.join(WORDPIECE_PATTERNS)}"
        )


def _is_cjk(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _CJK_RANGES)


@lru_cache(maxsize=65536)
def _normalize_char(c: str, bert: bool, lowercase: bool, strip_accents: bool) -> str:
    """What one character becomes (possibly nothing, possibly several characters)."""
    if bert:
        cp = ord(c)
        if cp == 0 or cp == 0xFFFD or (c not in "\t\n\r" and cp not in _KEPT_FORMAT and _OTHER.match(c)):
            return ""
        if c in WHITESPACE:
            return " "
        if _is_cjk(cp):  # a word of its own, then stripped and lowercased as any character
            return f" {_normalize_char(c, False, lowercase, strip_accents)} "
    if strip_accents:
        stripped = STRIP.get(ord(c))
        c = stripped if stripped is not None else _strip(c)
    if lowercase:
        c = "".join(LOWER.get(ord(x)) or x.lower() for x in c)
    return c


def _strip(c: str) -> str:
    return "".join(x for x in unicodedata.normalize("NFD", c) if not _NONSPACING_MARK.match(x))


def normalize(
    text: str, *, pattern: str, lowercase: bool = False, strip_accents: bool = False
) -> tuple[str, list[int]]:
    """The text WordPiece's pre-tokenizer sees, and where each of its characters came from.

    Args:
        text: any str.
        pattern: a name of :data:`WORDPIECE_PATTERNS` (``"bert"`` also cleans the
            text and spaces out CJK ideographs; see the module docstring).
        lowercase: lower-case each character.
        strip_accents: drop the accents (NFD, then no ``Mn`` characters).

    Returns:
        ``(normalized, origin)``: ``origin[i]`` is the index in ``text`` of the
        character normalized character ``i`` came from (a list of
        ``len(normalized)`` ints).

    >>> normalize("Ça\\x00!", pattern="bert", lowercase=True, strip_accents=True)
    ('ca!', [0, 1, 3])
    """
    bert = pattern == BERT_PATTERN
    if not (bert or lowercase or strip_accents):
        return text, list(range(len(text)))
    parts: list[str] = []
    origin: list[int] = []
    for i, c in enumerate(text):
        n = _normalize_char(c, bert, lowercase, strip_accents)
        if n:
            parts.append(n)
            origin.extend([i] * len(n))
    return "".join(parts), origin


def normalized_words(normalized: str, pattern: str) -> list[tuple[str, int]]:
    """The words of already normalized text with their start indices in it.

    >>> normalized_words("a, b", "bert")
    [('a', 0), (',', 1), ('b', 3)]
    """
    if pattern == BERT_PATTERN:
        return [(m.group(), m.start()) for m in _BERT_WORDS.finditer(normalized)]
    if not normalized:
        return []
    pat = pattern_string(pattern)
    if pat is None:
        return [(normalized, 0)]
    out: list[tuple[str, int]] = []
    pos = 0
    for chunk in compile_splitter(pat).findall(normalized):
        out.append((chunk, pos))
        pos += len(chunk)
    return out


def pre_tokenize(
    text: str, *, pattern: str = BERT_PATTERN, lowercase: bool = False, strip_accents: bool = False
) -> list[Word]:
    """Normalize ``text`` and cut it into words, each with its span in ``text``.

    Args:
        text: any str.
        pattern: a name of :data:`WORDPIECE_PATTERNS`.
        lowercase, strip_accents: see :func:`normalize`.

    Returns:
        the :class:`Word` list in order (spans in code points of ``text``).

    Raises:
        InputError: unknown pattern.

    >>> [w.text for w in pre_tokenize("Don't stop", pattern="bert")]
    ['Don', "'", 't', 'stop']
    """
    validate_pattern(pattern)
    normalized, origin = normalize(text, pattern=pattern, lowercase=lowercase, strip_accents=strip_accents)
    return [
        Word(w, origin[s], origin[s + len(w) - 1] + 1) for w, s in normalized_words(normalized, pattern)
    ]
