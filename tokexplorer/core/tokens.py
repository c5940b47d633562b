"""Build :class:`~tokexplorer.core.types.Token` spans from token bytes.

Byte-level tokenizers (our BPE, tiktoken) produce tokens whose bytes concatenate
to the UTF-8 text, so their byte spans are cumulative sums; character spans and
the partial-UTF-8 flag follow from where each byte offset falls relative to the
character boundaries.

>>> text = "a\u4f60"  # "a你": 1 + 3 bytes
>>> build_tokens(text, [1, 2, 3], [b"a", b"\\xe4\\xbd", b"\\xa0"])
(Token(1, b'a', [0:1]), Token(2, b'\\xe4\\xbd', [1:3]), Token(3, b'\\xa0', [3:4]))
>>> om = OffsetMap(text)
>>> om.char_floor(2), om.char_ceil(2), om.is_boundary(2), om.n_bytes
(1, 2, False, 4)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence

from tokexplorer.core.types import Token


class OffsetMap:
    """Convert UTF-8 byte offsets of a text into code point offsets.

    Args:
        text: the str whose UTF-8 encoding the byte offsets refer to.

    Building costs O(len(text)); each lookup is O(log n) (O(1) for ASCII text).
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.ascii = text.isascii()
        if self.ascii:
            self.n_bytes = len(text)
            self._starts: list[int] | None = None
        else:
            starts = [0] * (len(text) + 1)
            off = 0
            for i, ch in enumerate(text):
                starts[i] = off
                o = ord(ch)
                off += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
            starts[len(text)] = off
            self._starts = starts
            self.n_bytes = off

    def char_floor(self, byte_offset: int) -> int:
        """Index of the character that contains ``byte_offset`` (or starts at it)."""
        if self._starts is None:
            return byte_offset
        return bisect_right(self._starts, byte_offset) - 1

    def char_ceil(self, byte_offset: int) -> int:
        """Index of the first character boundary at or after ``byte_offset``."""
        if self._starts is None:
            return byte_offset
        return bisect_left(self._starts, byte_offset)

    def is_boundary(self, byte_offset: int) -> bool:
        """True when ``byte_offset`` falls between two characters (or at an end)."""
        if self._starts is None:
            return 0 <= byte_offset <= self.n_bytes
        i = bisect_left(self._starts, byte_offset)
        return i < len(self._starts) and self._starts[i] == byte_offset


def build_tokens(
    text: str,
    ids: Sequence[int],
    token_bytes: Sequence[bytes],
    *,
    special_ids: Iterable[int] = (),
    offsets: OffsetMap | None = None,
) -> tuple[Token, ...]:
    """Make tokens with spans for a byte-level tokenization of ``text``.

    Args:
        text: the tokenized text; ``b"".join(token_bytes) == text.encode("utf-8")``.
        ids: token ids, one per token.
        token_bytes: the bytes of each token, same length as ``ids``.
        special_ids: ids to flag as special tokens.
        offsets: a prebuilt :class:`OffsetMap` for ``text`` (optional).

    Returns:
        tuple of :class:`Token` with half-open byte and character spans.

    Raises:
        ValueError: the token bytes do not add up to the text's UTF-8 length.
    """
    om = offsets or OffsetMap(text)
    special = set(special_ids)
    out: list[Token] = []
    b = 0
    for tid, tb in zip(ids, token_bytes):
        e = b + len(tb)
        start_ok = om.is_boundary(b)
        end_ok = om.is_boundary(e)
        out.append(
            Token(
                tid,
                tb,
                b,
                e,
                om.char_floor(b),
                om.char_ceil(e),
                not (start_ok and end_ok),
                tid in special,
            )
        )
        b = e
    if b != om.n_bytes:
        raise ValueError(f"token bytes cover {b} bytes but the text has {om.n_bytes}")
    return tuple(out)
