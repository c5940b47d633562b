"""Qt table model over a Unigram model's vocabulary: each piece with its log probability.

One row per :class:`~tokexplorer.core.analysis.unigram.PieceScore`: id, piece,
log probability (SentencePiece's score), probability and kind; sorting by any
column is :class:`~tokexplorer.gui.models.table_model.ValueRowsModel`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt

from tokexplorer.core.analysis import PieceScore
from tokexplorer.core.text import code_point_list
from tokexplorer.gui.models.table_model import RawRole as RawRole  # re-exported: the raw-value role
from tokexplorer.gui.models.table_model import ValueRowsModel
from tokexplorer.gui.widgets.glyphs import piece_font, shown_piece

UNIGRAM_COLUMNS: tuple[str, ...] = ("Id", "Piece", "Log probability", "Probability", "Kind")
COL_ID, COL_PIECE, COL_LOGP, COL_P, COL_KIND = range(5)
_TIPS = (
    "The piece's id",
    "The piece (▁ marks a space; a character that looks like another, such as │ or a no-break space, "
    "is written <U+XXXX>; the cell's tooltip lists every code point)",
    "Its score in the model: the natural log of its probability (0 for control and user-defined pieces)",
    "exp(log probability)",
    "normal, unknown, control, user-defined or byte",
)


class UnigramVocabModel(ValueRowsModel[PieceScore]):
    """The pieces of one Unigram model, sortable by any column.

    Args:
        scores: the pieces (:func:`~tokexplorer.core.analysis.unigram.piece_scores`).
        parent: Qt parent object.
    """

    def __init__(self, scores: Sequence[PieceScore] = (), parent: QObject | None = None) -> None:
        super().__init__(UNIGRAM_COLUMNS, title_tips=_TIPS, tie_column=COL_ID, parent=parent)
        self._mono = piece_font()
        self.set_items(scores)

    def set_scores(self, scores: Sequence[PieceScore]) -> None:
        """Show these pieces (in id order)."""
        self.set_items(scores)

    def values(self, item: PieceScore) -> tuple:
        return (item.id, item.piece, item.score, item.probability if item.kind == "normal" else -1.0, item.kind)

    def more_data(self, row: int, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.FontRole and col == COL_PIECE:
            return self._mono  # ▁I and ▁| apart
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_PIECE:
            return code_point_list(self.item_at(row).piece)  # ▁| and ▁│ apart, whatever the font
        return None

    def display(self, row: int, col: int, value: Any) -> str:
        if col == COL_LOGP:
            return f"{value:.4f}"
        if col == COL_P:
            return "" if value < 0 else f"{value:.3g}"
        if col == COL_PIECE:
            return shown_piece(value)  # the one escape rule
        return str(value)
