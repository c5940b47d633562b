"""What the byte inspector shows: one byte axis (:class:`InspectReport`), a row per
tokenizer on it (:class:`TrackReport`), each token with what it holds
(:class:`TokenReport`, :class:`CharPart`), and the JSON of
``tokexplorer inspect --json``. :mod:`tokexplorer.core.analysis.inspector`
builds them.

Offsets are UTF-8 byte offsets (half-open) unless named ``char``.

>>> part = CharPart(code_point=0, value=0x4F60, first=1, last=2, of=3)
>>> part.whole, part.to_json()
(False, {'code_point': 0, 'char': 'U+4F60', 'first_byte': 1, 'last_byte': 2, 'of': 3})
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tokexplorer.core.analysis.normalization import NormalizationDiff
from tokexplorer.core.backends import PipelineStages
from tokexplorer.core.text import Cut, utf8
from tokexplorer.core.types import Token, Tokenization

__all__ = ["CharPart", "InspectReport", "TokenReport", "TrackReport"]


@dataclass(frozen=True, slots=True)
class CharPart:
    """Which bytes of one code point a token holds.

    Attributes:
        code_point: index of the code point in the analysed text.
        value: its value (``0x4F60``).
        first: 1-based position of the first byte held (1 = lead byte).
        last: 1-based position of the last byte held.
        of: length of the code point's UTF-8 sequence (1–4).
    """

    code_point: int
    value: int
    first: int
    last: int
    of: int

    @property
    def whole(self) -> bool:
        """True when the token holds every byte of the code point."""
        return self.first == 1 and self.last == self.of

    def to_json(self) -> dict:
        """``{"code_point", "char" ("U+4F60"), "first_byte", "last_byte", "of"}``."""
        return {
            "code_point": self.code_point,
            "char": f"U+{self.value:04X}",
            "first_byte": self.first,
            "last_byte": self.last,
            "of": self.of,
        }


@dataclass(frozen=True, slots=True)
class TokenReport:
    """One token on the byte axis.

    Attributes:
        index: token index in its tokenization.
        token: the :class:`~tokexplorer.core.types.Token` (spans on the inspected axis).
        description: what the token holds, e.g. ``"space + bytes 1–2 of 4 of
            U+1F30A 🌊"`` or ``'"hi"'`` (never U+FFFD for a partial character).
        spelling: the family's own spelling (``inspector.spelling_of``): the
            Hugging Face token string (``"Ġok"`` for byte-level BPE), the piece
            (``"▁good"``, ``"<0xE9>"``) for SentencePiece and WordPiece, the bytes
            as a Python bytes literal (``"b' ok'"``) for tiktoken and our BPE.
        reading: the spelling undone for reading: ``piece_display`` of the bytes, the rule of
            every view (``▁`` and ``Ġ`` become spaces, partial bytes ``\\xNN``, look-alikes ``<U+XXXX>``).
        parts: the code points the token touches (:class:`CharPart`); empty when
            spans are inexact.
        grapheme_part: for a token holding whole code points but only part of a
            grapheme cluster, that part by its role (``"skin-tone modifier U+1F3FD
            of grapheme 👋🏽"``, see ``core.text.grapheme_parts``), else None.
    """

    index: int
    token: Token
    description: str
    spelling: str
    reading: str
    parts: tuple[CharPart, ...] = ()
    grapheme_part: str | None = None

    def to_json(self) -> dict:
        """``{"index", "id", "bytes" (upper-case hex with spaces), "byte_start", "byte_end",
        "partial", "description", "spelling", "holds": [CharPart.to_json()...]}`` plus
        ``"partial_grapheme": true`` and ``"grapheme_part"`` (its role) for a token
        holding part of a grapheme cluster, and ``"special"``/``"unknown"`` when they apply."""
        t = self.token
        out = {
            "index": self.index,
            "id": t.id,
            "bytes": t.bytes.hex(" ").upper(),
            "byte_start": t.byte_start,
            "byte_end": t.byte_end,
            "partial": t.partial,
            "description": self.description,
            "spelling": self.spelling,
            "holds": [p.to_json() for p in self.parts],
        }
        if self.grapheme_part is not None:
            out.update(partial_grapheme=True, grapheme_part=self.grapheme_part)
        if t.special:
            out["special"] = True
        if t.unknown:
            out["unknown"] = True
        return out


@dataclass(frozen=True, slots=True)
class TrackReport:
    """One tokenizer's row on the byte axis.

    Attributes:
        name: the tokenizer's name.
        family: ``"bpe"``, ``"tiktoken"``, ``"sentencepiece"`` or ``"huggingface"``.
        description: one line naming encoding, pattern/normalizer and size.
        tokenization: the result (spans mapped onto the inspected axis), or None.
        error: one-line error instead of a result, or None.
        exact: True when the spans are exact on the inspected axis (no
            normalizer change, no invalid byte substituted inside a token edge).
        tokens: one :class:`TokenReport` per token.
        cuts: :class:`~tokexplorer.core.text.Cut` boundaries inside a code point
            or a grapheme cluster (only when ``exact``).
        unknown: ``(token index, original characters)`` of every ``<unk>`` piece.
        normalization: SentencePiece only: a
            :class:`~tokexplorer.core.analysis.normalization.NormalizationDiff`.
        normalized_tokens: SentencePiece only: the pieces on the normalized text
            (dummy-prefix space included), tiling its UTF-8 bytes exactly; None
            when SentencePiece's pieces do not spell the normalized text.
        notes: remarks for the user.
        stages: Hugging Face only: the pipeline's stages
            (:class:`~tokexplorer.core.backends.huggingface.stages.PipelineStages`).
    """

    name: str
    family: str
    description: str
    tokenization: Tokenization | None = None
    error: str | None = None
    exact: bool = True
    tokens: tuple[TokenReport, ...] = ()
    cuts: tuple[Cut, ...] = ()
    unknown: tuple[tuple[int, str], ...] = ()
    normalization: NormalizationDiff | None = None
    normalized_tokens: Tokenization | None = None
    notes: tuple[str, ...] = ()
    stages: PipelineStages | None = None

    def token_at(self, byte_offset: int) -> int | None:
        """Index of the token whose span holds ``byte_offset`` (None: none, or inexact)."""
        if self.tokenization is None or not self.exact:
            return None
        for i, t in enumerate(self.tokenization.tokens):
            if t.byte_start <= byte_offset < t.byte_end:
                return i
        return None

    def to_json(self) -> dict:
        """``{"name", "family", "description"}`` plus ``"error"``, or plus
        ``"exact_offsets", "ids", "tokens", "cuts"`` and, where they apply,
        ``"unknown", "normalization", "normalized_tokens", "stages", "notes"``."""
        out: dict = {"name": self.name, "family": self.family, "description": self.description}
        if self.error is not None:
            out["error"] = self.error
            return out
        tz = self.tokenization
        out.update(
            {
                "exact_offsets": self.exact,
                "ids": tz.ids if tz is not None else [],
                "tokens": [t.to_json() for t in self.tokens],
                "cuts": [
                    {"byte": c.byte_offset, "kind": c.kind, "index": c.index,
                     "left_token": c.left_token, "right_token": c.right_token}
                    for c in self.cuts
                ],
            }
        )  # fmt: skip
        if self.unknown:
            out["unknown"] = [{"token": i, "text": s} for i, s in self.unknown]
        if self.normalization is not None:
            out["normalization"] = self.normalization.to_json()
        if self.normalized_tokens is not None:
            out["normalized_tokens"] = [t.to_json() for t in self.normalized_tokens.tokens]
        if self.stages is not None:
            out["stages"] = self.stages.to_json()
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True, slots=True)
class InspectReport:
    """The byte axis of one text with every tokenizer's tokens on it.

    Attributes:
        analysis: the :class:`~tokexplorer.core.text.utf8.Utf8Analysis` of the axis.
        tracks: one :class:`TrackReport` per tokenizer, in the order given.
        raw: True for :func:`inspect_bytes` (the axis is raw file bytes).
        token_text: the text the tokenizers saw (``clean_text`` of the axis text).
        notes: remarks about the whole axis (invalid bytes the tokenizers see as U+FFFD).
    """

    analysis: utf8.Utf8Analysis
    tracks: tuple[TrackReport, ...] = ()
    raw: bool = False
    token_text: str = ""
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict:
        """The object of ``tokexplorer inspect --json``.

        Returns:
            ``{"text", "raw", "n_bytes", "n_code_points", "n_graphemes",
            "bytes": [{"offset", "value", "hex", "role", "position", "seq_len",
            "code_point", "grapheme", "tokens": [token index per tokenizer or
            null]}], "code_points": [...], "graphemes": [...], "issues": [...],
            "tokenizers": [TrackReport.to_json()...]}`` plus ``"notes"``.
        """
        a = self.analysis
        per_byte = [[None] * len(self.tracks) for _ in range(len(a.data))]
        for k, tr in enumerate(self.tracks):
            if tr.tokenization is None or not tr.exact:
                continue
            for i, t in enumerate(tr.tokenization.tokens):
                for off in range(t.byte_start, min(t.byte_end, len(a.data))):
                    per_byte[off][k] = i
        out: dict = {
            "text": a.text.encode("utf-8", "surrogateescape").decode("utf-8", "replace") if self.raw else a.text,
            "raw": self.raw,
            "n_bytes": len(a.data),
            "n_code_points": len(a.code_points),
            "n_graphemes": len(a.graphemes),
            "bytes": [
                {
                    "offset": b.offset,
                    "value": b.value,
                    "hex": f"{b.value:02X}",
                    "role": b.role,
                    "position": b.position,
                    "seq_len": b.seq_len,
                    "code_point": b.cp_index,
                    "grapheme": b.grapheme_index,
                    **({"reason": b.reason} if b.reason else {}),
                    "tokens": per_byte[b.offset],
                }
                for b in a.bytes
            ],
            "code_points": [
                {
                    "index": c.index,
                    "code_point": f"U+{c.value:04X}",
                    "name": c.name,
                    "utf8": a.data[c.byte_start : c.byte_end].hex(" ").upper(),
                    "byte_start": c.byte_start,
                    "byte_end": c.byte_end,
                    "grapheme": c.grapheme_index,
                    **({"invalid": True} if c.invalid else {}),
                }
                for c in a.code_points
            ],
            "graphemes": [
                {
                    "index": g.index,
                    "text": g.text.encode("utf-8", "surrogateescape").decode("utf-8", "replace"),
                    "char_start": g.char_start,
                    "char_end": g.char_end,
                    "byte_start": g.byte_start,
                    "byte_end": g.byte_end,
                }
                for g in a.graphemes
            ],
            "issues": [{"offset": i.offset, "length": i.length, "reason": i.reason} for i in a.issues],
            "tokenizers": [t.to_json() for t in self.tracks],
        }
        notes = list(a.notes) + list(self.notes)
        if notes:
            out["notes"] = notes
        return out
