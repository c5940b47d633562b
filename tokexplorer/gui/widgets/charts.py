"""Grouped bar charts (pyqtgraph) for the corpus statistics.

One group of bars per category (a script or a file), one bar per series (a
tokenizer) in each group, the series told apart by colour and a legend. Missing
values (None) leave a gap.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyqtgraph as pg
from PySide6.QtCore import Qt
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
    ) -> None:
        """Draw the chart.

        Args:
            categories: one label per group of bars (x axis).
            series: ``(name, values)`` per series, one value per category (None: no bar).
            title: chart title.
            y_label: y axis label (with unit).
        """
        self.categories = list(categories)
        self.series = [(n, list(v)) for n, v in series]
        self.plot.clear()
        self._legend.clear()
        n = max(1, len(self.series))
        width = 0.8 / n
        for k, (name, values) in enumerate(self.series):
            xs = [i - 0.4 + width * (k + 0.5) for i, v in enumerate(values) if v is not None]
            ys = [float(v) for v in values if v is not None]
            color = theme.CHART_SERIES_COLORS[k % len(theme.CHART_SERIES_COLORS)]
            item = pg.BarGraphItem(x=xs, height=ys, width=width * 0.92, brush=color, pen=pg.mkPen(color.darker(130)))
            self.plot.addItem(item)
            self._legend.addItem(item, name)
        ax = self.plot.getAxis("bottom")
        ax.setTicks([[(i, c) for i, c in enumerate(self.categories)]])
        self.plot.setTitle(title, color=theme.CHART_TEXT.name(), size="11pt")
        self.plot.setLabel("left", y_label, color=theme.CHART_TEXT.name())
        self.plot.setXRange(-0.6, len(self.categories) - 0.4, padding=0)
        top = max([float(v) for _n, vs in self.series for v in vs if v is not None] or [1.0])
        self.plot.setYRange(0, top * 1.25 if top > 0 else 1.0, padding=0)
