"""ColumnShare: columns as wide as their header and widest text, the main text column taking
what is left; in a narrow view the other text columns give up width first, down to their header."""

from __future__ import annotations

from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QTableView

from tokexplorer.gui.widgets.table_fit import CELL_PADDING, TEXT_COLUMN_MAX, ColumnShare, wanted_widths

ROWS = [("7", "a long left part here", "right part", "the merged token, longest of all texts", "12,345")]


def _view(qtbot, rows=ROWS):
    model = QStandardItemModel(0, 5)
    model.setHorizontalHeaderLabels(["Rank", "Left", "Right", "Merged", "Count"])
    for row in rows:
        model.appendRow([QStandardItem(t) for t in row])
    view = QTableView()
    view.setModel(model)
    qtbot.addWidget(view)
    share = ColumnShare(view, stretch=3, squeeze=(1, 2))
    share.refit()
    return view, share


def test_wanted_widths_hold_header_and_widest_text(qtbot):
    view, share = _view(qtbot)
    fm, hh = view.fontMetrics(), view.horizontalHeader()
    for col, text in enumerate(ROWS[0]):
        assert share.wanted[col] == max(hh.sectionSizeHint(col), fm.horizontalAdvance(text) + CELL_PADDING)
    assert wanted_widths(view, skip=(0, 4)).keys() == {1, 2, 3}


def test_a_wide_view_gives_every_column_its_width_and_the_rest_to_the_main_one(qtbot):
    view, share = _view(qtbot)
    room = sum(share.wanted.values()) + 300
    widths = share.widths(room)
    assert {c: widths[c] for c in (0, 1, 2, 4)} == {c: share.wanted[c] for c in (0, 1, 2, 4)}
    assert widths[3] == share.wanted[3] + 300 and sum(widths.values()) == room


def test_a_narrow_view_squeezes_the_other_text_columns_first(qtbot):
    view, share = _view(qtbot)
    hh = view.horizontalHeader()
    numbers = share.wanted[0] + share.wanted[4]
    room = numbers + share.wanted[3] + hh.sectionSizeHint(1) + hh.sectionSizeHint(2) + 20
    widths = share.widths(room)
    assert widths[0] == share.wanted[0] and widths[4] == share.wanted[4]  # numbers keep theirs
    assert widths[3] >= share.wanted[3]  # the main column is not cut
    assert hh.sectionSizeHint(1) <= widths[1] < share.wanted[1] and hh.sectionSizeHint(2) <= widths[2]
    assert sum(widths.values()) == room  # no sideways scrolling


def test_too_narrow_for_the_headers_keeps_the_text_widths_and_scrolls(qtbot):
    view, share = _view(qtbot, [("7", "x" * 200, "right", "y" * 400, "1")])
    widths = share.widths(share.wanted[0] + share.wanted[4] + 40)
    assert widths[1] == TEXT_COLUMN_MAX and widths[3] == TEXT_COLUMN_MAX


def test_resizing_the_view_shares_again(qtbot):
    view, share = _view(qtbot)
    view.resize(sum(share.wanted.values()) + 400, 300)
    view.show()
    qtbot.waitUntil(lambda: view.columnWidth(3) == share.widths(view.viewport().width())[3])
    wide = view.columnWidth(3)
    view.resize(sum(share.wanted.values()) + 100, 300)
    qtbot.waitUntil(lambda: view.columnWidth(3) < wide)
    widths = share.widths(view.viewport().width())
    assert [view.columnWidth(c) for c in range(5)] == [widths[c] for c in range(5)]
