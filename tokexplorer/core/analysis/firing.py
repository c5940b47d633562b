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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from tokexplorer.core.analysis.blocks import text_blocks
from tokexplorer.core.analysis.merges import MergeIndex
from tokexplorer.core.backends import CancelCheck
from tokexplorer.core.bpe import BPE, merge_sites
from tokexplorer.core.errors import Cancelled

# a chunk up to this long (bytes) is replayed whole; a longer one is encoded and its tokens replayed
SHORT_CHUNK_BYTES = 64

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
            chunk of each merge that fires there (see :func:`fire_index` for their order).
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
        inside: dict[int, list[tuple[int, int]]] = {}  # chunk -> its spans of ``rank``, in text order
        for ci in wanted:
            inside[ci] = sorted((s, e) for r, s, e in self.sites[ci] if r == rank)
            per_chunk[ci] = 0
        for ci, off in self.chunk_starts:
            if ci in wanted:
                spans.extend((off + s, off + e) for s, e in inside[ci])
                per_chunk[ci] += len(inside[ci])
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

    Each unique chunk is replayed once (:func:`~tokexplorer.core.bpe.merge_sites`). A chunk
    longer than :data:`SHORT_CHUNK_BYTES` is first encoded by the model's
    :class:`~tokexplorer.core.bpe.encoder.RankEncoder` (cached, at the engine's speed), and
    only the merges inside each resulting token are replayed, once per distinct token, on the
    token's own bytes. That gives the same merges as replaying the whole chunk: no merge ever
    joins across the edge of a token of the result, so the pairs inside a token meet in the
    same order whatever lies beside them (lowest rank first, leftmost of equal ranks first).
    A whole replay costs O(n²) in the chunk's bytes: a 32,000-letter chunk took 9.8 s
    that way, 0.07 s so.

    Args:
        bpe: the model.
        text: the text (for the GUI: the compare pane's sample text).
        index: a prepared :class:`MergeIndex` of the same model (built when None).
        cancel: checked every 256 unique chunks, and inside long chunks; True raises
            :class:`Cancelled`.

    Returns:
        a :class:`FireIndex` (each chunk's sites: a short chunk's in the order they
        fire, a long one's token by token in text order).

    >>> from tokexplorer.core.bpe import train_bpe
    >>> bpe, _ = train_bpe("abab abab", vocab_size=258, pattern="none")
    >>> fire_index(bpe, "abab").counts
    [2, 1]
    """
    idx = index if index is not None else MergeIndex(bpe.merges, bpe.vocab)
    ranks, vocab, cache = bpe.mergeable_ranks, bpe.vocab, bpe.rank_encoder.chunk_cache
    counts = [0] * len(idx)
    chunks: list[str] = []
    seen: dict[str, int] = {}
    starts = ChunkStarts()
    sites: list[list[tuple[int, int, int]]] = []
    lengths: list[int] = []  # per unique chunk, its UTF-8 length in bytes
    per_token: dict[int, tuple[list[tuple[int, int, int]], int]] = {}
    unmatched = 0
    off = 0
    # split block by block (cut where no chunk crosses): one split of a 2 MB text would
    # hold the interpreter lock, and so every other thread, for a third of a second
    for chunk in (c for a, b in text_blocks(text) for c in bpe.chunks(text[a:b])):
        ci = seen.get(chunk)
        if ci is None:
            ci = seen[chunk] = len(chunks)
            chunks.append(chunk)
            data = chunk.encode("utf-8")
            if len(data) <= SHORT_CHUNK_BYTES:  # replayed whole: cheaper than encoding it first
                s_list, missed = _token_sites(ranks, idx, data)
            else:
                s_list, missed = _sites_by_token(cache.lookup(chunk, cancel), vocab, per_token, ranks, idx)
            unmatched += missed
            sites.append(s_list)
            lengths.append(len(data))
            if cancel is not None and ci % 256 == 0 and cancel():
                raise Cancelled("cancelled")
        for r, _, _ in sites[ci]:
            counts[r] += 1
        starts.append(ci, off)
        off += lengths[ci]
    return FireIndex(counts, chunks, starts, sites, unmatched)


def _token_sites(ranks: dict[bytes, int], idx: MergeIndex, data: bytes) -> tuple[list[tuple[int, int, int]], int]:
    """``[(rank, start, end), ...]`` of the merges that fire when ``data`` (one chunk, or one
    token's bytes) is replayed, in the order they fire, and how many match no merge record."""
    out: list[tuple[int, int, int]] = []
    unmatched = 0
    for s, m, e in merge_sites(ranks, data):
        r = idx.rank_of_pair(data[s:m], data[m:e])
        if r is None:
            unmatched += 1
        else:
            out.append((r, s, e))
    return out, unmatched


def _sites_by_token(
    ids: Sequence[int],
    vocab: dict[int, bytes],
    per_token: dict[int, tuple[list[tuple[int, int, int]], int]],
    ranks: dict[bytes, int],
    idx: MergeIndex,
) -> tuple[list[tuple[int, int, int]], int]:
    """The merges of a chunk encoded as ``ids``: each token's own merges (replayed once per
    distinct token, kept in ``per_token``), shifted to where the token starts in the chunk."""
    out: list[tuple[int, int, int]] = []
    unmatched = pos = 0
    for t in ids:
        data = vocab[t]
        got = per_token.get(t)
        if got is None:
            got = per_token[t] = _token_sites(ranks, idx, data)
        out.extend((r, pos + s, pos + e) for r, s, e in got[0])
        unmatched += got[1]
        pos += len(data)
    return out, unmatched


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
