"""A special-token refusal (policy "Raise error", text spelling ``<|endoftext|>``) says what the
user can do in the window, naming the Compare tab's "Special tokens:" choice by its labels, in
the Statistics tab (the failed row and the line above the table) and in the byte inspector (the
track, its cut list and its tooltip); the exported statistics stay in no front end's terms."""

from __future__ import annotations

import json

import pytest

from fixtures.stats import FILE_A, FILE_B, fixture_tokenizers
from tokexplorer.core.errors import SpecialTokenError
from tokexplorer.gui.panes.bytes_pane import BytesPane
from tokexplorer.gui.panes.stats_pane import StatsPane
from tokexplorer.gui.state import POLICY_CHOICES, AppState
from tokexplorer.gui.terms import WINDOW_SPECIAL_WAYS

WAIT = 30_000  # ms; ceiling for a worker, never asserted
NEUTRAL = "text contains the special token '<|endoftext|>'; encode it as its special id or as ordinary text instead"
WINDOW = (
    "text contains the special token '<|endoftext|>'; choose Special tokens: 'Special tokens' to encode it "
    "as its special id or 'Plain text + warning' to encode it as ordinary text"
)


@pytest.fixture(scope="module")
def toks():
    return fixture_tokenizers()


def test_the_window_wording_names_the_choice_by_its_labels():
    assert [label for label, _p in POLICY_CHOICES][:2] == ["Plain text + warning", "Special tokens"]
    assert str(SpecialTokenError("<|endoftext|>")) == NEUTRAL
    assert NEUTRAL.replace("encode it as its special id or as ordinary text instead", WINDOW_SPECIAL_WAYS) == WINDOW


def test_statistics_row_and_line_name_the_window_choice(qtbot, toks, tmp_path):
    state = AppState()
    state.set_sample_text(FILE_A + FILE_B)
    state.set_tokenizers(toks)
    state.set_special_policy("raise")
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.computed, timeout=WAIT) as blocker:
        assert pane.compute() is not None
    rows = blocker.args[0].rows()
    failed = [r for r, row in enumerate(rows) if row["error"]]
    assert [rows[r]["tokenizer"] for r in failed] == ["custom BPE", "tiktoken cl100k_base"]  # SP120 has no such token
    assert {rows[r]["error"] for r in failed} == {NEUTRAL}  # the statistics themselves: no front end's terms
    assert [pane.cell_text(r, "error") for r in failed] == [WINDOW, WINDOW]
    assert f"custom BPE: {WINDOW}" in pane.message.text() and NEUTRAL not in pane.message.text()
    pane.export(str(tmp_path / "s.json"), "json")
    with open(tmp_path / "s.json", encoding="utf-8") as fh:
        assert {r["error"] for r in json.load(fh)["rows"] if r["error"]} == {NEUTRAL}


def test_byte_inspector_track_names_the_window_choice(qtbot, toks):
    state = AppState()
    state.set_tokenizers(toks)
    state.set_special_policy("raise")
    pane = BytesPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.updated, timeout=WAIT):
        pane.show()
    with qtbot.waitSignal(pane.updated, timeout=WAIT):
        pane.set_text("hi <|endoftext|> there")
    errors = {tr.name: tr.error for tr in pane.report.tracks}
    assert errors == {"custom BPE": WINDOW, "tiktoken cl100k_base": WINDOW, "SP120": None}
    assert pane.track_error("tiktoken cl100k_base") == WINDOW
    tops = [pane.cuts_tree.topLevelItem(i).text(0) for i in range(pane.cuts_tree.topLevelItemCount())]
    assert f"tiktoken cl100k_base: ⚠ {WINDOW}" in tops
