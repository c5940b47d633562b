"""``count --dask`` checks only each file's start here; the workers check the rest and report
what does not decode, and the table and every note are those of counting here.

The cluster is a real ``distributed.LocalCluster`` of two worker processes."""

from __future__ import annotations

import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.bpe.counting import count_file_range, count_file_ranges, file_jobs, undecodable_message
from tokexplorer.core.bpe.dask_counting import count_ranges_reported
from tokexplorer.core.errors import CorpusError
from tokexplorer.core.io import HEAD_BYTES, count_checked, count_word_counts, counting_files
from tokexplorer.core.types import run_to_end

distributed = pytest.importorskip("distributed")

LATIN = ("le café crème est très apprécié à côté de la fenêtre\n" * 4000).encode("latin-1")


def _text(seed: int) -> bytes:
    """About 3 MB of UTF-8 text (with LF, CRLF and CR line ends): several counting ranges, far
    more than the start checked here."""
    return ("\n".join(multilingual_text(60_000, seed=seed + s) for s in range(6)) + "\n").encode("utf-8")


ASCII = b"plain english words in a line\n" * 100_000


def _after(data: bytes, at: int, insert: bytes) -> bytes:
    """``insert`` at the first line start after byte ``at`` (so it is not a range's cut point)."""
    cut = data.index(b"\n", at) + 1
    return data[:cut] + insert + data[cut:]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("checked")
    files = {
        "ok.txt": _text(0),
        "latin.txt": _after(ASCII, 1_500_000, LATIN),  # not UTF-8 past its start: read with a guess
        "lf.txt": ASCII,  # one kind of line end: no note
        "damaged.txt": _after(_text(30), 1_500_000, b"x \xff\xfe y\n"),  # UTF-8 with bad bytes: damaged
        "small.txt": b"petit texte\r\navec CRLF\n",  # whole within the start: checked here
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    return [folder / name for name in files]


def test_the_start_alone_is_checked_here(corpus):
    full, _ = run_to_end(counting_files(corpus))
    start, _ = run_to_end(counting_files(corpus, head_only=True))
    by_name = {f.path.name: f for f in start}
    assert {f.path.name for f in start if not f.checked} == {"ok.txt", "latin.txt", "lf.txt", "damaged.txt"}
    # what lies past the start is not known here: no guess, no line endings, no damage
    assert [(f.encoding, f.lossy, f.notes) for f in start if not f.checked] == [("utf-8", False, ())] * 4
    full_by_name = {f.path.name: f for f in full}
    assert full_by_name["latin.txt"].encoding == "cp1252" and full_by_name["damaged.txt"].lossy
    assert full_by_name["ok.txt"].notes[-1].startswith("mixed line endings: ") and full_by_name["lf.txt"].notes == ()
    assert by_name["small.txt"] == full_by_name["small.txt"]  # a file within the start: checked whole
    assert HEAD_BYTES == 4 * 65536 < min(p.stat().st_size for p in corpus[:4])


def test_a_worker_reports_what_does_not_decode_and_counts_the_rest(corpus):
    path = str(corpus[3])
    data = corpus[3].read_bytes()
    jobs, _ = file_jobs([path], pattern="cl100k")
    bad = data.index(b"\xff")
    hit = [j for j in jobs if j.start <= bad < j.end]
    assert len(jobs) >= 3 and len(hit) == 1
    report = count_ranges_reported(jobs)
    assert report.failed == {(path, hit[0].start)}
    assert report.undecodable == {path: (bad, "invalid start byte", "utf-8")}
    with pytest.raises(CorpusError) as caught:
        count_file_range(hit[0])
    assert report.error(path) == str(caught.value) == undecodable_message(path, "utf-8", bad, "invalid start byte")
    rest = [j for j in jobs if j is not hit[0]]
    assert (report.counts, report.n_special) == count_file_ranges(rest)
    text = b"".join(data[j.start : j.end] for j in rest).decode("utf-8")
    crlf = text.count("\r\n")
    assert report.line_ends == {path: [text.count("\n") - crlf, crlf, text.count("\r") - crlf]}


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"},
    ) as c:  # fmt: skip
        yield c


@pytest.mark.parametrize("allow_damaged", [False, True])
def test_counts_and_notes_are_those_of_counting_here(cluster, corpus, allow_damaged):
    files, problems = run_to_end(counting_files(corpus, allow_damaged=allow_damaged))
    usable = [f for f in files if f.counted]
    here = run_to_end(count_word_counts(
        [str(f.path) for f in usable], pattern="cl100k", encoding=[f.encoding for f in usable],
        errors="replace" if allow_damaged else "strict", workers=1,
    ))  # fmt: skip
    start, start_problems = run_to_end(counting_files(corpus, allow_damaged=allow_damaged, head_only=True))
    assert start_problems == []  # nothing found wrong here: the workers find it
    there = run_to_end(count_checked(start, address=cluster.scheduler_address, pattern="cl100k",
                                     allow_damaged=allow_damaged))  # fmt: skip
    assert there.table.counts == here.counts and there.table.special_seen == here.special_seen
    assert (there.table.files, there.table.bytes) == (here.files, here.bytes) == (len(usable), here.bytes)
    # every file's codec, notes and fate, and the line of the damaged one, as counting here says them
    assert [(f.path, f.encoding, f.notes, f.lossy, f.counted) for f in there.files] == [
        (f.path, f.encoding, f.notes, f.lossy, f.counted) for f in files
    ]
    assert there.problems == problems
    assert len(problems) == (0 if allow_damaged else 1)
    latin = next(f for f in there.files if f.path.name == "latin.txt")
    assert latin.notes[0].startswith("latin.txt: not valid UTF-8 at byte ") and latin.encoding == "cp1252"
