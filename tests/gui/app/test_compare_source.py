"""Compare says which text it shows (a corpus file, which of how many, edited or not),
offers the other corpus files, and the merge table's Fires column names that text."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tokexplorer.gui.models.merge_columns import COL_FIRES, FIRES_TIP
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.state import AppState

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted


def test_compare_names_its_corpus_file_and_shows_another(qtbot, window, tmp_path):
    zh, emoji = tmp_path / "zh.txt", tmp_path / "emoji.txt"
    zh.write_text("汉字汉字\n", encoding="utf-8")
    emoji.write_text("🙂 smile 🙂 smile 🙂\n", encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.open_paths([str(zh), str(emoji)])
    state, bar = window.state, window.compare_pane.source_bar
    names = [f.name for f in state.corpus.files]
    i_emoji = names.index("emoji.txt")
    # the file with most characters, and which of the corpus files it is
    assert state.sample_text == "🙂 smile 🙂 smile 🙂\n"
    assert bar.label.text() == f"Compare text: emoji.txt (corpus file {i_emoji + 1} of 2)"
    combo = bar.file_combo
    assert not combo.isHidden()
    assert [combo.itemText(r) for r in range(combo.count())] == [
        {"zh.txt": "zh.txt (5 characters)", "emoji.txt": "emoji.txt (18 characters)"}[n] for n in names
    ]
    assert combo.currentData() == i_emoji
    i_zh = names.index("zh.txt")
    combo.activated.emit(combo.findData(i_zh))  # the user picks zh.txt
    assert state.sample_text == "汉字汉字\n"
    assert window.compare_pane.editor.real_text() == "汉字汉字\n"
    assert bar.label.text() == f"Compare text: zh.txt (corpus file {i_zh + 1} of 2)"
    assert combo.currentData() == i_zh
    window.compare_pane.set_text("汉字汉字 edited\n")
    assert bar.label.text() == f"Compare text: zh.txt (corpus file {i_zh + 1} of 2), edited"


def test_one_file_corpus_hides_the_choice(qtbot, window, tmp_path):
    doc = tmp_path / "doc.txt"
    doc.write_text("abc\n", encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.open_paths([str(doc)])
    bar = window.compare_pane.source_bar
    assert bar.label.text() == "Compare text: doc.txt (the corpus file)"
    assert bar.file_combo.isHidden()
    window.state.set_sample_text("typed", source="")
    assert bar.label.text() == "Compare text: what you typed or pasted"


def test_fires_header_tip_names_the_text_counted_in(qtbot, cat_hat_bpe):
    state = AppState()
    state.set_sample_text("the cat in the hat", source="cats.txt (corpus file 2 of 3)")
    pane = MergesPane(state)
    qtbot.addWidget(pane)
    tip = Qt.ItemDataRole.ToolTipRole
    with qtbot.waitSignal(pane.model.dataChanged, timeout=5000):
        state.set_bpe(cat_hat_bpe)
    qtbot.waitUntil(lambda: pane.model.fire_counts is not None, timeout=10_000)
    head = pane.model.headerData(COL_FIRES, Qt.Orientation.Horizontal, tip)
    assert head == FIRES_TIP.format(text="cats.txt (corpus file 2 of 3)")
    assert "counted in: cats.txt (corpus file 2 of 3) (0: not in that text" in head
    with qtbot.waitSignal(pane.model.dataChanged, timeout=10_000):
        state.set_sample_text("the hat")  # an edit: counted again, in the edited text
    qtbot.waitUntil(lambda: pane.fire_sites_text() == "the hat", timeout=10_000)
    head = pane.model.headerData(COL_FIRES, Qt.Orientation.Horizontal, tip)
    assert head == FIRES_TIP.format(text="cats.txt (corpus file 2 of 3), edited")


def test_the_label_reads_naturally_for_every_source(qtbot, window, tmp_path):
    """The built-in sample, a long file's first characters, a streamed corpus's sample:
    each said as a reader would say it, ", edited" after an edit."""
    from tokexplorer.core.io import sample_text
    from tokexplorer.gui.startup import builtin_sample_corpus

    bar = window.compare_pane.source_bar
    window.state.set_sample_text(sample_text())
    window.corpus_pane.set_corpus(builtin_sample_corpus(sample_text()))
    assert bar.label.text() == "Compare text: the built-in sample text"
    window.compare_pane.set_text(sample_text()[:40] + " my edit")
    assert bar.label.text() == "Compare text: the built-in sample text, edited"
    window.compare_pane.set_text("all of it typed over")  # neither end of the text kept
    assert bar.label.text() == "Compare text: what you typed or pasted"
    window.state.set_sample_text(sample_text(), source="")
    big = tmp_path / "big.txt"
    big.write_text("abc\n" * 600_000, encoding="utf-8")  # 2,400,000 characters
    (tmp_path / "small.txt").write_text("x\n", encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.open_paths([str(tmp_path)])
    first = "the first 2,000,000 of 2,400,000 characters of big.txt (corpus file 1 of 2)"
    assert bar.label.text() == f"Compare text: {first}"
    window.corpus_pane.file_list.stream_bytes = 1
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.open_paths([str(tmp_path)])
    assert bar.label.text() == "Compare text: a sample of the streamed corpus"
