"""The fire index keeps each chunk occurrence compactly (two integer arrays) with the same
pairs as before: (index of the chunk among the unique chunks, its byte offset), the chunks
being the split pattern's own (``regex`` findall)."""

from __future__ import annotations

import regex

from tokexplorer.core.analysis import ChunkStarts, fire_index
from tokexplorer.core.text import pattern_string


def test_chunk_starts_are_the_patterns_chunks_and_their_offsets(cat_hat_bpe):
    text = "the cat in the hat, 你们好 the hat"
    idx = fire_index(cat_hat_bpe, text)
    assert isinstance(idx.chunk_starts, ChunkStarts)
    chunks = regex.findall(pattern_string(cat_hat_bpe.pattern_name), text)
    unique = list(dict.fromkeys(chunks))
    offsets = [len("".join(chunks[:i]).encode()) for i in range(len(chunks))]
    assert list(idx.chunk_starts) == [(unique.index(c), off) for c, off in zip(chunks, offsets)]
    assert len(idx.chunk_starts) == len(chunks) and idx.chunks == unique
    assert idx.chunk_starts.chunk.itemsize == idx.chunk_starts.offset.itemsize == 8
