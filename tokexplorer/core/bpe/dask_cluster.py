"""Connecting to a Dask cluster for :mod:`tokexplorer.core.bpe.dask_counting`: a
scheduler's address, or a ``distributed.LocalCluster`` of this machine's cores started
for one command (:data:`LOCAL`), its workers forked, threads or from a fork server
(:func:`local_start`). ``distributed`` is imported only here, when a client is made.
"""

from __future__ import annotations

import gc
import multiprocessing
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import TYPE_CHECKING

from tokexplorer.core.bpe.count_pool import default_workers, start_method
from tokexplorer.core.errors import BackendUnavailableError, InputError

if TYPE_CHECKING:
    from distributed import Client

__all__ = ["LOCAL", "LOCAL_THREADS_MAX_BYTES", "WORKER_WAIT_S", "connect", "local_start"]

#: The address that starts a ``distributed.LocalCluster`` on this machine instead.
LOCAL = "local"

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


def connect(address: str, stack: ExitStack, *, local: str = "forkserver") -> Client:
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
    if address == LOCAL:
        import dask

        # Workers forked from one fork server start and stop in about half the time of
        # spawned ones (2.4 s against 4-5.7 s for two, measured here); forked from this
        # process, in 0.15 s. The scheduler's health page on a free port (8787 may be
        # taken). Closed by close(), not "with": the stack is left on another thread.
        threads = local == "threads"
        method = "spawn" if threads else local  # (threads: no process is started)
        with dask.config.set({"distributed.worker.multiprocessing-method": method}):
            cluster = distributed.LocalCluster(
                n_workers=1 if threads else default_workers(),
                threads_per_worker=default_workers() if threads else 1, processes=not threads,
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
