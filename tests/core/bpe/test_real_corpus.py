"""The paths that make training scale give the merges of the simple paths on real text:
counting files in worker tasks of several ranges, and merging words of any length.

The real text is the Python standard library's own source (English comments and
docstrings, code) and the built-in sample text."""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

import pytest

from fixtures.bpe_reference import reference_train
from tokexplorer.core.bpe import count_files, count_pool, run, train_bpe
from tokexplorer.core.bpe.counting import count_piece
from tokexplorer.core.io import sample_text
from tokexplorer.core.text import pattern_string


@pytest.fixture(scope="module")
def stdlib_sources() -> list[Path]:
    """40 modules of the standard library, 30-120 kB each (about 2.3 MB in all)."""
    lib = Path(os.__file__).parent
    files = sorted(p for p in lib.glob("*.py") if not p.name.startswith("_") and 30_000 < p.stat().st_size < 120_000)
    assert len(files) >= 40
    return files[:40]


def test_files_counted_in_tasks_of_several_ranges_equal_the_whole_text(stdlib_sources):
    batches = count_pool.task_batches([p.stat().st_size for p in stdlib_sources], 2)
    assert 2 < len(batches) < 40 and max(len(b) for b in batches) > 1  # several files per task
    want: Counter = Counter()
    for p in stdlib_sources:
        count_piece(p.read_text(encoding="utf-8"), pattern_string("cl100k"), [], into=want)
    for workers in (1, 2):
        counts, n_special = run(count_files(stdlib_sources, pattern="cl100k", workers=workers))
        assert counts == want and n_special == 0
    assert want[" def"] > 1000 and want[" the"] > 1000 and len(want) > 10_000


def test_merges_from_files_counted_by_two_workers_equal_merges_from_the_text(stdlib_sources):
    text = "".join(p.read_text(encoding="utf-8") for p in stdlib_sources)
    from_text, _ = train_bpe(text, vocab_size=2000, pattern="gpt2", workers=1)
    from_files, _ = train_bpe((), vocab_size=2000, pattern="gpt2", files=stdlib_sources, workers=2)
    assert from_files.merges == from_text.merges
    assert len(from_files.merges) == 2000 - 256


def test_long_word_merges_equal_the_textbook_trainer_on_real_text(stdlib_sources):
    """``--pattern none``: the whole text is one word of several kB."""
    text = sample_text() + stdlib_sources[0].read_text(encoding="utf-8")[:4000]
    assert len(text.encode("utf-8")) > 5000
    bpe, _ = train_bpe(text, vocab_size=256 + 150, pattern="none")
    want = reference_train(text, 150, "none")
    assert [(bpe.vocab[m.left], bpe.vocab[m.right], m.count) for m in bpe.merges] == want
    assert len(want) >= 150 and want[0][2] > 100  # a merge on every site of a pair seen 100+ times


def test_paragraph_words_merge_as_the_textbook_trainer(stdlib_sources):
    """``--pattern none`` on paragraphs: words of a few bytes to a few kB, many
    holding a pair several times, some at touching sites (``a b a b``)."""
    paragraphs = stdlib_sources[0].read_text(encoding="utf-8")[:30_000].split("\n\n")
    assert sum(len(x) > 500 for x in paragraphs) > 5
    bpe, _ = train_bpe(paragraphs, vocab_size=256 + 120, pattern="none", workers=1)
    want = reference_train(paragraphs, 120, "none")
    assert [(bpe.vocab[m.left], bpe.vocab[m.right], m.count) for m in bpe.merges] == want
