"""How the replays show pieces (token bytes): as boxes that wrap, and in table cells.

:class:`PiecesView` draws the pieces of one or more chunks as boxes, each with
its text and a caption (hex bytes for a partial character, else its length);
:func:`pieces_table` and :func:`piece_cell` make the tables of pairs beside it;
:func:`scrolled`, :func:`titled` and :func:`step_label` are the parts both
replays build their layout from, :func:`clear_step` what they show when there
is no step.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QScrollArea,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import is_partial_utf8
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import emoji_font, is_emoji, shown_piece
from tokexplorer.gui.widgets.wrapping import wrapped

#: Fill and outline of a box by its kind.
_BOX_COLORS: dict[str, tuple[QColor, QColor]] = {
    "chosen": (theme.REPLAY_CHOSEN_FILL, theme.REPLAY_CHOSEN_EDGE),
    "new": (theme.REPLAY_NEW_FILL, theme.REPLAY_NEW_EDGE),
    "partial": (theme.REPLAY_PARTIAL_FILL, theme.REPLAY_PARTIAL_EDGE),
    "piece": (theme.WHOLE_CHAR_FILL, theme.WHOLE_CHAR_EDGE),
}


def show(data: bytes) -> str:
    """A token's bytes as readable text with spaces as ``␣``."""
    return shown_piece(data, visible_spaces=True)


def _caption(piece: bytes) -> str:
    return piece.hex(" ").upper() if is_partial_utf8(piece) else f"{len(piece)} B"


class PiecesView(QWidget):
    """Pieces (token bytes) drawn as boxes that wrap, grouped by chunk.

    Each box shows the piece's text and, below it, a small caption (hex bytes
    for a partial character, else its length). Highlighted pieces are drawn in
    orange (the pair about to merge) or green (the token just made).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._groups: list[list[bytes]] = []
        self._marks: dict[tuple[int, int], str] = {}
        self._rects: list[tuple[QRectF, bytes, str]] = []
        self._font = QFont(self.font())
        self._font.setPointSizeF(self._font.pointSizeF() + 3)
        self._emoji = emoji_font(self._font)  # a piece that is an emoji, as tall as an ideograph
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(7.0, self._small.pointSizeF() - 1))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self._height = 60

    def set_pieces(self, groups: list[list[bytes]], marks: dict[tuple[int, int], str] | None = None) -> None:
        """Show ``groups`` (one list of pieces per chunk); ``marks`` maps
        ``(group, index)`` to ``"chosen"`` or ``"new"``."""
        self._groups = [list(g) for g in groups]
        self._marks = dict(marks or {})
        self._relayout()
        self.update()

    def texts(self) -> list[str]:
        """The box texts in order (for tests)."""
        return [show(p) for g in self._groups for p in g]

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(400, self._height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._relayout()

    def _relayout(self) -> None:
        fm, fe = QFontMetricsF(self._font), QFontMetricsF(self._emoji)
        fs = QFontMetricsF(self._small)
        h = fm.height() + fs.height() + 10
        width = max(200, self.width() - 8)
        x, y = 4.0, 4.0
        rects: list[tuple[QRectF, bytes, str]] = []
        for gi, g in enumerate(self._groups):
            for pi, piece in enumerate(g):
                shown = show(piece)
                wide = fe.horizontalAdvance(shown) if is_emoji(shown) else fm.horizontalAdvance(shown)
                w = max(wide, fs.horizontalAdvance(_caption(piece))) + 14
                if x + w > width and x > 4:
                    x, y = 4.0, y + h + 8
                kind = self._marks.get((gi, pi), "partial" if is_partial_utf8(piece) else "piece")
                rects.append((QRectF(x, y, w, h), piece, kind))
                x += w + 3
            x += 12  # gap between chunks
        self._rects = rects
        self._height = int(y + h + 8)
        self.setMinimumHeight(self._height)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetricsF(self._font)
        for r, piece, kind in self._rects:
            fill, edge = _BOX_COLORS.get(kind, _BOX_COLORS["piece"])
            p.setPen(QPen(edge, 2.0 if kind in ("chosen", "new") else 1.0))
            p.setBrush(fill)
            p.drawRoundedRect(r, 4, 4)
            p.setPen(theme.BOX_TEXT)
            shown = show(piece)
            p.setFont(self._emoji if is_emoji(shown) else self._font)
            top = QRectF(r.left(), r.top() + 3, r.width(), fm.height())
            p.drawText(top, Qt.AlignmentFlag.AlignCenter, shown)
            p.setFont(self._small)
            p.setPen(theme.BOX_CAPTION)
            p.drawText(
                QRectF(r.left(), top.bottom(), r.width(), r.bottom() - top.bottom() - 2),
                Qt.AlignmentFlag.AlignCenter,
                _caption(piece),
            )


def pieces_table(headers: list[str]) -> QTableWidget:
    """A read-only table of whole rows with these column titles, the last one stretched."""
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().setVisible(False)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def piece_cell(text: str, *, right: bool = False, bold: bool = False, fill: QColor | None = None) -> QTableWidgetItem:
    """A table cell: ``right`` aligns it right, ``bold`` marks the chosen pair, ``fill`` colours it."""
    it = QTableWidgetItem(text)
    if right:
        it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if bold:
        f = it.font()
        f.setBold(True)
        it.setFont(f)
    if fill is not None:
        it.setBackground(fill)
    return it


def scrolled(view: PiecesView) -> QScrollArea:
    """``view`` in a scroll area that keeps it as wide as the area (it grows downwards)."""
    scroll = QScrollArea()
    scroll.setWidget(view)
    scroll.setWidgetResizable(True)
    return scroll


def titled(title: str, widget: QWidget) -> QWidget:
    """``widget`` under the label ``title`` (wrapped where the pane is narrow), without margins;
    the widget takes the height."""
    box = QWidget()
    layout = QVBoxLayout(box)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(wrapped(title))
    layout.addWidget(widget, 1)
    return box


def step_label(text: str = "") -> QLabel:
    """The line under a replay's step controls that says what the step shown does:
    wrapped, one point larger than the widget font."""
    label = QLabel(text)
    label.setWordWrap(True)
    f = label.font()
    f.setPointSizeF(f.pointSizeF() + 1)
    label.setFont(f)
    return label


def clear_step(pieces: PiecesView, table: QTableWidget) -> None:
    """Show no step: no pieces and no table rows (the replay has no steps)."""
    pieces.set_pieces([])
    table.setRowCount(0)
