"""Nothing lost: the Save / Discard / Cancel question before a tokenizer trained in the window
is lost (quit, retrain, opening a BPE over it), saving every kind of model trained here, and
opening a folder with nothing readable keeps the corpus."""

from __future__ import annotations

import json

import pytest
import sentencepiece as spm
import tiktoken
import tiktoken.load
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QFileDialog, QMessageBox

from tokexplorer.core.io import load_bpe, sample_text, save_bpe
from tokexplorer.gui.main_window import MainWindow
from tokexplorer.gui.startup import builtin_sample_corpus

WAIT = 120_000  # ms; ceiling for a worker, never asserted
B = QMessageBox.StandardButton


@pytest.fixture
def window(qtbot):
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    w.corpus_pane.set_corpus(builtin_sample_corpus(sample_text()))
    w.state.set_sample_text(sample_text())
    return w


class Answers:
    """Stands in for QMessageBox.question and QFileDialog.getSaveFileName: records, answers in turn."""

    def __init__(self, monkeypatch, buttons=(), paths=()):
        self.questions: list[tuple[str, str]] = []
        self.buttons = list(buttons)
        self.paths = list(paths)
        self.save_dialogs: list[str] = []
        monkeypatch.setattr(QMessageBox, "question", self.question)
        monkeypatch.setattr(QFileDialog, "getSaveFileName", self.save_name)

    def question(self, _parent, title, text, *_args):
        self.questions.append((title, text))
        return self.buttons.pop(0) if self.buttons else B.Discard  # Discard: the window closes at teardown

    def save_name(self, _parent, caption, *_args):
        self.save_dialogs.append(caption)
        return self.paths.pop(0) if self.paths else ("", "")


def train(qtbot, window, algorithm="bpe", vocab=300):
    window.corpus_pane.form.vocab_spin.setValue(vocab)
    combo = window.corpus_pane.form.algorithm_combo
    combo.setCurrentIndex(combo.findData(algorithm))
    with qtbot.waitSignal(window.corpus_pane.training_finished, timeout=WAIT) as blocker:
        assert window.train() is not None
    return blocker.args[0]


def test_quit_is_ctrl_q_where_the_platform_has_no_standard_key(qtbot, window):
    """Windows (and the offscreen platform the tests run on) has no standard Quit key:
    File ▸ Quit gets Ctrl+Q there; a standard key the platform has is kept (Open)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from tokexplorer.gui.main_window import shortcut_sequence

    assert QKeySequence(QKeySequence.StandardKey.Quit).isEmpty()
    assert window.quit_action.shortcut().toString() == "Ctrl+Q"
    assert shortcut_sequence(QKeySequence.StandardKey.Open) == QKeySequence(QKeySequence.StandardKey.Open)
    assert window.open_files_action.shortcut().toString() == "Ctrl+O"
    window.show()
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=10_000)
    qtbot.keyClick(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)  # nothing unsaved: it closed


def test_quit_asks_and_cancel_keeps_the_window_open(qtbot, window, monkeypatch):
    bpe = train(qtbot, window).model
    assert window.saving.unsaved == [bpe]
    answers = Answers(monkeypatch, buttons=[B.Cancel])
    window.show()
    assert window.quit_action.shortcut() == QKeySequence("Ctrl+Q")  # the offscreen platform has no standard key
    window.quit_action.trigger()  # File ▸ Quit and Ctrl+Q
    assert answers.questions == [
        (
            "Quit tokexplorer",
            f"This tokenizer was trained here and is not saved: custom BPE (BPE, vocab {bpe.vocab_size:,}). "
            "Quitting loses it. Save it first?",
        )
    ]
    assert window.isVisible()
    assert window.saving.unsaved == [bpe]


def test_save_at_quit_writes_our_format_and_then_nothing_is_asked(qtbot, window, monkeypatch, tmp_path):
    bpe = train(qtbot, window).model
    target = tmp_path / "mine.bpe"
    answers = Answers(monkeypatch, buttons=[B.Save], paths=[(str(target), "tokexplorer BPE (*.bpe)")])
    window.show()
    assert window.close()
    assert not window.isVisible()
    assert answers.save_dialogs == ["Save custom BPE"]
    assert load_bpe(target).merges == bpe.merges
    assert window.saving.unsaved == []
    assert window.statusBar().currentMessage() == f"saved mine.bpe (BPE) to {target}"  # named by its file now
    window.show()
    assert window.close()  # saved: no question
    assert len(answers.questions) == 1


def test_file_save_bpe_model_counts_as_saved(qtbot, window, tmp_path, unanswered_questions):
    bpe = train(qtbot, window).model
    target = tmp_path / "saved.bpe"
    assert window.save_bpe(str(target))
    assert load_bpe(target).merges == bpe.merges
    assert window.saving.unsaved == []
    window.show()
    assert window.close()
    assert unanswered_questions == []


def test_save_as_tiktoken_from_the_question(qtbot, window, monkeypatch, tmp_path):
    bpe = train(qtbot, window).model
    target = tmp_path / "mine.tiktoken"
    Answers(monkeypatch, buttons=[B.Save], paths=[(str(target), "tiktoken ranks + JSON sidecar (*.tiktoken)")])
    assert window.saving.confirm_quit()
    side = json.loads((tmp_path / "mine.tiktoken.json").read_text(encoding="utf-8"))
    ranks = tiktoken.load.load_tiktoken_bpe(str(target))
    enc = tiktoken.Encoding(
        name="m", pat_str=side["pat_str"], mergeable_ranks=ranks, special_tokens=side["special_tokens"]
    )
    assert enc.encode(sample_text()) == bpe.encode(sample_text())


def test_a_cancelled_save_dialog_cancels_the_quit(qtbot, window, monkeypatch):
    bpe = train(qtbot, window).model
    Answers(monkeypatch, buttons=[B.Save], paths=[("", "")])
    window.show()
    assert not window.close()
    assert window.saving.unsaved == [bpe]


def test_discard_quits_without_saving(qtbot, window, monkeypatch):
    train(qtbot, window)
    answers = Answers(monkeypatch, buttons=[B.Discard])
    window.show()
    assert window.close()
    assert len(answers.questions) == 1 and window.saving.unsaved == []


def test_a_sentencepiece_model_trained_here_is_saved_as_its_model_bytes(qtbot, window, monkeypatch, tmp_path):
    result = train(qtbot, window, "sp-bpe", vocab=400)
    tok = result.tokenizer
    assert window.saving.unsaved == [tok]
    target = tmp_path / "sp.model"
    answers = Answers(monkeypatch, buttons=[B.Save], paths=[(str(target), "SentencePiece model (*.model)")])
    assert window.saving.confirm_quit()
    asked = answers.questions[0][1]
    assert asked.startswith("This tokenizer was trained here and is not saved: SentencePiece (400 pieces)")
    assert tok.name == "sp.model (SentencePiece)"  # once saved, named by its file
    assert target.read_bytes() == tok.model_proto
    sp = spm.SentencePieceProcessor(model_file=str(target))
    text = sample_text()
    assert sp.encode(text) == tok.encode(text)


def test_save_sentencepiece_menu_entry(qtbot, window, monkeypatch, tmp_path):
    tok = train(qtbot, window, "sp-bpe", vocab=300).tokenizer
    target = tmp_path / "u.model"
    Answers(monkeypatch, paths=[(str(target), "SentencePiece model (*.model)")])
    window.save_sp_action.trigger()
    assert target.read_bytes() == tok.model_proto
    assert window.saving.unsaved == []


def test_retraining_asks_before_replacing_the_unsaved_model(qtbot, window, monkeypatch):
    bpe = train(qtbot, window).model
    answers = Answers(monkeypatch, buttons=[B.Cancel, B.Discard])
    assert window.train() is None
    assert answers.questions[0][0] == "Replace the model"
    assert answers.questions[0][1].endswith("Training a new BPE replaces it. Save it first?")
    assert window.state.bpe is bpe
    assert window.corpus_pane.form.train_message.text() == "training not started: the model it would replace is kept"
    new = train(qtbot, window).model  # Discard: trains
    assert window.state.bpe is new and window.saving.unsaved == [new]
    # a SentencePiece training does not replace the BPE: nothing asked
    train(qtbot, window, "sp-bpe", vocab=400)
    assert len(answers.questions) == 2


def test_opening_a_bpe_over_the_unsaved_one_asks(qtbot, window, monkeypatch, tmp_path):
    bpe = train(qtbot, window).model
    other = tmp_path / "other.bpe"
    save_bpe(bpe, other)  # written by hand: the window's model stays unsaved
    answers = Answers(monkeypatch, buttons=[B.Cancel])
    worker = window.open_model(str(other))
    qtbot.waitUntil(lambda: worker.done and bool(answers.questions), timeout=WAIT)
    assert answers.questions[0][1].endswith("Other.bpe replaces it. Save it first?")
    assert window.state.bpe is bpe
    assert window.statusBar().currentMessage() == "other.bpe not opened: the BPE it would replace is kept"


def test_the_default_models_trained_at_startup_are_not_asked_about(qtbot, unanswered_questions):
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run()
    assert w.state.bpe is not None
    assert w.saving.unsaved == []
    w.show()
    assert w.close()
    assert unanswered_questions == []


def test_a_sentencepiece_model_from_the_training_dialog_counts_until_its_column_goes(qtbot, window):
    dlg = window.compare_pane.add_menu.open_sp_train_dialog()
    dlg.vocab_spin.setValue(400)
    with qtbot.waitSignal(dlg.trained, timeout=WAIT) as blocker:
        dlg.start_training()
    tok = blocker.args[0]
    assert window.state.tokenizers[-1] is tok
    assert window.saving.unsaved == [tok]
    window.compare_pane.remove_column(len(window.state.tokenizers) - 1)
    assert window.saving.unsaved == []


@pytest.mark.parametrize(
    ("files", "why"),
    [
        ({}, "no files in it"),
        ({"a.bin": b"\x00\xff\x01\x02"}, "1 file is refused (see Problems)"),
        ({"empty.txt": b""}, "1 file holds no text"),
        (  # every file counted, the refused and the empty one
            {"binary.bin": b"\x00\xff\x01\x02", "empty.txt": b""},
            "of its 2 files, 1 file is refused (see Problems) and 1 file holds no text",
        ),
    ],
)
def test_a_folder_with_nothing_readable_keeps_the_corpus(qtbot, window, tmp_path, files, why):
    folder = tmp_path / "data"
    folder.mkdir()
    for name, data in files.items():
        (folder / name).write_bytes(data)
    corpus, text = window.state.corpus, window.state.sample_text
    kept = corpus.files[0].name
    with qtbot.waitSignal(window.corpus_pane.load_failed, timeout=WAIT) as blocker:
        window.open_paths([str(folder)])
    message = f"nothing loaded from data: {why}; the corpus shown ({kept}) is kept"
    assert blocker.args[0] == message
    assert window.state.corpus is corpus and window.corpus_pane.corpus is corpus
    assert window.state.sample_text == text  # Compare keeps the text of the corpus it shows
    # said in the status bar and under Problems, not in a dialog over them; the label names the corpus kept
    assert window.last_error == "" and window.statusBar().currentMessage() == f"⚠ {message}"
    assert window.corpus_pane.file_list.load_status.text() == f"{kept} kept"
    problems = window.corpus_pane.file_list.problem_messages()
    assert problems[0] == message  # the kept corpus has no problems: the refused folder's come apart
    if len(files) == 1 and "a.bin" in files or "binary.bin" in files:
        name = "a.bin" if "a.bin" in files else "binary.bin"
        assert problems[1] == (  # the window names its own control, not a command-line flag
            f"    data/{name}: looks like a binary file (not UTF-8, NUL byte at offset 0); not loaded; "
            "to see it anyway, open its raw bytes (File ▸ Open raw bytes…)"
        )


def test_exporting_the_trained_bpe_counts_as_saved(qtbot, window, tmp_path, unanswered_questions):
    bpe = train(qtbot, window).model
    window.export_action.trigger()
    dlg = window.saving.export_dialog
    qtbot.waitUntil(lambda: dlg.check is not None, timeout=WAIT)
    dlg.set_format("gpt2")
    dlg.path_edit.setText(str(tmp_path))
    with qtbot.waitSignal(window.saving.saved, timeout=WAIT) as blocker:
        dlg.export_button.click()
    assert blocker.args == [bpe, [str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")]]
    assert window.saving.unsaved == []
    window.show()
    assert window.close()
    assert unanswered_questions == []


def test_a_wordpiece_trained_here_asks_at_quit_and_saves_both_ways(qtbot, window, monkeypatch, tmp_path):
    """A WordPiece trained in the window counts as unsaved; Save writes our file (read back
    with the same vocabulary) and File ▸ Save WordPiece… writes BERT's vocab.txt."""
    from tokexplorer.core.io import load_wordpiece

    result = train(qtbot, window, "wordpiece", vocab=400)
    wp = window.state.wordpiece
    assert result.model is wp and window.saving.unsaved == [wp]
    target = tmp_path / "w.wordpiece"
    answers = Answers(monkeypatch, buttons=[B.Save], paths=[(str(target), "tokexplorer WordPiece (*.wordpiece)")])
    assert window.saving.confirm_quit()
    assert answers.questions[0][1].startswith(
        f"This tokenizer was trained here and is not saved: {wp.name} (WordPiece, vocab 400)"
    )
    assert load_wordpiece(target).vocab == wp.vocab and window.saving.unsaved == []
    vocab = tmp_path / "vocab.txt"
    (tmp_path / "tokenizer_config.json").write_text('{"do_lower_case": "other"}', encoding="utf-8")
    statuses: list[str] = []
    window.state.status.connect(statuses.append)
    Answers(monkeypatch, paths=[(str(vocab), "BERT vocab.txt (*.txt)")])
    window.save_wp_action.trigger()
    assert vocab.read_text(encoding="utf-8").splitlines() == wp.vocab
    # the config another vocab.txt left there is written over, and the status line says so
    assert "; tokenizer_config.json there holds no tokenizer_class, do_lower_case='other', " in statuses[-1]
