"""The merge loop's state: a heap built in parts pops as one heapify builds it, and
freeing the tables in slices leaves nothing behind."""

from __future__ import annotations

from collections import Counter

from fixtures.multilingual import multilingual_text
from tokexplorer.core.bpe import merge_state, train_bpe
from tokexplorer.core.bpe.merge_state import MergeState


def test_the_textbook_example_merges_in_count_order():
    # "hug" x10, "pug" x5, "pun" x12, "bun" x4, "hugs" x5 (the Hugging Face course's corpus)
    state = MergeState()
    state.add_words(Counter({"hug": 10, "pug": 5, "pun": 12, "bun": 4, "hugs": 5}), None)
    state.rebuild_heap()
    merged = []
    for rank in range(3):
        record, _ = state.merge(state.pop_best(), rank)
        merged.append((record.merged, record.count))
    assert merged == [(b"ug", 20), (b"un", 16), (b"hug", 15)]


def test_a_heap_built_in_parts_gives_the_same_merges(monkeypatch):
    text = "\n".join(multilingual_text(3_000, seed=s) for s in range(6))
    whole = train_bpe(text, vocab_size=1200, pattern="cl100k")[0].merges
    monkeypatch.setattr(merge_state, "HEAPIFY_MAX", 3)  # every rebuild pushes nearly all its entries
    parts = train_bpe(text, vocab_size=1200, pattern="cl100k")[0].merges
    assert len(whole) == 1200 - 256 and parts == whole


def test_free_empties_every_table_and_keeps_the_vocabulary():
    state = MergeState()
    state.add_words(Counter({f"w{i}x": i + 2 for i in range(300)}), None)
    state.rebuild_heap()
    state.merge(state.pop_best(), 0)
    vocab = list(state.vocab)
    assert state.heap and state.words and state.pair_counts
    state.free()
    assert (state.heap, state.words, state.freqs, state.pair_counts, state.where) == ([], [], [], {}, {})
    assert state.vocab == vocab and len(vocab) == 257
