"""Counting on a real Dask cluster (two worker processes) gives the counts of
counting here, and merges trained from them are the merges trained from the files."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter

import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.bpe import count_files, dask_cluster, dask_counting, run, train_bpe
from tokexplorer.core.bpe.counting import file_jobs
from tokexplorer.core.bpe.dask_counting import count_files_dask, plan_tasks
from tokexplorer.core.errors import BackendUnavailableError, CorpusError, InputError
from tokexplorer.core.io import count_word_counts, sample_text, save_word_counts
from tokexplorer.core.training import TrainingRequest, train

distributed = pytest.importorskip("distributed")
dask = pytest.importorskip("dask")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},  # its health page: 8787 may be taken
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


@pytest.mark.parametrize("on_workers", [False, True])
def test_dask_counts_equal_local_counts(cluster, corpus, monkeypatch, on_workers):
    """Tables added up here (a small cluster) or on the workers, two at a time (a large one)."""
    monkeypatch.setattr(dask_counting, "ADD_ON_WORKERS_FROM_THREADS", 1 if on_workers else 1000)
    here = run(count_files(corpus, pattern="cl100k", special_tokens=["<|endoftext|>"], workers=1))
    submitted = []
    real_submit, real_map = distributed.Client.submit, distributed.Client.map

    def submit(self, func, *args, **kwargs):
        submitted.append(func.__name__)
        return real_submit(self, func, *args, **kwargs)

    def map_(self, func, *iterables, **kwargs):
        futures = real_map(self, func, *iterables, **kwargs)
        submitted.extend([func.__name__] * len(futures))
        return futures

    monkeypatch.setattr(distributed.Client, "submit", submit)
    monkeypatch.setattr(distributed.Client, "map", map_)
    there = run(count_files_dask(corpus, address=cluster.scheduler_address, pattern="cl100k",
                                 special_tokens=["<|endoftext|>"]))  # fmt: skip
    assert there == here
    assert there[1] == 1  # the one <|endoftext|> spelling, cut out
    ran = Counter(submitted)
    assert ran["count_ranges_strict"] >= 4  # 2 threads: about 4 a thread, of the big file's ranges
    assert ran["add_reports"] == (ran["count_ranges_strict"] - 1 if on_workers else 0)


def test_two_reports_add_the_smaller_into_the_larger():
    a = dask_counting.RangesReport(Counter({"a": 1}), n_special=1, line_ends={"f": [1, 0, 0]})
    b = dask_counting.RangesReport(Counter({"a": 2, "b": 5}), line_ends={"f": [2, 1, 0]}, failed={("g", 0)})
    both = dask_counting.add_reports(a, b)
    assert both is b and both.counts == Counter({"a": 3, "b": 5}) and both.n_special == 1
    assert both.line_ends == {"f": [3, 1, 0]} and both.failed == {("g", 0)}


def test_ranges_grouped_into_few_tasks_count_the_same(cluster, corpus, monkeypatch):
    jobs, sizes = file_jobs(corpus, pattern="cl100k")
    assert len(jobs) == 5 and sum(sizes) == 4_094_073
    monkeypatch.setattr(dask_counting, "TASKS_PER_THREAD", 1)  # 2 threads: tasks of about 2 MB
    tasks = plan_tasks(sizes, threads=2)
    assert [len(t) for t in tasks] == [1, 1, 3]  # ranges of 1 MiB, the last two 0.9 MB and 4 kB
    here = run(count_files(corpus, pattern="cl100k", workers=1))
    assert run(count_files_dask(corpus, address=cluster.scheduler_address, pattern="cl100k")) == here


def test_tasks_cover_the_ranges_in_order_and_cap_their_size(monkeypatch):
    sizes = [3, 5, 1, 1, 1, 9, 2]
    tasks = plan_tasks(sizes, threads=1)  # 22 bytes: 5 a task
    assert tasks == [range(0, 1), range(1, 2), range(2, 5), range(5, 6), range(6, 7)]
    monkeypatch.setattr(dask_counting, "MAX_TASK_BYTES", 2)
    assert plan_tasks([1] * 16, threads=1) == [range(i, i + 2) for i in range(0, 16, 2)]  # not 4 a task
    assert plan_tasks([], threads=4) == []


@pytest.mark.parametrize(("start", "started"), [
    ("threads", (False, 1, 2)), ("fork", (True, 2, 1)), ("forkserver", (True, 2, 1)),
])  # fmt: skip
def test_local_cluster_counts_the_same(corpus, monkeypatch, start, started):
    """``local``: a worker of threads in this process, or worker processes forked from
    this one or from a fork server. Each counts what counting here counts."""
    seen = []

    def local_cluster(**kwargs):
        seen.append((kwargs["processes"], kwargs["n_workers"], kwargs["threads_per_worker"]))
        assert dask.config.get("distributed.worker.multiprocessing-method") == start or start == "threads"
        return real(**kwargs)

    real = distributed.LocalCluster
    monkeypatch.setattr(distributed, "LocalCluster", local_cluster)
    monkeypatch.setattr(dask_counting, "local_start", lambda total: start)
    monkeypatch.setattr(dask_cluster, "default_workers", lambda: 2)
    here = run(count_files(corpus, pattern="gpt2", workers=1))
    assert run(count_files_dask(corpus, address="local", pattern="gpt2")) == here
    assert seen == [started]


@pytest.mark.parametrize(("method", "total", "start"), [
    ("fork", 1 << 40, "fork"), ("fork", 10, "fork"), ("spawn", 10, "threads"),
    ("spawn", dask_cluster.LOCAL_THREADS_MAX_BYTES, "forkserver"),
])  # fmt: skip
def test_local_workers_are_forked_where_this_process_can_fork(monkeypatch, method, total, start):
    monkeypatch.setattr(dask_cluster, "start_method", lambda: method)
    assert dask_cluster.local_start(total) == start


def test_the_command_line_forks_its_local_workers(tmp_path):
    """A command line on Linux (one thread, no Qt) forks its workers: the decision taken
    in a fresh interpreter, as ``count --dask local`` takes it."""
    code = "from tokexplorer.core.bpe.dask_cluster import local_start; print(local_start(10))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == ("fork" if sys.platform == "linux" else "threads")


def test_a_scheduler_without_workers_is_one_line(corpus, monkeypatch):
    monkeypatch.setattr(dask_cluster, "WORKER_WAIT_S", 0.2)
    with distributed.LocalCluster(
        n_workers=0, processes=False, dashboard_address=None, scheduler_kwargs={"dashboard_address": ":0"}
    ) as empty:
        address = empty.scheduler_address
        with pytest.raises(InputError, match=f"^the Dask scheduler at {address} has no workers"):
            run(count_files_dask(corpus, address=address))


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


def test_train_dask_learns_the_merges_of_train_files(cluster, corpus, tmp_path, capsys):
    """``train FILES --dask ADDRESS``: counted on the cluster's two worker processes,
    trained in this process; the model file is byte for byte the one ``train FILES`` saves."""
    from fixtures.cli import run as cli
    from tokexplorer.core.io import load_bpe

    here, there = tmp_path / "here.bpe", tmp_path / "there.bpe"
    opts = ["--vocab-size", "800", "--special", "<|endoftext|>"]
    code, _, _ = cli(capsys, "train", *corpus, *opts, "-o", str(here))
    assert code == 0
    address = cluster.scheduler_address
    code, out, err = cli(capsys, "train", *corpus, *opts, "-o", str(there), "--dask", address)
    assert code == 0 and out.startswith("learned 543 of 543 merges; vocab 800")
    assert there.read_bytes() == here.read_bytes()
    bpe = load_bpe(there)
    assert bpe.special_tokens == {"<|endoftext|>": 799} and len(bpe.merges) == 543
    n_chunks = len(run(count_files(corpus, special_tokens=["<|endoftext|>"], workers=1))[0])
    size = sum(os.path.getsize(p) for p in corpus)
    where = f"on the Dask scheduler at {address}"
    assert f"note: counted {n_chunks:,} distinct chunks of 2 files ({size:,} bytes) {where}" in err
    assert f"note: trained from the word counts of 2 files ({size:,} bytes, {n_chunks:,} chunks)" in err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--word-counts", "t.counts"], "not a --word-counts table"),
        (["FILE", "--algorithm", "wordpiece"], "(--algorithm bpe), not wordpiece"),
        (["FILE", "--algorithm", "sp-bpe"], "(--algorithm bpe), not sp-bpe"),
    ],
)
def test_train_dask_trains_a_byte_level_bpe_from_files_only(corpus, capsys, tmp_path, args, message):
    from fixtures.cli import run as cli

    args = [corpus[1] if a == "FILE" else a for a in args]
    code, _, err = cli(capsys, "train", *args, "--vocab-size", "300", "-o", str(tmp_path / "m"), "--dask", "local")
    assert code == 2 and "error: --dask counts the text files given on a Dask cluster" in err and message in err


@pytest.mark.parametrize("on_workers", [False, True])
def test_a_bad_file_raises_on_the_worker_and_here(cluster, tmp_path, monkeypatch, on_workers):
    monkeypatch.setattr(dask_counting, "ADD_ON_WORKERS_FROM_THREADS", 1 if on_workers else 1000)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"ok \xff\xfe not utf-8")
    with pytest.raises(CorpusError, match=r"bad.txt: not valid UTF-8 at byte 3"):
        run(count_files_dask([str(bad)], address=cluster.scheduler_address))


def test_a_file_a_worker_cannot_read_and_a_task_that_fails_are_one_line(cluster, tmp_path, monkeypatch):
    gone = tmp_path / "gone.txt"
    gone.write_text("here but not on the workers\n", encoding="utf-8")
    jobs, sizes = file_jobs([str(gone)])
    gone.unlink()  # planned here, then missing where the worker reads it
    with distributed.Client(cluster.scheduler_address) as client:
        with pytest.raises(CorpusError, match=f"^a Dask worker cannot read {gone}: No such file or directory"):
            run(dask_counting._run_tasks(client, jobs, sizes, cancel=None, stop_at_error=True))
        monkeypatch.setattr(dask_counting, "count_ranges_reported", _fails_on_a_worker)
        with pytest.raises(InputError, match=r"^the Dask cluster could not run the counting \(ValueError: old worker"):
            run(dask_counting._run_tasks(client, jobs, sizes, cancel=None, stop_at_error=False))


def _fails_on_a_worker(jobs):
    raise ValueError("old worker")


def test_no_scheduler_is_one_line(corpus):
    with pytest.raises(InputError, match="^no Dask scheduler at tcp://127.0.0.1:9"):
        run(count_files_dask(corpus, address="tcp://127.0.0.1:9"))


_IMPORT = """
import gc, sys
{first}
from tokexplorer.core.bpe.dask_cluster import _distributed
buffer = _distributed().protocol.utils.host_array(3)
print("numpy" in sys.modules, type(buffer.obj).__name__, gc.get_freeze_count() > 10_000)
import numpy
print(numpy.zeros(2).tolist())
"""


@pytest.mark.parametrize(
    ("first", "seen"),
    [("", "False bytearray True"), ("import numpy", "True ndarray True")],
)
def test_the_client_imports_distributed_without_numpy_unless_numpy_is_there(first, seen):
    # A fresh interpreter, as the command line starts: NumPy is hidden from the import
    # (distributed allocates its receive buffers as bytearrays) and importable after
    # it; a process that holds NumPy keeps it. The import's objects are frozen.
    out = subprocess.run(
        [sys.executable, "-c", _IMPORT.format(first=first)], capture_output=True, text=True, check=True
    )
    assert out.stdout.splitlines() == [seen, "[0.0, 0.0]"]


def test_without_dask_the_message_names_the_extra(corpus, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # what an uninstalled package reads as
    with pytest.raises(BackendUnavailableError, match=r"^counting on Dask needs the dask extra: pip install"):
        run(count_files_dask(corpus, address="local"))
