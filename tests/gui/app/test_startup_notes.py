"""Opening the window on the user's own files never greets them with a modal
error: the startup SentencePiece model adapts to long lines and says so, and
problems become notes in the window (issue 12, point 8)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from tokexplorer.core.backends.sentencepiece.errors import LinesTooLongError
from tokexplorer.gui.main_window import MainWindow

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted

WORDS = "low lower lowest newer newest wider widest the day cat hat mat world"


@pytest.fixture
def window(qtbot):
    w = MainWindow()  # error dialogs left on, as for a user
    qtbot.addWidget(w)
    return w


def _open_boxes() -> list[QMessageBox]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()]


def test_long_lines_raise_max_sentence_length_without_a_dialog(qtbot, window, tmp_path):
    long_line = " ".join([WORDS] * 120)  # 8,279 bytes, over the default 4,192
    assert len(long_line.encode()) == 8279
    path = tmp_path / "long.txt"
    path.write_text((WORDS + "\n") * 30 + long_line + "\n", encoding="utf-8")
    errors: list[str] = []
    window.state.error.connect(errors.append)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(path)])
    assert errors == [] and _open_boxes() == [] and window.show_error_dialogs
    sp = next(t for t in window.state.tokenizers if t.family == "sentencepiece")
    assert sp.vocab_size > 0
    message = window.corpus_pane.form.train_message.text()
    assert "max_sentence_length raised from 4,192 to 8,279 bytes to fit the longest line" in message


def test_a_line_over_the_ceiling_is_skipped_and_said(qtbot, window, tmp_path):
    huge = " ".join([WORDS] * 1000)  # 68,999 bytes, over the 65,536 ceiling
    path = tmp_path / "huge.txt"
    path.write_text((WORDS + "\n") * 30 + huge + "\n", encoding="utf-8")
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(path)])
    assert _open_boxes() == []
    assert any(t.family == "sentencepiece" for t in window.state.tokenizers)
    message = window.corpus_pane.form.train_message.text()
    assert (
        "max_sentence_length raised from 4,192 to 65,536 bytes; 1 line longer than 65,536 bytes "
        "skipped (longest: 68,999 bytes)"
    ) in message


def test_startup_problems_are_notes_not_dialogs(qtbot, window, tmp_path, monkeypatch):
    # a failure in the startup SentencePiece training is a note in the Corpus tab
    # and the status bar; dialogs come back once startup is done
    from tokexplorer.core import backends

    refusal = LinesTooLongError(1, 9000, 3, 4192)

    def refuse(*_args, **_kwargs):
        raise refusal

    monkeypatch.setattr(backends, "train_sentencepiece", refuse)  # (the training looks it up there)
    path = tmp_path / "doc.txt"
    path.write_text((WORDS + "\n") * 30, encoding="utf-8")
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(path)])
    assert _open_boxes() == []
    message = window.corpus_pane.form.train_message.text()
    assert message.endswith(f"\n⚠ training failed: {refusal}")
    assert message.startswith("At startup tokexplorer trained a byte-level BPE (vocab ")
    assert window.show_error_dialogs  # restored: what the user asks for later may still open one
    window.state.error.emit("later problem")
    assert [b.text() for b in _open_boxes()] == ["later problem"]
    for b in _open_boxes():
        b.close()


def test_a_file_with_crlf_says_so_and_keeps_it(qtbot, window, tmp_path):
    path = tmp_path / "dos.txt"
    path.write_bytes(b"low lower\r\nnewer newest\r\n")
    messages: list[str] = []
    window.state.status.connect(messages.append)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(path)])
    assert window.state.sample_text == "low lower\r\nnewer newest\r\n"
    assert window.compare_pane.editor.real_text() == "low lower\r\nnewer newest\r\n"
    assert any(m.endswith("Compare shows dos.txt (2 CRLF line endings, kept as they are)") for m in messages)
    assert window.compare_pane.line_endings.summary_label.text() == "Line endings: 2 CRLF (kept as is)"
