"""Which original characters and bytes each SentencePiece piece came from, as arrays.

SentencePiece reports a piece's span as the original offsets of its first and
of its end position in the *normalized* text. Where the normalizer expands one
character into several (NFKC: ``'…'`` → ``'...'``, ``'ﬁ'`` → ``'fi'``,
``'㎏'`` → ``'kg'``), every normalized character of the expansion maps back to
the start of that one original character, so the pieces made from the start of
an expansion get empty spans and a piece that ends inside an expansion loses it.

:func:`char_span_columns` maps each piece to the whole original characters its
normalized characters came from instead, and flags the pieces that hold only
part of what the normalizer made of one original character ("inside a
normalized character"). Offsets are code point offsets, half-open;
:func:`char_byte_columns` turns them into byte offsets, :func:`split_byte_runs`
gives each byte piece of a run its own byte and :func:`partial_flags` finds the
pieces holding part of a UTF-8 character. Every function works on numpy arrays,
one entry per piece (no object per piece).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tokexplorer.core.backends.sentencepiece.proto import WS

__all__ = ["char_byte_columns", "char_span_columns", "partial_flags", "split_byte_runs"]


def char_byte_columns(text: str) -> np.ndarray:
    """UTF-8 byte offset of every code point of ``text``, then its byte length
    (int64, ``len(text) + 1`` entries; a lone surrogate counts 3 bytes).

    >>> char_byte_columns("a…b").tolist()
    [0, 1, 4, 5]
    """
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    out = np.zeros(len(cps) + 1, dtype=np.int64)
    np.cumsum(1 + (cps >= 0x80) + (cps >= 0x800) + (cps >= 0x10000), out=out[1:])
    return out


def char_span_columns(
    lengths: np.ndarray, normalized: str, offsets: Any, *, dummy_prefix: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Map every piece to the original characters it came from, as arrays.

    Args:
        lengths: each piece's UTF-8 length in the normalized text (int64 ``(n,)``;
            a byte piece is one byte), in order.
        normalized: the normalizer's output (``▁`` for whitespace, the dummy prefix kept).
        offsets: ``len(normalized) + 1`` code point offsets into the original text
            (SentencePiece's ``Normalize(text, with_offsets=True)``).
        dummy_prefix: the model adds a dummy-prefix ``▁`` at the start.

    Returns:
        ``(starts, ends, inside)`` in code points (int64, int64, bool, each ``(n,)``):
        a piece spans the whole original characters its normalized characters came
        from; ``inside`` when it holds only part of what the normalizer made of one
        character; the dummy-prefix ``▁`` standing alone spans nothing. None when
        the pieces do not spell ``normalized``.

    >>> s, e, inside = char_span_columns(np.array([4, 1, 1, 1, 1]), "\\u2581a...b",
    ...                                  [0, 0, 1, 1, 1, 2, 3], dummy_prefix=True)
    >>> s.tolist(), e.tolist(), inside.tolist()
    ([0, 1, 1, 1, 2], [1, 2, 2, 2, 3], [False, True, True, True, False])
    """
    nb = np.frombuffer(normalized.encode("utf-8"), dtype=np.uint8)
    n = len(normalized)
    off = np.asarray(offsets, dtype=np.int64)
    if int(lengths.sum()) != len(nb) or len(off) != n + 1 or (len(lengths) and int(lengths.min()) < 1):
        return None
    if not len(lengths):
        none = np.zeros(0, dtype=np.int64)
        return none, none, np.zeros(0, dtype=bool)
    char_at = np.cumsum((nb & 0xC0) != 0x80) - 1  # normalized byte -> normalized character
    skip = 1 if dummy_prefix and normalized.startswith(WS) else 0
    stops = np.cumsum(lengths)
    first = char_at[stops - lengths]
    last = char_at[stops - 1]
    del char_at
    alone = (first == last) & (last < skip)  # the dummy-prefix ▁ alone: inserted, from no character
    first = np.maximum(first, skip)
    if bool((off[skip + 1 : n] > off[skip : n - 1]).all()):  # each normalized character from one of its own
        src_end = np.where(off[1:] > off[:n], off[1:], off[:n] + 1)
        inside = np.zeros(len(lengths), dtype=bool)
    else:
        src_end, first_of, last_of = _groups(off, n, skip)
        inside = ((first_of[first] != first) | (last_of[last] != last)) & ~alone
    starts = np.where(alone, off[0], off[first])
    ends = np.where(alone, off[0], src_end[last])
    return starts, ends, inside


def _groups(off: np.ndarray, n: int, skip: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each of the ``n`` normalized characters (``off``: their offsets, then the end
    read): the original end of the character(s) it came from, and the first and last
    normalized character of its group (those made from one original character; the
    dummy prefix, the first ``skip`` characters, stands alone)."""
    j = np.arange(n)
    same = np.zeros(n, dtype=bool)
    same[1:] = off[1:n] == off[: n - 1]
    first_of = np.maximum.accumulate(np.where(~same | (j <= skip), j, 0))
    same_next = np.zeros(n, dtype=bool)
    same_next[: n - 1] = same[1:]
    last_of = np.minimum.accumulate(np.where(~same_next | (j < skip), j, n)[::-1])[::-1]
    # the original end: the offset of the next normalized character whose offset rose, else the end read
    rose = np.full(n + 1, n, dtype=np.int64)
    rose[1:n] = np.where(off[: n - 1] < off[1:n], j[1:], n)
    nxt = off[np.minimum.accumulate(rose[::-1])[::-1][1:]]
    return np.where(nxt > off[:n], nxt, off[:n] + 1), first_of, last_of


def split_byte_runs(starts: np.ndarray, ends: np.ndarray, byte_values: np.ndarray, src: bytes) -> None:
    """Give each byte piece of a run one byte (in place): a run of byte pieces
    (``byte_values`` >= 0, -1 for the other pieces) whose bytes are those of the
    text where the run spans gets the bytes one by one (SentencePiece spans the
    whole run for each).

    >>> s, e = np.array([0, 1, 1, 1]), np.array([1, 4, 4, 4])
    >>> split_byte_runs(s, e, np.array([-1, 0xE2, 0x80, 0xA6]), "a\\u2026".encode())
    >>> s.tolist(), e.tolist()
    ([0, 1, 2, 3], [1, 2, 3, 4])
    """
    is_byte = byte_values >= 0
    if not is_byte.any():
        return
    edges = np.flatnonzero(np.diff(np.concatenate(([0], is_byte.astype(np.int8), [0]))))
    for i, j in zip(edges[::2].tolist(), edges[1::2].tolist()):
        b0, b1 = int(starts[i]), int(ends[j - 1])
        if src[b0:b1] == bytes(byte_values[i:j].tolist()):
            starts[i:j] = np.arange(b0, b0 + j - i)
            ends[i:j] = starts[i:j] + 1


def partial_flags(starts: np.ndarray, ends: np.ndarray, byte_values: np.ndarray, src: bytes) -> np.ndarray:
    """Per piece: True when a span end falls inside a UTF-8 character of ``src``, or
    the piece is a byte piece of a byte >= 0x80 (``byte_values``: -1 for the others).

    >>> partial_flags(np.array([0, 1, 2]), np.array([1, 2, 4]), np.array([-1, 0xE4, -1]), "a\\u00e9\\u00e9".encode())
    array([False,  True,  True])
    """
    data = np.frombuffer(src, dtype=np.uint8)
    boundary = np.ones(len(data) + 1, dtype=bool)
    boundary[: len(data)] = (data & 0xC0) != 0x80
    return ~(boundary[starts] & boundary[ends]) | (byte_values >= 0x80)
