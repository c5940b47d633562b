"""A window 1,000 pixels wide shows every tab whole: no fixed text or row of controls makes
a pane wider than the room it has (long texts wrap, rows of controls wrap onto a next line)."""

from __future__ import annotations

from tokexplorer.gui.main_window import MainWindow
from tokexplorer.gui.widgets.sp_options import SPLIT_DIGITS_TEXT

WAIT = 120_000  # ms; ceiling for the startup models, never asserted


def test_every_tab_fits_a_window_1000_pixels_wide(qtbot):
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    w.resize(1000, 700)
    w.show()
    qtbot.waitExposed(w)
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run([])  # the sample and the default models: the panes hold their texts
    room = {}
    for i in range(w.tabs.count()):
        w.tabs.setCurrentIndex(i)
        page = w.tabs.widget(i)
        room[w.tabs.tabText(i)] = (page.minimumSizeHint().width(), page.width())
    assert w.width() == 1000
    assert {tab: need for tab, (need, has) in room.items() if need > has} == {}
    # the four that did not fit (1,002-1,038 pixels) now need at most 880
    assert max(room[t][0] for t in ("Corpus", "Compare", "Replay", "Unigram")) <= 880
    # the Compare tab's controls wrap onto a second line where one is too narrow for them
    pane = w.compare_pane
    boxes = (pane.policy_combo, pane.sync_box)
    assert boxes[1].y() > boxes[0].y() + boxes[0].height() // 2
    # the split-digits option says it all, its check box short and the rest wrapped under it
    form = w.corpus_pane.form.sp_form
    assert f"{form.split_digits_check.text()}: {form.split_digits_note.text()}" == SPLIT_DIGITS_TEXT
    assert form.split_digits_note.wordWrap() and form.split_digits_check.toolTip() == SPLIT_DIGITS_TEXT
