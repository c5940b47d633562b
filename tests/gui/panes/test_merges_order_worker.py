"""The merge table's filter runs in a worker for a large table (a newer filter supersedes an older
one, the table keeps its rows till the mask lands) and its sort is one numpy argsort of integer
keys (the token columns' keys built by the index worker): the rows and their order are the ones
the Python passes gave, ties in rank order both ways. On a BPE trained here on 3,888 bytes."""

from __future__ import annotations

import threading

import pytest
import regex
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import QSignalBlocker, Qt

from tokexplorer.core.analysis import fire_index
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import Cancelled
from tokexplorer.gui.models import merge_model
from tokexplorer.gui.models.merge_columns import COL_BYTES, COL_COUNT, COL_FIRES, COL_LEFT, COL_MERGED, COL_RANK
from tokexplorer.gui.models.merge_filter import plain_text
from tokexplorer.gui.models.merge_model import MergeTableModel
from tokexplorer.gui.models.merge_order import place_of_values
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets import merge_filtering
from tokexplorer.gui.widgets.merge_filter_controls import FILTERING

TEXT = (
    "The quick brown fox jumps over the lazy dog while the queen sees a beautiful rainbow. "
    "Our eerie audio queue is quiet; you agree to see the sequoia trees in the area. "
    "Louis ate a bowl of gooey oatmeal, and the cooing pigeons queued outside. "
    "你们好，世界。我们在这里学习中文。 Ça va? Voilà, où êtes-vous? "
) * 12
SAMPLE = "the queen ate gooey oatmeal in the quiet area, 你们好"

#: The merges whose merged token's text holds three vowels in a row (regex [aeiou]{3}), rank order.
THREE_VOWELS = [
    (17, b" queu"), (18, b" queue"), (50, b" Louis"), (71, b" beaut"), (72, b" beauti"),
    (73, b" beautif"), (74, b" beautifu"), (75, b" beautiful"), (80, b" cooin"), (81, b" cooing"),
    (90, b" gooe"), (91, b" gooey"), (121, b" quee"), (122, b" queen"), (123, b" queued"),
    (125, b" quie"), (127, b" quiet"), (136, b" sequoi"), (137, b" sequoia"),
]  # fmt: skip


@pytest.fixture(scope="module")
def bpe():
    assert len(TEXT.encode()) == 3888
    model, _ = train_bpe(TEXT, vocab_size=420, pattern="gpt2")
    assert len(model.merges) == 164
    return model


def _ranks(model: MergeTableModel) -> list[int]:
    return [model.merge_at(r).rank for r in range(model.rowCount())]


def _python_order(bpe, column: int, descending: bool, fires=None) -> list[int]:
    """The order the model's Python sort gave: sorted() over each merge's raw value, stable."""
    merges = bpe.merges
    raw = {
        COL_RANK: lambda m: m.rank,
        COL_LEFT: lambda m: bpe.vocab[m.left],
        COL_MERGED: lambda m: m.merged,
        COL_BYTES: lambda m: len(m.merged),
        COL_COUNT: lambda m: m.count,
        COL_FIRES: lambda m: fires[m.rank],
    }[column]
    keys = [raw(m) for m in merges]
    return sorted(range(len(merges)), key=keys.__getitem__, reverse=descending)


#: Short byte strings, many with NULs: numpy pads with NULs, so b"a" and b"a\0" differ only by length there.
_BYTES = st.lists(st.sampled_from([0, 0, 1, 97, 255]), max_size=4).map(bytes)


@given(st.lists(_BYTES, max_size=40))
def test_places_of_byte_strings_sort_as_python_sorts_them(values):
    distinct = sorted(set(values))
    assert place_of_values(values).tolist() == [distinct.index(v) for v in values]


@pytest.mark.parametrize("column", [COL_RANK, COL_LEFT, COL_MERGED, COL_BYTES, COL_COUNT, COL_FIRES])
@pytest.mark.parametrize("descending", [False, True])
def test_the_numpy_sort_gives_the_python_order_ties_in_rank_order(qtbot, bpe, column, descending):
    model = MergeTableModel()
    model.set_merges(bpe.merges, bpe.vocab)
    fires = fire_index(bpe, SAMPLE).counts
    model.set_fire_counts(fires)
    model.sort(column, Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder)
    assert _ranks(model) == _python_order(bpe, column, descending, fires)


def test_sorting_by_count_and_bytes_gives_these_rows(qtbot, bpe):
    model = MergeTableModel()
    model.set_merges(bpe.merges, bpe.vocab)
    model.sort(COL_COUNT, Qt.SortOrder.AscendingOrder)  # counts fall with the rank: ascending reorders
    ranks = _ranks(model)
    assert [bpe.merges[r].count for r in ranks[:3]] == [12, 12, 12] and ranks[:3] == [31, 32, 33]
    assert ranks[-5:] == [2, 3, 4, 0, 1]  # counts 72 72 72 84 84: the ties keep rank order
    model.sort(COL_BYTES, Qt.SortOrder.DescendingOrder)  # 10 bytes each, in rank order
    assert [bpe.merges[r].merged for r in _ranks(model)[:2]] == [b" beautiful", " 你们好".encode()]


def test_the_same_sort_again_is_skipped_but_new_fire_counts_are_sorted_anew(qtbot, bpe):
    model = MergeTableModel()
    model.set_merges(bpe.merges, bpe.vocab)
    first, second = fire_index(bpe, SAMPLE).counts, fire_index(bpe, "quiet queue, gooey oatmeal").counts
    model.set_fire_counts(first)
    model.sort(COL_FIRES, Qt.SortOrder.DescendingOrder)
    assert _ranks(model) == _python_order(bpe, COL_FIRES, True, first)
    with qtbot.assertNotEmitted(model.layoutChanged):  # as sortByColumn's second sort
        model.sort(COL_FIRES, Qt.SortOrder.DescendingOrder)
    model.set_fire_counts(second)
    model.sort(COL_FIRES, Qt.SortOrder.DescendingOrder)
    assert _ranks(model) == _python_order(bpe, COL_FIRES, True, second) != _python_order(bpe, COL_FIRES, True, first)


def test_the_token_columns_keys_come_from_the_index_worker(qtbot, bpe, monkeypatch):
    pane = MergesPane(AppState())
    qtbot.addWidget(pane)
    pane.set_bpe(bpe)
    qtbot.waitUntil(lambda: pane.model.has_search_index, timeout=10_000)
    computed: list[int] = []
    original = merge_model.sort_key
    monkeypatch.setattr(merge_model, "sort_key", lambda col, *a, **k: computed.append(col) or original(col, *a, **k))
    for col in (COL_LEFT, COL_MERGED):
        pane.view.sortByColumn(col, Qt.SortOrder.AscendingOrder)
        assert _ranks(pane.model) == _python_order(bpe, col, False)
    assert computed == []  # no byte strings sorted on the GUI thread: the worker's keys


@pytest.fixture
def pane(qtbot, bpe):
    """The pane on the trained BPE, every active filter run in a worker (as for 200,000 merges)."""
    p = MergesPane(AppState())
    qtbot.addWidget(p)
    p._fire_timer.setInterval(10**9)  # noqa: SLF001 - no Fires job: only the filter's workers run
    p.filtering.sync_records = p.filtering.sync_index_records = 0
    p.set_bpe(bpe)
    return p


def _type(pane, text: str, *, regex_mode: bool = False) -> None:
    """The filter box says ``text`` (no debounce timer started): the filter waits for apply_filter."""
    with QSignalBlocker(pane.filter_edit), QSignalBlocker(pane.regex_check):
        pane.filter_edit.setText(text)
        pane.regex_check.setChecked(regex_mode)


def _spy_filter_mask(monkeypatch, hold: threading.Event | None = None) -> list[tuple[bool, str]]:
    """Record (on the GUI thread?, outcome) of each filter_mask the pane runs; with ``hold``, each
    waits for it before filtering."""
    calls: list[tuple[bool, str]] = []
    original = merge_filtering.filter_mask

    def spy(*args, **kwargs):
        on_gui = threading.current_thread() is threading.main_thread()
        if hold is not None:
            assert hold.wait(10)
        try:
            out = original(*args, **kwargs)
        except Cancelled:
            calls.append((on_gui, "cancelled"))
            raise
        calls.append((on_gui, "done"))
        return out

    monkeypatch.setattr(merge_filtering, "filter_mask", spy)
    return calls


def test_the_regex_filter_runs_in_a_worker_and_lands_after_its_signal(qtbot, pane, bpe, monkeypatch):
    hold = threading.Event()
    calls = _spy_filter_mask(monkeypatch, hold)
    _type(pane, "[aeiou]{3}", regex_mode=True)
    pane.apply_filter()
    # the GUI thread went on: the table still shows every merge, the count says it is filtering
    assert pane.filtering.pending and pane.model.rowCount() == 164
    assert pane.count_label.text() == f"164 merges (164 shown) · {FILTERING}"
    with qtbot.waitSignal(pane.filtering.applied, timeout=10_000):
        hold.set()
    assert calls == [(False, "done")]  # on a worker thread
    assert [(r, bpe.merges[r].merged) for r in _ranks(pane.model)] == THREE_VOWELS
    oracle = [m.rank for m in bpe.merges if regex.search("[aeiou]{3}", plain_text(m.merged))]
    assert _ranks(pane.model) == oracle
    assert pane.count_label.text() == "164 merges (19 shown)" and not pane.filtering.pending


def test_a_newer_filter_supersedes_the_older_and_a_sort_meanwhile_is_kept(qtbot, pane, bpe, monkeypatch):
    hold = threading.Event()
    calls = _spy_filter_mask(monkeypatch, hold)
    _type(pane, "qu")
    pane.apply_filter()
    first = pane.filtering.job.worker
    _type(pane, "[aeiou]{3}", regex_mode=True)
    pane.apply_filter()  # cancels "qu": its mask never lands
    pane.view.sortByColumn(COL_BYTES, Qt.SortOrder.DescendingOrder)  # while the mask is computed
    assert pane.model.rowCount() == 164
    with qtbot.waitSignal(pane.filtering.applied, timeout=10_000):
        hold.set()
    qtbot.waitUntil(lambda: first.done, timeout=10_000)
    assert sorted(calls) == [(False, "cancelled"), (False, "done")]
    by_bytes = sorted(THREE_VOWELS, key=lambda rm: len(rm[1]), reverse=True)
    assert [(r, bpe.merges[r].merged) for r in _ranks(pane.model)] == by_bytes
    assert by_bytes[:3] == [(75, b" beautiful"), (74, b" beautifu"), (73, b" beautif")]


def test_a_cleared_or_refused_filter_drops_the_pending_one(qtbot, pane, monkeypatch):
    hold = threading.Event()
    _spy_filter_mask(monkeypatch, hold)
    _type(pane, "qu")
    pane.apply_filter()
    job = pane.filtering.job.worker
    _type(pane, "")
    pane.apply_filter()  # nothing to compute: at once
    assert not pane.filtering.pending and pane.model.rowCount() == 164
    _type(pane, "(", regex_mode=True)
    pane.apply_filter()
    assert pane.count_label.text().startswith("bad regex")
    hold.set()
    qtbot.waitUntil(lambda: job.done, timeout=10_000)
    assert pane.model.rowCount() == 164 and not pane.model.filter_active


def test_a_new_model_is_filtered_in_the_worker_as_the_controls_say(qtbot, pane, bpe):
    _type(pane, "[aeiou]{3}", regex_mode=True)
    pane.apply_filter()
    qtbot.waitUntil(lambda: not pane.filtering.pending, timeout=10_000)
    assert len(_ranks(pane.model)) == 19
    smaller, _ = train_bpe(TEXT, vocab_size=340, pattern="gpt2")  # the first 84 merges of the same training
    with qtbot.waitSignal(pane.filtering.applied, timeout=10_000):
        pane.set_bpe(smaller)
        assert pane.model.rowCount() == 84  # shown unfiltered till the worker's mask lands
    assert [(r, smaller.merges[r].merged) for r in _ranks(pane.model)] == [rm for rm in THREE_VOWELS if rm[0] < 84]
