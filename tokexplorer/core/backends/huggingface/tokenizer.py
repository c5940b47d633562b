"""A Hugging Face ``tokenizers.Tokenizer`` (a ``tokenizer.json``) behind the
:class:`~tokexplorer.core.backends.base.Tokenizer` interface.

The library runs its whole pipeline: added tokens are split out, the
normalizer rewrites the text (BERT lowercasing and accent stripping, NFKC...),
the pre-tokenizer cuts it into pre-tokens, the model (BPE, WordPiece, Unigram,
WordLevel) cuts those into tokens, and the post-processor adds special tokens
(``[CLS]``/``[SEP]``, a BOS). Its character offsets point into the text the user
gave, whatever the normalizer did; this adapter turns them into byte and
character spans, and, where several byte-level tokens share one character's
offsets (a character cut by the tokenization), into each token's own bytes.

>>> from tokenizers import Tokenizer, models, pre_tokenizers
>>> lib = Tokenizer(models.WordLevel({"hi": 0, "[UNK]": 1}, unk_token="[UNK]"))
>>> lib.pre_tokenizer = pre_tokenizers.Whitespace()
>>> tok = HuggingFaceTokenizer(lib)
>>> [(t.id, t.bytes, t.byte_start, t.byte_end, t.unknown) for t in tok.tokenize("hi yo").tokens]
[(0, b'hi', 0, 2, False), (1, b'yo', 3, 5, True)]
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from tokexplorer.core.backends.base import CancelCheck, Tokenizer, check_special_policy, unknown_special_notes
from tokexplorer.core.backends.huggingface.byte_decoding import decode_keeping_bytes
from tokexplorer.core.backends.huggingface.config import HFConfig, read_config, stage_parts, whole_text_notes
from tokexplorer.core.backends.huggingface.spans import (
    added_notes,
    char_to_byte_offsets,
    first_line,
    guarded,
    lost_note,
    tiles,
    token_notes,
    token_span,
    valid_utf8,
)
from tokexplorer.core.backends.naming import file_label
from tokexplorer.core.errors import InputError, ModelFormatError, SpecialTokenError
from tokexplorer.core.text import CleanText, clean_text
from tokexplorer.core.tokens import OffsetMap
from tokexplorer.core.types import SpecialPolicy, Token, Tokenization

if TYPE_CHECKING:
    import tokenizers

__all__ = ["HuggingFaceTokenizer"]


class HuggingFaceTokenizer(Tokenizer):
    """A ``tokenizers.Tokenizer`` behind the :class:`Tokenizer` interface.

    Token bytes are what each token stands for: byte-level tokens (``"Ġhi"``)
    are decoded from GPT-2's visible-byte alphabet, the WordPiece ``"##"``
    continuation mark and a BPE end-of-word suffix are dropped, Metaspace's
    ``"▁"`` is a space, a byte-fallback piece ``"<0xE9>"`` is that byte, an
    unknown token (``[UNK]``) is the original text it swallowed, an added
    token is its text. :attr:`Token.piece` keeps the library's own token string.

    Special-token policies: ``"special"`` lets the library match the added
    special tokens in the text (its default), ``"plain"`` encodes them as
    ordinary text (the library's ``encode_special_tokens``), ``"raise"`` refuses
    text that spells one. :attr:`add_special_tokens` says whether the
    post-processor adds its tokens (``[CLS]``/``[SEP]``, a BOS); they get empty
    spans where they stand and are flagged special.

    Args:
        tokenizer: a built ``tokenizers.Tokenizer``.
        source_file: the file it was read from (names the tokenizer), or None.
        notes: remarks for the user about how it was built (settings assumed...),
            repeated in every result's notes and in :attr:`description`. The
            tokenizer's truncation and padding (a model's input batch) are turned
            off, with a note each.

    Raises:
        ModelFormatError: the tokenizer has no model.

    Attributes:
        tokenizer: the ``tokenizers.Tokenizer``.
        config: :class:`~tokexplorer.core.backends.huggingface.config.HFConfig`.
        build_notes: tuple of str (the ``notes`` given, then the truncation and padding notes).
        add_special_tokens: bool, default True: what the library's ``encode``
            (and the ``transformers`` tokenizer) does by default.
    """

    family = "huggingface"

    def __init__(
        self,
        tokenizer: tokenizers.Tokenizer,
        *,
        source_file: Path | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        self.tokenizer = tokenizer
        self.source_file = source_file
        self.build_notes = tuple(notes) + whole_text_notes(tokenizer)
        self.config: HFConfig = read_config(tokenizer)
        self.add_special_tokens = True
        added = tokenizer.get_added_tokens_decoder()
        self._added: dict[int, str] = {int(i): t.content for i, t in added.items()}
        self._special: dict[str, int] = {t.content: int(i) for i, t in added.items() if t.special}
        self._bytes: dict[int, bytes] = {}
        self._plain: tokenizers.Tokenizer | None = None
        vocab = tokenizer.get_vocab(with_added_tokens=True)
        self._n = max(vocab.values(), default=-1) + 1

    # ----------------------------------------------------------------- loading
    @classmethod
    def from_file(cls, path: str | os.PathLike[str]) -> HuggingFaceTokenizer:
        """Open a Hugging Face ``tokenizer.json``.

        Raises:
            InputError: no such file, or it cannot be read.
            ModelFormatError: not JSON, JSON without a ``"model"`` section, or a
                tokenizer the library refuses (the message says which, in one line).
        """
        from tokenizers import Tokenizer as LibTokenizer

        from tokexplorer.core.io import read_model_file

        p = Path(path)
        data = read_model_file(p)
        try:
            text = data.decode("utf-8-sig")
            parsed = json.loads(text)
        except UnicodeDecodeError:
            raise ModelFormatError(f"{p.name} is not a tokenizer.json (not UTF-8 text)") from None
        except json.JSONDecodeError as exc:
            why = f"not JSON: {exc.msg} at line {exc.lineno}"
            raise ModelFormatError(f"{p.name} is not a tokenizer.json ({why})") from None
        if not isinstance(parsed, dict) or not isinstance(parsed.get("model"), dict):
            raise ModelFormatError(f'{p.name} is JSON but not a tokenizer.json (no "model" section)')
        try:
            lib = LibTokenizer.from_str(text)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - the library's errors, panics included
            raise ModelFormatError(f"{p.name}: the tokenizers library cannot read it: {first_line(exc)}") from None
        return cls(lib, source_file=p.absolute())

    # -------------------------------------------------------------- properties
    @property
    def family_label(self) -> str:
        """``"Hugging Face BPE"``, ``"Hugging Face WordPiece"``, ``"Hugging Face Unigram"``..."""
        return f"Hugging Face {self.config.model_type}"

    @property
    def default_name(self) -> str:
        """``"tokenizer.json (Hugging Face BPE)"`` for a file, else ``"Hugging Face BPE"``."""
        if self.source_file is not None:
            return file_label(PurePath(self.source_file), self.family_label)
        return self.family_label

    @property
    def description(self) -> str:
        """``"tokenizer.json (Hugging Face WordPiece) · BertNormalizer → BertPreTokenizer →
        WordPiece → BertProcessing · 30,522 tokens"``: the pipeline's stages (the parts of
        a ``Sequence`` joined by ``+``), the size, then the notes given at construction."""
        cfg = self.config
        parts = (
            stage_parts(cfg.normalizer),
            stage_parts(cfg.pre_tokenizer),
            cfg.model_type,
            stage_parts(cfg.post_processor),
        )
        stages = [s for s in parts if s]
        extra = "".join(f" · {n}" for n in self.build_notes)
        return f"{self.name} · {' → '.join(stages)} · {self._n:,} tokens{extra}"

    @property
    def vocab_size(self) -> int:
        """Highest token id + 1 (added tokens included)."""
        return self._n

    @property
    def special_tokens(self) -> dict[str, int]:
        """The added tokens marked special (``[CLS]``, ``<|endoftext|>``) -> id."""
        return dict(self._special)

    @property
    def added_tokens(self) -> dict[int, str]:
        """Every added token (special or not): id -> its text."""
        return dict(self._added)

    # ---------------------------------------------------------------- encoding
    def _specials_in(self, text: str) -> list[str]:
        """Distinct special token spellings found in ``text``, in order of first occurrence."""
        found = [(text.find(s), s) for s in self._special if s and s in text]
        return [s for _, s in sorted(found)]

    def library_for(self, special: SpecialPolicy) -> tokenizers.Tokenizer:
        """The library tokenizer that encodes under ``special``: the wrapped one,
        or for ``"plain"`` a copy whose ``encode_special_tokens`` is on (the
        library then encodes special token text as ordinary text)."""
        if special != "plain" or not self._special:
            return self.tokenizer
        if self._plain is None:
            from tokenizers import Tokenizer as LibTokenizer

            plain = LibTokenizer.from_str(self.tokenizer.to_str())
            plain.encode_special_tokens = True
            self._plain = plain
        return self._plain

    def _policy_notes(self, text: str, special: SpecialPolicy) -> list[str]:
        """Notes on special token text under ``special``.

        Raises:
            SpecialTokenError: ``special="raise"`` and ``text`` spells a special token.
        """
        found = self._specials_in(text)
        if found and special == "raise":
            raise SpecialTokenError(found[0])
        notes = [f"{s!r} encoded as plain text" for s in found] if special == "plain" else []
        notes.extend(unknown_special_notes(text, self._special, special))
        return notes

    def encoding(self, text: str, *, special: SpecialPolicy = "special", add_special_tokens: bool | None = None) -> Any:
        """The library's own ``Encoding`` of already-cleaned ``text`` under ``special``
        (no policy check, no notes).

        Args:
            text: the text, already cleaned.
            special: the special-token policy.
            add_special_tokens: whether the post-processor adds its tokens; None:
                :attr:`add_special_tokens`.

        Raises:
            TokexplorerError: the library failed.
        """
        lib = self.library_for(special)
        add = self.add_special_tokens if add_special_tokens is None else add_special_tokens
        return guarded("encoding the text", lambda: lib.encode(text, add_special_tokens=add))

    def tokenize_with(self, text: str, *, special: SpecialPolicy = "plain", add_special_tokens: bool) -> Tokenization:
        """:meth:`tokenize` with the post-processor's tokens on or off for this call
        only (:attr:`add_special_tokens` stays as it is).

        Raises:
            InputError, SpecialTokenError, TokexplorerError: as :meth:`tokenize`.
        """
        check_special_policy(special)
        return self._run(clean_text(text), special, add_special_tokens)

    def _tokenize(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> Tokenization:
        """Tokens with spans in the user's text (see the class docstring).

        ``exact_offsets`` is True when the tokens' bytes tile the text's UTF-8
        exactly; ``normalized`` is the normalizer's output when it changed the
        text. ``cancel`` is not polled (the library is fast).

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
            TokexplorerError: the library failed.
        """
        return self._run(cleaned, special, self.add_special_tokens)

    def _run(
        self, cleaned: CleanText, special: SpecialPolicy, add_special_tokens: bool, enc: Any = None
    ) -> Tokenization:
        """:meth:`_tokenize` with the post-processor switch given (and the library's
        ``Encoding`` of the text under it, when it was made already)."""
        t = cleaned.text
        notes = list(cleaned.notes)
        notes.extend(self._policy_notes(t, special))
        if enc is None:
            enc = self.encoding(t, special=special, add_special_tokens=add_special_tokens)
        tokens = self._tokens(t, enc)
        normalized = self.normalize(t)
        if normalized == t:
            normalized = None
        else:
            from tokexplorer.core.backends.sentencepiece.normalization import describe_normalization

            notes.append(describe_normalization(t, normalized))
        held_back = not add_special_tokens and self.post_processor_adds()
        notes.extend(token_notes(tokens, held_back))
        notes.extend(n for n in (lost_note(t, enc, self.tokenizer.normalizer),) if n)
        notes.extend(self.build_notes)
        exact = tiles(tokens, t.encode("utf-8"))
        return Tokenization(self.name, t, tokens, exact, tuple(notes), normalized)

    def _notes(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[str, ...]:
        """The notes of :meth:`_tokenize` from the library's ids and sequence ids, without
        spans: the post-processor's tokens are those of no sequence; only a text with the
        unknown id needs the spans (the text each unknown token swallowed), and gets
        :meth:`_tokenize`'s notes.

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
            TokexplorerError: the library failed.
        """
        return self._encode_noted(cleaned, special=special)[1]

    def _encode_noted(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[list[int], tuple[str, ...]]:
        """The ids of :meth:`_encode` and the notes of :meth:`_notes` from one run of the library.

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
            TokexplorerError: the library failed.
        """
        t = cleaned.text
        notes = list(cleaned.notes)
        notes.extend(self._policy_notes(t, special))
        enc = self.encoding(t, special=special)
        ids = list(enc.ids)
        if self.config.unk_id is not None and self.config.unk_id in enc.ids:
            return ids, self._run(cleaned, special, self.add_special_tokens, enc).notes
        normalized = self.normalize(t)
        if normalized != t:
            from tokexplorer.core.backends.sentencepiece.normalization import describe_normalization

            notes.append(describe_normalization(t, normalized))
        adds = self.post_processor_adds()
        added: list[str] = []
        if adds and self.add_special_tokens:
            added = [p for p, seq in zip(enc.tokens, enc.sequence_ids) if seq is None]
        notes.extend(added_notes(added, adds and not self.add_special_tokens))
        notes.extend(n for n in (lost_note(t, enc, self.tokenizer.normalizer),) if n)
        notes.extend(self.build_notes)
        return ids, tuple(notes)

    def post_processor_adds(self) -> bool:
        """True when the post-processor adds tokens to a single text (``[CLS]``, a BOS)."""
        lib = self.tokenizer
        return guarded("reading the post-processor", lambda: lib.num_special_tokens_to_add(False)) > 0

    def normalize(self, text: str) -> str:
        """The text as the tokenizer's normalizer leaves it (the text itself without one).

        Raises:
            TokexplorerError: the library failed.
        """
        norm = self.tokenizer.normalizer
        if norm is None:
            return text
        return guarded("normalizing the text", lambda: norm.normalize_str(text))

    def _tokens(self, text: str, enc: Any) -> tuple[Token, ...]:
        """The :class:`Token` of each entry of the library's ``Encoding``."""
        src = text.encode("utf-8")
        om = OffsetMap(text)
        c2b = char_to_byte_offsets(text)
        unk = self.config.unk_id
        out: list[Token] = []
        cursor = 0
        for tid, piece, (cs, ce), seq in zip(enc.ids, enc.tokens, enc.offsets, enc.sequence_ids):
            if seq is None:  # added by the post-processor: no text of its own
                c = om.char_ceil(cursor)
                out.append(Token(tid, b"", cursor, cursor, c, c, False, special=True, piece=piece))
                continue
            bs, be = c2b[cs], c2b[ce]
            tb = self.token_bytes(tid)
            # the unknown token stands for the text it swallowed (unless the text spells it)
            unknown = tid == unk and src[bs:be] != tb
            if unknown:
                tb = src[bs:be]
            b, e = token_span(src, tb, cursor, bs, be)
            cursor = max(cursor, e)
            partial = not (om.is_boundary(b) and om.is_boundary(e)) or not (unknown or valid_utf8(tb))
            out.append(
                Token(
                    tid, tb, b, e, om.char_floor(b), om.char_ceil(e), partial,
                    special=not unknown and tid in self._added and self._added[tid] in self._special,
                    unknown=unknown, piece=piece,
                )
            )  # fmt: skip
        return tuple(out)

    def _encode(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> list[int]:
        """The library's ids, without building spans.

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
        """
        if special == "raise":
            self._policy_notes(cleaned.text, special)
        return list(self.encoding(cleaned.text, special=special).ids)

    # ---------------------------------------------------------------- decoding
    def library_decode(self, ids: Sequence[int], *, skip_special_tokens: bool = False) -> str:
        """The text the library's own decoder makes of ``ids`` (it merges ``##``
        pieces, turns ``▁`` back into spaces, drops the prefix space it added, and
        cleans up; partial UTF-8 becomes U+FFFD).

        Raises:
            TokexplorerError: the library failed (an id out of range, for one).
        """
        lib = self.tokenizer
        ints = [int(i) for i in ids]
        return guarded("decoding", lambda: lib.decode(ints, skip_special_tokens=skip_special_tokens))

    def round_trip(self, text: str, *, special: SpecialPolicy = "plain") -> str:
        """``text`` encoded without the post-processor's tokens and decoded by the
        library's decoder: equal to ``text`` when the tokenizer keeps it intact.

        Raises:
            InputError, SpecialTokenError, TokexplorerError: as :meth:`tokenize`.
        """
        check_special_policy(special)
        cleaned = clean_text(text)
        if special == "raise":
            self._policy_notes(cleaned.text, special)
        return self.library_decode(self.encoding(cleaned.text, special=special, add_special_tokens=False).ids)

    def round_trips(self, texts: Sequence[str], *, special: SpecialPolicy = "plain") -> list[bool]:
        """Per text, whether :meth:`round_trip` gives it back, from one batch call
        into the library each way (``encode_batch`` without the post-processor's
        tokens, ``decode_batch``).

        >>> from tokenizers import Tokenizer, models, pre_tokenizers, decoders
        >>> lib = Tokenizer(models.WordLevel({"hi": 0, "[UNK]": 1}, unk_token="[UNK]"))
        >>> lib.pre_tokenizer, lib.decoder = pre_tokenizers.Whitespace(), decoders.WordPiece()
        >>> HuggingFaceTokenizer(lib).round_trips(["hi hi", "hi yo"])
        [True, False]

        Raises:
            InputError, SpecialTokenError, TokexplorerError: as :meth:`round_trip`.
        """
        check_special_policy(special)
        cleaned = [clean_text(t).text for t in texts]
        if special == "raise":
            for t in cleaned:
                self._policy_notes(t, special)
        if not cleaned:
            return []
        lib = self.library_for(special)
        encs = guarded("encoding the text", lambda: lib.encode_batch(cleaned, add_special_tokens=False))
        ids = [e.ids for e in encs]
        back = guarded("decoding", lambda: self.tokenizer.decode_batch(ids, skip_special_tokens=False))
        return [b == t for b, t in zip(back, texts)]

    def piece(self, token_id: int) -> str:
        """The library's own string for an id (``"Ġhi"``, ``"##ing"``, ``"[CLS]"``);
        ``""`` for an id not in the vocabulary."""
        tid = int(token_id)
        return (self.tokenizer.id_to_token(tid) or "") if 0 <= tid < self._n else ""

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """Byte-level models: the tokens' bytes joined (lossless). Others (WordPiece,
        Unigram, byte fallback): the UTF-8 of the library's own decoder, which puts
        the spaces back between words, merges ``##`` pieces and drops the prefix
        space it added (``[101, 7592, 102]`` → ``b"[CLS] hello [SEP]"``), with each
        byte-fallback piece ``<0xNN>`` its raw byte, never U+FFFD (as SentencePiece;
        :mod:`.byte_decoding`).

        Raises:
            InputError: an id is not in the vocabulary.
        """
        parts = [self.token_bytes(i) for i in ids]
        spelling = self.config.spelling
        if spelling.byte_level:
            return b"".join(parts)
        if not spelling.byte_fallback:
            return self.library_decode(ids).encode("utf-8")
        ints = [int(i) for i in ids]
        kept = guarded("decoding", lambda: decode_keeping_bytes(self.tokenizer, ints, self._added))
        return b"".join(parts) if kept is None else kept

    def decode(self, ids: Sequence[int], *, errors: str = "replace") -> str:
        """With ``errors="replace"``, the library's own decode (an incomplete
        byte-fallback run is one U+FFFD per piece: ``<0xF0><0x9F>`` → ``'��'``);
        with another ``errors``, :meth:`decode_bytes` decoded so (``"strict"`` raises
        ``UnicodeDecodeError`` on an incomplete run).

        Raises:
            InputError: an id is not in the vocabulary.
        """
        if errors != "replace":
            return self.decode_bytes(ids).decode("utf-8", errors)
        for i in ids:
            self.token_bytes(i)
        return self.library_decode(ids)

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of one id: an added token's text, else the token string
        spelled back (see the class docstring; ``[UNK]`` gives its own spelling).

        Raises:
            InputError: the id is not in the vocabulary.
        """
        tid = int(token_id)
        found = self._bytes.get(tid)
        if found is not None:
            return found
        if tid in self._added:
            found = self._added[tid].encode("utf-8")
        else:
            piece = self.tokenizer.id_to_token(tid) if 0 <= tid < self._n else None
            if piece is None:
                raise InputError(f"token id {token_id} is not in the vocabulary of {self.name}")
            found = piece.encode("utf-8") if tid == self.config.unk_id else self.config.spelling.token_bytes(piece)
        self._bytes[tid] = found
        return found
