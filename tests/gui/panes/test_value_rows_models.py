"""The Unigram vocabulary and WordPiece score tables over their shared part
(ValueRowsModel): raw values, display text, numbers aligned right, sorting with ties
in id/step order, Qt's model checks."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tokexplorer.core.analysis import PieceScore
from tokexplorer.core.wordpiece import WordPieceMerge
from tokexplorer.gui.models.table_model import RawRole
from tokexplorer.gui.models.unigram_model import COL_ID, COL_KIND, COL_LOGP, COL_P, COL_PIECE, UnigramVocabModel
from tokexplorer.gui.models.wordpiece_model import COL_BPE, COL_MERGED, COL_SCORE, COL_STEP, WordPieceMergeModel

RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
SCORES = [
    PieceScore(0, "<unk>", 0.0, "unknown"),
    PieceScore(1, "▁the", -2.5, "normal"),
    PieceScore(2, "s", -4.0, "normal"),
    PieceScore(3, "▁a", -2.5, "normal"),
]


def _column(model, col, role=Qt.ItemDataRole.DisplayRole):
    return [model.data(model.index(r, col), role) for r in range(model.rowCount())]


def test_unigram_vocab_model(qapp, qtmodeltester):  # qapp: the piece font needs one
    m = UnigramVocabModel(SCORES)
    qtmodeltester.check(m)
    assert _column(m, COL_LOGP) == ["0.0000", "-2.5000", "-4.0000", "-2.5000"]
    assert _column(m, COL_P) == ["", "0.0821", "0.0183", "0.0821"]
    assert _column(m, COL_P, RawRole)[1] == PieceScore(1, "▁the", -2.5, "normal").probability
    assert [m.data(m.index(0, c), Qt.ItemDataRole.TextAlignmentRole) for c in range(5)] == [
        RIGHT, None, RIGHT, RIGHT, None
    ]  # fmt: skip
    m.sort(COL_LOGP, Qt.SortOrder.DescendingOrder)  # descending: ties (-2.5) in descending id order
    assert _column(m, COL_ID, RawRole) == [0, 3, 1, 2]
    m.sort(COL_KIND)
    assert _column(m, COL_PIECE) == ["▁the", "s", "▁a", "<unk>"]
    m.set_scores(SCORES[:2])
    assert _column(m, COL_ID) == ["0", "1"]


def _merge(step, merged, *, added=True, count=6, bpe=("a", "b")):
    return WordPieceMerge(step, "x", "##y", merged, 10 + step, added, count, 3, 2, bpe[0], bpe[1], 1200 - step)


def test_wordpiece_merge_model(qapp, qtmodeltester):
    merges = [_merge(0, "xy", bpe=("x", "##y")), _merge(1, "xz", added=False), _merge(2, "xw", count=6)]
    m = WordPieceMergeModel(merges)
    qtmodeltester.check(m)
    assert _column(m, COL_MERGED) == ["xy", "xz (kept)", "xw"]
    assert _column(m, COL_SCORE) == ["1", "1", "1"]
    assert _column(m, 9) == ["1,200", "1,199", "1,198"]
    assert m.data(m.index(0, COL_SCORE), Qt.ItemDataRole.ToolTipRole) == "6 / (3 × 2) = 1"
    fonts = _column(m, COL_BPE, Qt.ItemDataRole.FontRole)
    assert not fonts[0].bold() and fonts[1].bold() and fonts[2].bold()
    assert len({f.family() for f in fonts + _column(m, COL_MERGED, Qt.ItemDataRole.FontRole)}) == 1  # the piece font
    m.sort(COL_SCORE)  # all tie: step order
    assert _column(m, COL_STEP, RawRole) == [0, 1, 2]
    m.sort(COL_MERGED)
    assert _column(m, COL_STEP, RawRole) == [2, 0, 1] and m.merge_at(0) is merges[2]
    assert _column(m, COL_MERGED) == ["xw", "xy", "xz (kept)"]  # the item moved with its row
