"""The Train progress bar always says what the training is doing: refused, asking, running,
done, cancelled (a newcomer saw ``done in 0.1 s`` beside "vocab_size 100 is too small", and
``idle`` while SentencePiece's "too large… Train with 118?" question was up)."""

from __future__ import annotations

import re

import pytest

from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.state import AppState

WAIT = 60_000  # ms; ceiling for a worker, never asserted
TEXT = "the cat sat on the mat\nthe dog ate the log\n" * 10


@pytest.fixture
def pane(qtbot, tmp_path):
    p = CorpusPane(AppState())
    qtbot.addWidget(p)
    path = tmp_path / "small.txt"
    path.write_text(TEXT, encoding="utf-8")
    with qtbot.waitSignal(p.corpus_loaded, timeout=WAIT):
        p.load_paths([str(path)])
    return p


def _train(qtbot, pane, **kw):
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT):
        assert pane.start_training(**kw) is not None
    assert re.fullmatch(r"done in \d+\.\d s", pane.form.progress.format())


def test_a_refused_vocab_size_clears_the_last_done(qtbot, pane):
    _train(qtbot, pane, algorithm="bpe", vocab_size=260)
    assert pane.start_training(algorithm="bpe", vocab_size=100) is None
    assert pane.form.progress.format() == "not trained"
    assert pane.form.progress.value() == 0
    assert pane.form.train_message.text() == (
        "byte-level BPE needs at least 256 base tokens: vocab_size 100 is too small; use at least 256"
    )
    assert pane.form.train_button.isEnabled()


def test_the_bar_waits_while_the_too_large_question_is_up(qtbot, pane, monkeypatch):
    seen: list[tuple[str, str, str]] = []

    def answer(title, text):
        seen.append((pane.form.progress.format(), pane.form.train_message.text(), text))
        return False

    monkeypatch.setattr(pane, "_confirm", answer)
    with qtbot.waitSignal(pane.training_failed, timeout=WAIT) as blocker:
        pane.start_training(algorithm="sp-unigram", vocab_size=300)
    note = blocker.args[0]
    assert note == "vocab 300 is too large for this corpus; SentencePiece can make at most 19 pieces"
    assert seen == [
        ("waiting for your answer", f"{note}: train with 19? (waiting for your answer)", f"{note}. Train with 19?")
    ]
    # declined: not trained, and the message says why
    assert pane.form.progress.format() == "not trained"
    assert pane.form.train_message.text() == note


def test_a_question_answered_yes_runs_then_says_done(qtbot, pane, monkeypatch):
    monkeypatch.setattr(pane, "_confirm", lambda title, text: True)
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT) as blocker:
        pane.start_training(algorithm="sp-unigram", vocab_size=300)
    assert re.fullmatch(r"done in \d+\.\d s", pane.form.progress.format())
    assert pane.form.train_message.text() == blocker.args[0].message


def test_declining_to_replace_an_unsaved_model_says_not_trained(qtbot, pane):
    _train(qtbot, pane, algorithm="bpe", vocab_size=260)
    asked: list[str] = []
    pane.before_training = lambda algorithm: asked.append(pane.form.progress.format()) or False
    assert pane.start_training(algorithm="bpe", vocab_size=270) is None
    assert asked == ["waiting for your answer"]
    assert pane.form.progress.format() == "not trained"
    assert pane.form.train_message.text() == "training not started: the model it would replace is kept"
