"""Run core work off the GUI thread.

Long core work is written as a generator that yields
:class:`~tokexplorer.core.types.Progress` and returns its result
(``return value`` ends the generator). :class:`Worker` runs such a generator
on a :class:`QThreadPool` thread, forwards progress through queued signals,
checks its cancel flag between yields, and delivers the result or the error
to the GUI thread. Workers never touch widgets.

Usage::

    worker = Worker(lambda cancel: train_bpe_iter(texts, vocab_size=4096, cancel=cancel))
    worker.signals.progress.connect(bar.update)
    worker.signals.returned.connect(on_model)
    worker.signals.errored.connect(lambda exc: show_error(user_message(exc)))
    worker.start()
    ...
    worker.cancel()
"""

from __future__ import annotations

import threading
import time
import traceback
from collections.abc import Callable, Generator
from typing import Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, QRunnable, QThreadPool, Signal
from PySide6.QtWidgets import QWidget

from tokexplorer.core.bpe.gc_pause import gc_paused
from tokexplorer.core.errors import Cancelled, TokexplorerError
from tokexplorer.core.types import Progress
from tokexplorer.gui.heap import HEAVY_JOB_S, release_freed_memory
from tokexplorer.gui.terms import in_window_terms

CancelFlag = Callable[[], bool]
WorkFn = Callable[[CancelFlag], "Generator[Progress, None, Any] | Any"]


class WorkerSignals(QObject):
    """Signals of a :class:`Worker` (emitted from the worker thread, queued to receivers).

    Signals:
        started(): the work began.
        progress(object): a :class:`Progress`.
        yielded(object): any other value the generator yields (partial results,
            such as one tokenized column), in order.
        returned(object): the result of the work.
        errored(object): the exception that ended the work (never ``Cancelled``);
            :func:`user_message` turns it into the one-line text for the user.
        cancelled(): the work stopped because :meth:`Worker.cancel` was called.
        finished(): always emitted last.
    """

    started = Signal()
    progress = Signal(object)
    yielded = Signal(object)
    returned = Signal(object)
    errored = Signal(object)
    cancelled = Signal()
    finished = Signal()


class Worker(QRunnable):
    """A cancellable unit of work for :class:`QThreadPool`.

    Args:
        fn: called on the worker thread as ``fn(is_cancelled)``; either returns the
            result directly or returns a generator yielding :class:`Progress` whose
            return value is the result. ``is_cancelled()`` is True once
            :meth:`cancel` was called; the generator is also closed at the next yield.
        pool: thread pool to run on (default: the global instance).
    """

    def __init__(self, fn: WorkFn, *, pool: QThreadPool | None = None) -> None:
        super().__init__()
        self.setAutoDelete(False)
        self.fn = fn
        self.signals = WorkerSignals()
        self._cancel = threading.Event()
        self._go = threading.Event()  # cleared while paused
        self._go.set()
        self._done = threading.Event()
        self._pool = pool or QThreadPool.globalInstance()
        self.result: Any = None
        self.error: BaseException | None = None

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def cancel(self) -> None:
        """Ask the work to stop; it stops at its next progress report or cancel check."""
        self._cancel.set()
        self._go.set()  # a paused job wakes up to stop

    def pause(self) -> None:
        """Hold the work at its next progress report (or before it begins) until :meth:`resume`."""
        if not self._cancel.is_set():
            self._go.clear()

    def resume(self) -> None:
        """Let paused work go on."""
        self._go.set()

    @property
    def paused(self) -> bool:
        """True while :meth:`pause` holds the work."""
        return not self._go.is_set()

    def start(self) -> Worker:
        """Queue the work on the pool; returns self."""
        for w in [w for w in _LIVE if w.done]:
            _LIVE.discard(w)
        _LIVE.add(self)
        self._pool.start(self)
        return self

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the work finished (for tests and shutdown); True if it did."""
        return self._done.wait(timeout)

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def _emit(self, signal: Any, *args: Any) -> None:
        """Emit unless the signals object is gone (the app is shutting down);
        then the work is cancelled instead of raising on this thread."""
        try:
            signal.emit(*args)
        except RuntimeError:
            self._cancel.set()

    def _compute(self) -> Any:
        """Run the work to its end (forwarding its progress); its result. No garbage
        collection while it computes (``core.bpe.gc_pause``): it would walk
        the large structures workers build again and again, the window waiting; while
        the worker is paused (a hidden pane's), the collector runs as usual."""
        with gc_paused():
            out = self.fn(self.is_cancelled)
        if not isinstance(out, Generator):
            return out
        try:
            while True:
                self._go.wait()
                with gc_paused():
                    while self._go.is_set():  # steps back to back in one pause
                        if self._cancel.is_set():
                            out.close()
                            raise Cancelled("cancelled")
                        p = next(out)
                        self._emit(self.signals.progress if isinstance(p, Progress) else self.signals.yielded, p)
        except StopIteration as stop:
            return stop.value

    def run(self) -> None:  # noqa: D401 - Qt entry point, runs on the worker thread
        sig = self.signals
        emit = self._emit
        began = time.perf_counter()
        try:
            emit(sig.started)
            self._go.wait()
            began = time.perf_counter()
            out = self._compute()
            if self._cancel.is_set():
                raise Cancelled("cancelled")
            self.result = out
            emit(sig.returned, out)
        except Cancelled:
            emit(sig.cancelled)
        except TokexplorerError as exc:
            self.error = exc
            emit(sig.errored, exc)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - report every failure, never crash the app
            self.error = exc
            traceback.print_exc()
            emit(sig.errored, exc)
        finally:
            if time.perf_counter() - began >= HEAVY_JOB_S:  # what a long job freed goes back to the system
                release_freed_memory()
            self._done.set()
            emit(sig.finished)


def user_message(exc: BaseException) -> str:
    """The one-line text shown for an error that ended a worker's job.

    A :class:`TokexplorerError` is written for users and shown with its advice in
    the window's terms (:func:`~tokexplorer.gui.terms.in_window_terms`; a
    :class:`SpecialTokenError` names the window's own choices, "Special tokens" and
    "Plain text + warning"); any other exception is a bug or a library failure and is
    shown with its type.
    """
    if isinstance(exc, TokexplorerError):
        return in_window_terms(str(exc))
    return f"{type(exc).__name__}: {exc}"


def column_message(exc: BaseException) -> str:
    """:func:`user_message` as one line: what a Compare column shows for its tokenizer's failure."""
    return (user_message(exc).strip().splitlines() or [type(exc).__name__])[0]


def file_message(path: str, exc: BaseException) -> str:
    """:func:`user_message` of an error about the file ``path`` (or a SPEC naming one,
    ``sp:/m/a.model``), named once: ``"a.model: …"`` unless the message names it already
    (``"a.model is not a SentencePiece model …"``, ``"a.tiktoken line 39: …"``).

    >>> from tokexplorer.core.errors import ModelFormatError
    >>> file_message("/m/a.model", ModelFormatError("a.model is not a SentencePiece model"))
    'a.model is not a SentencePiece model'
    >>> file_message("sp:/m/a.model", ModelFormatError("truncated"))
    'a.model: truncated'
    """
    import os

    message = user_message(exc)
    name = os.path.basename(path.rstrip("/\\")) or path
    if name and ":" in name and not os.path.exists(path):  # a SPEC: the part after its prefix
        name = os.path.basename(name.partition(":")[2]) or name
    return message if name in message else f"{name}: {message}"


def guarded(owner: QObject, callback: Callable[..., Any]) -> Callable[..., None]:
    """Wrap a callback (a lambda) connected to a worker's signals so that it does
    nothing once ``owner``'s C++ object is gone.

    A worker can finish after the pane or dialog that started it was closed;
    Qt drops connections to *methods* of a deleted QObject by itself, but not
    to lambdas, which would then touch deleted widgets. The check runs on the
    GUI thread, where the callback is delivered.

    Args:
        owner: the widget whose lifetime bounds the callback.
        callback: what to call with the signal's arguments.
    """

    def call(*args: Any) -> None:
        if shiboken6.isValid(owner):
            callback(*args)

    return call


class LatestRequest:
    """Latest request wins: run work for the newest request only and drop stale results.

    Live views (re-tokenizing as the user types, filtering, inspecting) start a new
    job for every change. Each :meth:`start` cancels the job before it and connects
    the new worker's signals through a check, so a result, progress report or error
    of a job that is no longer the newest never reaches the callbacks, and none
    reaches them once ``owner``'s C++ object is gone (see :func:`guarded`).

    Args:
        owner: the widget whose lifetime bounds the callbacks.

    Usage::

        self.inspect_job = LatestRequest(self)
        ...
        self.inspect_job.start(lambda cancel: inspect(text, cancel), on_result=self.show)
    """

    def __init__(self, owner: QObject) -> None:
        self._owner = owner
        self.worker: Worker | None = None
        self.ticket = 0
        self._paused = False

    def pause(self) -> None:
        """Hold the newest job, and jobs started from now on, until :meth:`resume`."""
        self._paused = True
        if self.worker is not None:
            self.worker.pause()

    def resume(self) -> None:
        """Let the newest job go on (and new jobs start running)."""
        self._paused = False
        if self.worker is not None:
            self.worker.resume()

    def start(
        self,
        fn: WorkFn,
        *,
        on_result: Callable[[Any], Any],
        on_error: Callable[[BaseException], Any] | None = None,
        on_progress: Callable[[Progress], Any] | None = None,
        on_yielded: Callable[[Any], Any] | None = None,
        on_cancelled: Callable[[], Any] | None = None,
        on_finished: Callable[[], Any] | None = None,
    ) -> Worker:
        """Cancel the previous job and start ``fn`` (see :class:`Worker`) as the newest.

        Callbacks run on the GUI thread, only while this job is the newest one;
        ``on_finished`` runs last, after the result, error or cancellation.
        """
        self.cancel()
        self.ticket += 1
        worker = Worker(fn)
        sig = worker.signals
        pairs = [
            (sig.returned, on_result),
            (sig.errored, on_error),
            (sig.progress, on_progress),
            (sig.yielded, on_yielded),
            (sig.cancelled, on_cancelled),
            (sig.finished, on_finished),
        ]
        for signal, callback in pairs:
            if callback is not None:
                signal.connect(guarded(self._owner, self._if_current(worker, callback)))
        self.worker = worker
        if self._paused:
            worker.pause()
        worker.start()
        return worker

    def _if_current(self, worker: Worker, callback: Callable[..., Any]) -> Callable[..., None]:
        def call(*args: Any) -> None:
            if worker is self.worker:
                callback(*args)

        return call

    def cancel(self) -> None:
        """Cancel the newest job, if any; its late results are dropped."""
        if self.worker is not None:
            self.worker.cancel()
        self.worker = None

    def is_current(self, worker: Worker | None) -> bool:
        """True if ``worker`` is the newest job started here."""
        return worker is not None and worker is self.worker

    @property
    def busy(self) -> bool:
        """True while the newest job is still running."""
        return self.worker is not None and not self.worker.done


class _PauseWhileHidden(QObject):
    """Event filter: pauses its jobs when the watched widget is hidden, resumes them when shown."""

    def __init__(self, widget: QWidget, jobs: list[LatestRequest]) -> None:
        super().__init__(widget)
        self._jobs = jobs
        widget.installEventFilter(self)
        # a held job of a pane that is gone would sleep in its pool thread for ever
        widget.destroyed.connect(lambda _obj=None, jobs=jobs: [job.cancel() for job in jobs])

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Hide:
            for job in self._jobs:
                job.pause()
        elif event.type() == QEvent.Type.Show:
            for job in self._jobs:
                job.resume()
        return False


def pause_while_hidden(widget: QWidget, jobs: list[LatestRequest]) -> None:
    """Hold ``jobs`` (long analyses of a pane) while ``widget`` is hidden, for example
    while another tab is current, and let them go on when it is shown again: work is
    done for what is on screen, and a hidden pane's job leaves the CPU to the others.
    A widget never shown yet is not held (it gets no hide event)."""
    _PauseWhileHidden(widget, jobs)


# Workers are kept alive here until a later start() finds them done (Qt does not own
# them: autoDelete is off, and their signals must outlive the queued emissions).
_LIVE: set[Worker] = set()


#: The worker pool has at least this many threads: long jobs (training, statistics of
#: a large corpus) and the jobs held while their pane is hidden (:func:`pause_while_hidden`,
#: each sleeping in a pool thread) must never keep a view's short job (the byte
#: inspector's first screen) waiting in the queue. A held job costs no CPU.
MIN_POOL_THREADS = 24


def size_pool() -> None:
    """Give the global thread pool at least :data:`MIN_POOL_THREADS` threads (call once at start)."""
    pool = QThreadPool.globalInstance()
    pool.setMaxThreadCount(max(MIN_POOL_THREADS, pool.maxThreadCount()))


def cancel_all_and_wait(timeout: float = 5.0) -> None:
    """Cancel every running worker and wait for the pool (call on ``aboutToQuit``)."""
    for w in list(_LIVE):
        w.cancel()
    QThreadPool.globalInstance().waitForDone(int(timeout * 1000))
