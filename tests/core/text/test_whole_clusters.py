"""A grapheme cluster a token holds whole is drawn whole: its joiners and tags kept (the
rainbow flag's ZWJ after U+FE0F, the tags of England's flag, a conjunct's ZWJ); an invisible
code point that holds nothing together, or a cluster cut by a token's edge, is escaped
(``<U+200D>``). Clusters are the ``regex`` module's ``\\X`` (UAX #29)."""

from __future__ import annotations

import pytest
import regex

from tokexplorer.core.text import kept_inside, piece_display, span_display, spans_display, token_display

RAINBOW = "\U0001f3f3\ufe0f\u200d\U0001f308"  # 🏳️‍🌈: white flag, VS16, ZWJ, rainbow
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"  # 🏴 + tags g b e n g + cancel
WHOLE = [
    RAINBOW,
    ENGLAND,
    "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # 👨‍👩‍👧
    "\U0001f3f4\u200d\u2620\ufe0f",  # 🏴‍☠️: a VS16 at the end, after the ZWJ
    "\U0001f9d1\U0001f3fd\u200d\U0001f52c",  # 🧑🏽‍🔬: a skin tone before the ZWJ
    "\u0915\u094d\u200d\u0937",  # क्‍ष: a conjunct held by a ZWJ (GB9c)
    "\u0dc1\u0dca\u200d\u0dbb\u0dd3",  # ශ්‍රී (Sinhala, in the fixture corpus)
]


@pytest.mark.parametrize("cluster", WHOLE)
def test_a_whole_cluster_is_drawn_as_it_is(cluster):
    # one user-perceived character to regex's \X, but Sinhala's (no conjunct rule there: two)
    assert len(regex.findall(r"\X", cluster)) == (2 if cluster[0] == "\u0dc1" else 1)
    assert token_display(cluster.encode()) == cluster
    assert piece_display(cluster) == cluster and piece_display("\u2581" + cluster) == "\u2581" + cluster


def test_the_rainbow_flag_keeps_its_joiner_after_the_variation_selector():
    assert kept_inside(RAINBOW) == {2}
    assert token_display(RAINBOW.encode()) == RAINBOW  # was 🏳️<U+200D>🌈


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (RAINBOW[:3], "\U0001f3f3\ufe0f<U+200D>"),  # a token cut after the joiner
        (RAINBOW[2:], "<U+200D>\U0001f308"),  # the token after it
        (RAINBOW[1:], "<U+FE0F><U+200D>\U0001f308"),
        ("a\u200db", "a<U+200D>b"),  # a joiner between letters joins nothing: two clusters
        ("\u200d", "<U+200D>"),
        (ENGLAND[:3], "\U0001f3f4<U+E0067><U+E0062>"),  # a tag sequence cut short shows its tags
        (ENGLAND[1:], "".join(f"<U+{ord(c):04X}>" for c in ENGLAND[1:])),
    ],
)
def test_a_cluster_cut_by_a_token_edge_shows_its_invisible_code_points(text, shown):
    assert len(regex.findall(r"\X", RAINBOW + "a\u200db")) == 3  # the flag, "a" + ZWJ, "b"
    assert token_display(text.encode()) == shown


def test_a_span_of_a_longer_text_is_judged_in_that_text():
    text = "x " + RAINBOW + " y"
    # the run after a highlighted change starting inside the flag keeps the joiner
    assert span_display(text, 4, 6) == "\u200d\U0001f308"
    assert span_display(text, 0, len(text)) == text
    assert span_display("e\u0301", 1, 2) == "\u0301"  # its base is just before the span
    assert span_display(" \u0301", 1, 2) == "\u25cc\u0301"  # a space is no base
    assert span_display("a\u200cb\n", 0, 4, control_pictures=False) == "a<U+200C>b\u21b5"


def test_many_spans_at_once_are_each_span_alone():
    text = "x " + RAINBOW + " a\u200db e\u0301 " + ENGLAND + "\n"
    spans = [(0, 2), (2, 4), (4, 7), (7, 11), (11, 13), (13, len(text))]
    assert spans_display(text, spans) == [span_display(text, a, b) for a, b in spans]
    assert "".join(spans_display(text, [(0, len(text))], control_pictures=False)) == (
        "x " + RAINBOW + " a<U+200D>b e\u0301 " + ENGLAND + "\u21b5"
    )
