"""Pieces of different code points look different in the Unigram and WordPiece tables: a
look-alike (│ beside |, a no-break space, ’ beside ') is written <U+XXXX>, an underscore-only
piece's underscores too (_ and the space marker ▁ look the same), and the Piece cell's tooltip
lists every code point."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tokexplorer.core.analysis import PieceScore
from tokexplorer.core.text import piece_display
from tokexplorer.core.wordpiece import WordPieceMerge
from tokexplorer.gui.models.unigram_model import COL_PIECE, UnigramVocabModel
from tokexplorer.gui.models.wordpiece_model import COL_LEFT, COL_MERGED, COL_RIGHT, WordPieceMergeModel

# ids 3, 8, 9 and 10 of the newcomer's SentencePiece unigram model (nmt_nfkc, 8,000 pieces)
PIECES = [(3, "\u2581", -2.8404), (8, "\u2581|", -4.434), (9, "\u2581\u2502", -4.5598), (10, "_", -4.5916)]


def test_the_four_look_alike_pieces_are_told_apart(qtbot):
    model = UnigramVocabModel([PieceScore(i, p, s, "normal") for i, p, s in PIECES])
    shown = [model.index(r, COL_PIECE).data() for r in range(4)]
    assert shown == ["▁", "▁|", "▁<U+2502>", "<U+005F>"]
    tips = [model.index(r, COL_PIECE).data(Qt.ItemDataRole.ToolTipRole) for r in range(4)]
    assert tips == [
        "U+2581 LOWER ONE EIGHTH BLOCK",
        "U+2581 LOWER ONE EIGHTH BLOCK\nU+007C VERTICAL LINE",
        "U+2581 LOWER ONE EIGHTH BLOCK\nU+2502 BOX DRAWINGS LIGHT VERTICAL",
        "U+005F LOW LINE",
    ]


def test_other_look_alikes_and_what_stays_as_it_is():
    assert piece_display("\u2581\u00a0") == "▁<U+00A0>"  # a no-break space is not blank
    assert piece_display("\u2019s") == "<U+2019>s" and piece_display("'s") == "'s"
    assert piece_display("\u2581\u2014") == "▁<U+2014>" and piece_display("\u2581-") == "▁-"
    assert piece_display("\u2581__init__") == "▁__init__" and piece_display("\u2581__") == "▁<U+005F><U+005F>"
    assert piece_display("\uff0c") == "，" and piece_display("\u2581中国") == "▁中国"  # wide: not a look-alike
    assert piece_display("##\u2502", prefix="##") == "##<U+2502>" and piece_display("##_", prefix="##") == "##<U+005F>"


def test_wordpiece_merges_use_the_same_rule(qtbot):
    merge = WordPieceMerge(
        step=0, left="\u2502", right="##\u2502", merged="\u2502\u2502", new_id=40, added=True, count=3,
        left_count=4, right_count=5, bpe_left="\u2502", bpe_right="##\u2502", bpe_count=3,
    )  # fmt: skip
    model = WordPieceMergeModel([merge])
    assert [model.index(0, c).data() for c in (COL_LEFT, COL_RIGHT, COL_MERGED)] == [
        "<U+2502>", "##<U+2502>", "<U+2502><U+2502>",
    ]  # fmt: skip
    assert model.index(0, COL_RIGHT).data(Qt.ItemDataRole.ToolTipRole) == (
        "U+0023 NUMBER SIGN\nU+0023 NUMBER SIGN\nU+2502 BOX DRAWINGS LIGHT VERTICAL"
    )
