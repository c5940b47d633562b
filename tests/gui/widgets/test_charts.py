"""The statistics chart: its legend sits beside the bars, never over them (issue 16)."""

from __future__ import annotations

from tokexplorer.gui.widgets.charts import GroupedBarChart


def test_legend_does_not_cover_the_bars(qtbot):
    chart = GroupedBarChart()
    qtbot.addWidget(chart)
    chart.resize(700, 400)
    chart.show()
    qtbot.waitExposed(chart)
    names = ["tiktoken cl100k_base", "a.bpe (BPE)", "sp120.model (SentencePiece)", "custom BPE"]
    chart.set_data(["all", "a.txt", "b.txt"], [(n, [4.0, 3.9, 4.1]) for n in names], title="chars/token")
    qtbot.wait(50)
    view = chart.plot.getPlotItem().getViewBox().sceneBoundingRect()
    legend = chart._legend.sceneBoundingRect()  # noqa: SLF001 - where the legend is drawn
    assert legend.width() > 50 and legend.height() > 40  # all four names are listed
    assert legend.left() >= view.right() - 1  # beside the bars (layout edges may share half a pixel)
