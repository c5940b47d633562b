"""The WordPiece score table shares a narrow width as the BPE merge table does
(tests/gui/widgets/test_merge_parts_fit.py): when the piece columns do not all fit, Left, Right,
Merged and "BPE would merge" get one cap, so a short part stays whole and only the widest piece
columns are cut (the old rule squeezed Left and Right first and kept Merged whole)."""

from __future__ import annotations

from tokexplorer.core.wordpiece import train_wordpiece
from tokexplorer.gui.models.wordpiece_model import COL_BPE, COL_LEFT, COL_MERGED, COL_RIGHT
from tokexplorer.gui.panes.wordpiece_pane import WordPiecePane
from tokexplorer.gui.state import AppState

TEXT = "the cat sat on the mat. the hat is flat. playing, played, plays! understandably misunderstanding\n" * 20
PIECES = (COL_LEFT, COL_RIGHT, COL_MERGED, COL_BPE)


def test_a_narrow_wordpiece_table_gives_the_piece_columns_one_cap(qtbot):
    wp, _ = train_wordpiece([TEXT], vocab_size=90, lowercase=True)
    pane = WordPiecePane(AppState())
    qtbot.addWidget(pane)
    pane.resize(1000, 500)
    pane.show()
    qtbot.waitExposed(pane)
    pane.set_wordpiece(wp)
    wanted = dict(pane.columns.wanted)
    header = pane.table.horizontalHeader()
    least = {c: header.sectionSizeHint(c) for c in PIECES}  # the least each can have
    # (pixel widths follow the installed fonts; the rule is checked against them)
    assert wanted[COL_MERGED] > max(wanted[COL_LEFT], wanted[COL_RIGHT]) and wanted[COL_BPE] > least[COL_BPE]
    room = sum(wanted.values()) - 60  # 60 pixels short of every column's width
    widths = pane.columns.widths(room)
    assert sum(widths.values()) == room
    # "BPE would merge" down to its header, Merged cut to the cap, Left and Right whole:
    # the old rule cut Left and Right and kept Merged whole
    assert widths[COL_BPE] == least[COL_BPE]
    assert (widths[COL_LEFT], widths[COL_RIGHT]) == (wanted[COL_LEFT], wanted[COL_RIGHT])
    assert max(wanted[COL_LEFT], wanted[COL_RIGHT]) <= widths[COL_MERGED] < wanted[COL_MERGED]
    assert widths[COL_MERGED] == room - sum(w for c, w in widths.items() if c != COL_MERGED)
    assert all(widths[c] == wanted[c] for c in wanted if c not in PIECES)  # the number columns keep theirs
