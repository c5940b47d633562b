"""View ▸ lists every tab, each with its own shortcut (issue 16, point 7)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication

from tokexplorer.gui.main_window import MainWindow


def _all_actions(menu) -> list[QAction]:
    out = []
    for act in menu.actions():
        out.append(act)
        if act.menu() is not None:
            out.extend(_all_actions(act.menu()))
    return out


def test_the_view_menu_lists_every_tab_with_a_shortcut_of_its_own(qtbot):
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    tabs = [w.tabs.tabText(i) for i in range(w.tabs.count())]
    entries = [a.text() for a in w.view_menu.actions() if not a.isSeparator()]
    assert entries == [
        "Corpus", "Merge table", "Compare", "Byte inspector", "Replay", "Merge diff",
        "Statistics", "WordPiece", "Unigram", "Granularity", "Status bar",
    ]  # fmt: skip
    assert entries[:-1] == tabs
    keys = [a.shortcut().toString() for a in w.tab_actions]
    assert keys == [f"Ctrl+{n}" for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 0)]
    every = [a.shortcut() for m in (w.file_menu, w.view_menu) for a in _all_actions(m)]
    every += [a.shortcut() for a in w.menuBar().actions()[2].menu().actions()]  # Train
    taken = [k.toString() for k in every if not k.isEmpty()]
    assert len(taken) == len(set(taken)), taken


def test_each_tab_shortcut_selects_its_tab(qtbot):
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    w.show()
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=10_000)
    for i, act in enumerate(w.tab_actions):
        key = QKeySequence(act.shortcut())[0]
        qtbot.keyClick(w.focusWidget() or w, key.key(), Qt.KeyboardModifier.ControlModifier)
        assert w.tabs.currentIndex() == i, act.text()
    w.tab_actions[6].trigger()
    assert w.tabs.currentWidget() is w.stats_pane
