"""One process-wide pause of Python's cyclic garbage collector, shared by
training and encoding (:func:`gc_paused`).

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
                gc.enable()

