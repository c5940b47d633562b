"""Counting on a real Dask cluster (two worker processes) gives the counts of
counting here, and merges trained from them are the merges trained from the files."""

from __future__ import annotations

import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.bpe import count_files, run, train_bpe
from tokexplorer.core.bpe.counting import file_jobs
from tokexplorer.core.bpe.dask_counting import count_files_dask
from tokexplorer.core.errors import CorpusError, InputError
from tokexplorer.core.io import count_word_counts, sample_text, save_word_counts
from tokexplorer.core.training import TrainingRequest, train

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as c:
        yield c


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    """Two files, one large enough to be cut into several byte ranges."""
    folder = tmp_path_factory.mktemp("corpus")
    big = folder / "big.txt"
    big.write_text("\n".join(multilingual_text(60_000, seed=s) for s in range(8)) + "\n", encoding="utf-8")
    small = folder / "sample.txt"
    small.write_text(sample_text() + "<|endoftext|>\n" + sample_text(), encoding="utf-8")
    return [str(big), str(small)]


def test_the_big_file_is_counted_in_several_ranges(corpus):
    jobs, _sizes = file_jobs(corpus, pattern="cl100k")
    assert len([j for j in jobs if j.path == corpus[0]]) >= 3


def test_dask_counts_equal_local_counts(cluster, corpus):
    here = run(count_files(corpus, pattern="cl100k", special_tokens=["<|endoftext|>"], workers=1))
    there = run(count_files_dask(corpus, address=cluster.scheduler_address, pattern="cl100k",
                                 special_tokens=["<|endoftext|>"]))  # fmt: skip
    assert there == here
    assert there[1] == 1  # the one <|endoftext|> spelling, cut out


def test_merges_from_dask_counts_equal_merges_from_the_files(cluster, corpus, tmp_path):
    table = run(count_word_counts(corpus, pattern="gpt2", special_tokens=["<|endoftext|>"],
                                  dask=cluster.scheduler_address))  # fmt: skip
    path = tmp_path / "corpus.counts"
    save_word_counts(table, path)
    from_counts = train(TrainingRequest(algorithm="bpe", vocab_size=800, word_counts=str(path)))
    from_files, _ = train_bpe([], vocab_size=800, pattern="gpt2", special_tokens=["<|endoftext|>"], files=corpus)
    assert from_counts.bpe.merges == from_files.merges
    assert from_counts.bpe.special_tokens == from_files.special_tokens == {"<|endoftext|>": 799}
    assert from_counts.notes[-1].startswith("trained from the word counts of 2 files")


def test_a_bad_file_raises_on_the_worker_and_here(cluster, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok \xff\xfe not utf-8")
    with pytest.raises(CorpusError, match=r"bad.txt: not valid utf-8 at byte 3"):
        run(count_files_dask([str(bad)], address=cluster.scheduler_address))


def test_no_scheduler_is_one_line(corpus):
    with pytest.raises(InputError, match="^no Dask scheduler at tcp://127.0.0.1:9"):
        run(count_files_dask(corpus, address="tcp://127.0.0.1:9"))
