"""After a long job the worker hands the memory it freed back to the system (glibc's
malloc_trim, off the GUI thread); a short one does not pay for it."""

from __future__ import annotations

import ctypes

from tokexplorer.gui import heap, workers
from tokexplorer.gui.workers import Worker


def _run(qtbot, monkeypatch, heavy_s: float) -> list[bool]:
    calls: list[bool] = []
    monkeypatch.setattr(workers, "HEAVY_JOB_S", heavy_s)
    monkeypatch.setattr(workers, "release_freed_memory", lambda: calls.append(True) or True)
    worker = Worker(lambda cancel: [bytearray(1 << 20) for _ in range(8)] and 42)
    with qtbot.waitSignal(worker.signals.finished, timeout=10_000):
        worker.start()
    assert worker.result == 42
    return calls


def test_a_long_job_releases_what_it_freed(qtbot, monkeypatch):
    assert _run(qtbot, monkeypatch, 0.0) == [True]


def test_a_short_job_does_not(qtbot, monkeypatch):
    assert _run(qtbot, monkeypatch, 3600.0) == []


def test_release_calls_the_c_librarys_trim(monkeypatch):
    assert hasattr(ctypes.CDLL(None), "malloc_trim")  # the Linux machines the window runs on (glibc)
    assert heap._TRIM is not None  # noqa: SLF001 - found at import
    asked = []
    monkeypatch.setattr(heap, "_TRIM", lambda pad: asked.append(pad) or 1)
    assert heap.release_freed_memory() is True and asked == [0]  # all free memory, no padding kept
    monkeypatch.setattr(heap, "_TRIM", None)
    assert heap.release_freed_memory() is False  # no glibc: nothing to do
