"""Tests of tokexplorer.core.text.clean.clean_text (unpaired surrogates: unpaired surrogates)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokexplorer.core.text import CleanText, clean_text, has_surrogates


@pytest.mark.parametrize("s", ["\ud800", "\ud83d", "\ud83d\ude42", "caf\udce9"])
def test_inputs_cannot_be_encoded(s):
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        s.encode("utf-8")
    assert has_surrogates(s)


@pytest.mark.parametrize(
    ("s", "text", "notes"),
    [
        ("\ud800", "\ufffd", ("lone surrogate U+D800 replaced by U+FFFD at character 0",)),
        ("\ud83d", "\ufffd", ("lone surrogate U+D83D replaced by U+FFFD at character 0",)),
        ("\ud83d\ude42", "\U0001F642", ("surrogate pair U+D83D U+DE42 joined into U+1F642 at character 0",)),
        ("caf\udce9", "caf\ufffd", ("lone surrogate U+DCE9 replaced by U+FFFD at character 3",)),
    ],
)  # fmt: skip
def test_clean_text(s, text, notes):
    c = clean_text(s)
    assert c.text == text
    assert c.notes == notes
    assert c.changed
    assert c.text.encode("utf-8") in (b"\xef\xbf\xbd", b"\xf0\x9f\x99\x82", b"caf\xef\xbf\xbd")


def test_pair_joins_like_utf16_surrogatepass():
    s = "\ud83d\ude42"
    assert s.encode("utf-16", "surrogatepass").decode("utf-16") == "\U0001F642"
    assert clean_text(s).text.encode("utf-8") == bytes.fromhex("F0 9F 99 82")


def test_surrogateescape_round_trip():
    s = b"caf\xe9".decode("utf-8", "surrogateescape")
    assert s == "caf\udce9"
    assert s.encode("utf-8", "surrogateescape") == bytes.fromhex("63 61 66 E9")


def test_clean_text_without_surrogates_is_unchanged():
    s = "plain \U0001F642 text"
    c = clean_text(s)
    assert c.text is s
    assert c.notes == () and not c.changed
    assert clean_text("") == CleanText("")


def test_positions_refer_to_cleaned_text():
    c = clean_text("a\ud83d\ude42b\udc00")
    assert c.text == "a\U0001F642b\ufffd"
    assert c.notes == (
        "surrogate pair U+D83D U+DE42 joined into U+1F642 at character 1",
        "lone surrogate U+DC00 replaced by U+FFFD at character 3",
    )


def test_reversed_pair_is_two_lone_surrogates():
    c = clean_text("\ude42\ud83d")
    assert c.text == "\ufffd\ufffd"
    assert len(c.notes) == 2


def test_max_notes_summary():
    c = clean_text("\ud800" * 5, max_notes=2)
    assert c.text == "\ufffd" * 5
    assert c.notes == (
        "lone surrogate U+D800 replaced by U+FFFD at character 0",
        "lone surrogate U+D800 replaced by U+FFFD at character 1",
        "... 3 more surrogate changes",
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.characters(), st.sampled_from(["\ud83d", "\ude42", "\ud800", "\udfff", "\udce9"])),
        max_size=40,
    ).map("".join)
)
def test_clean_text_always_encodable(s):
    c = clean_text(s)
    c.text.encode("utf-8")
    assert not has_surrogates(c.text)
    assert c.changed == has_surrogates(s)
    if not has_surrogates(s):
        assert c.text == s
