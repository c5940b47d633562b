"""Rows of controls and lines of text that wrap where the width runs out, so that no
fixed text or row makes a pane wider than the window (it works at 1,000 pixels).

A ``QHBoxLayout`` of a dozen controls is as wide as all of them together, and a
pane holding one cannot be narrower than that: at 1,000 pixels the window's right
edge cut the Compare tab's checkboxes off. :class:`FlowLayout` lays its items left
to right at their size hints and starts a new line before an item that would not
fit, so its narrowest width is that of its widest item; each line's items are
centred on the line's height (a check box beside a combo box). Hidden widgets take
no room. A ``QLabel`` is as wide as its text unless it wraps: :func:`wrapped` is
one that wraps.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLabel, QLayout, QLayoutItem, QWidget

__all__ = ["FlowLayout", "wrapped"]


def wrapped(text: str, parent: QWidget | None = None) -> QLabel:
    """A label whose ``text`` (plain or rich) wraps at word boundaries instead of widening its pane."""
    label = QLabel(text, parent)
    label.setWordWrap(True)
    return label


class FlowLayout(QLayout):
    """Items left to right at their size hints, wrapped onto as many lines as the width needs.

    Args:
        parent: the widget laid out (or None, to be added to another layout).
        spacing: pixels between items on a line and between lines.
    """

    def __init__(self, parent: QWidget | None = None, *, spacing: int = 6) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._gap = spacing
        self.setContentsMargins(0, 0, 0, 0)

    # -- QLayout's interface ------------------------------------------------------
    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 - Qt's name
        self._items.append(item)

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 - Qt's name
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 - Qt's name
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt's name
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt's name
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """Every item on one line."""
        hints = [item.sizeHint() for item in self._shown()]
        m = self.contentsMargins()
        width = sum(h.width() for h in hints) + self._gap * max(len(hints) - 1, 0)
        height = max((h.height() for h in hints), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    def minimumSize(self) -> QSize:  # noqa: N802 - Qt's name
        """The widest item's width (one item a line), the tallest item's height."""
        mins = [item.minimumSize().expandedTo(item.sizeHint()) for item in self._shown()]
        m = self.contentsMargins()
        width = max((s.width() for s in mins), default=0)
        height = max((s.height() for s in mins), default=0)
        return QSize(width + m.left() + m.right(), height + m.top() + m.bottom())

    # -- placing ---------------------------------------------------------------------
    def lines(self, width: int) -> list[list[QLayoutItem]]:
        """The shown items cut into lines that fit ``width`` pixels (an item wider than
        that gets a line of its own)."""
        m = self.contentsMargins()
        room = width - m.left() - m.right()
        lines: list[list[QLayoutItem]] = [[]]
        used = 0
        for item in self._shown():
            w = item.sizeHint().width()
            if lines[-1] and used + self._gap + w > room:
                lines.append([])
                used = 0
            used += (self._gap if lines[-1] else 0) + w
            lines[-1].append(item)
        return lines if lines[-1] else []

    def _shown(self) -> list[QLayoutItem]:
        return [item for item in self._items if not item.isEmpty()]

    def _place(self, rect: QRect, *, move: bool) -> int:
        """Lay the items out in ``rect`` (only measure when not ``move``); the height used."""
        m = self.contentsMargins()
        y = rect.y() + m.top()
        for n, line in enumerate(self.lines(rect.width())):
            y += self._gap * (n > 0)
            height = max(item.sizeHint().height() for item in line)
            x = rect.x() + m.left()
            for item in line:
                hint = item.sizeHint()
                if move:
                    item.setGeometry(QRect(QPoint(x, y + (height - hint.height()) // 2), hint))
                x += hint.width() + self._gap
            y += height
        return y + m.bottom() - rect.y()
