"""Reading SentencePiece's protobuf messages without the ``protobuf`` package.

A small wire-format reader for ``ModelProto`` (``sentencepiece_model.proto``) and
``SentencePieceText`` (``sentencepiece.proto``) of google/sentencepiece; field
numbers are quoted where they are read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tokexplorer.core.errors import (
    BackendUnavailableError,
    ModelFormatError,
)

#: SentencePiece's whitespace symbol, U+2581 LOWER ONE EIGHTH BLOCK.
WS = "\u2581"

_MODEL_TYPES = {1: "unigram", 2: "bpe", 3: "word", 4: "char"}
#: A byte-fallback piece, ``<0xE9>``; group 1 is the byte in hex.
BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


def _import_spm() -> Any:
    try:
        import sentencepiece
    except ImportError:
        raise BackendUnavailableError(
            "the sentencepiece package is not installed; run 'pip install sentencepiece'"
        ) from None
    return sentencepiece


# --------------------------------------------------------------------------
# protobuf wire format (https://protobuf.dev/programming-guides/encoding/)
# --------------------------------------------------------------------------


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        if pos >= len(buf):
            raise ValueError("truncated varint")
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return result, pos
        if shift > 70:
            raise ValueError("varint too long")


def _fields(buf: bytes) -> Iterator[tuple[int, int, Any]]:
    """Yield ``(field number, wire type, value)`` of one protobuf message.

    Values: int for varints, bytes for length-delimited fields and fixed32/64.

    Raises:
        ValueError: malformed message.
    """
    pos = 0
    n = len(buf)
    while pos < n:
        key, pos = _varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
        elif wire == 2:
            size, pos = _varint(buf, pos)
            if pos + size > n:
                raise ValueError("truncated field")
            value = buf[pos : pos + size]
            pos += size
        elif wire == 5:
            value = buf[pos : pos + 4]
            pos += 4
        elif wire == 1:
            value = buf[pos : pos + 8]
            pos += 8
        else:
            raise ValueError(f"unsupported wire type {wire}")
        yield field, wire, value


@dataclass(frozen=True, slots=True)
class ModelInfo:
    """What the adapter reads from a serialized ``ModelProto``.

    Attributes:
        model_type: ``"unigram"``, ``"bpe"``, ``"word"`` or ``"char"``
            (TrainerSpec field 3; proto default UNIGRAM).
        normalizer: normalization rule name, e.g. ``"nmt_nfkc"`` or ``"identity"``
            (NormalizerSpec field 1).
        add_dummy_prefix: NormalizerSpec field 3 (default True).
        remove_extra_whitespaces: NormalizerSpec field 4 (default True).
        byte_fallback: TrainerSpec field 35 (default False).
    """

    model_type: str = "unigram"
    normalizer: str = "nmt_nfkc"
    add_dummy_prefix: bool = True
    remove_extra_whitespaces: bool = True
    byte_fallback: bool = False


def parse_model_info(model_proto: bytes) -> ModelInfo:
    """Read the trainer and normalizer settings from a serialized ``ModelProto``.

    Args:
        model_proto: the bytes of a ``.model`` file.

    Returns:
        :class:`ModelInfo` (proto2 defaults for absent fields).

    Raises:
        ModelFormatError: the bytes are not a well-formed protobuf message.
    """
    info: dict[str, Any] = {}
    try:
        for field, wire, value in _fields(model_proto):
            if field == 2 and wire == 2:  # TrainerSpec
                for f, w, v in _fields(value):
                    if f == 3 and w == 0:
                        info["model_type"] = _MODEL_TYPES.get(v, f"type {v}")
                    elif f == 35 and w == 0:
                        info["byte_fallback"] = bool(v)
            elif field == 3 and wire == 2:  # NormalizerSpec
                for f, w, v in _fields(value):
                    if f == 1 and w == 2:
                        info["normalizer"] = v.decode("utf-8", "replace") or "custom"
                    elif f == 3 and w == 0:
                        info["add_dummy_prefix"] = bool(v)
                    elif f == 4 and w == 0:
                        info["remove_extra_whitespaces"] = bool(v)
    except ValueError as exc:
        raise ModelFormatError(f"not a SentencePiece model: {exc}") from None
    return ModelInfo(**info)


def user_defined_ids(model_proto: bytes) -> set[int]:
    """Ids of the USER_DEFINED pieces of a serialized ``ModelProto`` (field 1 is
    the repeated ``SentencePiece`` {1 piece, 2 score, 3 type}; type 4 is
    USER_DEFINED). The Python API has no ``is_user_defined``.

    Raises:
        ModelFormatError: the bytes are not a well-formed protobuf message.
    """
    out: set[int] = set()
    try:
        index = 0
        for field, wire, value in _fields(model_proto):
            if field == 1 and wire == 2:
                for f, w, v in _fields(value):
                    if f == 3 and w == 0 and v == 4:
                        out.add(index)
                index += 1
    except ValueError as exc:
        raise ModelFormatError(f"not a SentencePiece model: {exc}") from None
    return out


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of SentencePiece's per-piece result.

    Attributes:
        piece: the piece as in the normalized text (``"\u2581good"``, ``"<0xE9>"``).
        id: its id.
        surface: the original bytes it covers.
        begin: first byte (inclusive) in the original UTF-8 text.
        end: end byte (exclusive) in the original UTF-8 text.
    """

    piece: str
    id: int
    surface: bytes
    begin: int
    end: int


def parse_pieces(serialized: bytes) -> list[Piece]:
    """Pieces of a serialized ``SentencePieceText`` (field 2: repeated SentencePiece
    with 1 piece, 2 id, 3 surface, 4 begin, 5 end)."""
    out: list[Piece] = []
    for field, wire, value in _fields(serialized):
        if field != 2 or wire != 2:
            continue
        piece, pid, surface, begin, end = "", 0, b"", 0, 0
        for f, _w, v in _fields(value):
            if f == 1:
                piece = v.decode("utf-8", "replace")
            elif f == 2:
                pid = v
            elif f == 3:
                surface = v
            elif f == 4:
                begin = v
            elif f == 5:
                end = v
        out.append(Piece(piece, pid, surface, begin, end))
    return out
