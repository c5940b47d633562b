"""The merge table's row order, without Qt: integer sort keys per column, stable sorts in numpy.

:class:`~tokexplorer.gui.models.merge_model.MergeTableModel` sorts its records
(the merges in rank order, then the tokens no merge builds) by one column. Each
column's values become one integer per record (:func:`sort_key`): numbers as they
are (``-1`` where unknown), tokens as the place of their bytes among all the
column's distinct byte strings (:func:`place_of_values`), so that one stable
``numpy.argsort`` orders 200,000 records in a few milliseconds, ties in record
order both ways (:func:`stable_order`), the order Python's ``sorted(range(n),
key=..., reverse=...)`` gives over the raw values. A token column's key takes a
sort of 200,000 byte strings (about 50 ms), so the merge pane's index worker
builds those keys with the search index (:func:`token_sort_keys`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from operator import attrgetter

import numpy as np

from tokexplorer.core.types import MergeRecord
from tokexplorer.gui.models.merge_columns import (
    COL_BYTES,
    COL_COUNT,
    COL_FIRES,
    COL_LEFT,
    COL_MERGED,
    COL_RANK,
    COL_RIGHT,
)

#: Byte strings copied into numpy at once (the GIL is held for the copy of one slice).
_COPY_SLICE = 16_384

#: The columns whose keys come from sorting byte strings (the slow ones, built in a worker).
TOKEN_COLUMNS: tuple[int, ...] = (COL_LEFT, COL_RIGHT, COL_MERGED)


def place_of_values(values: Sequence[bytes]) -> np.ndarray:
    """Each value's place among the distinct ``values`` in ascending (Python ``bytes``) order,
    equal values at equal places: an int64 array that sorts as the values do.

    The values are sorted in numpy as fixed-width byte strings (NUL-padded, so ``b"a"`` and
    ``b"a\\0"`` look alike there) with the length breaking such ties, which is Python's order;
    they are copied in slices, and numpy sorts without the GIL: a worker doing this holds
    the GUI thread a few milliseconds at a time (``sorted()`` of 200,000 byte strings
    held it 100 ms at once).

    >>> place_of_values([b"b", b"", b"a\\0", b"a", b"b"]).tolist()
    [3, 0, 2, 1, 3]
    """
    n = len(values)
    if not n:
        return np.zeros(0, dtype=np.int64)
    lengths = np.fromiter(map(len, values), dtype=np.int64, count=n)
    padded = np.empty(n, dtype=f"S{max(int(lengths.max()), 1)}")
    for start in range(0, n, _COPY_SLICE):
        padded[start : start + _COPY_SLICE] = values[start : start + _COPY_SLICE]
    order = np.lexsort((lengths, padded))
    ordered, ordered_lengths = padded[order], lengths[order]
    new = np.ones(n, dtype=np.int64)  # 1 where a value differs from the one before it in order
    new[1:] = (ordered[1:] != ordered[:-1]) | (ordered_lengths[1:] != ordered_lengths[:-1])
    place = np.empty(n, dtype=np.int64)
    place[order] = np.cumsum(new) - 1
    return place


def sort_key(
    column: int,
    merges: Sequence[MergeRecord],
    tokens: Sequence[bytes],
    vocab: Mapping[int, bytes],
    *,
    base: Sequence[int],
    fires: Sequence[int] | None = None,
) -> np.ndarray:
    """One int64 per record (``len(tokens)``: the merges, then the tokens no merge builds)
    that sorts as ``column``'s raw values do.

    Args:
        column: a merge table column (``COL_RANK`` ... ``COL_FIRES``).
        merges: the merges in rank order; ``tokens``: each record's token bytes.
        vocab: token id -> bytes (a part missing from it sorts as ``b""``).
        base: the records in table order (rank order, tokens no merge builds by id
            among them): the Rank column's order.
        fires: the Fires counts, one per merge (None: not counted, all ``-1``).

    Raises:
        ValueError: unknown column.
    """
    n, n_merges = len(tokens), len(merges)
    if column == COL_RANK:
        key = np.empty(n, dtype=np.int64)
        key[np.asarray(base, dtype=np.intp)] = np.arange(n, dtype=np.int64)
        return key
    if column in (COL_LEFT, COL_RIGHT):
        part = [m.left if column == COL_LEFT else m.right for m in merges]
        return place_of_values([vocab.get(t, b"") for t in part] + [b""] * (n - n_merges))
    if column == COL_MERGED:
        return place_of_values(tokens)
    if column == COL_BYTES:
        return np.fromiter(map(len, tokens), dtype=np.int64, count=n)
    if column == COL_COUNT:
        counts = [-1 if m.count is None else m.count for m in merges]
        return np.array(counts + [-1] * (n - n_merges), dtype=np.int64)
    if column == COL_FIRES:
        numbers = list(fires) if fires is not None else [-1] * n_merges
        return np.array(numbers + [-1] * (n - n_merges), dtype=np.int64)
    raise ValueError(f"unknown merge table column {column!r}")


def token_sort_keys(
    merges: Sequence[MergeRecord], tokens: Sequence[bytes], vocab: Mapping[int, bytes]
) -> dict[int, np.ndarray]:
    """The keys of the token columns (Left, Right, Merged token), about 0.15 s for 200,000
    merges: built in a worker with the search index."""
    return {col: sort_key(col, merges, tokens, vocab, base=()) for col in TOKEN_COLUMNS}


def stable_order(key: np.ndarray, *, descending: bool = False) -> np.ndarray:
    """The records (indices into ``key``) sorted by ``key``, records that tie in
    ascending record order whichever the direction (as ``sorted(range(n),
    key=key.__getitem__, reverse=descending)`` orders them).

    >>> stable_order(np.array([5, 3, 5, 1]), descending=True).tolist()
    [0, 2, 1, 3]
    """
    return np.argsort(-key if descending else key, kind="stable")


def shown_rows(order: np.ndarray, mask: bytes | bytearray | None) -> list[int]:
    """The records of ``order`` that pass the filter ``mask`` (one byte per record, 1:
    shown; None: no filter), in that order: the view's rows.

    >>> shown_rows(np.array([2, 0, 1]), bytearray([1, 0, 1]))
    [2, 0]
    """
    if mask is None:
        return order.tolist()
    keep = np.frombuffer(bytes(mask), dtype=np.uint8)[order] != 0
    return order[keep].tolist()


def rows_of_records(rows: Sequence[int], n: int) -> np.ndarray:
    """Record -> view row for the view's ``rows`` (records, ``n`` in all), ``-1`` for a
    record not shown.

    >>> rows_of_records([2, 0], 3).tolist()
    [1, -1, 0]
    """
    where = np.full(n, -1, dtype=np.int64)
    if len(rows):
        where[np.asarray(rows, dtype=np.intp)] = np.arange(len(rows), dtype=np.int64)
    return where


def largest_numbers(
    merges: Sequence[MergeRecord], tokens: Sequence[bytes]
) -> tuple[int | None, int | None, int | None]:
    """The largest rank, token length (bytes) and pair count of a table's records, None where
    there is none; with ``map`` and builtins, as 32,000 merges are measured on the GUI thread."""
    rank = max(map(attrgetter("rank"), merges), default=None)
    counts = [c for c in map(attrgetter("count"), merges) if c is not None]
    return rank, max(map(len, tokens), default=None), max(counts, default=None)
