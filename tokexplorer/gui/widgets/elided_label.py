"""A label that fits the room it is given: its text cut with "…", the whole of it in a tooltip.

A plain ``QLabel`` asks for the width of its whole text (or, word-wrapped, of its
longest word and then some), so a long file name, a tokenizer's description or a
status line widened its layout, and the window with it. :class:`ElidedLabel` asks
for a few characters only; it shows as much of its text as fits on its lines
(word-wrapped over ``lines`` lines, the last one cut with "…"), and its tooltip
gives the whole text whenever something is cut. :meth:`ElidedLabel.text` is
always the whole text.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontMetrics, QPainter, QPaintEvent, QResizeEvent, QShowEvent, QTextLayout, QTextOption
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

#: Characters of room a label asks for at least (its minimum width).
MIN_CHARS = 6


class ElidedLabel(QLabel):
    """A plain-text label shown over at most ``lines`` lines, cut with "…" to its width.

    Args:
        text: the text.
        parent: optional parent widget.
        lines: how many lines it may take (word-wrapped when more than 1); its height.

    The tooltip is the whole text while it is cut (or the tooltip set with
    :meth:`set_tip`, which is always shown).
    """

    def __init__(self, text: str = "", parent: QWidget | None = None, *, lines: int = 1) -> None:
        super().__init__(parent)
        self._lines = max(1, lines)
        self._tip = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setText(text)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt override
        """Show ``text`` (all of it when it fits, else cut with "…")."""
        super().setText(text)
        self.updateGeometry()
        self._update_tip()

    def set_tip(self, tip: str) -> None:
        """A tooltip always shown (the whole text is added when it is cut and not in ``tip``)."""
        self._tip = tip
        self._update_tip()

    def shown_lines(self, width: int | None = None) -> list[str]:
        """The lines drawn at ``width`` pixels (default: the label's own), the last one
        ending in "…" when the text does not fit."""
        room = self.contentsRect().width() if width is None else width
        return elided_lines(self.text(), self.font(), max(1, room), self._lines)

    def is_cut(self) -> bool:
        """True when the label does not show all of its text."""
        return self.shown_lines() != wrapped_lines(self.text(), self.font(), max(1, self.contentsRect().width()))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        fm = self.fontMetrics()
        m = self.contentsMargins()
        width = min(fm.horizontalAdvance(self.text()), fm.averageCharWidth() * MIN_CHARS)
        return QSize(width + m.left() + m.right(), self._height())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        fm = self.fontMetrics()
        m = self.contentsMargins()
        widest = max((fm.horizontalAdvance(line) for line in self.text().split("\n")), default=0)
        return QSize(widest + m.left() + m.right(), self._height())

    def _height(self) -> int:
        m = self.contentsMargins()
        return self._lines * self.fontMetrics().lineSpacing() + m.top() + m.bottom()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._update_tip()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self._update_tip()

    def paintEvent(self, _event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        painter = QPainter(self)
        rect = self.contentsRect()
        fm = self.fontMetrics()
        align = (self.alignment() & Qt.AlignmentFlag.AlignHorizontal_Mask) | Qt.AlignmentFlag.AlignTop
        for i, line in enumerate(self.shown_lines()):
            line_rect = rect.adjusted(0, i * fm.lineSpacing(), 0, 0)
            self.style().drawItemText(
                painter, line_rect, int(align), self.palette(), self.isEnabled(), line, self.foregroundRole()
            )

    def _update_tip(self) -> None:
        cut = self.is_cut()
        if self._tip:
            whole = f"\n\n{self.text()}" if cut and self.text() not in self._tip else ""
            self.setToolTip(self._tip + whole)
        else:
            self.setToolTip(self.text() if cut else "")


def never_widens(label: QLabel) -> QLabel:
    """Make a word-wrapped ``label`` take the width its layout gives it: a long word (a file
    name, a path) wraps where it must instead of widening the layout. Returns ``label``."""
    label.setWordWrap(True)
    label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
    return label


def wrapped_lines(text: str, font: QFont, width: int) -> list[str]:
    """``text`` (line breaks read as spaces) word-wrapped at ``width`` pixels in ``font``, at
    word boundaries only: a word wider than that is a line of its own, wider than ``width``
    (never broken inside: "multilingual.tiktoke" / "n" read as two words)."""
    text = text.replace("\n", " ")
    layout = QTextLayout(text, font)
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    spans: list[tuple[int, int]] = []
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        spans.append((line.textStart(), line.textLength()))
    layout.endLayout()
    return [text[a : a + n].rstrip() for a, n in spans] or [""]


def elided_lines(text: str, font: QFont, width: int, lines: int) -> list[str]:
    """``text`` word-wrapped at ``width`` pixels in ``font`` over at most ``lines`` lines; when
    it needs more, the last line is the rest of the text cut with "…". A word wider than a line
    is cut with "…" on its line (never wrapped inside)."""
    fm = QFontMetrics(font)
    wrapped = wrapped_lines(text, font, width)
    if len(wrapped) > lines:
        wrapped = [*wrapped[: lines - 1], " ".join(wrapped[lines - 1 :])]
    return [fm.elidedText(line, Qt.TextElideMode.ElideRight, width) for line in wrapped]
