"""The shared pause of the garbage collector (issue 16): no collection inside it,
and what a pause leaves alive in quantity is frozen instead of walked again."""

from __future__ import annotations

import gc
import threading

from tokexplorer.core.bpe.gc_pause import gc_paused


def test_a_pause_that_leaves_many_containers_freezes_them():
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    with gc_paused():
        assert not gc.isenabled()
        kept = [[i] for i in range(5 * gc.get_threshold()[0])]  # containers left alive
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen + len(kept)
    assert gc.get_count()[0] < gc.get_threshold()[0]


def test_a_pause_that_leaves_little_freezes_nothing():
    gc.collect(0)  # an empty young generation
    frozen = gc.get_freeze_count()
    with gc_paused():
        kept = [[1], [2]]
    assert gc.isenabled() and kept
    assert gc.get_freeze_count() == frozen


def test_concurrent_users_share_one_pause():
    inside, leave = threading.Event(), threading.Event()

    def other() -> None:
        with gc_paused():
            inside.set()
            leave.wait(10)

    t = threading.Thread(target=other)
    t.start()
    inside.wait(10)
    with gc_paused():
        pass
    assert not gc.isenabled()  # the other user is still inside
    leave.set()
    t.join(10)
    assert gc.isenabled()
