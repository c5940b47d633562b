"""The merge table pane: every learned merge of the current BPE model.

Shows ``AppState.bpe`` (updated on ``bpe_changed``) in a sortable table with a
filter box. The filter matches the Left, Right and Merged token text; in hex
mode (``e4 bd``) it matches bytes inside the merged token. The table is built
for large models: fixed row heights, no resizing rows to their contents.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelection, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.gui.models.merge_model import (
    COL_BYTES,
    COL_COUNT,
    COL_LEFT,
    COL_MERGED,
    COL_RANK,
    COL_RIGHT,
    MergeFilterProxy,
    MergeTableModel,
    parse_hex,
)
from tokexplorer.gui.state import AppState


class MergesPane(QWidget):
    """Merge table of the current BPE model with a text / hex filter.

    Args:
        state: the shared application state; the pane follows ``state.bpe``.
        parent: Qt parent widget.

    Attributes:
        model: the :class:`MergeTableModel` (source model).
        proxy: the :class:`MergeFilterProxy` the view shows.
        view: the QTableView.
        filter_edit: the filter QLineEdit.
        hex_check: the "hex" QCheckBox (filter by bytes).
        count_label: QLabel reading ``"N merges (M shown)"``.
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.model = MergeTableModel(self)
        self.proxy = MergeFilterProxy(self)
        self.proxy.setSourceModel(self.model)

        self.title_label = QLabel(
            "No BPE model yet: train one in the Corpus tab or open a model file."
        )
        self.title_label.setWordWrap(True)

        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(
            "Filter merges by token text (e.g.  the) or, in hex mode, by bytes (e.g. e4 bd)"
        )
        self.filter_edit.setClearButtonEnabled(True)
        self.hex_check = QCheckBox("hex")
        self.hex_check.setToolTip(
            "Match bytes inside the merged token, written as hex pairs: e4 bd"
        )
        self.count_label = QLabel()
        self.count_label.setMinimumWidth(160)
        self.count_label.setAlignment(
            Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        )

        top = QHBoxLayout()
        top.addWidget(QLabel("Filter:"))
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.hex_check)
        top.addWidget(self.count_label)

        self.view = QTableView()
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.horizontalHeader().setSortIndicator(
            COL_RANK, Qt.SortOrder.AscendingOrder
        )
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setWordWrap(False)
        self.view.setAlternatingRowColors(True)
        vh = self.view.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 6)
        vh.setVisible(False)
        hh = self.view.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        hh.setStretchLastSection(True)
        for col, width in (
            (COL_RANK, 80),
            (COL_LEFT, 160),
            (COL_RIGHT, 160),
            (COL_MERGED, 220),
            (COL_BYTES, 60),
            (COL_COUNT, 100),
        ):
            self.view.setColumnWidth(col, width)

        layout = QVBoxLayout(self)
        layout.addWidget(self.title_label)
        layout.addLayout(top)
        layout.addWidget(self.view, 1)

        # Debounce typing: filtering 100,000 rows takes a moment.
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(150)
        self._filter_timer.timeout.connect(self.apply_filter)
        self.filter_edit.textChanged.connect(self._filter_timer.start)
        self.hex_check.toggled.connect(self.apply_filter)
        self.filter_edit.returnPressed.connect(self.apply_filter)
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        self.proxy.rowsInserted.connect(self._update_count)
        self.proxy.rowsRemoved.connect(self._update_count)
        self.proxy.modelReset.connect(self._update_count)
        self.proxy.layoutChanged.connect(self._update_count)

        state.bpe_changed.connect(self.set_bpe)
        self.set_bpe(state.bpe)

    # -- public ------------------------------------------------------------------

    def set_bpe(self, bpe: Any) -> None:
        """Show the merges of ``bpe`` (a ``tokexplorer.core.bpe.BPE``) or none (None)."""
        if bpe is None:
            self.model.clear()
            self.title_label.setText(
                "No BPE model yet: train one in the Corpus tab or open a model file."
            )
        else:
            self.model.set_merges(bpe.merges, bpe.vocab)
            pattern = getattr(bpe, "pattern_name", None) or "custom"
            n_special = len(getattr(bpe, "special_tokens", {}) or {})
            self.title_label.setText(
                f"{getattr(bpe, 'name', 'BPE')} · {pattern} pre-tokenizer · vocab {bpe.vocab_size:,}"
                f" ({n_special} special tokens) · merges in rank order (lower rank merges first)"
            )
        self.view.horizontalHeader().setSortIndicator(
            COL_RANK, Qt.SortOrder.AscendingOrder
        )
        self._update_count()

    def apply_filter(self) -> None:
        """Apply the filter box now (normally debounced while typing)."""
        self._filter_timer.stop()
        text = self.filter_edit.text()
        if self.hex_check.isChecked() and text.strip():
            try:
                wanted = parse_hex(text)
            except ValueError:
                self.filter_edit.setStyleSheet("QLineEdit { background: #ffe0e0; }")
                self.count_label.setText("not hex: use pairs like e4 bd")
                return
            self.filter_edit.setStyleSheet("")
            self.proxy.set_filter("", hex_bytes=wanted)
        else:
            self.filter_edit.setStyleSheet("")
            self.proxy.set_filter(text if text.strip() else "")
        self._update_count()

    def shown_count(self) -> int:
        """Number of merges shown after filtering."""
        return self.proxy.rowCount()

    # -- internals ---------------------------------------------------------------

    def _update_count(self, *args: Any) -> None:
        total = self.model.rowCount()
        shown = self.proxy.rowCount()
        self.count_label.setText(f"{total:,} merges ({shown:,} shown)")

    def _on_selection(
        self, selected: QItemSelection, _deselected: QItemSelection
    ) -> None:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return
        src = self.proxy.mapToSource(rows[0])
        if not src.isValid():
            return
        merge = self.model.merge_at(src.row())
        raw = merge.merged
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        if text:
            self.state.inspect_requested.emit(text, 0, len(raw))
        self.state.status.emit(
            f"merge #{merge.rank}: {self.model.token_text(merge.left)!s} + "
            f"{self.model.token_text(merge.right)!s} → token {merge.new_id} ({raw.hex(' ').upper()})"
        )
