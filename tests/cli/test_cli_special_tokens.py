"""``--special TOKEN ...`` of ``train`` and ``count``: several tokens after one flag, the
flag repeated, and FILEs after the tokens (they used to be taken as special tokens)."""

from __future__ import annotations

import pytest

from fixtures.cli import run
from tokexplorer.core.io import load_bpe, load_word_counts

TEXT = "low lower lowest <|a|> newer wider <|b|> low low\n"


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


@pytest.mark.parametrize("order", ["file first", "tokens then file", "repeated flag", "file in the middle"])
def test_train_reads_the_file_however_the_tokens_are_given(capsys, tmp_path, corpus, order):
    model = tmp_path / "m.bpe"
    before = {
        "file first": [str(corpus), "--special", "<|a|>", "<|b|>"],
        "tokens then file": ["--special", "<|a|>", "<|b|>", str(corpus)],
        "repeated flag": ["--special", "<|a|>", "--special", "<|b|>", str(corpus)],
        "file in the middle": ["--special", "<|a|>", str(corpus), "--special", "<|b|>"],
    }[order]
    code, out, err = run(capsys, "train", *before, "--vocab-size", "262", "-o", str(model))
    assert code == 0, err
    assert out.startswith("learned 4 of 4 merges; vocab 262;")
    bpe = load_bpe(model)
    assert bpe.special_tokens == {"<|a|>": 260, "<|b|>": 261}
    assert "note: 2 special-token spellings were cut out of the training text" in err


def test_count_takes_the_file_after_the_tokens(capsys, tmp_path, corpus):
    counts = tmp_path / "c.counts"
    code, out, err = run(capsys, "count", "--special", "<|a|>", "<|b|>", str(corpus), "-o", str(counts))
    assert code == 0, err
    assert out == f"counted 8 distinct chunks in 1 file ({len(TEXT)} bytes); saved to {counts}\n"
    table = load_word_counts(counts)
    assert (table.special_tokens, table.special_seen) == (("<|a|>", "<|b|>"), 2)


@pytest.mark.parametrize("command", ["count", "train"])
def test_no_file_left_says_what_special_took(capsys, tmp_path, command):
    missing = str(tmp_path / "nope.txt")
    extra = ["--vocab-size", "262"] if command == "train" else []
    code, out, err = run(capsys, command, "--special", "<|a|>", missing, *extra, "-o", str(tmp_path / "out"))
    assert (code, out) == (2, "")
    assert err.count("\n") == 1
    assert f"--special took '<|a|>', '{missing}' as special tokens (a FILE after it must name an existing" in err
    assert not (tmp_path / "out").exists()


def test_count_without_files_is_one_clear_line(capsys, tmp_path):
    code, _, err = run(capsys, "count", "-o", str(tmp_path / "c.counts"))
    assert code == 2
    assert err == (
        "tokexplorer count: error: give the text files or folders to count (see 'tokexplorer count --help')\n"
    )
