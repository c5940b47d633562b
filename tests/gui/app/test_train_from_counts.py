"""Train ▸ Train from counts…: a byte-level BPE trained in the window from a
word-count table file, equal to the one trained from the same counts in the core."""

from __future__ import annotations

from collections import Counter

from PySide6.QtWidgets import QFileDialog

from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import WordCounts, save_word_counts

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted
COUNTS = Counter({"low": 5, " lower": 2, " newest": 6, " widest": 3, "\n": 4, "你好": 2})


def test_train_from_counts_menu_action(qtbot, window, tmp_path, monkeypatch):
    path = tmp_path / "corpus.counts"
    save_word_counts(WordCounts(COUNTS, pattern="cl100k", special_tokens=("<|endoftext|>",), files=1, bytes=99), path)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Train")
    action = next(a for a in menu.actions() if a.text() == "Train from &counts…")
    window.corpus_pane.form.vocab_spin.setValue(280)
    with qtbot.waitSignal(window.corpus_pane.training_finished, timeout=WAIT) as blocker:
        action.trigger()
    bpe = blocker.args[0].model
    expected, _ = train_bpe([], vocab_size=280, pattern="cl100k", special_tokens=["<|endoftext|>"], word_counts=COUNTS)
    assert bpe.merges == expected.merges and bpe.pattern_name == "cl100k"
    assert window.state.bpe is bpe
    assert "trained from the word counts of 1 file (99 bytes, 6 chunks)" in window.corpus_pane.form.train_message.text()
    # the box shows the table's pattern; the column and, once a corpus is open, the message say what it was trained on
    assert window.corpus_pane.form.pattern_combo.currentData() == "cl100k"
    column = next(c for c in window.compare_pane.columns if c.tokenizer is blocker.args[0].tokenizer)
    assert window.state.trained_note(column.tokenizer) == ("trained on the word counts corpus.counts", True)
    message = window.corpus_pane.form.train_message.text()
    doc = tmp_path / "doc.txt"
    doc.write_text("some other text\n", encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.open_paths([str(doc)])
    assert window.corpus_pane.form.train_message.text() == (
        f"Trained on the word counts corpus.counts, not on this corpus: {message}"
    )


def test_a_damaged_table_is_reported(qtbot, window, tmp_path):
    path = tmp_path / "bad.counts"
    path.write_text("tokexplorer-word-counts 7\n", encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.training_failed, timeout=WAIT) as blocker:
        window.corpus_pane.train_from_counts(str(path))
    assert blocker.args[0] == "bad.counts: word-count table version '7'; this version reads 1"
