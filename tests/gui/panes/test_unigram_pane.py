"""The Unigram tab: piece log probabilities, the lattice, n-best and samples of a
SentencePiece Unigram model, read from the widgets and checked against sentencepiece."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from fixtures.sp import train_proto
from tokexplorer.core.backends import SampledSentencePieceTokenizer, SentencePieceTokenizer
from tokexplorer.gui.models.unigram_model import COL_LOGP, COL_PIECE, RawRole
from tokexplorer.gui.panes.unigram_pane import UnigramPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.lattice_view import lattice_rows

WAIT = 60_000  # ms; generous ceiling for a worker, never asserted


@pytest.fixture(scope="module")
def unigram() -> SentencePieceTokenizer:
    return SentencePieceTokenizer(train_proto(model_type="unigram", vocab_size=60)[0], name="u.model (SentencePiece)")


def test_pane_shows_scores_lattice_nbest_and_samples(qtbot, unigram):
    state = AppState()
    pane = UnigramPane(state)
    qtbot.addWidget(pane)
    assert pane.model_combo.count() == 0 and pane.vocab_model.rowCount() == 0
    bpe = SentencePieceTokenizer(train_proto(model_type="bpe", vocab_size=60)[0])
    state.set_tokenizers([bpe, unigram])
    assert [pane.model_combo.itemText(i) for i in range(pane.model_combo.count())] == ["u.model (SentencePiece)"]
    sp = unigram.processor
    m = pane.vocab_model
    assert m.rowCount() == 60
    pane.vocab_table.sortByColumn(COL_LOGP, Qt.SortOrder.DescendingOrder)
    logps = [m.data(m.index(r, COL_LOGP), RawRole) for r in range(60)]
    assert logps == sorted((sp.get_score(i) for i in range(60)), reverse=True)
    word = pane.word
    qtbot.waitUntil(lambda: word.analysis is not None, timeout=WAIT)  # the default word
    word.analysis = None
    word.text_edit.setText("the small world")
    qtbot.waitUntil(lambda: word.analysis is not None, timeout=WAIT)
    a = word.analysis
    assert [i for _, i in a.lattice.encoding] == sp.encode("the small world")
    rows = lattice_rows(a.lattice)
    assert rows[0] == list(a.lattice.best) and sum(map(len, rows)) == len(a.lattice.nodes)
    nbest_rows = [word.nbest_table.item(r, 1).text() for r in range(word.nbest_table.rowCount())]
    assert nbest_rows == [" | ".join(p) for p in sp.nbest_encode_as_pieces("the small world", 5)]
    assert word.samples_table.rowCount() == 8
    for r in range(8):
        pieces = word.samples_table.item(r, 1).text().split(" | ")
        assert sp.decode_pieces(pieces) == "the small world"
    assert m.data(m.index(0, COL_PIECE)) in {sp.id_to_piece(i) for i in range(60)}


def test_sampled_column_goes_to_compare(qtbot, unigram):
    state = AppState()
    pane = UnigramPane(state)
    qtbot.addWidget(pane)
    state.set_tokenizers([unigram])
    pane.word.alpha_spin.setValue(0.25)
    pane.word.compare_button.click()
    assert [t.name for t in state.tokenizers] == ["u.model (SentencePiece)", "u.model (SentencePiece) · sampled α=0.25"]
    sampled = state.tokenizers[1]
    assert isinstance(sampled, SampledSentencePieceTokenizer) and sampled.alpha == 0.25
    assert pane.model_combo.count() == 1  # the sampled column is not offered as a model


def test_piece_table_is_widened_to_hold_its_columns(qtbot, unigram):
    state = AppState()
    pane = UnigramPane(state)
    qtbot.addWidget(pane)
    pane.resize(1600, 900)
    pane.show()
    qtbot.waitExposed(pane)
    table = pane.vocab_table
    pane.splitter.setSizes([380, 1200])  # the pane's start: narrower than the four columns (387 px here)
    state.set_tokenizers([unigram])
    header = table.horizontalHeader()
    assert pane.splitter.sizes()[0] >= header.length() + table.verticalScrollBar().sizeHint().width()
    assert pane.splitter.sizes()[0] <= sum(pane.splitter.sizes()) // 2


def test_a_model_chosen_while_the_tab_is_hidden_shows_every_column_when_shown(qtbot, unigram):
    """The newcomer's table showed Id and Piece only ("Log proba…" cut, the rest scrolled
    away): the model arrived while the tab was hidden, when the splitter had no width."""
    from PySide6.QtWidgets import QLabel, QTabWidget

    state = AppState()
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    pane = UnigramPane(state)
    tabs.addTab(QLabel("another tab"), "other")
    tabs.addTab(pane, "Unigram")
    tabs.resize(1280, 800)
    tabs.show()
    qtbot.waitExposed(tabs)
    state.set_tokenizers([unigram])  # while the Unigram tab is hidden
    tabs.setCurrentWidget(pane)
    table = pane.vocab_table
    qtbot.waitUntil(lambda: table.viewport().width() >= table.horizontalHeader().length(), timeout=5_000)
    assert table.horizontalScrollBar().maximum() == 0
    assert [table.columnWidth(c) > 0 for c in range(5)] == [True] * 5


def test_pieces_are_drawn_in_a_fixed_width_font(qtbot, unigram):
    from PySide6.QtGui import QFontDatabase, QFontMetrics

    state = AppState()
    pane = UnigramPane(state)
    qtbot.addWidget(pane)
    state.set_tokenizers([unigram])
    model = pane.vocab_model
    font = model.data(model.index(3, COL_PIECE), Qt.ItemDataRole.FontRole)
    assert font.family() == QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
    metrics = QFontMetrics(font)  # every character as wide as another: ▁I and ▁| apart
    assert metrics.horizontalAdvance("I") == metrics.horizontalAdvance("|") == metrics.horizontalAdvance("m")
    assert model.data(model.index(3, COL_LOGP), Qt.ItemDataRole.FontRole) is None
    pane.word.text_edit.setText("hello")
    qtbot.waitUntil(lambda: pane.word.nbest_table.rowCount() > 0, timeout=WAIT)
    assert pane.word.nbest_table.item(0, 1).font().family() == font.family()
