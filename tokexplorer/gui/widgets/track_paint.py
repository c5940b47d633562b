"""The byte view's token rows: what one row shows (:class:`TokenTrack`) and what is
computed once per text so that painting looks only at the tokens of the rows on screen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from PySide6.QtGui import QColor

from tokexplorer.core.analysis import InspectReport
from tokexplorer.core.types import Tokenization
from tokexplorer.gui import theme


@dataclass(frozen=True, slots=True)
class TokenTrack:
    """One tokenizer's row of token boxes.

    Attributes:
        name: tokenizer name shown at the left.
        tokenization: its tokens for the text, or None when ``error`` is set.
        error: a one-line error shown in the track instead of tokens, or None.
        cuts: (byte offset, kind) of boundaries inside a code point
            (``"code point"``) or grapheme cluster (``"grapheme"``).
        exact: False when the spans are approximate (a SentencePiece normalizer
            changed the text); the row is then labelled ``≈`` and says so.
        descriptions: per token, what it holds (``"bytes 1–2 of 3 of U+4F60 你"``),
            from :class:`tokexplorer.core.analysis.inspector.TokenReport`.
        spellings: per token, the family's spelling (``Ġok``, ``▁good``, ``<0xE9>``).
        grapheme_parts: token index → the part of a grapheme cluster it holds (dotted outline).
    """

    name: str
    tokenization: Tokenization | None = None
    error: str | None = None
    cuts: tuple[tuple[int, str], ...] = ()
    exact: bool = True
    descriptions: tuple[str, ...] = ()
    spellings: tuple[str, ...] = ()
    grapheme_parts: Mapping[int, str] = field(default_factory=dict)


def sorted_ends(tz: Tokenization | None) -> list[int] | None:
    """The tokens' byte ends when the tokens are in text order (starts and ends never
    decrease; a bisection then finds the first token on screen), else None."""
    if tz is None:
        return []
    toks = tz.tokens
    if any(b.byte_end < a.byte_end or b.byte_start < a.byte_start for a, b in zip(toks, toks[1:])):
        return None
    return [t.byte_end for t in toks]


def paint_index(tokenizations: Sequence[Tokenization | None]) -> tuple[list[list[QColor]], list[list[int] | None]]:
    """Per token row: the token colours (:func:`~tokexplorer.gui.theme.token_colors`)
    and :func:`sorted_ends`; a row without tokens gets no colours."""
    fills = [theme.token_colors([t.id for t in tz.tokens]) if tz is not None else [] for tz in tokenizations]
    return fills, [sorted_ends(tz) for tz in tokenizations]


def tracks_of(report: InspectReport) -> list[TokenTrack]:
    """The token rows of an inspector report: per tokenizer its tokens (or its
    error), the cuts inside code points and graphemes, each token's description
    (with the part of a grapheme it holds) and spelling."""
    return [
        TokenTrack(
            tr.name,
            tr.tokenization if tr.error is None else None,
            tr.error,
            tuple((c.byte_offset, c.kind) for c in tr.cuts),
            tr.exact,
            tuple(t.description + (f"\npart of a grapheme: {t.grapheme_part}" if t.grapheme_part else "")
                  for t in tr.tokens),  # fmt: skip
            tuple(t.spelling for t in tr.tokens),
            {t.index: t.grapheme_part for t in tr.tokens if t.grapheme_part is not None},
        )
        for tr in report.tracks
    ]
