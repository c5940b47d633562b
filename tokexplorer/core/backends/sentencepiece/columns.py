"""A SentencePiece result as numpy columns: per piece its id, its byte span in the
original text and whether it holds part of a UTF-8 character, without an object
per piece (what the counting paths need: the corpus statistics count tokens per
line from these columns), and the tokens built from them.

:meth:`SentencePieceTokenizer.tokenize
<tokexplorer.core.backends.sentencepiece.tokenizer.SentencePieceTokenizer.tokenize>`
builds its tokens from the same columns (:func:`piece_tokens`): each piece spans the
whole original characters its normalized characters came from
(:func:`.spans.char_span_columns`), and a run of byte pieces whose bytes match the
text gets one byte each (:func:`.spans.split_byte_runs`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tokexplorer.core.backends.sentencepiece.proto import Piece
from tokexplorer.core.backends.sentencepiece.spans import (
    char_byte_columns,
    char_span_columns,
    partial_flags,
    split_byte_runs,
)
from tokexplorer.core.backends.sentencepiece.vocab import PieceTable
from tokexplorer.core.tokens import OffsetMap
from tokexplorer.core.types import Token

__all__ = ["PieceColumns", "columns_of", "piece_lengths", "piece_tokens", "round_trip_flags"]


@dataclass(frozen=True, slots=True)
class PieceColumns:
    """The pieces of one text, one numpy column per attribute (index ``i`` is piece ``i``).

    Attributes:
        ids: int64 ``(n,)``, the piece ids.
        starts, ends: int64 ``(n,)``, byte spans in the original UTF-8 text (half-open).
        inside: bool ``(n,)``, the piece holds only part of what the normalizer made
            of one original character.
        partial: bool ``(n,)``, the piece holds part of a UTF-8 character (a span
            end inside one, or a byte piece of a lead or continuation byte).
        normalized: what the normalizer made of the text when it changed it, else None.
        exact_offsets: the spans tile the text's bytes and the normalizer changed nothing.
    """

    ids: Any
    starts: Any
    ends: Any
    inside: Any
    partial: Any
    normalized: str | None
    exact_offsets: bool


def piece_lengths(pieces: Sequence[Piece], table: PieceTable) -> tuple[np.ndarray, np.ndarray]:
    """The ids of ``pieces`` and their UTF-8 lengths in the normalized text (a byte
    piece one byte; an unknown piece the normalized text it swallowed), int64 ``(n,)`` each."""
    ids = np.array([p.id for p in pieces], dtype=np.int64)
    lengths = np.array([len(p.piece.encode("utf-8")) for p in pieces], dtype=np.int64)
    lengths[table.byte_values[ids] >= 0] = 1
    return ids, lengths


def columns_of(
    text: str,
    ids: np.ndarray,
    lengths: np.ndarray,
    table: PieceTable,
    *,
    offsets: tuple[str, list[int]] | None,
    normalized: str,
    dummy_prefix: bool,
    own_spans: Callable[[], tuple[np.ndarray, np.ndarray]],
) -> PieceColumns:
    """The :class:`PieceColumns` of ``text`` from its piece ``ids`` and their ``lengths``
    in the normalized text (``table``: the model's vocabulary).

    Args:
        offsets: the normalizer's output and offsets (``normalize_with_offsets``), or None.
        normalized: what the tokenizer's ``normalize`` makes of ``text``.
        dummy_prefix: the model adds a dummy-prefix ``▁``.
        own_spans: SentencePiece's own byte spans of the pieces, asked for only when
            the normalizer gives no offsets or the pieces do not spell its output.
    """
    src = text.encode("utf-8")
    mapped = None if offsets is None else char_span_columns(lengths, *offsets, dummy_prefix=dummy_prefix)
    if mapped is not None:
        to_byte = char_byte_columns(text)
        starts, ends, inside = to_byte[mapped[0]], to_byte[mapped[1]], mapped[2]
    else:
        starts, ends = own_spans()
        inside = np.zeros(len(ids), dtype=bool)
    values = table.byte_values[ids]
    split_byte_runs(starts, ends, values, src)
    changed = normalized if normalized != text else None
    if len(ids):
        tile = starts[0] == 0 and ends[-1] == len(src) and bool((starts[1:] == ends[:-1]).all())
    else:
        tile = not src
    partial = partial_flags(starts, ends, values, src)
    return PieceColumns(ids, starts, ends, inside, partial, changed, changed is None and bool(tile))


def piece_tokens(
    pieces: Sequence[Piece], cols: PieceColumns, text: str, table: PieceTable
) -> tuple[tuple[Token, ...], list[str]]:
    """The :class:`~tokexplorer.core.types.Token` of each piece of ``text`` (its columns
    ``cols``), and the original text every unknown piece swallowed, in order."""
    src = text.encode("utf-8")
    om = OffsetMap(text)
    tokens: list[Token] = []
    surfaces: list[str] = []
    columns = zip(pieces, cols.starts.tolist(), cols.ends.tolist(), cols.inside.tolist(), cols.partial.tolist())
    for p, b, e, inside_normalized, partial in columns:
        tid = p.id
        unknown = table.is_unknown[tid]
        if unknown:
            tb = src[b:e]
            surfaces.append(tb.decode("utf-8", "replace"))
        else:
            tb = table.piece_bytes[tid]
        tokens.append(
            Token(
                tid, tb, b, e, om.char_floor(b), om.char_ceil(e), partial,
                special=table.is_control[tid] or table.is_user[tid],
                unknown=unknown,
                piece=table.pieces[tid] if unknown else p.piece,
                inside_normalized=inside_normalized,
            )
        )  # fmt: skip
    return tuple(tokens), surfaces


def round_trip_flags(
    ids: Sequence[Sequence[int]], texts: Sequence[str], table: PieceTable, *, dummy_prefix: bool
) -> list[bool]:
    """Per text, whether the bytes of its ``ids`` (``table.piece_bytes`` joined, minus the
    dummy-prefix space at the start) are those of the text, compared as arrays. The
    texts hold no lone surrogate; the pieces' bytes are whole UTF-8 characters, so
    equal bytes are what ``decode(ids) == text`` tests.

    >>> t = PieceTable.build(["<unk>", "\u2581a", "b"], unknown={0}, control=set(), user=set(), byte=set())
    >>> round_trip_flags([[1, 2], [1], [0], []], ["ab", "b", "x", ""], t, dummy_prefix=True)
    [True, False, False, True]
    """
    counts = np.fromiter(map(len, ids), dtype=np.int64, count=len(ids))
    flat = [i for one in ids for i in one]
    decoded = np.frombuffer(b"".join(map(table.piece_bytes.__getitem__, flat)), dtype=np.uint8)
    ends = np.zeros(len(flat) + 1, dtype=np.int64)
    np.cumsum(table.byte_lengths[np.array(flat, dtype=np.int64)], out=ends[1:])
    bounds = ends[np.concatenate(([0], np.cumsum(counts)))]
    start, end = bounds[:-1].copy(), bounds[1:]
    if dummy_prefix and len(decoded):
        start += (end > start) & (decoded[np.minimum(start, len(decoded) - 1)] == 0x20)
    joined = "".join(texts)
    data = np.frombuffer(joined.encode("utf-8"), dtype=np.uint8)
    chars = np.concatenate(([0], np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)))))
    tbounds = char_byte_columns(joined)[chars]
    size = end - start
    ok = size == np.diff(tbounds)
    some = np.flatnonzero(ok & (size > 0))
    if len(some):
        lengths = size[some]
        at = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        differ = decoded[np.repeat(start[some], lengths) + at] != data[np.repeat(tbounds[:-1][some], lengths) + at]
        ok[some[np.bincount(np.repeat(np.arange(len(some)), lengths), weights=differ, minlength=len(some)) > 0]] = False
    return ok.tolist()
