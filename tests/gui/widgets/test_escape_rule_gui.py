"""The one escape rule in the window (issue 16, point 5): a merged token holding
U+FE0F is not an empty cell, and the merge table, the inspector's code point
glyphs and the token views write invisible code points the same way."""

from __future__ import annotations

from PySide6.QtCore import QLocale
from PySide6.QtGui import QFont

from tokexplorer.core.text import char_notation, token_display
from tokexplorer.core.types import MergeRecord
from tokexplorer.gui.models.merge_filter import plain_text
from tokexplorer.gui.models.merge_model import COL_MERGED
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.glyphs import visible_char
from tokexplorer.gui.widgets.token_layout import TokenMetrics, shown_text

# FE0F is EF B8 8F; ❤ (U+2764) is E2 9D A4
PAIRS = [
    (b"\xef", b"\xb8"),
    (b"\xef\xb8", b"\x8f"),  # 257: U+FE0F alone
    (b"\x80", b"\xef\xb8\x8f"),  # 258: a stray byte + U+FE0F
    (b"\xe2", b"\x9d"),
    (b"\xe2\x9d", b"\xa4"),  # 260: ❤
    (b"\xe2\x9d\xa4", b"\xef\xb8\x8f"),  # 261: ❤️
]


def _records():
    vocab = {i: bytes([i]) for i in range(256)}
    ids = {v: k for k, v in vocab.items()}
    merges = []
    for rank, (a, b) in enumerate(PAIRS):
        new_id = 256 + rank
        merges.append(MergeRecord(rank, ids[a], ids[b], new_id, a + b, 1))
        vocab[new_id] = a + b
        ids[a + b] = new_id
    return merges, vocab


def _ink(view, index) -> int:
    """Pixels of a cell that differ from its background (its top-left pixel)."""
    img = view.viewport().grab(view.visualRect(index)).toImage()
    bg = img.pixel(0, 0)
    return sum(img.pixel(x, y) != bg for x in range(img.width()) for y in range(img.height()))


def test_a_merged_variation_selector_is_not_an_empty_cell(qtbot):
    pane = MergesPane(AppState())
    qtbot.addWidget(pane)
    pane.resize(900, 400)
    pane.show()
    merges, vocab = _records()
    pane.model.set_merges(merges, vocab)
    shown = [pane.model.data(pane.model.index(r, COL_MERGED)) for r in range(len(PAIRS))]
    assert shown == ["\\xEF\\xB8", "<U+FE0F>", "\\x80<U+FE0F>", "\\xE2\\x9D", "\u2764", "\u2764\ufe0f"]
    delegate = pane.view.itemDelegateForColumn(COL_MERGED)
    index = pane.model.index(1, COL_MERGED)
    assert delegate.displayText(pane.model.data(index), QLocale()) == "<U+FE0F>"
    qtbot.waitExposed(pane)
    assert _ink(pane.view, index) > 20  # something is drawn in the cell
    # the same rule for the fast path of the merge table's text
    assert [plain_text(m.merged) for m in merges] == [token_display(m.merged) for m in merges]


def test_inspector_glyphs_and_token_views_use_the_same_notation(qapp):
    font = QFont()
    metrics = TokenMetrics(font)
    for ch in ("\ufe0f", "\u202e", "\u2066", "\ue000", "\u0378", "\U000e0041", "\u0301", "\u2060"):
        assert visible_char(ch, font) == char_notation(ch)
        assert shown_text(ch, metrics, show_whitespace=False) == char_notation(ch)
    # characters the inspector has short names for keep them in its narrow boxes
    assert [visible_char(c, font) for c in "\u200d\ufeff\u00a0\u00ad"] == ["ZWJ", "BOM", "NBSP", "SHY"]
    assert visible_char("\u2003", font) == "<U+2003>"  # em space
    # a cluster with a mark on its base is drawn as itself
    assert shown_text("\u2764\ufe0f", metrics, show_whitespace=False) == "\u2764\ufe0f"
