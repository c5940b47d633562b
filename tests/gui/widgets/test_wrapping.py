"""FlowLayout: items left to right at their size hints, wrapped where the width runs out;
wrapped(): a label that wraps instead of widening its pane."""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QWidget

from tokexplorer.gui.widgets.wrapping import FlowLayout, wrapped


class Box(QWidget):
    """A widget of a fixed size hint."""

    def __init__(self, w: int, h: int) -> None:
        super().__init__()
        self._hint = QSize(w, h)

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return self._hint


def _row(qtbot, sizes, spacing=6):
    host = QWidget()
    qtbot.addWidget(host)
    flow = FlowLayout(host, spacing=spacing)
    boxes = [Box(w, h) for w, h in sizes]
    for b in boxes:
        flow.addWidget(b)
    return host, flow, boxes


def test_items_wrap_where_the_width_runs_out(qtbot):
    host, flow, boxes = _row(qtbot, [(100, 20), (100, 30), (100, 20)])
    assert (flow.sizeHint().width(), flow.sizeHint().height()) == (312, 30)  # all on one line
    assert (flow.minimumSize().width(), flow.minimumSize().height()) == (100, 30)  # the widest item
    host.resize(312, 100)
    host.show()
    flow.setGeometry(host.rect())
    assert [b.geometry().getRect() for b in boxes] == [(0, 5, 100, 20), (106, 0, 100, 30), (212, 5, 100, 20)]
    assert flow.heightForWidth(312) == 30
    # one pixel less: the third starts a second line, each line's items centred on its height
    flow.setGeometry(host.rect().adjusted(0, 0, -1, 0))
    assert [b.geometry().getRect() for b in boxes] == [(0, 5, 100, 20), (106, 0, 100, 30), (0, 36, 100, 20)]
    assert flow.heightForWidth(311) == 30 + 6 + 20
    assert flow.heightForWidth(100) == 20 + 6 + 30 + 6 + 20  # one item a line
    assert [len(line) for line in flow.lines(50)] == [1, 1, 1]  # too narrow for any: still one a line


def test_hidden_items_take_no_room(qtbot):
    host, flow, boxes = _row(qtbot, [(100, 20), (50, 20), (100, 20)])
    host.show()
    boxes[1].hide()
    assert flow.sizeHint().width() == 206
    assert [len(line) for line in flow.lines(206)] == [2]


def test_a_wrapped_label_is_narrower_than_its_text(qtbot):
    text = "a long explanation that would otherwise make its pane as wide as this whole sentence is"
    label = wrapped(text)
    qtbot.addWidget(label)
    assert label.wordWrap() and label.text() == text
    assert label.minimumSizeHint().width() < label.fontMetrics().horizontalAdvance(text) // 2
