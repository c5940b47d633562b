"""Encoding by merge rank: the merge loops, the cut table and the encode caches.

As tiktoken does: each chunk's bytes start as single bytes, and the adjacent
pair whose concatenation has the lowest rank in ``mergeable_ranks`` is merged
(leftmost first among equal ranks) until no adjacent pair is a token. Short
chunks use a direct loop (:func:`merge_parts`, :func:`merge_ids`); long chunks a
heap over a linked list, so runs such as ``"x" * 1_000_000`` take O(n log n).

:class:`RankEncoder` holds the per-vocabulary tables that make this fast (the
text of every whole token, the ranks of the two-byte tokens, the table of safe
cut points) and two caches: chunk text -> ids and segment bytes -> ids.

A cancel callback is passed explicitly to the calls that may run long
(:meth:`RankEncoder.encode_chunks`, :func:`merge_ids`); it is polled every 1,024
new chunks and every 65,536 steps of the heap loop, and returning True raises
:class:`~tokexplorer.core.errors.Cancelled`.

>>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257}
>>> merge_parts(ranks, b"abcab")
[b'abc', b'ab']
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Callable, Mapping, Sequence
from itertools import chain, compress, repeat
from operator import lshift, or_

from tokexplorer.core.errors import Cancelled

N_BYTES = 256
_SHORT_CHUNK = 512  # bytes; longer chunks use the heap-based merge loop
_INF = 1 << 62
_CACHE_LIMIT = 200_000  # chunks kept in the encode cache before it is cleared
_CACHE_CHUNK_CHARS = 256  # longer chunks are not cached
_POLL_MISSES = 0x3FF  # the cancel callback is polled when (new chunks & this) == 0
_POLL_STEPS = 0xFFFF  # ... and when (heap steps & this) == 0

Cancel = Callable[[], bool] | None
"""A cancel callback (or None): polled during long work; returning True stops it."""


# ---------------------------------------------------------------------- merging
def merge_parts(ranks: Mapping[bytes, int], data: bytes, max_rank: int | None = None) -> list[bytes]:
    """Split ``data`` into tokens by rank-based merging (tiktoken's algorithm).

    Args:
        ranks: token bytes -> rank.
        data: the bytes of one chunk (len >= 1).
        max_rank: only ranks strictly below this may merge (for merge recovery).

    Returns:
        list of token byte strings joining to ``data``.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"bc": 257}
    >>> merge_parts(ranks, b"abc"), merge_parts(ranks, b"abc", max_rank=256)
    ([b'ab', b'c'], [b'a', b'b', b'c'])
    """
    n = len(data)
    if n <= 1:
        return [data]
    if n > _SHORT_CHUNK:
        return _merge_parts_heap(ranks, data, max_rank, None)
    # tiktoken's loop: keep the rank of every adjacent pair, merge the lowest
    # (leftmost on ties), then recompute only the two pairs next to the merge.
    inf = _INF if max_rank is None else max_rank
    get = ranks.get
    bounds = list(range(n + 1))
    pr = [get(data[i : i + 2], inf) for i in range(n - 1)]
    if max_rank is not None:
        pr = [r if r < inf else inf for r in pr]
    while pr:
        r = min(pr)
        if r >= inf:
            break
        i = pr.index(r)
        del bounds[i + 1]
        del pr[i]
        if i < len(pr):
            r2 = get(data[bounds[i] : bounds[i + 2]], inf)
            pr[i] = r2 if r2 < inf else inf
        if i > 0:
            r2 = get(data[bounds[i - 1] : bounds[i + 1]], inf)
            pr[i - 1] = r2 if r2 < inf else inf
    return [data[bounds[k] : bounds[k + 1]] for k in range(len(bounds) - 1)]


def merge_ids(
    ranks: Mapping[bytes, int],
    data: bytes,
    byte_ids: Sequence[int],
    pair_ranks: Sequence[int],
    *,
    cancel: Cancel = None,
) -> list[int]:
    """Token ids of ``data`` by rank-based merging (the loop of :func:`merge_parts`).

    The ids are carried along the merges (a merged part's id is the rank that
    merged it), so no lookup of the final parts is needed.

    Args:
        ranks: token bytes -> rank (= id).
        data: the bytes of one chunk (len >= 1).
        byte_ids: id of each of the 256 single bytes.
        pair_ranks: 65,536 ranks, ``pair_ranks[a << 8 | b]`` the rank of the
            token ``bytes([a, b])`` or ``_INF`` (see :func:`pair_rank_table`).
        cancel: polled every 65,536 steps of the heap loop (data over 512 bytes).

    Returns:
        list of token ids.

    Raises:
        Cancelled: ``cancel()`` returned True.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257}
    >>> merge_ids(ranks, b"abcab", range(256), pair_rank_table(ranks))
    [257, 256]
    """
    n = len(data)
    if n > _SHORT_CHUNK:
        return [ranks[p] for p in _merge_parts_heap(ranks, data, None, cancel)]
    ids = list(map(byte_ids.__getitem__, data))
    if n == 1:
        return ids
    inf = _INF
    get = ranks.get
    bounds = list(range(n + 1))
    pr = list(map(pair_ranks.__getitem__, map(or_, map(lshift, data, repeat(8)), data[1:])))
    while pr:
        r = min(pr)
        if r >= inf:
            break
        i = pr.index(r)
        ids[i] = r
        del ids[i + 1]
        del bounds[i + 1]
        del pr[i]
        if i < len(pr):
            pr[i] = get(data[bounds[i] : bounds[i + 2]], inf)
        if i > 0:
            pr[i - 1] = get(data[bounds[i - 1] : bounds[i + 1]], inf)
    return ids


def _merge_parts_heap(ranks: Mapping[bytes, int], data: bytes, max_rank: int | None, cancel: Cancel) -> list[bytes]:
    """O(n log n) rank merging over a doubly linked list of parts with a heap.

    A heap entry ``(rank, start, right_start, right_end)`` is valid while the part
    at ``start`` still ends at ``right_start`` and the part at ``right_start``
    still ends at ``right_end``. Equal ranks pop leftmost first, as in tiktoken.
    ``cancel`` is polled every 65,536 steps.
    """
    n = len(data)
    end = list(range(1, n + 1))  # end[i]: end of the part starting at i (if alive)
    prev = list(range(-1, n - 1))
    alive = [True] * n
    get = ranks.get
    heap: list[tuple[int, int, int, int]] = []
    limit = max_rank if max_rank is not None else None
    for i in range(n - 1):
        r = get(data[i : i + 2])
        if r is not None and (limit is None or r < limit):
            heap.append((r, i, i + 1, i + 2))
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    steps = 0
    while heap:
        steps += 1
        if cancel is not None and not steps & _POLL_STEPS and cancel():
            raise Cancelled("encoding cancelled")
        r, s, rs, re_ = pop(heap)
        if not alive[s] or end[s] != rs or not alive[rs] or end[rs] != re_:
            continue
        # merge the part at s with the part at rs
        alive[rs] = False
        end[s] = re_
        if re_ < n:
            prev[re_] = s
            r2 = get(data[s : end[re_]])
            if r2 is not None and (limit is None or r2 < limit):
                push(heap, (r2, s, re_, end[re_]))
        p = prev[s]
        if p >= 0:
            r2 = get(data[p:re_])
            if r2 is not None and (limit is None or r2 < limit):
                push(heap, (r2, p, s, re_))
    out = []
    i = 0
    while i < n:
        out.append(data[i : end[i]])
        i = end[i]
    return out


# ----------------------------------------------------------------------- tables
def whole_tokens(ranks: Mapping[bytes, int]) -> dict[str, tuple[int]]:
    """Text of each token whose bytes are valid UTF-8 -> ``(id,)``.

    A chunk that is a whole token is then found with one str lookup (no UTF-8
    encoding, no merging).

    >>> whole_tokens({b"a": 0, b"\\xe4": 1, b"hi": 7})
    {'a': (0,), 'hi': (7,)}
    """
    out: dict[str, tuple[int]] = {}
    for b, r in ranks.items():
        try:
            out[b.decode("utf-8")] = (r,)
        except UnicodeDecodeError:
            pass
    return out


def pair_rank_table(ranks: Mapping[bytes, int]) -> list[int]:
    """Ranks of the two-byte tokens: a list of 65,536 ints, ``table[a << 8 | b]``
    the rank of ``bytes([a, b])``, ``_INF`` (``1 << 62``) where that is no token.

    >>> table = pair_rank_table({b"ab": 256})
    >>> table[ord("a") << 8 | ord("b")], table[0] == 1 << 62
    (256, True)
    """
    table = [_INF] * 65536
    for tok, r in ranks.items():
        if len(tok) == 2:
            table[tok[0] << 8 | tok[1]] = r
    return table


def cut_table(ranks: Mapping[bytes, int]) -> tuple[array, bytes]:
    """Table of the safe cut points of a vocabulary, by the bytes around them.

    A token lies across the point between bytes ``a`` and ``b`` of a text only
    if it holds ``a`` followed by ``b`` and then either ends or goes on with the
    text's next byte ``c``. So where no token does, no merge can ever join
    across the point.

    The flags of each pair ``(a, b)`` form a row of 256 (one per ``c``). Almost
    every row is all ones (no token holds ``a, b``) or all zeros (a token ends
    with ``a, b``), and cl100k_base has about 540 other distinct rows, so the
    rows are stored once each: the table is about 0.4 MB and stays in the
    processor's cache, where one flag per byte triple would take 16 MiB.

    Returns:
        ``(row_start, rows)``: ``rows[row_start[a << 8 | b] | c]`` is 1 when no
        token holds ``a, b, c`` in a row and no token ends with ``a, b``.
        ``row_start`` is an ``array('I')`` of 65,536 offsets (multiples of
        256), ``rows`` a bytes of 256 flags per distinct row.

    >>> row_start, rows = cut_table({b"abc": 0})
    >>> ab, xy = ord("a") << 8 | ord("b"), ord("x") << 8 | ord("y")
    >>> rows[row_start[ab] | ord("c")], rows[row_start[ab] | ord("d")], rows[row_start[xy] | 0]
    (0, 1, 1)
    """
    joins: dict[int, bytearray] = {}  # pair -> flags of the third bytes that join
    ended: set[int] = set()  # pairs that end a token
    for tok in ranks:
        n = len(tok)
        if n < 2:
            continue
        for k in range(n - 2):
            pair = tok[k] << 8 | tok[k + 1]
            row = joins.get(pair)
            if row is None:
                row = joins[pair] = bytearray(256)
            row[tok[k + 2]] = 1
        ended.add(tok[n - 2] << 8 | tok[n - 1])
    all_cut, all_join = b"\x01" * 256, bytes(256)
    row_index = {all_cut: 0, all_join: 256}
    row_start = array("I", bytes(4 * 65536))
    for pair in range(65536):
        if pair in ended:
            row = all_join
        elif pair in joins:
            row = bytes(1 - f for f in joins[pair])
        else:
            row = all_cut
        start = row_index.get(row)
        if start is None:
            start = row_index[row] = 256 * len(row_index)
        row_start[pair] = start
    return row_start, b"".join(row_index)  # dicts keep insertion order: row k at 256 * k


# ----------------------------------------------------------------------- caches
def _fill_misses(found: list, keys: Sequence, lookup: Callable) -> None:
    """Replace each None in ``found`` (a cache miss of ``keys[i]``) by ``lookup(keys[i])``.

    The caller has checked that ``found`` holds a None; the search for the next
    one runs in C (``list.index``)."""
    i = found.index(None)
    while True:
        found[i] = lookup(keys[i])
        try:
            i = found.index(None, i + 1)
        except ValueError:
            return


class ChunkCache(dict):
    """Chunk text -> its token ids (a list or tuple of int), filled on demand.

    It starts as the model's whole-token table (text of each token -> ``(id,)``).
    A chunk it lacks is encoded (:meth:`learn`), kept unless it is longer than
    ``_CACHE_CHUNK_CHARS`` characters, and returned; a lookup with ``[]`` of a
    missing chunk (``__missing__``) does the same without a cancel callback, so
    that ``map(cache.__getitem__, chunks)`` runs in C for every chunk seen
    before. Past ``_CACHE_LIMIT`` learned chunks it starts over from the whole
    tokens.
    """

    __slots__ = ("_base", "_encode_chunk", "_misses")

    def __init__(self, base: dict[str, tuple[int]], encode_chunk: Callable[[str, Cancel], list[int]]) -> None:
        super().__init__(base)
        self._base = base
        self._encode_chunk = encode_chunk
        self._misses = 0

    def __missing__(self, chunk: str) -> list[int]:
        return self.learn(chunk, None)

    def learn(self, chunk: str, cancel: Cancel) -> list[int]:
        """Encode a chunk that is not in the cache, keep it if it is short, return its ids.

        Raises:
            Cancelled: ``cancel()`` returned True (polled every 1,024 misses of
                this cache, and inside a long chunk).
        """
        self._misses += 1
        if cancel is not None and not self._misses & _POLL_MISSES and cancel():
            raise Cancelled("encoding cancelled")
        ids = self._encode_chunk(chunk, cancel)
        if len(chunk) <= _CACHE_CHUNK_CHARS:
            if len(self) - len(self._base) >= _CACHE_LIMIT:
                self.clear()
                self.update(self._base)
            self[chunk] = ids
        return ids

    def lookup(self, chunk: str, cancel: Cancel) -> list[int] | tuple[int, ...]:
        """The ids of ``chunk``, from the cache or encoded now (see :meth:`learn`)."""
        ids = self.get(chunk)
        return ids if ids is not None else self.learn(chunk, cancel)


class SegmentCache(dict):
    """Segment bytes -> tuple of token ids, filled on demand (``__missing__``
    merges the segment); segments longer than ``4 * _CACHE_CHUNK_CHARS`` bytes
    are not kept, and it is cleared when it holds ``_CACHE_LIMIT`` segments."""

    __slots__ = ("_ranks", "_byte_ranks", "_pair_ranks")

    def __init__(self, ranks: Mapping[bytes, int], byte_ranks: Sequence[int], pair_ranks: Sequence[int]) -> None:
        super().__init__()
        self._ranks = ranks
        self._byte_ranks = byte_ranks
        self._pair_ranks = pair_ranks

    def __missing__(self, seg: bytes) -> tuple[int, ...]:
        return self.learn(seg, None)

    def learn(self, seg: bytes, cancel: Cancel) -> tuple[int, ...]:
        """Merge a segment that is not in the cache, keep it if it is short, return its ids.

        A segment is always merged, also when its bytes are one token: only a
        whole chunk that is a token is emitted whole (tiktoken's shortcut, the
        chunk cache's whole tokens), and some tokens are never built by
        merging their own bytes (Llama 3 has 588).
        """
        ids = tuple(merge_ids(self._ranks, seg, self._byte_ranks, self._pair_ranks, cancel=cancel))
        if len(seg) <= 4 * _CACHE_CHUNK_CHARS:  # (UTF-8 takes at most 4 bytes a character)
            if len(self) >= _CACHE_LIMIT:
                self.clear()
            self[seg] = ids
        return ids

    def lookup(self, seg: bytes, cancel: Cancel) -> tuple[int, ...]:
        """The ids of ``seg``, from the cache or merged now (see :meth:`learn`)."""
        ids = self.get(seg)
        return ids if ids is not None else self.learn(seg, cancel)


class RankEncoder:
    """The encoding tables and caches of one vocabulary (``bytes -> rank``).

    Building one takes about 0.3 s for a 100,000-token vocabulary: the text of
    each whole token (so a chunk that is a token costs one lookup), the ranks of
    the two-byte tokens and of the single bytes (the merge loop's start), and
    the table of safe cut points (:func:`cut_table`, see :meth:`encode_chunk`).

    Args:
        ranks: token bytes -> rank (= id); must hold the 256 single bytes.

    Attributes:
        ranks: the ranks given.
        chunk_cache: chunk text -> ids (:class:`ChunkCache`).
        segment_cache: segment bytes -> ids (:class:`SegmentCache`).

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b" ab": 257}
    >>> out = []
    >>> RankEncoder(ranks).encode_chunks(["ab", " ab", "abc"], out, None)
    >>> out
    [256, 257, 256, 99]
    """

    def __init__(self, ranks: Mapping[bytes, int]) -> None:
        self.ranks = ranks
        self._whole = whole_tokens(ranks)
        self._pair_ranks = pair_rank_table(ranks)
        self._byte_ranks = [ranks[bytes([b])] for b in range(N_BYTES)]
        self._cuts = cut_table(ranks)
        self.chunk_cache = ChunkCache(self._whole, self.encode_chunk)
        self.segment_cache = SegmentCache(ranks, self._byte_ranks, self._pair_ranks)

    def clear_cache(self) -> None:
        """Forget the learned chunk and segment encodings (the whole tokens stay)."""
        self.chunk_cache = ChunkCache(self._whole, self.encode_chunk)
        self.segment_cache.clear()

    def encode_chunks(self, chunks: Sequence[str], out: list[int], cancel: Cancel) -> None:
        """Append the token ids of ``chunks`` (pre-tokenizer chunks, in order) to ``out``.

        One pass in C over the chunks: a chunk that is a whole token or was seen
        before costs one lookup; the others are encoded once each. With a
        ``cancel`` callback the misses are found first and then encoded one by
        one, so that ``cancel`` can be polled.

        Raises:
            Cancelled: ``cancel()`` returned True (``out`` is then unchanged).
        """
        cache = self.chunk_cache
        if cancel is None:
            out.extend(chain.from_iterable(map(cache.__getitem__, chunks)))
            return
        found = list(map(cache.get, chunks))
        if None in found:
            _fill_misses(found, chunks, lambda chunk: cache.lookup(chunk, cancel))
        out.extend(chain.from_iterable(found))

    def encode_chunk(self, chunk: str, cancel: Cancel = None) -> list[int]:
        """Token ids of one chunk (no chunk cache).

        A chunk that is not ASCII is first cut wherever no token of the
        vocabulary can lie across the cut: no token holds the two bytes on
        either side of it followed by the next byte of the chunk (or ending
        there). No merge can ever join across such a point, so the segments can
        be merged (and cached) on their own with the same result. In CJK and
        emoji text most character boundaries are such points, and many points
        inside characters too (a 1 MiB Chinese text has about 7,000 distinct
        segments where it has 23,000 distinct chunks), which shrinks the merge
        work and lets repeated characters and words hit the segment cache.

        Raises:
            Cancelled: ``cancel()`` returned True inside a chunk over 512 bytes.
        """
        b = chunk.encode("utf-8")
        n = len(b)
        if n == len(chunk):  # ASCII: cuts are rare, merge directly
            return merge_ids(self.ranks, b, self._byte_ranks, self._pair_ranks, cancel=cancel)
        # the cut points, found with C-level maps: i where the bytes
        # (b[i-1], b[i], b[i+1]) are flagged by the cut table (b[n] reads as 0)
        row_start, rows = self._cuts
        pairs = map(or_, map(lshift, b, repeat(8)), b[1:])
        keys = map(or_, map(row_start.__getitem__, pairs), b[2:] + b"\0")
        cuts = list(compress(range(1, n), map(rows.__getitem__, keys)))
        starts = [0, *cuts]
        cuts.append(n)
        segs = map(b.__getitem__, map(slice, starts, cuts))
        cache = self.segment_cache
        if cancel is None or n <= _SHORT_CHUNK:  # no segment can reach the heap loop
            return list(chain.from_iterable(map(cache.__getitem__, segs)))
        seg_list = list(segs)
        found = list(map(cache.get, seg_list))
        if None in found:
            _fill_misses(found, seg_list, lambda seg: cache.lookup(seg, cancel))
        return list(chain.from_iterable(found))
