"""Qt table model over a Unigram model's vocabulary: each piece with its log probability.

One row per :class:`~tokexplorer.core.analysis.unigram.PieceScore`: id, piece,
log probability (SentencePiece's score), probability and kind. Sorting happens
here over whole columns (one layout change), as in the merge table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt

from tokexplorer.core.analysis import PieceScore
from tokexplorer.gui.models.table_model import TitledTableModel

#: Item data role returning the raw value a column sorts by.
RawRole = int(Qt.ItemDataRole.UserRole) + 1

UNIGRAM_COLUMNS: tuple[str, ...] = ("Id", "Piece", "Log probability", "Probability", "Kind")
COL_ID, COL_PIECE, COL_LOGP, COL_P, COL_KIND = range(5)
_TIPS = (
    "The piece's id",
    "The piece (▁ marks a space)",
    "Its score in the model: the natural log of its probability (0 for control and user-defined pieces)",
    "exp(log probability)",
    "normal, unknown, control, user-defined or byte",
)


def _values(s: PieceScore) -> tuple:
    return (s.id, s.piece, s.score, s.probability if s.kind == "normal" else -1.0, s.kind)


class UnigramVocabModel(TitledTableModel):
    """The pieces of one Unigram model, sortable by any column.

    Args:
        scores: the pieces (:func:`~tokexplorer.core.analysis.unigram.piece_scores`).
        parent: Qt parent object.
    """

    def __init__(self, scores: Sequence[PieceScore] = (), parent: QObject | None = None) -> None:
        super().__init__(UNIGRAM_COLUMNS, title_tips=_TIPS, parent=parent)
        self._rows = [_values(s) for s in scores]

    def set_scores(self, scores: Sequence[PieceScore]) -> None:
        """Show these pieces (in id order)."""
        self.beginResetModel()
        self._rows = [_values(s) for s in scores]
        self.endResetModel()

    def row_count(self) -> int:
        return len(self._rows)

    def cell_data(self, row: int, col: int, role: int) -> Any:
        value = self._rows[row][col]
        if role == RawRole:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_LOGP:
                return f"{value:.4f}"
            if col == COL_P:
                return "" if value < 0 else f"{value:.3g}"
            return str(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (COL_ID, COL_LOGP, COL_P):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows by ``column`` (ties keep id order)."""
        if not 0 <= column < len(UNIGRAM_COLUMNS):
            return
        self.layoutAboutToBeChanged.emit()
        self._rows.sort(key=lambda r: (r[column], r[COL_ID]), reverse=order == Qt.SortOrder.DescendingOrder)
        self.layoutChanged.emit()
