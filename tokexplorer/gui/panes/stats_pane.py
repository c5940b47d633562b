"""The statistics pane: token statistics of the whole corpus for every column.

"Compute" runs :func:`tokexplorer.core.analysis.stats.corpus_stats_iter` in a worker over
the corpus files (the sample text when no corpus is loaded) with every
tokenizer of ``AppState.tokenizers`` and the shared special-token policy
(``AppState.special_policy``, the same switch as the compare pane). The result is
shown as a table (per tokenizer: the total, each file, each script) and as a
grouped bar chart of one chosen measure per script or per file; it is exported
as CSV or JSON holding the table's numbers. A change of policy, corpus or
columns recomputes the statistics when they were shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import (
    COLUMN_NOTES,
    COLUMN_TITLES,
    COLUMNS,
    FEW_CHARS,
    SMALL_SHARE,
    CorpusStats,
    chart_groups,
    corpus_stats_iter,
    format_cell,
    group_value,
    share_text,
    streamed_stats_iter,
)
from tokexplorer.core.errors import TokexplorerError
from tokexplorer.core.io import file_label
from tokexplorer.core.types import Progress
from tokexplorer.gui import file_dialogs, symbols, theme
from tokexplorer.gui.state import AppState
from tokexplorer.gui.terms import in_window_terms
from tokexplorer.gui.widgets.charts import GroupedBarChart
from tokexplorer.gui.widgets.table_fit import ColumnShare
from tokexplorer.gui.workers import LatestRequest, Worker, pause_while_hidden, user_message

#: Measures offered in the chart: row key -> (title, y axis label).
CHART_MEASURES: dict[str, tuple[str, str]] = {
    "chars_per_token": (
        "Characters per token (higher: fewer tokens)",
        "characters / token",
    ),
    "tokens": ("Tokens", "tokens"),
    "bytes_per_token": ("UTF-8 bytes per token", "bytes / token"),
    "tokens_per_word": ("Tokens per word (space-delimited scripts)", "tokens / word"),
    "partial_pct": ("Tokens holding part of a UTF-8 character", "% of tokens"),
    "grapheme_part_pct": ("Tokens holding part of a grapheme cluster (whole code points)", "% of tokens"),
    "unknown_pct": ("Unknown pieces (SentencePiece)", "% of tokens"),
}

#: Columns whose values are ratios of a group's counts: from few characters, they are shown pale.
RATIO_COLUMNS = frozenset({
    "chars_per_token", "bytes_per_token", "tokens_per_word", "partial_pct", "grapheme_part_pct", "unknown_pct",
})  # fmt: skip

#: The chart's note once the statistics of a previous corpus, column set or policy are cleared.
PREVIOUS_CLEARED = (
    "The corpus, the compare columns or the special-token policy changed: the previous statistics "
    "are cleared; each tokenizer's rows and bars appear as soon as it is counted."
)

#: Table columns shown (keys of :data:`tokexplorer.core.analysis.stats.COLUMNS`).
TABLE_COLUMNS: tuple[str, ...] = tuple(k for k in COLUMNS if k != "group_kind")


def shown_cell(value: Any) -> str:
    """A statistic as the table shows it: counts with thousands separators as everywhere in
    the window (``3,630,024``), the rest as :func:`format_cell` (CSV keeps plain numbers)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return format_cell(value)


def header_title(key: str) -> str:
    """A column's title over two lines, broken at the space nearest its middle when it holds
    several words (``"round-trip\\nfailures (lines)"``), so the columns fit side by side."""
    title = COLUMN_TITLES[key]
    spaces = [i for i, ch in enumerate(title) if ch == " "]
    if len(title) <= 10 or not spaces:
        return title
    cut = min(spaces, key=lambda i: abs(i - len(title) / 2))
    return f"{title[:cut]}\n{title[cut + 1 :]}"


class StatsPane(QWidget):
    """Corpus statistics table, chart and exports.

    Args:
        state: the shared :class:`AppState`.
        parent: optional parent widget.

    Signals:
        computed(object): new :class:`CorpusStats` are shown.

    Attributes:
        stats: the shown :class:`CorpusStats`, or None.
        compute_button, cancel_button, export_csv_button, export_json_button: QPushButtons.
        progress: QProgressBar; message: QLabel.
        table: QTableWidget of :meth:`CorpusStats.rows` (cells via :func:`format_cell`).
        measure_combo: the chart's measure; by_combo: chart per ``"script"`` or ``"file"``.
        chart: the :class:`GroupedBarChart`.
    """

    computed = Signal(object)

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.stats: CorpusStats | None = None
        self._shown: CorpusStats | None = None  # in the table: the stats, or the rows done so far
        self._computing = ""  # the message while computing
        self._counting: list[str] = []  # names of the running computation's tokenizers
        self._done = 0  # how many of them are done
        self._job = LatestRequest(self)
        pause_while_hidden(self, [self._job])  # statistics of a large corpus wait while another tab is shown

        self.compute_button = QPushButton("Compute statistics")
        self.compute_button.clicked.connect(self.compute)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.export_csv_button = QPushButton("Export CSV…")
        self.export_json_button = QPushButton("Export JSON…")
        self.export_csv_button.clicked.connect(lambda: self._ask_export("csv"))
        self.export_json_button.clicked.connect(lambda: self._ask_export("json"))
        for b in (self.export_csv_button, self.export_json_button):
            b.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        self.progress.hide()
        self.message = QLabel(
            "Statistics of the whole corpus for every compare column."
        )
        self.message.setWordWrap(True)

        top = QHBoxLayout()
        for w in (self.compute_button, self.cancel_button, self.progress):
            top.addWidget(w)
        top.addWidget(self.message, 1)
        top.addWidget(self.export_csv_button)
        top.addWidget(self.export_json_button)

        chart_box = self._chart_box()

        self.table = QTableWidget(0, len(TABLE_COLUMNS))
        self.table.setHorizontalHeaderLabels([header_title(k) for k in TABLE_COLUMNS])
        for c, key in enumerate(TABLE_COLUMNS):  # what tokens/word divides, what words counts
            if key in COLUMN_NOTES:
                self.table.horizontalHeaderItem(c).setToolTip(COLUMN_NOTES[key])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        # the group (a file's name: en_1mb.txt beside en_10mb.txt) takes the width left over and is
        # shown whole as long as it can be; the tokenizer's name gives up width first
        self.columns = ColumnShare(
            self.table, stretch=TABLE_COLUMNS.index("group"), squeeze=(TABLE_COLUMNS.index("tokenizer"),)
        )
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)  # a name cut by a narrow window ends in "…" (whole in its tooltip), one line

        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(chart_box)
        split.addWidget(self.table)
        split.setSizes([420, 300])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        lay.addWidget(split, 1)

        state.special_policy_changed.connect(self._recompute_if_shown)
        state.tokenizers_changed.connect(self._recompute_if_shown)
        state.corpus_changed.connect(self._recompute_if_shown)

    def _chart_box(self) -> QWidget:
        """The chart with its choices (measure, grouping, small groups apart) and its note."""
        self.measure_combo = QComboBox()
        for key, (title, _y) in CHART_MEASURES.items():
            self.measure_combo.addItem(title, key)
        self.by_combo = QComboBox()
        self.by_combo.addItem("per script (each line under its main script)", "script")
        self.by_combo.addItem("per file", "file")
        self.small_check = QCheckBox("Show small groups separately")
        self.small_check.setToolTip(
            f"Unchecked, the groups under {share_text(SMALL_SHARE)} of the corpus's characters are drawn as one"
        )
        self.measure_combo.currentIndexChanged.connect(self._update_chart)
        self.by_combo.currentIndexChanged.connect(self._update_chart)
        self.small_check.toggled.connect(self._update_chart)
        self.chart_note = QLabel()  # what the shares, the folded groups and the pale bars are
        self.chart_note.setWordWrap(True)
        self.chart_note.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        chart_bar = QHBoxLayout()
        chart_bar.addWidget(QLabel("Chart:"))
        chart_bar.addWidget(self.measure_combo)
        chart_bar.addWidget(self.by_combo)
        chart_bar.addWidget(self.small_check)
        chart_bar.addStretch(1)
        self.chart = GroupedBarChart()
        chart_box = QWidget()
        cl = QVBoxLayout(chart_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addLayout(chart_bar)
        cl.addWidget(self.chart, 1)
        cl.addWidget(self.chart_note)
        return chart_box

    # ------------------------------------------------------------------ computing

    def corpus_files(self) -> list[tuple[str, str]]:
        """``(name, text)`` of the corpus files, or the sample text when there is no corpus
        (a streamed corpus: ``(name, "")``, its texts are read in pieces when computing)."""
        corpus = self.state.corpus
        files = [(file_label(f.path, corpus.roots), f.text) for f in corpus.files] if corpus is not None else []
        if not files:
            files = [("sample text", self.state.sample_text)]
        return files

    @property
    def busy(self) -> bool:
        """True while a computation runs."""
        return self._job.busy

    def compute(self) -> Worker | None:
        """Compute the statistics in a worker (a running computation is cancelled first).

        Returns:
            the worker, or None when there is no tokenizer (the reason is shown).
        """
        toks = list(self.state.tokenizers)
        if not toks:
            self.message.setText("No tokenizer: add a column in the Compare tab first.")
            return None
        files = self.corpus_files()
        policy = self.state.special_policy
        corpus = self.state.corpus
        streamed = corpus.files if corpus is not None and corpus.streamed else None  # read again in pieces
        worker = self._job.start(
            lambda cancel: corpus_stats_iter(toks, files, special=policy, cancel=cancel)
            if streamed is None
            else streamed_stats_iter(toks, streamed, special=policy, cancel=cancel),
            on_result=self._on_done,
            on_progress=self._on_progress,
            on_yielded=self._on_partial,
            on_error=self._on_error,
            on_cancelled=self._on_cancelled,
        )
        self.compute_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 0)
        self.progress.show()
        n = len(files)
        self._computing = (
            f"computing over {n:,} file{'s' if n != 1 else ''} with {len(toks)} tokenizers "
            f"(special tokens: {policy})…"
        )
        self._counting, self._done = [t.name for t in toks], 0
        self._say_counting()
        return worker

    def cancel(self) -> None:
        """Stop the running computation (:meth:`compute` can start it again)."""
        worker = self._job.worker
        if worker is not None and not worker.done:
            worker.cancel()  # the job stays the newest: its cancellation is reported

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        """Compute the statistics the first time the tab is shown with a corpus,
        so the pane never opens on an empty chart."""
        super().showEvent(event)
        if (
            self.stats is None
            and not self.busy
            and self.corpus_files()
            and self.state.tokenizers
        ):
            self.compute()

    def _recompute_if_shown(self, *args: Any) -> None:
        """The corpus, the columns or the policy changed: the shown rows and bars are of the
        previous ones, so they go (the new rows appear as each tokenizer is counted)."""
        if self.stats is not None or self.busy:
            self.clear()
            self.compute()

    def clear(self) -> None:
        """Show no statistics: an empty table and chart, the exports off (nothing to export)."""
        self.stats = self._shown = None
        self.table.setRowCount(0)
        self.chart.set_data([], [], title="", y_label="")
        self.chart_note.setText(PREVIOUS_CLEARED)
        for b in (self.export_csv_button, self.export_json_button):
            b.setEnabled(False)

    def _idle(self) -> None:
        self.compute_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.hide()

    def _on_progress(self, p: Progress) -> None:
        if not p.total:
            return
        self.progress.setRange(0, 1000)
        self.progress.setValue(int(1000 * p.done / p.total))
        self.progress.setFormat("%p%")  # the tokenizer's name goes in the message beside it: never cut

    def _say_counting(self) -> None:
        """The message while computing: which tokenizer is counted, how many are done."""
        n, done = len(self._counting), self._done
        now = f" now {self._counting[done]};" if done < n else ""
        self.message.setText(f"{self._computing}{now} {done} of {n} done")

    def _on_partial(self, partial: CorpusStats) -> None:
        """Show the rows of the tokenizers done so far (the statistics are not final yet)."""
        self._done = len(partial.tokenizers)
        self._fill(partial)
        self._say_counting()

    def _on_error(self, exc: BaseException) -> None:
        message = user_message(exc)
        self._idle()
        self.message.setText(symbols.plain(f"⚠ statistics failed: {message}"))
        self.state.error.emit(f"statistics failed: {message}")

    def _on_cancelled(self) -> None:
        self._idle()
        if self.stats is not None:  # the table shows the stats it had, not part of the cancelled ones
            self._fill(self.stats)
        elif self._shown is None:  # cleared (a new corpus) and cancelled before any row: nothing will appear
            self.chart_note.setText("")
        self.message.setText("statistics cancelled")

    def _on_done(self, stats: CorpusStats) -> None:
        self._idle()
        self.show_stats(stats)

    # ------------------------------------------------------------------ showing

    def show_stats(self, stats: CorpusStats) -> None:
        """Show ``stats`` in the table and the chart."""
        self.stats = stats
        self._fill(stats)
        errors = [f"{t.name}: {in_window_terms(t.error)}" for t in stats.tokenizers if t.error]
        corpus = self.state.corpus
        streamed = corpus is not None and corpus.streamed
        n_chars = corpus.n_chars if streamed else sum(len(t) for _n, t in self.corpus_files())
        msg = (
            f"{len(stats.files):,} file{'s' if len(stats.files) != 1 else ''}, {n_chars:,} characters; "
            f"special tokens: {stats.special}"
        )
        if streamed:
            msg += " · the files were read from disk in pieces (the corpus is streamed)"
        if errors:
            msg += " · ⚠ " + "; ".join(errors)
        # what counted each tokenizer's ids when that is not its usual engine (the
        # notes `tokexplorer stats` prints): "counted with our engine on 1 text: ..."
        notes = [f"{t.name}: {in_window_terms(n)}" for t in stats.tokenizers if not t.error for n in t.notes]
        if notes:
            msg += " · ⓘ " + "; ".join(notes)
        self.message.setText(symbols.plain(msg))
        for b in (self.export_csv_button, self.export_json_button):
            b.setEnabled(True)
        self.computed.emit(stats)

    def _fill(self, stats: CorpusStats) -> None:
        """The table and the chart of ``stats``."""
        self._shown = stats
        rows = stats.rows()
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, key in enumerate(TABLE_COLUMNS):
                value = row[key]
                text = shown_cell(value)
                if key == "error":  # a refusal's ways out as the window's controls (the export stays neutral)
                    text = in_window_terms(text)
                if key == "group" and row["group_kind"] == "script":
                    text = f"  {text}"
                elif key == "group" and row["group_kind"] == "file":
                    text = f"  {text}"
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, value)
                if key in ("tokenizer", "group"):  # the whole name, when a narrow window cuts it
                    item.setToolTip(str(value))
                if isinstance(value, (int, float)):
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                if row["group_kind"] == "total":
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                few = row["chars"] is not None and row["chars"] < FEW_CHARS
                if few and key in RATIO_COLUMNS and value is not None:
                    item.setForeground(theme.FEW_SAMPLE_TEXT)
                    item.setToolTip(f"from only {row['chars']:,} characters: a small sample")
                self.table.setItem(r, c, item)
        self.columns.refit()
        self._update_chart()

    def cell_text(self, row: int, key: str) -> str:
        """The table text of row ``row`` (index in :meth:`CorpusStats.rows`), column ``key``."""
        item = self.table.item(row, TABLE_COLUMNS.index(key))
        return item.text().strip() if item is not None else ""

    def _update_chart(self, *args: Any) -> None:
        shown = self._shown
        if shown is None:
            return
        key = self.measure_combo.currentData()
        by = self.by_combo.currentData()
        groups = chart_groups(shown, by, fold=not self.small_check.isChecked())
        series = [
            (t.name, [group_value(shown, t, g, key, by=by) for g in groups]) for t in shown.tokenizers if not t.error
        ]
        title, y_label = CHART_MEASURES[key]
        self.chart.set_data(
            [g.label for g in groups],
            series,
            title=f"{title}, {self.by_combo.currentText()}",
            y_label=y_label,
            notes=[share_text(g.share) + (f" · {g.chars:,} chars" if g.few else "") for g in groups],
            faint=[g.few for g in groups],
        )
        self.chart_note.setText(self._chart_note(shown, by))

    def _chart_note(self, shown: CorpusStats, by: str) -> str:
        """What the chart's shares, its folded group and its pale bars are."""
        unfolded = chart_groups(shown, by, fold=False)
        folded = chart_groups(shown, by)
        parts = ["Under each group: its share of the corpus's characters (and how many, when few)."]
        if len(folded) < len(unfolded) and not self.small_check.isChecked():
            small = folded[-1]
            listed = ", ".join(f"{g.label} {g.chars:,}" for g in unfolded if g.label in small.members)
            parts.append(
                f"{small.label} (each under {share_text(SMALL_SHARE)}; {small.chars:,} characters in all) "
                f"drawn as one: {listed} characters."
            )
        if any(g.few for g in (unfolded if self.small_check.isChecked() else folded)):
            parts.append(f"Pale hatched bars: ratios from fewer than {FEW_CHARS:,} characters, a small sample.")
        return " ".join(parts)

    # ------------------------------------------------------------------ exports

    def _ask_export(self, kind: str) -> None:
        filt = "CSV (*.csv)" if kind == "csv" else "JSON (*.json)"
        path, _ = file_dialogs.save_file(self, "Export statistics", f"statistics.{kind}", filt)
        if path:
            self.export(path, kind)

    def export(self, path: str, kind: str) -> bool:
        """Write the shown statistics as ``"csv"`` or ``"json"``; True on success."""
        if self.stats is None:
            self.state.error.emit("no statistics to export: compute them first")
            return False
        try:
            if kind == "csv":
                self.stats.save_csv(path)
            else:
                self.stats.save_json(path)
        except TokexplorerError as exc:
            self.state.error.emit(str(exc))
            return False
        self.state.status.emit(f"statistics saved to {path}")
        return True
