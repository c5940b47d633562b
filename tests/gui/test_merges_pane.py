"""Merge table model and pane: exact rows, filtering, sorting, big tables."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QModelIndex, Qt

from tokexplorer.core.types import MergeRecord
from tokexplorer.gui.models.merge_model import (
    COL_COUNT,
    COL_LEFT,
    COL_MERGED,
    COL_RANK,
    MergeFilterProxy,
    MergeTableModel,
    RawRole,
    parse_hex,
)


def _byte_vocab() -> dict[int, bytes]:
    return {i: bytes([i]) for i in range(256)}


def _records(
    pairs: list[tuple[bytes, bytes, int | None]],
) -> tuple[list[MergeRecord], dict[int, bytes]]:
    """Build merge records from (left bytes, right bytes, count); ids as in our BPE."""
    vocab = _byte_vocab()
    ids = {v: k for k, v in vocab.items()}
    merges = []
    for rank, (a, b, count) in enumerate(pairs):
        new_id = 256 + rank
        merged = a + b
        merges.append(MergeRecord(rank, ids[a], ids[b], new_id, merged, count))
        vocab[new_id] = merged
        ids[merged] = new_id
    return merges, vocab


# "你" is E4 BD A0: merging E4+BD first gives a partial token.
PAIRS = [
    (b"t", b"h", 50),
    (b"th", b"e", 40),
    (b" ", b"the", 30),
    (b"\xe4", b"\xbd", 20),
    (b"\xe4\xbd", b"\xa0", 20),
    (b"a", b"n", 10),
    (b"an", b"d", None),
]


@pytest.fixture
def model(qtbot):
    m = MergeTableModel()
    merges, vocab = _records(PAIRS)
    m.set_merges(merges, vocab)
    return m


def test_merge_model_passes_qt_model_tester(qtmodeltester, model):
    qtmodeltester.check(model)


def test_merge_model_empty_passes_qt_model_tester(qtmodeltester):
    qtmodeltester.check(MergeTableModel())


def test_merge_model_cells(model):
    assert model.rowCount() == 7
    assert model.columnCount() == 6
    header = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(6)]
    assert header == ["Rank", "Left", "Right", "Merged token", "Bytes", "Count"]
    row = [model.data(model.index(3, c)) for c in range(6)]
    assert row == ["3", "\\xE4", "\\xBD", "\\xE4\\xBD", "2", "20"]
    row = [model.data(model.index(4, c)) for c in range(6)]
    assert row == ["4", "\\xE4\\xBD", "\\xA0", "你", "3", "20"]
    assert model.data(model.index(2, COL_MERGED)) == " the"
    assert model.data(model.index(6, COL_COUNT)) == ""
    assert model.data(model.index(6, COL_COUNT), RawRole) == -1
    assert model.data(model.index(0, COL_RANK), RawRole) == 0
    assert model.data(model.index(0, COL_LEFT), RawRole) == ord("t")
    assert (
        model.data(model.index(4, COL_MERGED), Qt.ItemDataRole.ToolTipRole)
        == "token id 260 · 3 bytes: E4 BD A0"
    )
    assert model.data(QModelIndex()) is None


def test_merge_model_sort_numeric_and_back(model):
    model.sort(COL_COUNT, Qt.SortOrder.DescendingOrder)
    assert [model.data(model.index(r, COL_RANK)) for r in range(7)] == [
        "0",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]
    model.sort(COL_COUNT, Qt.SortOrder.AscendingOrder)
    assert [model.data(model.index(r, COL_RANK)) for r in range(7)] == [
        "6",
        "5",
        "3",
        "4",
        "2",
        "1",
        "0",
    ]
    model.sort(COL_RANK, Qt.SortOrder.AscendingOrder)
    assert [model.merge_at(r).rank for r in range(7)] == list(range(7))


def test_filter_proxy_text_and_hex(qtmodeltester, model):
    proxy = MergeFilterProxy()
    proxy.setSourceModel(model)
    assert proxy.rowCount() == 7
    proxy.set_filter("th")
    # "th" (merged), "the" (merged, left "th"), " the" (right "the")
    assert proxy.rowCount() == 3
    proxy.set_filter("TH")
    assert proxy.rowCount() == 3
    proxy.set_filter("", hex_bytes=parse_hex("e4 bd"))
    assert [
        proxy.data(proxy.index(r, COL_MERGED)) for r in range(proxy.rowCount())
    ] == ["\\xE4\\xBD", "你"]
    proxy.set_filter("")
    assert proxy.rowCount() == 7
    qtmodeltester.check(proxy)


def test_filter_survives_sort_and_new_merges(model):
    proxy = MergeFilterProxy()
    proxy.setSourceModel(model)
    proxy.set_filter("an")
    assert proxy.rowCount() == 2
    proxy.sort(COL_COUNT, Qt.SortOrder.AscendingOrder)
    assert [proxy.data(proxy.index(r, COL_MERGED)) for r in range(2)] == ["and", "an"]
    merges, vocab = _records(PAIRS[:6])
    model.set_merges(merges, vocab)
    assert proxy.rowCount() == 1


def test_parse_hex():
    assert parse_hex("e4 bd") == b"\xe4\xbd"
    assert parse_hex("0xE4 0xBD a0") == b"\xe4\xbd\xa0"
    with pytest.raises(ValueError):
        parse_hex("e4 b")
    with pytest.raises(ValueError):
        parse_hex("zz")


def test_big_merge_table_100k_rows(qtbot):
    n = 100_000
    vocab = _byte_vocab()
    merges = []
    for r in range(n):
        left, right = r % 256, (r * 7) % 256
        merged = bytes([left, right])
        merges.append(MergeRecord(r, left, right, 256 + r, merged, n - r))
        vocab[256 + r] = merged
    m = MergeTableModel()
    m.set_merges(merges, vocab)
    assert m.rowCount() == 100_000
    assert m.data(m.index(99_999, COL_RANK)) == "99999"
    assert m.data(m.index(99_999, COL_COUNT)) == "1"
    assert (
        m.data(m.index(65 + 256 * 10, COL_MERGED)) == "A\\xC7"
    )  # left 65 ('A'), right (2625*7) % 256 = 199
    proxy = MergeFilterProxy()
    proxy.setSourceModel(m)
    proxy.set_filter("", hex_bytes=b"\x41\xc7")
    assert proxy.rowCount() == sum(1 for rec in merges if rec.merged == b"\x41\xc7")
