"""The byte inspector's code point table: one row per code point of the inspected text.

The rows live in a Qt item model and cells are made when they are drawn, so
showing a part with thousands of code points costs one small tuple per row, not
six widgets per row.
"""

from __future__ import annotations

import heapq

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QTableView, QWidget

from tokexplorer.core.text import utf8
from tokexplorer.gui.widgets.glyphs import visible_char
from tokexplorer.gui.widgets.table_fit import ColumnShare

MAX_TABLE_ROWS = 5_000
"""At most this many code points are listed in the table."""

#: Room around a cell's text, in pixels (the style's margins and a little air).
CELL_PADDING = 12

#: How many of a column's longest texts (in characters) :meth:`CodePointTable.fit_columns`
#: measures with the font: width follows length closely enough among the widest.
FIT_CANDIDATES = 64


def _width_guess(text: str) -> tuple[int, int]:
    """Order for picking a column's widest texts: longer first, then those holding higher
    code points (CJK and emoji glyphs are wider than Latin ones at the same length)."""
    return len(text), max(map(ord, text), default=0)

CodePointRow = tuple[str, str, str, str, int]

HEADERS = ("#", "code point", "char", "name", "UTF-8 bytes", "grapheme")

_Index = QModelIndex | QPersistentModelIndex


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


class _CodePointModel(QAbstractTableModel):
    """The rows of :class:`CodePointTable`; cell texts are made on demand."""

    def __init__(self, font: QFont, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.font = font
        self.cps: tuple[utf8.CodePointInfo, ...] = ()
        self.rows: list[CodePointRow] = []

    def reset(self, cps: tuple[utf8.CodePointInfo, ...], rows: list[CodePointRow]) -> None:
        self.beginResetModel()
        self.cps, self.rows = cps, rows
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt override
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: N802, B008 - Qt override
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def cell(self, r: int, c: int) -> str:
        cp, row = self.cps[r], self.rows[r]
        if c == 0:
            return str(cp.index)
        if c == 1:
            return "invalid" if cp.invalid else row[0]
        if c == 2:
            if cp.invalid:
                return "\u2717"
            if cp.char.isprintable() and not cp.char.isspace():
                return row[1]
            return visible_char(cp.char, self.font)
        return (row[2], row[3], str(row[4]))[c - 3]

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell(index.row(), index.column())
        if role == Qt.ItemDataRole.ToolTipRole and index.column() == 3:
            return self.cps[index.row()].label
        return None


class CodePointTable(QTableView):
    """Code points of a text: #, code point, char, name, UTF-8 bytes, grapheme.

    Invisible characters are shown by :func:`~tokexplorer.gui.widgets.glyphs.visible_char`,
    an invalid byte (raw-bytes mode) as ``✗`` and ``"invalid"``; the name cell's
    tooltip is the code point's full label.

    Attributes:
        rows: the rows shown, as :data:`CodePointRow` (at most :data:`MAX_TABLE_ROWS`).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._model = _CodePointModel(self.font(), self)
        self.setModel(self._model)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.verticalHeader().hide()
        self.columns = ColumnShare(self, stretch=HEADERS.index("name"))  # the name takes the width left over
        self.fit_columns()

    @property
    def rows(self) -> list[CodePointRow]:
        return self._model.rows

    def rowCount(self) -> int:  # noqa: N802 - named like QTableWidget's
        """Number of rows shown."""
        return self._model.rowCount()

    def currentRow(self) -> int:  # noqa: N802 - named like QTableWidget's
        """The selected row, or -1."""
        return self.currentIndex().row()

    def cell(self, row: int, column: int) -> str:
        """The text shown in a cell (columns as in :data:`HEADERS`)."""
        return self._model.cell(row, column)

    def show_analysis(self, analysis: utf8.Utf8Analysis) -> None:
        """List the code points of ``analysis`` (the first :data:`MAX_TABLE_ROWS`), scrolled to the top."""
        cps = analysis.code_points[:MAX_TABLE_ROWS]
        self._model.reset(cps, [code_point_row(cp, analysis.data) for cp in cps])
        self.fit_columns()
        self.scrollToTop()

    def fit_columns(self) -> None:
        """Make every column as wide as its header and its widest cell in any row (the
        name also takes the width left over), not only the rows on screen (at most
        :data:`MAX_TABLE_ROWS` rows). Only the :data:`FIT_CANDIDATES` longest texts of a
        column are measured with the font: shaping every cell took 0.1-0.2 s of the GUI
        thread for each part of a large raw file (``bench/desktop_journey.py``)."""
        fm, header, n = self.fontMetrics(), self.horizontalHeader(), self._model.rowCount()
        wanted = {}
        for c in range(len(HEADERS)):
            texts = heapq.nlargest(FIT_CANDIDATES, {self._model.cell(r, c) for r in range(n)}, key=_width_guess)
            widest = max((fm.horizontalAdvance(t) for t in texts), default=0)
            wanted[c] = max(header.sectionSizeHint(c), widest + CELL_PADDING)
        self.columns.set_wanted(wanted)
