"""A SentencePiece model's vocabulary as tables indexed by id, read once when the
model loads: each piece, its kind (byte, unknown, control, user-defined), the
bytes it stands for outside any text and its length in the normalized text. The
tokenizer (:mod:`.tokenizer`) and the piece columns (:mod:`.columns`) look ids up
here instead of asking the library piece by piece.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tokexplorer.core.backends.sentencepiece.proto import BYTE_PIECE, WS

__all__ = ["PieceTable"]


@dataclass(frozen=True, slots=True)
class PieceTable:
    """Per id of a SentencePiece model (index ``i`` is id ``i``; ``n`` ids).

    Attributes:
        pieces: each piece (``"▁good"``, ``"<0xE9>"``, ``"<unk>"``).
        is_byte, is_unknown, is_control, is_user: its kind (lists of bool).
        piece_bytes: the bytes of each piece outside any text (``▁`` → space,
            ``<0xNN>`` → that byte, unknown → SentencePiece's `` ⁇ ``, control → ``b""``).
        byte_lengths: numpy int64 ``(n,)``: the length of each of ``piece_bytes``.
        byte_values: numpy int64 ``(n,)``: the byte of a byte piece, -1 for the others.
        normalized_lengths: numpy int64 ``(n,)``: UTF-8 bytes a piece takes in the
            normalized text (a byte piece one; an unknown piece's depends on the text: 0 here).
        special: numpy bool ``(n,)``: control pieces and user-defined symbols.
        unknown: numpy bool ``(n,)``: the unknown piece(s).

    >>> t = PieceTable.build(["<unk>", "<0x41>", "\\u2581a"], unknown={0}, control=set(), user=set(), byte={1})
    >>> t.piece_bytes, t.byte_values.tolist(), t.normalized_lengths.tolist()
    ([b' \\xe2\\x81\\x87 ', b'A', b' a'], [-1, 65, -1], [0, 1, 4])
    """

    pieces: list[str]
    is_byte: list[bool]
    is_unknown: list[bool]
    is_control: list[bool]
    is_user: list[bool]
    piece_bytes: list[bytes]
    byte_lengths: Any
    byte_values: Any
    normalized_lengths: Any
    special: Any
    unknown: Any

    @classmethod
    def build(
        cls, pieces: list[str], *, unknown: set[int], control: set[int], user: set[int], byte: set[int]
    ) -> PieceTable:
        """The table of ``pieces`` (by id) given the ids of each kind."""
        n = len(pieces)
        values = [-1] * n
        for i in byte:
            m = BYTE_PIECE.fullmatch(pieces[i])
            if m:
                values[i] = int(m.group(1), 16)
        out: list[bytes] = []
        for i, p in enumerate(pieces):
            if values[i] >= 0:
                out.append(bytes([values[i]]))
            elif i in control:
                out.append(b"")
            elif i in unknown:
                out.append(" \u2047 ".encode("utf-8"))
            else:
                out.append(p.replace(WS, " ").encode("utf-8"))
        lengths = [1 if i in byte else 0 if i in unknown else len(p.encode("utf-8")) for i, p in enumerate(pieces)]
        flags = [[i in kind for i in range(n)] for kind in (byte, unknown, control, user)]
        return cls(
            pieces, *flags, out, np.array([len(b) for b in out], dtype=np.int64), np.array(values, dtype=np.int64),
            np.array(lengths, dtype=np.int64),
            np.array(flags[2], dtype=bool) | np.array(flags[3], dtype=bool), np.array(flags[1], dtype=bool),
        )  # fmt: skip

    @classmethod
    def from_processor(cls, sp: Any, user: set[int]) -> PieceTable:
        """The table of a loaded ``SentencePieceProcessor`` (``user``: the user-defined ids)."""
        n = sp.get_piece_size()
        kinds = [{i for i in range(n) if test(i)} for test in (sp.is_unknown, sp.is_control, sp.is_byte)]
        pieces = [sp.id_to_piece(i) for i in range(n)]
        return cls.build(pieces, unknown=kinds[0], control=kinds[1], user=user, byte=kinds[2])
