"""The segmentation lattice of a Unigram model, drawn: one column per character
of the normalized text, one box per piece that matches there (its piece and
log probability), the best (Viterbi) path in the top row and highlighted.

Boxes are laid out in rows: the best path first, then every other node in the
first row where it overlaps no box already placed (longer pieces first).
Hovering a box shows its piece, id, span and score.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QRect, QSize, Qt
from PySide6.QtGui import QFontMetrics, QHelpEvent, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from tokexplorer.core.analysis import Lattice, LatticeNode
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import shown_piece

CELL = 30  # px per character
ROW = 38  # px per row of boxes
HEADER = 26  # px for the characters on top


def lattice_rows(lattice: Lattice) -> list[list[LatticeNode]]:
    """The nodes in rows: the best path, then the others packed first-fit, longer first."""
    rows: list[list[LatticeNode]] = [list(lattice.best)]
    busy: list[list[tuple[int, int]]] = [[(n.start, n.end) for n in lattice.best]]
    others = sorted((n for n in lattice.nodes if not n.best), key=lambda n: (-(n.end - n.start), n.start))
    for node in others:
        for k in range(1, len(rows) + 1):
            if k == len(rows):
                rows.append([])
                busy.append([])
            if all(node.end <= s or node.start >= e for s, e in busy[k]):
                rows[k].append(node)
                busy[k].append((node.start, node.end))
                break
    return rows


class LatticeView(QWidget):
    """Draws one :class:`~tokexplorer.core.analysis.unigram.Lattice` (or a message).

    Attributes:
        lattice: the lattice shown, or None.
        rows: its nodes as laid out (see :func:`lattice_rows`).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lattice: Lattice | None = None
        self.rows: list[list[LatticeNode]] = []
        self.message = "Type a word to see its lattice."
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMouseTracking(True)

    def set_lattice(self, lattice: Lattice | None, message: str = "") -> None:
        """Show ``lattice`` (None: ``message`` instead)."""
        self.lattice = lattice
        self.rows = lattice_rows(lattice) if lattice is not None else []
        self.message = message
        self.updateGeometry()
        self.setMinimumSize(self.sizeHint())
        self.update()

    def sizeHint(self) -> QSize:
        if self.lattice is None:
            return QSize(300, HEADER + ROW)
        return QSize(len(self.lattice.normalized) * CELL + 20, HEADER + ROW * len(self.rows) + 10)

    def _rect(self, row: int, node: LatticeNode) -> QRect:
        return QRect(10 + node.start * CELL + 1, HEADER + row * ROW + 2, (node.end - node.start) * CELL - 2, ROW - 4)

    def node_at(self, x: int, y: int) -> LatticeNode | None:
        """The node drawn at widget point ``(x, y)``, or None."""
        for r, nodes in enumerate(self.rows):
            for n in nodes:
                if self._rect(r, n).contains(x, y):
                    return n
        return None

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        p.fillRect(self.rect(), theme.TREE_BACKGROUND)
        if self.lattice is None:
            p.setPen(theme.TREE_MESSAGE)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self.message)
            return
        p.setPen(theme.BOX_TEXT)
        for i, c in enumerate(self.lattice.normalized):
            p.drawText(QRect(10 + i * CELL, 2, CELL, HEADER - 4), Qt.AlignmentFlag.AlignCenter, c)
        metrics = QFontMetrics(p.font())
        for r, nodes in enumerate(self.rows):
            for n in nodes:
                self._paint_node(p, metrics, self._rect(r, n), n)

    def _paint_node(self, p: QPainter, metrics: QFontMetrics, rect: QRect, n: LatticeNode) -> None:
        unknown = self.lattice is not None and n.id == self.lattice.unk_id
        fill = theme.LATTICE_BEST_FILL if n.best else theme.LATTICE_UNKNOWN_FILL if unknown else theme.LATTICE_NODE_FILL
        edge = theme.LATTICE_BEST_EDGE if n.best else theme.LATTICE_NODE_EDGE
        p.setBrush(fill)
        p.setPen(QPen(edge, 2 if n.best else 1))
        p.drawRoundedRect(rect, 4, 4)
        p.setPen(theme.BOX_TEXT)
        top = QRect(rect.x(), rect.y(), rect.width(), rect.height() // 2 + 2)
        bottom = QRect(rect.x(), rect.y() + rect.height() // 2, rect.width(), rect.height() // 2)
        shown = metrics.elidedText(shown_piece(n.piece), Qt.TextElideMode.ElideRight, rect.width())
        p.drawText(top, Qt.AlignmentFlag.AlignCenter, shown)
        p.setPen(theme.BOX_CAPTION)
        p.drawText(bottom, Qt.AlignmentFlag.AlignCenter, f"{n.score:.1f}")

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ToolTip and isinstance(e, QHelpEvent):
            n = self.node_at(e.pos().x(), e.pos().y())
            if n is None:
                QToolTip.hideText()
            else:
                where = "on the best path" if n.best else "not on the best path"
                tip = (
                    f"«{shown_piece(n.piece)}» (id {n.id}), characters {n.start}–{n.end}: "
                    f"log p = {n.score:.4f}, {where}"
                )
                QToolTip.showText(e.globalPos(), tip)
            return True
        return super().event(e)
