"""The SentencePiece backend: ``.model`` files and in-memory training.

SentencePiece normalizes text first (``nmt_nfkc`` by default: NFKC plus
whitespace clean-up), turns spaces into ``▁`` (U+2581) and adds a "dummy prefix"
``▁`` at the start, then cuts the normalized text into *pieces*. With
``byte_fallback`` a character missing from the vocabulary becomes one
``<0xNN>`` byte piece per UTF-8 byte; without it, it becomes the unknown piece
``<unk>`` (decoded as `` ⁇ ``).

This adapter asks SentencePiece for its per-piece result
(``encode(..., out_type="serialized_proto")``, a serialized ``SentencePieceText``
with piece, id, surface, begin, end per piece) and parses it with a small
protobuf wire-format reader, so the ``protobuf`` package is not needed. ``begin``
and ``end`` are byte offsets into the original (un-normalized) input.

Message layouts follow ``sentencepiece.proto`` / ``sentencepiece_model.proto`` of
google/sentencepiece (field numbers quoted where they are read).
"""

from __future__ import annotations

import difflib
import io
import os
import re
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tokexplorer.core.backends.base import Tokenizer, unknown_special_notes
from tokexplorer.core.errors import (
    BackendUnavailableError,
    Cancelled,
    InputError,
    ModelFormatError,
    SpecialTokenError,
    TrainingError,
)
from tokexplorer.core.text import clean_text
from tokexplorer.core.tokens import OffsetMap
from tokexplorer.core.types import SPECIAL_POLICIES, SpecialPolicy, Token, Tokenization

__all__ = [
    "SentencePieceTokenizer",
    "train_sentencepiece",
    "VocabTooLargeError",
    "VocabTooSmallError",
    "LinesTooLongError",
    "SPTrainingCheck",
    "check_sentencepiece_training",
    "ModelInfo",
    "parse_model_info",
]

#: SentencePiece's whitespace symbol, U+2581 LOWER ONE EIGHTH BLOCK.
WS = "\u2581"

_MODEL_TYPES = {1: "unigram", 2: "bpe", 3: "word", 4: "char"}
_BYTE_PIECE = re.compile(r"<0x([0-9A-Fa-f]{2})>")


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
class _Piece:
    piece: str
    id: int
    surface: bytes
    begin: int
    end: int


def _parse_pieces(serialized: bytes) -> list[_Piece]:
    """Pieces of a serialized ``SentencePieceText`` (field 2: repeated SentencePiece
    with 1 piece, 2 id, 3 surface, 4 begin, 5 end)."""
    out: list[_Piece] = []
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
        out.append(_Piece(piece, pid, surface, begin, end))
    return out


# --------------------------------------------------------------------------
# describing what the normalizer changed
# --------------------------------------------------------------------------

_WS_NAMES = {" ": ("space", "spaces"), "\t": ("tab", "tabs"), "\n": ("line break", "line breaks"),
             "\r": ("carriage return", "carriage returns")}


def _plural(n: int, names: tuple[str, str]) -> str:
    return f"{n} {names[0] if n == 1 else names[1]}"


def describe_normalization(original: str, normalized: str, *, limit: int = 2_000) -> str:
    """One line saying how a normalizer turned ``original`` into ``normalized``.

    Whitespace removals and whitespace turned into spaces are counted; other
    rewrites are listed (up to three) and tagged NFKC when
    ``unicodedata.normalize("NFKC", old) == new``. Texts longer than ``limit``
    characters get counts only (the character diff is quadratic).

    >>> describe_normalization("  lead and trail  ", "lead and trail")
    'normalized: 4 spaces removed'
    >>> describe_normalization("a\\ufe30b", "a..b")
    "normalized (NFKC): '︰' → '..'"
    """
    if len(original) > limit or len(normalized) > limit:
        # difflib is quadratic: long texts get counts instead of a diff
        ws_o = sum(c.isspace() for c in original)
        ws_n = sum(c.isspace() for c in normalized)
        other_o = [c for c in original if not c.isspace()]
        other_n = [c for c in normalized if not c.isspace()]
        parts = []
        if ws_o != ws_n:
            parts.append(f"{abs(ws_o - ws_n):,} whitespace characters {'removed' if ws_o > ws_n else 'added'}")
        if other_o != other_n:
            tag = " (NFKC)" if unicodedata.normalize("NFKC", "".join(other_o)) == "".join(other_n) else ""
            parts.append(f"other characters rewritten{tag} ({len(other_o):,} → {len(other_n):,})")
        return "normalized: " + ("; ".join(parts) if parts else "whitespace rewritten")
    removed: dict[str, int] = {}
    to_space: dict[str, int] = {}
    rewrites: list[tuple[str, str]] = []
    nfkc = True
    sm = difflib.SequenceMatcher(None, original, normalized, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        old, new = original[i1:i2], normalized[j1:j2]
        if op == "equal":
            continue
        if op == "delete" and old.isspace():
            for ch in old:
                removed[ch] = removed.get(ch, 0) + 1
        elif op == "replace" and old.isspace() and new.strip(" ") == "":
            # whitespace run rewritten as spaces: the surplus is removed
            for ch in old:
                if ch != " ":
                    to_space[ch] = to_space.get(ch, 0) + 1
            surplus = len(old) - len(new)
            if surplus > 0:
                removed[" "] = removed.get(" ", 0) + surplus
        else:
            rewrites.append((old, new))
            if unicodedata.normalize("NFKC", old) != new:
                nfkc = False
    parts: list[str] = []
    if removed:
        parts.append(", ".join(_plural(n, _WS_NAMES.get(ch, (repr(ch), repr(ch))))
                               for ch, n in removed.items()) + " removed")
    for ch, n in to_space.items():
        names = _WS_NAMES.get(ch, (f"U+{ord(ch):04X}", f"U+{ord(ch):04X}"))
        parts.append(f"{_plural(n, names)} turned into {'a space' if n == 1 else 'spaces'}")
    if rewrites:
        shown = ", ".join(f"{o!r} → {n!r}" for o, n in rewrites[:3])
        more = f" and {len(rewrites) - 3} more" if len(rewrites) > 3 else ""
        parts.append(shown + more)
    tag = " (NFKC)" if rewrites and nfkc else ""
    return f"normalized{tag}: " + "; ".join(parts) if parts else "normalized: text changed"


# --------------------------------------------------------------------------
# the tokenizer
# --------------------------------------------------------------------------


class SentencePieceTokenizer(Tokenizer):
    """A SentencePiece model behind the :class:`Tokenizer` interface.

    Token bytes are rebuilt from the piece (``▁`` → space, ``<0xNN>`` → that one
    byte, ``<unk>`` → the original bytes it swallowed, control pieces → no
    bytes). Spans are byte offsets into the original text as SentencePiece
    reports them; a run of byte pieces is split into one-byte spans when their
    bytes match the text. The dummy-prefix ``▁`` gets an empty span.

    Args:
        model_proto: the serialized ``ModelProto`` (bytes of a ``.model`` file).
        name: display name; default ``"SentencePiece"``.
        train_notes: remarks from training (NUL lines skipped...), kept for the user.

    Raises:
        ModelFormatError: SentencePiece cannot load the bytes.
        BackendUnavailableError: the sentencepiece package is missing.

    Attributes:
        model_proto: the model bytes (what :meth:`save` writes).
        info: :class:`ModelInfo` parsed from the model.
        processor: the ``sentencepiece.SentencePieceProcessor``.
        train_notes: tuple of str.
    """

    family = "sentencepiece"

    def __init__(
        self, model_proto: bytes, *, name: str | None = None, train_notes: Sequence[str] = ()
    ) -> None:
        spm = _import_spm()
        self.model_proto = bytes(model_proto)
        self.info = parse_model_info(self.model_proto)
        sp = spm.SentencePieceProcessor()
        try:
            sp.LoadFromSerializedProto(self.model_proto)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001 - RuntimeError from the C++ loader
            raise ModelFormatError(
                f"{name or 'data'} is not a SentencePiece model (could not parse ModelProto)"
            ) from None
        self.processor = sp
        self._name = name or "SentencePiece"
        self.train_notes = tuple(train_notes)
        n = sp.get_piece_size()
        self._n = n
        self._pieces = [sp.id_to_piece(i) for i in range(n)]
        self._is_byte = [bool(sp.is_byte(i)) for i in range(n)]
        self._is_unknown = [bool(sp.is_unknown(i)) for i in range(n)]
        self._is_control = [bool(sp.is_control(i)) for i in range(n)]
        user = user_defined_ids(self.model_proto)
        self._is_user = [i in user for i in range(n)]
        self._normalizer: Any = None
        try:
            self._normalizer = spm.SentencePieceNormalizer(model_proto=self.model_proto)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001 - older sentencepiece: fall back to decode
            self._normalizer = None

    @classmethod
    def from_file(cls, path: str | os.PathLike[str], *, name: str | None = None) -> SentencePieceTokenizer:
        """Open a SentencePiece ``.model`` file.

        Args:
            path: the file.
            name: display name; default the file name without its suffix.

        Raises:
            InputError: no such file.
            ModelFormatError: the file is not a SentencePiece model.
        """
        p = Path(path)
        try:
            with open(p, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            raise InputError(f"no such file: {p}") from None
        except OSError as exc:
            raise InputError(f"cannot read {p}: {exc.strerror or exc}") from None
        if not data:
            raise ModelFormatError(f"{p.name} is empty, not a SentencePiece model")
        try:
            return cls(data, name=name or p.stem)
        except ModelFormatError:
            raise ModelFormatError(
                f"{p.name} is not a SentencePiece model (could not parse ModelProto)"
            ) from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the model bytes to ``path`` atomically (temp file + rename).

        Raises:
            InputError: the file cannot be written.
        """
        from tokexplorer.core.io import atomic_write_bytes

        p = Path(path)
        try:
            atomic_write_bytes(p, self.model_proto)
        except OSError as exc:
            raise InputError(f"cannot write {p}: {exc.strerror or exc}") from None

    # -------------------------------------------------------------- properties
    @property
    def name(self) -> str:
        return self._name

    @property
    def description(self) -> str:
        """``"SentencePiece bpe · nmt_nfkc · 120 pieces"``."""
        bf = " · byte fallback" if self.info.byte_fallback or any(self._is_byte) else ""
        return f"SentencePiece {self.info.model_type} · {self.info.normalizer} · {self._n:,} pieces{bf}"

    @property
    def vocab_size(self) -> int:
        """Number of pieces (ids ``0 .. vocab_size-1``)."""
        return self._n

    @property
    def special_tokens(self) -> dict[str, int]:
        """Control pieces (``<s>``, ``</s>``...) and user-defined symbols
        (``<|endoftext|>`` given to training) -> id."""
        return {
            self._pieces[i]: i for i in range(self._n) if self._is_control[i] or self._is_user[i]
        }

    @property
    def user_defined_symbols(self) -> dict[str, int]:
        """User-defined symbols -> id: SentencePiece always encodes them as one piece."""
        return {self._pieces[i]: i for i in range(self._n) if self._is_user[i]}

    def piece(self, token_id: int) -> str:
        """The piece of an id (``"▁good"``, ``"<0xE9>"``).

        Raises:
            InputError: the id is not in the vocabulary.
        """
        self._check_id(token_id)
        return self._pieces[token_id]

    def is_byte(self, token_id: int) -> bool:
        """True when the id is a byte-fallback piece ``<0xNN>``."""
        return 0 <= token_id < self._n and self._is_byte[token_id]

    # ---------------------------------------------------------------- helpers
    def _check_id(self, token_id: int) -> None:
        if not isinstance(token_id, int) or not 0 <= token_id < self._n:
            raise InputError(f"token id {token_id} is not in the vocabulary of {self.name}")

    def _piece_bytes(self, token_id: int) -> bytes:
        """Bytes of a piece outside any text (unknown → SentencePiece's `` ⁇ ``)."""
        if self._is_byte[token_id]:
            m = _BYTE_PIECE.fullmatch(self._pieces[token_id])
            if m:
                return bytes([int(m.group(1), 16)])
        if self._is_control[token_id]:
            return b""
        if self._is_unknown[token_id]:
            return " \u2047 ".encode("utf-8")
        return self._pieces[token_id].replace(WS, " ").encode("utf-8")

    def normalize_with_offsets(self, text: str) -> tuple[str, list[int]] | None:
        """The normalizer's own output and where each of its characters came from.

        Args:
            text: any str (lone surrogates are cleaned first, as in :meth:`tokenize`).

        Returns:
            ``(normalized, offsets)``: ``normalized`` keeps SentencePiece's ``▁``
            for whitespace and the dummy-prefix ``▁`` at the start;
            ``offsets[j]`` (``len(normalized) + 1`` entries) is the code point
            offset in the cleaned ``text`` that normalized character ``j`` comes
            from, the last entry the end of what was read. None when the
            installed sentencepiece has no ``SentencePieceNormalizer``. For
            example ``"a︰b"`` under ``nmt_nfkc`` gives ``("▁a..b", [0, 0, 1, 1, 2, 3])``.
        """
        if self._normalizer is None:
            return None
        try:
            out = self._normalizer.Normalize(clean_text(text).text, with_offsets=True)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001 - older bindings without offsets
            return None
        if not (isinstance(out, tuple) and len(out) == 2 and isinstance(out[0], str)):
            return None
        return out[0], [int(o) for o in out[1]]

    def pieces(self, text: str) -> list[tuple[str, int, int, int]]:
        """SentencePiece's own per-piece result for ``text``.

        Args:
            text: any str (lone surrogates are cleaned first).

        Returns:
            one ``(piece, id, begin, end)`` per piece: ``piece`` is the piece as
            it appears in the *normalized* text (for ``<unk>`` the normalized
            characters it swallowed; ``▁`` kept; byte pieces as ``<0xNN>``),
            ``begin``/``end`` byte offsets into the original UTF-8 text.
        """
        raw = self.processor.encode(clean_text(text).text, out_type="serialized_proto")
        return [(p.piece, p.id, p.begin, p.end) for p in _parse_pieces(raw)]

    def normalize(self, text: str) -> str:
        """The text as the normalizer leaves it, with ``▁`` shown as a space and the
        dummy prefix dropped (``"  lead and trail  "`` → ``"lead and trail"`` under
        ``nmt_nfkc``)."""
        if self._normalizer is not None:
            try:
                out = self._normalizer.Normalize(text)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException:  # noqa: BLE001
                out = None
            if isinstance(out, str):
                if self.info.add_dummy_prefix and out.startswith(WS):
                    out = out[1:]
                return out.replace(WS, " ")
        # fallback: rebuild from the pieces, keeping unknown text as it was
        pieces = _parse_pieces(self.processor.encode(text, out_type="serialized_proto"))
        src = text.encode("utf-8")
        parts = [src[p.begin : p.end] if self._is_unknown[p.id] else self._piece_bytes(p.id) for p in pieces]
        out_b = b"".join(parts)
        if self.info.add_dummy_prefix and out_b.startswith(b" "):
            out_b = out_b[1:]
        return out_b.decode("utf-8", "replace")

    # ---------------------------------------------------------------- encoding
    def tokenize(self, text: str, *, special: SpecialPolicy = "plain") -> Tokenization:
        """Tokenize ``text`` into pieces with spans into the original text.

        Args:
            text: any str (lone surrogates become U+FFFD, noted).
            special: SentencePiece never turns text into a control piece, so
                ``"special"`` and ``"plain"`` encode ``"<s>"`` as ordinary text
                (noted); ``"raise"`` refuses text spelling a control piece.

        Returns:
            :class:`Tokenization`; ``exact_offsets`` is False and ``normalized``
            is set when the normalizer changed the text (a note says what changed);
            unknown pieces are flagged and noted.

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a control piece.
            InputError: unknown policy.
        """
        if special not in SPECIAL_POLICIES:
            raise InputError(
                f"unknown special-token policy {special!r}; choose one of {', '.join(SPECIAL_POLICIES)}"
            )
        cleaned = clean_text(text)
        t = cleaned.text
        notes = list(cleaned.notes)
        user = self.user_defined_symbols
        notes.extend(unknown_special_notes(t, self.special_tokens, special))
        found = [s for s in self.special_tokens if s and s in t]
        if found:
            if special == "raise":
                what = "user-defined symbol" if found[0] in user else "control piece"
                raise SpecialTokenError(
                    f"text contains the {what} {found[0]!r}; choose 'special' to encode it "
                    "as its special id or 'plain' to encode it as ordinary text"
                )
            for s in found:
                if s not in user:
                    notes.append(f"{s!r} encoded as plain text")
                elif special == "plain":
                    notes.append(
                        f"{s!r} is a user-defined symbol of this model: SentencePiece always "
                        f"encodes it as one piece (id {user[s]}), it cannot be plain text here"
                    )
        src = t.encode("utf-8")
        om = OffsetMap(t)
        pieces = _parse_pieces(self.processor.encode(t, out_type="serialized_proto"))
        spans = [(p.begin, p.end) for p in pieces]
        # a run of byte pieces: give each its own byte when the bytes match the text
        i = 0
        while i < len(pieces):
            if not self._is_byte[pieces[i].id]:
                i += 1
                continue
            j = i
            while j < len(pieces) and self._is_byte[pieces[j].id]:
                j += 1
            b0, b1 = pieces[i].begin, pieces[j - 1].end
            run = b"".join(self._piece_bytes(p.id) for p in pieces[i:j])
            if src[b0:b1] == run:
                for k in range(i, j):
                    spans[k] = (b0 + k - i, b0 + k - i + 1)
            i = j
        tokens: list[Token] = []
        unknown_surfaces: list[str] = []
        for p, (b, e) in zip(pieces, spans):
            tid = p.id
            unknown = self._is_unknown[tid]
            if unknown:
                tb = src[b:e]
                unknown_surfaces.append(tb.decode("utf-8", "replace"))
            else:
                tb = self._piece_bytes(tid)
            partial = not (om.is_boundary(b) and om.is_boundary(e))
            if self._is_byte[tid] and tb and tb[0] >= 0x80:
                partial = True
            tokens.append(
                Token(
                    tid,
                    tb,
                    b,
                    e,
                    om.char_floor(b),
                    om.char_ceil(e),
                    partial,
                    special=self._is_control[tid] or self._is_user[tid],
                    unknown=unknown,
                    piece=self._pieces[tid] if unknown else p.piece,
                )
            )
        normalized_text = self.normalize(t)
        normalized: str | None = None
        if normalized_text != t:
            normalized = normalized_text
            notes.append(describe_normalization(t, normalized_text))
        if unknown_surfaces:
            shown = ", ".join(repr(s) for s in unknown_surfaces[:5])
            more = f" and {len(unknown_surfaces) - 5} more" if len(unknown_surfaces) > 5 else ""
            n = len(unknown_surfaces)
            notes.append(
                f"{n} unknown piece{'s' if n != 1 else ''} (decoded as ' \u2047 '): {shown}{more}"
            )
            if any("\x00" in s for s in unknown_surfaces):
                notes.append("SentencePiece treats NUL (U+0000) as an unknown piece")
        # spans tile the text when they are contiguous from 0 to the end
        pos = 0
        tiles = True
        for b, e in spans:
            if b != pos:
                tiles = False
                break
            pos = e
        tiles = tiles and pos == len(src)
        exact = normalized is None and tiles
        return Tokenization(
            f"SentencePiece {self.name}", t, tuple(tokens), exact, tuple(notes), normalized
        )

    def encode(self, text: str, *, special: SpecialPolicy = "plain") -> list[int]:
        """Piece ids of ``text`` (SentencePiece ``encode``); see :meth:`tokenize`."""
        if special == "raise":
            return self.tokenize(text, special=special).ids
        return list(self.processor.encode(clean_text(text).text, out_type=int))

    # ---------------------------------------------------------------- decoding
    def token_bytes(self, token_id: int) -> bytes:
        """Bytes of one piece: ``▁`` → space, ``<0xNN>`` → that byte, ``<unk>`` →
        ``" ⁇ "``, control pieces → ``b""``.

        Raises:
            InputError: the id is not in the vocabulary.
        """
        self._check_id(token_id)
        return self._piece_bytes(token_id)

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """The pieces' bytes joined, minus the dummy-prefix space at the start
        (as SentencePiece's decode drops it). Byte pieces give raw bytes, never
        ``<0xNN>`` text or U+FFFD.

        Raises:
            InputError: an id is not in the vocabulary.
        """
        out = b"".join(self.token_bytes(int(i)) for i in ids)
        if self.info.add_dummy_prefix and out.startswith(b" "):
            out = out[1:]
        return out


# --------------------------------------------------------------------------
# training
# --------------------------------------------------------------------------


class VocabTooLargeError(TrainingError):
    """SentencePiece found fewer pieces than requested.

    Attributes:
        requested: the vocab_size asked for.
        max_vocab_size: the largest size SentencePiece says will work.
    """

    def __init__(self, requested: int, max_vocab_size: int) -> None:
        super().__init__(
            f"vocab_size {requested} is too large for this corpus; SentencePiece can make at "
            f"most {max_vocab_size} pieces; ask for {max_vocab_size} or fewer"
        )
        self.requested = requested
        self.max_vocab_size = max_vocab_size


class VocabTooSmallError(TrainingError):
    """The vocabulary cannot even hold every required character plus the meta pieces.

    Attributes:
        requested: the vocab_size asked for.
        min_vocab_size: characters kept by character_coverage + meta pieces.
    """

    def __init__(self, requested: int, min_vocab_size: int) -> None:
        super().__init__(
            f"vocab_size {requested} < {min_vocab_size} needed (every kept character plus "
            "the meta pieces <unk>, <s>, </s> needs a piece)"
        )
        self.requested = requested
        self.min_vocab_size = min_vocab_size


_TOO_HIGH = re.compile(r"Vocabulary size too high \((\d+)\)\. Please set it to a value <= (\d+)")
_TOO_SMALL = re.compile(r"Vocabulary size is smaller than required_chars\. (\d+) vs (\d+)")
_INTERNAL = re.compile(r"^[A-Z_]+: \S+\(\d+\) ")


def _translate_training_error(exc: BaseException) -> TrainingError:
    """Turn SentencePiece's RuntimeError text into a one-line :class:`TrainingError`."""
    msg = " ".join(str(exc).split())
    m = _TOO_HIGH.search(msg)
    if m:
        return VocabTooLargeError(int(m.group(1)), int(m.group(2)))
    m = _TOO_SMALL.search(msg)
    if m:
        return VocabTooSmallError(int(m.group(1)), int(m.group(2)))
    body = _INTERNAL.sub("", msg).strip()
    if "[!sentences_.empty()]" in body:
        return TrainingError("nothing to train on")
    return TrainingError(f"SentencePiece refused to train: {body or type(exc).__name__}")


class LinesTooLongError(TrainingError):
    """Lines longer than ``max_sentence_length`` bytes, which SentencePiece would skip.

    Attributes:
        count: how many lines are too long.
        longest: length of the longest line, in UTF-8 bytes.
        line_number: 1-based number of the longest line among the non-empty lines.
        max_sentence_length: the limit, in bytes.
    """

    def __init__(self, count: int, longest: int, line_number: int, max_sentence_length: int) -> None:
        lines = "line is" if count == 1 else "lines are"
        super().__init__(
            f"{count:,} {lines} longer than max_sentence_length {max_sentence_length:,} bytes "
            f"(longest: line {line_number:,}, {longest:,} bytes) and SentencePiece would skip "
            f"{'it' if count == 1 else 'them'}; raise max_sentence_length to {longest:,} or allow skipping"
        )
        self.count = count
        self.longest = longest
        self.line_number = line_number
        self.max_sentence_length = max_sentence_length


@dataclass(frozen=True, slots=True)
class SPTrainingCheck:
    """What :func:`check_sentencepiece_training` found, before any training.

    Attributes:
        n_lines: non-empty lines (SentencePiece sentences).
        n_long: lines longer than ``max_sentence_length`` bytes (SentencePiece skips them).
        longest: length of the longest line, in UTF-8 bytes.
        longest_line: 1-based number of that line among the non-empty lines.
        n_chars: distinct characters after normalization (space counted as ``▁``).
        required_chars: characters ``character_coverage`` keeps, counted as
            SentencePiece does (most frequent first until the coverage is reached).
        meta_pieces: ``<unk>``, ``<s>``, ``</s>``, user-defined symbols and, with
            byte fallback, the 256 byte pieces.
        min_vocab_size: ``required_chars + meta_pieces``: the smallest vocab_size
            SentencePiece accepts (its "smaller than required_chars" check, vocabulary smaller than the alphabet).
        max_vocab_estimate: an upper bound of the pieces this corpus can give
            (``min_vocab_size`` plus the distinct substrings of 2 to 16 characters
            of its whitespace-separated words), or None when that bound is at
            least ``vocab_size`` (counting stops there). SentencePiece's exact
            limit is only known after training (vocabulary too large for the corpus).
        problems: one-line messages, empty when training may start.
    """

    n_lines: int
    n_long: int
    longest: int
    longest_line: int
    n_chars: int
    required_chars: int
    meta_pieces: int
    min_vocab_size: int
    max_vocab_estimate: int | None
    problems: tuple[str, ...] = ()


_MAX_PIECE_LENGTH = 16  # SentencePiece's default max_piece_length


def _corpus_lines(texts: Iterable[str]) -> tuple[list[str], int]:
    """Non-empty cleaned lines of ``texts`` and how many texts had lone surrogates."""
    if isinstance(texts, str):
        texts = [texts]
    lines: list[str] = []
    n_surrogate = 0
    for text in texts:
        cleaned = clean_text(text)
        if cleaned.changed:
            n_surrogate += 1
        lines.extend(line for line in cleaned.text.splitlines() if line.strip())
    return lines, n_surrogate


def check_sentencepiece_training(
    texts: Iterable[str],
    *,
    vocab_size: int,
    model_type: str = "bpe",
    character_coverage: float = 1.0,
    byte_fallback: bool = False,
    normalization_rule_name: str = "nmt_nfkc",
    remove_extra_whitespaces: bool = True,
    user_defined_symbols: Sequence[str] = (),
    max_sentence_length: int = 4192,
    skip_long_lines: bool = False,
) -> SPTrainingCheck:
    """Check a SentencePiece training request against the corpus, without training.

    The text is normalized with SentencePiece's own normalizer
    (``SentencePieceNormalizer``, same rule, dummy prefix and whitespace escaping
    as the trainer), characters are counted, and ``character_coverage`` is
    applied as in ``trainer_interface.cc`` (sort by count, keep until the covered
    share reaches the coverage), so ``min_vocab_size`` is exactly SentencePiece's
    ``required_chars`` number (36 for the edge-case fixture: 33 characters + 3).

    Args:
        texts: the corpus (split into lines; empty lines are skipped).
        vocab_size, model_type, character_coverage, byte_fallback,
        normalization_rule_name, remove_extra_whitespaces, user_defined_symbols,
        max_sentence_length: as :func:`train_sentencepiece`.
        skip_long_lines: when False, lines over ``max_sentence_length`` bytes are
            a problem; when True they are only counted.

    Returns:
        :class:`SPTrainingCheck`; ``problems`` lists, in this order: an empty
        corpus, coverage out of range, lines over the limit, a vocab_size below
        ``min_vocab_size``, a vocab_size above ``max_vocab_estimate``.

    Raises:
        InputError: unknown normalization rule or model type.
        BackendUnavailableError: sentencepiece is not installed.

    >>> c = check_sentencepiece_training(["ab ab", "ba"], vocab_size=5)
    >>> (c.required_chars, c.min_vocab_size, c.problems)
    (3, 6, ('vocab_size 5 < 6 needed: 3 characters kept by character_coverage 1.0 + 3 meta pieces',))
    """
    spm = _import_spm()
    _check_options(model_type, vocab_size, normalization_rule_name, max_sentence_length, 1)
    lines, _n = _corpus_lines(texts)
    problems: list[str] = []
    if not lines:
        problems.append("nothing to train on")
    cov = float(character_coverage)
    if not 0.98 <= cov <= 1.0:
        problems.append(f"character_coverage {character_coverage} is outside 0.98–1.0 (SentencePiece's range)")
    n_long = longest = longest_line = 0
    kept: list[str] = []
    for i, line in enumerate(lines, 1):
        nb = len(line.encode("utf-8"))
        if nb > longest:
            longest, longest_line = nb, i
        if nb > max_sentence_length:
            n_long += 1
        else:
            kept.append(line)
    if n_long and not skip_long_lines:
        problems.append(str(LinesTooLongError(n_long, longest, longest_line, max_sentence_length)))
    if lines and not kept:
        problems.append(
            f"every line is longer than max_sentence_length {max_sentence_length:,} bytes: nothing to train on"
        )
    norm = spm.SentencePieceNormalizer(
        rule_name=normalization_rule_name,
        add_dummy_prefix=True,
        escape_whitespaces=True,
        remove_extra_whitespaces=bool(remove_extra_whitespaces),
    )
    counts: Counter[str] = Counter()
    words: set[str] = set()
    for line in kept:
        s = norm.normalize(line)
        counts.update(s)
        words.update(WS + w for w in s.split(WS) if w)
    counts.pop("\x00", None)
    counts.pop(" ", None)
    total = sum(counts.values())
    required = acc = 0
    if total:
        for _ch, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            if acc / total >= min(cov, 1.0):
                break
            acc += n
            required += 1
    meta = 3 + len(dict.fromkeys(user_defined_symbols)) + (256 if byte_fallback else 0)
    min_vocab = required + meta
    max_est: int | None = min_vocab
    if model_type != "char":
        # every piece is a substring of a word (SentencePiece never crosses
        # whitespace); stop counting once the request fits
        subs: set[str] = set()
        for w in words:
            for i in range(len(w)):
                subs.update(w[i:j] for j in range(i + 2, min(len(w), i + _MAX_PIECE_LENGTH) + 1))
            if min_vocab + len(subs) >= vocab_size:
                max_est = None
                break
        else:
            max_est = min_vocab + len(subs)
    if kept and vocab_size < min_vocab:
        problems.append(
            f"vocab_size {vocab_size:,} < {min_vocab:,} needed: {required:,} characters kept by "
            f"character_coverage {cov} + {meta} meta pieces"
        )
    if kept and max_est is not None and vocab_size > max_est:
        problems.append(
            f"vocab_size {vocab_size:,} is too large for this corpus: it has {len(words):,} distinct "
            f"words, enough for at most about {max_est:,} pieces"
        )
    return SPTrainingCheck(
        len(lines), n_long, longest, longest_line, len(counts), required, meta, min_vocab, max_est,
        tuple(problems),
    )


def _check_options(
    model_type: str, vocab_size: Any, normalization_rule_name: str, max_sentence_length: int, num_threads: int
) -> None:
    if model_type not in ("bpe", "unigram", "char", "word"):
        raise InputError(f"unknown model_type {model_type!r}; choose bpe, unigram, char or word")
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise InputError(f"vocab_size must be a positive integer, not {vocab_size!r}")
    if normalization_rule_name not in ("nmt_nfkc", "nfkc", "nmt_nfkc_cf", "nfkc_cf", "identity"):
        raise InputError(
            f"unknown normalization_rule_name {normalization_rule_name!r}; choose nmt_nfkc, "
            "nfkc, nmt_nfkc_cf, nfkc_cf or identity"
        )
    if max_sentence_length < 1 or num_threads < 1:
        raise InputError("max_sentence_length and num_threads must be at least 1")


def train_sentencepiece(
    texts: Iterable[str],
    *,
    vocab_size: int,
    model_type: str = "bpe",
    character_coverage: float = 1.0,
    byte_fallback: bool = False,
    normalization_rule_name: str = "nmt_nfkc",
    remove_extra_whitespaces: bool = True,
    split_digits: bool = False,
    user_defined_symbols: Sequence[str] = (),
    max_sentence_length: int = 4192,
    skip_long_lines: bool = False,
    hard_vocab_limit: bool = True,
    num_threads: int = 2,
    name: str | None = None,
    cancel: Callable[[], bool] | None = None,
) -> SentencePieceTokenizer:
    """Train a SentencePiece model in memory (no files written).

    Each text is split at line breaks; every line is one SentencePiece
    "sentence" (as when SentencePiece reads a file). Lines are cleaned with
    :func:`~tokexplorer.core.text.clean.clean_text`; empty lines are skipped.
    SentencePiece's C++ log is captured (not shown) and mined for warnings: for
    the duration of the call, file descriptor 2 (stderr) of the whole process is
    redirected to a temporary file (SentencePiece's ``logstream`` option).

    SentencePiece's trainer is one C++ call that cannot be interrupted. With a
    ``cancel`` callback and a corpus of at least :data:`CHILD_TRAIN_CHARS`, it
    runs in a child process (spawned, so it is safe beside GUI threads) that is
    ended when ``cancel()`` returns True (polled every 0.1 s); smaller corpora
    train in this process, in well under a second.

    Args:
        texts: the corpus, any iterable of str.
        vocab_size: number of pieces, meta pieces (``<unk>``, ``<s>``, ``</s>``) included.
        model_type: ``"bpe"``, ``"unigram"``, ``"char"`` or ``"word"``.
        character_coverage: share of characters the vocabulary must cover,
            0.98–1.0 (SentencePiece's accepted range).
        byte_fallback: add 256 ``<0xNN>`` byte pieces for unseen characters.
        normalization_rule_name: ``"nmt_nfkc"``, ``"nfkc"``, ``"nmt_nfkc_cf"``,
            ``"nfkc_cf"`` or ``"identity"``.
        remove_extra_whitespaces: collapse runs of spaces, strip leading/trailing ones.
        split_digits: one piece per digit.
        user_defined_symbols: pieces that are always kept whole.
        max_sentence_length: longest line SentencePiece trains on, in bytes.
        skip_long_lines: let SentencePiece skip longer lines (noted in
            ``train_notes``) instead of refusing with :class:`LinesTooLongError`.
        hard_vocab_limit: False lets SentencePiece return fewer pieces than asked.
        num_threads: trainer threads.
        name: display name of the result.
        cancel: polled while training; returning True stops it (see above).

    Returns:
        :class:`SentencePieceTokenizer` with ``model_proto`` set and
        ``train_notes`` (e.g. "5 lines contain NUL; SentencePiece skips NUL (it
        is an unknown piece)").

    Raises:
        InputError: a setting is out of range (coverage outside 0.98–1.0, unknown
            model type, vocab_size < 1).
        TrainingError: nothing to train on, or SentencePiece refused;
            :class:`VocabTooLargeError` carries ``max_vocab_size`` (vocabulary too large for the corpus; known
            only after SentencePiece tried),
            :class:`VocabTooSmallError` carries ``min_vocab_size`` (vocabulary smaller than the alphabet; counted
            before training by :func:`check_sentencepiece_training`),
            :class:`LinesTooLongError`: lines over ``max_sentence_length`` and
            ``skip_long_lines`` is False (checked before training).
        Cancelled: ``cancel()`` returned True.
    """
    spm = _import_spm()
    _check_options(model_type, vocab_size, normalization_rule_name, max_sentence_length, num_threads)
    if not 0.98 <= float(character_coverage) <= 1.0:
        raise InputError(
            f"character_coverage {character_coverage} is outside 0.98–1.0 (SentencePiece's range)"
        )
    if isinstance(texts, str):
        texts = [texts]
    lines: list[str] = []
    n_nul = n_long = n_surrogate = 0
    for text in texts:
        cleaned = clean_text(text)
        if cleaned.changed:
            n_surrogate += 1
        for line in cleaned.text.splitlines():
            if not line.strip():
                continue
            if "\x00" in line:
                n_nul += 1
            if len(line.encode("utf-8")) > max_sentence_length:
                n_long += 1
            lines.append(line)
    if not lines:
        raise TrainingError("nothing to train on")
    check = check_sentencepiece_training(
        lines,
        vocab_size=vocab_size,
        model_type=model_type,
        character_coverage=character_coverage,
        byte_fallback=byte_fallback,
        normalization_rule_name=normalization_rule_name,
        remove_extra_whitespaces=remove_extra_whitespaces,
        user_defined_symbols=user_defined_symbols,
        max_sentence_length=max_sentence_length,
        skip_long_lines=skip_long_lines,
    )
    if check.n_long and not skip_long_lines:
        raise LinesTooLongError(check.n_long, check.longest, check.longest_line, max_sentence_length)
    if check.n_long == check.n_lines:
        raise TrainingError(
            f"every line is longer than max_sentence_length {max_sentence_length:,} bytes: nothing to train on"
        )
    if model_type in ("bpe", "unigram") and vocab_size < check.min_vocab_size:
        raise VocabTooSmallError(vocab_size, check.min_vocab_size)
    options: dict[str, Any] = dict(
        model_type=model_type,
        vocab_size=vocab_size,
        character_coverage=float(character_coverage),
        byte_fallback=bool(byte_fallback),
        normalization_rule_name=normalization_rule_name,
        remove_extra_whitespaces=bool(remove_extra_whitespaces),
        split_digits=bool(split_digits),
        max_sentence_length=int(max_sentence_length),
        hard_vocab_limit=bool(hard_vocab_limit),
        num_threads=int(num_threads),
    )
    if user_defined_symbols:
        options["user_defined_symbols"] = list(user_defined_symbols)
    n_chars = sum(len(line) for line in lines)
    if cancel is not None and n_chars >= CHILD_TRAIN_CHARS:
        model, log_text = _train_in_child(lines, options, cancel)
    else:
        try:
            model, log_text = _train_here(spm, lines, options)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - RuntimeError from the C++ trainer
            raise _translate_training_error(exc) from None
    notes: list[str] = []
    warned_nul = log_text.count("Found null character")
    if n_nul or warned_nul:
        n = max(n_nul, warned_nul)
        notes.append(
            f"{n} line{'s' if n != 1 else ''} contain NUL; SentencePiece skips NUL "
            "(it is an unknown piece)"
        )
    if n_long:
        notes.append(
            f"{n_long} line{'s' if n_long != 1 else ''} longer than {max_sentence_length} bytes "
            "skipped by SentencePiece"
        )
    if n_surrogate:
        notes.append(f"lone surrogates replaced by U+FFFD in {n_surrogate} text(s)")
    if not model:
        raise TrainingError("SentencePiece produced no model")
    return SentencePieceTokenizer(model, name=name, train_notes=notes)


#: Corpora of at least this many characters train in a child process when a
#: cancel callback is given (see :func:`train_sentencepiece`): starting the
#: child costs about 0.3 s, which only pays off where training takes longer.
CHILD_TRAIN_CHARS = 2_000_000


def _train_here(spm: Any, lines: list[str], options: dict[str, Any]) -> tuple[bytes, str]:
    """Run SentencePiece's trainer in this process.

    Returns:
        ``(model bytes, SentencePiece's log text)``.
    """
    buf = io.BytesIO()
    log_text = ""
    with tempfile.TemporaryFile() as log:
        try:
            spm.SentencePieceTrainer.train(
                sentence_iterator=iter(lines), model_writer=buf, logstream=log, **options
            )
        finally:
            try:
                log.seek(0)
                log_text = log.read().decode("utf-8", "replace")
            except OSError:
                log_text = ""
    return buf.getvalue(), log_text


def _child_train(conn: Any, lines: list[str], options: dict[str, Any]) -> None:
    """Child process side of :func:`_train_in_child`: train, send the outcome."""
    try:
        result: tuple[str, Any] = ("ok", _train_here(_import_spm(), lines, options))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        result = ("error", f"{exc}")
    try:
        conn.send(result)
    finally:
        conn.close()


def _train_in_child(
    lines: list[str], options: dict[str, Any], cancel: Callable[[], bool]
) -> tuple[bytes, str]:
    """Train in a spawned child process, ending it when ``cancel()`` is True.

    Raises:
        Cancelled: ``cancel()`` returned True (the child is terminated).
        TrainingError: SentencePiece refused (translated as in this process),
            or the child died without an answer.
    """
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child_train, args=(child, lines, options), daemon=True)
    proc.start()
    child.close()
    try:
        while not parent.poll(0.1):
            if cancel():
                raise Cancelled("SentencePiece training cancelled")
            if not proc.is_alive() and not parent.poll(0):
                raise TrainingError(
                    f"SentencePiece training stopped without a result (exit code {proc.exitcode})"
                )
        try:
            kind, payload = parent.recv()
        except EOFError:
            raise TrainingError("SentencePiece training stopped without a result") from None
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join(5)
        parent.close()
    if kind == "error":
        raise _translate_training_error(RuntimeError(payload))
    return payload
