"""The byte inspector: how a text is laid out in UTF-8 and where tokens cut it.

The text defaults to the compare pane's sample text; a token hovered there
(``AppState.inspect_requested``) brings its text here with the token's byte range
highlighted; the user can also type. The pane shows a :class:`ByteView` (bytes,
code points, grapheme clusters and one token track per tokenizer on one byte
axis), a table of the code points and, per tokenizer, the cuts: tokens that hold
only part of a character (``"E4 BD = bytes 1–2 of 3 of U+4F60 你"``) and token
boundaries inside a grapheme cluster.

Analysis and tokenization run in one :class:`~tokexplorer.gui.workers.Worker` per
change (latest wins); a tokenizer's error is shown as one line in its track.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core import utf8
from tokexplorer.core.backends.base import Tokenizer
from tokexplorer.core.errors import Cancelled, TokexplorerError
from tokexplorer.core.types import SpecialPolicy, Tokenization
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.byte_view import ByteView, TokenTrack
from tokexplorer.gui.workers import Worker

DEBOUNCE_MS = 250
"""Delay between the last keystroke and re-analysing, in milliseconds."""

MAX_TABLE_ROWS = 5_000
"""At most this many code points are listed in the table."""

CodePointRow = tuple[str, str, str, str, int]


def code_point_row(cp: utf8.CodePointInfo, data: bytes) -> CodePointRow:
    """One table row: ``("U+1F600", "😀", "GRINNING FACE", "F0 9F 98 80", 0)``
    (code point, the character, its name, its UTF-8 bytes in hex, grapheme index)."""
    return (
        f"U+{cp.value:04X}",
        cp.char,
        cp.name,
        data[cp.byte_start : cp.byte_end].hex(" ").upper(),
        cp.grapheme_index,
    )


def describe_cuts(tokenization: Tokenization, analysis: utf8.Utf8Analysis) -> list[str]:
    """Lines for the cut list of one tokenizer, in byte order.

    * a partial token: ``"E4 BD = bytes 1–2 of 3 of U+4F60 你"`` (its bytes in hex
      and :func:`tokexplorer.core.utf8.describe_partial_token`);
    * a token boundary between two code points of one grapheme cluster:
      ``"cut at byte 4 inside grapheme 0 (👨‍👩‍👧) between U+1F468 and U+200D"``.
    """
    if not tokenization.exact_offsets:
        return []
    lines: list[str] = []
    grapheme_cuts = {c.byte_offset: c for c in utf8.cuts(analysis, tokenization) if c.kind == "grapheme"}
    for tok in tokenization.tokens:
        cut = grapheme_cuts.get(tok.byte_start)
        if cut is not None:
            g = analysis.graphemes[cut.index]
            left = analysis.code_point_at(cut.byte_offset - 1)
            right = analysis.code_point_at(cut.byte_offset)
            lines.append(
                f"cut at byte {cut.byte_offset} inside grapheme {g.index} ({g.text}) "
                f"between U+{left.value:04X} and U+{right.value:04X}"
            )
        if tok.partial and tok.bytes:
            desc = utf8.describe_partial_token(tok.bytes, tok.byte_start, analysis)
            lines.append(f"{tok.bytes.hex(' ').upper()} = {desc}")
    return lines


def _inspect(
    text: str,
    tokenizers: Sequence[Tokenizer],
    policy: SpecialPolicy,
    cancel: Callable[[], bool],
) -> tuple[utf8.Utf8Analysis, list[tuple[str, Tokenization | str, list[str], tuple[tuple[int, str], ...]]]]:
    """Worker body: analysis of ``text`` and, per tokenizer, its result and cuts."""
    analysis = utf8.analyze(text)
    out = []
    for tok in tokenizers:
        if cancel():
            raise Cancelled("cancelled")
        try:
            tz = tok.tokenize(text, special=policy)
        except TokexplorerError as exc:
            out.append((tok.name, str(exc), [], ()))
            continue
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - shown in the track, never a traceback
            first = (str(exc).strip().splitlines() or [""])[0]
            out.append((tok.name, f"{type(exc).__name__}: {first}" if first else type(exc).__name__, [], ()))
            continue
        if tz.exact_offsets and tz.text == analysis.text:
            cut_marks = tuple((c.byte_offset, c.kind) for c in utf8.cuts(analysis, tz))
            lines = describe_cuts(tz, analysis)
        else:
            cut_marks, lines = (), []
        out.append((tok.name, tz, lines, cut_marks))
    return analysis, out


class BytesPane(QWidget):
    """The UTF-8 byte inspector.

    Args:
        state: the shared :class:`AppState`.
        parent: optional parent widget.

    Signals:
        updated(): the view, table and cut list show the current text.

    Attributes:
        editor: QPlainTextEdit with the inspected text.
        byte_view: the :class:`ByteView` (inside :attr:`scroll`).
        table: QTableWidget of code points (#, code point, char, name, bytes, grapheme).
        cuts_tree: QTreeWidget: one item per tokenizer, its cut lines as children.
        analysis: the ``Utf8Analysis`` of the text shown, or None before the first update.
    """

    updated = Signal()

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.analysis: utf8.Utf8Analysis | None = None
        self._results: dict[str, tuple[Tokenization | str, list[str]]] = {}
        self._rows: list[CodePointRow] = []
        self._gen = 0
        self._worker: Worker | None = None
        self._pending_highlight: tuple[int, int] = (-1, -1)
        self._text = state.sample_text

        self.editor = QPlainTextEdit(self)
        self.editor.setPlaceholderText("Text to inspect…")
        self.editor.setMaximumHeight(90)
        self.editor.setPlainText(self._text)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._commit_text)
        self.editor.textChanged.connect(self._debounce.start)

        self.summary = QLabel("")
        self.notes_label = QLabel("")
        self.notes_label.setWordWrap(True)
        self.notes_label.hide()

        self.byte_view = ByteView()
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.byte_view)

        self.table = QTableWidget(0, 6, self)
        self.table.setHorizontalHeaderLabels(["#", "code point", "char", "name", "UTF-8 bytes", "grapheme"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)

        self.cuts_tree = QTreeWidget(self)
        self.cuts_tree.setHeaderLabels(["cuts per tokenizer"])

        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(self.table)
        bottom.addWidget(self.cuts_tree)
        bottom.setStretchFactor(0, 3)
        bottom.setStretchFactor(1, 2)
        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(self.scroll)
        main.addWidget(bottom)
        main.setStretchFactor(0, 3)
        main.setStretchFactor(1, 2)

        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.editor)
        lay.addWidget(self.summary)
        lay.addWidget(self.notes_label)
        lay.addWidget(main, 1)

        state.sample_text_changed.connect(self._on_sample_text)
        state.inspect_requested.connect(self.inspect)
        state.token_hovered.connect(self._on_token_hovered)
        state.tokenizers_changed.connect(self._refresh)
        state.special_policy_changed.connect(self._refresh)
        self._refresh()

    # ------------------------------------------------------------------ public API

    def set_text(self, text: str) -> None:
        """Inspect ``text`` (no debounce); :attr:`updated` follows."""
        self.inspect(text, -1, -1)

    def inspect(self, text: str, start: int, end: int) -> None:
        """Inspect ``text`` with bytes [start, end) highlighted (``end <= start``: none)."""
        self._debounce.stop()
        if self.editor.toPlainText() != text:
            self.editor.blockSignals(True)
            self.editor.setPlainText(text)
            self.editor.blockSignals(False)
        if text != self._text or self.analysis is None:
            self._text = text
            self._pending_highlight = (start, end)
            self._refresh()
        else:
            self._apply_highlight(start, end)

    def text(self) -> str:
        """The inspected text."""
        return self._text

    def code_point_rows(self) -> list[CodePointRow]:
        """The code point table's rows: ``(code point, char, name, bytes hex, grapheme index)``."""
        return list(self._rows)

    def cut_descriptions(self, tokenizer_name: str) -> list[str]:
        """The cut lines listed for a tokenizer (see :func:`describe_cuts`).

        Raises:
            KeyError: no tokenizer of that name is shown.
        """
        return list(self._results[tokenizer_name][1])

    def track_error(self, tokenizer_name: str) -> str | None:
        """The one-line error shown in a tokenizer's track, or None."""
        res = self._results[tokenizer_name][0]
        return res if isinstance(res, str) else None

    # ------------------------------------------------------------------ updates

    def _commit_text(self) -> None:
        text = self.editor.toPlainText()
        if text != self._text:
            self._text = text
            self._pending_highlight = (-1, -1)
            self._refresh()

    def _on_sample_text(self, text: str) -> None:
        self.set_text(text)

    def _on_token_hovered(self, _name: str, start: int, end: int) -> None:
        if self._text == self.state.sample_text and start < 0:
            return  # keep the last highlight when the mouse leaves a token
        if self._text == self.state.sample_text:
            self._apply_highlight(start, end)

    def _apply_highlight(self, start: int, end: int) -> None:
        self.byte_view.set_highlight(start, end)
        if 0 <= start < end:
            row = self.byte_view.row_of_byte(start)
            y = int(self.byte_view.row_top(row))
            self.scroll.ensureVisible(0, y, 0, 0)
            if self.analysis is not None and start < len(self.analysis.data):
                cp = self.analysis.bytes[start].cp_index
                if cp < self.table.rowCount():
                    self.table.selectRow(cp)

    def _refresh(self) -> None:
        self._gen += 1
        gen = self._gen
        if self._worker is not None:
            self._worker.cancel()
        text = self._text
        tokenizers = list(self.state.tokenizers)
        policy = self.state.special_policy
        worker = Worker(lambda cancel: (gen, _inspect(text, tokenizers, policy, cancel)))
        worker.signals.returned.connect(self._on_result)
        worker.signals.errored.connect(self._on_error)
        self._worker = worker
        worker.start()

    def _on_error(self, message: str) -> None:
        self.state.status.emit(f"byte inspector: {message}")

    def _on_result(self, result: Any) -> None:
        gen, (analysis, per_tok) = result
        if gen != self._gen:
            return  # stale
        self.analysis = analysis
        self._results = {name: (res, lines) for name, res, lines, _ in per_tok}
        tracks = [
            TokenTrack(name, res if not isinstance(res, str) else None,
                       res if isinstance(res, str) else None, cut_marks)
            for name, res, _lines, cut_marks in per_tok
        ]
        self.byte_view.set_data(analysis, tracks)
        self._fill_table(analysis)
        self._fill_cuts(per_tok)
        n_b, n_cp, n_g = len(analysis.data), len(analysis.code_points), len(analysis.graphemes)
        self.summary.setText(
            f"{n_b:,} bytes · {n_cp:,} code points · {n_g:,} grapheme clusters"
        )
        if analysis.notes:
            self.notes_label.setText("⚠ " + "; ".join(analysis.notes))
            self.notes_label.show()
        else:
            self.notes_label.hide()
        self._apply_highlight(*self._pending_highlight)
        self.updated.emit()

    def _fill_table(self, analysis: utf8.Utf8Analysis) -> None:
        cps = analysis.code_points[:MAX_TABLE_ROWS]
        self._rows = [code_point_row(cp, analysis.data) for cp in cps]
        self.table.setUpdatesEnabled(False)
        try:
            self.table.clearContents()
            self.table.setRowCount(len(self._rows))
            for r, (cp, row) in enumerate(zip(cps, self._rows)):
                shown = row[1] if (cp.char.isprintable() and not cp.char.isspace()) else ""
                if ord(cp.char) < 0x20:
                    shown = chr(0x2400 + ord(cp.char))
                cells = (str(cp.index), row[0], shown, row[2], row[3], str(row[4]))
                for c, value in enumerate(cells):
                    item = QTableWidgetItem(value)
                    if c == 3:
                        item.setToolTip(cp.label)
                    self.table.setItem(r, c, item)
        finally:
            self.table.setUpdatesEnabled(True)

    def _fill_cuts(self, per_tok) -> None:
        self.cuts_tree.clear()
        for name, res, lines, cut_marks in per_tok:
            if isinstance(res, str):
                top = QTreeWidgetItem([f"{name}: ⚠ {res}"])
            else:
                n_cp = sum(1 for _, k in cut_marks if k == "code point")
                n_g = len(cut_marks) - n_cp
                top = QTreeWidgetItem(
                    [f"{name}: {len(res.tokens):,} tokens · {n_cp} cuts inside code points · "
                     f"{n_g} inside grapheme clusters"]
                )
                for line in lines:
                    top.addChild(QTreeWidgetItem([line]))
            self.cuts_tree.addTopLevelItem(top)
            top.setExpanded(True)
