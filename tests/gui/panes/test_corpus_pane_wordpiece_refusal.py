"""The Corpus tab's WordPiece training refuses a vocab size too small for the corpus's
alphabet as soon as the core knows it, and says so under the Train button."""

from __future__ import annotations

import pytest

from tokexplorer.core.wordpiece import trainer
from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.state import AppState

WAIT = 60_000  # ms; generous ceiling for a worker, never asserted
PIECES = "alphabet pieces (first characters and ## continuations)"
MAY = "its words may need more)"
CYRILLIC = [chr(c) for c in range(0x430, 0x450)]  # а..я


@pytest.fixture
def state():
    return AppState()


@pytest.fixture
def pane(qtbot, state):
    p = CorpusPane(state)
    qtbot.addWidget(p)
    return p


def _train_refused(qtbot, pane, state, path) -> tuple[str, list, list]:
    """Load ``path``, train WordPiece with the form's vocab size: (failure, progress reports, errors shown)."""
    with qtbot.waitSignal(pane.corpus_loaded, timeout=WAIT):
        pane.load_paths([str(path)])
    pane.form.set_algorithm("wordpiece")
    progress, errors = [], []
    pane.training_progress.connect(lambda p: progress.append((p.phase, p.done, p.total)))
    state.error.connect(errors.append)
    with qtbot.waitSignal(pane.training_failed, timeout=WAIT) as failed:
        assert pane.start_training() is not None
    return failed.args[0], progress, errors


def test_chinese_corpus_with_the_default_vocab_is_refused_before_counting(qtbot, pane, state, tmp_path):
    chars = [chr(0x4E00 + i) for i in range(4200)]
    path = tmp_path / "zh.txt"
    path.write_text("\n".join("".join(chars[i : i + 60]) for i in range(0, 4200, 60)) + "\n", encoding="utf-8")
    assert pane.form.vocab_spin.value() == 4096  # what the form proposes
    message, progress, errors = _train_refused(qtbot, pane, state, path)
    assert message == (
        "vocab_size 4,096 is too small: before counting the words, the corpus's distinct characters already need "
        f"at least 4,200 {PIECES} + 5 special tokens; use at least 4,205 (counting the words may show more)"
    )
    assert progress == []  # not a character pre-tokenized
    assert pane.form.train_message.text() == f"training failed: {message}"
    assert errors == [f"training failed: {message}"]
    assert pane.form.progress.format() == "failed"
    assert pane.form.vocab_spin.value() == 4096  # the setting is the user's: not changed
    assert state.wordpiece is None and not pane.is_training()


def test_refused_after_the_block_whose_words_need_more(qtbot, pane, state, tmp_path, monkeypatch):
    monkeypatch.setattr(trainer, "BLOCK_CHARS", 1000)  # blocks of 1,000 characters, cut at the next line start
    line = " ".join(a + b for a, b in zip(CYRILLIC, CYRILLIC[1:] + CYRILLIC[:1]))  # 32 letters, 64 pieces
    path = tmp_path / "ru.txt"
    path.write_text((line + "\n") * 50, encoding="utf-8")  # 96 characters a line, 4,800
    pane.form.vocab_spin.setValue(60)
    message, progress, _ = _train_refused(qtbot, pane, state, path)
    assert message == (
        "vocab_size 60 is too small: counting stopped at 22% of the corpus (1,056 of 4,800 characters), whose words "
        f"already need 64 {PIECES} + 5 special tokens; use at least 69 (the rest may need more)"
    )
    assert progress == [("pre-tokenizing", 1056, 4800)]  # the first block only
    assert pane.form.train_message.text() == f"training failed: {message}"


def test_the_form_says_the_least_vocab_size_the_characters_need_and_leaves_the_box_alone(qtbot, pane, tmp_path):
    chars = [chr(0x4E00 + i) for i in range(4200)]
    path = tmp_path / "zh.txt"
    path.write_text("\n".join("".join(chars[i : i + 60]) for i in range(0, 4200, 60)) + "\nab\n", encoding="utf-8")
    hint = pane.form.vocab_hint
    with qtbot.waitSignal(pane.corpus_loaded, timeout=WAIT):
        pane.load_paths([str(path)])
    assert hint.isHidden()  # byte-level BPE: nothing to say
    pane.form.set_algorithm("wordpiece")
    assert hint.isHidden()  # until a worker has collected the corpus's characters
    qtbot.waitUntil(lambda: not hint.isHidden(), timeout=WAIT)
    assert hint.text() == "this corpus needs at least 4,207 (4,202 characters + 5 special tokens; " + MAY
    pane.form.specials_edit.setText("[UNK] <s>")
    assert hint.text() == "this corpus needs at least 4,204 (4,202 characters + 2 special tokens; " + MAY
    pane.form.specials_edit.setText("<s>")  # [UNK] is added: WordPiece needs it
    assert hint.text() == "this corpus needs at least 4,204 (4,202 characters + 2 special tokens; " + MAY
    pane.form.set_algorithm("sp-bpe")
    assert hint.isHidden()
    pane.form.set_algorithm("wordpiece")  # the characters are kept: shown at once
    assert hint.text() == "this corpus needs at least 4,204 (4,202 characters + 2 special tokens; " + MAY
    assert pane.form.vocab_spin.value() == 4096
