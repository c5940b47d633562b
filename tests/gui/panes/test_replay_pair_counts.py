"""The Replay tab's pair-count table shows its Count column whatever the pieces (issue 16,
point 7: byte pieces such as <U+200D>\\xF0\\x9F\\x91 pushed it out of the newcomer's view)."""

from __future__ import annotations

from tokexplorer.core.bpe import replay_training
from tokexplorer.gui.widgets.train_replay import NO_PAIRS_YET, PIECE_COLUMN_MAX, TrainReplay

TEXT = "你好你好 👋🏽👋🏽 👨‍👩‍👧👨‍👩‍👧 low lower lowest"  # the newcomer's training text


def test_the_count_column_is_in_view_and_long_pieces_are_cut_with_a_tooltip(qtbot):
    replay = TrainReplay()
    qtbot.addWidget(replay)
    replay.resize(1360, 700)
    replay.show()
    qtbot.waitExposed(replay)
    replay.text_edit.setPlainText(TEXT)
    replay.merges_spin.setValue(10)
    with qtbot.waitSignal(replay.replayed, timeout=10_000):
        replay.replay()
    replay.controls.set_step(9)
    table = replay.table
    steps = replay_training(TEXT, n_merges=10, pattern="gpt2")
    counts = [c for _l, _r, c in steps[9].pair_counts]
    assert [table.item(r, 2).text() for r in range(table.rowCount())] == [f"{c:,}" for c in counts]
    # the Count column ends inside the table's viewport, as wide as its widest number and header
    right = table.columnViewportPosition(2) + table.columnWidth(2)
    assert right <= table.viewport().width()
    fm = table.fontMetrics()
    assert table.columnWidth(2) >= max(fm.horizontalAdvance(table.item(r, 2).text()) for r in range(table.rowCount()))
    # the piece columns fit their pieces up to PIECE_COLUMN_MAX; each piece is whole in its tooltip
    for col in (0, 1):
        items = [table.item(r, col) for r in range(table.rowCount())]
        widest = max(fm.horizontalAdvance(it.text()) for it in items)
        assert widest <= table.columnWidth(col) <= PIECE_COLUMN_MAX
        assert all(it.toolTip() == it.text() for it in items)
    assert "<U+200D>\\xF0\\x9F\\x91" in [table.item(r, 0).text() for r in range(table.rowCount())]
    # it takes no more than half the splitter
    assert replay.split.sizes()[0] <= sum(replay.split.sizes()) // 2


def test_before_the_first_replay_the_pair_counts_fill_their_pane_and_say_what_will_appear(qtbot):
    replay = TrainReplay()
    qtbot.addWidget(replay)
    replay.resize(1280, 700)
    replay.show()
    qtbot.waitExposed(replay)
    table, label = replay.table, replay.empty_label
    header = table.horizontalHeader()
    assert table.rowCount() == 0
    # the three columns share the table's width, not squeezed to their titles at its left
    assert abs(header.length() - table.viewport().width()) <= 1
    assert min(table.columnWidth(c) for c in range(3)) >= table.viewport().width() // 3 - 1
    assert label.isVisible() and label.text() == NO_PAIRS_YET
    assert label.height() >= label.heightForWidth(label.width())  # the whole message, wrapped
    with qtbot.waitSignal(replay.replayed, timeout=10_000):
        replay.replay()
    assert not label.isVisible()
    assert table.rowCount() == len(replay_training("the cat in the hat", n_merges=10, pattern="gpt2")[0].pair_counts)
    # with rows the columns fit their cells again (the count at most "Count" wide here)
    assert table.columnWidth(2) < table.viewport().width() // 3
    # a text with nothing to merge empties the table: the message comes back
    replay.text_edit.setPlainText("a")
    with qtbot.waitSignal(replay.replayed, timeout=10_000):
        replay.replay()
    assert table.rowCount() == 0 and label.isVisible()
