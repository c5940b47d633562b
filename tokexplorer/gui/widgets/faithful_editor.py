"""A plain-text editor that keeps the user's text byte for byte.

``QPlainTextEdit`` changes text: CR and CRLF become its paragraph break,
``toPlainText()`` turns NBSP into a space and U+2028/U+2029 into LF, and U+FDD0,
U+FDD1 and lone surrogates are dropped. :class:`FaithfulTextEdit` keeps the real
text itself (:meth:`FaithfulTextEdit.real_text`) and shows, for each character the
document cannot hold or would show as a plain line break, one glyph
(``core.text.EDITOR_GLYPHS``: CR ``␍``, U+2028 ``↲``, U+2029 ``¶``), drawn in
:data:`~tokexplorer.gui.theme.EDITOR_GLYPH` colours so it is not mistaken for
typed text. Every edit is mapped back onto the real text by position
(``core.text.apply_edit``), so a CRLF stays a CRLF and an NBSP stays an NBSP
through any edit; NBSP, other spaces and format characters the document holds are
tinted (:data:`~tokexplorer.gui.theme.EDITOR_ODD_BG`) with the whole grapheme
cluster they are in, so that an emoji ZWJ sequence still renders as one emoji
(:func:`odd_clusters`), in texts of up to
:data:`HIGHLIGHT_MAX_CHARS` code points. Copying copies the real text, pasting
inserts the clipboard's text as it is (its CRLF included). A long text goes into
the document in pieces of :data:`FILL_CHARS` code points, one per turn of the
event loop, so that showing it never freezes the window.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import OrderedDict

import regex
from PySide6.QtCore import QMimeData, QTimer, Signal
from PySide6.QtGui import QSyntaxHighlighter, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from tokexplorer.core.text import apply_edit, editor_text, glyph_positions
from tokexplorer.gui import theme

#: Characters the document holds but a reader cannot see: spaces other than
#: U+0020 and tab (NBSP, em space...), format characters (ZWJ, bidi controls,
#: U+FEFF), C0/C1 controls other than tab and LF.
_ODD = regex.compile(r"[\p{Zs}\p{Cf}\p{Cc}--[ \t\n]]+", regex.V1)


_GRAPHEME = regex.compile(r"\X", regex.DOTALL)


def odd_clusters(text: str) -> list[tuple[int, int]]:
    """Code point ranges ``[a, b)`` of ``text`` to tint: every grapheme cluster
    holding an odd character (see ``_ODD``), whole, neighbouring ones joined.

    A whole cluster gets one format because Qt shapes each run of one format on
    its own: a ZWJ of 👨‍👩‍👧 or 🏳️‍🌈 in a format of its own would split the
    sequence into separate emoji.
    """
    if _ODD.search(text) is None:
        return []
    out: list[tuple[int, int]] = []
    for m in _GRAPHEME.finditer(text):
        if _ODD.search(m.group()) is None:
            continue
        if out and out[-1][1] == m.start():
            out[-1] = (out[-1][0], m.end())
        else:
            out.append((m.start(), m.end()))
    return out


_HELD_BUT_GLYPHED = regex.compile("\u2028")

HISTORY_CHARS = 4_000_000
"""The recent states kept for undo and redo hold at most this many code points in all."""

HIGHLIGHT_MAX_CHARS = 200_000
"""Texts up to this many code points get their glyphs coloured and odd characters
tinted; Qt highlights a whole document at once, which would stall the window on
a longer text (the glyphs are still shown there, uncoloured)."""

FILL_CHARS = 100_000
"""A longer text goes into the document in pieces of about this many code points
(cut after a line break when one is near), one piece per turn of the event loop:
one ``setPlainText`` of 2,000,000 characters holds the window for 0.1-0.2 s, a
piece for a few milliseconds. The editor is read-only until the whole text is in."""


def _utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le", "surrogatepass")) // 2


def _utf16_offsets(text: str, indices: list[int]) -> list[int]:
    """UTF-16 offsets (Qt's positions) of the code point ``indices`` of ``text`` (sorted)."""
    if _utf16_len(text) == len(text):
        return indices
    out: list[int] = []
    prev = off = 0
    for i in indices:
        off += _utf16_len(text[prev:i])
        out.append(off)
        prev = i
    return out


class _GlyphHighlighter(QSyntaxHighlighter):
    """Colours the glyphs that stand for real characters, and tints odd ones."""

    def __init__(self, document: QTextDocument) -> None:
        super().__init__(document)  # owned by the document, as Qt intends
        self.positions: list[int] = []  # UTF-16 offsets of the glyphs in the document
        self._glyph = QTextCharFormat()
        self._glyph.setForeground(theme.EDITOR_GLYPH)
        self._glyph.setBackground(theme.EDITOR_GLYPH_BG)
        self._odd = QTextCharFormat()
        self._odd.setBackground(theme.EDITOR_ODD_BG)

    def highlightBlock(self, text: str) -> None:
        for a, b in odd_clusters(text):
            self.setFormat(_utf16_len(text[:a]), _utf16_len(text[a:b]), self._odd)
        if not self.positions:
            return
        block = self.currentBlock()
        lo, hi = block.position(), block.position() + block.length()
        i = bisect_left(self.positions, lo)
        while i < len(self.positions) and self.positions[i] < hi:
            self.setFormat(self.positions[i] - lo, 1, self._glyph)
            i += 1


class FaithfulTextEdit(QPlainTextEdit):
    """A ``QPlainTextEdit`` whose text is the user's exact text (see the module).

    Use :meth:`set_text` and :meth:`real_text` instead of ``setPlainText`` and
    ``toPlainText`` (which give the widget's own copy, with glyphs); ``textChanged``
    is emitted after :meth:`real_text` took the edit.

    Signals:
        filled(): the whole text of the last :meth:`set_text` is in the document
        (at once for a text of up to :data:`FILL_CHARS` code points).
    """

    filled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._real = ""
        self._shown = ""
        self._filled_to = 0  # code points of the shown text already in the document
        self._read_only = False  # what the editor is once the fill ends (:meth:`setReadOnly`)
        self._fill = QTimer(self)  # puts the next piece of a long text in (:meth:`_fill_next`)
        self._fill.setInterval(0)
        self._fill.timeout.connect(self._fill_next)
        self._pasted: str | None = None
        self._setting = False
        self._highlighter: _GlyphHighlighter | None = None  # made when the text needs it (:meth:`_highlight`)
        self._changed = (0, 0)  # UTF-16 range of the document's last change
        # shown text -> real text of the recent states, so that undo and redo,
        # which put back an earlier document, put back its real text too
        self._history: OrderedDict[str, str] = OrderedDict()
        self.document().contentsChange.connect(self._on_contents_change)
        self.textChanged.connect(self._on_changed)

    def real_text(self) -> str:
        """The user's text, exactly (CRLF, lone CR, NBSP, U+2028... as they are)."""
        return self._real

    def set_text(self, text: str) -> None:
        """Show ``text`` (``textChanged`` is emitted as by ``setPlainText``, once).

        :meth:`real_text` and :meth:`shown_text` are the new text at once; a text
        longer than :data:`FILL_CHARS` code points reaches the document piece by
        piece (:attr:`filling`, then ``filled``), the editor read-only meanwhile.
        """
        self._real = text
        self._shown = editor_text(text, control_pictures=theme.control_pictures())
        self._history.clear()
        self._remember()
        if not self._fill.isActive():
            self._read_only = self.isReadOnly()
        self._fill.stop()
        self._filled_to = 0
        self._setting = True  # setPlainText() changes the document in steps: none is an edit
        try:
            if self._highlighter is not None:  # a plain text costs no highlighting
                self._highlighter.setDocument(None)  # (detaching re-formats the old text)
                self._highlighter.deleteLater()
                self._highlighter = None
            self.setPlainText(self._next_piece())
        finally:
            self._setting = False
        self._highlight()  # (the glyph positions of the whole text: the pieces are appended)
        if self._filled_to < len(self._shown):
            self.document().setUndoRedoEnabled(False)  # the pieces are no edit to undo
            super().setReadOnly(True)
            self._fill.start()
        else:
            self._end_fill()

    @property
    def filling(self) -> bool:
        """True while part of the last :meth:`set_text`'s text is not in the document yet."""
        return self._fill.isActive()

    def setReadOnly(self, ro: bool) -> None:  # Qt's name
        """As ``QPlainTextEdit.setReadOnly``; while :attr:`filling`, it takes effect
        when the whole text is in (the editor stays read-only until then)."""
        self._read_only = ro
        if not self.filling:
            super().setReadOnly(ro)

    def _next_piece(self) -> str:
        """The next piece of the shown text (ending after a line break when one is near)."""
        start, end = self._filled_to, min(len(self._shown), self._filled_to + FILL_CHARS)
        if end < len(self._shown):
            nl = self._shown.rfind("\n", start, end)
            end = nl + 1 if nl > start else end
        self._filled_to = end
        return self._shown[start:end]

    def _fill_next(self) -> None:
        """Append one piece of a long text; at the end, make the editor editable again."""
        cursor = QTextCursor(self.document())
        cursor.movePosition(QTextCursor.MoveOperation.End)
        blocked = self.blockSignals(True)  # textChanged was emitted by set_text()
        self._setting = True
        try:
            cursor.insertText(self._next_piece())
        finally:
            self._setting = False
            self.blockSignals(blocked)
        if self._filled_to >= len(self._shown):
            self._fill.stop()
            self._end_fill()

    def _end_fill(self) -> None:
        """The whole text is in: editable (unless asked otherwise) and undoable again."""
        if not self.document().isUndoRedoEnabled():
            self.document().setUndoRedoEnabled(True)
        super().setReadOnly(self._read_only)
        self.filled.emit()

    def shown_text(self) -> str:
        """The widget's own text: :meth:`real_text` with glyphs, paragraph breaks as LF."""
        return self._shown

    def _highlight(self) -> bool:
        """Update the glyph positions; attach the highlighter when the text first
        needs it (a plain text costs no highlighting). True when it was attached now."""
        if self._highlighter is None and len(self._shown) > HIGHLIGHT_MAX_CHARS:
            return False  # not highlighted: no positions to find in the whole long text
        positions = _utf16_offsets(self._shown, glyph_positions(self._real))
        if self._highlighter is not None:
            self._highlighter.positions = positions
            return False
        if not (positions or _ODD.search(self._shown)):
            return False
        self._highlighter = _GlyphHighlighter(self.document())
        self._highlighter.positions = positions
        return True

    # ------------------------------------------------------------------ edits
    def _on_contents_change(self, position: int, _removed: int, added: int) -> None:
        self._changed = (position, position + added)

    def _rehighlight_changed(self) -> None:
        """Highlight the blocks of the last change again, now with the glyph
        positions of the new text (Qt highlighted them before they were known)."""
        hl = self._highlighter
        if hl is None:
            return
        doc = self.document()
        block, last = doc.findBlock(self._changed[0]), doc.findBlock(self._changed[1])
        while block.isValid():
            hl.rehighlightBlock(block)
            if block == last:
                break
            block = block.next()

    def _on_changed(self) -> None:
        if self._setting or self.filling:  # (the document holds part of the text while filling)
            return
        new = self.document().toRawText().replace("\u2029", "\n")
        if new == self._shown:
            return
        glyphs = theme.control_pictures()
        real = self._history.get(new)  # an undo or redo
        if real is None:
            at = self._code_point(self._changed[0], new)
            real = apply_edit(self._real, self._shown, new, inserted=self._pasted, at=at, control_pictures=glyphs)
        self._pasted = None
        shown = editor_text(real, control_pictures=glyphs)
        self._real, self._shown = real, shown
        self._remember()
        if shown != new:
            self._show_glyphs(new, shown)  # a typed U+2028 (Shift+Enter) becomes its glyph
        if not self._highlight() and self._highlighter is not None:
            self._rehighlight_changed()  # (when attached just now, every block was highlighted)

    def _show_glyphs(self, new: str, shown: str) -> None:
        """Put the glyphs of ``shown`` where the document still has their character."""
        cursor = QTextCursor(self.document())
        self.blockSignals(True)
        try:
            # the document can hold only U+2028 of the characters shown as a glyph
            for m in _HELD_BUT_GLYPHED.finditer(new):
                pos = _utf16_len(new[: m.start()])
                cursor.setPosition(pos)
                cursor.setPosition(pos + 1, QTextCursor.MoveMode.KeepAnchor)
                cursor.insertText(shown[m.start()])
        finally:
            self.blockSignals(False)

    # ------------------------------------------------------------------ clipboard
    def insertFromMimeData(self, source: QMimeData) -> None:
        if not source.hasText():
            super().insertFromMimeData(source)
            return
        text = source.text()
        self._pasted = text
        self.insertPlainText(editor_text(text, control_pictures=theme.control_pictures()))
        self._pasted = None

    def createMimeDataFromSelection(self) -> QMimeData:
        cursor = self.textCursor()
        data = QMimeData()
        data.setText(self._real[self._code_point(cursor.selectionStart()) : self._code_point(cursor.selectionEnd())])
        return data

    def _code_point(self, utf16_pos: int, shown: str | None = None) -> int:
        """Code point index of a document position in ``shown`` (default: the shown text)."""
        shown = self._shown if shown is None else shown
        if _utf16_len(shown) == len(shown):
            return utf16_pos
        units = shown.encode("utf-16-le", "surrogatepass")[: 2 * utf16_pos]
        return len(units.decode("utf-16-le", "surrogatepass"))

    def _remember(self) -> None:
        """Keep the current state for undo and redo (at most :data:`HISTORY_CHARS` code points)."""
        self._history[self._shown] = self._real
        self._history.move_to_end(self._shown)
        total = sum(len(s) for s in self._history)
        while len(self._history) > 1 and total > HISTORY_CHARS:
            total -= len(self._history.popitem(last=False)[0])
