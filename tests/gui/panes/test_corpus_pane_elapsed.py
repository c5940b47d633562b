"""While a training runs, the line under Train says how long it has run (SentencePiece
reports no stages: a busy bar alone for 20 s said nothing)."""

from __future__ import annotations

import time

import pytest

from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.state import AppState

WAIT = 60_000


@pytest.fixture
def pane(qtbot):
    p = CorpusPane(AppState())
    qtbot.addWidget(p)
    return p


def test_the_training_message_counts_the_seconds_and_stops_when_done(qtbot, pane, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("".join(f"line {i} of the notes, with words to learn\n" for i in range(400)), encoding="utf-8")
    with qtbot.waitSignal(pane.corpus_loaded, timeout=WAIT):
        pane.load_paths([str(path)])
    pane.form.set_algorithm("sp-unigram")
    pane.form.vocab_spin.setValue(60)
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT, raising=False):
        worker = pane.start_training()
        assert worker is not None
        assert pane.form.train_message.text() == "training SentencePiece unigram, vocab 60…"
        pane._started = time.perf_counter() - 12.4  # noqa: SLF001 - as if it had run 12 s
        pane._tick()  # noqa: SLF001 - what the 1 s timer calls
        assert pane.form.train_message.text() == "training SentencePiece unigram, vocab 60… 12 s"
    qtbot.waitUntil(lambda: not pane._running, timeout=WAIT)  # noqa: SLF001
    done = pane.form.train_message.text()
    pane._tick()  # noqa: SLF001 - a late tick changes nothing once it is done
    assert pane.form.train_message.text() == done and not done.endswith(" s…")
