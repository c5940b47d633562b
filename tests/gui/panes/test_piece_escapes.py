"""The one escape rule in every table of pieces (issue 16, points 5 and 7): a
Unigram piece U+200D is ``<U+200D>``, not a blank row; a WordPiece ``##`` + U+FE0F
is ``##<U+FE0F>``, not an emoji-style ``#``; ``##`` + U+20E3 is ``##◌⃣``, not a
keycap. Pieces come from sentencepiece and the WordPiece model; what is checked
is what the tables and labels hold."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from fixtures.sp import train_proto
from tokexplorer.core.backends import SentencePieceTokenizer
from tokexplorer.core.text import piece_display
from tokexplorer.core.wordpiece import WordPiece, train_wordpiece
from tokexplorer.gui.models.unigram_model import COL_ID, COL_PIECE, RawRole
from tokexplorer.gui.models.wordpiece_model import COL_BPE, COL_LEFT, COL_MERGED, COL_RIGHT
from tokexplorer.gui.panes.replay_pane import ReplayPane
from tokexplorer.gui.panes.unigram_pane import UnigramPane
from tokexplorer.gui.panes.wordpiece_pane import WordPiecePane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.token_view import TokenView

WAIT = 60_000  # ms; generous ceiling for a worker, never asserted
FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
LINES = [
    f"family {FAMILY} and \U0001f3f3\ufe0f\u200d\U0001f308 flag",
    "the cat sat on the mat",
    "hands \U0001f9d1\u200d\U0001f91d\u200d\U0001f9d1 pirate \U0001f3f4\u200d\u2620\ufe0f",
] * 10


@pytest.fixture(scope="module")
def zwj_unigram() -> SentencePieceTokenizer:
    return SentencePieceTokenizer(train_proto(LINES, model_type="unigram", vocab_size=36)[0], name="zwj.model")


def test_unigram_table_and_segmentations_escape_a_joiner(qtbot, zwj_unigram):
    sp = zwj_unigram.processor
    zwj = sp.piece_to_id("\u200d")
    assert zwj == 4 and zwj != sp.unk_id()  # sentencepiece made ZWJ a piece of its own
    state = AppState()
    pane = UnigramPane(state)
    qtbot.addWidget(pane)
    state.set_tokenizers([zwj_unigram])
    m = pane.vocab_model
    rows = {m.data(m.index(r, COL_ID), RawRole): r for r in range(m.rowCount())}
    assert m.data(m.index(rows[zwj], COL_PIECE)) == "<U+200D>"
    assert m.data(m.index(rows[zwj], COL_PIECE), RawRole) == "\u200d"  # sorting and copying keep the piece
    shown = [m.data(m.index(rows[i], COL_PIECE)) for i in range(sp.get_piece_size())]
    assert shown == [piece_display(sp.id_to_piece(i)) for i in range(sp.get_piece_size())]
    word = pane.word
    qtbot.waitUntil(lambda: word.analysis is not None, timeout=WAIT)
    word.analysis = None
    word.text_edit.setText(f"family {FAMILY}")
    qtbot.waitUntil(lambda: word.analysis is not None, timeout=WAIT)
    first = word.nbest_table.item(0, 1).text()
    best = sp.nbest_encode_as_pieces(f"family {FAMILY}", 5)[0]
    assert "\u200d" in best
    assert first == " | ".join(piece_display(p) for p in best)
    assert "<U+200D>" in first and "\u200d" not in first


def test_wordpiece_replay_escapes_what_follows_the_prefix(qtbot):
    wp = WordPiece(["[UNK]", "\u2764", "##\ufe0f", "1", "##\u20e3"])
    state = AppState()
    pane = ReplayPane(state)
    qtbot.addWidget(pane)
    state.set_wordpiece(wp)
    replay = pane.wordpiece
    replay.text_edit.setText("1\ufe0f\u20e3")
    assert [wp.vocab[i] for i in wp.encode_word("1\ufe0f\u20e3")] == ["1", "##\ufe0f", "##\u20e3"]
    tried = [replay.table.item(r, 0).text() for r in range(replay.table.rowCount())]
    # the candidates of the longest-match-first look-up, as WordPiece.match_steps tries them
    assert tried == ["1\ufe0f\u20e3", "1\ufe0f", "1", "##<U+FE0F>\u25cc\u20e3", "##<U+FE0F>", "##\u25cc\u20e3"]
    assert replay.result.text() == "pieces so far: 1 ##<U+FE0F> ##\u25cc\u20e3 · done: 1 ##<U+FE0F> ##\u25cc\u20e3"


def test_wordpiece_score_table_escapes_every_piece(qtbot):
    wp, _ = train_wordpiece("\u2764\ufe0f 1\ufe0f\u20e3 #\ufe0f\u20e3 love \u2764\ufe0f\n" * 20, vocab_size=40)
    state = AppState()
    pane = WordPiecePane(state)
    qtbot.addWidget(pane)
    state.set_wordpiece(wp)
    m = pane.model
    cells = {}
    for r in range(m.rowCount()):
        for c in (COL_LEFT, COL_RIGHT, COL_MERGED):
            cells[m.data(m.index(r, c), RawRole)] = m.data(m.index(r, c), Qt.ItemDataRole.DisplayRole)
    assert cells["##\ufe0f"] == "##<U+FE0F>"
    assert cells["##\u20e3"] == "##\u25cc\u20e3"
    for raw, shown in cells.items():
        assert shown.removesuffix(" (kept)") == piece_display(raw, prefix="##")
    item = m.merge_at(0)
    bpe = m.data(m.index(0, COL_BPE), Qt.ItemDataRole.DisplayRole)
    assert bpe == f"{piece_display(item.bpe_left, prefix='##')} + {piece_display(item.bpe_right, prefix='##')}"


def test_token_tooltips_write_the_piece_by_the_rule(qtbot, zwj_unigram):
    tz = zwj_unigram.tokenize(FAMILY)
    zwj = [i for i, t in enumerate(tz.tokens) if t.piece == "\u200d"]
    assert zwj and all(tz.tokens[i].bytes == "\u200d".encode() for i in zwj)
    view = TokenView()
    qtbot.addWidget(view)
    view.resize(400, 200)
    view.show()
    view.set_tokenization(tz)
    tip = view.tooltip_text(zwj[0]).splitlines()
    assert "text <U+200D>" in tip and "piece <U+200D>" in tip
