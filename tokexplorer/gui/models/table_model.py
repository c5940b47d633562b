"""The part every flat table model of the GUI shares: fixed column titles over a list of rows.

:class:`TitledTableModel` answers Qt's ``rowCount``, ``columnCount`` and
``headerData`` from the titles and from :meth:`~TitledTableModel.row_count`, and
Qt's ``data`` from :meth:`~TitledTableModel.cell_data` for the indexes that are
cells of the table (None for the others). :class:`ValueRowsModel` adds what the
sortable tables of one value per cell share (the Unigram vocabulary, the WordPiece
score table): the raw values in :data:`RawRole`, numbers aligned right, and sorting
by a column with ties in a fixed column's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)

#: Either kind of model index Qt passes to a model.
AnyIndex = QModelIndex | QPersistentModelIndex

#: Item data role returning the raw value a column sorts by (int, float or str).
RawRole = int(Qt.ItemDataRole.UserRole) + 1

T = TypeVar("T")

_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


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


class ValueRowsModel(TitledTableModel, Generic[T]):
    """Items shown one a row, a tuple of raw values each, sortable by any column.

    Args:
        titles: the column titles, in order.
        title_tips: the header tooltips, in the same order.
        tie_column: the column whose values order the rows that tie on the sort column
            (an id or a step: unique per item).
        parent: Qt parent object.

    Subclasses give :meth:`values` (an item's raw values, one per column) and
    :meth:`display` (a cell's text), and may give :meth:`more_data` for other roles.
    :data:`RawRole` gives the raw value; int and float values are aligned right.
    """

    def __init__(
        self, titles: Sequence[str], *, title_tips: Sequence[str], tie_column: int, parent: QObject | None = None
    ) -> None:
        super().__init__(titles, title_tips=title_tips, parent=parent)
        self._tie = tie_column
        self._items: list[T] = []
        self._rows: list[tuple] = []

    def values(self, item: T) -> tuple:
        """The raw values of one item, one per column."""
        raise NotImplementedError

    def display(self, row: int, col: int, value: Any) -> str:
        """The text of the cell at ``row``, ``col`` whose raw value is ``value``."""
        raise NotImplementedError

    def more_data(self, row: int, col: int, role: int) -> Any:
        """A cell's data in roles other than display, raw value and alignment (None by default)."""
        return None

    def set_items(self, items: Sequence[T]) -> None:
        """Show these items, in this order (one model reset)."""
        self.beginResetModel()
        self._items = list(items)
        self._rows = [self.values(item) for item in self._items]
        self.endResetModel()

    def item_at(self, row: int) -> T:
        """The item shown at ``row``."""
        return self._items[row]

    def row_count(self) -> int:
        return len(self._rows)

    def cell_data(self, row: int, col: int, role: int) -> Any:
        value = self._rows[row][col]
        if role == RawRole:
            return value
        if role == Qt.ItemDataRole.DisplayRole:
            return self.display(row, col, value)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return _RIGHT if isinstance(value, (int, float)) else None
        return self.more_data(row, col, role)

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort the rows by ``column`` (ties in the order of the tie column); one layout change."""
        if not 0 <= column < len(self._titles):
            return
        self.layoutAboutToBeChanged.emit()
        reverse = order == Qt.SortOrder.DescendingOrder
        pairs = sorted(zip(self._rows, self._items), key=lambda ri: (ri[0][column], ri[0][self._tie]), reverse=reverse)
        self._rows = [r for r, _ in pairs]
        self._items = [i for _, i in pairs]
        self.layoutChanged.emit()
