"""One escape rule for invisible and odd code points (issue 16, point 5): every
category walked through the rendering function, alone and in context."""

from __future__ import annotations

import unicodedata

import pytest

from tokexplorer.core.text import (
    char_notation,
    describe_partial_token,
    label_glyph,
    piece_display,
    token_display,
    token_parts,
)
from tokexplorer.core.text.utf8 import analyze

# (category, code point, how it is written alone)
ALONE = [
    ("variation selector 16", "\ufe0f", "<U+FE0F>"),
    ("variation selector 1", "\ufe00", "<U+FE00>"),
    ("variation selector 17 (supplement)", "\U000e0100", "<U+E0100>"),
    ("Mongolian free variation selector", "\u180b", "<U+180B>"),
    ("zero width joiner", "\u200d", "<U+200D>"),
    ("zero width non-joiner", "\u200c", "<U+200C>"),
    ("left-to-right mark", "\u200e", "<U+200E>"),
    ("right-to-left mark", "\u200f", "<U+200F>"),
    ("arabic letter mark", "\u061c", "<U+061C>"),
    ("right-to-left override", "\u202e", "<U+202E>"),
    ("left-to-right embedding", "\u202a", "<U+202A>"),
    ("first strong isolate", "\u2068", "<U+2068>"),
    ("pop directional isolate", "\u2069", "<U+2069>"),
    ("byte order mark", "\ufeff", "<U+FEFF>"),
    ("soft hyphen", "\u00ad", "<U+00AD>"),
    ("word joiner", "\u2060", "<U+2060>"),
    ("tag latin capital a", "\U000e0041", "<U+E0041>"),
    ("combining acute accent", "\u0301", "\u25cc\u0301"),
    ("combining enclosing circle", "\u20dd", "\u25cc\u20dd"),
    ("devanagari vowel sign aa (spacing mark)", "\u093e", "\u25cc\u093e"),
    ("combining grapheme joiner (ignorable mark)", "\u034f", "<U+034F>"),
    ("unassigned", "\u0378", "<U+0378>"),
    ("noncharacter", "\U0010ffff", "<U+10FFFF>"),
    ("private use", "\ue000", "<U+E000>"),
    ("supplementary private use", "\U000f0000", "<U+F0000>"),
    ("line separator", "\u2028", "<U+2028>"),
    ("paragraph separator", "\u2029", "<U+2029>"),
    ("C1 control NEL", "\x85", "<U+0085>"),
    ("hangul filler (default ignorable letter)", "\u3164", "<U+3164>"),
    ("C0 control NUL", "\x00", "\u2400"),
]


@pytest.mark.parametrize(("what", "ch", "shown"), ALONE, ids=[a[0] for a in ALONE])
def test_each_category_alone(what, ch, shown):
    data = ch.encode("utf-8")
    assert token_display(data) == shown
    assert char_notation(ch) == shown
    parts = token_parts(data)
    assert [(p.kind, p.data) for p in parts] == [("control", data)]


@pytest.mark.parametrize(("what", "ch", "shown"), ALONE, ids=[a[0] for a in ALONE])
def test_each_category_after_a_piece_marker(what, ch, shown):
    # a WordPiece "##" or a SentencePiece "▁" is no base: what follows it is written alone
    assert piece_display("##" + ch, prefix="##") == "##" + shown
    assert piece_display("\u2581" + ch) == "\u2581" + shown
    assert piece_display(ch) == shown


def test_the_categories_are_what_the_names_say():
    # the table above really covers the categories of issue 16.5 (Python's
    # Unicode 14.0 agrees on all of these)
    cats = {unicodedata.category(ch) for _w, ch, _s in ALONE}
    assert cats == {"Mn", "Me", "Mc", "Cf", "Cn", "Co", "Zl", "Zp", "Cc", "Lo"}


def test_marks_and_selectors_stay_on_their_base():
    assert token_display("\u2764\ufe0f".encode()) == "\u2764\ufe0f"  # ❤️ renders as an emoji
    assert token_display("e\u0301".encode()) == "e\u0301"
    assert token_display("\u0915\u093e".encode()) == "\u0915\u093e"  # का
    assert token_display("1\ufe0f\u20e3".encode()) == "1\ufe0f\u20e3"  # keycap 1️⃣
    assert token_display("\U0001f469\u200d\U0001f52c".encode()) == "\U0001f469\u200d\U0001f52c"  # 👩‍🔬 (E03)


def test_after_an_escape_or_a_space_a_mark_has_no_base():
    # \x80 + FE0F: the selector must not turn the "0" of the escape into an emoji digit
    assert token_display(b"\x80" + "\ufe0f".encode()) == "\\x80<U+FE0F>"
    assert token_display("\t\u0301".encode()) == "\u2409\u25cc\u0301"
    assert token_display(" \u0301".encode()) == " \u25cc\u0301"
    assert token_display(" \u0301".encode(), visible_spaces=True) == "\u2423\u25cc\u0301"
    assert token_display("\u200b\ufe0f".encode()) == "<U+200B><U+FE0F>"


def test_joiners_at_a_token_edge_and_between_letters_are_escaped():
    # cl100k cuts 👩‍🔬 (E03) into 8 tokens; a merge of 👩 + ZWJ ends on the joiner
    assert token_display("\U0001f469\u200d".encode()) == "\U0001f469<U+200D>"
    assert token_display("\u200d\U0001f52c".encode()) == "<U+200D>\U0001f52c"
    assert token_display("a\u200cb".encode()) == "a<U+200C>b"  # ZWNJ is invisible between letters
    assert token_display("\u200fabc\u202e".encode()) == "<U+200F>abc<U+202E>"


def test_newer_unicode_is_not_unassigned():
    # U+1FAE8 SHAKING FACE (Unicode 15.0) is Cn to Python 3.11's unicodedata but
    # assigned in the regex module's database, so it is shown as itself
    assert unicodedata.category("\U0001fae8") == "Cn"
    assert token_display("\U0001fae8".encode()) == "\U0001fae8"


def test_label_glyph_and_partial_descriptions_follow_the_rule():
    assert [label_glyph(c) for c in "\ufe0f\u202e\ue000\u0301a"] == ["", "", "", "\u25cc\u0301", "a"]
    # a partial token over a variation selector names it instead of drawing it
    a = analyze("\u2764\ufe0f")
    assert describe_partial_token(b"\xef\xb8", 3, a) == "bytes 1\u20132 of 3 of U+FE0F VARIATION SELECTOR-16"
