"""Every table of the window has sensible columns at 1,000 pixels and at full HD: each column at
least its header, the main text column (the merged token, a piece, a name) never squeezed below
its widest text while another text column sits at full width (the merge table's Left, Right and
merged token share one cap), and the merge table whole (no sideways scrolling) in a window 1,000
pixels wide."""

from __future__ import annotations

import pytest

from tokexplorer.gui.models.merge_model import COL_LEFT, COL_MERGED, COL_RIGHT
from tokexplorer.gui.widgets.table_fit import ColumnShare

WAIT = 120_000  # ms; ceiling for the startup models, never asserted


@pytest.mark.parametrize("size", [(1000, 700), (1920, 1080)])
def test_table_columns_at_1000_pixels_and_full_hd(qtbot, window, size):
    window.resize(*size)
    window.show()
    qtbot.waitExposed(window)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([])
    shares = []
    for i in range(window.tabs.count()):
        window.tabs.setCurrentIndex(i)
        qtbot.wait(50)
        shares += [s for s in window.tabs.widget(i).findChildren(ColumnShare) if s.view.isVisible() and s.wanted]
    assert len(shares) >= 6  # corpus files, merges, code points, statistics, granularity, n-best, samples...
    for share in shares:
        view, hh = share.view, share.view.horizontalHeader()
        window.tabs.setCurrentWidget(next(window.tabs.widget(i) for i in range(window.tabs.count())
                                          if window.tabs.widget(i).isAncestorOf(view)))  # fmt: skip

        def shared(view=view, hh=hh, share=share) -> bool:  # once the view has laid out its rows
            widths = [view.columnWidth(c) for c in range(hh.count())]
            return widths == [share.widths(view.viewport().width())[c] for c in range(hh.count())]

        qtbot.waitUntil(shared, timeout=5000)
        assert all(view.columnWidth(c) >= hh.sectionSizeHint(c) for c in range(hh.count()))
    merges = window.merges_pane.view
    room = merges.viewport().width()
    assert sum(merges.columnWidth(c) for c in range(7)) == room  # whole, the merged token taking the rest
    # the token columns share one cap: each is whole, at its header, or within a pixel of the widest
    widths = {c: merges.columnWidth(c) for c in (COL_LEFT, COL_RIGHT, COL_MERGED)}
    header = merges.horizontalHeader().sectionSizeHint
    cap = max(w for c, w in widths.items() if w > header(c))
    for col, width in widths.items():
        assert width >= min(merges.columns.wanted[col], cap - 1) or width == header(col)
    if size[0] == 1920:  # room for every token column at its widest token
        for col in (COL_LEFT, COL_RIGHT):
            assert merges.columnWidth(col) == merges.columns.wanted[col]
