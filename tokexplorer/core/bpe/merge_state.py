"""The trainer's tables during the merge phase, and one merge step.

:class:`MergeState` keeps the words of the chunk table, the count of every
adjacent pair of ids, the words each pair is in, and a lazy max-heap of the
pairs; :meth:`MergeState.merge` merges the best pair everywhere and updates only
the pairs next to the merge sites. Used by
:func:`tokexplorer.core.bpe.trainer.train_bpe_iter`.

>>> state = MergeState()
>>> state.add_words({"abab": 2, "ab": 1}, None)
>>> state.rebuild_heap()
>>> record, added = state.merge(state.pop_best(), 0)
>>> record.merged, record.count, added, state.pop_best() == (256 << 21 | 256)
(b'ab', 5, True, True)
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Callable

from tokexplorer.core.bpe.encoder import N_BYTES
from tokexplorer.core.errors import Cancelled
from tokexplorer.core.types import MergeRecord

_SHIFT = 21  # pair keys in training: left << 21 | right
_MASK = (1 << _SHIFT) - 1
MAX_TRAIN_VOCAB = 1 << _SHIFT
"""Largest vocabulary the trainer supports: token ids are packed into 21 bits of a pair key."""

LONG_WORD = 256
"""Words of more symbols than this are merged by :meth:`MergeState.merge_long_word`
(one pass that copies the word once) instead of in place, where each merge site
moves the rest of the word: quadratic in a long word (``--pattern none``, where
a whole file is one word, spent minutes on a 1 MB file)."""


class MergeState:
    """The trainer's tables while it merges.

    Word table: every word's symbols side by side in one int32 array
    (``flat[start[w] : start[w] + size[w]]``) with its count ``freqs[w]``.
    Merges only shorten words, so each word is rewritten in place: no object per
    word, nothing to fragment the heap as words shrink.

    A pair of ids (a, b) is the int key ``a << 21 | b`` (ids < 2**21): cheaper to
    hash and to store than a tuple. ``pair_counts`` holds the count of every
    pair; ``where`` maps a pair to the indices of the words that held it when
    it was added: one int, or a compact int32 array once there are two (a set
    costs ten times that). An index may repeat or go stale; a visit to a word
    that no longer holds the pair changes nothing. A pair whose count drops to
    zero loses its entry.

    The heap holds ``(-count, left bytes, right bytes, pair)`` for the pairs
    counted at least ``floor`` times (the others cannot be the best while a
    pair above the floor exists); when none is left above it the floor drops
    to 1 and the heap is rebuilt. Pairs seen once are most of all pairs in a
    large corpus, and rarely merged. Stale entries are dropped lazily, and the
    heap is rebuilt from the live counts when it grows past ``heap_limit``.
    """

    __slots__ = (
        "flat", "start", "size", "freqs", "pair_counts", "where", "heap", "heap_limit", "floor", "vocab", "id_of",
    )  # fmt: skip

    def __init__(self) -> None:
        self.flat = array("i")
        self.start = array("q")
        self.size = array("i")
        self.freqs: list[int] = []
        self.pair_counts: dict[int, int] = {}
        self.where: dict[int, int | array] = {}
        self.heap: list = []
        self.heap_limit = 0
        self.floor = 2
        self.vocab: list[bytes] = [bytes([i]) for i in range(N_BYTES)]
        self.id_of: dict[bytes, int] = {b: i for i, b in enumerate(self.vocab)}

    def add_words(self, counts: dict, cancel: Callable[[], bool] | None) -> None:
        """Fill the word table and the pair counts from a chunk table.

        ``counts`` (chunk str or bytes -> count) is emptied as it is read, so
        its strings are freed on the way. Chunks of one byte hold no pair and
        are dropped, and so are chunks counted 0 times or less.

        Raises:
            Cancelled: ``cancel()`` returned True (polled every 20,000 words).
        """
        flat, start, size, freqs = self.flat, self.start, self.size, self.freqs
        pair_counts, where = self.pair_counts, self.where
        pc_get = pair_counts.get
        w_get = where.get
        popitem = counts.popitem
        wi = 0
        while counts:
            chunk, c = popitem()
            w = chunk.encode("utf-8") if chunk.__class__ is str else bytes(chunk)
            n = len(w)
            if n < 2 or c <= 0:
                continue
            start.append(len(flat))
            size.append(n)
            flat.extend(w)
            freqs.append(c)
            prev = w[0] << _SHIFT
            for x in w[1:]:
                p = prev | x
                prev = x << _SHIFT
                pair_counts[p] = pc_get(p, 0) + c
                s = w_get(p)
                if s is None:
                    where[p] = wi
                elif s.__class__ is int:
                    if s != wi:
                        where[p] = array("i", (s, wi))
                elif s[-1] != wi:
                    s.append(wi)
            if cancel is not None and wi % 20000 == 0 and cancel():
                raise Cancelled("training cancelled")
            wi += 1

    def rebuild_heap(self) -> None:
        """Refill the heap in place with one entry per pair counted ``floor``
        times or more, so the most frequent pair pops first and ties go to the
        smaller bytes. The old entries are dropped first, so two heaps never
        coexist in memory."""
        heap, vocab, floor = self.heap, self.vocab, self.floor
        heap.clear()
        heap.extend(
            [(-c, vocab[p >> _SHIFT], vocab[p & _MASK], p) for p, c in self.pair_counts.items() if c >= floor]
        )
        heapq.heapify(heap)
        self.heap_limit = 2 * len(heap) + 100_000

    def pop_best(self) -> int | None:
        """The pair key to merge next (highest count, then smallest bytes), or
        None when no pair is left. Stale heap entries are dropped or pushed
        back with their current count."""
        heap, pair_counts, vocab = self.heap, self.pair_counts, self.vocab
        pop, push = heapq.heappop, heapq.heappush
        while True:
            floor = self.floor
            while heap:
                negc, _, _, p = pop(heap)
                cur = pair_counts.get(p, 0)
                if cur == -negc and cur > 0:
                    return p
                if floor <= cur < -negc:
                    push(heap, (-cur, vocab[p >> _SHIFT], vocab[p & _MASK], p))
            if floor <= 1:
                return None
            self.floor = 1
            self.rebuild_heap()

    def merge(self, pair: int, rank: int) -> tuple[MergeRecord, bool]:
        """Merge ``pair`` everywhere as merge number ``rank``.

        Returns:
            ``(record, added)``: the merge, and whether it added a token (False
            when its bytes were already a token, whose id is then reused).
        """
        a, b, cnt = pair >> _SHIFT, pair & _MASK, self.pair_counts[pair]
        merged = self.vocab[a] + self.vocab[b]
        new_id = self.id_of.get(merged)
        added = new_id is None
        if new_id is None:
            new_id = len(self.vocab)
            self.vocab.append(merged)
            self.id_of[merged] = new_id
        saved = self.apply_merge(a, b, new_id)
        if len(self.heap) > self.heap_limit:
            self.rebuild_heap()  # lazy deletion leaves stale entries behind
        return MergeRecord(rank, a, b, new_id, merged, cnt, saved), added

    def apply_merge(self, a: int, b: int, t: int) -> int:
        """Replace every (a, b) in the words holding it by t, updating pair counts
        only next to the merge sites; return how many tokens that saves in the
        corpus (replacements times word counts: fewer than the pair count where
        the pair overlaps itself, as ``a a a`` holds (a, a) twice but merges once).

        Each word is rewritten in place (a merge writes t and moves the rest of
        the word one slot left). Occurrences are found with ``array.index`` (C
        speed) and merged left to right without overlap, as the textbook loop
        does.
        """
        flat, start, size, freqs, where = self.flat, self.start, self.size, self.freqs, self.where
        index = flat.index
        pair = a << _SHIFT | b
        wis = where.pop(pair, ())
        if wis.__class__ is int:
            wis = (wis,)
        changed: dict[int, int] = {}
        get = changed.get
        t_hi, b_hi, saved = t << _SHIFT, b << _SHIFT, 0
        for wi in wis:
            o = start[wi]
            n = size[wi]
            if n == 2:  # the most common case: the whole word becomes one token
                if flat[o] == a and flat[o + 1] == b:
                    flat[o] = t
                    size[wi] = 1
                    saved += freqs[wi]
                continue
            if n > LONG_WORD:
                saved += self.merge_long_word(wi, a, b, t, changed)
                continue
            e = o + n
            # The a's left tell when to stop looking (index raising ValueError costs more).
            left_a = flat[o:e].count(a)
            if not left_a:
                continue  # a stale entry: the word no longer holds a
            i = index(a, o, e)
            used = 2 if a == b else 1  # a's one merge consumes
            c = freqs[wi]
            while True:
                if i + 1 < e and flat[i + 1] == b:
                    # merge in place: t at i, the rest of the word moves one left
                    flat[i] = t
                    if i + 2 < e:
                        flat[i + 1 : e - 1] = flat[i + 2 : e]
                    e -= 1
                    left_a -= used
                    saved += c
                    # The "word wi holds pair p" update below is written out twice
                    # (left and right neighbour) on purpose: this is the hot loop, and a
                    # helper call here measured up to 4% of training time.
                    if i > o:
                        left = flat[i - 1] << _SHIFT
                        p = left | a
                        changed[p] = get(p, 0) - c
                        p = left | t
                        changed[p] = get(p, 0) + c
                        s_ = where.get(p)
                        if s_ is None:
                            where[p] = wi
                        elif s_.__class__ is int:
                            if s_ != wi:
                                where[p] = array("i", (s_, wi))
                        elif s_[-1] != wi:
                            s_.append(wi)
                    if i + 1 < e:
                        right = flat[i + 1]
                        p = b_hi | right
                        changed[p] = get(p, 0) - c
                        p = t_hi | right
                        changed[p] = get(p, 0) + c
                        s_ = where.get(p)
                        if s_ is None:
                            where[p] = wi
                        elif s_.__class__ is int:
                            if s_ != wi:
                                where[p] = array("i", (s_, wi))
                        elif s_[-1] != wi:
                            s_.append(wi)
                    else:
                        break
                else:
                    left_a -= 1
                if left_a <= 0:
                    break
                i = index(a, i + 1, e)
            size[wi] = e - o
        self._apply_changes(pair, changed)
        return saved

    def merge_long_word(self, wi: int, a: int, b: int, t: int, changed: dict[int, int]) -> int:
        """Replace every (a, b) in word ``wi`` by t, left to right without
        overlap, and return how many tokens that saves (replacements times the
        word's count). Adds the pair count changes next to the merge sites to
        ``changed`` (pair -> delta), exactly as :meth:`apply_merge` does.

        The merge sites are found with ``array.index`` (C speed) and the word
        is rebuilt from the slices between them and written back once, so a
        merge costs one pass over the word however many sites it has.
        """
        flat, where, c = self.flat, self.where, self.freqs[wi]
        o = self.start[wi]
        e = o + self.size[wi]
        index, get = flat.index, changed.get
        sites: list[int] = []
        i = o
        left_a = flat[o:e].count(a)
        while left_a > 0:
            i = index(a, i, e)
            if i + 1 < e and flat[i + 1] == b:
                sites.append(i)
                left_a -= 2 if a == b else 1
                i += 2
            else:
                left_a -= 1
                i += 1
        if not sites:
            return 0  # a stale entry: the word no longer holds the pair
        out = array("i")
        prev = o  # first symbol not yet copied
        for i in sites:
            new_pairs = []
            if i > o:
                left = t if i == prev else flat[i - 1]  # t: the previous site ends here
                p = left << _SHIFT | a
                changed[p] = get(p, 0) - c
                new_pairs.append(left << _SHIFT | t)
            if i + 2 < e:
                right = flat[i + 2]
                p = b << _SHIFT | right
                changed[p] = get(p, 0) - c
                new_pairs.append(t << _SHIFT | right)
            for p in new_pairs:
                changed[p] = get(p, 0) + c
                s_ = where.get(p)
                if s_ is None:
                    where[p] = wi
                elif s_.__class__ is int:
                    if s_ != wi:
                        where[p] = array("i", (s_, wi))
                elif s_[-1] != wi:
                    s_.append(wi)
            out.extend(flat[prev:i])
            out.append(t)
            prev = i + 2
        out.extend(flat[prev:e])
        flat[o : o + len(out)] = out
        self.size[wi] = len(out)
        return c * len(sites)

    def _apply_changes(self, pair: int, changed: dict[int, int]) -> None:
        """Add the count changes of one merge (pair -> delta) to the pair counts;
        push the pairs that grew and are counted ``floor`` times or more."""
        pair_counts, where, heap, vocab, floor = self.pair_counts, self.where, self.heap, self.vocab, self.floor
        pair_counts.pop(pair, None)
        push = heapq.heappush
        for p, d in changed.items():
            if p == pair or d == 0:
                continue
            v = pair_counts.get(p, 0) + d
            if v <= 0:
                pair_counts.pop(p, None)
                where.pop(p, None)
            else:
                pair_counts[p] = v
                if d > 0 and v >= floor:
                    push(heap, (-v, vocab[p >> _SHIFT], vocab[p & _MASK], p))

    def free(self) -> None:
        """Free the training tables in slices: dropping millions of objects in
        one go holds the GIL long enough to freeze a GUI thread. The vocabulary
        is kept."""
        del self.heap[:]
        self.flat, self.start, self.size = array("i"), array("q"), array("i")
        freqs = self.freqs
        while freqs:
            del freqs[-50_000:]
        for d in (self.where, self.pair_counts):
            if len(d) <= 200_000:  # small enough to free in one go (a few ms)
                d.clear()
            while d:
                for _ in range(min(len(d), 20_000)):
                    d.popitem()
