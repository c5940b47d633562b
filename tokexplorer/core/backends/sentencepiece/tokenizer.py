"""A SentencePiece ``.model`` behind the :class:`Tokenizer` interface.

SentencePiece normalizes text first (``nmt_nfkc`` by default: NFKC plus
whitespace clean-up), turns spaces into ``▁`` (U+2581) and adds a "dummy prefix"
``▁`` at the start, then cuts the normalized text into *pieces*. With
``byte_fallback`` a character missing from the vocabulary becomes one
``<0xNN>`` byte piece per UTF-8 byte; without it, it becomes the unknown piece
``<unk>`` (decoded as `` ⁇ ``).

This adapter asks SentencePiece for its per-piece result
(``encode(..., out_type="serialized_proto")``, a serialized ``SentencePieceText``
with piece, id, surface, begin, end per piece) and parses it with
:mod:`.proto`. ``begin`` and ``end`` are byte offsets into the original
(un-normalized) input.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import regex

from tokexplorer.core.backends.base import CancelCheck, Tokenizer, check_special_policy, unknown_special_notes
from tokexplorer.core.backends.naming import file_label
from tokexplorer.core.backends.sentencepiece.normalization import describe_normalization
from tokexplorer.core.backends.sentencepiece.proto import (
    BYTE_PIECE,
    WS,
    Piece,
    _import_spm,
    parse_model_info,
    parse_pieces,
    user_defined_ids,
)
from tokexplorer.core.backends.sentencepiece.spans import char_byte_offsets, piece_char_spans
from tokexplorer.core.errors import (
    InputError,
    ModelFormatError,
    SpecialTokenError,
)
from tokexplorer.core.text import LINE_START_CUT, CleanText, clean_text
from tokexplorer.core.tokens import OffsetMap
from tokexplorer.core.types import SpecialPolicy, Token, Tokenization

#: Probe texts for :attr:`SentencePieceTokenizer.line_cuts_exact`: each is cut after its line break.
_LINE_PROBES: tuple[str, ...] = (
    "ab.\nCd 12", "x\n\u4f60\u597d", "end!\nThe 9", "q\nQ", "1\n2", "\u00e9t\u00e9\nZ", "a)\nb", "\u4f60\n\u597d"
)  # fmt: skip

#: Characters per part when the unknown pieces of a long text are looked for part by part.
NOTE_PART_CHARS = 2_048

_LINE_START = regex.compile(LINE_START_CUT)

# --------------------------------------------------------------------------
# the tokenizer
# --------------------------------------------------------------------------


class SentencePieceTokenizer(Tokenizer):
    """A SentencePiece model behind the :class:`Tokenizer` interface.

    Token bytes are rebuilt from the piece (``▁`` → space, ``<0xNN>`` → that one
    byte, ``<unk>`` → the original bytes it swallowed, control pieces → no
    bytes). Spans are byte offsets into the original text: each piece spans the
    whole original characters its normalized characters came from (a piece made
    from part of one expanded character, one ``.`` of NFKC's ``'…'`` → ``'...'``,
    spans that character and is flagged ``inside_normalized``); a run of byte
    pieces is split into one-byte spans when their bytes match the text. Only the
    dummy-prefix ``▁`` standing alone gets an empty span (no character made it).

    Args:
        model_proto: the serialized ``ModelProto`` (bytes of a ``.model`` file).
        name: display name; default ``"SentencePiece"`` (a model trained here)
            or, for one opened with :meth:`from_file`, the file name and the
            family (``"sp120.model (SentencePiece)"``).
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
        self._name = name
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
            name: display name; default the file name and the family
                (``"tokenizer.model (SentencePiece)"``).

        Raises:
            InputError: no such file.
            ModelFormatError: the file is not a SentencePiece model.
        """
        from tokexplorer.core.io import read_model_file

        p = Path(path)
        data = read_model_file(p)
        if not data:
            raise ModelFormatError(f"{p.name} is empty, not a SentencePiece model")
        try:
            tok = cls(data, name=name)
        except ModelFormatError:
            raise ModelFormatError(
                f"{p.name} is not a SentencePiece model (could not parse ModelProto)"
            ) from None
        tok.source_file = p.absolute()
        return tok

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
    def default_name(self) -> str:
        """The name given, else ``"sp120.model (SentencePiece)"`` for a model opened
        from a file, else ``"SentencePiece"``."""
        if self._name is not None:
            return self._name
        if self.source_file is not None:
            return file_label(self.source_file, self.family)
        return "SentencePiece"

    @property
    def description(self) -> str:
        """``"sp120.model (SentencePiece) · bpe model · nmt_nfkc · 120 pieces"``
        (the name first; ``"SentencePiece · unigram model · ..."`` for one trained here)."""
        bf = " · byte fallback" if self.info.byte_fallback or any(self._is_byte) else ""
        return f"{self.name} · {self.info.model_type} model · {self.info.normalizer} · {self._n:,} pieces{bf}"

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
            m = BYTE_PIECE.fullmatch(self._pieces[token_id])
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
        return [(p.piece, p.id, p.begin, p.end) for p in parse_pieces(raw)]

    def _raw_normalized(self, text: str) -> str | None:
        """The normalizer's own output (``▁`` kept), or None without ``SentencePieceNormalizer``."""
        if self._normalizer is None:
            return None
        try:
            out = self._normalizer.Normalize(text)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException:  # noqa: BLE001
            return None
        return out if isinstance(out, str) else None

    def normalize(self, text: str) -> str:
        """The text as the normalizer leaves it, with ``▁`` shown as a space and the
        dummy prefix dropped (``"  lead and trail  "`` → ``"lead and trail"`` under
        ``nmt_nfkc``)."""
        out = self._raw_normalized(text)
        if out is not None:
            if self.info.add_dummy_prefix and out.startswith(WS):
                out = out[1:]
            return out.replace(WS, " ")
        # fallback: rebuild from the pieces, keeping unknown text as it was
        pieces = parse_pieces(self.processor.encode(text, out_type="serialized_proto"))
        src = text.encode("utf-8")
        parts = [src[p.begin : p.end] if self._is_unknown[p.id] else self._piece_bytes(p.id) for p in pieces]
        out_b = b"".join(parts)
        if self.info.add_dummy_prefix and out_b.startswith(b" "):
            out_b = out_b[1:]
        return out_b.decode("utf-8", "replace")

    # ---------------------------------------------------------------- encoding
    def _tokenize(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> Tokenization:
        """Pieces with spans into the original text.

        SentencePiece never turns text into a control piece, so ``"special"`` and
        ``"plain"`` encode ``"<s>"`` as ordinary text (noted); ``"raise"`` refuses
        text spelling a control piece. ``exact_offsets`` is False and
        ``normalized`` is set when the normalizer changed the text (a note says
        what changed); unknown pieces are flagged and noted. ``cancel`` is not
        polled (SentencePiece is fast).

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a control piece
                or a user-defined symbol.
        """
        t = cleaned.text
        notes = list(cleaned.notes)
        notes.extend(unknown_special_notes(t, self.special_tokens, special))
        notes.extend(self._special_notes(t, special))
        src = t.encode("utf-8")
        pieces = parse_pieces(self._encode_proto(t))
        spans, inside = self._piece_spans(pieces, t, src)
        tokens, unknown_surfaces = self._tokens(pieces, spans, inside, src, OffsetMap(t))
        normalized_text = self.normalize(t)
        normalized: str | None = None
        if normalized_text != t:
            normalized = normalized_text
            notes.append(describe_normalization(t, normalized_text))
        notes.extend(_unknown_notes(unknown_surfaces))
        exact = normalized is None and _tiles(spans, len(src))
        return Tokenization(self.name, t, tokens, exact, tuple(notes), normalized)

    def _notes(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[str, ...]:
        """The notes of :meth:`_tokenize` without its pieces and spans: the policy's
        notes, the normalizer's (SentencePiece's own normalizer) and, only when the
        text may hold unknown pieces (:meth:`_may_be_unknown`), the unknown-piece
        notes, which need the pieces' spans (then :meth:`_tokenize` gives them all).

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a control piece
                or a user-defined symbol.
        """
        t = cleaned.text
        notes = list(cleaned.notes)
        notes.extend(unknown_special_notes(t, self.special_tokens, special))
        notes.extend(self._special_notes(t, special))
        surfaces: list[str] = []
        if not self._all_pieces(t):  # it may hold unknown pieces
            if self.line_cuts_exact:
                surfaces = self._unknown_surfaces(t)
            elif any(self._is_unknown[i] for i in set(self._ids(t))):
                return self._tokenize(cleaned, special=special, cancel=None).notes
        normalized_text = self.normalize(t)
        if normalized_text != t:
            notes.append(describe_normalization(t, normalized_text))
        notes.extend(_unknown_notes(surfaces))
        return tuple(notes)

    @cached_property
    def line_cuts_exact(self) -> bool:
        """True when cutting a text after a line break that follows a non-space and
        precedes a letter or digit (:data:`~tokexplorer.core.text.LINE_START_CUT`)
        never changes its ids: the ids of probes cut there are those of the two
        sides. Not for a model whose normalizer keeps the line break (Mistral's
        ``<0x0A>``): the text after a cut would get a ``▁`` of its own."""
        for probe in _LINE_PROBES:
            cut = probe.index("\n") + 1
            if self._ids(probe) != self._ids(probe[:cut]) + self._ids(probe[cut:]):
                return False
        return True

    def _unknown_surfaces(self, text: str) -> list[str]:
        """The original text of each unknown piece of ``text``, in order, from the
        pieces with spans of only the parts that hold one (parts of about
        :data:`NOTE_PART_CHARS` characters cut at line starts; needs :attr:`line_cuts_exact`)."""
        cuts = [0]
        for m in _LINE_START.finditer(text):
            if m.start() - cuts[-1] >= NOTE_PART_CHARS:
                cuts.append(m.start())
        cuts.append(len(text))
        parts = [text[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]
        unknown = {i for i in range(self._n) if self._is_unknown[i]}
        surfaces: list[str] = []
        for part, ids in zip(parts, self._ids(parts)):
            if not unknown.isdisjoint(ids):
                pieces = parse_pieces(self._encode_proto(part))
                src = part.encode("utf-8")
                spans, _inside = self._piece_spans(pieces, part, src)
                surfaces += [src[b:e].decode("utf-8", "replace") for p, (b, e) in zip(pieces, spans) if p.id in unknown]
        return surfaces

    def _all_pieces(self, text: str) -> bool:
        """True when no piece of ``text`` can be the unknown piece: a BPE, Unigram or
        character model gives the unknown piece only to a character that is not one
        of its pieces (or, Unigram, an unused one), and every character of the
        normalized text is a used piece. False otherwise (a word model: always)."""
        sp = self.processor
        raw = self._raw_normalized(text)
        if raw is None or self.info.model_type not in ("bpe", "unigram", "char"):
            return False
        for ch in set(raw):
            tid = sp.piece_to_id(ch)
            if self._is_unknown[tid] or self._is_control[tid] or sp.is_unused(tid):
                return False
        return True

    def _ids(self, text: str | list[str]) -> Any:
        """SentencePiece's ids of a text, or of each text of a list (``out_type=int``;
        a subclass may sample)."""
        return self.processor.encode(text, out_type=int)

    def _encode_proto(self, text: str) -> bytes:
        """SentencePiece's serialized ``SentencePieceText`` of ``text`` (a subclass may sample)."""
        return self.processor.encode(text, out_type="serialized_proto")

    def _special_notes(self, text: str, special: SpecialPolicy) -> list[str]:
        """Notes on control pieces and user-defined symbols spelled in ``text``.

        Raises:
            SpecialTokenError: ``special="raise"`` and ``text`` spells one.
        """
        user = self.user_defined_symbols
        found = [s for s in self.special_tokens if s and s in text]
        if found and special == "raise":
            what = "user-defined symbol" if found[0] in user else "control piece"
            raise SpecialTokenError(
                f"text contains the {what} {found[0]!r}; choose 'special' to encode it "
                "as its special id or 'plain' to encode it as ordinary text"
            )
        notes: list[str] = []
        for s in found:
            if s not in user:
                notes.append(f"{s!r} encoded as plain text")
            elif special == "plain":
                notes.append(
                    f"{s!r} is a user-defined symbol of this model: SentencePiece always "
                    f"encodes it as one piece (id {user[s]}), it cannot be plain text here"
                )
        return notes

    def _piece_spans(
        self, pieces: Sequence[Piece], text: str, src: bytes
    ) -> tuple[list[tuple[int, int]], list[bool]]:
        """Byte spans of the pieces over the original characters they came from
        (:func:`.spans.piece_char_spans`; SentencePiece's own spans when the
        normalizer gives no offsets), and which pieces are inside a normalized
        character. A run of byte pieces whose bytes match the text gets one byte
        each (SentencePiece gives the whole run's span to each)."""
        spans = [(p.begin, p.end) for p in pieces]
        inside = [False] * len(pieces)
        raw = self.normalize_with_offsets(text)
        mapped = None
        if raw is not None:
            mapped = piece_char_spans(
                [p.piece for p in pieces], [self._is_byte[p.id] for p in pieces], raw[0], raw[1],
                dummy_prefix=self.info.add_dummy_prefix,
            )  # fmt: skip
        if mapped is not None:
            to_byte = char_byte_offsets(text)
            spans = [(to_byte[m.start], to_byte[m.end]) for m in mapped]
            inside = [m.inside_normalized for m in mapped]
        i = 0
        while i < len(pieces):
            if not self._is_byte[pieces[i].id]:
                i += 1
                continue
            j = i
            while j < len(pieces) and self._is_byte[pieces[j].id]:
                j += 1
            b0, b1 = spans[i][0], spans[j - 1][1]
            run = b"".join(self._piece_bytes(p.id) for p in pieces[i:j])
            if src[b0:b1] == run:
                for k in range(i, j):
                    spans[k] = (b0 + k - i, b0 + k - i + 1)
            i = j
        return spans, inside

    def _tokens(
        self, pieces: Sequence[Piece], spans: Sequence[tuple[int, int]], inside: Sequence[bool],
        src: bytes, om: OffsetMap,
    ) -> tuple[tuple[Token, ...], list[str]]:
        """The :class:`Token` of each piece, and the original text every unknown piece swallowed."""
        tokens: list[Token] = []
        unknown_surfaces: list[str] = []
        for p, (b, e), inside_normalized in zip(pieces, spans, inside):
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
                    tid, tb, b, e, om.char_floor(b), om.char_ceil(e), partial,
                    special=self._is_control[tid] or self._is_user[tid],
                    unknown=unknown,
                    piece=self._pieces[tid] if unknown else p.piece,
                    inside_normalized=inside_normalized,
                )
            )  # fmt: skip
        return tuple(tokens), unknown_surfaces

    def _encode(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> list[int]:
        """Piece ids (SentencePiece ``encode``); ``"raise"`` goes through
        :meth:`_tokenize`, which refuses a control piece's spelling."""
        if special == "raise":
            return self._tokenize(cleaned, special=special, cancel=cancel).ids
        return list(self.processor.encode(cleaned.text, out_type=int))

    def round_trips(self, texts: Sequence[str], *, special: SpecialPolicy = "plain") -> list[bool]:
        """Per text, whether ``decode(encode(text)) == text``, the ids of all texts
        from one call into SentencePiece (``encode`` of the list, ``out_type=int``).

        Raises:
            InputError, SpecialTokenError: as :meth:`encode` (``"raise"`` encodes one text at a time).
        """
        check_special_policy(special)
        cleaned = [clean_text(t).text for t in texts]
        if special == "raise":
            ids = [self.encode(t, special=special) for t in texts]
        else:
            ids = self._ids(cleaned) if cleaned else []
        return [self.decode(i) == t for i, t in zip(ids, texts)]

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


#: The way out named by the unknown-piece note: the training options that keep every character.
UNKNOWN_HINT = (
    "to keep such characters, train with byte fallback (--byte-fallback), "
    "or on a corpus that holds them with character coverage 1.0"
)


def _unknown_notes(unknown_surfaces: Sequence[str]) -> list[str]:
    """The notes about unknown pieces: how many, the first five texts they swallowed,
    how many characters are lost, and how to keep them."""
    if not unknown_surfaces:
        return []
    shown = ", ".join(repr(s) for s in unknown_surfaces[:5])
    more = f" and {len(unknown_surfaces) - 5} more" if len(unknown_surfaces) > 5 else ""
    n = len(unknown_surfaces)
    lost = sum(len(s) for s in unknown_surfaces)
    notes = [
        f"{n} unknown piece{'s' if n != 1 else ''} (decoded as ' \u2047 '): {shown}{more}; "
        f"{lost} character{'s' if lost != 1 else ''} lost; {UNKNOWN_HINT}"
    ]
    if any("\x00" in s for s in unknown_surfaces):
        notes.append("SentencePiece treats NUL (U+0000) as an unknown piece")
    return notes


def _tiles(spans: Sequence[tuple[int, int]], n_bytes: int) -> bool:
    """True when ``spans`` are contiguous from byte 0 to ``n_bytes``."""
    pos = 0
    for b, e in spans:
        if b != pos:
            return False
        pos = e
    return pos == n_bytes
