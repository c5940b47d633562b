"""The merge trees' index is built off the GUI thread with the search index, so the first
click on a merge does not build it there (450 ms for 200,000 merges)."""

from __future__ import annotations

from tokexplorer.core.analysis import MergeIndex
from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState

TEXT = "the cat sat on the mat; 你们好，世界。 🌊🌊 " * 30


def test_the_tree_index_comes_from_the_worker_and_gives_the_same_trees(qtbot, monkeypatch):
    bpe, _ = train_bpe(TEXT, vocab_size=320, pattern="gpt2")
    state = AppState()
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    pane._fire_timer.setInterval(10**9)  # noqa: SLF001 - the Fires job builds an index of its own
    built_here: list[int] = []
    original = MergeIndex.__init__

    def counting_init(self, *args, **kwargs):
        import threading

        built_here.append(threading.current_thread() is threading.main_thread())
        original(self, *args, **kwargs)

    monkeypatch.setattr(MergeIndex, "__init__", counting_init)
    state.bpe = bpe
    pane.set_bpe(bpe)
    pane._fire_timer.stop()  # noqa: SLF001
    qtbot.waitUntil(lambda: pane.model.has_search_index and pane.merge_index() is not None, timeout=10_000)
    assert built_here == [False]  # once, on a worker thread
    rank = len(bpe.merges) - 1
    assert pane.jump_to_rank(rank)
    assert built_here == [False]  # the click built nothing
    merge = bpe.merges[rank]
    assert pane.merge_index().tree(merge.new_id) == MergeIndex(bpe.merges, bpe.vocab).tree(merge.new_id)
