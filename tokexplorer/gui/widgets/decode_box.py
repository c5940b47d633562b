"""The decode box: type or paste token ids, see every id's bytes and the text.

For the chosen tokenizer the box shows, per id, its bytes in hex, the family's
spelling (the Hugging Face token string, the SentencePiece piece, or tiktoken's
bytes as a Python bytes literal), what an incremental
UTF-8 decoder emits after it and how many bytes it still holds back; below, the
joined text, the ill-formed stretches with their offsets, and whether the ids
are the canonical encoding of that text (see :mod:`tokexplorer.core.analysis.decoding`).
Decoding runs in a :class:`~tokexplorer.gui.workers.Worker` (latest request wins,
see :class:`~tokexplorer.gui.workers.LatestRequest`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import DecodeReport, decode_ids, parse_ids
from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.errors import TokexplorerError
from tokexplorer.gui import theme
from tokexplorer.gui.models.decode_model import DecodeRowsModel, shown
from tokexplorer.gui.plural import plural
from tokexplorer.gui.widgets.table_fit import wanted_widths
from tokexplorer.gui.workers import LatestRequest, user_message

MAX_ID_CHARS = 50_000_000
"""Characters the id field holds (Qt's default of 32,767 cut a list of some 6,000 ids short)."""

FIT_ROWS = 600
"""Rows (a sample spread over the table) whose texts size the columns."""

DEBOUNCE_MS = 200
"""Delay between the last keystroke in the id field and decoding, in milliseconds."""

class DecodeBox(QWidget):
    """Decode token ids for one of the loaded tokenizers.

    Args:
        tokenizers: a callable returning the current tokenizers (list of
            :class:`~tokexplorer.core.backends.base.Tokenizer`).
        text_source: a callable returning the text "Encode inspected text" fills in.
        parent: optional parent widget.

    Signals:
        decoded(object): a :class:`~tokexplorer.core.analysis.decoding.DecodeReport` is shown.

    Attributes:
        ids_edit: QLineEdit with the ids.
        tokenizer_combo: QComboBox of tokenizer names.
        table: one row per id (a QTableView of rows_model, a DecodeRowsModel).
        text_label, verdict_label, issues_label, error_label: the result lines.
        report: the report shown, or None.
    """

    decoded = Signal(object)

    def __init__(
        self,
        tokenizers: Callable[[], Sequence[Tokenizer]],
        text_source: Callable[[], str] | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._tokenizers = tokenizers
        self._text_source = text_source
        self._job = LatestRequest(self)
        self.report: DecodeReport | None = None

        self.tokenizer_combo = QComboBox(self)
        self.ids_edit = QLineEdit(self)
        self.ids_edit.setMaxLength(MAX_ID_CHARS)  # (Qt's default, 32,767, cut a pasted list silently)
        self.ids_edit.setPlaceholderText("token ids, e.g. 11410 234 232  or  [57352, 242, 116]")
        self.fill_button = QPushButton("Encode inspected text", self)
        self.fill_button.setToolTip("Put the ids of the inspected text (chosen tokenizer) in the field")
        self.fill_button.clicked.connect(self.fill_from_text)
        top = QHBoxLayout()
        top.addWidget(QLabel("Tokenizer:"))
        top.addWidget(self.tokenizer_combo)
        top.addWidget(self.ids_edit, 1)
        top.addWidget(self.fill_button)

        self.error_label = QLabel("")
        self.error_label.setStyleSheet(f"color: {theme.ERROR_TEXT.name()};")
        self.error_label.hide()
        self.text_label = QLabel("")
        self.text_label.setWordWrap(True)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.verdict_label = QLabel("")
        self.verdict_label.setWordWrap(True)
        self.issues_label = QLabel("")
        self.issues_label.setWordWrap(True)
        self.issues_label.setStyleSheet(f"color: {theme.ERROR_TEXT.name()};")

        self.rows_model = DecodeRowsModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.rows_model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setStretchLastSection(True)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(top)
        lay.addWidget(self.error_label)
        lay.addWidget(self.text_label)
        lay.addWidget(self.verdict_label)
        lay.addWidget(self.issues_label)
        lay.addWidget(self.table, 1)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self.decode_now)
        self.ids_edit.textChanged.connect(self._debounce.start)
        self.tokenizer_combo.currentIndexChanged.connect(lambda _i: self._debounce.start())
        self.refresh_tokenizers()

    # ------------------------------------------------------------------ public API

    def refresh_tokenizers(self) -> None:
        """Re-read the tokenizer list, keeping the chosen one when it is still there."""
        current = self.tokenizer_combo.currentText()
        names = [t.name for t in self._tokenizers()]
        self.tokenizer_combo.blockSignals(True)
        self.tokenizer_combo.clear()
        self.tokenizer_combo.addItems(names)
        if current in names:
            self.tokenizer_combo.setCurrentIndex(names.index(current))
        self.tokenizer_combo.blockSignals(False)
        self._debounce.start()

    def set_ids(self, ids: Sequence[int], tokenizer_name: str | None = None) -> None:
        """Put ``ids`` in the field (and choose ``tokenizer_name``); decoding follows."""
        if tokenizer_name is not None:
            i = self.tokenizer_combo.findText(tokenizer_name)
            if i >= 0:
                self.tokenizer_combo.setCurrentIndex(i)
        self.ids_edit.setText(" ".join(str(i) for i in ids))

    def fill_from_text(self) -> None:
        """Encode the inspected text with the chosen tokenizer and show its ids."""
        tok = self._current()
        if tok is None or self._text_source is None:
            return
        try:
            ids = tok.encode(self._text_source())
        except TokexplorerError as exc:
            self._show_error(str(exc))
            return
        self.set_ids(ids)

    def decode_now(self) -> None:
        """Decode the field's ids now (no debounce); :attr:`decoded` follows."""
        self._debounce.stop()
        tok = self._current()
        text = self.ids_edit.text()
        if tok is None:
            self._show_error("no tokenizer loaded")
            return
        try:
            ids = parse_ids(text)
        except TokexplorerError as exc:
            self._show_error(str(exc))
            return
        glyphs = theme.control_pictures()  # read here, in the GUI thread

        def job(_cancel: object) -> tuple[DecodeReport, str]:
            report = decode_ids(tok, ids, control_pictures=glyphs)  # the text shown too, off the GUI thread
            return report, shown(report.text, control_pictures=glyphs) if report.text else ""

        self._job.start(
            job,
            on_result=lambda result: self._on_result(*result),
            on_error=lambda exc: self._show_error(user_message(exc)),
        )

    # ------------------------------------------------------------------ internals

    def _current(self) -> Tokenizer | None:
        name = self.tokenizer_combo.currentText()
        for t in self._tokenizers():
            if t.name == name:
                return t
        return None

    def _show_error(self, message: str) -> None:
        self.error_label.setText("\u26a0 " + message)
        self.error_label.show()
        self.report = None
        self.rows_model.set_tokens(())
        for lab in (self.text_label, self.verdict_label, self.issues_label):
            lab.setText("")
        self.decoded.emit(None)

    def _on_result(self, report: DecodeReport, text: str) -> None:
        if report.error is not None:
            self._show_error(report.error)
            return
        self.error_label.hide()
        self.report = report
        self.text_label.setText(
            f"text ({plural(len(report.data), 'byte')}, {plural(len(report.text), 'code point')}): "
            f"\u201c{text}\u201d"
        )
        self.verdict_label.setText(report.verdict)
        self.issues_label.setText(
            "\n".join(f"\u26a0 byte {i.offset}: {i.reason}" for i in report.issues[:20])
        )
        self.rows_model.set_tokens(report.tokens)
        for col, width in wanted_widths(self.table, limit=FIT_ROWS).items():  # a sample of many rows
            self.table.setColumnWidth(col, width)
        self.decoded.emit(report)

    def rows(self) -> list[tuple[str, ...]]:
        """The table's rows as strings (for tests)."""
        m = self.rows_model
        return [tuple(m.cell_text(r, c) for c in range(m.columnCount())) for r in range(m.rowCount())]
