"""The counting paths of a SentencePiece model: what they compute without a token
object per piece, as part of
:class:`~tokexplorer.core.backends.sentencepiece.tokenizer.SentencePieceTokenizer`
(:class:`SentencePieceCounting` is one of its bases).

* :meth:`~SentencePieceCounting.piece_columns`: the pieces of a text as numpy columns
  (ids, byte spans, partial flags; :mod:`.columns`), what the corpus statistics count;
* ``encode_with_notes`` and ``count_with_notes``: the ids (or the count) and the notes
  from one run of the model, the pieces with spans asked for only where a piece is
  unknown (:func:`.notes.counted_unknowns`);
* :meth:`~SentencePieceCounting.round_trips`: whether each of many texts decodes back
  to itself, from one call into SentencePiece.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from tokexplorer.core.backends.base import check_special_policy
from tokexplorer.core.backends.sentencepiece.columns import PieceColumns, columns_of, piece_lengths, round_trip_flags
from tokexplorer.core.backends.sentencepiece.notes import counted_unknowns, unknown_texts
from tokexplorer.core.backends.sentencepiece.proto import ModelInfo, Piece, parse_pieces
from tokexplorer.core.backends.sentencepiece.vocab import PieceTable
from tokexplorer.core.text import CleanText, clean_text, has_surrogates
from tokexplorer.core.types import SpecialPolicy

#: The longest text (characters) whose ids a unigram model gives in one call for a
#: count or the statistics: its ids at near ties depend on all the text before them
#: (see ``SentencePieceTokenizer.line_cuts_exact``). One call holds every id of the
#: text (about 35 bytes of Python list per id); a longer text is counted in parts, noted.
WHOLE_CALL_MAX_CHARS = 1 << 25

__all__ = ["SentencePieceCounting"]


class SentencePieceCounting:
    """The counting paths of :class:`~tokexplorer.core.backends.sentencepiece.tokenizer.SentencePieceTokenizer`.

    They use the tokenizer's vocabulary tables (``table``), settings (``info``), its
    calls into SentencePiece (``_ids``, ``_encode_proto``, ``_spans``), its normalizer
    (``normalize``, ``normalize_with_offsets``, ``_shown``) and its notes (``_policy_notes``,
    ``_noted``, ``line_cuts_exact``).
    """

    table: PieceTable
    info: ModelInfo

    def piece_columns(
        self, text: str, *, special: SpecialPolicy = "plain", ids: Sequence[int] | None = None
    ) -> PieceColumns:
        """The pieces of ``text`` as numpy columns (ids, byte spans, partial flags),
        the values :meth:`tokenize` gives its tokens, without a token object per piece.

        SentencePiece gives the ids (``encode(..., out_type=int)``); each piece's length
        in the normalized text comes from its id, so the spans need no per-piece
        result, except in a text holding an unknown piece (its length is that of the
        text it swallowed): that text is encoded again as piece strings (``out_type=str``;
        a sampling model, whose two encodings could differ, as its per-piece result).

        Args:
            text: any str (lone surrogates are cleaned first, as in :meth:`tokenize`).
            special: the special-token policy (see :meth:`tokenize`).
            ids: the text's ids when the caller has them (its share of one call on a
                longer text: see :attr:`line_cuts_exact`); None: the model is asked.

        Raises:
            InputError: unknown policy.
            SpecialTokenError: ``special="raise"`` and the text spells a control piece
                or a user-defined symbol.

        >>> from tokexplorer.core.backends.sentencepiece.training import train_sentencepiece
        >>> tok = train_sentencepiece(["low lower lowest newest widest"] * 20, vocab_size=18, model_type="unigram")
        >>> cols = tok.piece_columns("lowest new")
        >>> cols.ids.tolist(), cols.starts.tolist(), cols.ends.tolist(), cols.exact_offsets
        ([3, 4, 7, 8, 6, 17], [0, 3, 6, 7, 8, 9], [3, 6, 7, 8, 9, 10], True)
        """
        check_special_policy(special)
        cleaned = clean_text(text)
        self._policy_notes(cleaned, special)
        return self._columns_of_ids(cleaned.text, ids)

    def _columns_of_ids(self, t: str, known: Sequence[int] | None = None) -> PieceColumns:
        """:meth:`piece_columns` of a clean text, under a policy already checked (``known``:
        its ids, when the caller has them)."""
        ids = np.array(self._ids(t) if known is None else known, dtype=np.int64)
        lengths = self.table.normalized_lengths[ids]
        unknown = np.flatnonzero(self.table.unknown[ids])
        if len(unknown):  # their lengths: those of the normalized text each swallowed
            swallowed = self._unknown_lengths(t, ids, unknown)
            if swallowed is None:
                return self._columns(t, parse_pieces(self._encode_proto(t)))
            lengths[unknown] = swallowed
        return self._columns(t, None, ids, lengths)

    def _unknown_lengths(self, t: str, ids: Any, unknown: Any) -> list[int] | None:
        """UTF-8 bytes of the normalized text that each unknown piece of ``ids`` (at the
        indices ``unknown``) swallowed, from the model's piece strings of ``t``: the same
        unknown pieces in the same order, also where ``ids`` are the text's share of a
        longer call and a near tie elsewhere made them more or fewer (no tie changes an
        unknown piece). None where the strings cannot be had (a sampling model's draws)."""
        strings = self._piece_strings(t)
        if strings is None:
            return None
        if len(strings) != len(ids):
            own = np.array(self._ids(t), dtype=np.int64)
            if len(own) != len(strings):
                return None
            strings = [strings[i] for i in np.flatnonzero(self.table.unknown[own]).tolist()]
            if len(strings) != len(unknown):
                return None
            return [len(s.encode("utf-8")) for s in strings]
        return [len(strings[i].encode("utf-8")) for i in unknown.tolist()]

    def _columns(self, text: str, pieces: Sequence[Piece] | None, ids: Any = None, lengths: Any = None) -> PieceColumns:
        """The columns of ``text`` from its ``pieces`` (SentencePiece's per-piece result), or
        its ``ids`` and their ``lengths`` in the normalized text (:func:`.columns.columns_of`)."""
        if pieces is not None:
            ids, lengths = piece_lengths(pieces, self.table)

        def own_spans() -> tuple[Any, Any]:  # SentencePiece's own spans, where the normalizer gives no offsets
            got = pieces if pieces is not None else parse_pieces(self._encode_proto(text))
            return np.array([p.begin for p in got], dtype=np.int64), np.array([p.end for p in got], dtype=np.int64)

        offsets = self.normalize_with_offsets(text)
        return columns_of(
            text, ids, lengths, self.table, offsets=offsets, dummy_prefix=self.info.add_dummy_prefix,
            normalized=self.normalize(text) if offsets is None else self._shown(offsets[0]), own_spans=own_spans,
        )  # fmt: skip

    def _encode_noted(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[list[int], tuple[str, ...]]:
        """The ids and the notes of :meth:`_tokenize` from one run of the model; only
        when an id is the unknown piece, the pieces with spans are asked for (of the
        parts holding one where :attr:`line_cuts_keep_pieces`, else of the whole text).

        Raises:
            SpecialTokenError: as :meth:`_tokenize`.
        """
        notes = self._policy_notes(cleaned, special)
        t = cleaned.text
        ids = list(self._ids(t))
        surfaces: list[str] = []
        if self.table.unknown[ids].any():
            if self.line_cuts_keep_pieces:
                surfaces = counted_unknowns(t, self._unknown_ids, self._ids, self._spans)[1]
            else:
                surfaces = unknown_texts(t, self._spans(t, ids), self._unknown_ids)
        return ids, self._noted(t, notes, surfaces)

    def notes_without_unknown(self, text: str, *, special: SpecialPolicy = "plain") -> tuple[str, ...]:
        """The notes of :meth:`tokenize` for a text whose ids hold no unknown piece (the
        caller counted them): the policy's notes and the normalizer's, without encoding.

        Raises:
            InputError, SpecialTokenError: as :meth:`tokenize`.

        >>> from tokexplorer.core.backends.sentencepiece.training import train_sentencepiece
        >>> tok = train_sentencepiece(["low lower lowest newest widest"] * 20, vocab_size=18, model_type="unigram")
        >>> tok.notes_without_unknown("low  new <s>")
        ("'<s>' encoded as plain text", 'normalized: 1 space removed')
        """
        check_special_policy(special)
        cleaned = clean_text(text)
        return self._noted(cleaned.text, self._policy_notes(cleaned, special), [])

    def _count_noted(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[int, tuple[str, ...]]:
        """The count and the notes from one run of the model: where :attr:`line_cuts_exact`,
        the text's parts cut at line starts are encoded a batch at a time (the ids of
        a long text are never all held) and only the parts holding an unknown piece are
        asked for their spans; otherwise as :meth:`_encode_noted`, but for a unigram model's
        text of more than :data:`WHOLE_CALL_MAX_CHARS` characters, counted in
        parts as above and noted (:meth:`note_own_ids`).

        Raises:
            SpecialTokenError: as :meth:`_tokenize`.
        """
        long = len(cleaned.text) > WHOLE_CALL_MAX_CHARS and self.line_cuts_keep_pieces
        if not self.line_cuts_exact and not long:
            ids, notes = self._encode_noted(cleaned, special=special)
            return len(ids), notes
        if not self.line_cuts_exact:
            self.note_own_ids(texts=1)
        notes = self._policy_notes(cleaned, special)
        count, surfaces = counted_unknowns(cleaned.text, self._unknown_ids, self._ids, self._spans)
        return count, self._noted(cleaned.text, notes, surfaces)

    @cached_property
    def _unknown_ids(self) -> frozenset[int]:
        """The ids of the unknown piece(s)."""
        return frozenset(i for i, unknown in enumerate(self.table.is_unknown) if unknown)

    def round_trips(self, texts: Sequence[str], *, special: SpecialPolicy = "plain") -> list[bool]:
        """Per text, whether ``decode(encode(text)) == text``, the ids of all texts
        from one call into SentencePiece (``encode`` of the list, ``out_type=int``).

        Raises:
            InputError, SpecialTokenError: as :meth:`encode` (``"raise"`` encodes one text at a time).
        """
        check_special_policy(special)
        surrogates = has_surrogates("".join(texts))
        cleaned = [clean_text(t).text for t in texts] if surrogates else list(texts)
        if special == "raise":
            ids = [self.encode(t, special=special) for t in texts]
        else:
            ids = self._ids(cleaned) if cleaned else []
        if not surrogates:
            return round_trip_flags(ids, texts, self.table, dummy_prefix=self.info.add_dummy_prefix)
        return [self._joined(i).decode("utf-8", "replace") == t for i, t in zip(ids, texts)]

