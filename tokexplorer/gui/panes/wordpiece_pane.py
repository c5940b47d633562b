"""The WordPiece tab: the score table of the WordPiece trained here.

Each training step of ``AppState.wordpiece`` (updated on ``wordpiece_changed``)
in a sortable table: the pair merged, its count, both parts' counts, the score
``count / (left count × right count)`` and the pair plain BPE would have merged
at the same step (bold where it differs). Sort by score to see which pairs the
score favours: parts that are rarely seen apart, often rare ones.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableView, QVBoxLayout, QWidget

from tokexplorer.core.wordpiece import WordPiece
from tokexplorer.gui.models.wordpiece_model import COL_BPE, COL_LEFT, COL_MERGED, COL_RIGHT, WordPieceMergeModel
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.table_fit import ColumnShare

_NONE_TEXT = "No WordPiece yet: train one in the Corpus tab (algorithm \u201cWordPiece (ours)\u201d)."


class WordPiecePane(QWidget):
    """The training steps of the current WordPiece, with their scores.

    Args:
        state: the shared state; the pane follows ``state.wordpiece``.
        parent: Qt parent widget.

    Attributes:
        model: the :class:`WordPieceMergeModel`.
        table: its view (sortable by a header click).
        summary: the line above the table (the model, how many steps differ from BPE).
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.summary = QLabel(_NONE_TEXT)
        self.summary.setWordWrap(True)
        self.model = WordPieceMergeModel(parent=self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.verticalHeader().setVisible(False)
        # the merged piece takes the width left over; when the pieces do not all fit they share one cap,
        # as in the BPE merge table (the merged piece is made of the parts: a short part stays whole)
        self.columns = ColumnShare(self.table, stretch=COL_MERGED, squeeze=(COL_LEFT, COL_RIGHT, COL_BPE), even=True)
        self.table.setAlternatingRowColors(True)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(self.table, 1)
        state.wordpiece_changed.connect(self.set_wordpiece)
        self.set_wordpiece(state.wordpiece)

    def set_wordpiece(self, wp: WordPiece | None) -> None:
        """Show the steps of ``wp`` (None: say how to train one)."""
        merges = wp.merges if wp is not None else []
        self.model.set_merges(merges)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        if wp is None:
            self.summary.setText(_NONE_TEXT)
            return
        differ = sum(1 for m in merges if not m.same_as_bpe)
        self.summary.setText(
            f"{self.state.name_of(wp)}: {wp.vocab_size:,} pieces, {len(merges):,} merges. "
            "Each step merges the pair with the "
            f"highest score count / (left count × right count); at {differ:,} of {len(merges):,} steps plain "
            "BPE (the most frequent pair) would have merged another pair (bold)."
        )
        self.columns.refit()  # every row, not only those on screen
