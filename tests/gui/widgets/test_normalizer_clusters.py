"""The normalizer view writes text by the window's one escape rule: an emoji the text holds
whole stays whole in the original and normalized texts (the rainbow flag's ZWJ after U+FE0F is
not escaped), a joiner that joins nothing is marked, and a piece holding part of the flag shows
its invisible code point (the pieces are SentencePiece's own)."""

from __future__ import annotations

from tokexplorer.core.analysis import inspect_text
from tokexplorer.gui.widgets.byte_view import grapheme_text
from tokexplorer.gui.widgets.normalizer_view import NormalizerView

RAINBOW = "\U0001f3f3\ufe0f\u200d\U0001f308"
TEXT = "x  " + RAINBOW + " a\u200db"  # the double space is removed: the view shows both texts


def _lines(qtbot, tok) -> list[str]:
    view = NormalizerView()
    qtbot.addWidget(view)
    view.show_report(inspect_text(TEXT, [tok]))
    return view.toPlainText().splitlines()


def test_the_flag_stays_whole_and_a_joiner_between_letters_is_marked(qtbot, sp_models):
    sp = sp_models["SP120"]
    lines = _lines(qtbot, sp)
    assert lines[lines.index("original") + 1] == f"x \u2423{RAINBOW} a<U+200D>b"  # the removed space as ␣
    assert lines[lines.index("normalized") + 1] == f"x {RAINBOW} a<U+200D>b"
    pieces = sp.processor.encode(TEXT, out_type=str)
    assert pieces[3:6] == ["\U0001f3f3\ufe0f", "\u200d", "\U0001f308"]  # the flag cut into three pieces
    assert lines[-2] == (
        "pieces on the normalized text (9): \u2581 x \u2581 \U0001f3f3\ufe0f <U+200D> \U0001f308 \u2581a <U+200D> b"
    )
    unknown = "token 3: \u201c\U0001f3f3\ufe0f\u201d, token 5: \u201c\U0001f308\u201d"
    assert lines[-1] == f"<unk> pieces (decoded as \u2047): {unknown}"


def test_byte_fallback_pieces_of_the_flag_show_its_joiner(qtbot, sp_models):
    sp = sp_models["SPBF"]
    lines = _lines(qtbot, sp)
    pieces = sp.processor.encode(TEXT, out_type=str)
    assert pieces[3:15] == [f"<0x{b:02X}>" for b in RAINBOW[:2].encode()] + ["\u200d"] + [
        f"<0x{b:02X}>" for b in RAINBOW[3].encode()
    ]
    assert lines[-1].startswith("pieces on the normalized text (18): ")
    assert " <0x8F> <U+200D> <0xF0> " in lines[-1]


def test_the_graphemes_track_draws_the_same_way():
    assert grapheme_text(RAINBOW) == RAINBOW
    assert grapheme_text("a\u200d") == "a<U+200D>"  # "a" + ZWJ is one cluster; the joiner joins nothing
    assert grapheme_text("\u200d") is None and grapheme_text("\n") is None  # drawn code point by code point
