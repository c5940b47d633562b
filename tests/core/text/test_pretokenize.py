"""The fast splitter gives exactly the chunks of the regex pattern it stands for."""

from __future__ import annotations

import random
import re

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokexplorer.core.io import sample_text
from tokexplorer.core.text import PATTERNS, Splitter, compile_splitter, pretokenize, split

BUILT_IN = ["gpt2", "cl100k", "o200k"]

# Characters whose class differs between ASCII and Unicode views, or that sit
# at the edge of a pattern's classes: non-ASCII letters, marks, digits of other
# scripts, other numbers, Unicode white space (NBSP, ideographic space, NEL,
# line separator), characters that fold to ASCII under IGNORECASE (long s,
# Kelvin sign), emoji and a ZWJ sequence, CJK.
NON_ASCII = list("éßЖжΩ中文語\u0301\u0663²Ⅻ\xa0\u3000\x85\u2028ſ\u212a😀👍🏽\u200d") + [
    "👩\u200d💻"
]
ASCII = [chr(i) for i in range(128)]
WORDS = [
    "the",
    " cat",
    "'s",
    "'LL",
    " 123",
    "4567",
    "x.",
    " \n",
    "\n\n",
    "  ",
    "\t",
    "...",
    "don't",
    "A",
    "bC",
    " 中文",
    "naïve",
    " Жж",
    "\u3000",
]


@st.composite
def mixed_text(draw):
    parts = draw(
        st.lists(
            st.one_of(
                st.text(alphabet=st.sampled_from(ASCII), max_size=12),
                st.lists(st.sampled_from(WORDS), max_size=40).map(
                    "".join
                ),  # long ASCII stretches
                st.sampled_from(NON_ASCII),
            ),
            max_size=30,
        )
    )
    return "".join(parts)


@pytest.mark.parametrize("name", BUILT_IN)
@settings(max_examples=400, deadline=None)
@given(text=mixed_text())
def test_splitter_equals_regex_on_mixed_text(name, text):
    sp = compile_splitter(PATTERNS[name])
    assert sp.findall(text) == regex.findall(PATTERNS[name], text)


@pytest.mark.parametrize("name", BUILT_IN)
def test_twin_equals_regex_on_all_ascii_pairs(name):
    twin = pretokenize._twin(PATTERNS[name])
    pat = regex.compile(PATTERNS[name])
    for a in ASCII:
        for b in ASCII:
            for t in (a + b, a + b + " x", "x" + a + b + "\n"):
                assert twin.findall(t) == pat.findall(t), repr(t)


BMP = [chr(i) for i in range(0x10000)]


@pytest.mark.parametrize("name", BUILT_IN)
def test_twin_equals_regex_on_every_bmp_character_in_context(name):
    """Every BMP code point (surrogates included) before and after letters,
    digits, spaces, line breaks, punctuation and the contraction suffixes,
    and all of them shuffled together."""
    twin = pretokenize._twin(PATTERNS[name])
    pat = regex.compile(PATTERNS[name])
    rng = random.Random(7)
    shuffled = BMP[:]
    rng.shuffle(shuffled)
    texts = [
        "".join(c + " " + c + c + "x'S\n" for c in BMP),
        "".join("a" + c + "1" + c + "'ll " + c + "\r\n" for c in BMP),
        "".join(" " + c + "  " + c + "\u3000" + c + "." for c in BMP),
        "".join(shuffled),
        "".join(c + d for c, d in zip(shuffled, BMP)),
    ]
    for t in texts:
        assert twin.findall(t) == pat.findall(t)


def test_twin_classes_are_the_ones_regex_uses():
    fields = pretokenize._TWIN_FIELDS["regex"]
    letters = re.compile(f"[{fields['L']}]")
    assert letters.fullmatch("ж") and letters.fullmatch("中") and not letters.fullmatch("1")
    # regex's \s is Unicode White_Space: no \x1c-\x1f, unlike re's \s
    spaces = re.compile(f"[{fields['S']}]")
    assert [c for c in "\x1c\x1f \xa0\u3000\x85" if spaces.fullmatch(c)] == [" ", "\xa0", "\u3000", "\x85"]
    assert re.fullmatch(f"[{fields['i_s']}]+", "sSſ")


@pytest.mark.parametrize("name", BUILT_IN)
def test_splitter_on_the_sample_text_and_a_mixed_document(name):
    text = sample_text()
    doc = (
        ("The quick brown fox jumps over the lazy dog; it's 2024.\n" * 20)
        + "Café 中文 😀\n"
        + text
    )
    sp = compile_splitter(PATTERNS[name])
    for t in (text, doc, doc * 3):
        assert sp.findall(t) == regex.findall(PATTERNS[name], t)


def test_splitter_exact_chunks_across_a_fast_and_slow_boundary():
    prose = "We split this line at safe points, word by word, without regex. "
    text = prose + "naïve café\u00a0 x \n" + prose
    got = compile_splitter(PATTERNS["cl100k"]).findall(text)
    assert "".join(got) == text
    assert got[:3] == ["We", " split", " this"]
    assert got[12:20] == [
        " without",
        " regex",
        ".",
        " naïve",
        " café",
        "\xa0",
        " x",
        " \n",
    ]
    assert got == regex.findall(PATTERNS["cl100k"], text)


def test_custom_pattern_has_no_fast_path():
    sp = Splitter(r"\w+|\W")
    assert not sp.fast
    assert sp.findall("ab, cd") == ["ab", ",", " ", "cd"]
    assert compile_splitter(PATTERNS["cl100k"]).fast


def test_split_keeps_working():
    assert split("hi \U0001f642 ok", "gpt2") == ["hi", " 🙂", " ok"]
