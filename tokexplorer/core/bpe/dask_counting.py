"""Chunk counting on a Dask cluster: the corpus-sized stage of training, on many machines.

The files are cut into byte ranges at safe points (the jobs of
:func:`tokexplorer.core.bpe.counting.file_jobs`, the same ones the local
process pool counts) while this process connects to the cluster (or starts a
local one). Consecutive ranges are grouped into a few tasks per worker thread
(:func:`plan_tasks`); each Dask worker reads its ranges from the files itself,
decodes and counts them one after another
(:func:`~tokexplorer.core.bpe.counting.count_file_ranges`) into one table, and the
tables are added up as they are done: here on a small cluster, by the workers on a
larger one (two at a time, till one is left, the only one sent back). The counts are
those of counting the files here, so merges trained from them are the same.

A worker that meets bytes that do not decode does not stop: it reports the range
(:class:`RangesReport`) with each file's line-end counts, and counts the rest.
:func:`count_files_dask` has its tasks raise instead (:func:`count_ranges_strict`), with
the one-line error of counting here; :func:`count_files_dask_checked` returns them all, so that this process needs to
check only each file's start before counting (``count --dask``,
:mod:`tokexplorer.core.io.checked_counting`) instead of reading every byte itself.

Every worker must see the files at the same paths as this process (a shared or
copied folder) and have tokexplorer installed (``pip install 'tokexplorer[dask]'``).
Dask (``dask[distributed]``) is an optional dependency, imported only when counting on it.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tokexplorer.core.bpe.counting import (
    FileRange,
    count_range_text,
    file_jobs,
    merge_counts,
    range_text,
    undecodable_message,
)
from tokexplorer.core.bpe.dask_cluster import LOCAL, connect, local_start
from tokexplorer.core.errors import Cancelled, CorpusError, InputError
from tokexplorer.core.types import Progress

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "LOCAL", "RangesReport", "add_reports", "count_files_dask", "count_files_dask_checked", "count_ranges_reported",
    "count_ranges_strict", "plan_tasks",
]  # fmt: skip

#: Tasks per worker thread: enough that a slow worker does not hold up the end,
#: few enough that each table sent back sums many ranges.
TASKS_PER_THREAD = 4

#: The most bytes one task counts (its ranges, one after another, into one table).
MAX_TASK_BYTES = 64 << 20

#: From this many worker threads on, the workers add up the tables of their tasks
#: (two at a time, till one is left) instead of this process: adding a task's table
#: takes about a tenth of the time of counting it (15 ms against 100 ms for 1 MiB of
#: English, measured here), so with fewer threads this process keeps up, and saves the
#: moves of tables between workers (on two workers of this 2-core machine adding here
#: was 0.1-0.2 s faster on 10 MiB); with many more, one process adding every table
#: would hold up the cluster.
ADD_ON_WORKERS_FROM_THREADS = 8


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
            connecting = pool.submit(connect, address, stack, local=local)
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


def add_reports(a: RangesReport, b: RangesReport) -> RangesReport:
    """The sum of two reports (a worker task of the reduction in :func:`_run_tasks`): the
    smaller is added into the larger, which is returned (both are results no other task
    reads)."""
    if len(a.counts) < len(b.counts):
        a, b = b, a
    a.add(b)
    return a


def count_ranges_strict(jobs: Sequence[FileRange]) -> RangesReport:
    """:func:`count_ranges_reported`, raising at the first bytes that do not decode.

    Raises:
        CorpusError: the message of counting here (:func:`undecodable_message`) for the
            lowest such offset of the first file that has one.
        OSError: a file cannot be read.
    """
    report = count_ranges_reported(jobs)
    if report.undecodable:
        raise CorpusError(report.error(next(iter(report.undecodable))))
    return report


def _worker_error(exc: BaseException) -> BaseException:
    """The error to raise here for a task that failed on the cluster: a file a worker
    cannot decode as it is (CorpusError), cannot read (OSError), or anything else (a
    worker or scheduler with another version of tokexplorer or Dask, most often).

    >>> print(_worker_error(FileNotFoundError(2, "No such file or directory", "/data/a.txt")))
    a Dask worker cannot read /data/a.txt: No such file or directory (every worker must see the files at these paths)
    >>> print(_worker_error(RuntimeError("Error during   deserialization")))  # doctest: +ELLIPSIS
    the Dask cluster could not run the counting (RuntimeError: Error during deserialization); the scheduler and ...
    """
    if isinstance(exc, CorpusError):
        return exc
    if isinstance(exc, OSError):
        where = exc.filename or "a file"
        why = exc.strerror or exc
        return CorpusError(f"a Dask worker cannot read {where}: {why} (every worker must see the files at these paths)")
    said = " ".join(str(exc).split())
    return InputError(
        f"the Dask cluster could not run the counting ({type(exc).__name__}: {said}); the scheduler and every worker"
        " need the versions of tokexplorer and Dask this machine has (restart them after an upgrade)"
    )


def _run_tasks(
    client: Client, jobs: list[FileRange], sizes: list[int], *, cancel: Callable[[], bool] | None,
    stop_at_error: bool,
) -> Generator[Progress, None, RangesReport]:
    """Submit the ranges as tasks (:func:`plan_tasks`), yielding progress in bytes as they
    finish, and add up their reports: here as they come back on a cluster of fewer than
    :data:`ADD_ON_WORKERS_FROM_THREADS` worker threads, else on the workers
    (:func:`_add_on_workers`). With ``stop_at_error``, the first undecodable range raises
    CorpusError (:func:`count_ranges_strict`)."""
    import distributed

    total = sum(sizes)
    yield Progress("pre-tokenizing", 0, total, unit="bytes")
    threads = sum(client.nthreads().values())
    tasks = plan_tasks(sizes, threads)
    count = count_ranges_strict if stop_at_error else count_ranges_reported
    futures = client.map(count, [jobs[t.start : t.stop] for t in tasks], pure=False)
    size_of = {f.key: sum(sizes[t.start : t.stop]) for f, t in zip(futures, tasks)}
    # the futures not yet added into another: this process holds no other, so that each
    # table is dropped as soon as it has been added into the next
    pending = {f.key: f for f in futures}
    try:
        if threads >= ADD_ON_WORKERS_FROM_THREADS:
            finished = distributed.as_completed(futures)
            del futures
            return (yield from _add_on_workers(client, finished, pending, size_of, total, cancel))
        report = RangesReport()
        done = 0
        # with_results: each report is fetched from its worker as soon as it is done,
        # while this thread adds up the previous one (not one fetch after another)
        for fut, part in distributed.as_completed(futures, with_results=True, raise_errors=False):
            if fut.status == "error":
                raise _worker_error(part[1])
            report.add(part)
            del pending[fut.key]
            done += size_of[fut.key]
            if cancel is not None and cancel():
                raise Cancelled("counting cancelled")
            yield Progress("pre-tokenizing", done, total, unit="bytes")
        return report
    except BaseException:
        client.cancel(list(pending.values()))
        raise


def _add_on_workers(
    client: Client, finished, pending: dict, size_of: dict[str, int], total: int, cancel: Callable[[], bool] | None,
) -> Generator[Progress, None, RangesReport]:
    """Add up the reports on the workers: each two finished results become one
    :func:`add_reports` task (run before the counting tasks still waiting), till one
    report is left, the only one sent here. ``finished`` is the ``as_completed`` of the
    counting tasks; ``pending`` the futures by key, kept up to date."""
    done = 0
    held = None  # a finished result waiting for another to be added to
    for fut in finished:
        if fut.status == "error":
            raise _worker_error(fut.exception())
        if fut.key in size_of:
            done += size_of[fut.key]
            if cancel is not None and cancel():
                raise Cancelled("counting cancelled")
            yield Progress("pre-tokenizing", done, total, unit="bytes")
        if held is None:
            held = fut
            continue
        both = client.submit(add_reports, held, fut, pure=False, priority=1)
        del pending[held.key], pending[fut.key]
        pending[both.key] = both
        finished.add(both)
        held = fut = None
    return held.result() if held is not None else RangesReport()
