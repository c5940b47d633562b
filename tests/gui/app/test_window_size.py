"""The window never resizes itself (issue 16, point 7): opening many files with long names,
adding many Compare columns of long names, choosing another corpus file and closing columns
leave its width as the user set it, and no pane asks for more room than it did at start
(long names are cut with "…", the columns scroll sideways).

Each test has its own settings folder (tests/gui/conftest.py)."""

from __future__ import annotations

from pathlib import Path

from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io.exports import write_tiktoken_export
from tokexplorer.gui.main_window import MainWindow
from tokexplorer.gui.widgets.elided_label import ElidedLabel

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted
TEXT = "the lower newest widest cat sat on the mat; 12 low lows lowest newer\n" * 20
LONG = "a_corpus_file_whose_name_is_much_longer_than_any_column_or_label_would_want_to_show"


def _pane_minimums(w: MainWindow) -> dict[str, int]:
    return {w.tabs.tabText(i): w.tabs.widget(i).minimumSizeHint().width() for i in range(w.tabs.count())}


def _models(tmp_path: Path, n: int) -> list[Path]:
    """``n`` rank files (our export: ranks and a sidecar), each opened as a column of its own."""
    bpe, _ = train_bpe([TEXT], vocab_size=300, pattern="gpt2")
    paths = []
    for k in range(n):
        p = tmp_path / f"model_{k}_with_a_file_name_long_enough_to_fill_two_header_lines_of_a_column.tiktoken"
        write_tiktoken_export(bpe, p)
        paths.append(p)
    return paths


def _open_models(qtbot, w: MainWindow, paths: list[Path]) -> None:
    """Open each model as File ▸ Open tokenizer… does, one after the other."""
    opened: list[str] = []
    w.state.status.connect(lambda m: opened.append(m) if m.startswith("opened ") else None)
    for k, path in enumerate(paths):
        w.open_model(str(path))
        qtbot.waitUntil(lambda k=k: len(opened) > k, timeout=WAIT)
    qtbot.waitUntil(lambda: not w.compare_pane.busy, timeout=WAIT)


def test_many_files_and_columns_never_widen_the_window(qtbot, tmp_path):
    files = []
    for k in range(12):
        f = tmp_path / f"{LONG}_{k}.txt"
        f.write_text(f"file {k}: {TEXT}", encoding="utf-8")
        files.append(str(f))
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    w.resize(1100, 700)
    w.show()
    qtbot.waitExposed(w)
    before = _pane_minimums(w)
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run(files)
    assert len(w.corpus_pane.corpus.files) == 12
    w.tabs.setCurrentWidget(w.compare_pane)
    _open_models(qtbot, w, _models(tmp_path, 6))  # six columns named after their long file names
    qtbot.waitUntil(lambda: not w.compare_pane.busy, timeout=WAIT)
    assert len(w.compare_pane.columns) >= 8
    assert w.width() == 1100
    combo = w.compare_pane.source_bar.file_combo
    for row in (combo.count() - 1, 3):  # another corpus file, twice
        combo.setCurrentIndex(row)
        combo.activated.emit(row)
        qtbot.waitUntil(lambda: not w.compare_pane.busy, timeout=WAIT)
        assert w.width() == 1100
    w.compare_pane.remove_column(len(w.compare_pane.columns) - 1)
    qtbot.waitUntil(lambda: not w.compare_pane.busy, timeout=WAIT)
    assert w.width() == 1100
    # the columns scroll sideways instead: together they are wider than the room they have
    scroll = w.compare_pane.columns_scroll
    assert w.compare_pane.columns_view.minimumSizeHint().width() > scroll.viewport().width()
    assert scroll.horizontalScrollBar().maximum() > 0
    # no pane asks for more room than at start or than the window gives it (nothing hidden by the
    # window's own minimum; Compare's file chooser, shown once there are two files, fits)
    after = _pane_minimums(w)
    room = w.tabs.currentWidget().width()
    assert {k: v for k, v in after.items() if v > max(before[k], room)} == {}
    assert max(after.values()) <= room
    # a long header is cut to two lines, all of it in the tooltip
    header = w.compare_pane.columns[-1].header
    assert isinstance(header, ElidedLabel) and header.text().startswith("model_")
    assert header.is_cut() and header.shown_lines()[-1].endswith("…") and len(header.shown_lines()) == 2
    assert header.text() in header.toolTip()
    # the corpus file list's status and the Compare file combo do not grow with the names
    status = w.corpus_pane.file_list.load_status
    status.setText(f"reading {LONG * 3}…")
    assert status.minimumSizeHint().width() < 100
    assert combo.minimumSizeHint().width() < combo.fontMetrics().horizontalAdvance(LONG)
    assert w.width() == 1100


def test_the_window_fits_a_screen_smaller_than_its_panes(qtbot, tmp_path):
    """The offscreen screen is 800 px wide, narrower than the widest pane's controls: the window
    may still be made as small as the screen, and stays so after files and columns are opened."""
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    room = w.screen().availableGeometry()
    assert room.width() == 800
    assert max(_pane_minimums(w).values()) > room.width()
    w.resize(760, 620)
    w.show()
    qtbot.waitExposed(w)
    assert (w.width(), w.height()) == (760, 620)
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run([])
    _open_models(qtbot, w, _models(tmp_path, 3))
    assert (w.width(), w.height()) == (760, 620)
