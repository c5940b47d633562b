"""The window streams a large corpus (issue 14.3): a small threshold forces streaming on
small files, so these tests check what a 1 GB folder does on a few KiB."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from tokexplorer.cli import main as cli_main
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import load_bpe, load_corpus
from tokexplorer.gui import symbols
from tokexplorer.gui.models.corpus_model import COL_LINES
from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.state import AppState

EN = "the tokenizer learns merges from the text; the merges are ranked.\r\n"
ZH = "中文的文本，用来训练分词器。我们的分词器学习合并。\n"
CODE = "def train(texts):\n    return sorted(set(texts))\n"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    d = tmp_path / "corpus"
    d.mkdir()
    (d / "en.txt").write_bytes(EN.encode() * 40)
    (d / "zh.txt").write_bytes(b"\xef\xbb\xbf" + ZH.encode() * 30)
    (d / "sub").mkdir()
    (d / "sub" / "code.py").write_bytes(CODE.encode() * 25)
    return d


def streaming_pane(qtbot, state: AppState | None = None) -> CorpusPane:
    pane = CorpusPane(state or AppState())
    qtbot.addWidget(pane)
    pane.file_list.stream_bytes = 1  # every corpus is streamed
    return pane


def open_streamed(qtbot, pane: CorpusPane, folder: Path):
    rows: list[int] = []
    pane.file_list.model.rowsInserted.connect(lambda *_: rows.append(pane.file_list.model.rowCount()))
    with qtbot.waitSignal(pane.corpus_loaded, timeout=20_000) as loaded:
        pane.load_paths([str(folder)])
    return loaded.args[0], rows


def test_a_streamed_folder_fills_the_list_without_holding_text(qtbot, folder):
    pane = streaming_pane(qtbot)
    corpus, rows = open_streamed(qtbot, pane, folder)
    assert rows == [1, 2, 3]  # one row as each file was read
    whole = load_corpus(folder)
    assert corpus.streamed and [f.text for f in corpus.files] == ["", "", ""]
    assert list(corpus.files) == [dataclasses.replace(w, text="", streamed=True) for w in whole.files]
    model = pane.file_list.model
    assert [model.index(r, COL_LINES).data() for r in range(3)] == ["40", "50", "30"]
    assert pane.file_list.totals_label.text() == (
        f"3 files · {whole.n_bytes:,} bytes on disk · {whole.n_chars:,} characters · 120 lines"
    )
    assert pane.file_list.load_status.text() == "3 files loaded"
    assert pane.file_list.cancel_load_button.isHidden() and pane.file_list.load_progress.isHidden()
    assert corpus.sample == (whole.files[0].text, whole.files[1].text, whole.files[2].text)


def test_cancel_keeps_the_corpus_shown(qtbot, folder, tmp_path):
    pane = streaming_pane(qtbot)
    first = tmp_path / "first.txt"
    first.write_text("kept\n", encoding="utf-8")
    kept, _ = open_streamed(qtbot, pane, first)
    job = pane.file_list._load_job
    job.pause()  # the read waits before its first piece, so Cancel comes first
    loaded: list[object] = []
    pane.corpus_loaded.connect(loaded.append)
    worker = pane.load_paths([str(folder)])
    assert not pane.file_list.cancel_load_button.isHidden() and not pane.file_list.load_progress.isHidden()
    pane.file_list.cancel_loading()
    job.resume()
    worker.resume()
    assert worker.wait(10)
    qtbot.wait(50)
    assert worker.result is None and loaded == []
    assert pane.corpus is kept and pane.file_list.model.rowCount() == 1
    assert pane.file_list.load_status.text() == "reading cancelled"
    assert pane.file_list.cancel_load_button.isHidden()


def test_streamed_training_learns_the_command_lines_merges(qtbot, capsys, folder, tmp_path):
    pane = streaming_pane(qtbot)
    open_streamed(qtbot, pane, folder)
    pane.form.vocab_spin.setValue(330)
    progress = []
    pane.training_progress.connect(progress.append)
    with qtbot.waitSignal(pane.training_finished, timeout=60_000) as done:
        worker = pane.start_training(algorithm="bpe")
    assert worker.result is not None
    # the files were counted from disk: progress in bytes of the files
    counted = [p for p in progress if p.phase == "pre-tokenizing"]
    assert counted[-1].done == counted[-1].total == pane.corpus.n_bytes
    bpe = done.args[0].model
    out = tmp_path / "cli.bpe"
    assert cli_main(["train", str(folder), "--vocab-size", "330", "-o", str(out)]) == 0  # reads into memory
    cli = load_bpe(out)
    assert len(bpe.merges) == len(cli.merges) == 74
    assert [(m.left, m.right) for m in bpe.merges] == [(m.left, m.right) for m in cli.merges]
    assert pane.sample_note == ""


def test_statistics_of_a_streamed_corpus_equal_the_in_memory_ones(qtbot, folder):
    from fixtures.stats import fixture_tokenizers
    from tokexplorer.core.analysis import compute_stats
    from tokexplorer.gui.panes.stats_pane import StatsPane

    state = AppState()
    toks = fixture_tokenizers()
    state.set_tokenizers(toks)
    pane = streaming_pane(qtbot, state)
    corpus, _ = open_streamed(qtbot, pane, folder)
    stats_pane = StatsPane(state)
    qtbot.addWidget(stats_pane)
    with qtbot.waitSignal(stats_pane.computed, timeout=60_000) as done:
        assert stats_pane.compute() is not None
    whole = load_corpus(folder)
    assert done.args[0].rows() == compute_stats(toks, [(f.name, f.text) for f in whole.files]).rows()
    assert stats_pane.message.text() == (
        f"3 files, {whole.n_chars:,} characters; special tokens: plain · "
        "the files were read from disk in pieces (the corpus is streamed)"
    )


def test_compare_and_the_byte_inspector_say_they_show_a_sample(qtbot, folder, monkeypatch):
    from tokexplorer.gui.main_window import MainWindow
    from tokexplorer.gui.panes.corpus_pane import file_list

    monkeypatch.setattr(file_list, "STREAM_BYTES", 1)  # the window's list streams every corpus
    window = MainWindow()
    window.show_error_dialogs = False
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.corpus_pane.corpus_loaded, timeout=20_000) as loaded:
        window.open_paths([str(folder)])
    corpus = loaded.args[0]
    assert corpus.streamed
    assert corpus.n_bytes == 6163
    note = "sample: first 4,660 characters of 6.0 KiB, 3 files"
    assert corpus.sample_note == note
    assert window.state.sample_text == "".join(corpus.sample)
    said = symbols.plain(f"ⓘ this text is a {note} (the corpus is streamed)")  # "(i)" where no font has ⓘ
    assert window.compare_pane.sample_note.text() == said and not window.compare_pane.sample_note.isHidden()
    inspector_notes = [w.text() for w in window.bytes_pane.findChildren(type(window.compare_pane.sample_note))]
    assert inspector_notes == [said]
    window.compare_pane.set_text("typed by the user")
    assert window.compare_pane.sample_note.isHidden() and window.state.sample_note == ""


def test_the_other_views_use_the_sample_and_say_so(qtbot, folder):
    from tokexplorer.core.backends import BPETokenizer
    from tokexplorer.gui.panes.granularity_pane import GranularityPane
    from tokexplorer.gui.panes.merge_diff_pane import MergeDiffPane

    state = AppState()
    pane = streaming_pane(qtbot, state)
    corpus, _ = open_streamed(qtbot, pane, folder)
    bpe, _ = train_bpe(list(corpus.sample), vocab_size=300, pattern="gpt2")
    state.set_bpe(bpe)
    state.set_tokenizers([BPETokenizer(bpe)])
    granularity = GranularityPane(state)
    qtbot.addWidget(granularity)
    granularity.show()
    qtbot.waitUntil(lambda: granularity.report is not None, timeout=60_000)
    assert granularity.report.chars == sum(map(len, corpus.sample)) == corpus.n_chars  # the sample is all of this one
    assert granularity.info.text().endswith(f"Measured on the corpus {corpus.sample_note} (the corpus is streamed).")
    diff = MergeDiffPane(state)
    qtbot.addWidget(diff)
    worker = diff.train_side("b")
    assert diff.labels["b"].text() == (
        f"training vocab {diff.vocab_spins['b'].value():,}, {diff.pattern_combos['b'].currentData()} pattern "
        f"on the corpus {corpus.sample_note} (the corpus is streamed)…"
    )
    assert worker.wait(60)
    qtbot.waitUntil(lambda: diff.models["b"] is not None, timeout=10_000)
    assert diff.models["b"].name == "trained here on en.txt and 2 more files (its sample)"


def test_the_startup_models_of_a_streamed_corpus_train_on_its_sample(qtbot, folder, monkeypatch):
    from tokexplorer.gui.main_window import MainWindow
    from tokexplorer.gui.panes.corpus_pane import file_list

    monkeypatch.setattr(file_list, "STREAM_BYTES", 1)
    window = MainWindow()
    window.show_error_dialogs = False
    qtbot.addWidget(window)
    with qtbot.waitSignal(window.startup.done, timeout=120_000):
        window.startup.run([str(folder)])
    pane = window.corpus_pane
    assert pane.corpus.streamed and window.state.bpe is not None
    note = pane.corpus.sample_note
    assert pane.sample_note == f"trained on the corpus {note} (the corpus is streamed)"
    # the pairs of the small sample run out before 512; each file its own text (joined: 373, the
    # "\r\n" ending en.txt would meet zh.txt's first character)
    assert train_bpe(list(pane.corpus.sample), vocab_size=512, pattern="gpt2")[0].vocab_size == 374
    assert pane.form.train_message.text().startswith(
        "At startup tokexplorer trained a byte-level BPE (vocab 374 of 512 asked: no pair was left to merge) and a "
        "SentencePiece BPE (215 pieces) "
        f"on the corpus {note} (streamed), so every tab has something to show."
    )
    other = folder.parent / "other.txt"  # another corpus: the message no longer says it was trained on this
    other.write_text(EN * 3, encoding="utf-8")
    with qtbot.waitSignal(pane.corpus_loaded, timeout=60_000):
        window.open_paths([str(other)])
    assert pane.form.train_message.text() == (
        "The default models shown were trained at startup on the corpus opened then, "
        "not on this one: choose your settings above and press Train."
    )


def test_a_streamed_corpus_in_two_encodings_trains_each_file_with_its_codec(qtbot, tmp_path):
    (tmp_path / "en.txt").write_text(EN * 10, encoding="utf-8")
    (tmp_path / "zh.txt").write_bytes((ZH * 20).encode("gbk"))
    pane = streaming_pane(qtbot)
    corpus, _ = open_streamed(qtbot, pane, tmp_path)
    assert [f.encoding for f in corpus.files] == ["utf-8", "gb18030"]
    with qtbot.waitSignal(pane.training_finished, timeout=60_000) as done:
        assert pane.start_training(algorithm="bpe", vocab_size=300) is not None
    bpe = done.args[0].model
    out = tmp_path / "cli.bpe"
    assert cli_main(["train", str(tmp_path / "en.txt"), str(tmp_path / "zh.txt"), "--vocab-size", "300",
                     "-o", str(out)]) == 0  # fmt: skip
    cli = load_bpe(out)
    assert [(m.left, m.right) for m in bpe.merges] == [(m.left, m.right) for m in cli.merges]
    assert any("分词".encode() in b for b in bpe.vocab.values())  # the GBK file's text, learned as UTF-8
    with qtbot.waitSignal(pane.training_finished, timeout=60_000) as done:  # SentencePiece takes the sample
        assert pane.start_training(algorithm="sp-bpe", auto_fit=True) is not None
    assert done.args[0].message.endswith(f"; trained on the corpus {corpus.sample_note} (the corpus is streamed)")


def test_sentencepiece_too_large_names_the_sample_it_trained_on(qtbot, folder, monkeypatch):
    """SentencePiece trains on a streamed corpus's sample: its "at most N pieces" is the sample's, and says so
    (in the Corpus tab's offer and in the Compare tab's training dialog)."""
    from tokexplorer.core.backends import VocabTooLargeError
    from tokexplorer.core.training import TrainingRequest, train_iter
    from tokexplorer.core.types import run_to_end
    from tokexplorer.gui.dialogs.sp_train import SPTrainDialog

    pane = streaming_pane(qtbot)
    corpus, _ = open_streamed(qtbot, pane, folder)
    with pytest.raises(VocabTooLargeError) as refused:  # the library's limit on the sample's texts
        run_to_end(train_iter(TrainingRequest(algorithm="sp-bpe", vocab_size=5000, texts=list(corpus.sample))))
    limit = refused.value.max_vocab_size
    questions: list[str] = []
    monkeypatch.setattr(pane, "_confirm", lambda title, text: questions.append(text) or False)
    with qtbot.waitSignal(pane.training_failed, timeout=60_000) as failed:
        pane.start_training(algorithm="sp-bpe", vocab_size=5000)
    said = (
        "vocab 5,000 is too large for what SentencePiece trained on, the corpus sample: first 4,660 characters "
        f"of 6.0 KiB, 3 files (the corpus is streamed): it can make at most {limit:,} pieces from it"
    )
    assert questions == [f"{said}. Train with {limit:,}?"] and failed.args[0] == said
    dialog = SPTrainDialog(list(corpus.sample), sample_note=corpus.sample_note)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == f"Train SentencePiece on the corpus {corpus.sample_note} (the corpus is streamed)"
    dialog.model_combo.setCurrentIndex(dialog.model_combo.findData("bpe"))
    dialog.vocab_spin.setValue(5000)
    assert dialog.start_training().wait(60)
    qtbot.waitUntil(lambda: dialog.fix_button.isVisibleTo(dialog), timeout=10_000)
    # the refusal first; the check's corpus facts under it once the check is in
    assert dialog.problems_label.text().split("\n")[0] == f"⚠ {said}"


def test_streamed_training_runs_in_a_child_that_cancel_ends(qtbot, tmp_path):
    """Training from the files runs in a child process (its large tables would hold the
    interpreter lock the window needs); Cancel ends it and the pane is idle again."""
    import multiprocessing
    import random

    d = tmp_path / "big"
    d.mkdir()
    rng = random.Random(0)  # made-up words: 20,000 merges take seconds, so Cancel comes first
    letters = "abcdefghijklmnopqrstuvwxyzéü你好世界中文字"
    for i in range(2):
        words = ("".join(rng.choice(letters) for _ in range(rng.randint(3, 9))) for _ in range(75_000))
        (d / f"part{i}.txt").write_text(" ".join(words), encoding="utf-8")
    pane = streaming_pane(qtbot)
    open_streamed(qtbot, pane, d)
    pane.form.vocab_spin.setValue(20_000)

    def training_children() -> list:
        return [p for p in multiprocessing.active_children() if p.name == "tokexplorer-training"]

    merging = []
    pane.training_progress.connect(lambda p: merging.append(p) if p.phase == "merging" else None)
    worker = pane.start_training(algorithm="bpe")
    qtbot.waitUntil(lambda: bool(merging), timeout=60_000)
    assert len(training_children()) == 1 and isinstance(merging[0].detail, list)
    with qtbot.waitSignal(pane.training_cancelled, timeout=20_000):
        pane.cancel_training()
    assert worker.wait(10) and training_children() == []
    assert pane.form.train_message.text() == "training cancelled" and not pane.is_training()
