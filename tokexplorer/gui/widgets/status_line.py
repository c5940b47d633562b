"""The window's status bar: a message too long for the window is cut with "…" at the end,
the whole of it in the tooltip (a plain QStatusBar clips it mid-word at the right edge).
A message belongs to the tab that was current when it was shown: it is cleared when
another tab becomes current (:meth:`StatusLine.follow_tabs`)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QPainter, QPaintEvent, QResizeEvent
from PySide6.QtWidgets import QStatusBar, QStyle, QStyleOption, QTabWidget, QWidget

_MARGIN = 6  # pixels left free at each end of the message


class StatusLine(QStatusBar):
    """A :class:`QStatusBar` whose message (:meth:`currentMessage`) is drawn whole when it
    fits, else cut with "…" to the width, the whole message then in the tooltip.

    Args:
        parent: Qt parent widget.
        tabs: the window's tabs, if any (see :meth:`follow_tabs`).
    """

    def __init__(self, parent: QWidget | None = None, *, tabs: QTabWidget | None = None) -> None:
        super().__init__(parent)
        self.messageChanged.connect(self._update_tip)
        self._tabs: QTabWidget | None = None
        self._owner: QWidget | None = None  # the tab current when the message was shown
        # True until control goes back to the event loop: a tab switch made by the same
        # action that wrote the message (double-click a token → Merge table) keeps it
        self._fresh = QTimer(self)
        self._fresh.setSingleShot(True)
        self._fresh.setInterval(0)
        if tabs is not None:
            self.follow_tabs(tabs)

    def follow_tabs(self, tabs: QTabWidget) -> None:
        """Give each message to the tab of ``tabs`` current when it is shown, and clear it
        when the user makes another tab current (a tab switch done by the same action that
        wrote the message, before control returns to the event loop, keeps it and gives it
        to the new tab)."""
        self._tabs = tabs
        self._owner = tabs.currentWidget()
        tabs.currentChanged.connect(self._on_tab)

    def owner(self) -> QWidget | None:
        """The tab the message shown belongs to (None without :meth:`follow_tabs`)."""
        return self._owner

    def showMessage(self, message: str, timeout: int = 0) -> None:  # noqa: N802 - Qt override
        """Show ``message`` (see :meth:`QStatusBar.showMessage`), owned by the current tab."""
        super().showMessage(message, timeout)
        if self._tabs is not None:
            self._owner = self._tabs.currentWidget()
            self._fresh.start()

    def _on_tab(self, index: int) -> None:
        tab = self._tabs.widget(index) if self._tabs is not None else None
        if self._fresh.isActive() or tab is self._owner:
            self._owner = tab
            return
        self._owner = tab
        self.clearMessage()

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
