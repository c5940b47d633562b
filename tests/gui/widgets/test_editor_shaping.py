"""Emoji ZWJ sequences stay one emoji in the Compare and byte-inspector editors
(issue 16, points 5 and 7): the invisible characters inside them are marked by
tinting their whole grapheme cluster, never by a format of their own, which would
make Qt shape the sequence as separate emoji."""

from __future__ import annotations

import pytest
import regex
from PySide6.QtGui import QFontMetricsF

from tokexplorer.gui.panes.bytes_pane import BytesPane
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.faithful_editor import FaithfulTextEdit, odd_clusters

SEQUENCES = [
    ("family", "\U0001f468\u200d\U0001f469\u200d\U0001f467"),
    ("rainbow flag", "\U0001f3f3\ufe0f\u200d\U0001f308"),
    ("people holding hands", "\U0001f9d1\u200d\U0001f91d\u200d\U0001f9d1"),
    ("pirate flag", "\U0001f3f4\u200d\u2620\ufe0f"),
]


def _clusters(text: str) -> list[tuple[int, int]]:
    return [m.span() for m in regex.finditer(r"\X", text)]


def test_odd_clusters_are_whole_grapheme_clusters():
    text = "a \U0001f468\u200d\U0001f469\u200d\U0001f467 x\u00a0y \u202eab"
    # regex's \X: the family is one cluster of 5 code points (2..7); NBSP 9..10; RLO 12..13
    assert odd_clusters(text) == [(2, 7), (9, 10), (12, 13)]
    assert all(c in _clusters(text) for c in odd_clusters(text))
    assert odd_clusters("plain text") == []


@pytest.mark.parametrize(("what", "seq"), SEQUENCES, ids=[s[0] for s in SEQUENCES])
def test_a_zwj_sequence_is_shaped_as_one_run(qtbot, what, seq):
    edit = FaithfulTextEdit()
    qtbot.addWidget(edit)
    fm = QFontMetricsF(edit.font())
    if not fm.horizontalAdvance(seq) < fm.horizontalAdvance(seq.replace("\u200d", " ")) * 0.75:
        pytest.skip("no font here joins this ZWJ sequence into one glyph (.ci/run installs fonts-noto-color-emoji)")
    edit.resize(500, 120)
    edit.show()
    text = f"{seq} ok"
    edit.set_text(text)
    qtbot.waitExposed(edit)
    layout = edit.document().firstBlock().layout()
    qtbot.waitUntil(lambda: len(layout.formats()) > 0)  # (Qt highlights after the event loop turns)
    ranges = [(r.start, r.start + r.length) for r in layout.formats()]
    # the cluster is tinted as one range (UTF-16 units: the emoji are surrogate pairs)
    n16 = len(seq.encode("utf-16-le")) // 2
    assert ranges == [(0, n16)]
    # and drawn as wide as the same text shaped in one run with the editor's font
    assert layout.lineAt(0).naturalTextWidth() == pytest.approx(fm.horizontalAdvance(text), abs=0.5)


def test_both_editors_tint_the_whole_sequence(qtbot):
    family = SEQUENCES[0][1]
    for pane in (ComparePane(AppState()), BytesPane(AppState())):
        qtbot.addWidget(pane)
        edit = pane.findChild(FaithfulTextEdit)
        edit.set_text(f"hi {family} and a\u200db")
        block = edit.document().firstBlock()
        qtbot.waitUntil(lambda b=block: len(b.layout().formats()) > 0)
        layout = block.layout()
        # "hi " is 3 units, the family 8; 'a'+ZWJ (the ZWJ joins the cluster of 'a') at 16..18
        assert [(r.start, r.length) for r in layout.formats()] == [(3, 8), (16, 2)]
