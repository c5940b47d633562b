"""The Fires column of the merge table says "counting…" while the Compare text is encoded
(a blank cell reads as "fires 0 times"), is filled as soon as the counts come, is counted in
a worker (never on the GUI thread), and is counted anew, the old job cancelled, when the
Compare text changes."""

from __future__ import annotations

import threading

from tokexplorer.gui.models.merge_model import COL_FIRES, COUNTING
from tokexplorer.gui.panes import merges_pane
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState

WAIT = 10_000  # ms; ceiling for the worker, never asserted


def _fires_column(pane: MergesPane, rows: int = 4) -> list[str]:
    return [pane.model.data(pane.model.index(r, COL_FIRES)) for r in range(rows)]


def test_fires_say_counting_until_the_counts_come_then_are_filled(qtbot, cat_hat_bpe, monkeypatch):
    threads: list[threading.Thread] = []
    real = merges_pane.fire_index

    def fire_index(*args, **kwargs):
        threads.append(threading.current_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(merges_pane, "fire_index", fire_index)
    state = AppState()
    state.sample_text = "the cat in the hat, 你们好"
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    pane.fire_job.pause()  # hold the count: what the user sees while a big text is encoded
    state.set_bpe(cat_hat_bpe)
    assert pane.model.fires_counting
    assert _fires_column(pane) == [COUNTING] * 4 == ["counting…"] * 4
    assert pane.model.data(pane.model.index(0, COL_FIRES), 3) == "counting: the Compare text is being encoded"
    # the column is wide enough for the word (it is not cut to "cou…")
    fm = pane.view.fontMetrics()
    assert pane.view.columnWidth(COL_FIRES) >= fm.horizontalAdvance(COUNTING)
    pane.fire_job.resume()
    qtbot.waitUntil(lambda: pane.model.fire_counts is not None, timeout=WAIT)
    assert not pane.model.fires_counting
    assert _fires_column(pane) == ["2", "2", "2", "1"]  # at, he, the, ␣the in "the cat in the hat, …"
    assert threads and all(t is not threading.main_thread() for t in threads)


def test_a_new_compare_text_cancels_the_count_and_counts_anew(qtbot, cat_hat_bpe):
    state = AppState()
    state.sample_text = "the cat in the hat, 你们好"
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    state.set_bpe(cat_hat_bpe)
    qtbot.waitUntil(lambda: pane.model.fire_counts is not None, timeout=WAIT)
    assert pane.jump_to_rank(0)
    pane.fire_job.pause()
    state.set_sample_text("the cat")
    first = pane.fire_job.worker
    assert first is None  # the count of the old text is cancelled at once, not after the pause
    assert _fires_column(pane) == ["counting…"] * 4  # the old text's 2, 2, 2, 1 are gone at once
    qtbot.waitUntil(lambda: pane.fire_job.worker is not None, timeout=WAIT)
    state.set_sample_text("the hat")  # typed on: the count just started is cancelled
    assert pane.fire_job.worker is None
    pane.fire_job.resume()
    qtbot.waitUntil(lambda: pane.model.fire_counts is not None, timeout=WAIT)
    assert pane.fire_sites_text() == "the hat"
    # merges at, he, the, ␣the: once each in "the hat", and no " the" (the text starts with it)
    assert _fires_column(pane) == ["1", "1", "1", "0"]
