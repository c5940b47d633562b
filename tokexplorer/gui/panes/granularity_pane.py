"""The Granularity tab: the corpus at word, character, byte and subword level.

For ``AppState.corpus`` and every tokenizer of the window (each a subword
row): vocabulary size, tokens, characters per token and the held-out rate
(out-of-vocabulary words of the end of each file against a vocabulary built
on the rest; unseen characters and bytes; a tokenizer's unknown tokens), and a
log-log plot of corpus tokens against vocabulary size with the curve of the
merge table's BPE (tokens with its first k merges, every k) and every level marked. Computed in a worker when the tab
is shown after the corpus or the tokenizers changed, and on Recompute.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import WORD_PATTERN, GranularityReport, bpe_curve, granularity_iter
from tokexplorer.core.types import Progress
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.granularity_plot import GranularityPlot
from tokexplorer.gui.workers import LatestRequest, user_message

COLUMNS = ("Level", "Name", "Vocab size", "Tokens", "Chars/token", "Held-out rate")


@dataclass(frozen=True)
class Measured:
    """One measurement: the report and the BPE curve (empty without a BPE)."""

    report: GranularityReport
    curve: list[tuple[int, int]]


class GranularityPane(QWidget):
    """Levels of the corpus in a table and a plot.

    Args:
        state: the shared state (its corpus, tokenizers and BPE).
        parent: Qt parent widget.

    Attributes:
        table, plot, info, recompute_button: the parts.
        report: the :class:`GranularityReport` shown, or None.
        curve: the BPE curve shown (``(vocab size, tokens)`` points; empty without a BPE).
        stale: the corpus or the tokenizers changed since the last measurement.
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.report: GranularityReport | None = None
        self.curve: list[tuple[int, int]] = []
        self.job = LatestRequest(self)
        self.info = QLabel("Open a corpus to see its granularity.")
        self.info.setWordWrap(True)
        self.recompute_button = QPushButton("Recompute")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.plot = GranularityPlot()
        top = QHBoxLayout()
        top.addWidget(self.info, 1)
        top.addWidget(self.recompute_button)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.plot)
        split.setSizes([220, 480])
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(split, 1)
        self.stale = True
        self.recompute_button.clicked.connect(self.recompute)
        state.corpus_changed.connect(self._changed)
        state.tokenizers_changed.connect(self._changed)
        state.bpe_changed.connect(self._changed)

    def _changed(self, *_args: object) -> None:
        """The corpus or the tokenizers changed: measure now if the tab is shown, else when it is."""
        self.stale = True
        if self.isVisible():
            self.recompute()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.stale:
            self.recompute()

    def hideEvent(self, event: QHideEvent) -> None:  # noqa: N802 - Qt override
        # a measurement nobody looks at stops (it can take a minute and hundreds of MB on a
        # large corpus, and would hold up quitting); it starts again when the tab is shown
        super().hideEvent(event)
        if self.job.busy:
            self.job.cancel()
            self.stale = True
            self.info.setText("measuring stopped while the tab was hidden; it starts again when shown")

    def recompute(self, *_args: object) -> None:
        """Measure the corpus again (in a worker; the newest request wins)."""
        self.stale = False
        corpus = self.state.corpus
        texts = corpus.texts_in_memory() if corpus is not None else []  # a streamed corpus: its sample
        if not texts:
            self.job.cancel()
            self.info.setText("Open a corpus to see its granularity.")
            return
        tokenizers = list(self.state.tokenizers)
        policy, bpe = self.state.special_policy, self.state.bpe
        self.info.setText("measuring…")

        def work(cancel: Callable[[], bool]) -> Generator[Progress, None, Measured]:
            report = yield from granularity_iter(texts, tokenizers, special=policy, cancel=cancel)
            return Measured(report, bpe_curve(bpe, texts, cancel=cancel) if bpe is not None else [])

        self.job.start(
            work,
            on_result=lambda got: self._show(got.report, got.curve),
            on_error=lambda exc: self.info.setText(f"granularity failed: {user_message(exc)}"),
        )

    def _show(self, report: GranularityReport, curve: list[tuple[int, int]]) -> None:
        self.report = report
        self.curve = curve
        self.table.setRowCount(len(report.levels))
        for r, lv in enumerate(report.levels):
            cpt = "—" if lv.chars_per_token is None else f"{lv.chars_per_token:.2f}"
            rate = "—" if lv.heldout_rate is None else f"{100 * lv.heldout_rate:.2f}%"
            cells = (lv.level, lv.name, f"{lv.vocab_size:,}", f"{lv.tokens:,}", cpt, rate)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        errors = "; ".join(f"{n}: {e}" for n, e in report.errors)
        about = "the blue curve: corpus tokens under the merge table's BPE with its first k merges, for every k"
        corpus = self.state.corpus
        streamed = corpus is not None and corpus.streamed
        self.info.setText(
            f"{report.chars:,} characters, {report.bytes:,} bytes. Held-out rate: the end of each file "
            f"({report.heldout_chars:,} characters) against vocabularies built on the rest; words: {WORD_PATTERN}. "
            f"Plot: {about if curve else 'no BPE in the merge table, so no curve'}."
            + (f" Failed: {errors}" if errors else "")
            + (f" Measured on the corpus {corpus.sample_note} (the corpus is streamed)." if streamed else "")
        )
        self.plot.set_data(report, curve)
