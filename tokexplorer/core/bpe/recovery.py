"""Merges recovered from a rank table (``bytes -> rank``), and the tokens no merge builds.

tiktoken keeps no merge list: it encodes a chunk by rank-order merging of its
bytes (:func:`~tokexplorer.core.bpe.encoder.merge_parts`), except that a chunk
which is itself a token is emitted whole. So a token is *built by a merge* when
rank-order merging of its own bytes ends with the token; the merge that builds
it joins the two parts that merging joins last. That pair is unique, and it is
not "any two tokens whose bytes make it up": in Llama 3, ``.:.:`` is ``.:`` +
``.:``, but merging ``. : . :`` joins ``:.`` first and builds ``.:.:`` from
``.:.`` + ``:``.

Some tokens are never built (Llama 3's ranks have 588 such tokens): merging
their bytes ends with two or more other parts. tiktoken emits one of them only
when a whole chunk is that token; :func:`recover_merges` lists them apart.

>>> ranks = {bytes([b]): b for b in range(256)} | {b"ba": 256, b"ab": 257, b"abab": 258}
>>> merges, unbuilt = recover_merges(ranks)
>>> [(m.rank, m.merged) for m in merges], unbuilt
([(0, b'ba'), (1, b'ab')], [258])
"""

from __future__ import annotations

from collections.abc import Mapping

from tokexplorer.core.bpe.encoder import merge_parts
from tokexplorer.core.types import MergeRecord

__all__ = ["last_merge", "recover_merges"]


def last_merge(ranks: Mapping[bytes, int], token: bytes) -> tuple[bytes, bytes] | None:
    """The two parts that rank-order merging of ``token``'s own bytes joins last,
    when that merging ends with ``token``; None when it ends with other parts.

    Args:
        ranks: token bytes -> rank; ``token`` must be one of them.
        token: the bytes of a token of two bytes or more.

    Returns:
        ``(left, right)`` with ``left + right == token``, or None.

    Usually every merge before the last one has a lower rank than ``token``.
    Rarely merging stops below the token's rank with three parts or more and
    goes on with higher-ranked merges that end with it (Llama 3 builds
    ``.:.:``, rank 100421, from ``.:.`` (rank 105051) and ``:``); the left or
    right part then has a higher rank than the token.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257}
    >>> last_merge(ranks, b"abc")
    (b'ab', b'c')
    >>> ranks |= {b"xyz": 258, b"yz": 259, b"ba": 260, b"baba": 261}
    >>> last_merge(ranks, b"xyz"), last_merge(ranks, b"baba")
    ((b'x', b'yz'), None)
    """
    parts = merge_parts(ranks, token, max_rank=ranks[token])
    get = ranks.get
    while len(parts) > 2:  # the rare case: go on as tiktoken does, with every rank
        best_rank, best = None, -1
        for i in range(len(parts) - 1):
            r = get(parts[i] + parts[i + 1])
            if r is not None and (best_rank is None or r < best_rank):
                best_rank, best = r, i
        if best_rank is None:
            return None
        parts[best : best + 2] = [parts[best] + parts[best + 1]]
    if len(parts) != 2:
        return None
    return parts[0], parts[1]


def recover_merges(ranks: Mapping[bytes, int]) -> tuple[list[MergeRecord], list[int]]:
    """Every merge a rank table implies, and the tokens no merge builds.

    Args:
        ranks: token bytes -> rank (= id), holding the 256 single bytes.

    Returns:
        ``(merges, unbuilt)``: the merges in the order of the ranks of the
        tokens they build, numbered 0, 1, 2, ... (``MergeRecord.rank``; the
        built token's id is ``new_id``, counts are None); and the ids of the
        tokens other than single bytes that no merge builds, in rank order
        (an empty token, as in Whisper's ranks, is one).

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257}
    >>> recover_merges(ranks)
    ([MergeRecord(#0 97+98->256 b'ab'), MergeRecord(#1 256+99->257 b'abc')], [])
    """
    merges: list[MergeRecord] = []
    unbuilt: list[int] = []
    for tok, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
        if len(tok) == 1:
            continue
        pair = last_merge(ranks, tok) if tok else None
        if pair is None:
            unbuilt.append(rank)
        else:
            merges.append(MergeRecord(len(merges), ranks[pair[0]], ranks[pair[1]], rank, tok, None))
    return merges, unbuilt
