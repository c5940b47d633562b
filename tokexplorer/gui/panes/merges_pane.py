"""The merge table pane: interrogate every merge of the current BPE model.

Shows ``AppState.bpe`` (updated on ``bpe_changed``) in a sortable table:
rank, left, right, merged token, byte length, pair count and how often the
merge fires on the sample text. Above the table: a filter (text, regex or hex
bytes), a script filter, "partial UTF-8 only", the token display (text, hex
bytes, GPT-2 visible bytes) and "jump to rank". Beside it, for the selected
merge:

* **Merge tree**: how the merged token was built, down to its bytes;
* **Where it fires**: the sample text with every place the merge applies
  highlighted, and the chunks it occurs in with counts (the spans are also
  sent as ``AppState.merge_fires`` for other panes);
* **Training plot**: corpus tokens, bytes per token and token length against
  rank; clicking a point selects that merge.

Slow work (recovering tiktoken merges, the search index, encoding the sample
to count firings) runs in workers; the table stays responsive.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer
from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QScrollArea,
    QSpinBox,
    QSplitter,
    QStyledItemDelegate,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import SCRIPTS, FireIndex, MergeIndex, fire_index
from tokexplorer.core.text import to_gpt2_visible, token_display
from tokexplorer.gui import theme
from tokexplorer.gui.models.merge_model import (
    COL_BYTES,
    COL_COUNT,
    COL_FIRES,
    COL_LEFT,
    COL_MERGED,
    COL_RANK,
    COL_RIGHT,
    MergeTableModel,
    build_search_index,
)
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.merge_tree import MergeTreeWidget
from tokexplorer.gui.widgets.training_plot import TrainingPlot
from tokexplorer.gui.workers import Worker, user_message

#: Shown in place of a space in the token columns (text mode).
VISIBLE_SPACE = "␣"
#: Most highlighted spans and listed chunks in "Where it fires".
MAX_FIRE_SPANS = 5000
MAX_FIRE_CHUNKS = 500

_NO_MODEL = "No BPE model yet: train one in the Corpus tab or open a model file."
_HIGHLIGHT = QColor("#ffd54f")


class VisibleSpaceDelegate(QStyledItemDelegate):
    """Draws token text with spaces as ``␣`` in text mode (hex and GPT-2 modes
    already have no bare spaces to hide), so a merge of two spaces is not an
    empty cell."""

    def __init__(self, model: MergeTableModel, parent: Any = None) -> None:
        super().__init__(parent)
        self._model = model

    def displayText(self, value: Any, locale: Any) -> str:  # noqa: N802 - Qt override
        text = super().displayText(value, locale)
        if self._model.display_mode == "text":
            return text.replace(" ", VISIBLE_SPACE)
        return text


def byte_to_utf16(text: str) -> list[int]:
    """For each byte offset of ``text``'s UTF-8 (``0..len``), the UTF-16 offset of
    the character holding it (Qt text positions count UTF-16 units).

    >>> byte_to_utf16("a你😀")
    [0, 1, 1, 1, 2, 2, 2, 2, 4]
    """
    out: list[int] = []
    pos = 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        out.extend([pos] * n)
        pos += 2 if ord(ch) > 0xFFFF else 1
    out.append(pos)
    return out


class MergesPane(QWidget):
    """Merge table of the current BPE model with filters, merge tree, firing sites and plots.

    Args:
        state: the shared application state; the pane follows ``state.bpe``
            and ``state.sample_text``.
        parent: Qt parent widget.

    Attributes:
        model: the :class:`MergeTableModel` (sorts and filters itself).
        proxy: the same object as :attr:`model` (kept for callers of v0).
        view: the QTableView.
        filter_edit: the filter QLineEdit; regex_check / hex_check pick its mode.
        script_combo: "any script" or one of :data:`SCRIPTS`.
        partial_check: show only merged tokens holding part of a UTF-8 character.
        display_combo: Text / Hex bytes / GPT-2 bytes.
        jump_spin: rank to jump to (Enter jumps).
        count_label: QLabel reading ``"N merges (M shown)"``.
        tree: the :class:`MergeTreeWidget`; tree_label its caption.
        fires_text, fires_table, fires_label: the "Where it fires" widgets.
        plot: the :class:`TrainingPlot`.
        details: the QTabWidget holding the three detail views.
        fire_worker: the worker counting firings (None when idle).
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.model = MergeTableModel(self)
        self.proxy = self.model
        self._bpe: Any = None
        self._index: MergeIndex | None = None
        self._fires: FireIndex | None = None
        self._fires_text = ""
        self._selected_rank: int | None = None
        self.fire_worker: Worker | None = None
        self.merges_worker: Worker | None = None
        self.index_worker: Worker | None = None
        self._fire_gen = 0

        self.title_label = QLabel(_NO_MODEL)
        self.title_label.setWordWrap(True)

        # -- filter row
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText("Filter: token text (the, ␣the, 你), a regex, or hex bytes (e4 bd)")
        self.filter_edit.setClearButtonEnabled(True)
        self.regex_check = QCheckBox("regex")
        self.regex_check.setToolTip(
            "Search the merged token's text with a regular expression, e.g. ^\\s or \\p{Han}{2}"
        )
        self.hex_check = QCheckBox("hex")
        self.hex_check.setToolTip("Match bytes inside the merged token, written as hex pairs: e4 bd")
        self.script_combo = QComboBox()
        self.script_combo.addItem("any script", None)
        for s in SCRIPTS:
            self.script_combo.addItem(s, s)
        self.script_combo.setToolTip("Keep merged tokens of one script (the first letter's script wins)")
        self.partial_check = QCheckBox("partial UTF-8 only")
        self.partial_check.setToolTip("Keep merged tokens that hold only part of a character (\\xNN bytes)")
        self.count_label = QLabel()
        self.count_label.setMinimumWidth(170)
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

        top = QHBoxLayout()
        top.addWidget(QLabel("Filter:"))
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.regex_check)
        top.addWidget(self.hex_check)
        top.addWidget(self.script_combo)
        top.addWidget(self.partial_check)
        top.addWidget(self.count_label)

        self.display_combo = QComboBox()
        for text, mode in (("Text (␣ = space)", "text"), ("Hex bytes", "hex"), ("GPT-2 bytes (Ġ = space)", "gpt2")):
            self.display_combo.addItem(text, mode)
        self.display_combo.setToolTip(
            "How tokens are written: readable text with \\xNN for partial characters, "
            "hex bytes, or GPT-2's visible-byte alphabet"
        )
        self.jump_spin = QSpinBox()
        self.jump_spin.setRange(0, 0)
        self.jump_spin.setToolTip("Jump to the merge of this rank (press Enter)")
        self.jump_spin.setKeyboardTracking(False)
        second = QHBoxLayout()
        second.addWidget(QLabel("Show tokens as:"))
        second.addWidget(self.display_combo)
        second.addSpacing(16)
        second.addWidget(QLabel("Jump to rank:"))
        second.addWidget(self.jump_spin)
        second.addStretch(1)

        # -- table
        self.view = QTableView()
        self.view.setModel(self.model)
        self.view.setSortingEnabled(True)
        self.view.horizontalHeader().setSortIndicator(COL_RANK, Qt.SortOrder.AscendingOrder)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setWordWrap(False)
        self.view.setAlternatingRowColors(True)
        self.delegate = VisibleSpaceDelegate(self.model, self.view)
        for col in (COL_LEFT, COL_RIGHT, COL_MERGED):
            self.view.setItemDelegateForColumn(col, self.delegate)
        vh = self.view.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 6)
        vh.setVisible(False)
        hh = self.view.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(False)
        for col, width in (
            (COL_RANK, 64),
            (COL_LEFT, 110),
            (COL_RIGHT, 110),
            (COL_MERGED, 150),
            (COL_BYTES, 48),
            (COL_COUNT, 72),
            (COL_FIRES, 56),
        ):
            self.view.setColumnWidth(col, width)
        # the merged token takes the width left over (no blank band after Fires)
        hh.setSectionResizeMode(COL_MERGED, QHeaderView.ResizeMode.Stretch)

        # -- details
        self.tree = MergeTreeWidget()
        self.tree_label = QLabel("Select a merge, or ask for a token's tree from another pane.")
        self.tree_label.setWordWrap(True)
        tree_scroll = QScrollArea()
        tree_scroll.setWidget(self.tree)
        tree_scroll.setWidgetResizable(True)
        tree_scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        tree_box = QWidget()
        tl = QVBoxLayout(tree_box)
        tl.setContentsMargins(4, 4, 4, 4)
        tl.addWidget(self.tree_label)
        tl.addWidget(tree_scroll, 1)

        self.fires_label = QLabel("Select a merge to see where it fires in the sample text (Compare tab).")
        self.fires_label.setWordWrap(True)
        self.fires_text = QPlainTextEdit()
        self.fires_text.setReadOnly(True)
        self.fires_table = QTableWidget(0, 2)
        self.fires_table.setHorizontalHeaderLabels(["Chunk", "Fires"])
        self.fires_table.verticalHeader().setVisible(False)
        self.fires_table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.fires_table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.fires_table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        fires_split = QSplitter(Qt.Orientation.Vertical)
        fires_split.addWidget(self.fires_text)
        fires_split.addWidget(self.fires_table)
        fires_box = QWidget()
        fl = QVBoxLayout(fires_box)
        fl.setContentsMargins(4, 4, 4, 4)
        fl.addWidget(self.fires_label)
        fl.addWidget(fires_split, 1)

        self.plot = TrainingPlot()

        self.details = QTabWidget()
        self.details.addTab(tree_box, "Merge tree")
        self.details.addTab(fires_box, "Where it fires")
        self.details.addTab(self.plot, "Training plot")

        table_box = QWidget()
        tbl = QVBoxLayout(table_box)
        tbl.setContentsMargins(0, 0, 0, 0)
        tbl.addWidget(self.view)
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(table_box)
        self.splitter.addWidget(self.details)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([3000, 2000])  # the table gets 60% at any window width

        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addLayout(top)
        layout.addLayout(second)
        layout.addWidget(self.splitter, 1)

        # Debounce typing; the filter itself is one pass over prepared columns.
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(120)
        self._filter_timer.timeout.connect(self.apply_filter)
        self._fire_timer = QTimer(self)
        self._fire_timer.setSingleShot(True)
        self._fire_timer.setInterval(300)
        self._fire_timer.timeout.connect(self._count_fires)
        self.filter_edit.textChanged.connect(self._filter_timer.start)
        self.filter_edit.returnPressed.connect(self.apply_filter)
        self.hex_check.toggled.connect(self._on_mode_check)
        self.regex_check.toggled.connect(self._on_mode_check)
        self.script_combo.currentIndexChanged.connect(lambda _i: self.apply_filter())
        self.partial_check.toggled.connect(lambda _on: self.apply_filter())
        self.display_combo.currentIndexChanged.connect(self._on_display_mode)
        self.jump_spin.valueChanged.connect(lambda v: self.jump_to_rank(v))
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        self.model.modelReset.connect(self._update_count)
        self.model.layoutChanged.connect(self._update_count)
        self.plot.merge_clicked.connect(self.jump_to_rank)

        state.bpe_changed.connect(self.set_bpe)
        state.sample_text_changed.connect(lambda _t: self._fire_timer.start())
        state.merge_requested.connect(self.jump_to_rank)
        # live training plot: redraw at most every 300 ms from the trainer's list
        self._live_merges: list | None = None
        self._live_timer = QTimer(self)
        self._live_timer.setSingleShot(True)
        self._live_timer.setInterval(300)
        self._live_timer.timeout.connect(self._draw_live_plot)
        state.training_merges.connect(self._on_training_merges)
        state.token_tree_requested.connect(self.show_tree_of_bytes)
        state.corpus_changed.connect(lambda _c: self._update_plot())
        self.set_bpe(state.bpe)

    # -- public ------------------------------------------------------------------

    @property
    def bpe(self) -> Any:
        """The BPE shown (None before one is set)."""
        return self._bpe

    def set_bpe(self, bpe: Any) -> None:
        """Show the merges of ``bpe`` (a ``tokexplorer.core.bpe.model.BPE``) or none (None).

        A model loaded from tiktoken ranks has its merges recovered in a worker
        first (about half a second for cl100k); the table shows them when ready.
        """
        self._bpe = bpe
        self._index = None
        self._fires = None
        self._selected_rank = None
        self.tree.set_tree(None)
        self._clear_fires()
        if bpe is None:
            self.model.clear()
            self.title_label.setText(_NO_MODEL)
            self._after_model()
            return
        if getattr(bpe, "_merges", ()) is None:  # tiktoken ranks: recover the merges off-thread
            self.model.clear()
            self.title_label.setText(f"{bpe.name}: recovering the merges from the ranks…")
            worker = Worker(lambda cancel, b=bpe: (b.merges, b)[1])
            worker.signals.returned.connect(self._show_merges)
            worker.signals.errored.connect(self._on_worker_error)
            self.merges_worker = worker
            worker.start()
            return
        self._show_merges(bpe)

    def apply_filter(self) -> None:
        """Apply the filter controls now (typing is debounced)."""
        self._filter_timer.stop()
        text = self.filter_edit.text()
        mode = "hex" if self.hex_check.isChecked() else "regex" if self.regex_check.isChecked() else "text"
        needle = text if text.strip() else ""
        if mode == "hex":
            needle = needle.strip()
        try:
            self.model.set_filter(
                needle,
                mode=mode,
                script=self.script_combo.currentData(),
                partial_only=self.partial_check.isChecked(),
            )
        except ValueError as exc:
            self.filter_edit.setStyleSheet("QLineEdit { background: #ffe0e0; }")
            msg = "not hex: use pairs like e4 bd" if mode == "hex" else str(exc).splitlines()[0]
            self.count_label.setText(msg)
            return
        self.filter_edit.setStyleSheet("")
        self._update_count()
        self._reselect()

    def shown_count(self) -> int:
        """Number of merges shown after filtering."""
        return self.model.rowCount()

    def jump_to_rank(self, rank: int) -> bool:
        """Select and scroll to the merge of ``rank``; False (with a status
        message) when it does not exist or the filter hides it."""
        row = self.model.row_of_rank(rank)
        if row < 0:
            why = "is hidden by the filter" if 0 <= rank < len(self.model.merges) else "does not exist"
            self.state.status.emit(f"merge #{rank} {why}")
            return False
        ix = self.model.index(row, COL_RANK)
        self.view.selectionModel().setCurrentIndex(
            ix,
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.view.scrollTo(ix, QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    def selected_rank(self) -> int | None:
        """Rank of the selected merge (None when nothing is selected)."""
        return self._selected_rank

    def merge_index(self) -> MergeIndex | None:
        """The :class:`MergeIndex` of the shown model (built on first use)."""
        if self._index is None and self._bpe is not None and self.model.merges:
            self._index = MergeIndex(self.model.merges, self.model.vocab)
        return self._index

    def show_token_tree(self, token_id: int) -> bool:
        """Draw the merge tree of ``token_id`` in the Merge tree tab."""
        idx = self.merge_index()
        if idx is None:
            self.tree.set_tree(None, message="No BPE model")
            return False
        try:
            root = idx.tree(token_id)
        except Exception as exc:  # noqa: BLE001 - an InputError: a one-line message
            self.tree.set_tree(None, message=str(exc))
            self.tree_label.setText(str(exc))
            return False
        self.tree.set_tree(root)
        shown = token_display(root.bytes, visible_spaces=True, control_pictures=theme.control_pictures())
        if root.is_leaf:
            self.tree_label.setText(f"token {token_id} «{shown}» is a single byte: no merge makes it")
        else:
            self.tree_label.setText(
                f"token {token_id} «{shown}» ({len(root.bytes)} bytes) is built by "
                f"{root.n_merges()} merge{'' if root.n_merges() == 1 else 's'}, {root.depth()} "
                f"level{'' if root.depth() == 1 else 's'} deep; boxes show each merge's rank "
                "(orange: part of a character, blue: whole characters, grey: bytes)"
            )
        return True

    def show_tree_of_bytes(self, data: bytes) -> bool:
        """Draw the merge tree of the token whose bytes are ``data`` and show the tab."""
        if self._bpe is None:
            return False
        tid = self._bpe.mergeable_ranks.get(bytes(data))
        self.details.setCurrentIndex(0)
        if tid is None:
            msg = f"{bytes(data).hex(' ').upper()} is not a token of {self._bpe.name}"
            self.tree.set_tree(None, message=msg)
            self.tree_label.setText(msg)
            return False
        return self.show_token_tree(tid)

    def fire_sites_text(self) -> str:
        """The sample text the firing counts were computed on."""
        return self._fires_text

    # -- internals ---------------------------------------------------------------

    def _show_merges(self, bpe: Any) -> None:
        if bpe is not self._bpe:
            return
        self.model.set_merges(bpe.merges, bpe.vocab)
        pattern = getattr(bpe, "pattern_name", None) or "custom"
        n_special = len(getattr(bpe, "special_tokens", {}) or {})
        self.title_label.setText(
            f"{getattr(bpe, 'name', 'BPE')} · {pattern} pre-tokenizer · vocab {bpe.vocab_size:,}"
            f" ({n_special} special token{'' if n_special == 1 else 's'}) · merges in rank order (lower rank merges first)"
            + (
                " · pair counts unknown (merges recovered from the ranks)"
                if bpe.merges and bpe.merges[0].count is None
                else ""
            )
        )
        self._after_model()
        self._start_index_worker()
        self._fire_timer.start()

    def _after_model(self) -> None:
        self.view.horizontalHeader().setSortIndicator(COL_RANK, Qt.SortOrder.AscendingOrder)
        n = len(self.model.merges)
        self.jump_spin.blockSignals(True)
        self.jump_spin.setRange(0, max(0, n - 1))
        self.jump_spin.blockSignals(False)
        self._update_count()
        self._update_plot()

    def _on_training_merges(self, merges: Any) -> None:
        self._live_merges = merges
        if not self._live_timer.isActive():
            self._live_timer.start()

    def _draw_live_plot(self) -> None:
        """Plot the merges a running training has learned so far."""
        merges = self._live_merges
        if merges is None:
            return
        snapshot = list(merges)  # the trainer appends on its thread; copy first
        corpus = self.state.corpus
        n_bytes = getattr(corpus, "n_bytes", None) if corpus is not None else None
        self.plot.set_merges(snapshot, n_bytes)
        self.plot.note.setText(f"training… {len(snapshot):,} merges so far. " + self.plot.note.text())

    def _update_plot(self) -> None:
        self._live_merges = None
        self._live_timer.stop()
        corpus = self.state.corpus
        n_bytes = getattr(corpus, "n_bytes", None) if corpus is not None else None
        self.plot.set_merges(self.model.merges, n_bytes)

    def _start_index_worker(self) -> None:
        if self.model.has_search_index:
            return
        merges, vocab, gen = self.model.merges, self.model.vocab, self.model.generation
        glyphs = theme.control_pictures()  # read here, in the GUI thread
        worker = Worker(lambda cancel: (gen, build_search_index(merges, vocab, control_pictures=glyphs)))
        worker.signals.returned.connect(self._on_search_index)
        self.index_worker = worker
        worker.start()

    def _count_fires(self) -> None:
        bpe = self._bpe
        if bpe is None or not self.model.merges:
            return
        if self.fire_worker is not None and not self.fire_worker.done:
            self.fire_worker.cancel()
        text = self.state.sample_text
        self._fire_gen += 1
        gen = self._fire_gen
        merges, vocab = self.model.merges, self.model.vocab
        index = self._index

        def work(cancel: Any) -> tuple[int, Any, str, MergeIndex, FireIndex]:
            idx = index if index is not None else MergeIndex(merges, vocab)
            return gen, bpe, text, idx, fire_index(bpe, text, index=idx, cancel=cancel)

        worker = Worker(work)
        worker.signals.returned.connect(self._on_fires)
        worker.signals.errored.connect(self._on_worker_error)
        self.fire_worker = worker
        worker.start()

    def _on_worker_error(self, exc: BaseException) -> None:
        self.state.status.emit(f"merge table: {user_message(exc)}")

    def _on_search_index(self, result: tuple[int, Any]) -> None:
        gen, idx = result
        self.model.set_search_index(idx, gen)

    def _on_fires(self, result: tuple[int, Any, str, MergeIndex, FireIndex]) -> None:
        gen, bpe, text, index, fires = result
        if gen != self._fire_gen or bpe is not self._bpe:
            return  # a newer request won
        self._index, self._fires = index, fires
        self._fires_text = text
        self.model.set_fire_counts(self._fires.counts)
        if self._selected_rank is not None:
            self._show_fires(self._selected_rank)

    def _on_mode_check(self, on: bool) -> None:
        sender = self.sender()
        if on:  # regex and hex exclude each other
            other = self.regex_check if sender is self.hex_check else self.hex_check
            other.blockSignals(True)
            other.setChecked(False)
            other.blockSignals(False)
        self.apply_filter()

    def _on_display_mode(self, _i: int) -> None:
        mode = self.display_combo.currentData()
        self.model.set_display_mode(mode)
        if mode == "hex":
            self.tree.set_label(lambda b: b.hex(" ").upper())
        elif mode == "gpt2":
            self.tree.set_label(to_gpt2_visible)
        else:
            glyphs = theme.control_pictures()
            self.tree.set_label(lambda b: token_display(b, visible_spaces=True, control_pictures=glyphs))
        self.view.viewport().update()

    def _update_count(self, *args: Any) -> None:
        total = len(self.model.merges)
        shown = self.model.rowCount()
        self.count_label.setText(f"{total:,} merges ({shown:,} shown)")

    def _reselect(self) -> None:
        if self._selected_rank is None:
            return
        row = self.model.row_of_rank(self._selected_rank)
        if row >= 0:
            ix = self.model.index(row, COL_RANK)
            self.view.selectionModel().blockSignals(True)
            self.view.selectionModel().setCurrentIndex(
                ix,
                QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
            )
            self.view.selectionModel().blockSignals(False)
            self.view.viewport().update()
            self.view.scrollTo(ix)

    def _on_selection(self, *_args: Any) -> None:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return
        merge = self.model.merge_at(rows[0].row())
        self._selected_rank = merge.rank
        self.jump_spin.blockSignals(True)
        self.jump_spin.setValue(merge.rank)
        self.jump_spin.blockSignals(False)
        raw = merge.merged
        self.show_token_tree(merge.new_id)
        self.plot.set_marker(merge.rank)
        self._show_fires(merge.rank)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        if text:
            self.state.inspect_requested.emit(text, 0, len(raw))
        self.state.status.emit(
            f"merge #{merge.rank}: {self.model.token_text(merge.left)} + "
            f"{self.model.token_text(merge.right)} → token {merge.new_id} ({raw.hex(' ').upper()})"
        )

    def _clear_fires(self) -> None:
        self.fires_text.setPlainText("")
        self.fires_table.setRowCount(0)
        self.fires_label.setText("Select a merge to see where it fires in the sample text (Compare tab).")

    def _show_fires(self, rank: int) -> None:
        fi = self._fires
        if fi is None:
            self.fires_label.setText("Counting where each merge fires in the sample text…")
            return
        sites = fi.where(rank)
        text = self._fires_text
        m = self.model.merges[rank] if rank < len(self.model.merges) else None
        glyphs = theme.control_pictures()
        name = token_display(m.merged, visible_spaces=True, control_pictures=glyphs) if m is not None else str(rank)
        n_chunks = len(sites.chunks)
        self.fires_label.setText(
            f"merge #{rank} «{name}» fires {sites.count:,} times in the sample text, "
            f"in {n_chunks:,} different chunks"
            + ("" if sites.count else " (its token never forms here: a lower-ranked merge takes its bytes first, or they do not occur)")
        )
        if self.fires_text.toPlainText() != text:
            self.fires_text.setPlainText(text)
        selections = []
        if sites.spans:
            u16 = byte_to_utf16(text)
            fmt = QTextCharFormat()
            fmt.setBackground(_HIGHLIGHT)
            doc = self.fires_text.document()
            for s, e in sites.spans[:MAX_FIRE_SPANS]:
                cur = QTextCursor(doc)
                cur.setPosition(u16[s])
                end = u16[e] if u16[e] > u16[s] else u16[s] + 1
                cur.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                sel = QTextEdit.ExtraSelection()
                sel.cursor = cur
                sel.format = fmt
                selections.append(sel)
            first = QTextCursor(doc)
            first.setPosition(u16[sites.spans[0][0]])
            self.fires_text.setTextCursor(first)
            self.fires_text.ensureCursorVisible()
        self.fires_text.setExtraSelections(selections)
        self.fires_table.setRowCount(0)
        rows = sites.chunks[:MAX_FIRE_CHUNKS]
        self.fires_table.setRowCount(len(rows))
        for r, (chunk, count) in enumerate(rows):
            shown = token_display(chunk.encode("utf-8"), visible_spaces=True, control_pictures=theme.control_pictures())
            item = QTableWidgetItem(shown)
            item.setToolTip(chunk.encode("utf-8").hex(" ").upper())
            self.fires_table.setItem(r, 0, item)
            c = QTableWidgetItem(f"{count:,}")
            c.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.fires_table.setItem(r, 1, c)
        self.state.merge_fires.emit(list(sites.spans))


__all__ = ["MergesPane", "VisibleSpaceDelegate", "byte_to_utf16"]
