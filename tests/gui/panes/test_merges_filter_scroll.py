"""After a filter change the merge table shows the selected merge if it is still listed,
else the top of the filtered list, never an arbitrary part of it."""

from __future__ import annotations

import itertools

import pytest

from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.models.merge_model import COL_MERGED
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState

WORDS = " ".join("".join(p) for p in itertools.product("abcdefgh", "aeiou", "nrst"))


@pytest.fixture
def pane(qtbot):
    bpe, _ = train_bpe(WORDS * 2, vocab_size=256 + 400, pattern="gpt2")
    state = AppState()
    state.sample_text = WORDS
    p = MergesPane(state)
    qtbot.addWidget(p)
    p.resize(1000, 500)
    p.show()
    qtbot.waitExposed(p)
    with qtbot.waitSignal(p.model.dataChanged, timeout=10_000):
        state.set_bpe(bpe)
    assert p.shown_count() > 150  # rows enough to scroll through
    return p


def _in_view(pane: MergesPane, rank: int) -> bool:
    rect = pane.view.visualRect(pane.model.index(pane.model.row_of_rank(rank), COL_MERGED))
    return pane.view.viewport().rect().contains(rect)


def _scroll_to_the_end(pane: MergesPane) -> None:
    bar = pane.view.verticalScrollBar()
    bar.setValue(bar.maximum())
    assert bar.value() > 0


def test_a_filter_keeps_the_selected_merge_in_view(pane):
    merges = pane.model.merges
    rank = next(m.rank for m in merges[100:] if b"e" in m.merged)  # a merge far down the table
    assert pane.jump_to_rank(rank) and _in_view(pane, rank)
    _scroll_to_the_end(pane)
    assert not _in_view(pane, rank)
    pane.filter_edit.setText("e")
    pane.apply_filter()
    assert 0 < pane.shown_count() < len(merges)
    assert pane.selected_rank() == rank and _in_view(pane, rank)


def test_a_filter_that_hides_the_selected_merge_goes_to_the_top(pane):
    merges = pane.model.merges
    rank = next(m.rank for m in merges[100:] if b"u" in m.merged and b"e" not in m.merged)
    assert pane.jump_to_rank(rank)
    _scroll_to_the_end(pane)
    pane.filter_edit.setText("e")
    pane.apply_filter()
    assert pane.model.row_of_rank(rank) == -1
    assert pane.view.verticalScrollBar().value() == 0
    # nothing selected: a filter change shows the list from its top as well
    pane.view.clearSelection()
    pane.shown.set_merge(None)  # as after a click beside the rows: the side views show no merge
    pane.filter_edit.clear()
    pane.apply_filter()
    _scroll_to_the_end(pane)
    pane.script_combo.setCurrentIndex(1)  # another script: a filter change like any other
    assert pane.view.verticalScrollBar().value() == 0
