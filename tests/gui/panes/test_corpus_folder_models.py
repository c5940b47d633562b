"""The Corpus tab opening a folder leaves its tokenizer model files out of the corpus and
says which, under the table and in the status line, as the command line does."""

from __future__ import annotations

import pytest

from fixtures.model_folder import SKIPPED_NOTE, TEXT_FILES, write_model_folder
from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.state import AppState

WAIT = 60_000  # ms; a ceiling for the worker, never asserted


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    return write_model_folder(tmp_path_factory.mktemp("gui") / "data")


def _pane(qtbot, stream_bytes: int | None = None) -> CorpusPane:
    pane = CorpusPane(AppState())
    qtbot.addWidget(pane)
    if stream_bytes is not None:
        pane.file_list.stream_bytes = stream_bytes
    return pane


@pytest.mark.parametrize("streamed", [False, True])
def test_opening_the_folder_reads_its_text_and_notes_the_models_left_out(qtbot, data, streamed):
    pane = _pane(qtbot, 1 if streamed else None)
    with qtbot.waitSignal(pane.corpus_loaded, timeout=WAIT) as loaded:
        pane.load_paths([str(data)])
    corpus = loaded.args[0]
    assert [f.name for f in corpus.files] == sorted(TEXT_FILES) and corpus.streamed == streamed
    lst = pane.file_list
    assert lst.note_messages()[0] == f"note: {SKIPPED_NOTE.format(d=data)}"
    assert lst.problem_messages() == []
    assert lst.problems_label.text().startswith("Problems: none · 1 note on what was opened (below)")
    assert lst.load_status.text() == f"7 files loaded; {SKIPPED_NOTE.format(d=data)}"


def test_a_folder_of_models_only_keeps_the_corpus_shown_and_says_why(qtbot, data, tmp_path):
    only = tmp_path / "only"
    only.mkdir()
    (only / "m.bpe").write_bytes((data / "x.bpe").read_bytes())
    pane = _pane(qtbot)
    with qtbot.waitSignal(pane.corpus_loaded, timeout=WAIT):
        pane.load_paths([str(data / "a.txt")])
    with qtbot.waitSignal(pane.file_list.load_failed, timeout=WAIT) as failed:
        pane.load_paths([str(only)])
    assert failed.args[0] == (
        f"nothing loaded from only: skipped 1 tokenizer model file in {only}/: m.bpe; the corpus shown (a.txt) is kept"
    )
