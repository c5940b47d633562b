"""Decoding piece ids to text as SentencePiece's own ``decode`` does.

Two rules of the library that joining the pieces' bytes does not follow:

* **leading spaces**: with ``remove_extra_whitespaces`` (the default) every ``▁`` at
  the start goes, also over several pieces (``['▁', '▁went']`` is ``'went'``); with
  only ``add_dummy_prefix``, the first piece's one ``▁`` (``['▁', '▁lead']`` is
  ``' lead'``); with neither, none. Control pieces are skipped; an unknown piece
  (`` ⁇ ``) or a byte piece (``<0x20>``) keeps its space and ends the clean-up.
* **byte pieces**: each run of consecutive byte pieces (a control piece ends a
  run) is decoded on its own, and every byte of it that does not start a whole
  character becomes one U+FFFD (``<0xE9><0xBE>`` is ``'��'``, where Python's
  ``errors="replace"`` gives one).

Checked against sentencepiece 0.2.3 on random id sequences of every piece kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from tokexplorer.core.backends.sentencepiece.vocab import PieceTable
from tokexplorer.core.text.utf8 import decode_each_bad_byte


def prefix_cuts(ids: Sequence[int], table: PieceTable, *, mode: str) -> dict[int, int]:
    """Which pieces of ``ids`` lose leading spaces in decoding: position → bytes cut.

    Args:
        ids: piece ids, all in the vocabulary.
        table: the model's pieces.
        mode: ``"all"`` (``remove_extra_whitespaces`` on: every leading space goes,
            over as many pieces as are only spaces), ``"one"`` (only
            ``add_dummy_prefix``: the first piece's one space) or ``"none"``.

    >>> t = PieceTable.build(["<unk>", "<s>", "\u2581a", "<0x20>", "\u2581"],
    ...                      unknown={0}, control={1}, user=set(), byte={3})
    >>> prefix_cuts([1, 2, 2], t, mode="one"), prefix_cuts([0, 2], t, mode="all")
    ({1: 1}, {})
    >>> prefix_cuts([4, 4, 2], t, mode="all"), prefix_cuts([4, 4, 2], t, mode="one")
    ({0: 1, 1: 1, 2: 1}, {0: 1})
    >>> prefix_cuts([3, 2], t, mode="all")
    {}
    """
    cuts: dict[int, int] = {}
    if mode == "none":
        return cuts
    for k, i in enumerate(ids):
        if table.is_control[i]:
            continue
        if table.is_byte[i] or table.is_unknown[i]:
            return cuts
        piece = table.piece_bytes[i]
        kept = piece.lstrip(b" ") if mode == "all" else piece.removeprefix(b" ")
        if len(kept) < len(piece):
            cuts[k] = len(piece) - len(kept)
        if kept or mode == "one":
            return cuts
    return cuts


def joined_bytes(ids: Sequence[int], table: PieceTable, *, mode: str) -> bytes:
    """The pieces' bytes joined (byte pieces as raw bytes), less the leading spaces
    :func:`prefix_cuts` names: the bytes of the library's decode, before any U+FFFD."""
    parts = [table.piece_bytes[i] for i in ids]
    for k, n in prefix_cuts(ids, table, mode=mode).items():
        parts[k] = parts[k][n:]
    return b"".join(parts)


def library_text(ids: Sequence[int], table: PieceTable, *, mode: str) -> str:
    """The text SentencePiece's ``decode(ids)`` gives (see the module's rules).

    >>> t = PieceTable.build(["<unk>", "<s>", "\\u2581a", "<0xE9>", "<0xBE>", "<0x98>"],
    ...                      unknown={0}, control={1}, user=set(), byte={3, 4, 5})
    >>> library_text([2, 3, 4], t, mode="all"), library_text([3, 4, 5], t, mode="all")
    ('a��', '龘')
    >>> library_text([3, 1, 4, 5], t, mode="all"), library_text([0, 2], t, mode="all")
    ('���', ' ⁇  a')
    """
    cuts = prefix_cuts(ids, table, mode=mode)
    out: list[str] = []
    run = bytearray()
    for k, i in enumerate(ids):
        if table.is_byte[i]:
            run.append(int(table.byte_values[i]))
            continue
        if run:
            out.append(decode_each_bad_byte(bytes(run)))
            run.clear()
        piece = table.piece_bytes[i]
        out.append(piece[cuts.get(k, 0):].decode("utf-8", "replace"))
    if run:
        out.append(decode_each_bad_byte(bytes(run)))
    return "".join(out)
