"""A note that fits its room: one line cut with "… ▸ more" until clicked, then all of it.

:class:`NoteBadge` is the warning badge of a Compare column (normalizer changes,
special-token text encoded as plain text...): it never makes the column wider, its
tooltip holds the whole note, and a click shows the whole note wrapped over as
many lines as it needs (another click folds it back to one line).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

#: Said after the whole note in the tooltip of a badge cut to one line.
CLICK_HINT = "(click the note to show all of it)"
#: Said after the whole note in the tooltip of an unfolded badge.
FOLD_HINT = "(click the note to fold it to one line)"
#: Said at the end of a folded note that is cut, and of an unfolded one.
MORE, LESS = "  ▸ more", "  ◂ less"
#: Pixels of the label's width its style sheet's padding takes.
PADDING = 10


class NoteBadge(QLabel):
    """A one-line note elided to the label's width; a click shows it all, wrapped.

    Args:
        parent: optional parent widget.

    Attributes:
        expanded: True while the whole note is shown (wrapped), False while it is one line.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self._tip = ""
        self.expanded = False
        self.setTextFormat(Qt.TextFormat.PlainText)
        # the badge takes the width it is given, never sets it
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def set_note(self, text: str, *, tip: str = "") -> None:
        """Show ``text`` (folded to one line); ``tip``: the tooltip (default: ``text``)."""
        self._full, self._tip = text, tip or text
        self._refresh()

    def full_text(self) -> str:
        """The whole note, however it is shown now."""
        return self._full

    def is_cut(self) -> bool:
        """True when the note is folded and does not fit on one line (shown with "…")."""
        return not self.expanded and self.text() != self._full

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton and (self.expanded or self.is_cut()):
            self.expanded = not self.expanded
            self._refresh()
            event.accept()
            return
        super().mousePressEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if not self.expanded:
            self._refresh()

    def _refresh(self) -> None:
        self.setWordWrap(self.expanded)
        fm = self.fontMetrics()
        room = max(60, self.contentsRect().width() - PADDING)
        if self.expanded:
            self.setText(self._full + LESS)
        elif fm.horizontalAdvance(self._full) <= room:
            self.setText(self._full)
        else:
            room = max(30, room - fm.horizontalAdvance(MORE))
            self.setText(fm.elidedText(self._full, Qt.TextElideMode.ElideRight, room) + MORE)
        if self.expanded or self.is_cut():
            self.setCursor(Qt.CursorShape.PointingHandCursor)
            self.setToolTip(f"{self._tip}\n{FOLD_HINT if self.expanded else CLICK_HINT}")
        else:
            self.unsetCursor()
            self.setToolTip(self._tip)
