"""Qt table model over the steps of a WordPiece training (the WordPiece score table).

One row per :class:`~tokexplorer.core.wordpiece.model.WordPieceMerge`: the step,
the pair merged, its count, both parts' counts, the score
``count / (left count * right count)``, and the pair plain BPE (most frequent
pair) would have merged at that step with its count. Sorting happens here over
whole columns (one model reset), as in the merge table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QFont

from tokexplorer.core.wordpiece import WordPieceMerge
from tokexplorer.gui.models.table_model import TitledTableModel

#: Item data role returning the raw value a column sorts by (int, float or str).
RawRole = int(Qt.ItemDataRole.UserRole) + 1

#: Column titles, in order.
WORDPIECE_COLUMNS: tuple[str, ...] = (
    "Step", "Left", "Right", "Merged", "Pair count", "Left count", "Right count", "Score",
    "BPE would merge", "BPE count",
)  # fmt: skip
COL_STEP, COL_LEFT, COL_RIGHT, COL_MERGED, COL_COUNT, COL_LCOUNT, COL_RCOUNT, COL_SCORE, COL_BPE, COL_BPE_COUNT = range(
    10
)

_TIPS = (
    "Training step: 0 is the first merge",
    "Left piece of the merged pair",
    "Right piece (## marks a piece that continues a word)",
    "The new piece: left + right without its ##; (kept) when it was already a piece",
    "How often the pair occurred in the counted words at this step",
    "How often the left piece occurred (as a piece of the current segmentation)",
    "How often the right piece occurred",
    "WordPiece's score: pair count / (left count × right count); the highest is merged",
    "The most frequent pair at this step: what plain BPE would have merged (bold: a different pair)",
    "That pair's count",
)


def _values(m: WordPieceMerge) -> tuple:
    return (
        m.step, m.left, m.right, m.merged, m.count, m.left_count, m.right_count, m.score,
        f"{m.bpe_left} + {m.bpe_right}", m.bpe_count,
    )  # fmt: skip


class WordPieceMergeModel(TitledTableModel):
    """The steps of one WordPiece training, sortable by any column.

    Args:
        merges: the model's :attr:`~tokexplorer.core.wordpiece.model.WordPiece.merges`.
        parent: Qt parent object.
    """

    def __init__(self, merges: Sequence[WordPieceMerge] = (), parent: QObject | None = None) -> None:
        super().__init__(WORDPIECE_COLUMNS, title_tips=_TIPS, parent=parent)
        self._merges = list(merges)
        self._rows = [_values(m) for m in self._merges]
        self._bold = QFont()
        self._bold.setBold(True)

    def set_merges(self, merges: Sequence[WordPieceMerge]) -> None:
        """Show these steps (in step order)."""
        self.beginResetModel()
        self._merges = list(merges)
        self._rows = [_values(m) for m in self._merges]
        self.endResetModel()

    def merge_at(self, row: int) -> WordPieceMerge:
        """The step shown at ``row``."""
        return self._merges[row]

    def row_count(self) -> int:
        return len(self._rows)

    def cell_data(self, row: int, col: int, role: int) -> Any:
        value = self._rows[row][col]
        if role == RawRole:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_SCORE:
                return f"{value:.4g}"
            if col == COL_MERGED and not self._merges[row].added:
                return f"{value} (kept)"
            return f"{value:,}" if isinstance(value, int) else value
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(value, (int, float)):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and col == COL_BPE and not self._merges[row].same_as_bpe:
            return self._bold
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_SCORE:
            m = self._merges[row]
            return f"{m.count:,} / ({m.left_count:,} × {m.right_count:,}) = {m.score:.6g}"
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows by ``column`` (ties keep step order)."""
        if not 0 <= column < len(WORDPIECE_COLUMNS):
            return
        self.layoutAboutToBeChanged.emit()
        reverse = order == Qt.SortOrder.DescendingOrder
        pairs = sorted(zip(self._rows, self._merges), key=lambda rm: (rm[0][column], rm[1].step), reverse=reverse)
        self._rows = [r for r, _ in pairs]
        self._merges = [m for _, m in pairs]
        self.layoutChanged.emit()
