"""The merge table's side views never show a merge silently out of step with the table: a filter
that keeps the shown merge keeps it selected; one that hides it leaves it shown, the note above the
side views saying so; a click shows another; clearing the filter selects the shown merge again.
Checked on a small table (filtered at once) and on the worker path (the rows arrive later)."""

from __future__ import annotations

import pytest

from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState

TEXT = "the cat sat on the mat and the hat of the other one " * 6 + "汉字 文字 字母 写字 字典 名字 数字 " * 5
#: The merges the trainer learns on TEXT (256 + 47 ids) that hold a whole 字 (E5 AD 97), by rank:
#: 字, ␣字, ␣写字, ␣名字, ␣字\xE5, ␣字\xE6, ␣字\xE5\x85, ␣字典, ␣字\xE6\xAF, ␣字母, ␣数字, ␣文字, ␣汉字.
HAN_RANKS = [1, 10, 29, 31, 32, 33, 34, 35, 36, 37, 42, 44, 46]
THE = 6  # merge #6: ␣ + the
NOTE = "merge #6 «␣the» — not among the 13 filtered rows; clear the filter to see it in the table"


@pytest.fixture
def pane(qtbot):
    bpe, _ = train_bpe(TEXT, vocab_size=256 + 47, pattern="gpt2")
    assert bpe.merges[THE].merged == b" the"
    assert [m.rank for m in bpe.merges if "字".encode() in m.merged] == HAN_RANKS
    p = MergesPane(AppState())
    qtbot.addWidget(p)
    p.resize(1100, 500)
    p.show()
    qtbot.waitExposed(p)
    p.set_bpe(bpe)
    assert p.shown_count() == 47
    assert p.jump_to_rank(THE)
    return p


def _selected_rows(pane: MergesPane) -> list[int]:
    return [ix.row() for ix in pane.view.selectionModel().selectedRows()]


def _shown_ranks(pane: MergesPane) -> list[int]:
    return [pane.model.merge_at(r).rank for r in range(pane.shown_count())]


def _in_view(pane: MergesPane, row: int) -> bool:
    rect = pane.view.visualRect(pane.model.index(row, 0))
    return pane.view.viewport().rect().contains(rect)


def _assert_the_is_shown_off_the_list(pane: MergesPane) -> None:
    assert _shown_ranks(pane) == HAN_RANKS
    assert _selected_rows(pane) == []
    assert pane.selected_rank() == THE
    assert pane.shown.note.text() == NOTE and pane.shown.note.isVisible()
    assert pane.tree_label.text().startswith("token 262 «␣the» (4 bytes) is built by 3 merges")
    assert pane.tree.tree.rank == THE
    assert pane.plot._markers[0].value() == THE  # noqa: SLF001 - the plot's marker line


def _assert_the_is_selected(pane: MergesPane, row: int) -> None:
    assert _selected_rows(pane) == [row]
    assert pane.selected_rank() == THE and pane.model.merge_at(row).rank == THE
    assert pane.shown.note.text() == "" and not pane.shown.note.isVisible()
    assert _in_view(pane, row)


def test_a_filter_that_hides_the_shown_merge_says_so_and_clearing_it_selects_it_again(pane):
    _assert_the_is_selected(pane, THE)
    pane.filter_edit.setText("字")
    pane.apply_filter()  # 47 records: filtered at once
    _assert_the_is_shown_off_the_list(pane)
    pane.script_combo.setCurrentIndex(pane.script_combo.findData("Han"))  # another filter hiding it
    assert pane.shown.note.text() == NOTE
    pane.script_combo.setCurrentIndex(0)
    pane.filter_edit.clear()
    pane.apply_filter()
    _assert_the_is_selected(pane, THE)


def test_a_filter_that_keeps_the_shown_merge_keeps_it_selected(pane):
    pane.filter_edit.setText("the")
    pane.apply_filter()
    assert _shown_ranks(pane) == [3, 6, 22, 24]  # the, ␣the, ␣othe, ␣other
    _assert_the_is_selected(pane, 1)


def test_a_click_in_the_filtered_list_shows_that_merge(pane):
    pane.filter_edit.setText("字")
    pane.apply_filter()
    pane.view.select_row(1)  # ␣字, as a click does
    assert pane.selected_rank() == 10 and _selected_rows(pane) == [1]
    assert not pane.shown.note.isVisible() and pane.shown.note.text() == ""
    assert pane.tree_label.text().startswith("token 266 «␣字» (4 bytes)")
    pane.filter_edit.clear()
    pane.apply_filter()
    assert _selected_rows(pane) == [10] and pane.selected_rank() == 10


def test_a_plot_click_on_a_hidden_merge_leaves_the_marker_on_the_shown_one(pane):
    pane.filter_edit.setText("字")
    pane.apply_filter()
    pane.plot.merge_clicked.emit(3)  # "the": not in the filtered list
    assert pane.plot._markers[0].value() == THE  # noqa: SLF001
    _assert_the_is_shown_off_the_list(pane)


def test_asking_for_the_tree_of_a_hidden_merge_shows_it_with_the_note(pane):
    pane.filter_edit.setText("字")
    pane.apply_filter()
    pane.view.select_row(0)  # 字
    assert pane.show_tree_of_bytes(b" the")
    _assert_the_is_shown_off_the_list(pane)


def test_the_worker_path_updates_when_the_rows_arrive(pane, qtbot, monkeypatch):
    monkeypatch.setattr(pane.filtering, "sync_records", 0)  # every active filter in a worker
    monkeypatch.setattr(pane.filtering, "sync_index_records", 0)
    pane.filter_edit.setText("字")
    with qtbot.waitSignal(pane.filtering.applied, timeout=10_000):
        pane.apply_filter()
        assert pane.filtering.pending  # till the mask is in: the rows before, #6 still selected
        _assert_the_is_selected(pane, THE)
    _assert_the_is_shown_off_the_list(pane)
    pane.filter_edit.setText("the")
    with qtbot.waitSignal(pane.filtering.applied, timeout=10_000):
        pane.apply_filter()
        assert pane.filtering.pending and pane.shown.note.text() == NOTE
    _assert_the_is_selected(pane, 1)
    pane.filter_edit.setText("字")
    with qtbot.waitSignal(pane.filtering.applied, timeout=10_000):
        pane.apply_filter()
    assert pane.shown.note.text() == NOTE
    pane.filter_edit.clear()
    pane.apply_filter()  # no filter: shown at once
    _assert_the_is_selected(pane, THE)
