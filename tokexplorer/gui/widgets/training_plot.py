"""Training plots of a BPE's merge list, drawn with pyqtgraph.

:class:`TrainingPlot` shows three plots sharing the merge axis:

* corpus tokens after the first N merges: ``tokens(N) = corpus bytes −
  Σ saved(rank < N)``, exact for a model trained in this session (the trainer
  records the tokens each merge saved, ``MergeRecord.saved``); for a model read
  from a file, estimated from the pair counts instead, which over-count the
  saving where a pair overlaps itself (``a a a`` holds (a, a) twice but merges
  once; runs of spaces and repeated emoji bytes make this large), and said so;
* bytes per token, ``corpus bytes / tokens(N)``;
* the new token's length in bytes against its rank (one point per merge).

Clicking anywhere on a plot emits :attr:`TrainingPlot.merge_clicked` with the
rank under the mouse; :meth:`TrainingPlot.set_marker` draws the selected rank.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from tokexplorer.core.types import MergeRecord
from tokexplorer.gui import theme

_TEXT = theme.PLOT_TEXT.name()  # pyqtgraph's axis labels take a colour name, not a QColor


def token_curve(counts: Sequence[int], n_bytes: int) -> np.ndarray:
    """Estimated corpus tokens after 0, 1, ..., len(counts) merges.

    Args:
        counts: the merges' pair counts, rank order.
        n_bytes: corpus size in UTF-8 bytes (= tokens before any merge).

    Returns:
        int64 array of ``len(counts) + 1`` values.

    >>> token_curve([5, 3], 20).tolist()
    [20, 15, 12]
    """
    c = np.asarray(counts, dtype=np.int64)
    return n_bytes - np.concatenate(([0], np.cumsum(c)))


def count_label(value: float) -> str:
    """An axis label for a count: ``"500"``, ``"2.5k"``, ``"20M"`` (as the Granularity plot
    writes them; pyqtgraph alone writes ``2e+07``).

    >>> [count_label(v) for v in (0, 500, 2500, 1.5e7, 2e7, 3e9)]
    ['0', '500', '2.5k', '15M', '20M', '3G']
    """
    for size, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(value) >= size:
            return f"{round(value / size, 3):g}{suffix}"
    return f"{round(value, 3):g}"


class CountAxis(pg.AxisItem):
    """A linear pyqtgraph axis labelled with :func:`count_label`."""

    def tickStrings(self, values, scale, spacing):  # noqa: N802 - pyqtgraph override
        return [count_label(v * scale) for v in values]


class TrainingPlot(QWidget):
    """Corpus tokens, bytes per token and new-token length against merge rank.

    Args:
        parent: Qt parent widget.

    Signals:
        merge_clicked(int): the user clicked the plots at this merge rank.

    Attributes:
        note: QLabel above the plots (what is shown, or why a plot is empty).
        tokens_plot, bpt_plot, length_plot: the three pyqtgraph PlotItems.
    """

    merge_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.glw = pg.GraphicsLayoutWidget()
        self.glw.setBackground(theme.PLOT_BACKGROUND)
        self.tokens_plot = self.glw.addPlot(
            row=0, col=0, axisItems={"left": CountAxis("left"), "bottom": CountAxis("bottom")}
        )
        self.bpt_plot = self.glw.addPlot(row=1, col=0, axisItems={"bottom": CountAxis("bottom")})
        self.length_plot = self.glw.addPlot(row=2, col=0, axisItems={"bottom": CountAxis("bottom")})
        titles = (
            (self.tokens_plot, "Corpus tokens after N merges", "tokens"),
            (self.bpt_plot, "Bytes per token", "bytes/token"),
            (self.length_plot, "New token length by rank (click a point: that merge)", "bytes"),
        )
        for plot, title, ylabel in titles:
            plot.setTitle(title, color=_TEXT, size="10pt")
            plot.showGrid(x=True, y=True, alpha=0.25)
            for name in ("left", "bottom"):
                ax = plot.getAxis(name)
                ax.setPen(pg.mkPen(theme.PLOT_AXIS))
                ax.setTextPen(pg.mkPen(theme.PLOT_TEXT))
            plot.setLabel("left", ylabel, color=_TEXT)
            plot.setMenuEnabled(False)
        self.length_plot.setLabel("bottom", "merge rank (= merges learned)", color=_TEXT)
        self.bpt_plot.setXLink(self.tokens_plot)
        self.length_plot.setXLink(self.tokens_plot)
        self.tokens_curve = self.tokens_plot.plot(pen=pg.mkPen(theme.PLOT_TOKENS, width=2))
        self.bpt_curve = self.bpt_plot.plot(pen=pg.mkPen(theme.PLOT_BYTES_PER_TOKEN, width=2))
        self.scatter = pg.ScatterPlotItem(size=5, pen=None, brush=pg.mkBrush(theme.PLOT_POINTS), hoverable=True)
        self.length_plot.addItem(self.scatter)
        self._markers = []
        for plot in (self.tokens_plot, self.bpt_plot, self.length_plot):
            line = pg.InfiniteLine(angle=90, movable=False, pen=pg.mkPen(theme.PLOT_MARKER, width=2))
            line.setVisible(False)
            plot.addItem(line)
            self._markers.append(line)
        self.scatter.sigClicked.connect(self._on_points_clicked)
        self.glw.scene().sigMouseClicked.connect(self._on_scene_clicked)
        self._n = 0
        self._pending: tuple[Sequence[MergeRecord], int | None] | None = None  # drawn when shown
        self._point_clicked = False

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note)
        layout.addWidget(self.glw, 1)
        self.set_merges([], None)

    # -- public ------------------------------------------------------------------

    @property
    def n_merges(self) -> int:
        return self._n

    def set_merges(self, merges: Sequence[MergeRecord], n_bytes: int | None) -> None:
        """Plot a merge list.

        Args:
            merges: merge records in rank order.
            n_bytes: size of the training corpus in UTF-8 bytes, or None when
                unknown (then the token plots show the tokens saved instead).
        """
        self._n = len(merges)
        if self.window().isVisible() and not self.isVisible():
            # another tab is shown: draw (tens of thousands of points) when this one is
            self._pending = (merges, n_bytes)
            return
        self._pending = None
        ranks = np.arange(len(merges))
        lengths = np.fromiter((len(m.merged) for m in merges), dtype=np.int64, count=len(merges))
        self.scatter.setData(x=ranks, y=lengths, data=ranks)
        exact = bool(merges) and all(m.saved is not None for m in merges)
        counts = [m.saved for m in merges] if exact else [m.count for m in merges]
        if not merges:
            self.tokens_curve.setData([], [])
            self.bpt_curve.setData([], [])
            self.note.setText("No merges to plot: train a BPE in the Corpus tab.")
        elif any(c is None for c in counts):
            self.tokens_curve.setData([], [])
            self.bpt_curve.setData([], [])
            self.note.setText(
                f"{len(merges):,} merges. Pair counts are unknown for this model (merges "
                "recovered from tiktoken ranks), so only the token lengths are plotted."
            )
        else:
            known = n_bytes is not None and n_bytes > 0
            base = n_bytes if known else int(sum(counts))
            toks = token_curve(counts, base)
            xs = np.arange(len(toks))
            if known:
                self.tokens_plot.setTitle("Corpus tokens after N merges", color=_TEXT, size="10pt")
                self.tokens_curve.setData(xs, toks)
                safe = np.maximum(toks, 1)
                self.bpt_curve.setData(xs, base / safe)
                self.note.setText(
                    f"{len(merges):,} merges on a corpus of {base:,} bytes: "
                    f"{int(toks[0]):,} → {int(toks[-1]):,} tokens "
                    f"({base / max(int(toks[-1]), 1):.2f} bytes per token)"
                    + (
                        ", as training merged them."
                        if exact
                        else ", estimated from the pair counts (the model was read from a file): "
                        "pairs that overlap themselves, as in runs of spaces, make the estimate low."
                    )
                )
            else:
                self.tokens_plot.setTitle("Tokens saved by the first N merges", color=_TEXT, size="10pt")
                self.tokens_curve.setData(xs, base - toks)
                self.bpt_curve.setData([], [])
                self.note.setText(
                    f"{len(merges):,} merges; the training corpus is not loaded, so the "
                    "plot shows the tokens saved (sum of pair counts) instead of corpus tokens."
                )
        for plot in (self.tokens_plot, self.bpt_plot, self.length_plot):
            plot.enableAutoRange()
        for m in self._markers:
            m.setVisible(False)

    def show_training(self, merges: list[MergeRecord], n_bytes: int | None) -> None:
        """Plot the merges a running training has learned so far, saying so in the note.

        ``merges`` is the trainer's own list, which grows on its thread: a copy is plotted.
        """
        snapshot = list(merges)
        self.set_merges(snapshot, n_bytes)
        if self._pending is None:
            self.note.setText(f"training… {len(snapshot):,} merges so far. " + self.note.text())

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._pending is not None:
            self.set_merges(*self._pending)

    def set_marker(self, rank: int | None) -> None:
        """Draw a vertical line at merge ``rank`` on every plot (None: hide it)."""
        for m in self._markers:
            if rank is None:
                m.setVisible(False)
            else:
                m.setValue(rank)
                m.setVisible(True)

    def rank_at_x(self, x: float) -> int | None:
        """The merge rank nearest to plot coordinate ``x`` (None with no merges)."""
        if self._n == 0:
            return None
        return int(min(max(round(x), 0), self._n - 1))

    # -- internals ---------------------------------------------------------------

    def _on_points_clicked(self, _item, points, *_args) -> None:
        if len(points):
            rank = int(points[0].data())
            self._point_clicked = True
            self.set_marker(rank)
            self.merge_clicked.emit(rank)

    def _on_scene_clicked(self, event) -> None:
        if self._point_clicked:  # the scatter already handled this click
            self._point_clicked = False
            return
        pos = event.scenePos()
        for plot in (self.tokens_plot, self.bpt_plot, self.length_plot):
            if plot.sceneBoundingRect().contains(pos):
                x = plot.vb.mapSceneToView(pos).x()
                rank = self.rank_at_x(x)
                if rank is not None:
                    self.set_marker(rank)
                    self.merge_clicked.emit(rank)
                return
