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

import numpy as np

from tokexplorer.core.backends.base import CancelCheck, Tokenizer, unknown_special_notes
from tokexplorer.core.backends.naming import file_label
from tokexplorer.core.backends.sentencepiece.columns import (
    piece_tokens,
)
from tokexplorer.core.backends.sentencepiece.counting import SentencePieceCounting
from tokexplorer.core.backends.sentencepiece.decoding import joined_bytes, library_text
from tokexplorer.core.backends.sentencepiece.normalization import (
    describe_normalization,
    load_normalizer,
    run_normalizer,
)
from tokexplorer.core.backends.sentencepiece.notes import (
    all_pieces,
    line_cuts_exact,
    special_notes,
    unknown_notes,
)
from tokexplorer.core.backends.sentencepiece.proto import (
    WS,
    _import_spm,
    parse_model_info,
    parse_pieces,
    user_defined_ids,
)
from tokexplorer.core.backends.sentencepiece.vocab import PieceTable
from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.text import CleanText, clean_text
from tokexplorer.core.types import SpecialPolicy, Tokenization

# --------------------------------------------------------------------------
# the tokenizer
# --------------------------------------------------------------------------


class SentencePieceTokenizer(SentencePieceCounting, Tokenizer):
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
        self.table = PieceTable.from_processor(sp, user_defined_ids(self.model_proto))
        self._n = len(self.table.pieces)
        self._normalizer = load_normalizer(spm, self.model_proto)
        self._own_ids = [0, 0]  # blocks and texts not counted as one call on the whole (note_own_ids)

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
        bf = " · byte fallback" if self.info.byte_fallback or any(self.table.is_byte) else ""
        return f"{self.name} · {self.info.model_type} model · {self.info.normalizer} · {self._n:,} pieces{bf}"

    @property
    def vocab_size(self) -> int:
        """Number of pieces (ids ``0 .. vocab_size-1``)."""
        return self._n

    @property
    def special_tokens(self) -> dict[str, int]:
        """Control pieces (``<s>``, ``</s>``...) and user-defined symbols
        (``<|endoftext|>`` given to training) -> id."""
        return dict(self._specials)

    @property
    def user_defined_symbols(self) -> dict[str, int]:
        """User-defined symbols -> id: SentencePiece always encodes them as one piece."""
        return {s: i for s, i in self._specials.items() if self.table.is_user[i]}

    @cached_property
    def _specials(self) -> dict[str, int]:
        """Control pieces and user-defined symbols -> id, read once."""
        return {self.table.pieces[i]: i for i in np.flatnonzero(self.table.special).tolist()}

    def piece(self, token_id: int) -> str:
        """The piece of an id (``"▁good"``, ``"<0xE9>"``).

        Raises:
            InputError: the id is not in the vocabulary.
        """
        self._check_id(token_id)
        return self.table.pieces[token_id]

    def is_byte(self, token_id: int) -> bool:
        """True when the id is a byte-fallback piece ``<0xNN>``."""
        return 0 <= token_id < self._n and self.table.is_byte[token_id]

    # ---------------------------------------------------------------- helpers
    def _check_id(self, token_id: int) -> None:
        if not isinstance(token_id, int) or not 0 <= token_id < self._n:
            raise InputError(f"token id {token_id} is not in the vocabulary of {self.name}")

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
        out = run_normalizer(self._normalizer, clean_text(text).text, with_offsets=True)
        return None if out is None else (out[0], out[1])

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
        return run_normalizer(self._normalizer, text, with_offsets=False)

    def normalize(self, text: str) -> str:
        """The text as the normalizer leaves it, with ``▁`` shown as a space and the
        dummy prefix dropped (``"  lead and trail  "`` → ``"lead and trail"`` under
        ``nmt_nfkc``)."""
        out = self._raw_normalized(text)
        if out is not None:
            return self._shown(out)
        # fallback: rebuild from the pieces, keeping unknown text as it was
        pieces = parse_pieces(self.processor.encode(text, out_type="serialized_proto"))
        src = text.encode("utf-8")
        parts = [src[p.begin : p.end] if self.table.is_unknown[p.id] else self.table.piece_bytes[p.id] for p in pieces]
        out_b = b"".join(parts)
        if self.info.add_dummy_prefix and out_b.startswith(b" "):
            out_b = out_b[1:]
        return out_b.decode("utf-8", "replace")

    def _shown(self, raw: str) -> str:
        """The normalizer's own output as :meth:`normalize` shows it."""
        return (raw[1:] if self.info.add_dummy_prefix and raw.startswith(WS) else raw).replace(WS, " ")

    # ---------------------------------------------------------------- encoding
    def _policy_notes(self, cleaned: CleanText, special: SpecialPolicy) -> list[str]:
        """The notes every result of ``cleaned`` opens with: the cleaning's, then the policy's
        (``<|...|>`` spellings, control pieces and user-defined symbols in the text).

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a control piece
                or a user-defined symbol.
        """
        t = cleaned.text
        notes = list(cleaned.notes)
        notes.extend(unknown_special_notes(t, self.special_tokens, special))
        notes.extend(special_notes(t, special, self.special_tokens, self.user_defined_symbols))
        return notes

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
        notes = self._policy_notes(cleaned, special)
        t = cleaned.text
        pieces = parse_pieces(self._encode_proto(t))
        cols = self._columns(t, pieces)
        tokens, surfaces = piece_tokens(pieces, cols, t, self.table)
        return Tokenization(self.name, t, tokens, cols.exact_offsets, self._noted(t, notes, surfaces), cols.normalized)

    def _notes(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[str, ...]:
        """The notes of :meth:`_tokenize` without its pieces and spans: the policy's
        notes, the normalizer's (SentencePiece's own normalizer) and, only when the
        text may hold unknown pieces (:func:`.notes.all_pieces`), the unknown-piece
        notes, which need the ids and the pieces' spans (:meth:`_count_noted`).

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a control piece
                or a user-defined symbol.
        """
        t = cleaned.text
        if not all_pieces(self._raw_normalized(t), self.info.model_type, self._is_used_piece):
            return self._count_noted(cleaned, special=special)[1]
        return self._noted(t, self._policy_notes(cleaned, special), [])

    def _noted(self, text: str, notes: list[str], surfaces: list[str]) -> tuple[str, ...]:
        """``notes``, the normalizer's note on ``text``, the notes on the unknown pieces' ``surfaces``."""
        normalized_text = self.normalize(text)
        if normalized_text != text:
            notes.append(describe_normalization(text, normalized_text))
        notes.extend(unknown_notes(surfaces))
        return tuple(notes)

    @property
    def counting_notes(self) -> tuple[str, ...]:
        """Where a unigram model's ids were not those of one call on a whole text
        (:meth:`note_own_ids`); empty nearly always."""
        from tokexplorer.core.backends.sentencepiece import counting  # (its limit as it is now)

        blocks, texts = self._own_ids
        why = (
            "where two segmentations of this unigram model score within rounding, the count may differ "
            "by a token or so from one call on the whole text"
        )
        notes = []
        if texts:
            notes.append(
                f"{texts:,} text{'s' if texts != 1 else ''} of more than {counting.WHOLE_CALL_MAX_CHARS:,} characters "
                f"counted in parts: {why}"
            )
        if blocks:
            notes.append(f"{blocks:,} block{'s' if blocks != 1 else ''} of text counted with own ids: {why}")
        return tuple(notes)

    def note_own_ids(self, *, blocks: int = 0, texts: int = 0) -> None:
        """Record that ``blocks`` blocks of the statistics were counted with their own ids,
        not their share of one call on the whole file (see
        :class:`~tokexplorer.core.analysis.stats_sentencepiece.WholeCallShares`), or that
        ``texts`` texts too long for one call were counted in parts (:attr:`counting_notes`)."""
        self._own_ids[0] += blocks
        self._own_ids[1] += texts

    @cached_property
    def line_cuts_exact(self) -> bool:
        """True when a cut at a line start (:data:`~tokexplorer.core.text.LINE_START_CUT`) never
        changes the ids (:func:`~tokexplorer.core.backends.sentencepiece.notes.line_cuts_exact`).

        Never for a unigram model: its Viterbi search adds up the piece scores of the
        whole text in floating point, so where two segmentations of a word score
        within rounding of each other (``7|13`` and ``71|3``: -16.63718 and
        -16.63725), which one wins depends on the text before it. The ids of a text
        are then those of one call on the whole of it, as SentencePiece gives them."""
        return self.info.model_type != "unigram" and self.line_cuts_keep_pieces

    @cached_property
    def line_cuts_keep_pieces(self) -> bool:
        """True when a cut at a line start keeps every piece but for such near ties: the
        probes of :func:`~tokexplorer.core.backends.sentencepiece.notes.line_cuts_exact`
        pass (on the best segmentation, never a sampled one). The unknown pieces of a
        text, which no tie changes, can then be found in parts of it, and the ids of one
        call on the whole text be shared out among its parts."""
        return line_cuts_exact(lambda text: self.processor.encode(text, out_type=int))

    def _is_used_piece(self, piece: str) -> bool:
        """True when ``piece`` is a piece of the model, neither unknown, control nor unused."""
        tid = self.processor.piece_to_id(piece)
        return not (self.table.is_unknown[tid] or self.table.is_control[tid] or self.processor.is_unused(tid))

    def _spans(self, text: str, ids: Sequence[int]) -> list[tuple[int, int, int]]:
        """``(id, byte start, byte end)`` of each piece of ``text`` (``ids``: its ids), as
        :meth:`_tokenize` spans them."""
        cols = self._columns_of_ids(text, ids)
        return list(zip(cols.ids.tolist(), cols.starts.tolist(), cols.ends.tolist()))

    def _ids(self, text: str | list[str]) -> Any:
        """SentencePiece's ids of a text, or of each text of a list (``out_type=int``;
        a subclass may sample)."""
        return self.processor.encode(text, out_type=int)

    def _piece_strings(self, text: str) -> list[str] | None:
        """SentencePiece's pieces of ``text`` as strings (``out_type=str``), the ones of
        :meth:`_ids` (None for a subclass whose encodings may differ)."""
        return self.processor.encode(text, out_type=str)

    def _encode_proto(self, text: str) -> bytes:
        """SentencePiece's serialized ``SentencePieceText`` of ``text`` (a subclass may sample)."""
        return self.processor.encode(text, out_type="serialized_proto")

    def _encode(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> list[int]:
        """Piece ids (SentencePiece ``encode``); ``"raise"`` goes through
        :meth:`_tokenize`, which refuses a control piece's spelling."""
        if special == "raise":
            return self._tokenize(cleaned, special=special, cancel=cancel).ids
        return list(self.processor.encode(cleaned.text, out_type=int))

    # ---------------------------------------------------------------- decoding
    def token_bytes(self, token_id: int) -> bytes:
        """Bytes of one piece: ``▁`` → space, ``<0xNN>`` → that byte, ``<unk>`` →
        ``" ⁇ "``, control pieces → ``b""``.

        Raises:
            InputError: the id is not in the vocabulary.
        """
        self._check_id(token_id)
        return self.table.piece_bytes[token_id]

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """The pieces' bytes joined, minus the leading space SentencePiece's decode
        drops (see :mod:`.decoding`). Byte pieces give raw bytes, never
        ``<0xNN>`` text or U+FFFD.

        Raises:
            InputError: an id is not in the vocabulary.
        """
        ids = [int(i) for i in ids]
        for i in ids:
            self._check_id(i)
        return self._joined(ids)

    def decode(self, ids: Sequence[int], *, errors: str = "replace") -> str:
        """The text SentencePiece's own ``decode`` gives (``errors="replace"``: one U+FFFD
        per byte of an incomplete byte-fallback run, ``'<0xE9><0xBE>'`` → ``'��'``), or
        with another ``errors`` :meth:`decode_bytes` decoded so (``"strict"`` raises
        ``UnicodeDecodeError``). See :mod:`.decoding`.

        Raises:
            InputError: an id is not in the vocabulary.
        """
        if errors != "replace":
            return self.decode_bytes(ids).decode("utf-8", errors)
        ids = [int(i) for i in ids]
        for i in ids:
            self._check_id(i)
        return library_text(ids, self.table, mode=self._prefix_mode)

    @property
    def _prefix_mode(self) -> str:
        """Which leading spaces decoding drops (:func:`.decoding.prefix_cuts`)."""
        if self.info.remove_extra_whitespaces:
            return "all"
        return "one" if self.info.add_dummy_prefix else "none"

    def _joined(self, ids: Sequence[int]) -> bytes:
        """:meth:`decode_bytes` of ids known to be in the vocabulary."""
        return joined_bytes(ids, self.table, mode=self._prefix_mode)
