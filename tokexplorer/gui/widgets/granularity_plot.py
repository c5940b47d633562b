"""Sequence length against vocabulary size, on log-log axes, drawn with pyqtgraph.

The curve is a byte-level BPE's (corpus tokens with its first k merges, for
every k: :func:`~tokexplorer.core.analysis.granularity.bpe_curve`); the word, character
and byte levels and every subword tokenizer of a
:class:`~tokexplorer.core.analysis.granularity.GranularityReport` are points
on it, labelled: word level top left of the trade-off (a huge vocabulary, few
tokens), bytes bottom right (256 ids, the longest sequences).

Both axes are :class:`LogAxis`: a grid line at every 1-9 of each decade, but labels
only where they fit (the decades; 2 and 5 too, or every digit, when the axis has room).
The point labels never overlap (:func:`place_labels`, again after every resize or zoom);
points drawn on the same pixels share one label, a name a line.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QColor, QFontMetrics, QPen
from PySide6.QtWidgets import QGraphicsLineItem, QVBoxLayout, QWidget

from tokexplorer.core.analysis import GranularityReport
from tokexplorer.gui import theme

_TEXT = theme.PLOT_TEXT.name()

#: Which digits of a decade are labelled, from the fewest labels to the most.
MANTISSA_SETS: tuple[tuple[int, ...], ...] = ((1,), (1, 2, 5), tuple(range(1, 10)))
_GAP_PX = 10  # free pixels between two labels


def tick_label(value: float) -> str:
    """The label of a log-axis tick at ``log10(v) == value``: ``"500"``, ``"2k"``, ``"100k"``, ``"1M"``."""
    v = round(10**value, 6)
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if v >= size:
            return f"{v / size:g}{suffix}"
    return f"{v:g}"


#: Pixels between a point and its label, and around each point's marker.
LABEL_GAP = 4.0
_MARKER_PX = 10.0  # a marker's box kept free of labels
_SAME_POINT_PX = 6.0  # points closer than this share one label


def place_labels(
    points: Sequence[tuple[float, float]], sizes: Sequence[tuple[float, float]], bounds: QRectF
) -> list[QRectF]:
    """Boxes for the labels of ``points`` (pixels, y down) that overlap neither each other
    nor any point's marker: each label right or left of its point, at its height or moved
    up and down a label height at a time, inside ``bounds`` when it fits there, and
    nearer its own point than any other where it can be (a label moved off its point's
    height gets a leader line: :func:`leader_ends`).

    Args:
        points: ``(x, y)`` of each point, in pixels.
        sizes: ``(width, height)`` of each label, in pixels, in the same order.
        bounds: the area labels should stay in (the plot's).

    Returns:
        One box per label, in the order given.
    """
    markers = [QRectF(x - _MARKER_PX / 2, y - _MARKER_PX / 2, _MARKER_PX, _MARKER_PX) for x, y in points]
    placed: list[QRectF] = []

    def free(box: QRectF) -> bool:
        return not any(box.intersects(other) for other in placed + markers)

    def own(box: QRectF, i: int) -> bool:  # no other point is nearer the box than point i
        d = _distance(box, points[i])
        return all(_distance(box, q) > d for j, q in enumerate(points) if j != i)

    for i, ((x, y), (w, h)) in enumerate(zip(points, sizes)):
        candidates = []
        for k in range(60):  # 0, -1, +1, -2, +2, ... label heights up and down
            dy = (k + 1) // 2 * (h + 1) * (-1 if k % 2 else 1)
            for left in (x + LABEL_GAP + _MARKER_PX / 2, x - LABEL_GAP - _MARKER_PX / 2 - w):
                candidates.append(QRectF(left, y - h / 2 + dy, w, h))
        box = None
        for group in ([c for c in candidates if bounds.contains(c)], candidates):  # inside the plot first
            usable = [c for c in group if free(c)]
            if usable:
                box = next((c for c in usable if own(c, i)), usable[0])
                break
        placed.append(box if box is not None else candidates[-1])
    return placed


def _distance(box: QRectF, point: tuple[float, float]) -> float:
    """Pixels from ``point`` to the nearest point of ``box`` (0 inside it)."""
    x, y = point
    dx = max(box.left() - x, 0.0, x - box.right())
    dy = max(box.top() - y, 0.0, y - box.bottom())
    return math.hypot(dx, dy)


def leader_ends(
    point: tuple[float, float], box: QRectF, others: Sequence[tuple[float, float]] = ()
) -> tuple[QPointF, QPointF] | None:
    """The line from ``point`` to its label's ``box`` when the label could be read as
    another point's: moved off the point's height, or with one of ``others`` (the other
    points) as near; None when the label sits beside its point alone. The line goes to
    the middle of the box's side that faces the point.

    >>> leader_ends((10, 50), QRectF(18, 45, 40, 10)) is None
    True
    >>> a, b = leader_ends((10, 50), QRectF(18, 20, 40, 10))
    >>> (a.x(), a.y(), b.x(), b.y())
    (10.0, 50.0, 18.0, 25.0)
    >>> leader_ends((10, 50), QRectF(18, 45, 40, 10), [(10, 55)]) is not None
    True
    """
    x, y = point
    mine = _distance(box, point)
    if box.top() <= y <= box.bottom() and all(_distance(box, q) > mine for q in others):
        return None
    side = box.left() if box.left() >= x else box.right()
    return QPointF(x, y), QPointF(side, box.center().y())


def merge_close(points: Sequence[tuple[float, float]], texts: Sequence[str]) -> list[tuple[int, str]]:
    """One label per group of points closer than a few pixels: ``(index of the group's first
    point, its texts a line each)``, in the order of the first points.

    >>> merge_close([(10, 10), (50, 10), (11, 12)], ["a", "b", "c"])
    [(0, 'a\\nc'), (1, 'b')]
    """
    groups: list[tuple[int, list[str]]] = []
    for i, ((x, y), text) in enumerate(zip(points, texts)):
        for first, members in groups:
            fx, fy = points[first]
            if abs(fx - x) < _SAME_POINT_PX and abs(fy - y) < _SAME_POINT_PX:
                members.append(text)
                break
        else:
            groups.append((i, [text]))
    return [(first, "\n".join(members)) for first, members in groups]


class LogAxis(pg.AxisItem):
    """A pyqtgraph axis for log mode whose labels never overlap.

    Every digit 1-9 of each decade gets a grid line and a tick (the second level,
    no text); labelled (the first level) are the richest of :data:`MANTISSA_SETS`
    whose closest two labels are still a label apart on screen (widths measured
    with the axis font; heights on a vertical axis).
    """

    def __init__(self, orientation: str) -> None:
        super().__init__(orientation)
        self.setStyle(maxTextLevel=0)

    def _room_needed(self, lo: float, hi: float) -> float:
        """Pixels two neighbouring labels need between their centres."""
        metrics = QFontMetrics(self.style["tickFont"] or self.font())
        if self.orientation in ("left", "right"):
            return metrics.height() + _GAP_PX
        widest = max(metrics.horizontalAdvance(tick_label(float(d))) for d in range(math.floor(lo), math.ceil(hi) + 1))
        return widest + _GAP_PX

    def logTickValues(self, lo, hi, size, _std_ticks):  # noqa: N802 - pyqtgraph override
        """Labelled ticks (spacing 1) and the other digits of each decade (spacing None), as log10 values."""
        if hi <= lo or size <= 0:
            return [(1.0, []), (None, [])]
        per_decade = size / (hi - lo)
        need = self._room_needed(lo, hi)
        chosen = MANTISSA_SETS[0]
        for digits in MANTISSA_SETS[1:]:
            steps = [*digits, 10]
            closest = min(math.log10(b / a) for a, b in zip(steps, steps[1:]))
            if closest * per_decade >= need:
                chosen = digits
        labelled, minor = [], []
        for decade in range(math.floor(lo), math.ceil(hi) + 1):
            for d in range(1, 10):
                v = decade + math.log10(d)
                if lo <= v <= hi:
                    (labelled if d in chosen else minor).append(v)
        return [(1.0, labelled), (None, minor)]

    def logTickStrings(self, values, scale, _spacing):  # noqa: N802 - pyqtgraph override
        """``"2k"`` style labels (see :func:`tick_label`)."""
        return [tick_label(v + math.log10(scale)) for v in values]


class GranularityPlot(QWidget):
    """Tokens against vocabulary size: the BPE curve and the levels as labelled points.

    Attributes:
        plot: the pyqtgraph PlotItem; curve: the BPE curve; points: the levels (symbols only).
        labels: the text items of the points (one per group of points on the same pixels:
            their names a line each), placed by :func:`place_labels`.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.widget = pg.PlotWidget(axisItems={"bottom": LogAxis("bottom"), "left": LogAxis("left")})
        self.widget.setBackground(theme.PLOT_BACKGROUND)
        self.plot = self.widget.getPlotItem()
        self.plot.setLogMode(x=True, y=True)
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMenuEnabled(False)
        self.plot.setTitle("Sequence length against vocabulary size", color=_TEXT, size="10pt")
        self.plot.setLabel("bottom", "vocabulary size (log)", color=_TEXT)
        self.plot.setLabel("left", "corpus tokens (log)", color=_TEXT)
        for name in ("left", "bottom"):
            ax = self.plot.getAxis(name)
            ax.setPen(pg.mkPen(theme.PLOT_AXIS))
            ax.setTextPen(pg.mkPen(theme.PLOT_TEXT))
        self.curve = self.plot.plot(pen=pg.mkPen(theme.PLOT_TOKENS, width=2), name="BPE")
        self.points = self.plot.plot(
            pen=None, symbol="o", symbolSize=9, symbolPen=pg.mkPen(theme.PLOT_MARKER),
            symbolBrush=pg.mkBrush(theme.PLOT_MARKER),
        )  # fmt: skip
        self.labels: list[pg.TextItem] = []
        self.leaders: list[QGraphicsLineItem] = []  # from a point to its label moved off the point's height
        self._placing = False
        self._levels: list[tuple[float, float, str]] = []  # (log10 vocab, log10 tokens, text) of each point
        view = self.plot.getViewBox()
        view.sigResized.connect(self._place)
        view.sigRangeChanged.connect(self._place)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.widget)

    def set_data(self, report: GranularityReport | None, curve: Sequence[tuple[int, int]] = ()) -> None:
        """Show the levels of ``report`` and the BPE ``curve`` (``(vocab size, tokens)`` points)."""
        self.curve.setData([v for v, _ in curve], [t for _, t in curve])
        if report is None:
            self.points.setData([], [])
            self._levels = []
            self._place()
            return
        shown = [lv for lv in report.levels if lv.tokens > 0 and lv.vocab_size > 0]
        self.points.setData([lv.vocab_size for lv in shown], [lv.tokens for lv in shown])
        self._levels = [
            (math.log10(lv.vocab_size), math.log10(lv.tokens), lv.level if lv.level != "subword" else lv.name)
            for lv in shown
        ]
        self._place()

    def _place(self, *_args: object) -> None:
        """Put the point labels where none overlaps another (after new data, a resize, a zoom)."""
        if self._placing:
            return  # the labels added below moved the range
        self._placing = True
        try:
            self._place_labels()
        finally:
            self._placing = False

    def _place_labels(self) -> None:
        view = self.plot.getViewBox()
        for item in self.labels:
            self.plot.removeItem(item)
        for line in self.leaders:
            view.removeItem(line)
        self.labels, self.leaders = [], []
        if not self._levels:
            return
        # in log mode the items sit at log10 coordinates; pixels here are the scene's
        scene = [view.mapViewToScene(QPointF(x, y)) for x, y, _ in self._levels]
        groups = merge_close([(p.x(), p.y()) for p in scene], [t for _, _, t in self._levels])
        items = [pg.TextItem(text, color=_TEXT, anchor=(0, 0)) for _, text in groups]
        sizes = []
        for item in items:
            rect = item.textItem.boundingRect()
            sizes.append((rect.width(), rect.height()))
        bounds = view.sceneBoundingRect()
        at = [(scene[i].x(), scene[i].y()) for i, _ in groups]
        boxes = place_labels(at, sizes, bounds)
        pen = QPen(QColor(_TEXT))
        pen.setCosmetic(True)  # one pixel wide whatever the zoom
        for item, box, point in zip(items, boxes, at):
            item.setPos(view.mapSceneToView(box.topLeft()))
            self.plot.addItem(item)
            self.labels.append(item)
            ends = leader_ends(point, box, [q for q in at if q is not point])
            if ends is not None:
                a, b = (view.mapSceneToView(e) for e in ends)
                line = QGraphicsLineItem(a.x(), a.y(), b.x(), b.y())
                line.setPen(pen)
                view.addItem(line, ignoreBounds=True)
                self.leaders.append(line)
