"""A SentencePiece model's encoding for the corpus statistics, in worker processes
(:mod:`tokexplorer.core.analysis.stats_sentencepiece`).

SentencePiece releases Python's interpreter lock (GIL) while it encodes one text, but
not while it takes a list of texts apart and builds the ids of each (the round trips of
8,192 lines: 36 ms on an idle machine), nor while a long call's ids become a Python list.
On threads of the window's process those stretches, several threads asking for the lock
in turn, stalled its event loop up to 0.2 s on 10 MiB of English (1.37 s on a loaded
machine). Here the blocks' :func:`~tokexplorer.core.analysis.stats_sentencepiece.piece_parts`
and the whole call of a unigram model on a file are computed in worker processes
(:func:`tokexplorer.core.bpe.count_pool.worker_pool`, the processes of chunk counting:
started the same way, nicer in the window), each holding its own copy of the model; this
process only unpickles their numpy columns.

A corpus shorter than :data:`PROCESS_MIN_CHARS` stays on threads
(:class:`~tokexplorer.core.analysis.stats_prefetch.PrefetchedIds`): its calls are short
and starting processes would cost more than they save. A block the processes could not
compute (a worker failed to start or died, the policy refused a text) is computed again
in this process, which raises the tokenizer's own error.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

import numpy as np

from tokexplorer.core.bpe.count_pool import default_workers, worker_pool
from tokexplorer.core.types import SpecialPolicy

if TYPE_CHECKING:
    from tokexplorer.core.backends import SentencePieceTokenizer

__all__ = ["PROCESS_AHEAD", "PROCESS_MIN_CHARS", "ProcessParts", "in_processes"]

#: Characters of corpus (all blocks) from which a SentencePiece model's statistics are
#: encoded in worker processes (below it, on threads of this process).
PROCESS_MIN_CHARS = 1 << 21

#: Blocks handed to the processes ahead of the one being counted.
PROCESS_AHEAD = 16

_model: list[Any] = []  # in a worker process: its copy of the model


def _load_model(model_proto: bytes) -> None:
    """Worker initializer: the model from its serialized proto."""
    from tokexplorer.core.backends import SentencePieceTokenizer

    _model[:] = [SentencePieceTokenizer(model_proto)]


def _parts(block: str, special: SpecialPolicy) -> Any:
    """In a worker: a block's piece parts, or None when they could not be computed here
    (this process computes them again and raises the real error)."""
    from tokexplorer.core.analysis.stats_sentencepiece import piece_parts

    try:
        return piece_parts(_model[0], block, special)
    except Exception:  # noqa: BLE001 - the caller's own computation raises it
        return None


def _whole_ids(text: str, special: SpecialPolicy) -> Any:
    """In a worker: the ids of one call on ``text`` (int64 array), or None as :func:`_parts`."""
    from tokexplorer.core.analysis.stats_sentencepiece import id_array

    try:
        return id_array(_model[0].encode(text, special=special))
    except Exception:  # noqa: BLE001 - as _parts
        return None


def in_processes(tokenizer: Any, blocks: Sequence[str]) -> bool:
    """Whether the statistics of ``tokenizer`` over ``blocks`` are encoded in processes: a
    plain :class:`SentencePieceTokenizer` (a sampling one draws: its draws stay here)
    over at least :data:`PROCESS_MIN_CHARS` characters."""
    from tokexplorer.core.backends import SentencePieceTokenizer

    return type(tokenizer) is SentencePieceTokenizer and sum(map(len, blocks)) >= PROCESS_MIN_CHARS


class ProcessParts(Iterator[Any]):
    """Per block of ``blocks``, its :func:`~tokexplorer.core.analysis.stats_sentencepiece.piece_parts`
    in block order, computed by worker processes up to :data:`PROCESS_AHEAD` blocks ahead
    (the same values as on threads: the same model, the same calls).

    Args:
        tokenizer: the model (its ``model_proto`` is sent to each worker once).
        blocks: the blocks of every file, in order.
        special: the policy.
        workers: processes (default: one per core).

    Raises (from ``next``, :meth:`whole_ids`):
        whatever the model raises for that text (computed again here).
    """

    _pool: ProcessPoolExecutor | None = None  # (None once closed)

    def __init__(
        self, tokenizer: SentencePieceTokenizer, blocks: Sequence[str], special: SpecialPolicy, *, workers: int = 0
    ) -> None:
        self._tokenizer, self._blocks, self._special = tokenizer, blocks, special
        self._pool = worker_pool(
            workers or default_workers(), initializer=_load_model, initargs=(tokenizer.model_proto,)
        )
        self._ahead: deque[tuple[int, Future[Any] | None]] = deque()
        self._next = 0
        self._broken = False  # a worker died or could not start: the rest is computed here
        self._fill()

    def _submit(self, fn: Any, *args: Any) -> Future[Any] | None:
        if self._pool is None or self._broken:
            return None
        try:
            return self._pool.submit(fn, *args)
        except Exception:  # noqa: BLE001 - BrokenProcessPool
            self._broken = True
            return None

    def _fill(self) -> None:
        while self._pool is not None and len(self._ahead) < PROCESS_AHEAD and self._next < len(self._blocks):
            self._ahead.append((self._next, self._submit(_parts, self._blocks[self._next], self._special)))
            self._next += 1

    def __next__(self) -> Any:
        from tokexplorer.core.analysis.stats_sentencepiece import piece_parts

        if not self._ahead:
            self.close()
            raise StopIteration
        k, job = self._ahead.popleft()
        got = _result(job)
        try:
            if got is None:  # (the error, or the broken pool's blocks, from this process)
                got = piece_parts(self._tokenizer, self._blocks[k], self._special)
        except BaseException:
            self.close()
            raise
        self._fill()
        return got

    def whole_ids(self, text: str, special: SpecialPolicy) -> np.ndarray:
        """The ids of one call of the model on ``text`` (int64), from a worker (the
        blocks ahead go on meanwhile); computed here when the worker could not."""
        from tokexplorer.core.analysis.stats_sentencepiece import id_array

        got = _result(self._submit(_whole_ids, text, special))
        return got if got is not None else id_array(self._tokenizer.encode(text, special=special))

    def close(self) -> None:
        """Cancel the blocks not started and stop the workers (closing twice is harmless)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for _k, job in self._ahead:
            if job is not None:
                job.cancel()
        self._ahead.clear()
        pool.shutdown(wait=False, cancel_futures=True)

    def __del__(self) -> None:
        self.close()


def _result(job: Future[Any] | None) -> Any:
    """A job's result; None when there is no job or its worker could not run it (a broken pool)."""
    if job is None:
        return None
    try:
        return job.result()
    except Exception:  # noqa: BLE001 - BrokenProcessPool, a result that could not be sent
        return None
