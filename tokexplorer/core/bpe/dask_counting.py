"""Chunk counting on a Dask cluster: the corpus-sized stage of training, on many machines.

The files are cut into byte ranges at safe points (the jobs of
:func:`tokexplorer.core.bpe.counting.file_jobs`, the same ones the local
process pool counts); each Dask worker reads its ranges from the files itself,
decodes and counts them (:func:`~tokexplorer.core.bpe.counting.count_file_range`),
and this process adds the tables up as they come back. The counts are those of
counting the files here, so merges trained from them are the same.

Every worker must see the files at the same paths as this process (a shared or
copied folder) and have tokexplorer installed (``pip install 'tokexplorer[dask]'``).
Dask (``dask[distributed]``) is an optional dependency, imported only here.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from tokexplorer.core.bpe.counting import count_file_range, default_workers, file_jobs, merge_counts
from tokexplorer.core.errors import BackendUnavailableError, Cancelled, InputError
from tokexplorer.core.types import Progress

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["LOCAL", "count_files_dask"]

#: The address that starts a ``distributed.LocalCluster`` on this machine instead.
LOCAL = "local"


def _distributed():
    try:
        import distributed
    except ImportError:
        raise BackendUnavailableError(
            "counting on Dask needs the dask extra: pip install 'tokexplorer[dask]'"
        ) from None
    return distributed


@contextmanager
def _dask_client(address: str) -> Iterator[Client]:
    """A ``distributed.Client`` of the scheduler at ``address`` (``"tcp://host:8786"``),
    or of a ``LocalCluster`` of one single-threaded worker process per core when
    ``address`` is :data:`LOCAL`; closed (the local cluster shut down) on exit.

    Raises:
        BackendUnavailableError: Dask is not installed.
        InputError: no scheduler answers at ``address`` (within 10 s).
    """
    distributed = _distributed()
    if address == LOCAL:
        with distributed.LocalCluster(
            n_workers=default_workers(), threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster, distributed.Client(cluster) as client:
            yield client
        return
    try:
        client = distributed.Client(address, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise InputError(f"no Dask scheduler at {address}: {str(exc).strip().splitlines()[0]}") from None
    with client:
        yield client


def count_files_dask(
    paths: Sequence[str | os.PathLike],
    *,
    address: str,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    encoding: str = "utf-8",
    errors: str = "strict",
    cancel: Callable[[], bool] | None = None,
) -> Generator[Progress, None, tuple[Counter, int]]:
    """Count chunks over files on a Dask cluster, yielding progress.

    Args:
        paths: text files (readable at these paths on every worker).
        address: the scheduler's address, or :data:`LOCAL` for a local cluster.
        pattern, special_tokens, encoding, errors: as
            :func:`tokexplorer.core.bpe.counting.count_files`.
        cancel: polled as results arrive; True cancels the remaining work.

    Yields:
        Progress("pre-tokenizing", bytes done, total bytes).

    Returns:
        ``(Counter chunk -> count, special token spellings cut out)``, equal to
        what :func:`~tokexplorer.core.bpe.counting.count_files` returns.

    Raises:
        BackendUnavailableError: Dask is not installed.
        InputError: no scheduler at ``address``.
        CorpusError: a file cannot be read or decoded (raised on the worker).
        Cancelled: ``cancel()`` returned True.

    An example on a file ``a.txt`` holding ``ab ab ab`` and a line break (not
    run with the doctests: it starts a cluster of worker processes)::

        >>> from tokexplorer.core.bpe import run
        >>> counts, n_special = run(count_files_dask(["a.txt"], address="local"))  # doctest: +SKIP
        >>> sorted(counts.items()), n_special  # doctest: +SKIP
        ([('\\n', 1), (' ab', 2), ('ab', 1)], 0)
    """
    jobs, sizes = file_jobs(paths, pattern=pattern, special_tokens=special_tokens, encoding=encoding, errors=errors)
    total = sum(sizes)
    distributed = _distributed()
    counts: Counter = Counter()
    n_special = 0
    done = 0
    yield Progress("pre-tokenizing", 0, total)
    with _dask_client(address) as client:
        futures = client.map(count_file_range, jobs, pure=False)
        size_of = {f.key: s for f, s in zip(futures, sizes)}
        try:
            for fut in distributed.as_completed(futures):
                c, n = fut.result()
                merge_counts(counts, c)
                n_special += n
                done += size_of[fut.key]
                fut.release()
                if cancel is not None and cancel():
                    raise Cancelled("counting cancelled")
                yield Progress("pre-tokenizing", done, total)
        except BaseException:
            client.cancel(futures)
            raise
    return counts, n_special
