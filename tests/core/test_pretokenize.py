"""The fast splitter gives exactly the chunks of the regex pattern it stands for."""

from __future__ import annotations

import re

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokexplorer.core import pretokenize
from tokexplorer.core.pretokenize import PATTERNS, Splitter, compile_splitter, split
from tokexplorer.core.resources import sample_text

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
def test_ascii_twin_equals_regex_on_all_ascii_pairs(name):
    twin = re.compile(pretokenize._ASCII_TWINS[PATTERNS[name]])
    pat = regex.compile(PATTERNS[name])
    for a in ASCII:
        for b in ASCII:
            for t in (a + b, a + b + " x", "x" + a + b + "\n"):
                assert twin.findall(t) == pat.findall(t), repr(t)


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
