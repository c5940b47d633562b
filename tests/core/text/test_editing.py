"""Byte-faithful editing (issue 12, point 1), the Qt-free part: the editor text has
one code point per real code point, and an edit maps back onto the real text."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tokexplorer.core.text import (
    EDITOR_GLYPHS,
    apply_edit,
    editor_text,
    glyph_positions,
    line_ending_summary,
    normalize_line_endings,
)

ODD = "\r\n\u00a0\u2028\u2029\t\ufdd0\ufdd1\x00\ufeff\u200d\u240d\u00b6"
texts = st.text(alphabet=st.sampled_from(list(ODD) + list("ab é🙂")), max_size=40)


@given(texts, st.integers(min_value=0, max_value=40), st.text(alphabet="xy\n é", max_size=3))
def test_an_insertion_anywhere_keeps_the_rest(real, at, typed):
    at = min(at, len(real))
    shown = editor_text(real)
    assert len(shown) == len(real)
    assert apply_edit(real, shown, shown[:at] + typed + shown[at:], at=at) == real[:at] + typed + real[at:]


@given(texts, st.integers(min_value=0, max_value=40), st.integers(min_value=0, max_value=5))
def test_a_deletion_anywhere_keeps_the_rest(real, at, n):
    at = min(at, len(real))
    shown = editor_text(real)
    assert apply_edit(real, shown, shown[:at] + shown[at + n :], at=at) == real[:at] + real[at + n :]


def test_without_the_position_equal_glyphs_are_ambiguous():
    # a CR (shown ␍) next to a typed ␍: which one was deleted is known only from where
    assert apply_edit("a\r\u240d", "a\u240d\u240d", "a\u240d", at=1) == "a\u240d"
    assert apply_edit("a\r\u240d", "a\u240d\u240d", "a\u240d") == "a\r"


def test_each_character_the_document_cannot_hold_has_one_glyph():
    real = "a\r\nb\rc\u2028d\u2029e\ufdd0f\ud800g"
    assert editor_text(real) == "a\u240d\nb\u240dc\u21b2d\u00b6e\u25c7f\u25c6g"
    assert glyph_positions(real) == [1, 4, 6, 8, 10, 12]
    assert set(EDITOR_GLYPHS) == {"\r", "\u2028", "\u2029", "\ufdd0", "\ufdd1"}
    # characters the document holds are shown as themselves
    held = "\u00a0\t\x00\ufeff\u200d\x85"
    assert editor_text(held) == held and glyph_positions(held) == []


def test_paste_of_crlf_is_kept():
    assert apply_edit("ab", "ab", "a\u240d\nxb", inserted="\r\nx") == "a\r\nxb"
    # what was inserted differs from the paste (the widget changed it): taken as shown
    assert apply_edit("ab", "ab", "a\nxb", inserted="\r\nx") == "a\nxb"


def test_line_endings():
    s = "one\r\ntwo\rthree\n"
    assert normalize_line_endings(s) == "one\ntwo\nthree\n"
    assert line_ending_summary(s) == "1 CRLF, 1 CR"
    assert line_ending_summary("\n") == ""
