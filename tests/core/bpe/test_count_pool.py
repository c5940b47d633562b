"""Worker tables cross from the counting processes as two flat buffers and add up
to the tables themselves, whatever their chunks hold."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import time
from collections import Counter

import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.bpe import count_files, run
from tokexplorer.core.bpe.count_pool import MERGE_STEP, merge_packed, pack_counts
from tokexplorer.core.bpe.counting import count_piece
from tokexplorer.core.text.pretokenize import pattern_string


def test_a_packed_table_is_two_buffers_and_adds_up_to_the_table():
    table, _ = count_piece(multilingual_text(50_000, seed=3), pattern_string("cl100k"), [])
    assert len(table) > 100
    packed = pack_counts(table)
    assert isinstance(packed, list) and len(packed) == 1 and [type(b) for b in packed[0]] == [bytes, bytes]
    assert len(packed[0][1]) == 8 * len(table)
    into_empty: Counter = Counter()
    merge_packed(into_empty, pickle.loads(pickle.dumps(packed)))
    assert into_empty == table and list(into_empty) == list(table)  # same counts, same order
    into_some = Counter({" the": 5, "never seen": 2})
    merge_packed(into_some, packed)
    assert into_some == table + Counter({" the": 5, "never seen": 2})


def test_more_keys_than_one_segment_add_up(monkeypatch):
    monkeypatch.setattr("tokexplorer.core.bpe.count_pool.MERGE_STEP", 7)
    table = Counter({f"w{i}": i + 1 for i in range(50)})
    packed = pack_counts(table)
    assert [len(k.split(b"\0")) for k, _ in packed] == [7] * 7 + [1]
    total = Counter({"w3": 100})
    merge_packed(total, packed)
    assert total["w3"] == 104 and total["w49"] == 50 and len(total) == 50
    assert MERGE_STEP == 20_000


@pytest.mark.parametrize("odd", ["a\0b", "\udcff", "\U0001f469\u200d\U0001f52c", "\r\n"])
def test_chunks_with_nul_surrogates_emoji_and_line_ends(odd):
    table = Counter({odd: 3, "x": 1})
    packed = pack_counts(table)
    if "\0" in odd:
        assert packed is table  # no separator left: sent as the table itself
    else:
        assert isinstance(packed, list)
    total: Counter = Counter({"x": 1})
    merge_packed(total, packed)
    assert total == Counter({odd: 3, "x": 2})
    assert pack_counts(Counter()) == Counter()


def test_files_counted_by_two_processes_equal_counting_here(tmp_path):
    files = []
    for seed in range(3):
        f = tmp_path / f"f{seed}.txt"
        nul = "\0 nul\n" if seed == 0 else " nul\n"  # one table sent as it is, two packed
        f.write_text(multilingual_text(60_000, seed=seed) + nul, encoding="utf-8", newline="")
        files.append(str(f))
    here = run(count_files(files, pattern="cl100k", workers=1))
    there = run(count_files(files, pattern="cl100k", workers=2))
    assert there == here and here[0][" nul"] == 3 and here[0]["\0"] == 1


def test_workers_of_the_window_run_nicer(monkeypatch):
    """In a process that imported Qt (the window), the counting workers start with a higher
    niceness, so that the window's threads get the cores first; elsewhere they do not."""
    import os
    import sys

    from tokexplorer.core.bpe import count_pool

    def nice_of_a_worker() -> int:
        with count_pool.worker_pool(1) as pool:
            return pool.submit(os.nice, 0).result()

    here = os.nice(0)
    qt = sys.modules.get("PySide6") or object()
    monkeypatch.delitem(sys.modules, "PySide6", raising=False)
    assert nice_of_a_worker() == here
    monkeypatch.setitem(sys.modules, "PySide6", qt)
    assert nice_of_a_worker() == min(19, here + count_pool.WINDOW_WORKER_NICE)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_ends_when_its_parent_is_killed(tmp_path):
    """exit_with_parent: a process whose parent dies ends within a second or so (a pool's
    workers would otherwise wait for tasks forever, holding their memory)."""
    pid_file = tmp_path / "grandchild.pid"
    grandchild = (
        "import os, time; from tokexplorer.core.bpe.count_pool import exit_with_parent; "
        f"exit_with_parent(0.05); open({str(pid_file)!r}, 'w').write(str(os.getpid())); time.sleep(60)"
    )
    spawner = f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {grandchild!r}]); time.sleep(60)"
    parent = subprocess.Popen([sys.executable, "-c", spawner])
    try:
        deadline = time.monotonic() + 30
        while not pid_file.exists() or not pid_file.read_text():
            assert time.monotonic() < deadline, "the grandchild did not start"
            time.sleep(0.05)
        pid = int(pid_file.read_text())
        assert os.path.exists(f"/proc/{pid}")
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while os.path.exists(f"/proc/{pid}") and "Z" not in _state(pid):
        assert time.monotonic() < deadline, "the orphaned worker kept running"
        time.sleep(0.05)


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"
