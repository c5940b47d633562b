"""Columns as wide as their header and their widest cell, over the rows of the whole table.

Qt's ``resizeColumnsToContents`` measures the rows near the screen only, so a long
piece or a large count further down is cut with "…". :func:`fit_columns` measures
the display text of every row (of a sample spread over the table when it is long).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QTableView

#: Room around a cell's text, in pixels (the style's margins and a little air).
CELL_PADDING = 14

#: Tables with more rows than this are measured on a sample of about this many rows:
#: the first and last ones and rows spread evenly between.
MEASURED_ROWS = 6_000

#: In each column, only the texts with the most characters are measured in pixels.
MEASURED_TEXTS = 40


def sample_rows(n: int, *, limit: int = MEASURED_ROWS) -> list[int]:
    """The rows :func:`fit_columns` reads of a table of ``n`` rows: all of them up to
    ``limit``, else the first and last ``limit // 3`` and ``limit // 3`` spread between.

    >>> sample_rows(5), len(sample_rows(100_000)), sample_rows(100_000)[-1]
    ([0, 1, 2, 3, 4], 6000, 99999)
    """
    if n <= limit:
        return list(range(n))
    third = limit // 3
    step = (n - 2 * third) / third
    middle = {third + int(i * step) for i in range(third)}
    return sorted(set(range(third)) | middle | set(range(n - third, n)))


def fit_columns(view: QTableView, *, skip: tuple[int, ...] = ()) -> None:
    """Make each column of ``view`` (except those in ``skip``) as wide as its header
    (sort arrow included) and its widest display text over :func:`sample_rows`, in
    the cell's font (the model's ``FontRole``) when it gives one."""
    model, header = view.model(), view.horizontalHeader()
    rows = sample_rows(model.rowCount())
    display, font_role = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole
    for col in range(model.columnCount()):
        if col in skip:
            continue
        texts = {str(model.data(model.index(r, col), display) or "") for r in rows}
        longest = sorted(texts, key=len, reverse=True)[:MEASURED_TEXTS]
        font = model.data(model.index(rows[0], col), font_role) if rows else None
        fm = QFontMetrics(font) if isinstance(font, QFont) else view.fontMetrics()
        widest = max((fm.horizontalAdvance(t) for t in longest), default=0)
        view.setColumnWidth(col, max(header.sectionSizeHint(col), widest + CELL_PADDING))
