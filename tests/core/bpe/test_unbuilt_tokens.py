"""Vocabularies with tokens that rank-order merging of their own bytes never builds.

Llama 3 has 678 such tokens: tiktoken emits one only when a whole chunk is that
token. The synthetic ranks here have one: ``abab`` (rank 258) where ``ba``
(256) merges before ``ab`` (257), so the bytes ``a b a b`` merge to
``a, ba, b`` and stop.
"""

from __future__ import annotations

import random

import pytest
import tiktoken

from tokexplorer.core.bpe import BPE

PAT = r"\S+|\s+"


def _ranks() -> dict[bytes, int]:
    ranks = {bytes([b]): b for b in range(256)}
    ranks.update({b"ba": 256, b"ab": 257, b"abab": 258})
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
