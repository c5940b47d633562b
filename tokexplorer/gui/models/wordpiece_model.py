"""Qt table model over the steps of a WordPiece training (the WordPiece score table).

One row per :class:`~tokexplorer.core.wordpiece.model.WordPieceMerge`: the step,
the pair merged, its count, both parts' counts, the score
``count / (left count * right count)``, and the pair plain BPE (most frequent
pair) would have merged at that step with its count; sorting by any column is
:class:`~tokexplorer.gui.models.table_model.ValueRowsModel`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QFont

from tokexplorer.core.text import code_point_list
from tokexplorer.core.wordpiece import WordPieceMerge
from tokexplorer.gui.models.table_model import RawRole as RawRole  # re-exported: the raw-value role
from tokexplorer.gui.models.table_model import ValueRowsModel
from tokexplorer.gui.widgets.glyphs import piece_font, shown_piece

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


class WordPieceMergeModel(ValueRowsModel[WordPieceMerge]):
    """The steps of one WordPiece training, sortable by any column.

    Args:
        merges: the model's :attr:`~tokexplorer.core.wordpiece.model.WordPiece.merges`.
        parent: Qt parent object.
    """

    def __init__(self, merges: Sequence[WordPieceMerge] = (), parent: QObject | None = None) -> None:
        super().__init__(WORDPIECE_COLUMNS, title_tips=_TIPS, tie_column=COL_STEP, parent=parent)
        self._mono = piece_font()  # pieces: ▁I and ▁| apart
        self._bold = QFont(self._mono)
        self._bold.setBold(True)
        self.set_items(merges)

    def set_merges(self, merges: Sequence[WordPieceMerge]) -> None:
        """Show these steps (in step order)."""
        self.set_items(merges)

    def merge_at(self, row: int) -> WordPieceMerge:
        """The step shown at ``row``."""
        return self.item_at(row)

    def values(self, item: WordPieceMerge) -> tuple:
        m = item
        return (
            m.step, m.left, m.right, m.merged, m.count, m.left_count, m.right_count, m.score,
            f"{m.bpe_left} + {m.bpe_right}", m.bpe_count,
        )  # fmt: skip

    def display(self, row: int, col: int, value: Any) -> str:
        if col == COL_SCORE:
            return f"{value:.4g}"
        if col in (COL_LEFT, COL_RIGHT, COL_MERGED):
            shown = shown_piece(value)
            return shown if col != COL_MERGED or self.item_at(row).added else f"{shown} (kept)"
        if col == COL_BPE:
            m = self.item_at(row)
            return f"{shown_piece(m.bpe_left)} + {shown_piece(m.bpe_right)}"
        return f"{value:,}" if isinstance(value, int) else value

    def more_data(self, row: int, col: int, role: int) -> Any:
        m = self.item_at(row)
        if role == Qt.ItemDataRole.FontRole and col == COL_BPE:
            return self._mono if m.same_as_bpe else self._bold
        if role == Qt.ItemDataRole.FontRole and col in (COL_LEFT, COL_RIGHT, COL_MERGED):
            return self._mono
        if role == Qt.ItemDataRole.ToolTipRole and col in (COL_LEFT, COL_RIGHT, COL_MERGED):
            return code_point_list((m.left, m.right, m.merged)[(COL_LEFT, COL_RIGHT, COL_MERGED).index(col)])
        if role == Qt.ItemDataRole.ToolTipRole and col == COL_SCORE:
            return f"{m.count:,} / ({m.left_count:,} × {m.right_count:,}) = {m.score:.6g}"
        return None
