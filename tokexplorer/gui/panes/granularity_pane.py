"""The Granularity tab: the corpus at word, character, byte and subword level.

For ``AppState.corpus`` and every tokenizer of the window (each a subword
row): vocabulary size, tokens, characters per token and the held-out rate
(out-of-vocabulary words of the end of each file against a vocabulary built
on the rest; unseen characters and bytes; a tokenizer's unknown tokens), and a
log-log plot of corpus tokens against vocabulary size with the curve of the
merge table's BPE (tokens with its first k merges, every k) and every level marked. Computed in a worker when the tab
is shown after the corpus or the tokenizers changed, and on Recompute; a progress bar says which
level is measured and Cancel stops it. Until something is measured the table and the plot give
way to a line saying why (no empty axes).
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import WORD_PATTERN, GranularityReport, Level, bpe_curve, granularity_iter
from tokexplorer.core.types import Progress
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.granularity_plot import GranularityPlot
from tokexplorer.gui.widgets.table_fit import ColumnShare
from tokexplorer.gui.workers import LatestRequest, user_message

COLUMNS = ("Level", "Name", "Vocab size", "Seen in this text", "Tokens", "Chars/token", "Held-out rate")


@dataclass(frozen=True)
class Measured:
    """One measurement: the report and the BPE curve (empty without a BPE)."""

    report: GranularityReport
    curve: list[tuple[int, int]]


def vocab_tip(lv: Level) -> str:
    """What a row's vocabulary size and its count of tokens seen count (``"256 byte tokens
    (181 seen in this text)"``)."""
    if lv.level == "byte":
        return f"{lv.vocab_size:,} byte tokens, every byte value ({lv.seen:,} seen in this text)"
    if lv.level in ("word", "character"):
        return f"{lv.vocab_size:,} {lv.level}s: the distinct {lv.level}s of this text, a vocabulary built on it"
    return f"{lv.vocab_size:,} tokens in {lv.name}'s vocabulary (how many occur in this text is not counted)"


class GranularityPane(QWidget):
    """Levels of the corpus in a table and a plot.

    Args:
        state: the shared state (its corpus, tokenizers and BPE).
        parent: Qt parent widget.

    Attributes:
        table, plot, info, recompute_button: the parts.
        progress, cancel_button: shown while measuring (the level measured now; Cancel stops it).
        pages, placeholder: the table and plot (``split``), or while nothing is measured
            the ``placeholder`` line saying why.
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
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.progress.setMinimumWidth(self.progress.fontMetrics().horizontalAdvance("m" * 40))
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setToolTip("Stop measuring (Recompute measures again)")
        self.cancel_button.clicked.connect(self.cancel)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.columns = ColumnShare(self.table, stretch=COLUMNS.index("Name"))  # the name takes what is left
        self.plot = GranularityPlot()
        top = QHBoxLayout()
        top.addWidget(self.info, 1)
        top.addWidget(self.progress)
        top.addWidget(self.cancel_button)
        top.addWidget(self.recompute_button)
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.addWidget(self.table)
        self.split.addWidget(self.plot)
        self.split.setSizes([220, 480])
        self.placeholder = QLabel("Open a corpus to see its granularity.")
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.pages = QStackedWidget()
        self.pages.addWidget(self.placeholder)
        self.pages.addWidget(self.split)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.pages, 1)
        self._set_running(False)
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
            self._set_running(False)
            self.stale = True
            self.info.setText("measuring stopped while the tab was hidden; it starts again when shown")
            self._show_nothing("Nothing measured yet: measuring starts again when the tab is shown.")

    def cancel(self) -> None:
        """Stop the measurement running (nothing is shown; Recompute measures again)."""
        if self.job.busy:
            self.job.cancel()
        self._set_running(False)
        self.info.setText("measuring cancelled; Recompute measures again")
        self._show_nothing("Nothing measured: cancelled.")

    def _set_running(self, running: bool) -> None:
        """Show the progress bar and Cancel while measuring, Recompute otherwise."""
        self.progress.setVisible(running)
        self.cancel_button.setVisible(running)
        self.recompute_button.setEnabled(not running)
        if running:
            self.progress.setRange(0, 0)
            self.progress.setFormat("starting…")

    def _show_nothing(self, why: str) -> None:
        """Nothing measured: clear the results and say ``why`` where the table and plot were."""
        self.report, self.curve = None, []
        self.table.setRowCount(0)
        self.plot.set_data(None)
        self.placeholder.setText(why)
        self.pages.setCurrentWidget(self.placeholder)

    def _on_progress(self, p: Progress) -> None:
        if not p.total:
            return
        self.progress.setRange(0, p.total)
        self.progress.setValue(p.done)
        if p.done >= p.total:
            self.progress.setRange(0, 0)  # the BPE curve comes last and says nothing on the way
            self.progress.setFormat("the BPE curve…")
        else:
            # the message names what is measured now
            self.progress.setFormat(f"measuring {p.message} ({p.done:,} of {p.total:,} levels done)")

    def recompute(self, *_args: object) -> None:
        """Measure the corpus again (in a worker; the newest request wins)."""
        self.stale = False
        corpus = self.state.corpus
        texts = corpus.texts_in_memory() if corpus is not None else []  # a streamed corpus: its sample
        if not texts:
            self.job.cancel()
            self._set_running(False)
            self.info.setText("Open a corpus to see its granularity.")
            self._show_nothing("Open a corpus to see its granularity.")
            return
        tokenizers = list(self.state.tokenizers)
        policy, bpe = self.state.special_policy, self.state.bpe
        self.info.setText(f"measuring the corpus at every level: word, character, byte and {len(tokenizers)} subword…")
        self._show_nothing("Measuring… the table and the plot appear when every level is measured.")
        self._set_running(True)

        def work(cancel: Callable[[], bool]) -> Generator[Progress, None, Measured]:
            report = yield from granularity_iter(texts, tokenizers, special=policy, cancel=cancel)
            return Measured(report, bpe_curve(bpe, texts, cancel=cancel) if bpe is not None else [])

        self.job.start(
            work,
            on_result=lambda got: self._show(got.report, got.curve),
            on_error=self._on_error,
            on_progress=self._on_progress,
        )

    def _on_error(self, exc: BaseException) -> None:
        self._set_running(False)
        self.info.setText(f"granularity failed: {user_message(exc)}")
        self._show_nothing("Nothing measured: the measurement failed (the message is above).")

    def _show(self, report: GranularityReport, curve: list[tuple[int, int]]) -> None:
        self._set_running(False)
        self.pages.setCurrentWidget(self.split)
        self.report = report
        self.curve = curve
        self.table.setRowCount(len(report.levels))
        for r, lv in enumerate(report.levels):
            cpt = "—" if lv.chars_per_token is None else f"{lv.chars_per_token:.2f}"
            rate = "—" if lv.heldout_rate is None else f"{100 * lv.heldout_rate:.2f}%"
            seen = "—" if lv.seen is None else f"{lv.seen:,}"
            cells = (lv.level, lv.name, f"{lv.vocab_size:,}", seen, f"{lv.tokens:,}", cpt, rate)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if c in (2, 3):
                    item.setToolTip(vocab_tip(lv))
                self.table.setItem(r, c, item)
        self.columns.refit()
        errors = "; ".join(f"{n}: {e}" for n, e in report.errors)
        about = "the blue curve: corpus tokens under the merge table's BPE with its first k merges, for every k"
        corpus = self.state.corpus
        streamed = corpus is not None and corpus.streamed
        byte = next((lv for lv in report.levels if lv.level == "byte"), None)
        bytes_said = f" Byte level: {vocab_tip(byte)}." if byte is not None and byte.seen is not None else ""
        self.info.setText(
            f"{report.chars:,} characters, {report.bytes:,} bytes.{bytes_said} Held-out rate: the end of each file "
            f"({report.heldout_chars:,} characters) against vocabularies built on the rest; words: {WORD_PATTERN}. "
            f"Plot: {about if curve else 'no BPE in the merge table, so no curve'}."
            + (f" Failed: {errors}" if errors else "")
            + (f" Measured on the corpus {corpus.sample_note} (the corpus is streamed)." if streamed else "")
        )
        self.plot.set_data(report, curve)
