"""The window's status bar: a message too long for the window is cut with "…" at the end,
the whole of it in the tooltip (a plain QStatusBar clips it mid-word at the right edge)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QStatusBar, QStyle, QStyleOption, QWidget

_MARGIN = 6  # pixels left free at each end of the message


class StatusLine(QStatusBar):
    """A :class:`QStatusBar` whose message (:meth:`currentMessage`) is drawn whole when it
    fits, else cut with "…" to the width, the whole message then in the tooltip.

    Args:
        parent: Qt parent widget.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.messageChanged.connect(self._update_tip)

    def shown_text(self) -> str:
        """The message as drawn now: whole, or cut with "…" to the room it has."""
        room = self._room()
        return self.fontMetrics().elidedText(self.currentMessage(), Qt.TextElideMode.ElideRight, room)

    def is_cut(self) -> bool:
        """True when the message does not fit and is cut."""
        return self.shown_text() != self.currentMessage()

    def drop(self, part: str) -> None:
        """Take ``part`` out of the message shown (with the " · " joining it to the rest) once
        what it says is no longer true; the message is cleared when nothing else is left."""
        current = self.currentMessage()
        if not part or part not in current:
            return
        rest = current.replace(f" · {part}", "").replace(part, "")
        if rest:
            self.showMessage(rest)
        else:
            self.clearMessage()

    def _room(self) -> int:
        grip = 16 if self.isSizeGripEnabled() else 0
        return max(1, self.width() - 2 * _MARGIN - grip)

    def _update_tip(self, *_args: object) -> None:
        self.setToolTip(self.currentMessage() if self.is_cut() else "")

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._update_tip()

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        if not self.currentMessage():
            super().paintEvent(event)
            return
        painter = QPainter(self)
        option = QStyleOption()
        option.initFrom(self)
        self.style().drawPrimitive(QStyle.PrimitiveElement.PE_PanelStatusBar, option, painter, self)
        painter.setPen(self.palette().windowText().color())
        rect = self.rect().adjusted(_MARGIN, 0, -_MARGIN, 0)
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, self.shown_text())
