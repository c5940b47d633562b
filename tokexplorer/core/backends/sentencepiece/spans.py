"""Which original characters each SentencePiece piece came from.

SentencePiece reports a piece's span as the original offsets of its first and
of its end position in the *normalized* text. Where the normalizer expands one
character into several (NFKC: ``'…'`` → ``'...'``, ``'ﬁ'`` → ``'fi'``,
``'㎏'`` → ``'kg'``), every normalized character of the expansion maps back to
the start of that one original character, so the pieces made from the start of
an expansion get empty spans and a piece that ends inside an expansion loses it.

:func:`piece_char_spans` maps each piece to the whole original characters its
normalized characters came from instead, and flags the pieces that hold only
part of what the normalizer made of one original character ("inside a
normalized character"). Offsets are code point offsets, half-open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tokexplorer.core.backends.sentencepiece.proto import WS


@dataclass(frozen=True, slots=True)
class PieceSpan:
    """The original characters one piece came from.

    Attributes:
        start: first code point (inclusive) in the original text.
        end: end code point (exclusive); equal to ``start`` only for the dummy-prefix
            ``▁`` standing alone, which the normalizer inserted and no character made.
        inside_normalized: True when the piece holds only part of what the normalizer
            made of one original character (one ``'.'`` of the three NFKC makes of
            ``'…'``); its span is then that whole character.
    """

    start: int
    end: int
    inside_normalized: bool


def _norm_lengths(pieces: Sequence[str], is_byte: Sequence[bool]) -> list[int]:
    """UTF-8 length in the normalized text of each piece (a byte piece is one byte)."""
    return [1 if b else len(p.encode("utf-8")) for p, b in zip(pieces, is_byte)]


def piece_char_spans(
    pieces: Sequence[str],
    is_byte: Sequence[bool],
    normalized: str,
    offsets: Sequence[int],
    *,
    dummy_prefix: bool,
) -> list[PieceSpan] | None:
    """Map every piece to the original characters it came from.

    Args:
        pieces: each piece as it appears in the normalized text (``▁`` kept; an
            unknown piece as the normalized characters it swallowed; a byte piece
            as ``<0xNN>``).
        is_byte: for each piece, True when it is a byte-fallback piece.
        normalized: the normalizer's output (``▁`` for whitespace, the dummy prefix kept).
        offsets: ``len(normalized) + 1`` code point offsets into the original text
            (SentencePiece's ``Normalize(text, with_offsets=True)``).
        dummy_prefix: the model adds a dummy-prefix ``▁`` at the start.

    Returns:
        one :class:`PieceSpan` per piece, or None when the pieces do not spell
        ``normalized`` (then only SentencePiece's own spans are known).

    >>> [(s.start, s.end, s.inside_normalized) for s in piece_char_spans(
    ...     ["\\u2581a", ".", ".", ".", "b"], [False] * 5, "\\u2581a...b",
    ...     [0, 0, 1, 1, 1, 2, 3], dummy_prefix=True)]
    [(0, 1, False), (1, 2, True), (1, 2, True), (1, 2, True), (2, 3, False)]
    """
    lengths = _norm_lengths(pieces, is_byte)
    char_at: list[int] = []  # normalized byte -> normalized character
    for j, ch in enumerate(normalized):
        char_at.extend([j] * len(ch.encode("utf-8")))
    if sum(lengths) != len(char_at) or len(offsets) != len(normalized) + 1:
        return None
    n = len(normalized)
    skip = 1 if dummy_prefix and normalized.startswith(WS) else 0
    # group: the normalized characters made from one original character
    group_first = list(range(n))
    group_last = list(range(n))
    for j in range(skip + 1, n):
        if offsets[j] == offsets[j - 1]:
            group_first[j] = group_first[j - 1]
    for j in range(n - 2, skip - 1, -1):
        if offsets[j + 1] == offsets[j]:
            group_last[j] = group_last[j + 1]
    src_end = [0] * n  # original end of the character(s) normalized char j came from
    nxt = offsets[n]
    for j in range(n - 1, -1, -1):
        src_end[j] = nxt if nxt > offsets[j] else offsets[j] + 1
        if j and offsets[j - 1] < offsets[j]:
            nxt = offsets[j]
    out: list[PieceSpan] = []
    pos = 0
    for length in lengths:
        first, last = char_at[pos], char_at[pos + length - 1]
        pos += length
        if first == last < skip:  # the dummy-prefix ▁ alone: inserted, from no character
            out.append(PieceSpan(offsets[0], offsets[0], False))
            continue
        first = max(first, skip)
        inside = group_first[first] != first or group_last[last] != last
        out.append(PieceSpan(offsets[first], src_end[last], inside))
    return out


def char_byte_offsets(text: str) -> list[int]:
    """UTF-8 byte offset of every code point of ``text``, then its byte length
    (``len(text) + 1`` entries).

    >>> char_byte_offsets("a…b")
    [0, 1, 4, 5]
    """
    out = [0] * (len(text) + 1)
    off = 0
    for i, ch in enumerate(text):
        out[i] = off
        off += len(ch.encode("utf-8", "surrogatepass"))
    out[len(text)] = off
    return out


__all__: Sequence[str] = ("PieceSpan", "piece_char_spans", "char_byte_offsets")


def spans_tile(spans: Sequence[tuple[int, int]], n_bytes: int) -> bool:
    """True when ``spans`` are contiguous from byte 0 to ``n_bytes``.

    >>> spans_tile([(0, 2), (2, 3)], 3), spans_tile([(0, 1), (2, 3)], 3)
    (True, False)
    """
    pos = 0
    for b, e in spans:
        if b != pos:
            return False
        pos = e
    return pos == n_bytes
