"""A column added beyond the right edge is scrolled into view; the status line never says what
is no longer true ("loading …" after the column loaded, "Compare shows X" after switching to
another file), and a message too long for it is cut with "…", whole in its tooltip."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from tokexplorer.core.backends import BPETokenizer
from tokexplorer.core.bpe import train_bpe

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted
TEXT = "the cat sat on the mat 1234 "


@pytest.fixture
def hf_json(tmp_path):
    lib = Tokenizer(models.BPE())
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    lib.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=280, initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    lib.train_from_iterator([TEXT] * 10, trainer)
    path = tmp_path / "tokenizer.json"
    lib.save(str(path))
    return path


def test_a_new_column_is_scrolled_into_view_and_loading_is_replaced(qtbot, window, hf_json):
    window.resize(900, 700)
    window.show()
    qtbot.waitExposed(window)
    window.tabs.setCurrentWidget(window.compare_pane)
    bpe, _ = train_bpe(TEXT * 8, vocab_size=280, pattern="gpt2")
    window.state.set_tokenizers([BPETokenizer(bpe) for _ in range(13)])
    pane = window.compare_pane
    bar = pane.columns_scroll.horizontalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=10_000)  # 13 columns (75 px at least) do not fit in 900 px
    bar.setValue(0)
    with qtbot.waitSignal(pane.columns_view.column_added, timeout=WAIT) as blocker:
        pane.add_menu.add_spec(f"hf:{hf_json}")
    col = blocker.args[0]
    assert col is pane.columns_view.columns[-1] and col.tokenizer.name == "tokenizer.json (Hugging Face BPE)"
    viewport = pane.columns_scroll.viewport()

    def in_view() -> bool:
        left = col.mapTo(viewport, col.rect().topLeft()).x()
        return 0 <= left and left + col.width() <= viewport.width()

    qtbot.waitUntil(in_view, timeout=10_000)
    assert bar.value() > 0
    assert window.statusBar().currentMessage() == "added the column tokenizer.json (Hugging Face BPE)"


def test_compare_shows_is_dropped_when_another_file_is_shown(qtbot, window, tmp_path):
    zh, emoji = tmp_path / "zh.txt", tmp_path / "emoji.txt"
    zh.write_text("汉字汉字\n", encoding="utf-8")
    emoji.write_text("🙂 smile 🙂 smile 🙂\n", encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.open_paths([str(zh), str(emoji)])
    status = window.statusBar()
    assert status.currentMessage().endswith("Compare shows emoji.txt")
    before = status.currentMessage().removesuffix(" · Compare shows emoji.txt")
    combo = window.compare_pane.source_bar.file_combo
    combo.activated.emit(combo.findData([f.name for f in window.state.corpus.files].index("zh.txt")))
    assert window.state.sample_text == "汉字汉字\n"
    assert "Compare shows" not in status.currentMessage()
    assert status.currentMessage() == (before if before != "Compare shows emoji.txt" else "")


def test_a_long_status_message_is_cut_with_its_whole_text_in_the_tooltip(qtbot, window):
    window.resize(700, 500)
    window.show()
    qtbot.waitExposed(window)
    status = window.statusBar()
    long = "opened multilingual.tiktoken: " + "special tokens for 99 languages · " * 8 + "the end"
    window.state.status.emit(long)
    assert status.currentMessage() == long
    assert status.is_cut() and status.shown_text().endswith("…") and status.toolTip() == long
    assert status.fontMetrics().horizontalAdvance(status.shown_text()) <= status.width()
    window.state.status.emit("Ready")
    assert not status.is_cut() and status.toolTip() == ""


def test_a_status_message_belongs_to_the_tab_that_wrote_it(qtbot, window):
    """The merge table's "merge #0: …" is not left on the Compare tab (nor on any other)."""
    window.resize(1000, 700)
    window.show()
    qtbot.waitExposed(window)
    bpe, _ = train_bpe(TEXT * 8, vocab_size=280, pattern="gpt2")
    window.state.set_bpe(bpe)
    window.tabs.setCurrentWidget(window.merges_pane)
    status = window.statusBar()
    assert window.merges_pane.jump_to_rank(0)
    said = status.currentMessage()
    assert said == "merge #0: a + t → token 256 (61 74)"  # "at" of cat, sat, mat
    assert status.owner() is window.merges_pane
    qtbot.wait(20)  # back in the event loop: the next tab change is the user's
    window.tabs.setCurrentWidget(window.compare_pane)
    assert status.currentMessage() == ""
    window.tabs.setCurrentWidget(window.merges_pane)
    assert status.currentMessage() == ""  # not brought back either: the selection may be stale by now
    # a tab switch made by the action that wrote the message keeps it (asked for a merge from Compare)
    window.tabs.setCurrentWidget(window.compare_pane)
    window.state.status.emit("opened m.bpe (BPE)")
    window.tabs.setCurrentWidget(window.merges_pane)
    assert status.currentMessage() == "opened m.bpe (BPE)" and status.owner() is window.merges_pane
    qtbot.wait(20)  # back in the event loop: from now on a tab change is the user's
    window.tabs.setCurrentWidget(window.bytes_pane)
    assert status.currentMessage() == ""


def test_the_merge_status_shows_spaces_as_the_cells_do(qtbot, window):
    """'merge #3: ␣ + c', as the Left cell draws the token, not a bare space."""
    bpe, _ = train_bpe(TEXT * 8, vocab_size=280, pattern="gpt2")
    window.state.set_bpe(bpe)
    window.tabs.setCurrentWidget(window.merges_pane)
    rank = next(m.rank for m in bpe.merges if bpe.vocab[m.left].startswith(b" "))
    merge = bpe.merges[rank]
    assert window.merges_pane.jump_to_rank(rank)
    left, right = (bpe.vocab[t].decode().replace(" ", "␣") for t in (merge.left, merge.right))
    assert left.startswith("␣")
    assert window.statusBar().currentMessage() == (
        f"merge #{rank}: {left} + {right} → token {merge.new_id} ({bpe.vocab[merge.new_id].hex(' ').upper()})"
    )
