"""Every number field of the window keeps what was typed: the Replay merges and speed boxes,
the Unigram n-best, alpha and draws boxes, the merge table's jump box and the inspector's part
box take any number; one the code cannot use is refused with a message, the field unchanged."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from fixtures.sp import train_proto
from tokexplorer.core.backends import SentencePieceTokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.widgets.part_bar import PartBar
from tokexplorer.gui.widgets.step_controls import NO_SPEED, StepControls
from tokexplorer.gui.widgets.train_replay import TrainReplay
from tokexplorer.gui.widgets.unigram_word import DEFAULT_WORD, UnigramWord

WAIT = 60_000  # ms; generous ceiling for a worker, never asserted


def type_into(qtbot, spin, text, *, key=Qt.Key.Key_Tab):
    """Type ``text`` over a spin box's contents, then press ``key`` (Tab: move the focus away)."""
    spin.show()
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, key)
    spin.lineEdit().editingFinished.emit()  # what losing focus does, in case offscreen focus did not move


def test_replay_merges_above_the_old_limit_and_zero(qtbot):
    replay = TrainReplay()
    qtbot.addWidget(replay)
    replay.text_edit.setPlainText("aaab")
    type_into(qtbot, replay.merges_spin, "1000")
    assert replay.merges_spin.value() == 1000
    with qtbot.waitSignal(replay.replayed, timeout=WAIT):
        replay.replay()
    learned, _ = train_bpe(["aaab"], vocab_size=256 + 1000)  # the trainer stops when no pair is left
    assert [s.merged for s in replay.steps] == [m.merged for m in learned.merges] == [b"aa", b"ab", b"aaab"]
    type_into(qtbot, replay.merges_spin, "0")
    with qtbot.waitSignal(replay.replayed, timeout=WAIT):
        replay.replay()
    assert replay.merges_spin.value() == 0 and replay.steps == []
    assert replay.label.text() == "Merges is 0: nothing to replay; type how many merges to learn (1 or more)."


@pytest.fixture(scope="module")
def unigram() -> SentencePieceTokenizer:
    return SentencePieceTokenizer(train_proto(model_type="unigram", vocab_size=60)[0], name="u.model (SentencePiece)")


def test_unigram_boxes_keep_what_was_typed_and_say_why_it_is_refused(qtbot, unigram):
    word = UnigramWord()
    qtbot.addWidget(word)
    word.set_tokenizer(unigram)
    qtbot.waitUntil(lambda: word.analysis is not None, timeout=WAIT)
    sp = unigram.processor
    type_into(qtbot, word.nbest_spin, "60")  # above the old limit of 50
    qtbot.waitUntil(lambda: word.analysis is not None and word.nbest_spin.value() == 60, timeout=WAIT)
    qtbot.waitUntil(lambda: word.nbest_table.rowCount() == len(sp.nbest_encode_as_pieces(DEFAULT_WORD, 60)),
                    timeout=WAIT)  # fmt: skip
    type_into(qtbot, word.nbest_spin, "600")  # above SentencePiece's 512: its internal error before
    qtbot.waitUntil(lambda: word.nbest_table.rowCount() == 0, timeout=WAIT)
    assert word.nbest_spin.value() == 600
    assert word.info.text() == "the n-best count must be an integer from 1 to 512, not 600"
    assert word.nbest_spin.toolTip() == "How many segmentations: 1 to 512"
    type_into(qtbot, word.nbest_spin, "5")
    type_into(qtbot, word.alpha_spin, "0")
    qtbot.waitUntil(lambda: word.info.text() == "alpha must be a positive number, not 0.0", timeout=WAIT)
    assert word.alpha_spin.value() == 0 and word.samples_table.rowCount() == 0
    type_into(qtbot, word.alpha_spin, "25")  # above the old limit of 10
    qtbot.waitUntil(lambda: word.analysis is not None and word.analysis.alpha == 25, timeout=WAIT)
    assert word.samples_table.rowCount() == 8
    type_into(qtbot, word.count_spin, "0")
    qtbot.waitUntil(lambda: word.info.text() == "the sample count must be an integer from 1 to 1000, not 0",
                    timeout=WAIT)  # fmt: skip
    assert word.count_spin.value() == 0


def test_speed_zero_is_kept_and_does_not_play(qtbot):
    controls = StepControls(unit="merge")
    qtbot.addWidget(controls)
    controls.set_count(5)
    type_into(qtbot, controls.speed, "0")
    controls.play_btn.click()
    assert controls.speed.value() == 0 and not controls.play_btn.isChecked()
    assert controls.label.text() == NO_SPEED
    type_into(qtbot, controls.speed, "100")  # above the old limit of 30
    assert controls.speed.value() == 100 and controls.label.text() == "merge 1 of 5"
    controls.play_btn.click()
    assert controls.play_btn.isChecked()
    qtbot.waitUntil(lambda: controls.step == 4, timeout=WAIT)


def test_a_part_that_does_not_exist_is_kept_and_said(qtbot):
    bar = PartBar()
    qtbot.addWidget(bar)
    chosen = []
    bar.part_chosen.connect(chosen.append)
    bar.show_part(2, 5, "characters 4,000–6,000 of 10,000")
    bar.show()
    type_into(qtbot, bar.spin, "99", key=Qt.Key.Key_Return)  # the box reads a number on Enter
    assert bar.spin.value() == 99 and chosen == []
    assert bar.range_label.text() == "there is no part 99: type 1 to 5"
    bar.next_button.click()  # from the part shown, not from the number typed
    assert chosen == [3]
    type_into(qtbot, bar.spin, "2", key=Qt.Key.Key_Return)
    assert chosen == [3, 1] and bar.range_label.text() == "characters 4,000–6,000 of 10,000"

