"""The window and the command line read a folder by one rule (issue 16.6): a GBK file
is read with the same guessed encoding and noted the same way, the default special
tokens are the same (none), so both learn the same merges from the same folder."""

from __future__ import annotations

import pytest

from tokexplorer.cli import main as cli_main
from tokexplorer.core.io import load_bpe
from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.state import AppState

ZH = "中文的文本，用来训练分词器。我们的分词器学习合并。中文分词很有意思。\n"
EN = "the tokenizer learns merges from the text; the merges are ranked.\n"
GBK_NOTE = (
    "zh.txt: not valid UTF-8 at byte 0 (invalid continuation byte); "
    "read as gb18030 (guessed; choose another encoding if wrong)"
)


def _chinese_tokens(bpe) -> set[str]:
    """The tokens of ``bpe`` that are whole runs of CJK characters."""
    out = set()
    for m in bpe.merges:
        try:
            text = m.merged.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if text and all("\u4e00" <= c <= "\u9fff" for c in text):
            out.add(text)
    return out


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "corpus"
    d.mkdir()
    (d / "zh.txt").write_bytes((ZH * 20).encode("gbk"))
    (d / "en.txt").write_text(EN * 20, encoding="utf-8")
    return d


def _window_merges(qtbot, folder, vocab: int):
    state = AppState()
    pane = CorpusPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.corpus_loaded, timeout=20_000) as loaded:
        pane.load_paths([str(folder)])
    corpus = loaded.args[0]
    zh = next(f for f in corpus.files if f.name == "zh.txt")
    assert zh.encoding == "gb18030" and zh.encoding_guessed and zh.notes[0].endswith(GBK_NOTE)
    assert pane.form.specials_edit.text() == ""
    pane.form.vocab_spin.setValue(vocab)
    with qtbot.waitSignal(pane.training_finished, timeout=60_000) as done:
        pane.start_training(algorithm="bpe")
    return done.args[0].model


def test_window_and_command_line_learn_the_same_merges(qtbot, capsys, folder, tmp_path):
    bpe = _window_merges(qtbot, folder, 400)
    out = tmp_path / "cli.bpe"
    assert cli_main(["train", str(folder), "--vocab-size", "400", "-o", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"tokexplorer: note: {folder}/{GBK_NOTE}" in err.splitlines()  # named by its path as given
    cli = load_bpe(out)
    assert len(bpe.merges) == len(cli.merges) == 103  # the pairs run out before 400
    assert [(m.left, m.right) for m in bpe.merges] == [(m.left, m.right) for m in cli.merges]
    assert bpe.special_tokens == cli.special_tokens == {}
    # the Chinese text was learned from: merges build whole characters of the GBK file
    assert _chinese_tokens(cli) >= {"中文", "分词器"}


def test_encoding_still_forces_a_codec(capsys, folder, tmp_path):
    out = tmp_path / "latin.bpe"
    code = cli_main(["train", str(folder / "zh.txt"), "--vocab-size", "300", "--encoding", "latin-1", "-o", str(out)])
    assert code == 0
    assert "read as gb18030" not in capsys.readouterr().err
    assert not _chinese_tokens(load_bpe(out))
