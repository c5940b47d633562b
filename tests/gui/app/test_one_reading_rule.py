"""The window and the command line read a folder by one rule (issue 16.6): a GBK file
is read with the same guessed encoding and noted the same way, the default special
tokens are the same (none), so both learn the same merges from the same folder."""

from __future__ import annotations

import pytest

from tokexplorer.cli import main as cli_main
from tokexplorer.cli.terms import in_cli_terms
from tokexplorer.core.io import load_bpe
from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.state import AppState

ZH = "中文的文本，用来训练分词器。我们的分词器学习合并。中文分词很有意思。\n"
EN = "the tokenizer learns merges from the text; the merges are ranked.\n"
GBK_NOTE = (
    "zh.txt: not valid UTF-8 at byte 0 (invalid continuation byte); "
    "read as gb18030 (guessed, high confidence: 1,360 non-ASCII bytes to go by; choose another encoding if wrong)"
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
    assert f"tokexplorer: note: {folder}/{in_cli_terms(GBK_NOTE)}" in err.splitlines()  # by its path as given
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


def test_sentencepiece_dialog_and_train_offer_the_same_limit(qtbot, capfd, tmp_path, window):
    """The Compare tab's SentencePiece dialog and ``train --algorithm sp-bpe`` on one
    folder (a cp1252 file, CRLF, an empty and a binary file among the texts): one
    limit, SentencePiece's own, and the dialog says why beside its button."""
    from fixtures.sp import fixture_lines
    from tokexplorer.gui.dialogs.sp_train import SPTrainDialog
    from tokexplorer.gui.widgets.add_column_menu import AddColumnMenu

    d = tmp_path / "mixed"
    d.mkdir()
    lines = fixture_lines()
    (d / "a.txt").write_text("\n".join(lines[:20]) + "\n", encoding="utf-8")
    (d / "b.txt").write_bytes(("\r\n".join(lines[20:]) + "\r\n").encode("utf-8"))
    (d / "latin.txt").write_bytes("café crème brûlée, déjà vu\n".encode("cp1252"))
    (d / "empty.txt").write_bytes(b"")
    (d / "blob.bin").write_bytes(bytes(range(256)) * 4)
    code = cli_main(["train", "--algorithm", "sp-bpe", "--vocab-size", "5000", "-o", str(tmp_path / "m.model"),
                     str(d)])  # fmt: skip
    err = capfd.readouterr().err
    assert code == 1
    assert err.splitlines()[-1] == (
        "tokexplorer: error: vocab_size 5,000 is too large for this corpus; SentencePiece can make at most 275 "
        "pieces; ask for 275 or fewer"
    )
    window.open_paths([str(d)])
    def opened() -> bool:
        return window.state.corpus is not None and any(f.name == "latin.txt" for f in window.state.corpus.files)

    qtbot.waitUntil(opened, timeout=20_000)
    assert len(window.state.corpus.texts_in_memory()) == 3
    dlg: SPTrainDialog = window.findChildren(AddColumnMenu)[0].open_sp_train_dialog()
    qtbot.addWidget(dlg)
    qtbot.waitUntil(lambda: dlg.last_check is not None, timeout=10_000)
    dlg.vocab_spin.setValue(5000)
    worker = dlg.start_training()
    qtbot.waitUntil(lambda: worker.done and not dlg.fix_button.isHidden(), timeout=30_000)
    assert dlg.fix_button.text() == "Use vocab size 275"
    assert dlg.problems_label.text().split("\n")[0] == (
        "⚠ vocab 5,000 is too large for this corpus; SentencePiece can make at most 275 pieces"
    )
