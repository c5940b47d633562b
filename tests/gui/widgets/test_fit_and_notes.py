"""Nothing cut off: merge-table and code-point columns fit their header and widest value, the
Compare notes badge unfolds to its whole text, the merge filter offers the other
mode when a search finds nothing."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QTableView

from tokexplorer.core.text import utf8
from tokexplorer.core.types import MergeRecord
from tokexplorer.gui.models.merge_filter import reads_as_hex
from tokexplorer.gui.models.merge_model import COL_BYTES, COL_COUNT, COL_FIRES, COL_RANK, MergeTableModel
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.code_point_table import HEADERS, CodePointTable
from tokexplorer.gui.widgets.merge_filter_controls import PLACEHOLDERS, other_mode_hint
from tokexplorer.gui.widgets.merge_table_view import CELL_PADDING, MergeTableView, widest_numbers
from tokexplorer.gui.widgets.note_badge import CLICK_HINT, NoteBadge
from tokexplorer.gui.widgets.table_fit import CELL_PADDING as TABLE_PADDING
from tokexplorer.gui.widgets.table_fit import fit_columns, sample_rows


def _model(n: int, first_count: int) -> MergeTableModel:
    vocab = {i: bytes([i]) for i in range(256)}
    merges = []
    for r in range(n):
        merged = bytes([r % 256, (r * 7) % 256])
        merges.append(MergeRecord(r, r % 256, (r * 7) % 256, 256 + r, merged, first_count - r))
        vocab[256 + r] = merged
    model = MergeTableModel()
    model.set_merges(merges, vocab)
    return model


def test_number_columns_hold_their_header_and_largest_value(qtbot):
    model = _model(20_000, 402_068)
    view = MergeTableView(model)
    qtbot.addWidget(view)
    view.show()
    model.set_fire_counts([156_512 - r for r in range(20_000)])
    assert widest_numbers(model) == {COL_RANK: "19999", COL_BYTES: "2", COL_COUNT: "402,068", COL_FIRES: "156,512"}
    view.fit_columns()
    fm, hh = view.fontMetrics(), view.horizontalHeader()
    for col in (COL_RANK, COL_BYTES, COL_COUNT, COL_FIRES):
        assert view.columnWidth(col) >= hh.sectionSizeHint(col)  # "Fires", "(Compare text)" whole, sort arrow too
        widest = max(fm.horizontalAdvance(model.data(model.index(r, col))) for r in range(0, 20_000, 97))
        assert view.columnWidth(col) >= widest + CELL_PADDING
    # the header's width comes from its text: wider than the 56 px the column had
    assert hh.sectionSizeHint(COL_FIRES) > fm.horizontalAdvance("(Compare text)")


def test_largest_numbers_count_tokens_no_merge_builds_and_unknown_counts(qtbot):
    """Merges recovered from ranks have no pair counts; a token no merge builds (a row after the
    merges) can be the longest: both count in the widths, measured once per model."""
    vocab = {i: bytes([i]) for i in range(256)} | {256: b"ab", 257: b"abc", 300: b"whole-chunk"}
    merges = [MergeRecord(0, 97, 98, 256, b"ab", None), MergeRecord(1, 256, 99, 257, b"abc", None)]
    model = MergeTableModel()
    model.set_merges(merges, vocab, unbuilt=[300])
    assert model.largest_numbers == (1, 11, None)
    assert widest_numbers(model) == {COL_RANK: "1", COL_BYTES: "11", COL_COUNT: "", COL_FIRES: ""}
    model.set_merges([], {})
    assert model.largest_numbers == (None, None, None)


def test_a_hidden_merge_table_measures_its_columns_when_shown(qtbot, monkeypatch):
    """Another tab's table measures nothing at the end of a training (80-150 ms of the
    GUI thread on a 1 GB corpus); it fits its columns once shown."""
    from tokexplorer.gui.widgets import merge_table_view

    measured = []
    real = merge_table_view.wanted_widths
    monkeypatch.setattr(merge_table_view, "wanted_widths", lambda *a, **k: measured.append(1) or real(*a, **k))
    model = _model(2_000, 9_000)
    view = MergeTableView(model)
    qtbot.addWidget(view)
    view.fit_columns()
    view.fit_columns(tokens=False)
    assert measured == []
    view.show()
    assert measured == [1]  # once, with the token columns (the first fit asked for them)
    assert view.columnWidth(COL_COUNT) >= view.fontMetrics().horizontalAdvance("9,000") + CELL_PADDING
    view.fit_columns()
    assert measured == [1, 1]  # shown: at once


def test_note_badge_folds_to_one_line_and_unfolds_on_click(qtbot):
    badge = NoteBadge()
    qtbot.addWidget(badge)
    badge.resize(300, 20)
    badge.show()
    note = "⚠ normalized: 28 spaces, 6 line breaks removed; 38 line breaks turned into spaces; 4 tabs"
    badge.set_note(note, tip="normalized: 28 spaces, 6 line breaks removed")
    assert badge.is_cut() and badge.text().endswith("…  ▸ more") and badge.text() != note
    assert badge.fontMetrics().horizontalAdvance(badge.text()) <= 300
    assert badge.toolTip() == f"normalized: 28 spaces, 6 line breaks removed\n{CLICK_HINT}"
    qtbot.mouseClick(badge, Qt.MouseButton.LeftButton)
    assert badge.expanded and badge.text() == note + "  ◂ less" and badge.full_text() == note and badge.wordWrap()
    assert badge.heightForWidth(300) >= 2 * badge.fontMetrics().height()  # wrapped over lines
    qtbot.mouseClick(badge, Qt.MouseButton.LeftButton)
    assert not badge.expanded and badge.is_cut()
    badge.set_note("⚠ short")
    assert badge.text() == "⚠ short" and not badge.is_cut() and badge.toolTip() == "⚠ short"
    qtbot.mouseClick(badge, Qt.MouseButton.LeftButton)  # nothing hidden: nothing to unfold
    assert not badge.expanded


def test_other_mode_hint():
    assert reads_as_hex("E4 BD") and reads_as_hex("0xe4,0xbd") and not reads_as_hex("e4b")
    assert other_mode_hint("e4 bd", "text") == " · “e4 bd” reads as hex bytes: <a href='#hex'>search them as hex</a>"
    assert other_mode_hint("zz", "text") == ""
    assert other_mode_hint("<b>", "hex") == " · <a href='#text'>search “&lt;b&gt;” as token text</a>"


def test_merge_filter_offers_hex_when_text_finds_nothing(qtbot, cat_hat_bpe):
    state = AppState()
    state.sample_text = "the cat in the hat, 你们好"
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.model.dataChanged, timeout=5000):
        state.set_bpe(cat_hat_bpe)
    n = len(cat_hat_bpe.merges)
    assert pane.filter_edit.placeholderText() == PLACEHOLDERS["text"]
    pane.filter_edit.setText("e4 bd a0")  # 你: bytes, typed without ticking hex
    pane.apply_filter()
    assert pane.shown_count() == 0
    assert pane.count_label.text() == (
        f"{n} merges (0 shown) · “e4 bd a0” reads as hex bytes: <a href='#hex'>search them as hex</a>"
    )
    pane.count_label.linkActivated.emit("#hex")  # the link, as clicked
    assert pane.hex_check.isChecked() and not pane.regex_check.isChecked()
    assert pane.filter_edit.placeholderText() == PLACEHOLDERS["hex"]
    shown = [pane.model.merge_at(r).merged for r in range(pane.shown_count())]
    assert shown and all("你".encode() in m for m in shown)
    assert pane.count_label.text() == f"{n} merges ({len(shown)} shown)"
    pane.filter_edit.setText("hat")
    pane.apply_filter()  # not hex: refused, text offered
    assert pane.count_label.text() == "not hex: use pairs like e4 bd · <a href='#text'>search “hat” as token text</a>"
    pane.count_label.linkActivated.emit("#text")
    assert not pane.hex_check.isChecked() and pane.filter_edit.placeholderText() == PLACEHOLDERS["text"]
    assert pane.shown_count() > 0 and pane.count_label.text() == f"{n} merges ({pane.shown_count()} shown)"


def test_code_point_columns_hold_their_widest_cell_in_any_row(qtbot):
    table = CodePointTable()
    qtbot.addWidget(table)
    table.resize(900, 300)
    table.show()
    # the long name and the five-digit code point come last, far below the rows on screen
    table.show_analysis(utf8.analyze("a" * 3000 + "\U0001f1fa"))
    assert table.cell(3000, 3) == "REGIONAL INDICATOR SYMBOL LETTER U" and table.cell(3000, 1) == "U+1F1FA"
    fm = table.fontMetrics()
    for c in range(len(HEADERS) - 1):
        widest = max(fm.horizontalAdvance(table.cell(r, c)) for r in range(table.rowCount()))
        assert table.columnWidth(c) >= widest
        assert table.columnWidth(c) >= table.horizontalHeader().sectionSizeHint(c)


def test_fit_columns_measures_rows_far_from_the_screen(qtbot):
    model = QStandardItemModel(10_000, 2)
    model.setHorizontalHeaderLabels(["Piece", "Count"])
    for r in range(10_000):
        model.setItem(r, 0, QStandardItem("ab"))
        model.setItem(r, 1, QStandardItem(f"{r:,}"))
    model.setItem(9_000, 0, QStandardItem("▁internationalization"))  # far below the screen
    view = QTableView()
    view.setModel(model)
    qtbot.addWidget(view)
    view.resize(400, 300)
    view.show()
    assert 9_000 in sample_rows(10_000)
    fit_columns(view)
    fm = view.fontMetrics()
    assert view.columnWidth(0) >= fm.horizontalAdvance("▁internationalization") + TABLE_PADDING
    assert view.columnWidth(1) >= fm.horizontalAdvance("9,999") + TABLE_PADDING
    assert view.columnWidth(1) >= view.horizontalHeader().sectionSizeHint(1)
