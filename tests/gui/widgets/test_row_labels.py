"""The byte inspector's row labels: as wide as the longest name up to a cap, and names that
differ stay different when cut (a newcomer saw ``tokenizer.json (Hu…`` and ``tokenizer.json
(Hugg…`` for two Hugging Face columns)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF

from tokexplorer.core.text import utf8
from tokexplorer.gui.widgets.byte_view import LABEL_MAX_W, LABEL_W, ByteView
from tokexplorer.gui.widgets.row_labels import distinct_elisions, label_width
from tokexplorer.gui.widgets.track_paint import TokenTrack

HF = ["tokenizer.json (BPE)", "tokenizer.json (Hugging Face BPE)", "tokenizer.json (Hugging Face WordPiece)"]


def _view(qtbot, names: list[str], *, exact: bool = True) -> ByteView:
    view = ByteView()
    qtbot.addWidget(view)
    view.resize(1100, 400)
    view.set_data(utf8.analyze("hi"), [TokenTrack(name=n, error="x", exact=exact) for n in names])
    return view


def test_names_that_fit_under_the_cap_are_shown_whole_in_a_wider_column(qtbot):
    view = _view(qtbot, HF)
    fm = QFontMetricsF(view._small)
    assert view.label_w == fm.horizontalAdvance(HF[2]) + 8 > LABEL_W
    assert view._shown_names == ["bytes", "code points", "graphemes", *HF]
    # short names keep the least width
    assert _view(qtbot, ["cl100k"]).label_w == LABEL_W


def test_names_over_the_cap_are_cut_in_the_middle_and_stay_distinct(qtbot):
    long = [f"{'models/very/deep/folder/' * 3}tokenizer.json (Hugging Face {kind})" for kind in ("BPE", "WordPiece")]
    view = _view(qtbot, long, exact=False)
    assert view.label_w == LABEL_MAX_W
    shown = view._shown_names[3:]
    assert len(set(shown)) == 2 and all("…" in s for s in shown)
    assert shown[0].startswith("≈ models/") and shown[0].endswith("Face BPE)")
    assert shown[1].endswith("WordPiece)")
    # the label's tooltip gives the whole name of a cut one, none for a whole one
    y = 4.0 + 3 * view._track_h + view._track_h / 2
    assert view.tooltip_at(10, y) == f"≈ {long[0]}"
    assert view.tooltip_at(10, 4.0 + view._track_h / 2) == ""


def test_names_that_differ_only_in_the_middle_are_cut_at_another_end(qtbot):
    view = _view(qtbot, [])
    fm = QFontMetricsF(view._small)
    names = [f"{'x' * 30} number {k} {'y' * 30}" for k in ("one", "two")]
    width = fm.horizontalAdvance(names[0]) * 0.6
    middle = [fm.elidedText(n, Qt.TextElideMode.ElideMiddle, width) for n in names]
    assert middle[0] == middle[1]  # the middle cut hides what tells them apart
    shown = distinct_elisions(names, fm, width)
    assert shown[0] != shown[1]
    assert label_width(names, fm, least=10, most=50) == 50
    assert label_width([], fm, least=10, most=50) == 10
