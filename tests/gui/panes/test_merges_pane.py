"""Merge table model and pane: exact rows, filters, sorting, display modes, big tables,
merge tree / where-it-fires / plot wiring."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QLocale, QModelIndex, Qt

from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.text import token_display
from tokexplorer.core.types import MergeRecord
from tokexplorer.gui.models.merge_filter import build_search_index, parse_hex, plain_text
from tokexplorer.gui.models.merge_model import (
    COL_COUNT,
    COL_FIRES,
    COL_LEFT,
    COL_MERGED,
    COL_RANK,
    COL_RIGHT,
    MergeTableModel,
    RawRole,
)
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.fire_sites import byte_to_utf16


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
    (b" ", b" ", 5),
    (b"\xe5", b"\xa5", 4),
    (b"\xe5\xa5", b"\xbd", 4),
    (b"\xe4\xbd\xa0", b"\xe5\xa5\xbd", 3),
    (b"4", b"2", 2),
]


def _merged(model) -> list[str]:
    return [model.data(model.index(r, COL_MERGED)) for r in range(model.rowCount())]


@pytest.fixture
def model(qtbot):
    m = MergeTableModel()
    merges, vocab = _records(PAIRS)
    m.set_merges(merges, vocab)
    return m


def test_merge_model_passes_qt_model_tester(qtmodeltester, model):
    qtmodeltester.check(model)
    model.set_filter("e4 bd", mode="hex")
    qtmodeltester.check(model)
    model.sort(COL_COUNT, Qt.SortOrder.DescendingOrder)
    model.set_fire_counts([1] * len(PAIRS))
    qtmodeltester.check(model)


def test_merge_model_empty_passes_qt_model_tester(qtmodeltester):
    qtmodeltester.check(MergeTableModel())


def test_merge_model_cells(model):
    assert model.rowCount() == 12
    assert model.columnCount() == 7
    header = [model.headerData(c, Qt.Orientation.Horizontal) for c in range(7)]
    assert header == ["Rank", "Left", "Right", "Merged token", "Bytes", "Count", "Fires\n(Compare text)"]
    row = [model.data(model.index(3, c)) for c in range(7)]
    assert row == ["3", "\\xE4", "\\xBD", "\\xE4\\xBD", "2", "20", ""]
    row = [model.data(model.index(4, c)) for c in range(7)]
    assert row == ["4", "\\xE4\\xBD", "\\xA0", "你", "3", "20", ""]
    assert model.data(model.index(2, COL_MERGED)) == " the"
    assert model.data(model.index(6, COL_COUNT)) == ""
    assert model.data(model.index(6, COL_COUNT), RawRole) == -1
    assert model.data(model.index(0, COL_RANK), RawRole) == 0
    assert model.data(model.index(0, COL_LEFT), RawRole) == ord("t")
    assert model.data(model.index(0, COL_FIRES), RawRole) == -1
    assert (
        model.data(model.index(4, COL_MERGED), Qt.ItemDataRole.ToolTipRole)
        == "你\ntoken id 260 · 3 bytes: E4 BD A0"
    )
    assert model.data(QModelIndex()) is None


def test_spaces_are_visible_in_the_token_columns(qtbot):
    state = AppState()
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    merges, vocab = _records(PAIRS)
    pane.model.set_merges(merges, vocab)
    delegate = pane.view.itemDelegateForColumn(COL_MERGED)
    assert pane.view.itemDelegateForColumn(COL_LEFT) is delegate
    two_spaces = pane.model.index(7, COL_MERGED)
    assert delegate.displayText(pane.model.data(two_spaces), QLocale()) == "␣␣"
    assert delegate.displayText(pane.model.data(pane.model.index(7, COL_LEFT)), QLocale()) == "␣"
    assert delegate.displayText(pane.model.data(pane.model.index(2, COL_MERGED)), QLocale()) == "␣the"
    pane.display_combo.setCurrentIndex(pane.display_combo.findData("gpt2"))
    assert pane.model.data(two_spaces) == "ĠĠ"
    assert pane.model.data(pane.model.index(4, COL_MERGED)) == "ä½ł"
    assert delegate.displayText(pane.model.data(two_spaces), QLocale()) == "ĠĠ"
    pane.display_combo.setCurrentIndex(pane.display_combo.findData("hex"))
    assert pane.model.data(two_spaces) == "20 20"
    assert delegate.displayText("20 20", QLocale()) == "20 20"
    assert pane.model.data(pane.model.index(4, COL_LEFT)) == "E4 BD"
    # the Count column is not stretched
    assert not pane.view.horizontalHeader().stretchLastSection()


def test_merge_model_sort_numeric_and_back(model):
    model.sort(COL_COUNT, Qt.SortOrder.DescendingOrder)
    assert [model.merge_at(r).rank for r in range(12)] == [0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 6]
    model.sort(COL_COUNT, Qt.SortOrder.AscendingOrder)
    assert [model.merge_at(r).rank for r in range(12)] == [6, 11, 10, 8, 9, 7, 5, 3, 4, 2, 1, 0]
    model.sort(COL_RIGHT, Qt.SortOrder.AscendingOrder)
    assert [model.merge_at(r).rank for r in range(3)] == [7, 11, 6]  # b" ", b"2", b"d"
    model.sort(COL_RANK, Qt.SortOrder.AscendingOrder)
    assert [model.merge_at(r).rank for r in range(12)] == list(range(12))


def test_filter_text(model):
    model.set_filter("th")
    # "th" (merged), "the" (merged, left "th"), " the" (right "the")
    assert _merged(model) == ["th", "the", " the"]
    model.set_filter("TH")
    assert model.rowCount() == 3
    model.set_filter("␣the")  # ␣ stands for a space
    assert _merged(model) == [" the"]
    model.set_filter("")
    assert model.rowCount() == 12


def test_filter_by_regex_gives_exact_rows(model):
    model.set_filter(r"^\s", mode="regex")
    assert _merged(model) == [" the", "  "]
    model.set_filter(r"\p{Han}", mode="regex")
    assert _merged(model) == ["你", "好", "你好"]
    model.set_filter(r"^[a-z]+$", mode="regex")
    assert _merged(model) == ["th", "the", "an", "and"]
    model.set_filter(r"\\x", mode="regex")  # the escapes of partial tokens are text too
    assert _merged(model) == ["\\xE4\\xBD", "\\xE5\\xA5"]
    model.set_filter(r"\d{2}", mode="regex")
    assert [model.merge_at(r).rank for r in range(model.rowCount())] == [11]
    with pytest.raises(ValueError, match="bad regex"):
        model.set_filter("(", mode="regex")
    assert model.rowCount() == 1  # the previous filter stays


def test_filter_by_hex_bytes_gives_exact_rows(model):
    model.set_filter("e4 bd", mode="hex")
    assert _merged(model) == ["\\xE4\\xBD", "你", "你好"]
    assert [model.merge_at(r).rank for r in range(3)] == [3, 4, 10]
    model.set_filter("0xA5BD", mode="hex")
    assert [model.merge_at(r).rank for r in range(model.rowCount())] == [9, 10]
    model.set_filter("20", mode="hex")
    assert [model.merge_at(r).rank for r in range(model.rowCount())] == [2, 7]
    with pytest.raises(ValueError):
        model.set_filter("e4 b", mode="hex")


def test_filter_by_script_and_partial(model):
    model.set_filter(script="Han")
    assert _merged(model) == ["你", "好", "你好"]
    model.set_filter(script="Bytes only")
    assert _merged(model) == ["\\xE4\\xBD", "\\xE5\\xA5"]
    model.set_filter(partial="utf8")
    assert [model.merge_at(r).rank for r in range(model.rowCount())] == [3, 8]
    model.set_filter("e4", mode="hex", partial="utf8")
    assert [model.merge_at(r).rank for r in range(model.rowCount())] == [3]
    model.set_filter(script="Latin")
    assert _merged(model) == ["th", "the", " the", "an", "and"]
    model.set_filter(script="Whitespace")
    assert _merged(model) == ["  "]
    model.set_filter(script="Digits")
    assert _merged(model) == ["42"]


def test_filter_survives_sort_and_new_merges(model):
    model.set_filter("an")
    assert model.rowCount() == 2
    model.sort(COL_COUNT, Qt.SortOrder.AscendingOrder)
    assert _merged(model) == ["and", "an"]
    merges, vocab = _records(PAIRS[:6])
    model.set_merges(merges, vocab)
    assert model.rowCount() == 1
    assert model.row_of_rank(5) == 0 and model.row_of_rank(0) == -1


def test_search_index_from_worker_is_used_only_for_its_generation(model):
    idx = build_search_index(model.merges, model.vocab)
    assert idx.script[4] == "Han" and idx.partial[3] == 1 and idx.text[2] == " the\0 \0the"
    model.set_search_index(idx, model.generation - 1)
    assert not model.has_search_index
    model.set_search_index(idx, model.generation)
    assert model.has_search_index


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
    assert m.data(m.index(65 + 256 * 10, COL_MERGED)) == "A\\xC7"  # 'A', (2625*7) % 256 = 199
    m.set_filter("41 c7", mode="hex")
    assert m.rowCount() == sum(1 for rec in merges if rec.merged == b"\x41\xc7")
    m.set_filter("^A", mode="regex")
    assert m.rowCount() == sum(1 for rec in merges if rec.merged[:1] == b"A")


# ----------------------------------------------------------------- the pane on a trained model


@pytest.fixture
def pane(qtbot, cat_hat_bpe):
    state = AppState()
    bpe = cat_hat_bpe
    state.sample_text = "the cat in the hat, 你们好"
    p = MergesPane(state)
    qtbot.addWidget(p)
    fired = []
    state.merge_fires.connect(fired.append)
    p._fired = fired  # noqa: SLF001 - test hook
    state.set_bpe(bpe)
    qtbot.waitUntil(lambda: p.model.fire_counts is not None, timeout=10_000)  # "counting…" until then
    return p


def test_pane_counts_fires_and_shows_where_a_merge_fires(pane, qtbot):
    model = pane.model
    assert model.fire_counts[:4] == [2, 2, 2, 1]
    assert model.data(model.index(0, COL_FIRES)) == "2"
    assert pane.jump_to_rank(0)  # a + t
    assert pane.selected_rank() == 0
    assert pane.fires_label.text() == (
        "merge #0 «at» fires 2 times in the Compare text (what you typed or pasted), in 2 different chunks"
    )
    assert [pane.fires_table.item(r, 0).text() for r in range(2)] == ["␣cat", "␣hat"]
    assert pane._fired[-1] == [(5, 7), (16, 18)]
    sels = pane.fires_text.extraSelections()
    assert [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in sels] == [(5, 7), (16, 18)]
    # the Chinese word: " 你们好" fires merge 22 once, at UTF-16 positions 19..23
    assert pane.jump_to_rank(22)
    assert pane._fired[-1] == [(19, 29)]
    sels = pane.fires_text.extraSelections()
    assert [(s.cursor.selectionStart(), s.cursor.selectionEnd()) for s in sels] == [(19, 23)]


def test_a_merge_that_fires_nowhere_says_why_in_the_text_named(pane, qtbot):
    """The caption names the Compare text by its source and gives the reason computed:
    the bytes do not occur, or a lower-ranked merge takes part of them first."""
    pane.state.set_sample_text("the cat, 你好", source="notes.txt (corpus file 2 of 3)")
    qtbot.waitUntil(lambda: pane.model.fire_counts is not None, timeout=10_000)  # "counting…" until then
    assert pane.jump_to_rank(13)  # " hat"
    assert pane.fires_label.text() == (
        "merge #13 «␣hat» fires 0 times in the Compare text (notes.txt (corpus file 2 of 3)): "
        "its bytes 20 68 61 74 do not occur in this text"
    )
    pane.state.set_sample_text("the cat, 你好 he he", source="")
    qtbot.waitUntil(lambda: pane.model.fire_counts is not None, timeout=10_000)
    assert pane.jump_to_rank(10)  # " h": "he" (merge 1) forms first
    assert pane.fires_label.text() == (
        "merge #10 «␣h» fires 0 times in the Compare text (what you typed or pasted): its bytes 20 68 occur "
        "2 times, but a lower-ranked merge, #1 «he», takes part of them first (e.g. in the chunk «␣he»)"
    )


def test_pane_merge_tree_of_selected_merge(pane):
    assert pane.jump_to_rank(3)
    assert pane.tree.tree.to_tuple() == (3, b" ", (2, b"t", (1, b"h", b"e")))
    assert pane.tree_label.text().startswith("token 259 «␣the» (4 bytes) is built by 3 merges, 3 levels deep")
    assert pane.tree.box_texts()[0] == ("␣the", "#3")
    # from another pane, by bytes
    pane.state.token_tree_requested.emit(" 你们好".encode(), "")
    assert pane.tree.tree.rank == 22 and pane.details.currentIndex() == 0
    pane.state.token_tree_requested.emit(b"zz", "")
    assert pane.tree_label.text() == "7A 7A is not a token of custom BPE"


def test_pane_jump_filters_and_plot_click(pane, qtbot):
    pane.filter_edit.setText(r"\p{Han}")
    pane.regex_check.setChecked(True)
    # " 你", "好", " 你好", " 你\xE4", " 你\xE4\xBB", " 你们", " 你们好", " 你好\xE5"
    assert pane.shown_count() == 8
    assert pane.count_label.text() == "24 merges (8 shown)"
    messages = []
    pane.state.status.connect(messages.append)
    assert not pane.jump_to_rank(0)
    assert messages[-1] == "merge #0 is hidden by the filter"
    assert not pane.jump_to_rank(99)
    assert messages[-1] == "merge #99 does not exist"
    pane.hex_check.setChecked(True)  # unchecks regex
    assert not pane.regex_check.isChecked()
    assert pane.count_label.text() == (
        "not hex: use pairs like e4 bd · <a href='#text'>search “\\p{Han}” as token text</a>"
    )
    pane.filter_edit.setText("(")
    pane.hex_check.setChecked(False)
    pane.regex_check.setChecked(True)
    assert pane.count_label.text().startswith("bad regex")
    pane.filter_edit.clear()
    pane.apply_filter()
    assert pane.shown_count() == 24
    pane.plot.merge_clicked.emit(5)
    assert pane.selected_rank() == 5
    pane.state.merge_requested.emit(7)
    assert pane.selected_rank() == 7
    assert pane.plot.n_merges == 24


def test_byte_to_utf16():
    assert byte_to_utf16("a你😀") == [0, 1, 1, 1, 2, 2, 2, 2, 4]
    assert byte_to_utf16("") == [0]


@settings(max_examples=300)
@given(st.binary(max_size=12) | st.text(max_size=6).map(lambda t: t.encode("utf-8", "surrogatepass")))
def test_plain_text_equals_token_display(data):
    assert plain_text(data) == token_display(data)


def test_training_plot_is_drawn_while_training(qtbot):
    """Issue 5: the plot follows a running training (the trainer's merge list
    arrives with its progress reports), then shows the finished model."""
    from tokexplorer.core.bpe import train_bpe_iter
    from tokexplorer.core.io import sample_text
    from tokexplorer.gui.panes.merges_pane import MergesPane
    from tokexplorer.gui.state import AppState

    state = AppState()
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    seen: list[int] = []
    gen = train_bpe_iter(sample_text() * 3, vocab_size=700)
    try:
        while True:
            p = next(gen)
            if p.phase == "merging" and isinstance(p.detail, list):
                state.training_merges.emit(p.detail)
                pane._draw_live_plot()
                seen.append(pane.plot.n_merges)
    except StopIteration as stop:
        bpe, _ = stop.value
    assert seen and seen[-1] == len(bpe.merges)
    assert pane.plot.note.text().startswith("training… ")
    state.set_bpe(bpe)
    qtbot.waitUntil(lambda: pane.plot.n_merges == len(bpe.merges) and not pane.plot.note.text().startswith("training"))


def test_title_counts_the_tokens_no_merge_builds():
    from tokexplorer.core.bpe import BPE
    from tokexplorer.gui.panes.merges_pane import model_title

    ranks = {bytes([b]): b for b in range(256)} | {b"ba": 256, b"ab": 257, b"abab": 258}
    title = model_title(BPE.from_mergeable_ranks(ranks, pat_str=None, name="r"))
    assert title.endswith("recovered from the ranks) · 1 token no merge builds (only emitted whole)")
    trained = train_bpe("abab abab", vocab_size=258, pattern="none")[0]
    assert "no merge builds" not in model_title(trained)


def test_token_tree_from_another_pane_selects_its_merge(pane):
    """A token double-clicked in the compare pane: the table selects the merge that
    builds it (not the merge selected before); a single byte clears the selection."""
    assert pane.jump_to_rank(3)
    pane.state.token_tree_requested.emit(" 你们好".encode(), "")
    assert pane.selected_rank() == 22
    assert pane.view.selectionModel().selectedRows()[0].row() == pane.model.row_of_rank(22)
    pane.state.token_tree_requested.emit(b"t", "")
    assert pane.selected_rank() is None and not pane.view.selectionModel().selectedRows()
    assert pane.tree.tree is not None  # the tree of the byte token is still drawn


def test_enter_on_the_same_rank_jumps_again_and_says_so(pane, qtbot):
    messages = []
    pane.state.status.connect(messages.append)
    assert not pane.jump_to_rank(99)
    assert messages[-1] == "merge #99 does not exist"
    pane.jump_spin.setValue(4)
    assert pane.selected_rank() == 4
    assert pane.jump_to_rank(99) is False  # the stale message...
    qtbot.keyClick(pane.jump_spin.lineEdit(), Qt.Key.Key_Return)  # ...Enter on the same number
    assert pane.selected_rank() == 4
    assert messages[-1].startswith("merge #4: ")


def test_where_it_fires_scrolls_when_its_tab_is_shown_and_chunk_rows_jump(qtbot, cat_hat_bpe):
    """A merge selected while "Where it fires" is hidden: showing the tab brings the
    first hit into the middle of the view (not the bottom edge); a chunk row clicked
    selects that chunk's first occurrence."""
    state = AppState()
    state.sample_text = "filler line\n" * 400 + "the cat in the hat\n" + "filler line\n" * 400
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    pane.resize(1000, 700)
    pane.show()
    qtbot.waitExposed(pane)
    pane.details.setCurrentIndex(0)  # the merge tree: "Where it fires" is hidden
    with qtbot.waitSignal(pane.model.dataChanged, timeout=5000):
        state.set_bpe(cat_hat_bpe)
    qtbot.waitUntil(lambda: pane.model.fire_counts is not None and pane.model.fire_counts[0] == 2, timeout=10_000)
    assert pane.jump_to_rank(0)  # a + t: fires in " cat" and " hat", 400 lines down
    pane.details.setCurrentWidget(pane.fire_sites)
    view = pane.fires_text
    qtbot.waitUntil(lambda: view.verticalScrollBar().value() > 300)
    top, height = view.cursorRect().top(), view.viewport().height()
    assert height * 0.2 < top < height * 0.8  # near the middle
    chunks = [pane.fires_table.item(r, 0).text() for r in range(pane.fires_table.rowCount())]
    assert chunks == ["␣cat", "␣hat"]
    pane.fire_sites.go_to_chunk(1)
    assert view.textCursor().selectedText() == " hat"
