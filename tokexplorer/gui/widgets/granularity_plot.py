"""Sequence length against vocabulary size, on log-log axes, drawn with pyqtgraph.

The curve is a byte-level BPE's (corpus tokens with its first k merges, for
every k: :func:`~tokexplorer.core.analysis.granularity.bpe_curve`); the word, character
and byte levels and every subword tokenizer of a
:class:`~tokexplorer.core.analysis.granularity.GranularityReport` are points
on it, labelled: word level top left of the trade-off (a huge vocabulary, few
tokens), bytes bottom right (256 ids, the longest sequences).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtWidgets import QVBoxLayout, QWidget

from tokexplorer.core.analysis import GranularityReport
from tokexplorer.gui import theme

_TEXT = theme.PLOT_TEXT.name()


class GranularityPlot(QWidget):
    """Tokens against vocabulary size: the BPE curve and the levels as labelled points.

    Attributes:
        plot: the pyqtgraph PlotItem; curve: the BPE curve; points: the levels (symbols only).
        labels: the text items of the points, in report order.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.widget = pg.PlotWidget()
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
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.widget)

    def set_data(self, report: GranularityReport | None, curve: Sequence[tuple[int, int]] = ()) -> None:
        """Show the levels of ``report`` and the BPE ``curve`` (``(vocab size, tokens)`` points)."""
        for item in self.labels:
            self.plot.removeItem(item)
        self.labels = []
        self.curve.setData([v for v, _ in curve], [t for _, t in curve])
        if report is None:
            self.points.setData([], [])
            return
        shown = [lv for lv in report.levels if lv.tokens > 0 and lv.vocab_size > 0]
        self.points.setData([lv.vocab_size for lv in shown], [lv.tokens for lv in shown])
        xs = [math.log10(lv.vocab_size) for lv in shown] + [math.log10(v) for v, _ in curve if v > 0]
        lo, hi = min(xs), max(xs)
        for lv in shown:
            text = lv.level if lv.level != "subword" else lv.name
            # a label near the right edge goes to the left of its point, so it is not cut off
            right = hi > lo and math.log10(lv.vocab_size) > lo + 0.8 * (hi - lo)
            label = pg.TextItem(text, color=_TEXT, anchor=(1, 1) if right else (0, 1))
            # in log mode the items sit at log10 coordinates
            label.setPos(math.log10(lv.vocab_size), math.log10(lv.tokens))
            self.plot.addItem(label)
            self.labels.append(label)
