"""An error the tab in view already says beside its control gets no dialog (a modal box
took the user's next clicks: changing the vocab size and pressing Train again did nothing
until it was closed); other errors still get one. Both reach the status bar."""

from __future__ import annotations

WAIT = 10_000


def _with_corpus(qtbot, window, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("the cat sat on the mat\n" * 20, encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.corpus_pane.load_paths([str(path)])
    return window.corpus_pane


def test_a_refused_vocab_size_is_said_under_train_without_a_dialog(qtbot, window, tmp_path):
    pane = _with_corpus(qtbot, window, tmp_path)
    window.show_error_dialogs = True
    window.tabs.setCurrentWidget(pane)
    pane.form.set_algorithm("bpe")
    pane.form.vocab_spin.setValue(100)
    with qtbot.waitSignal(window.state.error, timeout=WAIT) as blocker:
        pane.start_training()
    message = blocker.args[0]
    assert (
        message
        == pane.form.train_message.text()
        == "byte-level BPE needs at least 256 base tokens: vocab_size 100 is too small; use at least 256"
    )
    assert window._dialog is None  # noqa: SLF001 - no box waits for a click
    assert window.last_error == message and window.statusBar().currentMessage() == f"⚠ {message}"


def test_the_same_error_from_another_tab_gets_a_dialog(qtbot, window, tmp_path):
    pane = _with_corpus(qtbot, window, tmp_path)
    window.show_error_dialogs = True
    window.tabs.setCurrentWidget(window.merges_pane)  # the Train message is not in view
    pane.form.set_algorithm("bpe")
    pane.form.vocab_spin.setValue(100)
    with qtbot.waitSignal(window.state.error, timeout=WAIT):
        pane.start_training()
    box = window._dialog  # noqa: SLF001
    assert (
        box is not None
        and box.text() == "byte-level BPE needs at least 256 base tokens: vocab_size 100 is too small; use at least 256"
    )
    box.close()
