"""The Unigram tab: a SentencePiece Unigram model explained.

Pick one of the window's SentencePiece Unigram models (trained in the Corpus
tab or opened from a ``.model`` file). Left: every piece with its log
probability, sortable (the merge table's place: a Unigram model has no merges,
only piece probabilities). Right: a typed word's segmentation lattice with the
Viterbi path, its n best segmentations with SentencePiece's scores, and
segmentations sampled with alpha, with a button that adds a Compare column
encoding with such samples.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QTableView, QVBoxLayout, QWidget

from tokexplorer.core.analysis import piece_scores
from tokexplorer.core.backends import SampledSentencePieceTokenizer, SentencePieceTokenizer
from tokexplorer.gui.models.unigram_model import COL_PIECE, UnigramVocabModel
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.elided_label import never_widens
from tokexplorer.gui.widgets.table_fit import ColumnShare
from tokexplorer.gui.widgets.unigram_word import UnigramWord

_NONE_TEXT = (
    "No SentencePiece Unigram model: train one in the Corpus tab (SentencePiece unigram) "
    "or open a .model file (File ▸ Open tokenizer…)."
)


class UnigramPane(QWidget):
    """Piece log probabilities, the lattice, n-best and samples of a Unigram model.

    Args:
        state: the shared state; the pane offers its Unigram tokenizers and adds
            sampled columns to it.
        parent: Qt parent widget.

    Attributes:
        model_combo: the Unigram models of the window.
        vocab_model, vocab_table: the pieces and their log probabilities.
        splitter: the QSplitter of the piece table (widened to hold its columns) and the word panel.
        word: the :class:`UnigramWord` (lattice, n-best, samples).
        summary: the line above.
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.model_combo = QComboBox()
        self.model_combo.setMinimumWidth(300)
        self.summary = QLabel(_NONE_TEXT)
        never_widens(self.summary)  # a long model name wraps; it never widens the window
        self.vocab_model = UnigramVocabModel(parent=self)
        self.vocab_table = QTableView()
        self.vocab_table.setModel(self.vocab_model)
        self.vocab_table.setSortingEnabled(True)
        self.vocab_table.verticalHeader().setVisible(False)
        self.vocab_columns = ColumnShare(self.vocab_table, stretch=COL_PIECE)  # the piece takes what is left
        self.word = UnigramWord()
        top = QHBoxLayout()
        top.addWidget(QLabel("Unigram model:"))
        top.addWidget(self.model_combo)
        top.addWidget(self.summary, 1)
        self.splitter = split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.vocab_table)
        split.addWidget(self.word)
        split.setStretchFactor(1, 3)
        split.setSizes([380, 1100])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self.model_combo.currentIndexChanged.connect(self._model_chosen)
        self.word.sampled_column_requested.connect(self.add_sampled_column)
        self.word.error.connect(state.error)
        state.tokenizers_changed.connect(self._fill_models)
        self._fill_models()

    def unigram_models(self) -> list[SentencePieceTokenizer]:
        """The window's SentencePiece Unigram tokenizers (sampled columns left out)."""
        return [
            t for t in self.state.tokenizers
            if isinstance(t, SentencePieceTokenizer) and not isinstance(t, SampledSentencePieceTokenizer)
            and t.info.model_type == "unigram"
        ]  # fmt: skip

    def current(self) -> SentencePieceTokenizer | None:
        """The model shown, or None."""
        models = self.unigram_models()
        i = self.model_combo.currentIndex()
        return models[i] if 0 <= i < len(models) else None

    def _fill_models(self) -> None:
        shown = self.current()
        models = self.unigram_models()
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        for t in models:
            self.model_combo.addItem(t.name)
        keep = next((k for k, t in enumerate(models) if t is shown), 0)
        self.model_combo.setCurrentIndex(keep if models else -1)
        self.model_combo.blockSignals(False)
        self._model_chosen()

    def _model_chosen(self, *_args: object) -> None:
        tok = self.current()
        if tok is self.word.tokenizer and tok is not None:
            return
        if tok is None:
            self.vocab_model.set_scores([])
            self.vocab_columns.refit()  # no model: the columns as wide as their headers
            self.summary.setText(_NONE_TEXT)
        else:
            self.vocab_model.set_scores(piece_scores(tok))
            self.vocab_columns.refit()  # every row, not only those on screen
            self._show_all_columns()
            self.summary.setText(f"{tok.description}: each piece's log probability (sort by a column header)")
        self.word.set_tokenizer(tok)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        # a model chosen while the tab was hidden: once laid out (the splitter had no width then)
        QTimer.singleShot(0, self._show_all_columns)

    def _show_all_columns(self) -> None:
        """Widen the piece table to hold all its columns (at most half the pane)."""
        table = self.vocab_table
        need = sum(self.vocab_columns.wanted.values()) + table.verticalScrollBar().sizeHint().width()
        need += 2 * table.frameWidth()
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if need > sizes[0]:
            first = min(need, total // 2)
            self.splitter.setSizes([first, total - first])

    def add_sampled_column(self, alpha: float) -> None:
        """Add a Compare column that encodes with segmentations of the current model sampled at ``alpha``."""
        tok = self.current()
        if tok is None:
            return
        sampled = SampledSentencePieceTokenizer(tok, alpha=alpha)
        self.state.set_tokenizers(list(self.state.tokenizers) + [sampled])
        self.state.status.emit(f"added {sampled.name} to Compare: every encoding is a new draw")
