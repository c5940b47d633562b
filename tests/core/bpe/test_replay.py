"""Step-by-step replays of encoding and training."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokexplorer.core.bpe import (
    BPE,
    MAX_REPLAY_CHUNK_BYTES,
    merge_sites,
    replay_encode,
    replay_training,
    train_bpe,
)
from tokexplorer.core.errors import Cancelled, InputError


@pytest.fixture(scope="module")
def bpe(cat_hat_bpe) -> BPE:
    return cat_hat_bpe


def test_replay_of_a_fixed_chunk_visits_the_expected_pieces(bpe):
    steps = replay_encode(bpe.mergeable_ranks, " 你们好".encode())
    assert [s.pieces for s in steps] == [
        (b" ", b"\xe4", b"\xbd", b"\xa0", b"\xe4", b"\xbb", b"\xac", b"\xe5", b"\xa5", b"\xbd"),
        (b" \xe4", b"\xbd", b"\xa0", b"\xe4", b"\xbb", b"\xac", b"\xe5", b"\xa5", b"\xbd"),
        (b" \xe4\xbd", b"\xa0", b"\xe4", b"\xbb", b"\xac", b"\xe5", b"\xa5", b"\xbd"),
        (b" \xe4\xbd\xa0", b"\xe4", b"\xbb", b"\xac", b"\xe5", b"\xa5", b"\xbd"),
        (b" \xe4\xbd\xa0", b"\xe4", b"\xbb", b"\xac", b"\xe5", b"\xa5\xbd"),
        (b" \xe4\xbd\xa0", b"\xe4", b"\xbb", b"\xac", b"\xe5\xa5\xbd"),
        (b" \xe4\xbd\xa0\xe4", b"\xbb", b"\xac", b"\xe5\xa5\xbd"),
        (b" \xe4\xbd\xa0\xe4\xbb", b"\xac", b"\xe5\xa5\xbd"),
        (b" \xe4\xbd\xa0\xe4\xbb\xac", b"\xe5\xa5\xbd"),
        (" 你们好".encode(),),
    ]
    # candidates and choices at the step where two pairs compete
    assert steps[3].candidates == ((0, 275), (5, 263))
    assert steps[3].chosen == 5 and steps[3].chosen_rank == 263
    assert steps[3].merged == b"\xa5\xbd"
    assert steps[-1].chosen is None and steps[-1].candidates == ()
    assert steps[-1].chosen_rank is None and steps[-1].merged is None


def test_replay_single_byte_and_empty():
    ranks = {bytes([b]): b for b in range(256)}
    assert [s.pieces for s in replay_encode(ranks, b"x")] == [(b"x",)]
    assert [s.pieces for s in replay_encode(ranks, b"")] == [()]
    with pytest.raises(InputError):
        replay_encode(ranks, b"a" * (MAX_REPLAY_CHUNK_BYTES + 1))


def test_leftmost_wins_on_equal_ranks():
    ranks = {bytes([b]): b for b in range(256)} | {b"aa": 256}
    steps = replay_encode(ranks, b"aaa")
    assert [s.pieces for s in steps] == [(b"a", b"a", b"a"), (b"aa", b"a")]
    assert merge_sites(ranks, b"aaaa") == [(0, 1, 2), (2, 3, 4)]


@settings(max_examples=60)
@given(st.text(alphabet=st.sampled_from("the cat你好们吗👍 \n"), max_size=40))
def test_final_pieces_equal_encode_ordinary(bpe, text):
    pieces = []
    for chunk in bpe.chunks(text):
        pieces.extend(replay_encode(bpe.mergeable_ranks, chunk.encode("utf-8"))[-1].pieces)
    assert [bpe.mergeable_ranks[p] for p in pieces] == bpe.encode_ordinary(text)


def test_training_replay_the_cat_in_the_hat():
    steps = replay_training("the cat in the hat", n_merges=3, pattern="gpt2")
    assert [s.chosen for s in steps] == [(b"a", b"t", 2), (b"h", b"e", 2), (b"t", b"he", 2)]
    first = steps[0]
    assert first.rank == 0
    # every pair of the five chunks, most frequent first, ties by bytes
    assert first.pair_counts[:4] == ((b"a", b"t", 2), (b"h", b"e", 2), (b"t", b"h", 2), (b" ", b"c", 1))
    assert sum(c for _, _, c in first.pair_counts) == 13
    assert first.before[1] == (b" ", b"c", b"a", b"t")
    assert first.after[1] == (b" ", b"c", b"at")
    assert steps[2].after == ((b"the",), (b" ", b"c", b"at"), (b" ", b"i", b"n"), (b" ", b"the"), (b" ", b"h", b"at"))
    assert steps[2].merged == b"the"


def test_training_replay_matches_the_trainer():
    text = "the cat in the hat sat on the mat; aaaa bbbbb abab 你好你好 " * 5
    model, _ = train_bpe(text, vocab_size=256 + 40, pattern="gpt2")
    steps = replay_training(text, n_merges=40, pattern="gpt2")
    assert [s.merged for s in steps] == [m.merged for m in model.merges]
    assert [s.chosen[2] for s in steps] == [m.count for m in model.merges]


def test_training_replay_limits_and_cancel():
    assert replay_training("ab", n_merges=5, pattern="none")[-1].merged == b"ab"
    assert len(replay_training("ab", n_merges=5, pattern="none")) == 1
    assert replay_training("", n_merges=3) == []
    with pytest.raises(InputError):
        replay_training("x" * 20_001, n_merges=1)
    with pytest.raises(InputError):
        replay_training("x", n_merges=-1)
    with pytest.raises(InputError):
        replay_training("x", n_merges=1, pattern="nope")
    with pytest.raises(Cancelled):
        replay_training("abc", n_merges=2, cancel=lambda: True)
