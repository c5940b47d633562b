"""Keeping Python's cyclic garbage collector from stalling the window.

A collection walks every container of its generations, every element of a large
list or dict included, with the interpreter lock held, in whichever thread
happened to allocate. While the workers built their tables for a 10 MB corpus,
full collections came one after another (each finding nothing to free) and took
0.05-0.3 s each; the window waited every time (``bench/desktop_journey.py``).

:func:`collector_paused` is what :class:`~tokexplorer.gui.workers.Worker` runs
its work in (not while the worker is paused): no collection while any worker
computes (the process-wide pause of ``core.bpe.gc_pause``, shared with training
and encoding). When the last one stops and the pause left at least a young
generation's worth of new containers alive (the next collection would walk
them), they are moved out of the collector's view (``gc.freeze()``) instead.
Frozen objects are still freed by reference counting when nothing refers to
them any more; only a reference cycle that was already garbage at the freeze
stays in memory (the collections above found none to free).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from tokexplorer.core.bpe.gc_pause import gc_paused


@contextmanager
def collector_paused() -> Iterator[None]:
    """No garbage collection inside (shared with other users, see the module);
    when the collector resumes and the pause left at least ``gc.get_threshold()[0]``
    new containers alive, they are frozen (``gc.freeze()``). Thread-safe; nested
    and concurrent uses share one pause."""
    try:
        with gc_paused():
            yield
    finally:
        if gc.isenabled() and gc.get_count()[0] >= gc.get_threshold()[0]:
            gc.freeze()
