"""Number fields keep what the user typed: a size the algorithm cannot use is refused on Train
with the command line's message, and the field still shows it (nothing snaps back)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tokexplorer.gui.dialogs.sp_train import SPTrainDialog
from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.panes.merge_diff_pane import MergeDiffPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.sp_options import SentencePieceOptionsForm

WAIT = 60_000  # ms; generous ceiling for a worker, never asserted


def type_into(qtbot, spin, text):
    """Type ``text`` over a spin box's contents, then move the focus away (as a click on Train does)."""
    spin.show()
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    spin.lineEdit().editingFinished.emit()  # what losing focus does, in case offscreen focus did not move


@pytest.fixture
def pane(qtbot, tmp_path):
    p = CorpusPane(AppState())
    qtbot.addWidget(p)
    path = tmp_path / "a.txt"
    path.write_text("low lower lowest newer newest\n" * 20, encoding="utf-8")
    with qtbot.waitSignal(p.corpus_loaded, timeout=WAIT):
        p.load_paths([str(path)])
    p.show()
    return p


@pytest.mark.parametrize("typed", ["100", "10"])
def test_a_too_small_bpe_vocab_is_refused_and_kept(qtbot, pane, typed):
    spin = pane.form.vocab_spin
    type_into(qtbot, spin, typed)
    qtbot.mouseClick(pane.form.train_button, Qt.MouseButton.LeftButton)
    assert spin.value() == int(typed)
    assert spin.text() == typed
    assert pane.last_worker is None  # nothing trained
    assert pane.form.train_message.text() == (
        f"byte-level BPE needs at least 256 base tokens: vocab_size {typed} is too small; use at least 256"
    )


def test_switching_algorithm_keeps_a_small_size(qtbot, pane):
    pane.form.set_algorithm("sp-unigram")
    type_into(qtbot, pane.form.vocab_spin, "100")
    pane.form.set_algorithm("bpe")
    assert pane.form.vocab_spin.value() == 100  # was raised to 256 without a word


def test_a_huge_bpe_vocab_is_refused_with_the_limit(qtbot, pane):
    type_into(qtbot, pane.form.vocab_spin, "5000000")
    pane.form.train_button.click()
    assert pane.form.vocab_spin.value() == 5_000_000
    assert pane.form.train_message.text() == (
        "vocab_size 5,000,000 is too large; the trainer supports up to 1,114,112"
    )


def test_sentencepiece_vocab_zero_is_refused(qtbot, pane):
    pane.form.set_algorithm("sp-bpe")
    type_into(qtbot, pane.form.vocab_spin, "0")
    pane.form.train_button.click()
    assert pane.form.vocab_spin.value() == 0
    assert pane.form.train_message.text() == "vocab_size must be positive, not 0"


def test_sentencepiece_fields_keep_what_was_typed(qtbot):
    form = SentencePieceOptionsForm(line_options=True)
    type_into(qtbot, form.coverage_spin, "0.9")
    type_into(qtbot, form.max_len_spin, "0")
    options = form.options(model_type="bpe")
    assert options.character_coverage == pytest.approx(0.9)
    assert options.max_sentence_length == 0


def test_dialog_and_merge_diff_sizes_are_not_clamped(qtbot):
    dialog = SPTrainDialog(["low lower"])
    qtbot.addWidget(dialog)
    type_into(qtbot, dialog.vocab_spin, "0")
    assert dialog.request().vocab_size == 0
    diff = MergeDiffPane(AppState())
    qtbot.addWidget(diff)
    type_into(qtbot, diff.vocab_spins["a"], "100")
    assert diff.vocab_spins["a"].value() == 100
