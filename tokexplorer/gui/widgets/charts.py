"""Grouped bar charts (pyqtgraph) for the corpus statistics.

One group of bars per category (a script or a file), one bar per series (a
tokenizer) in each group, the series told apart by colour and a legend. Missing
values (None) leave a gap. A category may carry a second line under its name (its
share of the corpus) and be marked faint: its bars are drawn pale and hatched (a
ratio from a small sample).
"""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QSizePolicy, QVBoxLayout, QWidget

from tokexplorer.gui import theme


class GroupedBarChart(QWidget):
    """A grouped bar chart.

    Args:
        parent: optional parent widget.

    Attributes:
        plot: the ``pyqtgraph.PlotWidget``.
        categories: category labels of the last :meth:`set_data` call.
        series: ``(name, values)`` of the last call.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.plot = pg.PlotWidget(background=theme.CHART_BACKGROUND)
        self.plot.setMenuEnabled(False)
        self.plot.setMouseEnabled(x=False, y=False)
        self.plot.hideButtons()
        self.plot.showGrid(x=False, y=True, alpha=0.25)
        for name in ("left", "bottom"):
            ax = self.plot.getAxis(name)
            ax.setPen(pg.mkPen(theme.CHART_AXIS))
            ax.setTextPen(pg.mkPen(theme.CHART_TEXT))
        # the legend gets its own cell right of the bars, so it never covers one
        self._legend = pg.LegendItem(labelTextColor=theme.CHART_TEXT.name(), brush=pg.mkBrush(theme.CHART_LEGEND_BG))
        self._legend.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        grid = self.plot.getPlotItem().layout
        grid.addItem(self._legend, 2, grid.columnCount())  # the view box's row, a column of its own
        grid.setAlignment(self._legend, Qt.AlignmentFlag.AlignTop)
        self.categories: list[str] = []
        self.series: list[tuple[str, list[float | None]]] = []
        self.notes: list[str] = []
        self.faint: list[bool] = []
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.plot)

    def set_data(
        self,
        categories: Sequence[str],
        series: Sequence[tuple[str, Sequence[float | None]]],
        *,
        title: str = "",
        y_label: str = "",
        notes: Sequence[str] = (),
        faint: Sequence[bool] = (),
    ) -> None:
        """Draw the chart.

        Args:
            categories: one label per group of bars (x axis).
            series: ``(name, values)`` per series, one value per category (None: no bar).
            title: chart title.
            y_label: y axis label (with unit).
            notes: per category, a second line under its label (``"99.8 %"``); none: one line.
            faint: per category, whether its bars are drawn pale and hatched; none: no bar is.
        """
        self.categories = list(categories)
        self.series = [(n, list(v)) for n, v in series]
        self.notes = list(notes) or [""] * len(self.categories)
        self.faint = list(faint) or [False] * len(self.categories)
        self.plot.clear()
        self._legend.clear()
        n = max(1, len(self.series))
        width = 0.8 / n
        for k, (name, values) in enumerate(self.series):
            shown = [i for i, v in enumerate(values) if v is not None]
            xs = [i - 0.4 + width * (k + 0.5) for i in shown]
            ys = [float(values[i]) for i in shown]
            color = theme.CHART_SERIES_COLORS[k % len(theme.CHART_SERIES_COLORS)]
            item = pg.BarGraphItem(
                x=xs, height=ys, width=width * 0.92, brush=color, pen=pg.mkPen(color.darker(130)),
                brushes=[self._brush(color, self.faint[i]) for i in shown],
            )  # fmt: skip
            self.plot.addItem(item)
            self._legend.addItem(pg.BarGraphItem(x=[0], height=[0], width=1, brush=color), name)
        ax = self.plot.getAxis("bottom")
        ax.setTicks([[(i, f"{c}\n{t}" if t else c) for i, (c, t) in enumerate(zip(self.categories, self.notes))]])
        ax.setHeight(44 if any(self.notes) else None)  # (room for the second line)
        self.plot.setTitle(title, color=theme.CHART_TEXT.name(), size="11pt")
        self.plot.setLabel("left", y_label, color=theme.CHART_TEXT.name())
        self.plot.setXRange(-0.6, len(self.categories) - 0.4, padding=0)
        top = max([float(v) for _n, vs in self.series for v in vs if v is not None] or [1.0])
        self.plot.setYRange(0, top * 1.25 if top > 0 else 1.0, padding=0)

    @staticmethod
    def _brush(color: QColor, faint: bool) -> QBrush:
        """A bar's fill: the series colour, or pale and hatched for a small sample."""
        if not faint:
            return QBrush(color)
        pale = QColor(color)
        pale.setAlpha(theme.CHART_FEW_ALPHA)
        return QBrush(pale, Qt.BrushStyle.BDiagPattern)
