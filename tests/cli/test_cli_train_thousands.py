"""Training reports write counts of 1,000 and more with thousands separators, as the
progress lines do ("merging: 1,244/1,244 merges"): the summary line, the notes, the window's message."""

from __future__ import annotations

import itertools

import pytest

from fixtures.cli import run
from tokexplorer.cli.commands import train as train_command
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import load_bpe
from tokexplorer.core.training import TrainingRequest, train

SYLLABLES = "ka lo mi ne su ta ri po ve zu ba de fo gi hu ja ko le mo nu".split()
#: 8,000 distinct three-syllable words: enough pairs for thousands of merges.
TEXT = " ".join("".join(p) for p in itertools.product(SYLLABLES, repeat=3)) + "\n"


@pytest.fixture
def fixed_clock(monkeypatch):
    times = itertools.count(100.0, 2.5)
    monkeypatch.setattr(train_command, "_clock", lambda: next(times))


def test_the_train_line_and_its_progress_separate_thousands(capsys, tmp_path, fixed_clock):
    corpus, model = tmp_path / "words.txt", tmp_path / "k.bpe"
    corpus.write_text(TEXT, encoding="utf-8")
    code, out, err = run(capsys, "train", str(corpus), "--vocab-size", "1500", "-o", str(model))
    assert code == 0 and len(load_bpe(model).merges) == 1244
    assert out == f"learned 1,244 of 1,244 merges; vocab 1,500; 2.5 s; saved to {model}\n"
    assert err.splitlines()[-1] == "merging: 1,244/1,244 merges (100%)"


def test_fewer_merges_than_asked_for_say_both_counts_with_separators(capsys, tmp_path, fixed_clock):
    corpus, model = tmp_path / "words.txt", tmp_path / "k.bpe"
    corpus.write_text(TEXT, encoding="utf-8")
    n = len(train_bpe(TEXT, vocab_size=20_000)[0].merges)
    assert n == 8440
    code, out, err = run(capsys, "train", str(corpus), "--vocab-size", "20000", "-o", str(model))
    assert code == 0
    assert (
        "tokexplorer: note: learned 8,440 of 19,744 requested merges; vocab 8,696: no pair of tokens is left to merge\n"
        in err
    )
    assert out == f"learned 8,440 of 19,744 merges; vocab 8,696; 2.5 s; saved to {model}\n"


def test_the_window_s_summary_separates_thousands():
    outcome = train(TrainingRequest(algorithm="bpe", vocab_size=1500, texts=[TEXT]))
    assert outcome.summary == "learned 1,244 of 1,244 merges; vocab 1,500"
    assert outcome.notes == ("learned 1,244 of 1,244 merges; vocab 1,500",)
