"""One process-wide pause of Python's cyclic garbage collector, shared by
training, encoding and the window's workers (:func:`gc_paused`).

>>> import gc
>>> with gc_paused():
...     gc.isenabled()
False
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_GC_LOCK = threading.Lock()
_GC_USERS = 0  # callers inside the pause
_GC_WAS_ENABLED = True  # the collector's state when the pause began


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while training or encoding.

    Training builds millions of small lists and tuples but no reference
    cycles; a full collection over them takes hundreds of milliseconds with
    the GIL held, which would freeze the GUI thread and slow training.
    Reference counting still frees everything. Nested or concurrent users
    share one pause.

    When the pause ends and left at least a young generation's worth of new
    containers alive (``gc.get_count()[0] >= gc.get_threshold()[0]``: the next
    collection would walk them, and every later one again), they are moved out
    of the collector's view (``gc.freeze()``): the window's workers leave large
    tables behind, which full collections walked for 0.05-0.3 s each, finding
    nothing to free (``bench/desktop_journey.py``). Frozen objects are still freed
    by reference counting; only a reference cycle already garbage at the freeze
    stays in memory.
    """
    global _GC_USERS, _GC_WAS_ENABLED
    with _GC_LOCK:
        if _GC_USERS == 0:
            _GC_WAS_ENABLED = gc.isenabled()
            gc.disable()
        _GC_USERS += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_USERS -= 1
            if _GC_USERS == 0 and _GC_WAS_ENABLED:
                if gc.get_count()[0] >= gc.get_threshold()[0]:
                    gc.freeze()
                gc.enable()

