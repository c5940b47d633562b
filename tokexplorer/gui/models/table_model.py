"""The part every flat table model of the GUI shares: fixed column titles over a list of rows.

:class:`TitledTableModel` answers Qt's ``rowCount``, ``columnCount`` and
``headerData`` from the titles and from :meth:`~TitledTableModel.row_count`, and
Qt's ``data`` from :meth:`~TitledTableModel.cell_data` for the indexes that are
cells of the table (None for the others).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

#: Either kind of model index Qt passes to a model.
AnyIndex = QModelIndex | QPersistentModelIndex


class TitledTableModel(QAbstractTableModel):
    """A flat table with fixed column titles (and, optionally, their tooltips).

    Args:
        titles: the column titles, in order (one column each).
        title_tips: the header tooltip of each column, in the same order; empty:
            no header tooltips.
        parent: Qt parent object.

    Subclasses give :meth:`row_count` and :meth:`cell_data`.
    """

    def __init__(
        self,
        titles: Sequence[str],
        *,
        title_tips: Sequence[str] = (),
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._titles = tuple(titles)
        self._title_tips = tuple(title_tips)

    def row_count(self) -> int:
        """Rows in the table now."""
        raise NotImplementedError

    def cell_data(self, row: int, col: int, role: int) -> Any:
        """What ``data()`` gives for the cell at ``row``, ``col`` (both in range) in ``role``."""
        raise NotImplementedError

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        row, col = index.row(), index.column()
        if not index.isValid() or not 0 <= row < self.row_count() or not 0 <= col < len(self._titles):
            return None
        return self.cell_data(row, col, role)

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else self.row_count()

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._titles)

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal or not 0 <= section < len(self._titles):
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return self._titles[section]
        if role == Qt.ItemDataRole.ToolTipRole and self._title_tips:
            return self._title_tips[section]
        return None

    def set_title_tip(self, section: int, tip: str) -> None:
        """Make ``tip`` the header tooltip of column ``section`` (in range; the model was
        given ``title_tips``) and tell the views."""
        tips = list(self._title_tips)
        tips[section] = tip
        self._title_tips = tuple(tips)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, section, section)
