"""The Unigram tab's n-best and samples tables show their headers whole ("P (posterior)" was cut
to "P (posteri") in a window 1,280 and 1,000 pixels wide, without scrolling sideways."""

from __future__ import annotations

import pytest

from fixtures.sp import train_proto
from tokexplorer.core.backends import SentencePieceTokenizer

WAIT = 60_000  # ms; ceiling for the word's worker, never asserted


@pytest.fixture(scope="module")
def unigram() -> SentencePieceTokenizer:
    return SentencePieceTokenizer(train_proto(model_type="unigram", vocab_size=60)[0], name="u.model (SentencePiece)")


@pytest.mark.parametrize("width", [1280, 1000])
def test_nbest_and_samples_headers_are_whole(qtbot, window, unigram, width):
    window.resize(width, 760)
    window.show()
    qtbot.waitExposed(window)
    window.state.set_tokenizers([unigram])
    window.tabs.setCurrentWidget(window.unigram_pane)
    word = window.unigram_pane.word
    qtbot.waitUntil(lambda: word.analysis is not None and word.nbest_table.rowCount() > 0, timeout=WAIT)
    qtbot.wait(50)  # the layout settles at this width
    for table, last in ((word.nbest_table, "P\n(posterior)"), (word.samples_table, "P\n(at alpha)")):
        titles = [table.horizontalHeaderItem(c).text() for c in range(4)]
        assert titles == ["#", "Pieces", "Score\n(Σ log p)", last]
        header = table.horizontalHeader()
        fm = header.fontMetrics()
        for col, title in enumerate(titles):
            lines = max(fm.horizontalAdvance(line) for line in title.split("\n"))
            assert table.columnWidth(col) >= lines, (width, title, table.columnWidth(col), lines)
        # every column is in view: nothing scrolled off to the right
        assert table.horizontalScrollBar().maximum() == 0
        assert sum(table.columnWidth(c) for c in range(4)) <= table.viewport().width()
        assert header.sectionViewportPosition(3) + table.columnWidth(3) <= table.viewport().width()
