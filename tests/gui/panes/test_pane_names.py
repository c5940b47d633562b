"""The compare columns and the statistics rows of two model files called
``tokenizer.model`` in different folders name them apart (issue 11, item 7)."""

from __future__ import annotations

import os

import pytest

from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.backends import load_tokenizer
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.panes.stats_pane import StatsPane
from tokexplorer.gui.state import AppState

WAIT = 30_000
TEXT = "good day, hello world"
HEADERS = [
    "a/tokenizer.model (SentencePiece) · bpe model · nmt_nfkc · 120 pieces",
    "b/tokenizer.model (SentencePiece) · bpe model · identity · 120 pieces",
]


@pytest.fixture()
def model_files(tmp_path, sp_models):
    paths = []
    for folder, model in (("a", "SP120"), ("b", "SPID")):
        (tmp_path / folder).mkdir()
        sp_models[model].save(tmp_path / folder / "tokenizer.model")
        paths.append(tmp_path / folder / "tokenizer.model")
    return paths


def reference_counts(paths) -> list[int]:
    """Token counts of TEXT by the sentencepiece library itself."""
    import sentencepiece as spm

    return [len(spm.SentencePieceProcessor(model_file=str(p)).encode(TEXT)) for p in paths]


def test_compare_headers_name_two_files_of_one_name_apart(qtbot, model_files):
    state = AppState()
    state.set_sample_text(TEXT)
    pane = ComparePane(state)
    qtbot.addWidget(pane)
    for k, path in enumerate(model_files, 1):  # as the "Add column" menu loads them
        pane.add_menu.add_spec(f"sp:{path}")
        qtbot.waitUntil(lambda k=k: len(pane.columns) == k and pane.columns[-1].total_tokens is not None, timeout=WAIT)
    assert [c.header.text() for c in pane.columns] == HEADERS
    assert [c.name for c in pane.columns] == [h.split(" · ")[0] for h in HEADERS]
    assert [c.total_tokens for c in pane.columns] == reference_counts(model_files)
    if os.environ.get("TOKEXPLORER_SHOT"):  # a picture to look at: TOKEXPLORER_SHOT=path.png
        pane.resize(1000, 420)
        pane.show()
        qtbot.waitExposed(pane)
        pane.grab().save(os.environ["TOKEXPLORER_SHOT"])
    with qtbot.waitSignal(pane.tokenized, timeout=WAIT):
        pane.columns[0].remove_button.click()
    # alone, the file needs no folder
    assert [c.header.text() for c in pane.columns] == [
        "tokenizer.model (SentencePiece) · bpe model · identity · 120 pieces"
    ]


def test_statistics_rows_name_two_files_of_one_name_apart(qtbot, model_files):
    from tokexplorer.gui.startup import builtin_sample_corpus

    state = AppState()
    state.set_tokenizers([load_tokenizer(f"sp:{p}") for p in model_files])
    corpus = builtin_sample_corpus(TEXT)
    state.set_corpus(corpus)
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.computed, timeout=WAIT) as blocker:
        assert pane.compute() is not None
    totals = [(r["tokenizer"], r["tokens"]) for r in blocker.args[0].rows() if r["group_kind"] == "total"]
    names = ["a/tokenizer.model (SentencePiece)", "b/tokenizer.model (SentencePiece)"]
    assert totals == list(zip(names, reference_counts(model_files)))
    assert [pane.cell_text(i, "tokenizer") for i in range(pane.table.rowCount())][::3] == [n for n, _ in totals]
    assert [n for n, _v in pane.chart.series] == [n for n, _ in totals]
    assert blocker.args[0].rows() == compute_stats(state.tokenizers, [(f.name, f.text) for f in corpus.files]).rows()
