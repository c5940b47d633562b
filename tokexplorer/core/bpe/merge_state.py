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
MAX_TRAIN_VOCAB = 0x110000
"""Largest vocabulary the trainer supports (1,114,112): while it merges, a word
is a str whose characters are token ids (``chr(id)``), and U+10FFFF is the
largest code point."""


class MergeState:
    """The trainer's tables while it merges.

    Word table: ``words[w]`` is word w's symbols as a str, one character per
    token id (``chr(id)``; a word of bytes starts as its Latin-1 decoding), and
    ``freqs[w]`` its count. A merge finds its sites with ``str.find`` and
    rewrites a word with ``str.replace``, both at C speed: ``replace`` works left
    to right without overlap, as the textbook merge does, and costs one pass
    over the word however many sites it has, so a word of megabytes
    (``--pattern none``) merges in linear time. A stale index (a word that no
    longer holds the pair) is dismissed by one substring test.

    A pair of ids (a, b) is the int key ``a << 21 | b``: cheaper to hash and to
    store than a tuple. ``pair_counts`` holds the count of every pair; ``where``
    maps a pair to the indices of the words that held it when it was added: one
    int, or a compact int32 array once there are two (a set costs ten times
    that). An index may repeat or go stale; a visit to a word that no longer
    holds the pair changes nothing. A pair whose count drops to zero loses its
    entry.

    The heap holds ``(-count, left bytes, right bytes, pair)`` for the pairs
    counted at least ``floor`` times (the others cannot be the best while a
    pair above the floor exists); when none is left above it the floor drops
    to 1 and the heap is rebuilt. Pairs seen once are most of all pairs in a
    large corpus, and rarely merged. Stale entries are dropped lazily, and the
    heap is rebuilt from the live counts when it grows past ``heap_limit``.
    """

    __slots__ = ("words", "freqs", "pair_counts", "where", "heap", "heap_limit", "floor", "vocab", "id_of")

    def __init__(self) -> None:
        self.words: list[str] = []
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
        words, freqs = self.words, self.freqs
        pair_counts, where = self.pair_counts, self.where
        pc_get = pair_counts.get
        w_get = where.get
        popitem = counts.popitem
        wi = 0
        while counts:
            chunk, c = popitem()
            w = chunk.encode("utf-8") if chunk.__class__ is str else bytes(chunk)
            if len(w) < 2 or c <= 0:
                continue
            words.append(w.decode("latin-1"))
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
        _clear_in_slices(heap)  # a million entries dropped at once held the GIL 50-100 ms
        entries = [(-c, vocab[p >> _SHIFT], vocab[p & _MASK], p) for p, c in self.pair_counts.items() if c >= floor]
        # heapify() holds the GIL throughout (100 ms for 274,000 entries on a busy machine,
        # a frozen window): the first HEAPIFY_MAX entries are heapified, the rest pushed one
        # by one. Pops come in the same order either way: the entries are all distinct.
        heap.extend(entries[:HEAPIFY_MAX])
        heapq.heapify(heap)
        push = heapq.heappush
        for i in range(HEAPIFY_MAX, len(entries)):
            push(heap, entries[i])
        del entries
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

        Sites are found left to right without overlap (``str.find`` from the end
        of the previous site), as ``str.replace`` then rewrites the word. Where
        two sites touch (``a b a b``), the second one's left neighbour is the t
        the first one wrote.
        """
        words, freqs, where, counts = self.words, self.freqs, self.where, self.pair_counts
        pair = a << _SHIFT | b
        wis = where.pop(pair, ())
        if wis.__class__ is int:
            wis = (wis,)
        ab, tc = chr(a) + chr(b), chr(t)
        grown: dict[int, int] = {}  # pairs holding t -> count change
        get = grown.get
        emptied: list[int] = []  # pairs whose count reached 0
        t_hi, b_hi, saved = t << _SHIFT, b << _SHIFT, 0
        for wi in wis:
            w = words[wi]
            n = len(w)
            if n == 2:  # the most common case: the whole word becomes one token
                if w == ab:
                    words[wi] = tc
                    saved += freqs[wi]
                continue
            i = w.find(ab)
            if i < 0:
                continue  # a stale entry: the word no longer holds the pair
            c = freqs[wi]
            end = -1  # where the previous site ended
            while i >= 0:
                saved += c
                # A neighbour's old pair held this word before the merge, so its count
                # is at least c and it is decremented in place; the new pairs hold t
                # and are summed in `grown`. The "word wi holds pair p" update is
                # written out twice (left and right neighbour) on purpose: this is the
                # hot loop, and a helper call here measured up to 4% of training time.
                if i:
                    if i == end:  # the site before ends here: the left neighbour is its t
                        p = t_hi | a
                        grown[p] = get(p, 0) - c
                        p = t_hi | t
                    else:
                        left = ord(w[i - 1]) << _SHIFT
                        p = left | a
                        v = counts[p] - c
                        if v:
                            counts[p] = v
                        else:
                            del counts[p]
                            emptied.append(p)
                        p = left | t
                    grown[p] = get(p, 0) + c
                    s_ = where.get(p)
                    if s_ is None:
                        where[p] = wi
                    elif s_.__class__ is int:
                        if s_ != wi:
                            where[p] = array("i", (s_, wi))
                    elif s_[-1] != wi:
                        s_.append(wi)
                end = i + 2
                if end < n:
                    right = ord(w[end])
                    p = b_hi | right
                    v = counts[p] - c
                    if v:
                        counts[p] = v
                    else:
                        del counts[p]
                        emptied.append(p)
                    p = t_hi | right
                    grown[p] = get(p, 0) + c
                    s_ = where.get(p)
                    if s_ is None:
                        where[p] = wi
                    elif s_.__class__ is int:
                        if s_ != wi:
                            where[p] = array("i", (s_, wi))
                    elif s_[-1] != wi:
                        s_.append(wi)
                    i = w.find(ab, end)
                else:
                    break
            words[wi] = w.replace(ab, tc)
        self._apply_changes(pair, grown, emptied)
        return saved

    def _apply_changes(self, pair: int, grown: dict[int, int], emptied: list[int]) -> None:
        """Finish one merge: drop ``pair``, add the count changes of the pairs
        holding the new token (``grown``: pair -> delta, never below zero in
        sum), push those counted ``floor`` times or more, and forget the words
        of every pair no word holds any more (``emptied``, and grown pairs whose
        changes cancelled out)."""
        pair_counts, where, heap, vocab, floor = self.pair_counts, self.where, self.heap, self.vocab, self.floor
        pair_counts.pop(pair, None)
        push = heapq.heappush
        get = pair_counts.get
        for p, d in grown.items():
            v = get(p, 0) + d
            if v > 0:
                pair_counts[p] = v
                if d > 0 and v >= floor:
                    push(heap, (-v, vocab[p >> _SHIFT], vocab[p & _MASK], p))
            else:
                emptied.append(p)
        for p in emptied:
            if p not in pair_counts:
                where.pop(p, None)

    def free(self) -> None:
        """Free the training tables in slices: dropping millions of objects in
        one go holds the GIL long enough to freeze a GUI thread. The vocabulary
        is kept."""
        for table in (self.heap, self.words, self.freqs):
            _clear_in_slices(table)
        for d in (self.where, self.pair_counts):
            if len(d) <= 200_000:  # small enough to free in one go (a few ms)
                d.clear()
            while d:
                for _ in range(min(len(d), 20_000)):
                    d.popitem()


#: Most heap entries built by one ``heapify`` call (about 5 ms); see :meth:`MergeState.rebuild_heap`.
HEAPIFY_MAX = 50_000


def _clear_in_slices(table: list, step: int = 50_000) -> None:
    """Empty ``table`` ``step`` items at a time, so that the GIL can pass to another
    thread between slices (freeing a million heap entries in one call took 50-100 ms)."""
    while table:
        del table[-step:]
