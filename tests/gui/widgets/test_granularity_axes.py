"""The Granularity plot's log axes label only where labels fit (issue 16, point 7: the newcomer
saw "8·10²9·10²10³" run together under the plot)."""

from __future__ import annotations

import math

from PySide6.QtGui import QFontMetrics

from tokexplorer.core.analysis.granularity import GranularityReport, Level
from tokexplorer.gui.widgets.granularity_plot import GranularityPlot, LogAxis, tick_label

# the newcomer's table: word, character, byte, our BPE, cl100k_base, SentencePiece, WordPiece
LEVELS = [
    Level("word", "word", 151, 315, 3.55, 0.5),
    Level("character", "character", 192, 1117, 1.0, 0.43),
    Level("byte", "byte", 137, 1602, 0.7, 0.0),
    Level("subword", "custom BPE", 899, 328, 3.41, 0.0),
    Level("subword", "tiktoken cl100k_base", 100261, 575, 1.94, 0.0),
    Level("subword", "SentencePiece", 286, 689, 1.62, 0.0),
    Level("subword", "custom WordPiece", 510, 443, 2.52, 0.0),
]


def _labels(axis: LogAxis, lo: float, hi: float, size: float) -> list[str]:
    (spacing, labelled), (_none, _minor) = axis.logTickValues(lo, hi, size, [])
    return axis.logTickStrings(labelled, 1.0, spacing)


def test_tick_labels():
    assert [tick_label(math.log10(v)) for v in (137, 500, 1000, 2000, 50_000, 100_000, 1_000_000)] == [
        "137", "500", "1k", "2k", "50k", "100k", "1M",
    ]  # fmt: skip


def test_few_pixels_get_decades_only_and_many_get_more(qapp):
    axis = LogAxis("bottom")
    assert _labels(axis, 2.0, 5.0, 300) == ["100", "1k", "10k", "100k"]
    assert _labels(axis, 2.0, 5.0, 1300) == [
        "100", "200", "500", "1k", "2k", "5k", "10k", "20k", "50k", "100k",
    ]  # fmt: skip
    # every digit of one decade when it has the room
    assert _labels(LogAxis("left"), 2.4, 3.1, 700) == [
        "300", "400", "500", "600", "700", "800", "900", "1k",
    ]  # fmt: skip
    (_s, labelled), (_n, minor) = axis.logTickValues(2.0, 3.0, 300, [])
    assert len(labelled) + len(minor) == 10  # still a grid line at every digit


def test_no_two_labels_of_the_plot_overlap(qtbot):
    plot = GranularityPlot()
    qtbot.addWidget(plot)
    for width, height in ((1360, 460), (700, 300), (420, 260)):
        plot.resize(width, height)
        plot.show()
        plot.set_data(GranularityReport(1117, 1602, 900, 217, LEVELS, []), [(256 + k, 1602 - k) for k in range(640)])
        qtbot.waitExposed(plot)
        for name in ("bottom", "left"):
            axis = plot.plot.getAxis(name)
            lo, hi = axis.range
            size = axis.width() if name == "bottom" else axis.height()
            (spacing, labelled), _minor = axis.logTickValues(lo, hi, size, [])
            texts = axis.logTickStrings(labelled, 1.0, spacing)
            assert texts, (name, width)
            metrics = QFontMetrics(axis.style["tickFont"] or axis.font())
            px = [(v - lo) / (hi - lo) * size for v in labelled]
            for (a, ta), (b, tb) in zip(zip(px, texts), zip(px[1:], texts[1:])):
                wide = (metrics.horizontalAdvance(ta) + metrics.horizontalAdvance(tb)) / 2
                room = wide if name == "bottom" else metrics.height()
                assert b - a >= room, (name, width, ta, tb)


def test_a_label_that_could_be_read_as_another_points_has_a_leader(qtbot):
    """Three points 8 px one above the other and one apart: no label overlaps another, a
    label stays nearer its own point than any other where it can, and every label that
    is not beside its own point alone gets a leader line from the point to the side of
    the label facing it."""
    from PySide6.QtCore import QRectF

    from tokexplorer.gui.widgets.granularity_plot import _distance, leader_ends, place_labels

    points = [(100.0, 100.0), (100.0, 108.0), (100.0, 116.0), (300.0, 100.0)]
    boxes = place_labels(points, [(80.0, 16.0)] * 4, QRectF(0, 0, 600, 400))
    for i, box in enumerate(boxes):
        for other in boxes[i + 1 :]:
            assert not box.intersects(other)
    assert boxes[3] == QRectF(309, 92, 80, 16)  # alone: beside its point
    for i, ((x, y), box) in enumerate(zip(points, boxes)):
        others = points[:i] + points[i + 1 :]
        ends = leader_ends((x, y), box, others)
        alone = box.top() <= y <= box.bottom() and all(_distance(box, q) > _distance(box, (x, y)) for q in others)
        assert (ends is None) == alone, i
        if ends is not None:
            a, b = ends
            assert (a.x(), a.y()) == (x, y) and b.x() in (box.left(), box.right()) and b.y() == box.center().y()
    assert sum(leader_ends(p, b, [q for q in points if q != p]) is not None for p, b in zip(points, boxes)) >= 2
