"""The byte inspector's code point table: one row per code point of the inspected text."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem, QWidget

from tokexplorer.core.text import utf8
from tokexplorer.gui.widgets.glyphs import visible_char

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


class CodePointTable(QTableWidget):
    """Code points of a text: #, code point, char, name, UTF-8 bytes, grapheme.

    Invisible characters are shown by :func:`~tokexplorer.gui.widgets.glyphs.visible_char`,
    an invalid byte (raw-bytes mode) as ``✗`` and ``"invalid"``; the name cell's
    tooltip is the code point's full label.

    Attributes:
        rows: the rows shown, as :data:`CodePointRow` (at most :data:`MAX_TABLE_ROWS`).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 6, parent)
        self.rows: list[CodePointRow] = []
        self.setHorizontalHeaderLabels(["#", "code point", "char", "name", "UTF-8 bytes", "grapheme"])
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.verticalHeader().hide()
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.horizontalHeader().setStretchLastSection(True)

    def show_analysis(self, analysis: utf8.Utf8Analysis) -> None:
        """List the code points of ``analysis`` (the first :data:`MAX_TABLE_ROWS`)."""
        cps = analysis.code_points[:MAX_TABLE_ROWS]
        self.rows = [code_point_row(cp, analysis.data) for cp in cps]
        font = self.font()
        self.setUpdatesEnabled(False)
        try:
            self.clearContents()
            self.setRowCount(len(self.rows))
            for r, (cp, row) in enumerate(zip(cps, self.rows)):
                if cp.invalid:
                    shown = "\u2717"
                elif cp.char.isprintable() and not cp.char.isspace():
                    shown = row[1]
                else:
                    shown = visible_char(cp.char, font)
                cells = (str(cp.index), row[0] if not cp.invalid else "invalid", shown, row[2], row[3], str(row[4]))
                for c, value in enumerate(cells):
                    item = QTableWidgetItem(value)
                    if c == 3:
                        item.setToolTip(cp.label)
                    self.setItem(r, c, item)
        finally:
            self.setUpdatesEnabled(True)
