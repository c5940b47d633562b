"""A SentencePiece model's statistics of a large corpus are encoded in worker processes
(the window's event loop stalled up to 1.37 s while threads of its own process held the
interpreter lock in SentencePiece's list calls): the counts are those the threads give
and those of the library's own ids.

Values: sentencepiece 0.2.3, a unigram model trained on the fixture lines.
"""

from __future__ import annotations

import pytest

from fixtures.multilingual import multilingual_text
from fixtures.sp import fixture_lines, train_proto
from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.analysis import stats_processes as sproc
from tokexplorer.core.analysis.stats_sentencepiece import piece_parts
from tokexplorer.core.backends import SentencePieceTokenizer

FILES = [
    ("a.txt", "\n".join(fixture_lines()[:150]) + "\n  lead  and   trail  \n" + multilingual_text(900, seed=3)),
    ("b.txt", multilingual_text(700, seed=11) + "\nthe <s> cat\n"),
]


@pytest.fixture(scope="module")
def unigram():
    proto, _log = train_proto(model_type="unigram", vocab_size=60)
    return SentencePieceTokenizer(proto, name="UNI60")


def test_counts_from_processes_are_those_of_threads_and_of_the_library(unigram, monkeypatch):
    made = []

    class Counted(sproc.ProcessParts):
        def __init__(self, *args, **kwargs):
            made.append(self)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(sproc, "ProcessParts", Counted)
    threads = compute_stats([unigram], FILES, block_chars=300).rows()
    assert made == []  # (a small corpus stays on threads)
    monkeypatch.setattr(sproc, "PROCESS_MIN_CHARS", 1)
    processes = compute_stats([unigram], FILES, block_chars=300).rows()
    assert len(made) == 1 and made[0]._pool is None  # (its workers stopped when the blocks were done)
    assert processes == threads
    rows = {r["group"]: r for r in processes}
    for name, text in FILES:
        assert rows[name]["tokens"] == len(unigram.processor.encode(text, out_type=int))
    # (the lines that fail hold unknown pieces: the model's alphabet is 33 characters)
    assert (rows["all"]["tokens"], rows["all"]["roundtrip_failed_lines"]) == (6401, 479)


def test_a_refusal_in_a_worker_is_the_tokenizers_own_error(unigram, monkeypatch):
    monkeypatch.setattr(sproc, "PROCESS_MIN_CHARS", 1)
    (ts,) = compute_stats([unigram], FILES, special="raise", block_chars=300).tokenizers
    assert ts.error is not None and "control piece '<s>'" in ts.error


def test_a_broken_pool_leaves_the_blocks_to_this_process(unigram, monkeypatch):
    """A worker that cannot run a task (here: none can load the model) costs no block."""
    monkeypatch.setattr(sproc, "PROCESS_MIN_CHARS", 1)
    want = compute_stats([unigram], FILES, block_chars=300).rows()
    monkeypatch.setattr(sproc, "_load_model", _no_model)
    assert compute_stats([unigram], FILES, block_chars=300).rows() == want


def _no_model(_proto: bytes) -> None:
    raise RuntimeError("no model here")


def test_the_parts_judge_a_line_the_normalizer_changed_by_the_rule(unigram):
    """A line whose white space the normalizer collapses round-trips by the rule: the
    worker judges it, so the counting judges again only the lines that fail."""
    _cols, kept = piece_parts(unigram, "the  cat  is ok.\nthe cat\n", "plain")
    assert kept == [True, True]
    assert unigram.round_trips(["the  cat  is ok.", "the cat"]) == [False, True]
