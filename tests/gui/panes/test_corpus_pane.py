"""Corpus pane: reading files in a worker, encodings, refusals, training, cancel."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QLabel

from tokexplorer.core.types import Progress
from tokexplorer.gui.models.corpus_model import (
    COL_CHARS,
    COL_ENCODING,
    COL_EOL,
    COL_FILE,
    COL_LINES,
    COL_NOTES,
    COL_SIZE,
    CorpusTableModel,
)
from tokexplorer.gui.models.table_model import RawRole
from tokexplorer.gui.panes.corpus_pane import (
    CorpusPane,
    TrainingResult,
    parse_special_tokens,
)
from tokexplorer.gui.panes.corpus_pane.training_form import PROGRESS_WIDEST
from tokexplorer.gui.state import AppState

WAIT = 60_000  # ms; generous ceiling for a worker, never asserted


@pytest.fixture
def state():
    return AppState()


@pytest.fixture
def pane(qtbot, state):
    p = CorpusPane(state)
    qtbot.addWidget(p)
    return p


def load(qtbot, pane, paths):
    with qtbot.waitSignal(pane.corpus_loaded, timeout=WAIT) as blocker:
        pane.load_paths([str(p) for p in paths])
    return blocker.args[0]


def cells(pane, row):
    m = pane.file_list.model
    return [m.data(m.index(row, c)) for c in range(m.columnCount())]


def test_utf8_file_with_chinese_and_emoji(qtbot, pane, state, tmp_path):
    text = "hello 世界 🙂\nsecond line\n"
    path = tmp_path / "mixed.txt"
    path.write_bytes(text.encode("utf-8"))  # 18 + 12 = 30 bytes, 23 characters
    corpus = load(qtbot, pane, [path])
    assert state.corpus is corpus
    assert pane.file_list.model.rowCount() == 1
    row = cells(pane, 0)
    assert row[COL_FILE] == "mixed.txt"
    assert row[COL_SIZE] == "30 B"
    assert (
        pane.file_list.model.data(pane.file_list.model.index(0, COL_SIZE), Qt.ItemDataRole.ToolTipRole)
        == "30 bytes"
    )
    assert pane.file_list.model.data(pane.file_list.model.index(0, COL_SIZE), RawRole) == 30
    assert row[COL_ENCODING] == "UTF-8"
    assert row[COL_EOL] == "LF"
    assert row[COL_CHARS] == "23"
    assert row[COL_LINES] == "2"
    assert row[COL_NOTES] == ""
    assert pane.file_list.totals_label.text() == "1 file · 30 bytes on disk · 23 characters · 2 lines"
    assert pane.file_list.problem_messages() == []


def test_bom_and_crlf(qtbot, pane, tmp_path):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbfword\r\nnext\r\n")  # a UTF-8 BOM glued to the first token
    load(qtbot, pane, [path])
    row = cells(pane, 0)
    assert row[COL_ENCODING] == "UTF-8 with BOM"
    assert row[COL_EOL] == "CRLF"
    assert row[COL_CHARS] == "12"
    assert row[COL_SIZE] == "15 B"
    assert pane.corpus.files[0].text == "word\r\nnext\r\n"


def test_gbk_file_is_guessed_and_can_be_switched(qtbot, pane, state, tmp_path):
    text = "汉字 and 中文 is here.\n" * 20
    path = tmp_path / "gbk.txt"
    path.write_bytes(text.encode("gbk"))
    load(qtbot, pane, [path])
    assert pane.corpus.files[0].encoding_guessed is True
    assert cells(pane, 0)[COL_ENCODING] == "gb18030 (guessed)"  # the codec as every note names it
    assert (
        "read as gb18030 (guessed, medium confidence: 160 non-ASCII bytes to go by, and cp874 reads it as well; "
        "if wrong, pick the file's encoding in the Corpus tab and press Re-read as)"
    ) in cells(pane, 0)[COL_NOTES]
    assert "not valid UTF-8 at byte 0" in cells(pane, 0)[COL_NOTES]

    with qtbot.waitSignal(pane.file_reread, timeout=WAIT) as blocker:
        pane.file_list.reread_file(0, "gbk")
    assert blocker.args == [0]
    f = pane.corpus.files[0]
    assert f.text == text
    assert f.encoding == "gbk"
    assert f.encoding_guessed is False
    assert cells(pane, 0)[COL_ENCODING] == "gbk"  # named as the Re-read combo and the notes name it
    assert pane.file_list.encoding_combo.itemText(pane.file_list.encoding_combo.findData("gbk")) == "gbk"
    assert cells(pane, 0)[COL_CHARS] == f"{len(text):,}"
    assert state.corpus.files[0].text == text  # the shared corpus was replaced too


def test_reread_selected_row_with_combo(qtbot, pane, tmp_path):
    path = tmp_path / "latin.txt"
    path.write_bytes("naïve café\n".encode("latin-1"))  # files that are not UTF-8
    load(qtbot, pane, [path])
    pane.file_list.table.selectRow(0)
    pane.file_list.encoding_combo.setCurrentIndex(pane.file_list.encoding_combo.findData("latin-1"))
    with qtbot.waitSignal(pane.file_reread, timeout=WAIT):
        qtbot.mouseClick(pane.file_list.reread_button, Qt.MouseButton.LeftButton)
    assert pane.corpus.files[0].text == "naïve café\n"
    assert cells(pane, 0)[COL_ENCODING] == "latin-1"  # as the combo says, not "iso8859-1"
    assert pane.file_list.encoding_combo.currentText() == "latin-1"


def test_binary_file_is_refused_visibly(qtbot, pane, tmp_path):
    good = tmp_path / "a.txt"
    good.write_text("plain text\n", encoding="utf-8")
    binary = tmp_path / "b.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    corpus = load(qtbot, pane, [good, binary])
    assert [f.name for f in corpus.files] == ["a.txt"]
    assert pane.file_list.problem_messages() == [
        "b.bin: looks like a binary file (not UTF-8, NUL byte at offset 8); not loaded; to see it anyway, "
        "open its raw bytes (File ▸ Open raw bytes…)"  # the window's control, not --encoding
    ]
    assert pane.file_list.problems_label.text() == "Problems: 1"
    assert pane.file_list.load_status.text() == "1 file loaded, 1 refused (see Problems)"


def test_folder_is_read(qtbot, pane, tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "one.txt").write_text("one\n", encoding="utf-8")
    (tmp_path / "d" / "two.txt").write_text("two\ntwo\n", encoding="utf-8")
    corpus = load(qtbot, pane, [tmp_path / "d"])
    assert [f.name for f in corpus.files] == ["one.txt", "two.txt"]
    assert pane.file_list.totals_label.text() == "2 files · 12 bytes on disk · 12 characters · 3 lines"


def test_corpus_model_passes_qt_model_tester(qtbot, qtmodeltester, pane, tmp_path):
    for name, data in (
        ("a.txt", b"alpha\n"),
        ("b.txt", b"\xef\xbb\xbfbeta\r\n"),
        ("c.txt", "汉字\n".encode("gbk")),
    ):
        (tmp_path / name).write_bytes(data)
    load(qtbot, pane, sorted(tmp_path.iterdir()))
    assert pane.file_list.model.rowCount() == 3
    qtmodeltester.check(pane.file_list.model)
    qtmodeltester.check(CorpusTableModel())


def test_parse_special_tokens():
    assert parse_special_tokens("<|endoftext|>, <|pad|>  <|endoftext|>") == [
        "<|endoftext|>",
        "<|pad|>",
    ]
    assert parse_special_tokens("  ") == []


# ---------------------------------------------------------------- training


def test_train_bpe_in_worker(qtbot, pane, state, tmp_path):
    path = tmp_path / "train.txt"
    path.write_text("the cat sat on the mat. the hat is flat.\n" * 30, encoding="utf-8")
    load(qtbot, pane, [path])
    pane.form.vocab_spin.setValue(300)
    finished = []
    pane.training_finished.connect(finished.append)
    with qtbot.waitSignal(pane.training_progress, timeout=WAIT):
        worker = pane.start_training()
        assert worker is pane.last_worker
        assert not pane.form.train_button.isEnabled()
        assert pane.form.cancel_button.isEnabled()
    qtbot.waitUntil(lambda: bool(finished), timeout=WAIT)
    result = finished[0]
    assert isinstance(result, TrainingResult)
    bpe = result.model
    assert state.bpe is bpe
    assert bpe.vocab_size <= 300
    assert result.report.requested_merges == 300 - 256  # no special token unless asked for, as in `train`
    assert [t.family for t in state.tokenizers] == ["bpe"]
    assert state.tokenizers[0].bpe is bpe
    assert pane.form.train_message.text() == result.message
    assert result.message.startswith(f"learned {result.report.learned_merges} of 44")
    assert pane.form.train_button.isEnabled()
    assert not pane.form.cancel_button.isEnabled()
    assert re.fullmatch(r"done in \d+\.\d s", pane.form.progress.format())  # how long it took
    assert re.search(r"; \d+\.\d s$", result.message)


def test_progress_text_fits_its_bar(pane):
    """The bar is made wide enough for its longest text (issue 16: the text was cut)."""
    bar = pane.form.progress
    bar.setRange(0, 1_000_000)
    pane.form.show_progress(Progress("pre-tokenizing", 1_000_000, 1_000_000, unit="characters"))
    assert bar.format() == PROGRESS_WIDEST
    assert bar.minimumWidth() > bar.fontMetrics().horizontalAdvance(bar.format()) + 20
    pane.form.show_progress(Progress("merging", 12_345, 31_743, unit="merges"))
    assert bar.format() == "merging 12,345 / 31,743 merges"  # each report's own unit
    pane.form.show_progress(Progress("pre-tokenizing", 287, 1_563, unit="bytes"))
    assert bar.format() == "pre-tokenizing 287 / 1,563 bytes"


def test_tiny_corpus_reports_merges_learned(qtbot, pane, state, tmp_path):
    """empty or tiny training text: 'ab' with vocab 300 (no specials) learns 1 of 44 merges."""
    path = tmp_path / "ab.txt"
    path.write_text("ab", encoding="utf-8")
    load(qtbot, pane, [path])
    pane.form.vocab_spin.setValue(300)
    pane.form.specials_edit.setText("")
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT) as blocker:
        pane.start_training()
    result = blocker.args[0]
    assert result.message.startswith("learned 1 of 44 requested merges; vocab 257")
    assert len(state.bpe.merges) == 1
    assert state.bpe.merges[0].merged == b"ab"


def test_cancel_training_returns_to_idle(qtbot, pane, state, tmp_path):
    words = [f"w{i:05d}x{(i * 7919) % 10007}" for i in range(20_000)]
    path = tmp_path / "big.txt"
    path.write_text(" ".join(words) + "\n", encoding="utf-8")
    load(qtbot, pane, [path])
    pane.form.vocab_spin.setValue(50_000)
    with qtbot.waitSignal(pane.training_cancelled, timeout=WAIT):
        worker = pane.start_training()
        with qtbot.waitSignal(worker.signals.cancelled, timeout=WAIT):
            qtbot.mouseClick(pane.form.cancel_button, Qt.MouseButton.LeftButton)
    assert worker.done or worker.wait(30)
    assert worker.result is None
    assert state.bpe is None
    assert pane.form.train_button.isEnabled()
    assert not pane.form.cancel_button.isEnabled()
    assert pane.form.progress.format() == "cancelled"
    assert pane.form.train_message.text() == "training cancelled"
    assert not pane.is_training()


def test_vocab_too_small_is_refused(qtbot, pane, state, tmp_path):
    """vocab_size below the byte alphabet: 257 with 2 special tokens is rejected before training."""
    path = tmp_path / "t.txt"
    path.write_text("some text\n", encoding="utf-8")
    load(qtbot, pane, [path])
    pane.form.vocab_spin.setValue(257)
    pane.form.specials_edit.setText("<|endoftext|>, <|pad|>")
    with qtbot.waitSignal(state.error, timeout=1000) as blocker:
        assert pane.start_training() is None
    expected = (
        "byte-level BPE needs at least 256 base tokens (+2 special): vocab_size 257 is too small; use at least 258"
    )
    assert blocker.args == [expected]
    assert pane.form.train_message.text() == expected
    assert pane.last_worker is None
    assert pane.form.train_button.isEnabled()


def test_empty_corpus_nothing_to_train_on(qtbot, pane, state, tmp_path):
    path = tmp_path / "empty.txt"
    path.write_bytes(b"")
    load(qtbot, pane, [path])
    assert cells(pane, 0)[COL_NOTES] == "empty file"
    with qtbot.waitSignal(state.error, timeout=1000) as blocker:
        assert pane.start_training() is None
    assert blocker.args[0].startswith("nothing to train on")


def test_no_corpus_nothing_to_train_on(qtbot, pane, state):
    with qtbot.waitSignal(state.error, timeout=1000) as blocker:
        assert pane.start_training() is None
    assert blocker.args[0].startswith("nothing to train on")


def test_lossy_text_asks_before_training(qtbot, pane, state, tmp_path, monkeypatch):
    """files that are not UTF-8: U+FFFD from a lossy decode needs the user's confirmation."""
    path = tmp_path / "gbk.txt"
    path.write_bytes(("汉字 and 中文 is here.\n" * 5).encode("gbk"))
    load(qtbot, pane, [path])
    with qtbot.waitSignal(pane.file_reread, timeout=WAIT):
        pane.file_list.reread_file(0, "utf-8")
    assert pane.corpus.files[0].lossy is True
    assert "\ufffd" in pane.corpus.files[0].text
    assert pane.file_list.problems_label.text() == (
        "Problems: none · notes on 1 file (below) · loaded with U+FFFD where bytes could not be decoded: gbk.txt "
        "(highlighted in the table; see its notes)"
    )
    asked = []
    monkeypatch.setattr(
        pane, "_confirm", lambda title, text: asked.append(text) or False
    )
    pane.form.vocab_spin.setValue(300)
    with qtbot.waitSignal(state.error, timeout=1000) as blocker:
        assert pane.start_training() is None
    assert blocker.args == [
        "training refused: the corpus holds lossily decoded text (U+FFFD)"
    ]
    assert len(asked) == 1 and asked[0].startswith(
        "gbk.txt could not be decoded exactly"
    )

    monkeypatch.setattr(pane, "_confirm", lambda title, text: True)
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT):
        assert pane.start_training() is not None
    assert state.bpe is not None


def test_sentencepiece_vocab_too_large_offers_limit(
    qtbot, pane, state, tmp_path, monkeypatch
):
    """vocabulary too large for the corpus: SentencePiece's largest size is offered and used when the user agrees."""
    path = tmp_path / "small.txt"
    path.write_text(
        "the cat sat on the mat\nthe dog ate the log\n" * 10, encoding="utf-8"
    )
    load(qtbot, pane, [path])
    pane.form.set_algorithm("sp-bpe")
    assert not pane.form.pattern_combo.isEnabled()
    assert pane.form.sp_box.isEnabled()
    pane.form.vocab_spin.setValue(5000)
    questions = []
    monkeypatch.setattr(
        pane, "_confirm", lambda title, text: questions.append(text) or True
    )
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT) as blocker:
        pane.start_training()
    result = blocker.args[0]
    assert len(questions) == 1
    assert questions[0].startswith(
        "vocab 5,000 is too large for this corpus; SentencePiece can make at most "
    )
    assert result.vocab_size < 5000
    assert result.tokenizer.vocab_size == result.vocab_size
    assert [t.family for t in state.tokenizers] == ["sentencepiece"]
    assert state.bpe is None


def test_sentencepiece_auto_fit(qtbot, pane, state, tmp_path):
    path = tmp_path / "small.txt"
    path.write_text(
        "the cat sat on the mat\nthe dog ate the log\n" * 10, encoding="utf-8"
    )
    load(qtbot, pane, [path])
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT) as blocker:
        pane.start_training(algorithm="sp-unigram", vocab_size=5000, auto_fit=True)
    result = blocker.args[0]
    assert result.notes[0].startswith(
        "vocab 5,000 is too large for this corpus; trained with "
    )
    assert state.tokenizers[0] is result.tokenizer


def test_sentencepiece_auto_fit_many_characters(qtbot, pane, state, tmp_path):
    """A corpus with more distinct characters than the vocab asked for (Chinese)
    trains at the least size SentencePiece accepts when auto_fit is on (startup)."""
    chars = "".join(chr(0x4E00 + i) for i in range(60))
    path = tmp_path / "zh.txt"
    path.write_text("\n".join(chars[i:] + chars[:i] for i in range(40)) + "\n", encoding="utf-8")
    load(qtbot, pane, [path])
    with qtbot.waitSignal(pane.training_failed, timeout=WAIT) as failed:
        pane.start_training(algorithm="sp-bpe", vocab_size=40)
    message = (
        "vocab_size 40 < 64 needed: 61 characters kept by character_coverage 1.0 + 3 meta pieces; raise vocab_size "
        "to at least 64 (even character_coverage 0.98, SentencePiece's lowest, keeps more than 37 characters)"
    )
    assert failed.args[0] == message
    assert pane.form.train_message.text() == f"training failed: {message}"
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT) as blocker:
        pane.start_training(algorithm="sp-bpe", vocab_size=40, auto_fit=True)
    result = blocker.args[0]
    assert result.notes[0] == "vocab 40 is too small for this corpus; trained with 64, the least SentencePiece accepts"
    assert result.tokenizer.vocab_size == 64


def test_sentencepiece_limit_declined_fails_with_the_note(qtbot, pane, state, tmp_path, monkeypatch):
    """SentencePiece's "vocab too large" arrives as the worker's error; declining the offer fails the training."""
    path = tmp_path / "small.txt"
    path.write_text("the cat sat on the mat\nthe dog ate the log\n" * 10, encoding="utf-8")
    load(qtbot, pane, [path])
    monkeypatch.setattr(pane, "_confirm", lambda title, text: False)
    with qtbot.waitSignal(pane.training_failed, timeout=WAIT) as blocker:
        pane.start_training(algorithm="sp-bpe", vocab_size=5000)
    assert blocker.args[0].startswith("vocab 5,000 is too large for this corpus; SentencePiece can make at most ")
    assert pane.form.progress.format() == "not trained"
    assert pane.form.train_message.text() == blocker.args[0]
    assert not pane.is_training() and state.tokenizers == []


def test_training_request_from_the_form(pane):
    """The form describes byte-level BPE with its pattern and specials, SentencePiece with its options only."""
    from tokexplorer.core.backends import SentencePieceOptions

    pane.form.specials_edit.setText("<a>, <b> <a>")
    bpe = pane.form.request(["x"], algorithm="bpe", vocab_size=300)
    assert (bpe.pattern, list(bpe.special_tokens), bpe.fit_vocab) == ("gpt2", ["<a>", "<b>"], False)
    form = pane.form.sp_form
    form.coverage_spin.setValue(0.9995)
    form.byte_fallback_check.setChecked(True)
    form.normalization_combo.setCurrentIndex(form.normalization_combo.findData("identity"))
    form.remove_ws_check.setChecked(False)
    sp = pane.form.request(["x"], algorithm="sp-unigram", vocab_size=100, fit_vocab=True)
    assert (sp.pattern, list(sp.special_tokens), sp.fit_vocab) == (None, [], True)
    assert sp.sentencepiece == SentencePieceOptions(
        model_type="unigram",
        character_coverage=0.9995,
        byte_fallback=True,
        normalization_rule_name="identity",
        remove_extra_whitespaces=False,
    )


def test_long_lines_message_names_the_controls_of_this_tab(qtbot, pane, state, tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("the cat sat on the mat\n" * 20 + "x" * 300 + "\n", encoding="utf-8")
    load(qtbot, pane, [path])
    pane.form.set_algorithm("sp-bpe")
    pane.form.vocab_spin.setValue(30)
    form = pane.form.sp_form
    form.max_len_spin.setValue(100)
    with qtbot.waitSignal(pane.training_failed, timeout=WAIT) as blocker:
        pane.start_training()
    message = blocker.args[0]
    assert message.endswith("set max_sentence_length to 300 bytes, or tick 'let SentencePiece skip longer lines'")
    # both controls are on this tab, with the names the message uses
    rows = pane.form.sp_box.layout()
    labels = [rows.itemAt(i).widget().text() for i in range(rows.count())
              if isinstance(rows.itemAt(i).widget(), (QLabel, QCheckBox))]  # fmt: skip
    assert "max_sentence_length:" in labels and "let SentencePiece skip longer lines" in labels
    form.skip_long_check.setChecked(True)
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT) as blocker:
        pane.start_training()
    assert "1 line longer than 100 bytes skipped by SentencePiece" in blocker.args[0].notes


@pytest.mark.parametrize("streamed", [False, True])
def test_files_of_one_name_in_two_folders_are_named_below_the_folder(qtbot, pane, state, tmp_path, streamed):
    """x/a.txt and y/a.txt of one folder: the table, the notes, the problems and the
    re-read message name each by its path below the folder opened, never a bare a.txt."""
    from tokexplorer.gui.widgets.compare_source import CompareSourceBar

    root = tmp_path / "corpus"
    (root / "x").mkdir(parents=True)
    (root / "y").mkdir()
    (root / "x" / "a.txt").write_bytes(("汉字 and 中文 is here.\n" * 20).encode("gbk"))
    (root / "y" / "a.txt").write_text("plain text\n", encoding="utf-8")
    (root / "y" / "b.bin").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    if streamed:
        pane.file_list.stream_bytes = 1
    load(qtbot, pane, [root])
    x, y = (str(root.joinpath(*p).relative_to(root)) for p in (("x", "a.txt"), ("y", "a.txt")))
    assert [cells(pane, r)[COL_FILE] for r in range(2)] == [x, y]
    assert cells(pane, 0)[COL_NOTES].startswith(f"{x}: not valid UTF-8 at byte 0 (invalid start byte); read as ")
    tip = pane.file_list.model.data(pane.file_list.model.index(0, COL_NOTES), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith(f"{x}: not valid UTF-8 at byte 0")
    assert pane.file_list.problem_messages() == [
        f"{root.joinpath('y', 'b.bin').relative_to(root)}: looks like a binary file (not UTF-8, NUL byte at "
        "offset 8); not loaded; to see it anyway, open its raw bytes (File ▸ Open raw bytes…)"
    ]
    if not streamed:  # a streamed corpus holds no text: Compare shows its sample, there is no file to choose
        bar = CompareSourceBar(state)
        qtbot.addWidget(bar)
        assert [bar.file_combo.itemText(i) for i in range(bar.file_combo.count())] == [
            f"{x} (380 characters)", f"{y} (11 characters)"
        ]
    from tokexplorer.gui.panes.stats_pane import StatsPane

    stats = StatsPane(state)
    qtbot.addWidget(stats)
    assert [name for name, _ in stats.corpus_files()] == [x, y]  # the rows of the statistics per file
    with qtbot.waitSignal(pane.file_reread, timeout=WAIT):
        pane.file_list.reread_file(0, "gbk")
    assert pane.file_list.load_status.text() == f"{x} re-read as gbk"
def test_the_training_message_names_the_corpus_it_was_trained_on(qtbot, pane, state, tmp_path):
    """After another corpus is opened, the last training's message says it came from the previous one."""
    from tokexplorer.core.bpe import train_bpe

    big = tmp_path / "big30.txt"
    big.write_text("the cat sat on the mat\nthe dog ate the log\n" * 10, encoding="utf-8")
    other, more = tmp_path / "other.txt", tmp_path / "more.txt"
    other.write_text("something else\n", encoding="utf-8")
    more.write_text("and more\n", encoding="utf-8")
    load(qtbot, pane, [big])
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT) as done:
        pane.start_training(algorithm="bpe", vocab_size=4096)
    message = done.args[0].message
    expected, _ = train_bpe([big.read_text(encoding="utf-8")], vocab_size=4096, pattern="gpt2")
    n = len(expected.merges)
    assert message.startswith(f"learned {n:,} of 3,840 requested merges; vocab {n + 256:,}: no pair of tokens is left")
    assert pane.form.train_message.text() == message
    load(qtbot, pane, [other, more])
    assert pane.form.train_message.text() == f"Trained on the previous corpus, big30.txt, not on this one: {message}"
    load(qtbot, pane, [other])  # still not the one trained on: said once, not twice
    assert pane.form.train_message.text() == f"Trained on the previous corpus, big30.txt, not on this one: {message}"
    load(qtbot, pane, [big])  # the same file again: the message as it was
    assert pane.form.train_message.text() == message


def test_sentencepiece_user_defined_symbols_as_on_the_command_line(qtbot, pane, state, tmp_path):
    """The Corpus tab offers SentencePiece's user-defined symbols (named as in its dialog); the model
    is the one ``train --algorithm sp-bpe --special <sep>`` trains: the same pieces, <sep> whole."""
    import sentencepiece as spm

    from tokexplorer.cli import main
    from tokexplorer.core.backends import SentencePieceTokenizer

    path = tmp_path / "sep.txt"
    path.write_text("the cat sat<sep>on the mat\nthe dog<sep>ate the log\n" * 10, encoding="utf-8")
    load(qtbot, pane, [path])
    pane.form.set_algorithm("sp-bpe")
    assert pane.form.specials_edit.isEnabled() and pane.form.specials_label.text() == "User-defined symbols:"
    pane.form.specials_edit.setText("<sep>")
    from PySide6.QtWidgets import QLabel as Label

    from tokexplorer.gui.dialogs.sp_train import SPTrainDialog

    dialog = SPTrainDialog(["x"])  # the Compare tab's dialog: the same name and meaning
    qtbot.addWidget(dialog)
    assert "User-defined symbols:" in [w.text() for w in dialog.findChildren(Label)]
    assert dialog.symbols_edit.toolTip() == pane.form.specials_edit.toolTip()
    assert pane.form.specials_edit.toolTip().startswith("SentencePiece's user_defined_symbols: pieces always kept")
    with qtbot.waitSignal(pane.training_finished, timeout=WAIT) as blocker:
        pane.start_training(vocab_size=40)
    tok = blocker.args[0].tokenizer
    model = tmp_path / "cli.model"
    args = ["train", str(path), "--algorithm", "sp-bpe", "--vocab-size", "40", "--special", "<sep>", "-o", str(model)]
    assert main(args) == 0
    ref = spm.SentencePieceProcessor(model_file=str(model))
    assert [tok.piece(i) for i in range(tok.vocab_size)] == [ref.id_to_piece(i) for i in range(ref.get_piece_size())]
    sep = ref.piece_to_id("<sep>")
    assert ref.is_unknown(sep) is False and tok.user_defined_symbols == {"<sep>": sep} == {"<sep>": 3}
    assert b"<sep>" in [bytes(t.bytes) for t in tok.tokenize("cat<sep>dog").tokens]  # kept whole
    assert SentencePieceTokenizer.from_file(model).user_defined_symbols == {"<sep>": 3}


def test_problems_wrap_at_the_list_width(qtbot, pane, tmp_path):
    """A long problem is wrapped over several lines, not cut at the right (the newcomer's
    "…open its raw bytes (" ran off the list)."""
    binary = tmp_path / "a_binary_file_with_a_long_name.bin"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    good = tmp_path / "a.txt"
    good.write_text("plain text\n", encoding="utf-8")
    pane.resize(900, 600)
    pane.show()
    qtbot.waitExposed(pane)
    load(qtbot, pane, [good, binary])
    problems = pane.file_list.problems
    assert problems.wordWrap()
    assert problems.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    index = problems.model().index(0, 0)
    rect = problems.visualRect(index)
    line = problems.fontMetrics().lineSpacing()
    assert rect.width() <= problems.viewport().width()
    assert rect.height() >= 2 * line  # the message is wider than the list: two lines at least
    assert problems.fontMetrics().horizontalAdvance(problems.item(0).text()) > problems.viewport().width()
