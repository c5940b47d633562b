"""A long text put into a QPlainTextEdit in pieces, so the window keeps answering.

``QPlainTextEdit.setPlainText`` of a 2,000,000-character text blocks the GUI thread
for a quarter of a second or more. :class:`ChunkedText` puts in the first
:data:`CHUNK_CHARS` characters at once and appends the rest one piece per turn of
the event loop; the editor is read-only (and its undo history off) until the
whole text is in.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QPlainTextEdit

#: Characters put into the editor per turn of the event loop.
CHUNK_CHARS = 100_000


class ChunkedText(QObject):
    """Fills one editor with long texts piece by piece (the latest text wins).

    Args:
        editor: the QPlainTextEdit to fill; its signals are blocked while it is filled.

    Signals:
        filled(): the whole text is in the editor.
    """

    filled = Signal()

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor)
        self._editor = editor
        self._text = ""
        self._at = 0
        self._read_only = editor.isReadOnly()
        self._timer = QTimer(self)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._next)

    @property
    def filling(self) -> bool:
        """True while part of the text is still to be put in."""
        return self._timer.isActive()

    def set_text(self, text: str) -> None:
        """Show ``text``: the first piece now, the rest on the next turns of the event loop."""
        ed = self._editor
        if not self.filling:
            self._read_only = ed.isReadOnly()
        self._timer.stop()
        self._text, self._at = text, 0
        piece = self._piece()
        ed.blockSignals(True)
        try:
            ed.setUndoRedoEnabled(False)
            ed.setPlainText(piece)
        finally:
            ed.blockSignals(False)
        if self._at < len(text):
            ed.setReadOnly(True)
            self._timer.start()
        else:
            self._finish()

    def _piece(self) -> str:
        """The next piece of the text (ending after a line break when one is near)."""
        start, end = self._at, min(len(self._text), self._at + CHUNK_CHARS)
        if end < len(self._text):
            nl = self._text.rfind("\n", start, end)
            end = nl + 1 if nl > start else end
        self._at = end
        return self._text[start:end]

    def _next(self) -> None:
        ed = self._editor
        cursor = QTextCursor(ed.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        ed.blockSignals(True)
        try:
            cursor.insertText(self._piece())
        finally:
            ed.blockSignals(False)
        if self._at >= len(self._text):
            self._timer.stop()
            self._finish()

    def _finish(self) -> None:
        ed = self._editor
        ed.setReadOnly(self._read_only)
        ed.setUndoRedoEnabled(True)
        ed.moveCursor(QTextCursor.MoveOperation.Start)
        self._text = ""
        self.filled.emit()
