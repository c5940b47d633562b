"""The merge table's Left and Right columns hold their tokens: a part holding only some bytes of
a character (``\\xE4\\xB8``) is drawn whole, not cut with "…" while the merged token has room to
spare; in a narrow table the three token columns share one cap, so a short part stays whole."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QStyle

from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.types import MergeRecord
from tokexplorer.gui.models.merge_model import COL_LEFT, COL_MERGED, COL_RIGHT, MergeTableModel
from tokexplorer.gui.widgets.merge_table_view import CELL_PADDING, TOKEN_ROWS_MEASURED, MergeTableView
from tokexplorer.gui.widgets.table_fit import sample_rows

WORDS = "我们 今天 学习中文 你好世界 分词 很有意思 🙂 👍🏽 🎉🎉 我喜欢 🍜和🍵 中华人民共和国 北京大学 🇨🇳".split()
#: words drawn in a fixed order (a linear congruential sequence): the same text every run
ZH_EMOJI = " ".join(WORDS[(i * 7919 + i * i * 31) % len(WORDS)] for i in range(400))


def _view(qtbot, width: int) -> tuple[MergeTableView, MergeTableModel]:
    bpe, _ = train_bpe(ZH_EMOJI, vocab_size=400)
    model = MergeTableModel()
    model.set_merges(bpe.merges, bpe.vocab, unbuilt=bpe.unbuilt_tokens)
    view = MergeTableView(model)
    qtbot.addWidget(view)
    view.resize(width, 500)
    view.show()
    qtbot.waitExposed(view)
    view.fit_columns()
    return view, model


def _overflow(
    view: MergeTableView, model: MergeTableModel, col: int, width: int | None = None
) -> list[tuple[int, str]]:
    """The rows of ``col`` whose drawn text is wider than the room inside its cell (the
    column's width now, or ``width``)."""
    margin = 2 * (view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1)
    room = (view.columnWidth(col) if width is None else width) - margin
    out = []
    for row in range(model.rowCount()):
        index = model.index(row, col)
        text = view.delegate.displayText(index.data(), view.locale())
        if QFontMetrics(index.data(6)).horizontalAdvance(text) > room:
            out.append((row, text))
    return out


def test_parts_with_partial_utf8_bytes_are_drawn_whole(qtbot):
    view, model = _view(qtbot, 1000)
    parts = {model.index(r, c).data() for r in range(model.rowCount()) for c in (COL_LEFT, COL_RIGHT)}
    assert {"\\x88\\x91", " 学习\\xE4\\xB8", " 学习中\\xE6\\x96"} <= parts  # parts that are some bytes of a character
    assert _overflow(view, model, COL_LEFT) == [] and _overflow(view, model, COL_RIGHT) == []
    assert _overflow(view, model, COL_MERGED) == []


def test_a_narrow_table_gives_the_token_columns_one_cap(qtbot):
    view, model = _view(qtbot, 1000)
    wanted = dict(view.columns.wanted)
    header = view.horizontalHeader()
    least = {c: header.sectionSizeHint(c) for c in (COL_LEFT, COL_RIGHT, COL_MERGED)}  # the least each can have
    # (pixel widths follow the installed fonts; the rule is checked against them)
    assert wanted[COL_LEFT] == wanted[COL_MERGED] > wanted[COL_RIGHT]  # the widest Left part is a merged token too
    room = sum(wanted.values()) - 30  # 30 pixels short of every column's width
    widths = view.columns.widths(room)
    assert sum(widths.values()) == room
    # the merged token at its header's width (it cannot share less), Left the rest, Right whole
    assert widths[COL_RIGHT] == wanted[COL_RIGHT]
    assert widths[COL_MERGED] == least[COL_MERGED] < wanted[COL_MERGED]
    assert wanted[COL_RIGHT] <= widths[COL_LEFT] < wanted[COL_LEFT]
    assert widths[COL_LEFT] == room - sum(w for c, w in widths.items() if c != COL_LEFT)
    assert all(widths[c] == wanted[c] for c in wanted if c not in (COL_LEFT, COL_RIGHT, COL_MERGED))
    assert _overflow(view, model, COL_RIGHT, widths[COL_RIGHT]) == []
    assert _overflow(view, model, COL_LEFT, widths[COL_LEFT]) == [(8, "\\x88\\x91\\xE4\\xBB")]  # the widest only


def test_a_wide_part_outside_the_sampled_rows_is_measured(qtbot):
    """2,000 merges: rows 0-199, 1,800-1,999 and every 8th between are sampled; the only
    wide part, 6 bytes that are no whole character, is the Left part of rank 310 only."""
    vocab = {i: bytes([i]) for i in range(256)}
    wide = 256 + 2_000
    vocab[wide] = b"\xe4\xb8\xe4\xb8\xe4\xb8"
    merges = []
    for r in range(2_000):
        left, right = (wide if r == 310 else 97 + r % 26), 97 + (r * 7) % 26
        vocab[256 + r] = vocab[left] + vocab[right]
        merges.append(MergeRecord(r, left, right, 256 + r, vocab[256 + r], 5_000 - r))
    assert 310 not in sample_rows(2_000, limit=TOKEN_ROWS_MEASURED)
    model = MergeTableModel()
    model.set_merges(merges, vocab)
    view = MergeTableView(model)
    qtbot.addWidget(view)
    view.resize(1_000, 400)
    view.show()
    qtbot.waitExposed(view)
    view.fit_columns()
    assert model.index(310, COL_LEFT).data() == "\\xE4\\xB8\\xE4\\xB8\\xE4\\xB8"
    fm = QFontMetrics(model.index(310, COL_LEFT).data(6))
    assert view.columns.wanted[COL_LEFT] == fm.horizontalAdvance("\\xE4\\xB8\\xE4\\xB8\\xE4\\xB8") + CELL_PADDING
    assert _overflow(view, model, COL_LEFT) == [] and _overflow(view, model, COL_RIGHT) == []
