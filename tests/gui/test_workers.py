"""Workers held while their pane is hidden (issue 16.1: work only for what is on screen)."""

from __future__ import annotations

import threading

from PySide6.QtWidgets import QTabWidget, QWidget

from tokexplorer.core.types import Progress
from tokexplorer.gui.workers import LatestRequest, pause_while_hidden


def _steps(gate: threading.Event, seen: list[int], entered: threading.Event | None = None):
    """A job of three steps; each step waits for ``gate``; ``entered`` is set when it begins."""

    def work(cancel):
        if entered is not None:
            entered.set()
        for i in range(3):
            gate.wait(5)
            seen.append(i)
            yield Progress("step", i + 1, 3)
        return "done"

    return work


def test_a_paused_job_waits_and_a_resumed_one_finishes(qtbot):
    owner = QWidget()
    qtbot.addWidget(owner)
    job = LatestRequest(owner)
    gate, seen, results = threading.Event(), [], []
    gate.set()
    job.pause()
    worker = job.start(_steps(gate, seen), on_result=results.append)
    assert worker.paused
    assert not worker.wait(0.3) and seen == []  # held before its first step
    job.resume()
    qtbot.waitUntil(lambda: results == ["done"], timeout=5000)
    assert seen == [0, 1, 2]


def test_cancel_wakes_a_paused_job(qtbot):
    owner = QWidget()
    qtbot.addWidget(owner)
    job = LatestRequest(owner)
    gate = threading.Event()
    gate.set()
    job.pause()
    worker = job.start(_steps(gate, []), on_result=lambda _r: None)
    job.cancel()
    assert worker.wait(5)
    assert worker.result is None


def test_pane_job_held_while_its_tab_is_hidden(qtbot):
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    pane, other = QWidget(), QWidget()
    tabs.addTab(pane, "pane")
    tabs.addTab(other, "other")
    tabs.show()
    qtbot.waitExposed(tabs)
    job = LatestRequest(pane)
    pause_while_hidden(pane, [job])
    tabs.setCurrentWidget(other)  # the pane is hidden: its job is held
    gate, seen, results = threading.Event(), [], []
    gate.set()
    worker = job.start(_steps(gate, seen), on_result=results.append)
    assert not worker.wait(0.3) and seen == []
    tabs.setCurrentWidget(pane)  # shown again: it goes on
    qtbot.waitUntil(lambda: results == ["done"], timeout=5000)
    gate.clear()  # the next job holds at its first step until the gate opens
    seen.clear()
    results.clear()
    entered = threading.Event()
    worker = job.start(_steps(gate, seen, entered), on_result=results.append)
    assert entered.wait(5)  # running, held by the gate inside its first step
    tabs.setCurrentWidget(other)
    gate.set()
    assert not worker.wait(0.3)  # it stopped at its next progress report
    assert seen == [0]
    tabs.setCurrentWidget(pane)
    qtbot.waitUntil(lambda: results == ["done"], timeout=5000)


def test_held_job_of_a_deleted_pane_is_cancelled(qtbot):
    pane = QWidget()
    job = LatestRequest(pane)
    pause_while_hidden(pane, [job])
    job.pause()
    gate = threading.Event()
    gate.set()
    worker = job.start(_steps(gate, []), on_result=lambda _r: None)
    assert not worker.wait(0.2)
    pane.deleteLater()
    qtbot.waitUntil(lambda: worker.done, timeout=5000)  # woken and stopped, its thread free
    assert worker.result is None


def test_a_window_sizes_the_pool_for_its_held_jobs(qtbot):
    """Each pane's job held while hidden sleeps in a pool thread; a window made
    without the app's start-up (an embedding, a test) must size the pool too, or a
    few held jobs fill a 2-core machine's pool and a corpus read waits for ever."""
    from PySide6.QtCore import QThreadPool

    from tokexplorer.gui.main_window import MainWindow
    from tokexplorer.gui.workers import MIN_POOL_THREADS

    pool = QThreadPool.globalInstance()
    pool.setMaxThreadCount(2)
    w = MainWindow()
    qtbot.addWidget(w)
    assert pool.maxThreadCount() >= MIN_POOL_THREADS
