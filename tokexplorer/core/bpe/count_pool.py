"""The worker processes of chunk counting (:mod:`tokexplorer.core.bpe.counting`):
how many, how they start, how jobs are grouped into tasks and how their tables
are summed as they come back.

>>> total = Counter({"a": 1}); merge_counts(total, Counter({"a": 2, "b": 1})); total
Counter({'a': 3, 'b': 1})
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
import time
from array import array
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

from tokexplorer.core.errors import Cancelled
from tokexplorer.core.types import Progress

POOL_TASK_BYTES = 1 << 24
"""Bytes of file ranges one worker task counts into one table (at most; less when
the files are too small to give every worker four tasks). One table per 16 MiB
instead of one per range makes the main process unpickle and add about half as
many entries (a range's made-up words and names recur in the next ranges)."""


def task_batches(sizes: Sequence[int], workers: int) -> list[list[int]]:
    """Group consecutive jobs (by index) into worker tasks of about
    :data:`POOL_TASK_BYTES`, or less so that each worker gets four tasks.

    >>> [len(b) for b in task_batches([1 << 20] * 40, 2)], len(task_batches([1 << 20] * 1000, 2))
    ([5, 5, 5, 5, 5, 5, 5, 5], 63)
    """
    target = min(POOL_TASK_BYTES, max(1, sum(sizes) // (4 * workers)))
    batches: list[list[int]] = []
    batch: list[int] = []
    batch_size = 0
    for i, size in enumerate(sizes):
        batch.append(i)
        batch_size += size
        if batch_size >= target:
            batches.append(batch)
            batch, batch_size = [], 0
    if batch:
        batches.append(batch)
    return batches


def start_method() -> str:
    """The start method of worker processes here: ``"fork"`` in a single-threaded process on Linux (the command line, a
    script): a forked worker is ready in milliseconds. ``"spawn"`` otherwise:
    forking a process that runs other threads (the GUI, which trains on a
    worker thread) can deadlock the child; spawned workers start a fresh
    interpreter and import only this module's light dependencies (~0.1 s)."""
    if (
        sys.platform == "linux"
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.current_thread() is threading.main_thread()
        and threading.active_count() == 1
        and "PySide6" not in sys.modules
    ):
        return "fork"
    return "spawn"


#: Niceness added to counting workers started by the window (Linux/macOS): with one busy
#: worker per core, the window's threads waited for a core while the training thread
#: held the GIL, and the event loop stalled 120-160 ms (1 GB folder, 2 cores).
WINDOW_WORKER_NICE = 5


#: Seconds between a worker's checks that the process that started it is alive.
PARENT_CHECK_S = 0.5


def exit_with_parent(every_s: float = PARENT_CHECK_S) -> threading.Thread:
    """Start a daemon thread that ends this process (``os._exit(1)``) once the process
    that started it is gone: a pool's workers wait for tasks forever otherwise, each
    holding its memory, when their parent is killed (a window's training process
    terminated at quit, a command line stopped with SIGKILL). Returns the thread.
    """
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every_s)
        os._exit(1)

    thread = threading.Thread(target=watch, name="exit-with-parent", daemon=True)
    thread.start()
    return thread


def child_of_parent(increment: int) -> None:
    """Start a child process of ours (a counting worker, the window's training or folder-scanning
    process): it ends with its parent (:func:`exit_with_parent`) and runs ``increment`` nicer
    (no change for 0, nor where niceness is not supported or not allowed)."""
    exit_with_parent()
    if increment:
        try:
            os.nice(increment)
        except (AttributeError, OSError):
            pass


def _start_worker(increment: int, then: Callable | None, args: tuple) -> None:
    """Pool initializer: :func:`child_of_parent` with ``increment``, then ``then(*args)`` when given."""
    child_of_parent(increment)
    if then is not None:
        then(*args)


def worker_pool(workers: int, *, initializer: Callable | None = None, initargs: tuple = ()) -> ProcessPoolExecutor:
    """The one way worker processes are made: ``workers`` processes started by
    :func:`start_method`, at niceness :data:`WINDOW_WORKER_NICE` in the window (its own
    threads come first), each running ``initializer(*initargs)`` once (a module-level
    function; its arguments picklable) before its first task. Used for chunk counting and
    for the corpus statistics' SentencePiece encoding
    (:mod:`tokexplorer.core.analysis.stats_processes`)."""
    nicer = WINDOW_WORKER_NICE if "PySide6" in sys.modules else 0
    context = multiprocessing.get_context(start_method())
    return ProcessPoolExecutor(workers, context, initializer=_start_worker, initargs=(nicer, initializer, initargs))


def default_workers() -> int:
    """Worker processes to use: the number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def merge_counts(total: Counter, part: Counter) -> None:
    """Add the chunk counts ``part`` into ``total`` (in place).

    >>> total = Counter({"a": 1}); merge_counts(total, Counter({"a": 2, "b": 1})); total
    Counter({'a': 3, 'b': 1})
    """
    if not total:
        total.update(part)
    else:
        get = total.get
        for k, v in part.items():
            total[k] = get(k, 0) + v


def pack_counts(counts: Counter) -> list[tuple[bytes, bytes]] | Counter:
    r"""A worker's table as flat buffers, in segments of :data:`MERGE_STEP` chunks: each
    the chunks' UTF-8 (lone surrogates kept) joined by NUL, and their counts as 64-bit
    integers; ``counts`` itself when a chunk holds a NUL.

    Unpickling a table of a few hundred thousand str keys holds the GIL for 50-150 ms
    in the pool's result thread (measured on a 1 GB folder), which froze the window
    while it trained; bytes objects unpickle in a copy, and :func:`merge_packed`
    rebuilds the keys a segment at a time, the GIL free to switch between segments.

    >>> pack_counts(Counter({"ab": 2, " é": 1}))[0][0]
    b'ab\x00 \xc3\xa9'
    """
    if not counts:
        return counts
    keys, values = list(counts), list(counts.values())
    segments = []
    for start in range(0, len(keys), MERGE_STEP):
        some = keys[start : start + MERGE_STEP]
        joined = "\0".join(some)
        if joined.count("\0") != len(some) - 1:
            return counts
        packed_values = array("q", values[start : start + MERGE_STEP]).tobytes()
        segments.append((joined.encode("utf-8", "surrogatepass"), packed_values))
    return segments


#: Chunks per segment of :func:`pack_counts` (the GIL can switch between segments).
MERGE_STEP = 20_000


def merge_packed(total: Counter, part: list[tuple[bytes, bytes]] | Counter) -> None:
    r"""Add a table made by :func:`pack_counts` into ``total`` (in place).

    >>> total = Counter({"a": 1}); merge_packed(total, pack_counts(Counter({"a": 2, "\udcff": 1}))); total
    Counter({'a': 3, '\udcff': 1})
    """
    if isinstance(part, Counter):
        merge_counts(total, part)
        return
    get = total.get
    for packed_keys, packed_values in part:
        keys = packed_keys.decode("utf-8", "surrogatepass").split("\0")
        values = array("q")
        values.frombytes(packed_values)
        if not total:
            dict.update(total, zip(keys, values))
            continue
        for k, v in zip(keys, values):
            total[k] = get(k, 0) + v


def _packed(fn: Callable, *args) -> tuple:
    """``fn(*args)`` in a worker process, its table packed (:func:`pack_counts`)."""
    counts, n = fn(*args)
    return pack_counts(counts), n


def pool_map(
    jobs: list[tuple],
    fn: Callable,
    workers: int,
    sizes: list[int],
    phase_total: int,
    cancel: Callable[[], bool] | None,
    *,
    unit: str,
) -> Generator[Progress, None, tuple[Counter, int]]:
    """Run ``fn(*job)`` for every job in ``workers`` processes, two tasks per
    worker in flight, and sum the ``(Counter, n_special)`` they return.

    Args:
        jobs: the argument tuples (picklable).
        fn: a module-level function returning ``(Counter of chunk -> count, int)``.
        workers: processes to start.
        sizes: each job's size in the unit of the progress (bytes or characters).
        phase_total: the sum of ``sizes``.
        cancel: polled every 0.1 s; True stops the pool and raises :class:`Cancelled`.
        unit: what ``sizes`` count (``"bytes"`` or ``"characters"``), for the progress.

    Yields:
        Progress("pre-tokenizing", size done, ``phase_total``, ``unit``) as jobs finish.

    Returns:
        ``(Counter chunk -> count, special token spellings cut out)``.

    Raises:
        BrokenProcessPool: a worker could not start or died (callers count in
            their own process instead); whatever ``fn`` raises.
    """
    counts: Counter = Counter()
    n_special = 0
    done = 0
    with worker_pool(workers) as pool:
        pending: dict[Future, int] = {}
        it = iter(range(len(jobs)))
        try:
            for _ in range(workers * 2):
                i = next(it, None)
                if i is None:
                    break
                pending[pool.submit(_packed, fn, *jobs[i])] = i
            while pending:
                finished, _ = wait(list(pending), timeout=0.1, return_when=FIRST_COMPLETED)
                if cancel is not None and cancel():
                    raise Cancelled("training cancelled")
                for fut in finished:
                    i = pending.pop(fut)
                    c, n = fut.result()
                    merge_packed(counts, c)
                    n_special += n
                    done += sizes[i]
                    nxt = next(it, None)
                    if nxt is not None:
                        pending[pool.submit(_packed, fn, *jobs[nxt])] = nxt
                yield Progress("pre-tokenizing", done, phase_total, unit=unit)
        except BaseException:
            for fut in pending:
                fut.cancel()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
    return counts, n_special
