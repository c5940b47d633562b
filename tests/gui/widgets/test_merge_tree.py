"""The merge tree widget: layout of a known tree, labels, empty state."""

from __future__ import annotations

from tokexplorer.core.analysis import MergeIndex
from tokexplorer.gui.widgets.merge_tree import MergeTreeWidget


def test_tree_of_a_known_token(qtbot, cat_hat_bpe):
    bpe = cat_hat_bpe
    idx = MergeIndex(bpe.merges, bpe.vocab)
    w = MergeTreeWidget()
    qtbot.addWidget(w)
    root = idx.tree_of_bytes(" 你好".encode(), bpe.mergeable_ranks)
    w.set_tree(root)
    assert root.to_tuple() == (14, (6, (5, (4, b" ", b"\xe4"), b"\xbd"), b"\xa0"), (8, b"\xe5", (7, b"\xa5", b"\xbd")))
    # root first, then each row left to right (a merge sits one row above its
    # higher part; the bytes share the bottom row); leaves carry their hex byte
    assert w.box_texts() == [
        ("␣你好", "#14"),
        ("␣你", "#6"),
        ("␣\\xE4\\xBD", "#5"),
        ("好", "#8"),
        ("␣\\xE4", "#4"),
        ("\\xA5\\xBD", "#7"),
        ("␣", "20"),
        ("\\xE4", "E4"),
        ("\\xBD", "BD"),
        ("\\xA0", "A0"),
        ("\\xE5", "E5"),
        ("\\xA5", "A5"),
        ("\\xBD", "BD"),
    ]
    assert w.minimumWidth() > 300 and w.minimumHeight() > 4 * 58
    w.set_label(lambda b: b.hex(" ").upper())
    assert w.box_texts()[0] == ("20 E4 BD A0 E5 A5 BD", "#14")
    w.resize(900, 400)
    w.grab()  # paints without error


def test_empty_tree_shows_message(qtbot):
    w = MergeTreeWidget()
    qtbot.addWidget(w)
    w.set_tree(None, message="nothing here")
    assert w.box_texts() == []
    w.grab()
