"""What the window remembers never leaks into what it must not change (issue 16, points 3 and 4):
the startup models keep their own defaults whatever the training form restored, each kind of
model keeps its own pre-tokenizer and special tokens, every model saved, exported or opened is
a recent model, and a model the user gives is shown as itself, never trained over.

Each test has its own settings folder (tests/gui/conftest.py), never the user's."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QMainWindow, QMessageBox, QTabWidget

from tokexplorer.core.backends import BPETokenizer, load_tokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import sample_text, save_bpe, write_tiktoken_file
from tokexplorer.gui import recent, settings
from tokexplorer.gui.main_window import MainWindow
from tokexplorer.gui.panes.corpus_pane.training_form import WORDPIECE_SPECIAL_TOKENS
from tokexplorer.gui.startup import builtin_sample_corpus

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted
B = QMessageBox.StandardButton
TEXT = "the lower newest widest cat sat on the mat; 12 low lows lowest newer\n" * 40


def _window(qtbot) -> MainWindow:
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    return w


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def _write(values: dict[str, object]) -> None:
    s = settings.settings()
    for key, value in values.items():
        s.setValue(key, value)
    s.sync()


# ----------------------------------------------------------------------------- point 1: no leaks


def test_startup_models_keep_their_defaults_after_a_wordpiece_session(qtbot, corpus):
    # what the newcomer's window wrote after training a WordPiece (this version's keys and the older ones)
    _write({
        "training/algorithm": "wordpiece", "training/vocab_size": 8000,
        "training/pattern": "bert", "training/special_tokens": WORDPIECE_SPECIAL_TOKENS,
        "training/wordpiece/pattern": "bert", "training/wordpiece/special_tokens": WORDPIECE_SPECIAL_TOKENS,
    })  # fmt: skip
    w = _window(qtbot)
    form = w.corpus_pane.form
    assert (form.algorithm(), form.pattern_combo.currentData()) == ("wordpiece", "bert")
    assert form.specials_edit.text() == WORDPIECE_SPECIAL_TOKENS
    # SentencePiece options the user might have set: the startup model does not use them either
    form.sp_form.normalization_combo.setCurrentIndex(form.sp_form.normalization_combo.findData("identity"))
    form.sp_form.byte_fallback_check.setChecked(True)
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run([str(corpus)])
    bpe = w.state.bpe
    ref, _ = train_bpe([TEXT], vocab_size=512, pattern="gpt2")
    assert bpe is not None and bpe.pattern_name == "gpt2" and bpe.special_tokens == {}
    assert bpe.merges == ref.merges and bpe.vocab_size == ref.vocab_size
    assert f" · vocab {bpe.vocab_size:,} tokens · " in w.merges_pane.title_label.text()  # none special: no breakdown
    sp = next(t for t in w.state.tokenizers if t.family == "sentencepiece")
    assert " · bpe model · nmt_nfkc · " in sp.description and "byte fallback" not in sp.description
    message = form.train_message.text()
    assert message.startswith("At startup tokexplorer trained a byte-level BPE (vocab ")
    assert "unknown pattern" not in message and "⚠" not in message
    # the form still shows what was restored, and BPE's own settings when BPE is chosen
    assert (form.algorithm(), form.pattern_combo.currentData()) == ("wordpiece", "bert")
    form.set_algorithm("bpe")
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("gpt2", "")


def test_each_kind_keeps_its_own_pretokenizer_and_special_tokens(qtbot):
    w = _window(qtbot)
    form = w.corpus_pane.form
    form.pattern_combo.setCurrentIndex(form.pattern_combo.findData("cl100k"))
    form.specials_edit.setText("<|endoftext|>")
    form.set_algorithm("wordpiece")
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("bert", WORDPIECE_SPECIAL_TOKENS)
    form.pattern_combo.setCurrentIndex(form.pattern_combo.findData("o200k"))
    form.specials_edit.setText("[UNK] [SEP]")
    form.vocab_spin.setValue(100)
    form.set_algorithm("sp-unigram")  # no pre-tokenizer; its own user-defined symbols
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("none", "")
    assert not form.pattern_combo.isEnabled() and form.specials_edit.isEnabled()
    assert form.specials_label.text() == "User-defined symbols:"
    form.specials_edit.setText("<sep>")
    form.set_algorithm("wordpiece")
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("o200k", "[UNK] [SEP]")
    w.close()

    s = settings.settings()
    assert s.value("training/bpe/pattern") == "cl100k" and s.value("training/wordpiece/pattern") == "o200k"
    assert s.value("training/sentencepiece/special_tokens") == "<sep>"
    assert s.value("training/pattern") is None  # the older single field is gone
    w2 = _window(qtbot)
    form = w2.corpus_pane.form
    assert (form.algorithm(), form.vocab_spin.value()) == ("wordpiece", 100)
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("o200k", "[UNK] [SEP]")
    form.set_algorithm("bpe")
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("cl100k", "<|endoftext|>")
    assert form.vocab_spin.value() == 100  # kept as typed: Train says it is below BPE's 256 bytes


def test_a_value_of_one_kind_is_not_restored_into_the_other(qtbot):
    _write({
        "training/algorithm": "bpe", "training/vocab_size": 100,
        "training/bpe/pattern": "bert", "training/wordpiece/pattern": "nonsense",
        "training/pattern": "bert", "training/special_tokens": WORDPIECE_SPECIAL_TOKENS,
    })  # fmt: skip
    form = _window(qtbot).corpus_pane.form
    assert (form.algorithm(), form.vocab_spin.value()) == ("bpe", 100)  # as left: Train refuses it, saying why
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("gpt2", "")
    form.set_algorithm("wordpiece")
    assert (form.pattern_combo.currentData(), form.specials_edit.text()) == ("bert", WORDPIECE_SPECIAL_TOKENS)


# ----------------------------------------------------------------------------- point 2: recent models


class Answers:
    """Stands in for QMessageBox.question (always Save) and QFileDialog.getSaveFileName (in turn)."""

    def __init__(self, monkeypatch, paths):
        self.paths = list(paths)
        monkeypatch.setattr(QMessageBox, "question", lambda *_a: B.Save)
        monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a: self.paths.pop(0))


def _train(qtbot, w, algorithm, vocab):
    form = w.corpus_pane.form
    form.set_algorithm(algorithm)
    form.vocab_spin.setValue(vocab)
    with qtbot.waitSignal(w.corpus_pane.training_finished, timeout=WAIT) as blocker:
        assert w.train() is not None
    return blocker.args[0]


def test_models_saved_at_quit_are_recent_models(qtbot, monkeypatch, tmp_path):
    w = _window(qtbot)
    w.corpus_pane.set_corpus(builtin_sample_corpus(sample_text()))
    for algorithm, vocab in (("bpe", 300), ("sp-bpe", 400), ("wordpiece", 400)):
        _train(qtbot, w, algorithm, vocab)
    assert len(w.saving.unsaved) == 3
    targets = [tmp_path / "q.bpe", tmp_path / "q.model", tmp_path / "q.wordpiece"]
    Answers(monkeypatch, [
        (str(targets[0]), "tokexplorer BPE (*.bpe)"), (str(targets[1]), "SentencePiece model (*.model)"),
        (str(targets[2]), "tokexplorer WordPiece (*.wordpiece)"),
    ])  # fmt: skip
    w.show()
    assert w.close()
    assert recent.recent_models() == [str(p) for p in reversed(targets)]
    w2 = _window(qtbot)
    w2.memory.recent_menu.rebuild()
    texts = [a.text() for a in w2.memory.recent_menu.actions()]
    assert [f"{p.name} — {tmp_path}" in texts for p in targets] == [True, True, True]


@pytest.mark.parametrize(
    ("fmt", "name", "family"),
    [
        ("tiktoken", "e.tiktoken", "tiktoken"),
        ("tokenizer.json", "tokenizer.json", "huggingface"),
        ("gpt2", "vocab.json", "huggingface"),
    ],
)
def test_an_exported_model_is_a_recent_model_that_opens(qtbot, tmp_path, fmt, name, family):
    w = _window(qtbot)
    bpe, _ = train_bpe(TEXT, vocab_size=300, pattern="gpt2")
    w.state.set_bpe(bpe)
    w.export_action.trigger()
    dlg = w.saving.export_dialog
    qtbot.waitUntil(lambda: dlg.check is not None, timeout=WAIT)
    dlg.set_format(fmt)
    dlg.path_edit.setText(str(tmp_path if fmt == "gpt2" else tmp_path / name))
    with qtbot.waitSignal(w.saving.saved, timeout=WAIT):
        dlg.export_button.click()
    assert recent.recent_models() == [str(tmp_path / name)]
    tok = load_tokenizer(recent.recent_models()[0])
    assert tok.family == family and tok.encode(TEXT) == bpe.encode(TEXT)


def test_file_save_and_compare_columns_opened_from_files_are_recent(qtbot, tmp_path):
    w = _window(qtbot)
    bpe, _ = train_bpe(TEXT, vocab_size=300, pattern="gpt2")
    w.state.set_bpe(bpe)
    saved = tmp_path / "s.bpe"
    assert w.save_bpe(str(saved))
    column = tmp_path / "col.bpe"
    save_bpe(bpe, column)
    with qtbot.waitSignal(w.state.model_file_opened, timeout=WAIT):
        w.compare_pane.add_menu.add_spec(f"bpe:{column}")
    assert recent.recent_models() == [str(column), str(saved)]


# ----------------------------------------------------------------------------- point 3: a model given


@pytest.fixture
def given_bpe(tmp_path):
    bpe, _ = train_bpe("zebra quokka " * 30, vocab_size=270, pattern="cl100k")  # the file's name: custom BPE
    path = tmp_path / "gui.bpe"
    save_bpe(bpe, path)
    return path, bpe


def _opened(qtbot, w, path):
    with qtbot.waitSignal(w.state.model_file_opened, timeout=WAIT):
        w.open_model(str(path))


def test_a_bpe_given_with_the_corpus_is_the_merge_tables_model(qtbot, corpus, given_bpe):
    path, bpe = given_bpe
    w = _window(qtbot)
    _opened(qtbot, w, path)  # as tokexplorer c.txt gui.bpe does, before the startup work
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run([str(corpus)])
    assert w.state.bpe.merges == bpe.merges and w.state.bpe.pattern_name == "cl100k"
    cols = [t for t in w.state.tokenizers if isinstance(t, BPETokenizer)]
    assert [t.name for t in cols] == ["gui.bpe (BPE)"] and cols[0].bpe is w.state.bpe
    title = f"gui.bpe (BPE) · cl100k pattern · vocab {bpe.vocab_size:,} tokens · "
    assert w.merges_pane.title_label.text().startswith(title)
    message = w.corpus_pane.form.train_message.text()
    assert message.startswith("At startup tokexplorer trained a SentencePiece BPE (")
    assert "No default BPE was trained: yours is shown." in message
    assert recent.recent_models() == [str(path)] and w.saving.unsaved == []


def test_a_bpe_opened_while_the_default_trains_stops_it(qtbot, corpus, given_bpe):
    path, bpe = given_bpe
    w = _window(qtbot)
    tok = load_tokenizer(str(path))
    shown: list[bool] = []

    def open_now(algorithm: str) -> None:
        if algorithm == "bpe" and not shown:
            w.startup.user_model_opened("bpe", lambda: (shown.append(True), w._show_model(str(path), tok)))
            assert shown == []  # not shown over a training still running: after it stopped

    w.corpus_pane.training_started.connect(open_now)
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run([str(corpus)])
    assert shown == [True] and w.state.bpe is tok.bpe
    assert [t for t in w.state.tokenizers if t.family == "bpe"] == [tok]
    assert "No default BPE was trained: yours is shown." in w.corpus_pane.form.train_message.text()


def test_a_rank_file_column_survives_the_default_tiktoken(qtbot, corpus, tmp_path):
    bpe, _ = train_bpe(TEXT, vocab_size=280, pattern="gpt2")
    ranks = tmp_path / "mine.tiktoken"
    write_tiktoken_file(bpe.mergeable_ranks, ranks)
    w = _window(qtbot)
    with qtbot.waitSignal(w.state.tokenizers_changed, timeout=WAIT):
        w.open_model(str(ranks), pattern="gpt2")
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run([str(corpus)])
    names = [t.name for t in w.state.tokenizers if t.family == "tiktoken"]
    assert len(names) == 2 and "mine.tiktoken (tiktoken)" in names


def test_the_merge_table_title_names_an_opened_file(qtbot, given_bpe):
    path, _ = given_bpe
    w = _window(qtbot)
    _opened(qtbot, w, path)
    assert w.merges_pane.title_label.text().startswith("gui.bpe (BPE) · ")
    assert w.state.name_of(w.state.bpe) == "gui.bpe (BPE)" and w.state.bpe.name == "custom BPE"


# ----------------------------------------------------------------------------- point 4: Ctrl+Q after a dialog


def test_the_window_takes_the_keyboard_back_when_a_modal_dialog_closes(qtbot):
    """Without a window manager (Xvfb; the offscreen platform too) nothing handed the focus
    back after File ▸ Open tokenizer…'s dialog closed, and the shortcuts (Ctrl+Q under X11)
    did nothing until a click. Here View ▸ Merge table's Ctrl+2 (the offscreen platform
    has no standard Quit key)."""
    w = _window(qtbot)
    w.show()
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=WAIT)
    dialog = QDialog(w)
    dialog.setModal(True)
    dialog.show()
    dialog.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is dialog, timeout=WAIT)
    dialog.hide()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=WAIT)
    assert w.tabs.currentIndex() == 0
    qtbot.keyClick(w.focusWidget() or w, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert w.tabs.currentWidget() is w.merges_pane


# ----------------------------------------------------------------------------- point 5: no drift


def test_the_window_reopens_where_it_was(qtbot):
    """restoreGeometry moves a window whose top is above a title bar's height down to it (for a
    frame that is not there without a window manager): the saved geometry is put back exactly.
    A plain main window, small enough for the offscreen screen (800 x 600)."""
    placed = None
    for _ in range(3):
        w = QMainWindow()
        qtbot.addWidget(w)
        tabs = QTabWidget()
        w.setCentralWidget(tabs)
        if not settings.restore_layout(w, tabs):
            w.setGeometry(QRect(2, 2, 500, 300))  # the offscreen screen's frame margins are 2 px
        w.show()
        qtbot.waitExposed(w)
        assert placed is None or w.geometry() == placed
        placed = w.geometry()
        settings.save_layout(w, tabs)
        w.close()
    assert placed == QRect(2, 2, 500, 300)

