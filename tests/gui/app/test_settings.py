"""What the window remembers (issue 16.3): set things, make a new window, find them again.

Each test has its own settings folder (tests/gui/conftest.py), never the user's."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings

from tokexplorer.gui import recent, settings
from tokexplorer.gui.main_window import TAB_BYTES, MainWindow


def _window(qtbot) -> MainWindow:
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    return w


def test_settings_live_in_the_test_folder(settings_dir):
    s = settings.settings()
    assert s.format() == QSettings.Format.IniFormat
    assert s.fileName() == str(settings_dir / "tokexplorer" / "tokexplorer.ini")


def test_layout_training_and_compare_choices_are_restored(qtbot):
    w = _window(qtbot)
    w.show()
    qtbot.waitExposed(w)
    tall = w.minimumSizeHint().height() + 41  # a height the window can take
    w.resize(w.width(), tall)  # the height: the width is clamped to the offscreen screen on restore
    assert w.height() == tall and MainWindow().height() != tall
    w.tabs.setCurrentIndex(TAB_BYTES)
    w.bytes_pane.splitter.setSizes([123, 400])
    form = w.corpus_pane.form
    form.pattern_combo.setCurrentIndex(form.pattern_combo.findData("cl100k"))  # byte-level BPE's
    form.specials_edit.setText("<|endoftext|>, <|pad|>")
    form.set_algorithm("sp-unigram")
    form.vocab_spin.setValue(12345)
    form.specials_edit.setText("<sep>, <cls>")  # SentencePiece's user-defined symbols
    w.compare_pane.ids_box.setChecked(True)
    w.compare_pane.sync_box.setChecked(False)
    split = w.bytes_pane.splitter.sizes()
    w.close()

    w2 = _window(qtbot)
    assert w2.memory.layout_restored and w2.height() == tall
    w2.show()
    qtbot.waitExposed(w2)
    assert w2.tabs.currentIndex() == TAB_BYTES and w2.memory.tab_restored
    assert w2.bytes_pane.splitter.sizes() == split
    form = w2.corpus_pane.form
    assert (form.algorithm(), form.vocab_spin.value()) == ("sp-unigram", 12345)
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("none", "<sep>, <cls>")
    form.set_algorithm("bpe")
    assert form.pattern_combo.currentData() == "cl100k"
    assert form.specials_edit.text() == "<|endoftext|>, <|pad|>"
    assert w2.compare_pane.ids_box.isChecked() and not w2.compare_pane.sync_box.isChecked()


def test_recent_corpora_and_models_and_the_last_corpus(qtbot, tmp_path):
    corpus = tmp_path / "a.txt"
    corpus.write_text("the cat sat on the mat\n" * 10, encoding="utf-8")
    w = _window(qtbot)
    with qtbot.waitSignal(w.corpus_pane.corpus_loaded, timeout=20_000):
        w.open_paths([str(corpus)])
    model = tmp_path / "m.bpe"
    from tokexplorer.core.bpe import train_bpe

    w.state.set_bpe(train_bpe("the cat sat on the mat " * 5, vocab_size=260, pattern="gpt2")[0])
    assert w.save_bpe(str(model))
    w.close()

    w2 = _window(qtbot)
    assert recent.recent_corpora() == [[str(corpus)]]
    assert recent.recent_models() == [str(model)]
    w2.memory.recent_menu.rebuild()
    texts = [a.text() for a in w2.memory.recent_menu.actions()]
    assert f"a.txt — {tmp_path}" in texts and f"m.bpe — {tmp_path}" in texts
    # the last corpus is what a start without files opens, unless that is turned off
    assert w2.memory.reopen_action.isChecked()
    assert w2.memory.startup_paths([]) == [str(corpus)]
    assert w2.memory.startup_paths(["other.txt"]) == ["other.txt"]
    w2.memory.reopen_action.setChecked(False)
    w2.close()
    w3 = _window(qtbot)
    assert not w3.memory.reopen_action.isChecked()
    assert w3.memory.startup_paths([]) == []
    # choosing a recent corpus opens it
    with qtbot.waitSignal(w3.corpus_pane.corpus_loaded, timeout=20_000) as loaded:
        w3.memory.recent_menu.corpus_chosen.emit([str(corpus)])
    assert [f.name for f in loaded.args[0].files] == ["a.txt"]
    recent.clear()
    assert recent.recent_corpora() == [] and recent.recent_models() == []


def test_a_gone_file_leaves_the_lists_and_bad_values_are_ignored(qtbot, tmp_path):
    gone = tmp_path / "gone.txt"
    recent.add_corpus([str(gone)])
    settings.set_last_corpus([str(gone)])
    s = settings.settings()
    s.setValue("training/vocab_size", "lots")
    s.setValue("training/algorithm", "magic")
    s.setValue("window/tab", 99)
    s.sync()
    w = _window(qtbot)
    assert recent.recent_corpora() == [] and settings.last_corpus() == []
    assert w.corpus_pane.form.vocab_spin.value() == 4096 and w.corpus_pane.form.algorithm() == "bpe"
    assert w.tabs.currentIndex() == 0


@pytest.mark.parametrize("paths", [["x.txt"], []])
def test_startup_paths_without_a_last_corpus(qtbot, paths):
    w = _window(qtbot)
    assert w.memory.startup_paths(paths) == paths


def test_only_settings_that_trained_are_remembered(qtbot, tmp_path):
    """A vocab size refused on Train (100: too small for a byte-level BPE), or one SentencePiece
    found too large with its offer declined, is not remembered: the next window shows the size
    that last trained."""
    path = tmp_path / "small.txt"
    path.write_text("the cat sat on the mat\nthe dog ate the log\n" * 10, encoding="utf-8")
    w = _window(qtbot)
    pane, form = w.corpus_pane, w.corpus_pane.form
    with qtbot.waitSignal(pane.corpus_loaded, timeout=60_000):
        pane.load_paths([str(path)])
    form.set_algorithm("bpe")
    form.vocab_spin.setValue(270)
    with qtbot.waitSignal(pane.training_finished, timeout=60_000):
        assert pane.start_training(confirm=False) is not None
    form.vocab_spin.setValue(100)
    assert pane.start_training(confirm=False) is None and pane.settings_refused
    w.close()
    w2 = _window(qtbot)
    assert (w2.corpus_pane.form.algorithm(), w2.corpus_pane.form.vocab_spin.value()) == ("bpe", 270)
    # SentencePiece: 300 is too large for this corpus (at most 19 pieces); declined, not remembered
    pane2, form2 = w2.corpus_pane, w2.corpus_pane.form
    with qtbot.waitSignal(pane2.corpus_loaded, timeout=60_000):
        pane2.load_paths([str(path)])
    pane2._confirm = lambda title, text: False
    form2.set_algorithm("sp-unigram")
    form2.vocab_spin.setValue(300)
    with qtbot.waitSignal(pane2.training_failed, timeout=60_000):
        pane2.start_training(confirm=False)
    w2.close()
    assert _window(qtbot).corpus_pane.form.vocab_spin.value() == 270
    # accepted, the size that trained (19) is remembered, not the one typed
    w3 = _window(qtbot)
    pane3, form3 = w3.corpus_pane, w3.corpus_pane.form
    with qtbot.waitSignal(pane3.corpus_loaded, timeout=60_000):
        pane3.load_paths([str(path)])
    pane3._confirm = lambda title, text: True
    form3.set_algorithm("sp-unigram")
    form3.vocab_spin.setValue(300)
    with qtbot.waitSignal(pane3.training_finished, timeout=60_000):
        pane3.start_training(confirm=False)
    assert settings.settings().value("training/vocab_size") in (19, "19")
    w3.close()
    assert _window(qtbot).corpus_pane.form.vocab_spin.value() == 19
