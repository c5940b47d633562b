"""The Corpus tab's notes (encodings guessed, byte order marks, U+FFFD, line endings) are
readable whole: the table's Notes column has room for a few characters, so the list under
the table holds every problem and then every file's notes, wrapped at its width; its
heading takes two lines whatever it says and the list a fixed height (the pane never
moves when they change); a note clicked selects its file."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tokexplorer.gui.models.corpus_model import COL_NOTES
from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.state import AppState

LATIN1 = "latin1_menu_with_a_long_name.txt"
NOTE_LATIN1 = (
    f"{LATIN1}: not valid UTF-8 at byte 3 (invalid continuation byte); read as cp1252 "
    "(guessed, low confidence: 4 non-ASCII bytes to go by, and cp1250, iso8859-2, cp1257 read it as well; "
    "if wrong, pick the file's encoding in the Corpus tab and press Re-read as)"
)


@pytest.fixture
def corpus_dir(tmp_path):
    (tmp_path / "bom.txt").write_bytes(b"\xef\xbb\xbfbom file\n")
    (tmp_path / LATIN1).write_bytes("café crème brûlée and more words here\n".encode("cp1252"))
    (tmp_path / "mixed.txt").write_bytes(b"a\r\nb\nc\r\n")
    (tmp_path / "plain.txt").write_text("nothing to say\n", encoding="utf-8")
    return tmp_path


def shown(qtbot, width=600):
    pane = CorpusPane(AppState())
    qtbot.addWidget(pane)
    pane.resize(width, 600)
    pane.show()
    qtbot.waitExposed(pane)
    return pane


def load(qtbot, pane, paths):
    with qtbot.waitSignal(pane.corpus_loaded, timeout=60_000):
        pane.load_paths([str(p) for p in paths])


def test_every_note_is_listed_whole_and_wrapped(qtbot, corpus_dir):
    pane = shown(qtbot)
    box = pane.file_list.problems_box
    height = box.sizeHint().height()
    load(qtbot, pane, [corpus_dir])
    fl = pane.file_list
    assert fl.problem_messages() == []
    assert fl.note_messages() == [
        "note: bom.txt: UTF-8 with BOM; BOM removed",
        f"note: {NOTE_LATIN1}",
        "note: mixed.txt: mixed line endings: 1 LF, 2 CRLF, 0 CR (kept as they are)",
    ]
    assert fl.problems_label.text() == "Problems: none · notes on 3 files (below)"
    # the long note: wrapped over two lines or more inside the list, never cut at the right
    lst = fl.problems
    rect = lst.visualRect(lst.model().index(1, 0))
    assert lst.fontMetrics().horizontalAdvance(lst.item(1).text()) > lst.viewport().width()
    assert rect.width() <= lst.viewport().width() and rect.height() >= 2 * lst.fontMetrics().lineSpacing()
    # what the table's cell cuts, its tooltip holds whole
    row = next(r for r in range(fl.model.rowCount()) if fl.model.file_at(r).name == LATIN1)
    assert fl.model.data(fl.model.index(row, COL_NOTES), Qt.ItemDataRole.ToolTipRole) == NOTE_LATIN1
    assert box.sizeHint().height() == height  # the same room as with nothing to say


def test_the_heading_keeps_its_height_and_tells_all_in_its_tooltip(qtbot, corpus_dir):
    pane = shown(qtbot, width=420)
    label = pane.file_list.problems_label
    before = label.height()
    binary = corpus_dir / "img.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    load(qtbot, pane, [corpus_dir])
    assert label.text().startswith("Problems: 1 · notes on 3 files (below)")
    assert label.height() == before == 2 * label.fontMetrics().lineSpacing()
    assert pane.file_list.problem_messages()[0].startswith("img.bin: looks like a binary file")


def test_a_clicked_note_selects_its_file(qtbot, corpus_dir):
    pane = shown(qtbot)
    load(qtbot, pane, [corpus_dir])
    fl = pane.file_list
    item = fl.problems.item(2)
    assert item.text().startswith("note: mixed.txt")
    qtbot.mouseClick(fl.problems.viewport(), Qt.MouseButton.LeftButton, pos=fl.problems.visualItemRect(item).center())
    rows = fl.table.selectionModel().selectedRows()
    assert [fl.model.file_at(fl.proxy.mapToSource(r).row()).name for r in rows] == ["mixed.txt"]
