"""The main window driven as a user would: startup, opening files, the merge
table following training, filtering, models, drag and drop, app.main."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from tokexplorer.core.text import token_display
from tokexplorer.gui.main_window import TAB_COMPARE
from tokexplorer.gui.models.merge_model import COL_MERGED, COL_RANK
from tokexplorer.gui.startup import BUILTIN_SAMPLE_NAME, STARTUP_BPE_VOCAB

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted


@pytest.fixture
def started(qtbot, window):
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run()
    return window


def test_startup_with_builtin_sample(started):
    w = started
    state = w.state
    assert w.startup.finished
    assert [f.name for f in state.corpus.files] == [BUILTIN_SAMPLE_NAME]
    assert state.corpus.files[0].text == state.sample_text
    assert w.corpus_pane.file_list.model.data(w.corpus_pane.file_list.model.index(0, 0)) == BUILTIN_SAMPLE_NAME
    assert w.tabs.currentIndex() == TAB_COMPARE
    assert [w.tabs.tabText(i) for i in range(4)] == [
        "Corpus",
        "Merge table",
        "Compare",
        "Byte inspector",
    ]
    # default BPE: vocab 512 with <|endoftext|>, so at most 255 merges
    bpe = state.bpe
    assert bpe is not None
    assert bpe.vocab_size <= STARTUP_BPE_VOCAB
    assert w.merges_pane.model.rowCount() == len(bpe.merges)
    assert w.merges_pane.count_label.text() == f"{len(bpe.merges):,} merges ({len(bpe.merges):,} shown)"
    assert [t.family for t in state.tokenizers] == ["bpe", "tiktoken", "sentencepiece"]
    assert state.tokenizers[0].bpe is bpe
    assert state.tokenizers[1].name == "tiktoken cl100k_base"


def test_merge_table_filter_counts(qtbot, started):
    pane = started.merges_pane
    bpe = started.state.bpe

    def text_of(i):
        return token_display(bpe.vocab[i]).casefold()

    expected = sum(1 for m in bpe.merges if any("th" in text_of(t) for t in (m.new_id, m.left, m.right)))
    assert 0 < expected < len(bpe.merges)
    qtbot.keyClicks(pane.filter_edit, "th")
    pane.apply_filter()
    assert pane.shown_count() == expected
    assert pane.count_label.text() == f"{len(bpe.merges):,} merges ({expected:,} shown)"

    # hex mode: every merge whose bytes contain "e" (0x65)
    pane.filter_edit.setText("65")
    pane.hex_check.setChecked(True)
    assert pane.shown_count() == sum(1 for m in bpe.merges if b"e" in m.merged)
    pane.filter_edit.setText("6")
    pane.apply_filter()
    assert pane.count_label.text() == "not hex: use pairs like e4 bd · <a href='#text'>search “6” as token text</a>"
    pane.filter_edit.clear()
    pane.apply_filter()
    assert pane.shown_count() == len(bpe.merges)


def test_merge_table_sorts_by_header(qtbot, started):
    pane = started.merges_pane
    n = pane.proxy.rowCount()
    pane.view.sortByColumn(COL_RANK, Qt.SortOrder.DescendingOrder)
    assert pane.proxy.data(pane.proxy.index(0, COL_RANK)) == str(n - 1)
    pane.view.sortByColumn(COL_RANK, Qt.SortOrder.AscendingOrder)
    first = started.state.bpe.merges[0]
    assert pane.proxy.data(pane.proxy.index(0, COL_MERGED)) == token_display(first.merged)


def test_training_from_window_replaces_bpe_column(qtbot, started):
    w = started
    w.corpus_pane.form.vocab_spin.setValue(300)
    with qtbot.waitSignal(w.corpus_pane.training_finished, timeout=WAIT) as blocker:
        w.train()
    bpe = blocker.args[0].model
    assert w.state.bpe is bpe
    assert w.merges_pane.model.rowCount() == len(bpe.merges)
    assert [t.family for t in w.state.tokenizers] == [
        "bpe",
        "tiktoken",
        "sentencepiece",
    ]
    assert w.state.tokenizers[0].bpe is bpe
    assert w.statusBar().currentMessage() == blocker.args[0].message


def test_open_paths_loads_corpus(qtbot, window, tmp_path):
    path = tmp_path / "doc.txt"
    path.write_text("汉字 🙂\n", encoding="utf-8")
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.open_paths([str(path)])
    assert [f.name for f in window.state.corpus.files] == ["doc.txt"]
    assert window.tabs.currentWidget() is window.corpus_pane
    assert window.statusBar().currentMessage() == "1 file loaded · Compare shows doc.txt"
    # the opened file, not the built-in sample, is what Compare and the inspector show
    assert window.state.sample_text == "汉字 🙂\n"


def test_startup_with_files(qtbot, window, tmp_path):
    path = tmp_path / "doc.txt"
    path.write_text("low lower lowest newer newest wider widest\n" * 20, encoding="utf-8")
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(path)])
    assert [f.name for f in window.state.corpus.files] == ["doc.txt"]
    assert window.state.bpe is not None
    assert window.merges_pane.model.rowCount() == len(window.state.bpe.merges)


def test_startup_trains_on_a_file_cut_mid_character_and_says_so(qtbot, window, tmp_path):
    text = "低 更低 最低 较新 最新 更宽 最宽\n" * 40
    path = tmp_path / "cut.txt"
    path.write_bytes(text.encode("utf-8") + "宽".encode()[:1])
    messages: list[str] = []
    window.state.status.connect(messages.append)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(path)])
    f = window.state.corpus.files[0]
    assert f.encoding == "utf-8" and f.lossy and f.text == text + "\ufffd"
    assert window.state.bpe is not None  # trained on the text as it reads
    assert messages[-1] == (
        "cut.txt: a few bytes could not be decoded and read as U+FFFD (see the file's notes); "
        "the default models were trained on the text as it reads"
    )


def test_startup_with_many_undecodable_bytes_trains_nothing(qtbot, window, tmp_path):
    # UTF-8 with 100 stray bytes among 2,000 characters: read as UTF-8 with
    # U+FFFD, but too damaged to train on without asking
    path = tmp_path / "bad.txt"
    path.write_bytes(b"\xff".join(("好" * 20).encode("utf-8") for _ in range(101)))
    messages: list[str] = []
    window.state.status.connect(messages.append)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(path)])
    f = window.state.corpus.files[0]
    assert f.encoding == "utf-8" and f.text.count("\ufffd") == 100
    assert window.state.bpe is None
    assert any(m.startswith("the corpus holds lossily decoded text (U+FFFD): no default models") for m in messages)


def test_startup_with_binary_only_falls_back_to_the_sample(qtbot, window, tmp_path):
    path = tmp_path / "x.bin"
    path.write_bytes(b"\x00\x01\x02\x03\xff")  # not UTF-8, with NUL (four control bytes alone decode as text)
    with qtbot.waitSignal(window.startup.done, timeout=WAIT):
        window.startup.run([str(path)])
    assert [f.name for f in window.state.corpus.files] == ["sample.txt (built-in)"]
    assert window.state.bpe is not None  # the default models, trained on the sample
    why = (
        "x.bin: looks like a binary file (not UTF-8, NUL byte at offset 0); not loaded; to see it anyway, "
        "open its raw bytes (File ▸ Open raw bytes…)"  # the window's control, not --encoding
    )
    assert window.corpus_pane.file_list.problem_messages() == [
        f"nothing loaded from x.bin: 1 file is refused ({why}); sample.txt (built-in) is the corpus instead",
        f"    {why}",
    ]


def test_save_and_open_bpe_model(qtbot, started, tmp_path):
    w = started
    target = tmp_path / "model.bpe"
    assert w.save_bpe(str(target))
    assert target.is_file()
    old = w.state.bpe
    with qtbot.waitSignal(w.state.bpe_changed, timeout=WAIT) as blocker:
        w.open_model(str(target))
    loaded = blocker.args[0]
    assert loaded is not old
    assert loaded.merges == old.merges
    assert w.merges_pane.model.rowCount() == len(old.merges)
    assert w.state.tokenizers[0].bpe is loaded


def test_open_corrupt_model_reports_error(qtbot, window, tmp_path):
    bad = tmp_path / "bad.bpe"
    bad.write_text("not a model\n", encoding="utf-8")
    with qtbot.waitSignal(window.state.error, timeout=WAIT) as blocker:
        window.open_model(str(bad))
    assert blocker.args[0].startswith("bad.bpe: ")
    assert window.last_error == blocker.args[0]
    assert window.statusBar().currentMessage() == "⚠ " + blocker.args[0]


def test_save_without_model_is_an_error(window):
    assert window.save_bpe("/nonexistent/never.bpe") is False
    assert window.last_error == "no BPE model to save: train one first (Corpus tab)"


def test_drop_files_on_window(qtbot, window, tmp_path):
    path = tmp_path / "dropped.txt"
    path.write_text("dropped text\n", encoding="utf-8")
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=WAIT):
        window.dropEvent(event)
    assert [f.name for f in window.state.corpus.files] == ["dropped.txt"]


def test_app_main_screenshot(tmp_path):
    """``main(screenshot=PNG)`` waits for the startup work, writes a 1280x800 PNG, exits 0."""
    png = tmp_path / "shot.png"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    code = f"from tokexplorer.gui.app import main; raise SystemExit(main([], screenshot={str(png)!r}))"
    root = Path(__file__).resolve().parents[2]
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=root,
        env=env,
        capture_output=True,
        check=False,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (1280, 800)


def test_merge_fires_marks_compare_column_and_double_click_shows_tree(qtbot, started):
    """Issue 5 across panes: selecting merge " t" (rank 1 of the startup BPE on
    the sample) marks the tokens holding it in our BPE's compare column; a
    double-clicked token opens the merge table on its merge tree."""
    w = started
    bpe = w.state.bpe
    rank = next(m.rank for m in bpe.merges if m.merged == b" t")
    col = next(c for c in w.compare_pane.columns if c.tokenizer.family == "bpe")
    # panes work while on screen: show the window (the Compare tab is current), then the merge table
    if col.tokenization is None:
        with qtbot.waitSignal(w.compare_pane.tokenized, timeout=30_000):
            w.show()
    w.tabs.setCurrentWidget(w.merges_pane)
    with qtbot.waitSignal(w.state.merge_fires, timeout=30_000) as fired:
        w.merges_pane.jump_to_rank(rank)
    spans = fired.args[0]
    assert spans  # " t" occurs in the sample text
    text = w.state.sample_text.encode("utf-8")
    assert all(text[a:b] == b" t" for a, b in spans)
    marked = col.view.marked_tokens()
    toks = col.tokenization.tokens
    shown = len(col.tokenization.text.encode("utf-8"))
    expected = sorted(
        {i for a, b in spans if b <= shown for i, t in enumerate(toks) if t.byte_start < b and t.byte_end > a}
    )
    assert marked == expected and marked
    # every marked token holds the merged bytes
    assert all(b" t" in toks[i].bytes or toks[i].bytes in (b" ", b"t") for i in marked)
    # the tiktoken column is another vocabulary: not marked
    other = next(c for c in w.compare_pane.columns if c.tokenizer.family == "tiktoken")
    assert other.view.marked_tokens() == []

    i = next(i for i, t in enumerate(toks) if len(t.bytes) > 1 and t.bytes in bpe.mergeable_ranks)
    col.view.token_double_clicked.emit(i)
    assert w.tabs.currentWidget() is w.merges_pane
    tid = bpe.mergeable_ranks[toks[i].bytes]
    assert w.merges_pane.tree_label.text().startswith(f"token {tid} «")
