"""Chunk counting on a Dask cluster: the corpus-sized stage of training, on many machines.

The files are cut into byte ranges at safe points (the jobs of
:func:`tokexplorer.core.bpe.counting.file_jobs`, the same ones the local
process pool counts) while this process connects to the cluster (or starts a
local one). Consecutive ranges are grouped into a few tasks per worker thread
(:func:`plan_tasks`); each Dask worker reads its ranges from the files itself,
decodes and counts them one after another
(:func:`~tokexplorer.core.bpe.counting.count_file_ranges`) into one table, and
this process adds the tables up as they come back. The counts are those of
counting the files here, so merges trained from them are the same.

A worker that meets bytes that do not decode does not stop: it reports the range
(:class:`RangesReport`) with each file's line-end counts, and counts the rest.
:func:`count_files_dask` turns the first report into the one-line error of counting
here; :func:`count_files_dask_checked` returns them all, so that this process needs to
check only each file's start before counting (``count --dask``,
:mod:`tokexplorer.core.io.checked_counting`) instead of reading every byte itself.

Every worker must see the files at the same paths as this process (a shared or
copied folder) and have tokexplorer installed (``pip install 'tokexplorer[dask]'``).
Dask (``dask[distributed]``) is an optional dependency, imported only when counting on it.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import sys
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tokexplorer.core.bpe.count_pool import start_method
from tokexplorer.core.bpe.counting import (
    FileRange,
    count_range_text,
    default_workers,
    file_jobs,
    merge_counts,
    range_text,
    undecodable_message,
)
from tokexplorer.core.errors import BackendUnavailableError, Cancelled, CorpusError, InputError
from tokexplorer.core.types import Progress

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "LOCAL", "RangesReport", "count_files_dask", "count_files_dask_checked", "count_ranges_reported", "plan_tasks",
]  # fmt: skip

#: The address that starts a ``distributed.LocalCluster`` on this machine instead.
LOCAL = "local"

#: Tasks per worker thread: enough that a slow worker does not hold up the end,
#: few enough that each table sent back sums many ranges.
TASKS_PER_THREAD = 4

#: The most bytes one task counts (its ranges, one after another, into one table).
MAX_TASK_BYTES = 64 << 20

#: Seconds to wait for a first worker when the scheduler has none yet.
WORKER_WAIT_S = 60.0

#: Where worker processes cannot be forked from this process (the window, which runs
#: threads; not Linux), :data:`LOCAL` starts its worker as threads of this process below
#: this many bytes in all: ready in about 0.1 s, where processes from a fork server take
#: 0.7 s to start on two cores, more than counting 10 MiB takes. The threads share one
#: GIL (the standard-library twin of a built-in pattern never releases it), so they count
#: at about the speed of one core; above this size worker processes finish sooner.
LOCAL_THREADS_MAX_BYTES = 64 << 20


@contextmanager
def _numpy_hidden(hide: bool) -> Iterator[None]:
    """While inside, ``import numpy`` raises ImportError (when ``hide``; NumPy not imported yet)."""
    if not hide:
        yield
        return
    sys.modules["numpy"] = None  # type: ignore[assignment]  # the import system's "not available"
    try:
        yield
    finally:
        if "numpy" in sys.modules and sys.modules["numpy"] is None:
            del sys.modules["numpy"]


def _distributed():
    """The ``distributed`` module, imported for a client.

    On a first import, NumPy is hidden from it when this process has not imported
    NumPy (the command line): ``distributed`` imports it only to allocate the
    buffers of large messages without zeroing them, and falls back to a
    ``bytearray`` without it; a client receiving tables of chunk counts never needs
    it, and importing it is 0.1 s of the 0.35 s ``import distributed`` takes. The
    objects of the import (about 55,000 containers, alive till the process ends)
    are then moved out of the garbage collector's view (``gc.freeze()``): every
    full collection while counting walked them, and the ones at interpreter exit
    took 0.05-0.1 s (measured here).

    Raises:
        BackendUnavailableError: Dask is not installed.
    """
    imported = sys.modules.get("distributed")
    if imported is not None:
        return imported
    try:
        try:
            with _numpy_hidden("numpy" not in sys.modules):
                import distributed
        except ImportError:  # not installed, or a version that needs NumPy after all
            import distributed
    except ImportError:
        raise BackendUnavailableError(
            "counting on Dask needs the dask extra: pip install 'tokexplorer[dask]'"
        ) from None
    gc.freeze()
    return distributed


def local_start(total_bytes: int) -> str:
    """How :data:`LOCAL` starts its workers for a corpus of ``total_bytes`` bytes.

    Returns:
        ``"fork"``: one single-threaded worker process per core, forked from this
        process (a command line or script on Linux with no other thread running:
        :func:`~tokexplorer.core.bpe.count_pool.start_method`; two start in about
        0.15 s, as they inherit the imported ``distributed``). Otherwise
        ``"threads"`` below :data:`LOCAL_THREADS_MAX_BYTES` (one worker in this
        process, a thread per core), else ``"forkserver"`` (or ``"spawn"`` where
        there is no fork server): worker processes started fresh, about 0.7 s for two.
    """
    if start_method() == "fork":
        return "fork"
    if total_bytes < LOCAL_THREADS_MAX_BYTES:
        return "threads"
    return "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"


def _connect(address: str, stack: ExitStack, *, local: str = "forkserver") -> Client:
    """A ``distributed.Client`` of the scheduler at ``address`` (``"tcp://host:8786"``),
    or of a ``LocalCluster`` when ``address`` is :data:`LOCAL`, started as ``local``
    says (:func:`local_start`). Closing it (and shutting the local cluster down) is
    left on ``stack``. Runs on a thread while the files are planned.

    Raises:
        BackendUnavailableError: Dask is not installed.
        InputError: no scheduler answers at ``address`` (within 10 s), or it has
            no worker (within :data:`WORKER_WAIT_S`).
    """
    distributed = _distributed()
    if address == LOCAL and local == "threads":
        cluster = distributed.LocalCluster(
            n_workers=1, threads_per_worker=default_workers(), processes=False,
            dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
        )  # fmt: skip
        stack.callback(cluster.close)
        client = distributed.Client(cluster)
        stack.callback(client.close)
        return client
    if address == LOCAL:
        import dask

        # Workers forked from one fork server start and stop in about half the time of
        # spawned ones (2.4 s against 4-5.7 s for two, measured here); forked from this
        # process, in 0.15 s. The scheduler's health page on a free port (8787 may be
        # taken). Closed by close(), not "with": the stack is left on another thread.
        with dask.config.set({"distributed.worker.multiprocessing-method": local}):
            cluster = distributed.LocalCluster(
                n_workers=default_workers(), threads_per_worker=1, processes=True,
                dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"},
            )  # fmt: skip
        stack.callback(cluster.close)
        client = distributed.Client(cluster)
        stack.callback(client.close)
        return client
    try:
        client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"no Dask scheduler at {address}: {str(exc).strip().splitlines()[0]}") from None
    stack.callback(client.close)
    try:
        client.wait_for_workers(1, timeout=WORKER_WAIT_S)
    except TimeoutError:
        raise InputError(
            f"the Dask scheduler at {address} has no workers (start some: dask worker {address})"
        ) from None
    return client


@dataclass(slots=True)
class RangesReport:
    """What a worker task found in its ranges (:func:`count_ranges_reported`), or the sum of
    all tasks' (:func:`count_files_dask_checked`).

    Attributes:
        counts: chunk -> count over the ranges that decode.
        n_special: special token spellings cut out of them.
        line_ends: path -> ``[LF, CRLF, CR]`` line ends in those ranges (ranges are cut after
            a line feed, so a CRLF never straddles two and the sums are the file's).
        undecodable: path -> ``(absolute byte offset, reason, codec)`` of the first bytes
            that do not decode (the lowest offset met).
        failed: ``(path, start)`` of every range that does not decode (it is not counted).
    """

    counts: Counter = field(default_factory=Counter)
    n_special: int = 0
    line_ends: dict[str, list[int]] = field(default_factory=dict)
    undecodable: dict[str, tuple[int, str, str]] = field(default_factory=dict)
    failed: set[tuple[str, int]] = field(default_factory=set)

    def add(self, other: RangesReport) -> None:
        """Add ``other``'s findings to these."""
        merge_counts(self.counts, other.counts)
        self.n_special += other.n_special
        for path, ends in other.line_ends.items():
            mine = self.line_ends.setdefault(path, [0, 0, 0])
            mine[:] = [a + b for a, b in zip(mine, ends)]
        for path, found in other.undecodable.items():
            if path not in self.undecodable or found[0] < self.undecodable[path][0]:
                self.undecodable[path] = found
        self.failed |= other.failed

    def error(self, path: str) -> str:
        """The one-line message of ``path``'s first undecodable bytes, as counting here says it."""
        offset, reason, codec = self.undecodable[path]
        return undecodable_message(path, codec, offset, reason)


def count_ranges_reported(jobs: Sequence[FileRange]) -> RangesReport:
    """Count several file ranges into one table (a worker task), reporting rather than
    raising where bytes do not decode, and counting each file's line ends.

    Raises:
        OSError: a file cannot be read.
    """
    report = RangesReport()
    for job in jobs:
        try:
            text = range_text(job)
        except UnicodeDecodeError as exc:
            found = (job.start + exc.start, exc.reason, job.encoding)
            report.add(RangesReport(undecodable={job.path: found}, failed={(job.path, job.start)}))
            continue
        report.n_special += count_range_text(job, text, into=report.counts)[1]
        ends = report.line_ends.setdefault(job.path, [0, 0, 0])
        cr = text.count("\r")  # most texts hold none: then one more count only
        crlf = text.count("\r\n") if cr else 0
        ends[0] += text.count("\n") - crlf
        ends[1] += crlf
        ends[2] += cr - crlf
    return report


def plan_tasks(sizes: Sequence[int], threads: int) -> list[range]:
    """Group consecutive ranges into tasks: about :data:`TASKS_PER_THREAD` tasks per
    worker thread, none over :data:`MAX_TASK_BYTES` unless one range is.

    Args:
        sizes: the ranges' sizes in bytes, in order.
        threads: worker threads on the cluster (at least 1 is assumed).

    Returns:
        for each task, the indices of its ranges (consecutive, together covering all).

    >>> tasks = plan_tasks([1 << 20] * 10, threads=2)  # 10 MiB on 2 threads: a range a task
    >>> len(tasks), tasks[0], tasks[-1]
    (10, range(0, 1), range(9, 10))
    >>> tasks = plan_tasks([1 << 20] * 100, threads=2)  # 100 MiB: 12 ranges a task
    >>> len(tasks), tasks[0], tasks[-1]
    (9, range(0, 12), range(96, 100))
    """
    target = min(MAX_TASK_BYTES, sum(sizes) // (TASKS_PER_THREAD * max(1, threads)))
    tasks: list[range] = []
    first, held = 0, 0
    for i, size in enumerate(sizes):
        if i > first and held + size > target:
            tasks.append(range(first, i))
            first, held = i, 0
        held += size
    if first < len(sizes):
        tasks.append(range(first, len(sizes)))
    return tasks


def count_files_dask(
    paths: Sequence[str | os.PathLike],
    *,
    address: str,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    encoding: str | Sequence[str] = "utf-8",
    errors: str | Sequence[str] = "strict",
    cancel: Callable[[], bool] | None = None,
) -> Generator[Progress, None, tuple[Counter, int]]:
    """Count chunks over files on a Dask cluster, yielding progress.

    Args:
        paths: text files (readable at these paths on every worker).
        address: the scheduler's address, or :data:`LOCAL` for a local cluster.
        pattern, special_tokens, encoding, errors: as
            :func:`tokexplorer.core.bpe.counting.count_files` (``errors`` also one per path).
        cancel: polled as results arrive; True cancels the remaining work.

    Yields:
        Progress("pre-tokenizing", bytes done, total bytes).

    Returns:
        ``(Counter chunk -> count, special token spellings cut out)``, equal to
        what :func:`~tokexplorer.core.bpe.counting.count_files` returns.

    Raises:
        BackendUnavailableError: Dask is not installed.
        InputError: no scheduler at ``address``, or no worker joined it.
        CorpusError: a file cannot be read or decoded (found on a worker; the message is
            the one counting here gives: :func:`~tokexplorer.core.bpe.counting.undecodable_message`).
        Cancelled: ``cancel()`` returned True.

    An example on a file ``a.txt`` holding ``ab ab ab`` and a line break (not
    run with the doctests: it starts a cluster of worker processes)::

        >>> from tokexplorer.core.bpe import run
        >>> counts, n_special = run(count_files_dask(["a.txt"], address="local"))  # doctest: +SKIP
        >>> sorted(counts.items()), n_special  # doctest: +SKIP
        ([('\\n', 1), (' ab', 2), ('ab', 1)], 0)
    """
    plan = dict(pattern=pattern, special_tokens=special_tokens, encoding=encoding, errors=errors)
    report, _ = yield from _count(paths, address, plan, cancel=cancel, stop_at_error=True)
    return report.counts, report.n_special


def count_files_dask_checked(
    paths: Sequence[str | os.PathLike],
    *,
    address: str,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    encoding: str | Sequence[str] = "utf-8",
    errors: str | Sequence[str] = "strict",
    cancel: Callable[[], bool] | None = None,
) -> Generator[Progress, None, tuple[RangesReport, list[FileRange]]]:
    """:func:`count_files_dask`, where bytes that do not decode stop nothing: the workers
    count every range that decodes and report the others with each file's line ends.

    Returns:
        ``(report, jobs)``: the :class:`RangesReport` of all tasks, and the ranges counted
        (:func:`~tokexplorer.core.bpe.counting.file_jobs`), so that the caller can take a
        file's decoded ranges back out of the counts.

    Raises:
        the errors of :func:`count_files_dask`, except CorpusError for undecodable bytes.
    """
    plan = dict(pattern=pattern, special_tokens=special_tokens, encoding=encoding, errors=errors)
    return (yield from _count(paths, address, plan, cancel=cancel, stop_at_error=False))


def _count(
    paths: Sequence[str | os.PathLike],
    address: str,
    plan: dict,
    *,
    cancel: Callable[[], bool] | None,
    stop_at_error: bool,
) -> Generator[Progress, None, tuple[RangesReport, list[FileRange]]]:
    """Connect (on a thread) while the files are cut into ranges, then run the tasks."""
    local = local_start(_total_bytes(paths)) if address == LOCAL else ""  # before the thread below starts
    with ExitStack() as stack:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="dask-connect") as pool:
            connecting = pool.submit(_connect, address, stack, local=local)
            jobs, sizes = file_jobs(paths, **plan)
            client = connecting.result()
        report = yield from _run_tasks(client, jobs, sizes, cancel=cancel, stop_at_error=stop_at_error)
    return report, jobs


def _total_bytes(paths: Sequence[str | os.PathLike]) -> int:
    """The files' sizes added up (a file that cannot be read counts 0: planning says why)."""
    total = 0
    for path in paths:
        try:
            total += os.path.getsize(path)
        except OSError:
            pass
    return total


def _run_tasks(
    client: Client, jobs: list[FileRange], sizes: list[int], *, cancel: Callable[[], bool] | None,
    stop_at_error: bool,
) -> Generator[Progress, None, RangesReport]:
    """Submit the ranges as tasks (:func:`plan_tasks`) and add up their reports as they
    come back, yielding progress in bytes; with ``stop_at_error``, the first undecodable
    range raises CorpusError."""
    import distributed

    total = sum(sizes)
    yield Progress("pre-tokenizing", 0, total, unit="bytes")
    tasks = plan_tasks(sizes, sum(client.nthreads().values()))
    futures = client.map(count_ranges_reported, [jobs[t.start : t.stop] for t in tasks], pure=False)
    size_of = {f.key: sum(sizes[t.start : t.stop]) for f, t in zip(futures, tasks)}
    report = RangesReport()
    done = 0
    try:
        # with_results: each report is fetched from its worker as soon as it is
        # done, while this thread adds up the previous one (not one fetch after another)
        for fut, part in distributed.as_completed(futures, with_results=True):
            if stop_at_error and part.undecodable:
                raise CorpusError(part.error(next(iter(part.undecodable))))
            report.add(part)
            done += size_of[fut.key]
            fut.release()
            if cancel is not None and cancel():
                raise Cancelled("counting cancelled")
            yield Progress("pre-tokenizing", done, total, unit="bytes")
    except BaseException:
        client.cancel(futures)
        raise
    return report
