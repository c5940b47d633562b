"""A token's merge tree, drawn down to its bytes ("how was this token built").

:class:`MergeTreeWidget` draws a :class:`~tokexplorer.core.analysis.merges.MergeNode`
as a tree: the bytes are the leaves on the bottom row, each merge is a box
above its two parts with its rank (``#12``), and the token itself is the root
at the top. Boxes whose bytes are only part of a UTF-8 character are drawn in
orange, whole-character boxes in blue, single bytes in grey.
:class:`MergeTreePanel` is the merge table's "Merge tree" tab: the tree in a
scroll area under a caption that says what it shows.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QFont, QFontMetricsF, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QLabel, QScrollArea, QSizePolicy, QVBoxLayout, QWidget

from tokexplorer.core.analysis import MergeNode, is_partial_utf8
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import shown_piece

_PAD_X = 8.0  # px inside a box, left and right
_GAP_X = 10.0  # px between sibling subtrees
_LEVEL_H = 58.0  # px from one level to the next
_MARGIN = 12.0


def default_label(data: bytes) -> str:
    """Token text for a box: the window's one display rule (``glyphs.shown_piece``: look-alikes
    as ``<U+XXXX>``) with spaces shown as ``␣``."""
    return shown_piece(data, visible_spaces=True)


class _Box:
    __slots__ = ("node", "text", "sub", "w", "h", "x", "y", "kids")

    def __init__(self, node: MergeNode, text: str, sub: str) -> None:
        self.node = node
        self.text = text
        self.sub = sub
        self.w = 0.0
        self.h = 0.0
        self.x = 0.0  # centre
        self.y = 0.0  # top
        self.kids: list[_Box] = []


class MergeTreeWidget(QWidget):
    """Draws one merge tree; empty until :meth:`set_tree`.

    Args:
        parent: Qt parent widget.
        label: renders token bytes as box text (default :func:`default_label`).
    """

    def __init__(
        self,
        parent: QWidget | None = None,
        *,
        label: Callable[[bytes], str] = default_label,
    ) -> None:
        super().__init__(parent)
        self._label = label
        self._tree: MergeNode | None = None
        self._boxes: list[_Box] = []
        self._size = QSize(200, 120)
        self._message = "Select a merge to see how its token was built."
        self._font = QFont(self.font())
        self._font.setPointSizeF(max(9.0, self._font.pointSizeF() + 1))
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(7.0, self._small.pointSizeF() - 1))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMinimumSize(self._size)

    # -- public ------------------------------------------------------------------

    @property
    def tree(self) -> MergeNode | None:
        return self._tree

    def set_label(self, label: Callable[[bytes], str]) -> None:
        """Change how token bytes are written in the boxes (text, hex, GPT-2 bytes)."""
        self._label = label
        self.set_tree(self._tree)

    def set_tree(self, tree: MergeNode | None, *, message: str = "") -> None:
        """Show ``tree`` (None: show ``message`` instead)."""
        self._tree = tree
        if message:
            self._message = message
        self._layout()
        self.updateGeometry()
        self.update()

    def box_texts(self) -> list[tuple[str, str]]:
        """``(text, sub-label)`` of every box, root first then left to right by
        level (for tests and accessibility)."""
        return [(b.text, b.sub) for b in sorted(self._boxes, key=lambda b: (b.y, b.x))]

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return self._size

    # -- layout ------------------------------------------------------------------

    def _layout(self) -> None:
        self._boxes = []
        if self._tree is None:
            self._size = QSize(200, 120)
            self.setMinimumSize(self._size)
            return
        fm = QFontMetricsF(self._font)
        fs = QFontMetricsF(self._small)
        box_h = fm.height() + fs.height() + 8

        def make(node: MergeNode) -> _Box:
            if node.left is None or node.right is None:
                sub = " ".join(f"{b:02X}" for b in node.bytes[:4])
            else:
                sub = f"#{node.rank}"
            box = _Box(node, self._label(node.bytes), sub)
            box.w = max(fm.horizontalAdvance(box.text), fs.horizontalAdvance(sub), 18) + 2 * _PAD_X
            box.h = box_h
            if node.left is not None and node.right is not None:
                box.kids = [make(node.left), make(node.right)]
            self._boxes.append(box)
            return box

        root = make(self._tree)
        height = self._tree.depth()

        def span(box: _Box) -> float:
            if not box.kids:
                return box.w
            return max(box.w, span(box.kids[0]) + _GAP_X + span(box.kids[1]))

        def place(box: _Box, x0: float, level_from_bottom: int) -> None:
            total = span(box)
            box.y = _MARGIN + (height - level_from_bottom) * _LEVEL_H
            if not box.kids:
                box.x = x0 + total / 2
                return
            left, right = box.kids
            inner = span(left) + _GAP_X + span(right)
            start = x0 + (total - inner) / 2
            place(left, start, _level(left.node))
            place(right, start + span(left) + _GAP_X, _level(right.node))
            box.x = (left.x + right.x) / 2

        def _level(node: MergeNode) -> int:
            # leaves sit on the bottom row; a merge sits one row above its higher part
            return node.depth()

        place(root, _MARGIN, height)
        w = span(root) + 2 * _MARGIN
        h = _MARGIN * 2 + height * _LEVEL_H + box_h
        self._size = QSize(int(w) + 1, int(h) + 1)
        self.setMinimumSize(self._size)

    # -- painting ----------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), theme.TREE_BACKGROUND)
        if not self._boxes:
            p.setPen(theme.TREE_MESSAGE)
            p.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, self._message)
            return
        dx = max(0.0, (self.width() - self._size.width()) / 2)
        p.translate(dx, 0)
        p.setPen(QPen(theme.TREE_LINE, 1.2))
        for b in self._boxes:
            for k in b.kids:
                p.drawLine(QPointF(b.x, b.y + b.h), QPointF(k.x, k.y))
        root = self._tree
        fm = QFontMetricsF(self._font)
        for b in self._boxes:
            node = b.node
            if node.left is None:
                fill, edge = theme.TREE_LEAF_FILL, theme.TREE_LEAF_EDGE
            elif is_partial_utf8(node.bytes):
                fill, edge = theme.TREE_PART_FILL, theme.TREE_PART_EDGE
            else:
                fill, edge = theme.WHOLE_CHAR_FILL, theme.WHOLE_CHAR_EDGE
            if node is root:
                edge = theme.TREE_ROOT_EDGE
            r = QRectF(b.x - b.w / 2, b.y, b.w, b.h)
            p.setPen(QPen(edge, 2.0 if node is root else 1.2))
            p.setBrush(fill)
            p.drawRoundedRect(r, 5, 5)
            p.setPen(theme.BOX_TEXT)
            p.setFont(self._font)
            top = QRectF(r.left(), r.top() + 3, r.width(), fm.height())
            p.drawText(top, Qt.AlignmentFlag.AlignCenter, b.text)
            p.setFont(self._small)
            p.setPen(theme.BOX_CAPTION if node.left is None else edge.darker(120))
            low = QRectF(r.left(), top.bottom(), r.width(), r.bottom() - top.bottom() - 2)
            p.drawText(low, Qt.AlignmentFlag.AlignCenter, b.sub)


class MergeTreePanel(QWidget):
    """A caption above a scrollable :class:`MergeTreeWidget` (the merge table's "Merge tree" tab).

    Args:
        parent: Qt parent widget.

    Attributes:
        caption: the QLabel above the tree.
        tree: the :class:`MergeTreeWidget`.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tree = MergeTreeWidget()
        self.caption = QLabel("Select a merge, or ask for a token's tree from another pane.")
        self.caption.setWordWrap(True)
        scroll = QScrollArea()
        scroll.setWidget(self.tree)
        scroll.setWidgetResizable(True)
        scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.caption)
        layout.addWidget(scroll, 1)

    def show_tree(self, token_id: int, root: MergeNode) -> None:
        """Draw the tree ``root`` of token ``token_id`` and say how the token is built."""
        self.tree.set_tree(root)
        shown = shown_piece(root.bytes, visible_spaces=True)
        if root.is_leaf and len(root.bytes) > 1:  # in the vocabulary, but no merge builds it (Llama 3 has some)
            self.tree.set_tree(None, message=f"«{shown}»: whole chunk only, no merge tree")
            self.caption.setText(
                f"token {token_id} «{shown}» ({len(root.bytes)} bytes) is built by no merge: rank-order "
                "merging of its bytes ends with other parts, so the encoder emits it only when a whole "
                "chunk (pre-tokenizer piece) is this token, as tiktoken does"
            )
            return
        if root.is_leaf:
            self.caption.setText(f"token {token_id} «{shown}» is a single byte: no merge makes it")
            return
        n_merges, depth = root.n_merges(), root.depth()
        self.caption.setText(
            f"token {token_id} «{shown}» ({len(root.bytes)} bytes) is built by "
            f"{n_merges} merge{'' if n_merges == 1 else 's'}, {depth} "
            f"level{'' if depth == 1 else 's'} deep; boxes show each merge's rank "
            "(orange: part of a character, blue: whole characters, grey: bytes)"
        )

    def show_message(self, message: str) -> None:
        """Draw no tree; show ``message`` in its place and as the caption."""
        self.tree.set_tree(None, message=message)
        self.caption.setText(message)
