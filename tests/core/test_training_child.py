"""Training in a child process (tokexplorer.core.training_child): the same
merges, progress and errors as training here, and a child that always ends."""

from __future__ import annotations

import multiprocessing
import os
import signal

import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.errors import Cancelled, CorpusError, TrainingError
from tokexplorer.core.io.word_counts import count_word_counts, save_word_counts
from tokexplorer.core.training import TrainingRequest, train_iter
from tokexplorer.core.training_child import runs_in_child, train_iter_in_child
from tokexplorer.core.types import Progress, run_to_end

EOT = "<|endoftext|>"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> list[str]:
    """Three files of multilingual text (Latin, Chinese, emoji...), one with end-of-text markers."""
    folder = tmp_path_factory.mktemp("corpus")
    paths = []
    for i in range(3):
        text = multilingual_text(6000, seed=i)
        if i == 1:
            text = text.replace("\n\n", f"\n{EOT}\n")
        path = folder / f"part{i}.txt"
        path.write_text(text, encoding="utf-8")
        paths.append(str(path))
    return paths


def _drain(steps) -> tuple[list[Progress], object]:
    seen = []
    try:
        while True:
            seen.append(next(steps))
    except StopIteration as end:
        return seen, end.value


def _no_child_left() -> bool:
    return not [p for p in multiprocessing.active_children() if p.name == "tokexplorer-training"]


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k", "o200k"])
def test_the_child_learns_the_merges_training_here_learns(corpus, pattern):
    request = TrainingRequest(algorithm="bpe", vocab_size=900, files=corpus, pattern=pattern, special_tokens=[EOT])
    assert runs_in_child(request)
    here = run_to_end(train_iter(request))
    seen, there = _drain(train_iter_in_child(request))
    assert there.bpe.merges == here.bpe.merges and len(here.bpe.merges) == 900 - 256 - 1
    assert there.bpe.special_tokens == {EOT: 899} == here.bpe.special_tokens
    assert there.bpe.pattern_name == pattern and there.vocab_size == 900
    assert there.notes == here.notes and any("special-token spelling" in n for n in there.notes)
    assert there.report.learned_merges == here.report.learned_merges == 643
    sample = "低 lower 🙂 naïve " + EOT
    ids = there.tokenizer.encode(sample, special="special")
    assert ids == here.tokenizer.encode(sample, special="special") and ids[-1] == 899
    assert _no_child_left()
    phases = [p.phase for p in seen]
    assert phases[0] == "pre-tokenizing" and phases[-1] == "merging"
    merging = [p for p in seen if p.phase == "merging"]
    assert all(p.detail is merging[0].detail for p in merging)  # one list, growing
    assert merging[-1].detail == there.bpe.merges


def test_a_word_count_table_trains_in_the_child(corpus, tmp_path):
    table = run_to_end(count_word_counts(corpus, pattern="cl100k", special_tokens=[EOT], workers=1))
    path = tmp_path / "t.counts"
    save_word_counts(table, path)
    request = TrainingRequest(algorithm="bpe", vocab_size=700, word_counts=str(path))
    here = run_to_end(train_iter(request))
    _, there = _drain(train_iter_in_child(request))
    assert there.bpe.merges == here.bpe.merges and there.bpe.pattern_name == "cl100k"
    assert there.bpe.special_tokens == {EOT: 699}
    assert there.notes == here.notes and "trained from the word counts of 3 files" in there.notes[-1]


def test_texts_and_other_algorithms_train_here():
    request = TrainingRequest(algorithm="bpe", vocab_size=258, texts=["ab ab ab"])
    assert not runs_in_child(request)
    assert not runs_in_child(TrainingRequest(algorithm="sp-bpe", vocab_size=30, texts=["ab ab"]))
    _, outcome = _drain(train_iter_in_child(request))
    assert [m.merged for m in outcome.bpe.merges] == [b"ab", b" ab"]


def test_the_childs_errors_arrive_as_raised_there(tmp_path):
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9 cr\xe8me\n".encode("latin-1"))
    request = TrainingRequest(algorithm="bpe", vocab_size=300, files=[str(bad)])
    with pytest.raises(CorpusError) as here:
        run_to_end(train_iter(request))
    with pytest.raises(CorpusError) as there:
        _drain(train_iter_in_child(request))
    assert str(there.value) == str(here.value) and "latin1.txt" in str(there.value)
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    with pytest.raises(type(_raised(TrainingRequest(algorithm="bpe", vocab_size=300, files=[str(empty)])))) as exc:
        _drain(train_iter_in_child(TrainingRequest(algorithm="bpe", vocab_size=300, files=[str(empty)])))
    assert str(exc.value) == str(_raised(TrainingRequest(algorithm="bpe", vocab_size=300, files=[str(empty)])))
    assert _no_child_left()


def _raised(request: TrainingRequest) -> BaseException:
    try:
        run_to_end(train_iter(request))
    except BaseException as exc:  # noqa: BLE001 - the error training here raises
        return exc
    raise AssertionError("training did not fail")


def test_cancel_stops_the_child(corpus):
    request = TrainingRequest(algorithm="bpe", vocab_size=5000, files=corpus)
    asked = {"stop": False}
    steps = train_iter_in_child(request, cancel=lambda: asked["stop"])
    next(steps)
    asked["stop"] = True
    with pytest.raises(Cancelled, match="training cancelled"):
        _drain(steps)
    assert _no_child_left()


def test_closing_the_generator_ends_the_child(corpus):
    steps = train_iter_in_child(TrainingRequest(algorithm="bpe", vocab_size=5000, files=corpus))
    next(steps)
    assert not _no_child_left()
    steps.close()
    assert _no_child_left()


def test_a_child_that_dies_is_a_training_error(corpus):
    steps = train_iter_in_child(TrainingRequest(algorithm="bpe", vocab_size=5000, files=corpus))
    next(steps)
    (child,) = [p for p in multiprocessing.active_children() if p.name == "tokexplorer-training"]
    os.kill(child.pid, signal.SIGKILL)
    with pytest.raises(TrainingError, match=r"training stopped without a result \(exit code -9\)"):
        _drain(steps)
