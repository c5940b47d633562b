"""Where the merges of a BPE fire when a text is encoded.

:func:`fire_index` encodes a text chunk by chunk and records every merge that
fires in every unique chunk (:class:`FireIndex`): per-merge firing counts and,
for one merge (:meth:`FireIndex.where`), the byte spans where it fires and the
chunks it occurs in (:class:`FireSites`). The merges pane colours its table
and its sample text with these.

Offsets are UTF-8 byte offsets (half-open) into the text. :func:`why_no_fire`
says why a merge that fires nowhere does not: its bytes do not occur, occur only
across chunk boundaries, or a lower-ranked merge takes part of them first.

>>> from tokexplorer.core.bpe import train_bpe
>>> bpe, _ = train_bpe("abab abab", vocab_size=258, pattern="none")
>>> fire_index(bpe, "abab ab").where(0)
FireSites(rank=0, spans=((0, 2), (2, 4), (5, 7)), chunks=(('abab ab', 3),))
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from dataclasses import dataclass, field

from tokexplorer.core.analysis.blocks import text_blocks
from tokexplorer.core.analysis.merges import MergeIndex
from tokexplorer.core.backends import CancelCheck
from tokexplorer.core.bpe import BPE, merge_sites
from tokexplorer.core.errors import Cancelled

__all__ = ["ChunkStarts", "FireIndex", "FireSites", "NoFire", "fire_index", "why_no_fire"]


class ChunkStarts:
    """Per occurrence of a chunk in a text, ``(chunk index, byte offset in the text)``, held
    as two arrays of 8-byte integers: 16 bytes an occurrence where a list of tuples took
    about 110 (a 2,000,000-character Compare text has some 450,000 chunks: 7 MB, not 50 MB).
    Iterates, and has a length, as the list of pairs it stands for.

    >>> starts = ChunkStarts()
    >>> starts.append(3, 0); starts.append(1, 5)
    >>> list(starts), len(starts)
    ([(3, 0), (1, 5)], 2)
    """

    __slots__ = ("chunk", "offset")

    def __init__(self) -> None:
        self.chunk, self.offset = array("q"), array("q")

    def append(self, chunk: int, offset: int) -> None:
        """Add an occurrence of chunk ``chunk`` at byte ``offset``."""
        self.chunk.append(chunk)
        self.offset.append(offset)

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return zip(self.chunk, self.offset)

    def __len__(self) -> int:
        return len(self.chunk)


@dataclass(frozen=True, slots=True)
class FireSites:
    """Where one merge fires in a text.

    Attributes:
        rank: the merge's rank.
        spans: half-open byte spans ``(start, end)`` in the UTF-8 text of each
            token the merge made, in text order.
        chunks: ``(chunk, count)``: the chunks it fires in and how often in
            total, most frequent first (ties: first seen first).
    """

    rank: int
    spans: tuple[tuple[int, int], ...]
    chunks: tuple[tuple[str, int], ...]

    @property
    def count(self) -> int:
        """How often the merge fires in the text (= ``len(spans)``)."""
        return len(self.spans)


@dataclass(slots=True)
class FireIndex:
    """Every merge that fires when a text is encoded.

    Attributes:
        counts: per merge rank, how often it fires (list of int, ``len ==
            number of merges``).
        chunks: the unique chunks of the text, in first-seen order.
        chunk_starts: per occurrence ``(chunk index, byte offset in the text)``
            (:class:`ChunkStarts`).
        sites: per unique chunk, ``(rank, start, end)`` byte spans inside the
            chunk of each merge that fires there.
        unmatched: merges that fired but match no merge record (pieces joined
            to a token no record names with those parts; 0 for consistent models).
    """

    counts: list[int]
    chunks: list[str]
    chunk_starts: ChunkStarts
    sites: list[list[tuple[int, int, int]]]
    unmatched: int = 0
    _by_rank: dict[int, list[int]] = field(default_factory=dict)

    def where(self, rank: int) -> FireSites:
        """Where the merge of ``rank`` fires: byte spans and chunks with counts."""
        if not self._by_rank:
            for ci, s in enumerate(self.sites):
                for r, _, _ in s:
                    lst = self._by_rank.setdefault(r, [])
                    if not lst or lst[-1] != ci:
                        lst.append(ci)
        wanted = set(self._by_rank.get(rank, ()))
        spans: list[tuple[int, int]] = []
        per_chunk: dict[int, int] = {}
        for ci, off in self.chunk_starts:
            if ci not in wanted:
                continue
            for r, s, e in self.sites[ci]:
                if r == rank:
                    spans.append((off + s, off + e))
                    per_chunk[ci] = per_chunk.get(ci, 0) + 1
        order = sorted(per_chunk, key=lambda ci: (-per_chunk[ci], ci))
        return FireSites(rank, tuple(spans), tuple((self.chunks[ci], per_chunk[ci]) for ci in order))


def fire_index(
    bpe: BPE,
    text: str,
    *,
    index: MergeIndex | None = None,
    cancel: CancelCheck | None = None,
) -> FireIndex:
    """Encode ``text`` (special tokens as plain text) and record every merge that fires.

    Args:
        bpe: the model.
        text: the text (for the GUI: the compare pane's sample text).
        index: a prepared :class:`MergeIndex` of the same model (built when None).
        cancel: checked every 256 unique chunks; True raises :class:`Cancelled`.

    Returns:
        a :class:`FireIndex`.

    >>> from tokexplorer.core.bpe import train_bpe
    >>> bpe, _ = train_bpe("abab abab", vocab_size=258, pattern="none")
    >>> fire_index(bpe, "abab").counts
    [2, 1]
    """
    idx = index if index is not None else MergeIndex(bpe.merges, bpe.vocab)
    ranks = bpe.mergeable_ranks
    counts = [0] * len(idx)
    chunks: list[str] = []
    seen: dict[str, int] = {}
    starts = ChunkStarts()
    sites: list[list[tuple[int, int, int]]] = []
    unmatched = 0
    off = 0
    # split block by block (cut where no chunk crosses): one split of a 2 MB text would
    # hold the interpreter lock, and so every other thread, for a third of a second
    for chunk in (c for a, b in text_blocks(text) for c in bpe.chunks(text[a:b])):
        ci = seen.get(chunk)
        data = chunk.encode("utf-8")
        if ci is None:
            ci = seen[chunk] = len(chunks)
            chunks.append(chunk)
            s_list: list[tuple[int, int, int]] = []
            for s, m, e in merge_sites(ranks, data):
                r = idx.rank_of_pair(data[s:m], data[m:e])
                if r is None:
                    unmatched += 1
                    continue
                s_list.append((r, s, e))
            sites.append(s_list)
            if cancel is not None and ci % 256 == 0 and cancel():
                raise Cancelled("cancelled")
        for r, _, _ in sites[ci]:
            counts[r] += 1
        starts.append(ci, off)
        off += len(data)
    return FireIndex(counts, chunks, starts, sites, unmatched)


@dataclass(frozen=True, slots=True)
class NoFire:
    """Why a merge fires nowhere in a text (:func:`why_no_fire`).

    Attributes:
        in_text: how often the merged token's bytes occur in the text (overlapping
            occurrences counted), 0: they do not occur.
        in_chunks: how many of those lie inside one chunk (the others cross a
            boundary the split pattern cuts at, where no merge can join them).
        taker: when some lie inside a chunk, the rank of the lowest-ranked merge
            that fires over part of their bytes and bytes beside them (it takes
            them first), or None when none does.
        chunk: a chunk in which ``taker`` does so ("" when ``taker`` is None).
    """

    in_text: int
    in_chunks: int
    taker: int | None = None
    chunk: str = ""


def _occurrences(data: bytes, token: bytes) -> list[int]:
    """Start offsets of every (overlapping) occurrence of ``token`` in ``data``."""
    out: list[int] = []
    i = data.find(token)
    while i >= 0:
        out.append(i)
        i = data.find(token, i + 1)
    return out


def why_no_fire(fires: FireIndex, text: str, token: bytes) -> NoFire:
    """Why the merge making ``token`` fires nowhere in ``text`` (``fires`` being
    ``fire_index(bpe, text)``).

    Args:
        fires: the firing index of ``text``.
        text: the text it was computed on.
        token: the merged token's bytes.

    Returns:
        a :class:`NoFire`: how often the bytes occur in the text and inside chunks,
        and the lowest-ranked merge that joins part of them with a neighbour.

    >>> from tokexplorer.core.bpe import train_bpe
    >>> bpe, _ = train_bpe("abab abab", vocab_size=258, pattern="gpt2")
    >>> [(m.rank, m.merged) for m in bpe.merges]
    [(0, b'ab'), (1, b'abab')]
    >>> why_no_fire(fire_index(bpe, "xyz"), "xyz", b"abab")
    NoFire(in_text=0, in_chunks=0, taker=None, chunk='')
    >>> why_no_fire(fire_index(bpe, "ab ab"), "ab ab", b"ab ab")  # chunks 'ab', ' ab'
    NoFire(in_text=1, in_chunks=0, taker=None, chunk='')
    >>> why_no_fire(fire_index(bpe, "aabab"), "aabab", b"aab")  # merge 1 'abab' takes its 'ab'
    NoFire(in_text=1, in_chunks=1, taker=1, chunk='aabab')
    """
    in_text = len(_occurrences(text.encode("utf-8"), token))
    in_chunks, taker, where = 0, None, -1
    if not in_text:
        return NoFire(0, 0)
    n = len(token)
    uses = [0] * len(fires.chunks)
    for ci, _off in fires.chunk_starts:
        uses[ci] += 1
    try:  # whole characters: a chunk without them as text is skipped without encoding it
        as_text: str | None = token.decode("utf-8")
    except UnicodeDecodeError:
        as_text = None
    for ci, chunk in enumerate(fires.chunks):
        if as_text is not None and as_text not in chunk:
            continue
        starts = _occurrences(chunk.encode("utf-8"), token)
        if not starts:
            continue
        in_chunks += len(starts) * uses[ci]
        for r, s, e in fires.sites[ci]:
            crosses = any(s < p + n and e > p and not (p <= s and e <= p + n) for p in starts)
            if crosses and (taker is None or r < taker):
                taker, where = r, ci
    return NoFire(in_text, in_chunks, taker, fires.chunks[where] if taker is not None else "")
