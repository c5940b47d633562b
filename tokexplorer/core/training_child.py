"""Training in a child process, for front ends with an event loop to keep live.

A byte-level BPE trained on a large corpus builds dictionaries of hundreds of
thousands of pairs; growing one (a resize) is a single step of the interpreter
that holds its lock for 40-180 ms, and every thread of the process waits,
the window's GUI thread too (``bench/desktop_journey.py --gil-watch`` caught
the training thread there while the window stalled 230-260 ms on a 1 GB
folder). :func:`train_iter_in_child` runs :func:`~tokexplorer.core.training.train_iter`
in a spawned process instead: the window's process only receives the progress
reports and the merges, a few at a time, and builds the model from them.

The child is told to stop through a shared event (it stops at its next cancel
check, closing its own counting workers) and is terminated when it does not
within :data:`STOP_GRACE_S`; it ends itself when its parent is gone
(:func:`~tokexplorer.core.bpe.count_pool.exit_with_parent`).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Generator
from dataclasses import replace
from typing import Any

from tokexplorer.core.bpe import BPE
from tokexplorer.core.bpe.count_pool import WINDOW_WORKER_NICE, child_of_parent
from tokexplorer.core.errors import Cancelled, TrainingError
from tokexplorer.core.training import TrainingOutcome, TrainingRequest, bpe_outcome, train_iter
from tokexplorer.core.types import MergeRecord, Progress

#: Seconds a child told to stop may take before it is terminated (its counting
#: workers, which would finish their task first, then end with it:
#: :func:`~tokexplorer.core.bpe.count_pool.exit_with_parent`).
STOP_GRACE_S = 1.0
#: Seconds between the parent's checks of cancel while no message arrives.
POLL_S = 0.1


def runs_in_child(request: TrainingRequest) -> bool:
    """Whether :func:`train_iter_in_child` trains ``request`` in a child process:
    a byte-level BPE from files or from a word-count table (the inputs a child
    reads itself; texts in memory would have to be copied to it).

    >>> runs_in_child(TrainingRequest(algorithm="bpe", vocab_size=300, files=("a.txt",)))
    True
    >>> runs_in_child(TrainingRequest(algorithm="bpe", vocab_size=300, texts=["abc"]))
    False
    """
    return request.algorithm == "bpe" and (request.files is not None or request.word_counts is not None)


def train_iter_in_child(
    request: TrainingRequest, *, cancel: Callable[[], bool] | None = None
) -> Generator[Progress, None, TrainingOutcome]:
    """:func:`~tokexplorer.core.training.train_iter` with the work in a spawned
    child process where :func:`runs_in_child` says so, else in this thread.

    The same progress reports arrive (for ``"merging"``, ``detail`` is this
    process's own list of :class:`~tokexplorer.core.types.MergeRecord`, growing
    as the child sends them), and the outcome is the one ``train_iter`` gives:
    the model is rebuilt here from the same merges, pattern and special tokens.

    Args:
        request: what to train.
        cancel: polled at least every :data:`POLL_S` seconds; True stops the
            child and raises :class:`Cancelled`. Closing the generator stops it too.

    Raises:
        The errors of ``train_iter`` (raised in the child, passed back), and
        TrainingError: the child ended without an answer (its exit code said).
    """
    if not runs_in_child(request):
        return (yield from train_iter(request, cancel=cancel))
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child_main, args=(child, stop, request), name="tokexplorer-training")
    proc.start()
    child.close()
    merges: list[MergeRecord] = []
    try:
        while True:
            if cancel is not None and cancel():
                raise Cancelled("training cancelled")
            if not parent.poll(POLL_S):
                if not proc.is_alive() and not parent.poll(0):
                    raise TrainingError(f"training stopped without a result (exit code {proc.exitcode})")
                continue
            try:
                kind, payload = parent.recv()
            except EOFError:
                proc.join(STOP_GRACE_S)
                raise TrainingError(f"training stopped without a result (exit code {proc.exitcode})") from None
            if kind == "progress":
                yield _progress_here(payload, merges)
            elif kind == "error":
                raise _exception_here(payload)
            else:
                return _outcome_here(payload, merges)
    finally:
        _end_child(proc, stop)
        parent.close()


def _progress_here(payload: tuple[Progress, list[tuple] | None], merges: list[MergeRecord]) -> Progress:
    """A child's progress report as this process shows it: new merges appended to ``merges``."""
    p, new = payload
    if new is None:
        return p
    merges.extend(MergeRecord(*m) for m in new)
    return replace(p, detail=merges)


def _outcome_here(payload: dict[str, Any], merges: list[MergeRecord]) -> TrainingOutcome:
    """The outcome, the model built in this process from the merges received."""
    shape: dict[str, Any] = {"pattern": payload["pattern"]} if payload["pattern"] else {"pat_str": payload["pat_str"]}
    bpe = BPE(merges, **shape, special_tokens=payload["specials"], name=payload["name"])
    return bpe_outcome(bpe, payload["report"], payload["notes"])


def _end_child(proc: Any, stop: Any) -> None:
    """Ask the child to stop, then terminate it if it has not within :data:`STOP_GRACE_S`."""
    stop.set()
    proc.join(STOP_GRACE_S)
    if proc.is_alive():
        proc.terminate()
        proc.join(STOP_GRACE_S)


def _child_main(conn: Any, stop: Any, request: TrainingRequest) -> None:
    """The child: train ``request``, sending progress (merges as tuples, only the
    new ones), then ``("done", ...)`` or ``("error", exception)``."""
    # ends with the window (its counting workers end with it: they watch their parent too),
    # nicer: the window's own threads come first for the cores
    child_of_parent(WINDOW_WORKER_NICE)
    sent = 0
    try:
        steps = train_iter(request, cancel=stop.is_set)
        while True:
            try:
                p = next(steps)
            except StopIteration as end:
                outcome = end.value
                break
            new = None
            if isinstance(p.detail, list):
                new = [_as_tuple(m) for m in p.detail[sent:]]
                sent = len(p.detail)
                p = replace(p, detail=None)
            conn.send(("progress", (p, new)))
        bpe = outcome.bpe
        assert bpe is not None and outcome.report is not None
        conn.send(("done", {
            "pattern": bpe.pattern_name, "pat_str": bpe.pat_str, "specials": dict(bpe.special_tokens), "name": bpe.name,
            "report": outcome.report, "notes": outcome.notes,
        }))  # fmt: skip
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        _send_error(conn, exc)
    finally:
        conn.close()


def _as_tuple(m: MergeRecord) -> tuple:
    return (m.rank, m.left, m.right, m.new_id, m.merged, m.count, m.saved)


def _send_error(conn: Any, exc: BaseException) -> None:
    """Send ``exc`` back as its class, ``args`` and attributes (our errors take
    keyword arguments that pickling an exception would drop); one whose parts
    do not pickle goes as a TrainingError with its text."""
    try:
        conn.send(("error", (type(exc), exc.args, dict(getattr(exc, "__dict__", {})))))
    except (BrokenPipeError, EOFError, OSError):
        return
    except Exception:  # noqa: BLE001 - a part of the exception would not pickle
        try:
            conn.send(("error", (TrainingError, (f"{type(exc).__name__}: {exc}",), {})))
        except (BrokenPipeError, EOFError, OSError):
            return


def _exception_here(payload: tuple[type[BaseException], tuple, dict[str, Any]]) -> BaseException:
    """The child's exception rebuilt without calling its ``__init__`` (same text, same attributes).

    >>> from tokexplorer.core.errors import SpecialTokenError
    >>> exc = SpecialTokenError("<|endoftext|>", where="a.txt")
    >>> again = _exception_here((type(exc), exc.args, exc.__dict__))
    >>> type(again).__name__, str(again) == str(exc), again.spelling
    ('SpecialTokenError', True, '<|endoftext|>')
    """
    cls, args, attributes = payload
    exc = cls.__new__(cls)
    exc.args = args
    exc.__dict__.update(attributes)
    return exc
