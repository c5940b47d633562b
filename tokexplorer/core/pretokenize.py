"""Named pre-tokenizers (split patterns).

A pre-tokenizer cuts text into *chunks* before BPE runs; merges never cross a
chunk boundary. The patterns are the ones tiktoken uses, as written in
``tiktoken_ext/openai_public.py`` of tiktoken 0.14 (``r50k_pat_str`` for GPT-2 /
r50k_base / p50k_base, the ``cl100k_base`` and ``o200k_base`` ``pat_str``). They
need the third-party :mod:`regex` module (possessive quantifiers, ``\\p{..}``
classes); the standard :mod:`re` cannot compile them.

>>> split("hi \\U0001F642 ok", "gpt2")
['hi', ' 🙂', ' ok']
>>> split("\\tindent", "cl100k")
['\\tindent']
"""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator

import regex

from tokexplorer.core.errors import InputError

#: GPT-2 / r50k_base / p50k_base split pattern (tiktoken ``r50k_pat_str``).
GPT2_PATTERN = (
    r"""'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"""
)

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


def pattern_string(name: str) -> str | None:
    """Return the regex source of a named pattern (None for ``"none"``).

    Raises:
        InputError: unknown name.
    """
    try:
        return PATTERNS[name]
    except KeyError:
        raise InputError(
            f"unknown pre-tokenizer {name!r}; choose one of {', '.join(PATTERN_NAMES)}"
        ) from None


def name_of_pattern(pat_str: str | None) -> str | None:
    """Return the name of a known pattern string, or None if it is not one of ours."""
    for name, pat in PATTERNS.items():
        if pat == pat_str:
            return name
    return None


@lru_cache(maxsize=32)
def compile_pattern(pat_str: str) -> "regex.Pattern[str]":
    """Compile (and cache) a split pattern with the :mod:`regex` module.

    Raises:
        InputError: the pattern does not compile.
    """
    try:
        return regex.compile(pat_str)
    except regex.error as exc:
        raise InputError(f"split pattern does not compile: {exc}") from None


def iter_chunks(text: str, pat_str: str | None) -> Iterator[str]:
    """Yield the chunks of ``text`` under a pattern string (None: the whole text).

    The chunks always join back to ``text``: tiktoken's patterns match every
    character (the final ``\\s`` alternative catches what the others leave).
    An empty text yields nothing.
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
    """
    return list(iter_chunks(text, pattern_string(pattern)))
