"""Tokens no merge builds (as in Llama 3's ranks) in the merge table, the merge tree and
the encode replay: a hand-built rank file where ``abab`` is a token that rank-order
merging never makes (``ba`` merges before ``ab``)."""

from __future__ import annotations

import base64

import pytest
import tiktoken
import tiktoken.load
from PySide6.QtCore import QLocale, Qt

from tokexplorer.core.bpe import BPE
from tokexplorer.core.io import read_tiktoken_file
from tokexplorer.core.text import pattern_string
from tokexplorer.gui.models.merge_model import (
    COL_BYTES,
    COL_LEFT,
    COL_MERGED,
    COL_RANK,
    MergeTableModel,
    RawRole,
)
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.panes.replay_pane import ReplayPane
from tokexplorer.gui.state import AppState

# ids 0-255: the bytes; 256 "ba", 257 "ab", 258 "abab" (no merge builds it), 259 "xy"
EXTRA = {b"ba": 256, b"ab": 257, b"abab": 258, b"xy": 259}
TEXT = "abab ababa xy"


@pytest.fixture
def rank_file(tmp_path):
    ranks = {bytes([b]): b for b in range(256)} | EXTRA
    path = tmp_path / "hand.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()))
    return path


@pytest.fixture
def bpe(rank_file):
    return BPE.from_mergeable_ranks(read_tiktoken_file(rank_file), pat_str=pattern_string("gpt2"), name="hand")


def rows(model):
    return [[model.data(model.index(r, c)) for c in range(7)] for r in range(model.rowCount())]


def test_our_engine_and_tiktoken_agree_on_the_hand_built_ranks(rank_file, bpe):
    enc = tiktoken.Encoding(
        name="hand",
        pat_str=pattern_string("gpt2"),
        mergeable_ranks=tiktoken.load.load_tiktoken_bpe(str(rank_file)),
        special_tokens={},
    )
    assert enc.encode(TEXT) == [258, 32, 97, 256, 256, 32, 259]
    assert bpe.encode(TEXT) == enc.encode(TEXT)
    assert bpe.unbuilt_tokens == [258]


def test_table_lists_the_unbuilt_token_among_the_merges(qtbot, qtmodeltester, bpe):
    model = MergeTableModel()
    model.set_merges(bpe.merges, bpe.vocab, unbuilt=bpe.unbuilt_tokens)
    qtmodeltester.check(model)
    assert rows(model) == [
        ["0", "b", "a", "ba", "2", "", ""],
        ["1", "a", "b", "ab", "2", "", ""],
        ["", "whole chunk", "only", "abab", "4", "", ""],
        ["2", "x", "y", "xy", "2", "", ""],
    ]
    assert model.merge_at(2) is None and model.is_whole_chunk_row(2)
    assert model.token_at(2) == (258, b"abab")
    assert model.token_at(3) == (259, b"xy")
    assert [model.data(model.index(2, c), RawRole) for c in (COL_RANK, COL_LEFT, COL_MERGED, COL_BYTES)] == [
        -1,
        -1,
        b"abab",
        4,
    ]
    assert model.data(model.index(2, COL_MERGED), Qt.ItemDataRole.ToolTipRole) == (
        "token 258 · 4 bytes: 61 62 61 62 · no merge builds it: rank-order merging of its bytes ends "
        "with other parts, so it is emitted only when a whole chunk (pre-tokenizer piece) is this token"
    )
    assert model.count_text() == "3 merges + 1 whole-chunk token (4 shown)"
    model.sort(COL_BYTES, Qt.SortOrder.DescendingOrder)
    assert [model.data(model.index(r, COL_MERGED)) for r in range(4)] == ["abab", "ba", "ab", "xy"]
    model.sort(COL_RANK, Qt.SortOrder.DescendingOrder)
    assert [model.data(model.index(r, COL_MERGED)) for r in range(4)] == ["xy", "abab", "ab", "ba"]
    qtmodeltester.check(model)


@pytest.mark.parametrize(
    ("needle", "mode", "whole", "shown"),
    [
        ("", "text", True, ["abab"]),
        ("whole chunk", "text", False, ["abab"]),
        ("ab", "text", False, ["ab", "abab"]),
        ("ab", "text", True, ["abab"]),
        ("61 62 61", "hex", False, ["abab"]),
        ("^a", "regex", False, ["ab", "abab"]),
        ("x", "text", True, []),
    ],
)
def test_filters_find_the_unbuilt_token(qtbot, bpe, needle, mode, whole, shown):
    model = MergeTableModel()
    model.set_merges(bpe.merges, bpe.vocab, unbuilt=bpe.unbuilt_tokens)
    model.set_filter(needle, mode=mode, whole_chunk_only=whole)
    assert [model.data(model.index(r, COL_MERGED)) for r in range(model.rowCount())] == shown


def test_pane_shows_the_row_its_filter_and_a_tree_that_says_whole_chunk_only(qtbot, bpe):
    state = AppState()
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    state.set_bpe(bpe)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 4)
    assert not pane.whole_check.isHidden()
    assert pane.count_label.text() == "3 merges + 1 whole-chunk token (4 shown)"
    assert pane.title_label.text().endswith("· 1 token no merge builds (only emitted whole)")
    # the flag keeps its spaces; token text shows spaces as ␣
    delegate = pane.view.itemDelegateForColumn(COL_LEFT)
    from PySide6.QtWidgets import QStyleOptionViewItem

    option = QStyleOptionViewItem()
    delegate.initStyleOption(option, pane.model.index(2, COL_LEFT))
    assert option.text == "whole chunk"
    assert delegate.displayText(" ab", QLocale()) == "␣ab"

    pane.whole_check.setChecked(True)
    assert pane.shown_count() == 1
    assert pane.count_label.text() == "3 merges + 1 whole-chunk token (1 shown)"
    messages: list[str] = []
    state.status.connect(messages.append)
    pane.view.select_row(0)
    assert pane.tree.tree is None
    assert pane.tree_label.text() == (
        "token 258 «abab» (4 bytes) is built by no merge: rank-order merging of its bytes ends with "
        "other parts, so the encoder emits it only when a whole chunk (pre-tokenizer piece) is this "
        "token, as tiktoken does"
    )
    assert messages[-1] == "token 258 (61 62 61 62): no merge builds it; emitted only whole"
    assert pane.selected_rank() is None
    # a token asked for from another pane (double-click in Compare) says the same
    state.token_tree_requested.emit(b"abab", "")
    assert pane.tree_label.text().startswith("token 258 «abab» (4 bytes) is built by no merge")


def test_trained_model_has_no_whole_chunk_rows(qtbot, cat_hat_bpe, bpe):
    state = AppState()
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    state.set_bpe(bpe)
    qtbot.waitUntil(lambda: pane.model.rowCount() == 4)  # merges recovered in a worker
    pane.whole_check.setChecked(True)
    assert pane.shown_count() == 1
    state.set_bpe(cat_hat_bpe)  # the filter it cannot show is turned off
    assert pane.whole_check.isHidden() and not pane.whole_check.isChecked()
    n = len(cat_hat_bpe.merges)
    assert pane.count_label.text() == f"{n} merges ({n} shown)"


def test_encode_replay_says_the_chunk_is_one_token_no_merge_builds(qtbot, bpe):
    state = AppState()
    state.set_bpe(bpe)
    pane = ReplayPane(state)
    qtbot.addWidget(pane)
    enc = pane.encode
    enc.text_edit.setText("abab ab")
    enc.refresh_chunks()
    enc.chunk_combo.setCurrentIndex(0)
    assert enc.chunk_combo.currentData() == "abab"
    assert enc.whole_token == 258
    assert [s.pieces for s in enc.steps] == [(b"a", b"b", b"a", b"b"), (b"a", b"ba", b"b")]
    enc.controls.set_step(1)
    assert enc.label.text() == (
        "Done after 1 merges: 3 tokens. No adjacent pair is a token any more. But the whole chunk «abab» "
        "is token 258, which no merge builds: the encoder (like tiktoken) emits a chunk that is a token "
        "whole, so this chunk is that one token."
    )
    assert bpe.encode("abab") == [258]
    enc.chunk_combo.setCurrentIndex(1)
    assert enc.chunk_combo.currentData() == " ab"
    assert enc.whole_token is None
    enc.controls.set_step(0)
    assert "whole chunk" not in enc.label.text()
