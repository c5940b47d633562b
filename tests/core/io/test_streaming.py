"""A streamed corpus: every file's record is the one reading it whole gives, minus the text."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.errors import Cancelled, CorpusError
from tokexplorer.core.io import (
    CorpusFile,
    file_text_pieces,
    load_corpus,
    read_text_file,
    stream_corpus,
    training_files,
)
from tokexplorer.core.types import Progress, run_to_end

#: Files of every kind the reading rule tells apart: name -> bytes.
FILES: dict[str, bytes] = {
    "crlf.txt": b"one\r\ntwo\r\n",
    "cr_split.txt": b"a\r" + b"\nb\r" * 5 + b"c",  # CRLFs straddling the 4-byte pieces
    "mixed.txt": b"a\nb\r\nc\rd",
    "bom.txt": b"\xef\xbb\xbfword one\nword two\n",
    "utf16.txt": "wide text\n".encode("utf-16"),
    "gbk.txt": "中文的文本，用来训练分词器。这是第二句话。".encode("gbk"),
    "broken.txt": ("caf\u00e9 " * 30).encode() + b"\xff tail\n",
    "control.txt": b"bell \x07 here\n",
    "empty.txt": b"",
    "emoji.txt": "smile 😀👍🏽 and 🇫🇷\n".encode(),
}


def _folder(tmp_path: Path) -> Path:
    for name, data in FILES.items():
        (tmp_path / name).write_bytes(data)
    return tmp_path


def _streamed(paths: list[Path] | Path, **kw: object) -> tuple[object, list[object]]:
    steps = stream_corpus(paths, stream_bytes=1, piece_bytes=4, **kw)
    yielded: list[object] = []
    try:
        while True:
            yielded.append(next(steps))
    except StopIteration as stop:
        return stop.value, yielded


@pytest.mark.parametrize("keep_bom", [False, True])
def test_streamed_records_equal_whole_reads(tmp_path: Path, keep_bom: bool) -> None:
    folder = _folder(tmp_path)
    corpus, yielded = _streamed(folder, keep_bom=keep_bom)
    whole = load_corpus(folder, keep_bom=keep_bom)
    assert corpus.errors == whole.errors == ()
    assert [f.name for f in corpus.files] == [f.name for f in whole.files]
    for f, w in zip(corpus.files, whole.files):
        assert f.streamed and f.text == ""
        assert f == dataclasses.replace(w, text="", streamed=True), f.name
        assert "".join(file_text_pieces(f, piece_bytes=3)) == w.text, f.name
    files = [y for y in yielded if isinstance(y, CorpusFile)]
    assert files == list(corpus.files)
    progress = [y for y in yielded if isinstance(y, Progress)]
    assert progress[-1].done == progress[-1].total == sum(len(b) for b in FILES.values())
    assert corpus.n_chars == whole.n_chars and corpus.n_lines == whole.n_lines
    # the same files are trained on, the same damaged one left out
    assert [f.name for f in training_files(corpus)[0]] == [f.name for f in training_files(whole)[0]]


def test_sample_is_the_first_characters_in_file_order(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("first file\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("second file\n", encoding="utf-8")
    corpus, _ = _streamed(tmp_path, sample_chars=15)
    assert corpus.sample == ("first file\n", "seco")  # each file its own text
    assert corpus.sample_note == "sample: first 15 characters of 23 B, 2 files"
    with pytest.raises(CorpusError, match="a.txt: streamed"):
        list(corpus.texts())


def test_below_the_threshold_the_corpus_is_held(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    corpus = run_to_end(stream_corpus(folder))
    assert not corpus.streamed and corpus.sample == () and corpus.sample_note == ""
    assert corpus == load_corpus(folder)


def test_binary_and_large_non_utf8_files_are_refused(tmp_path: Path) -> None:
    (tmp_path / "x.bin").write_bytes(b"\x00\xff" * 200)
    (tmp_path / "big.txt").write_bytes("中文的文本".encode("gbk") * 20)
    (tmp_path / "ok.txt").write_bytes(b"fine\n")
    steps = stream_corpus(tmp_path, stream_bytes=1, piece_bytes=8, whole_bytes=150)
    corpus = run_to_end(steps)
    assert [f.name for f in corpus.files] == ["ok.txt"]
    assert corpus.errors == (  # named by the path as given, as a file read in memory is
        f"{tmp_path / 'big.txt'}: not UTF-8 and too large (200 B) to read whole in a streamed corpus; "
        "convert it to UTF-8 to use it",
        f"{tmp_path}/{read_error(tmp_path / 'x.bin')}",
    )
    assert corpus.roots == (str(tmp_path),)


def read_error(p: Path) -> str:
    with pytest.raises(CorpusError) as info:
        read_text_file(p)
    return str(info.value)


def test_cancel_stops_between_pieces(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_bytes(b"word " * 40_000)  # 64 KiB read first, then 16 KiB pieces
    calls = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 3

    with pytest.raises(Cancelled):
        run_to_end(stream_corpus(tmp_path, stream_bytes=1, piece_bytes=1 << 14, cancel=cancel))
    assert len(calls) == 4


def test_large_multilingual_files_stream_as_they_read(tmp_path: Path) -> None:
    """Files of several streamed pieces (Chinese, emoji, Latin; LF, CRLF and a BOM) give
    what reading each whole gives; the sample is the first 200,000 characters."""
    texts = {
        "mixed.txt": "\n".join(multilingual_text(400, seed=s) for s in range(600)).encode("utf-8"),
        "crlf.txt": "\r\n".join(multilingual_text(300, seed=s) for s in range(300)).encode("utf-8"),
        "bom.txt": b"\xef\xbb\xbf" + "\n".join(multilingual_text(200, seed=s) for s in range(200)).encode("utf-8"),
    }
    paths = []
    for name, data in texts.items():
        (tmp_path / name).write_bytes(data)
        paths.append(tmp_path / name)
    assert len(texts["mixed.txt"]) > 1_000_000  # several pieces of the stream
    corpus, _ = _streamed(paths)
    for f in corpus.files:
        w = read_text_file(f.path)
        assert f == dataclasses.replace(w, text="", streamed=True)
    assert corpus.sample == (read_text_file(paths[0]).text[:200_000],)


def test_a_spawned_process_reads_the_same_and_stops_on_cancel(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    here = run_to_end(stream_corpus(folder, stream_bytes=1, piece_bytes=4))
    there = run_to_end(stream_corpus(folder, stream_bytes=1, piece_bytes=4, in_child=True))
    assert there == here and there.streamed
    calls: list[int] = []

    def cancel() -> bool:
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(Cancelled):
        run_to_end(stream_corpus(folder, stream_bytes=1, piece_bytes=4, in_child=True, cancel=cancel))
    assert len(calls) == 3


@pytest.mark.skipif(not hasattr(os, "getpriority"), reason="no process priorities here")
def test_the_spawned_scan_runs_nicer_than_the_window(tmp_path: Path) -> None:
    # the window's own threads come first for the cores: the scanning process runs at
    # WINDOW_WORKER_NICE above the process that started it, as its training processes do
    import multiprocessing

    from tokexplorer.core.bpe.count_pool import WINDOW_WORKER_NICE

    folder = _folder(tmp_path)
    seen: list[int] = []

    def cancel() -> bool:  # polled while the child streams: read its niceness, then stop
        for child in multiprocessing.active_children():
            seen.append(os.getpriority(os.PRIO_PROCESS, child.pid) - os.getpriority(os.PRIO_PROCESS, 0))
        return bool(seen) and seen[-1] == WINDOW_WORKER_NICE  # (0 while it starts, before it turns nicer)

    with pytest.raises(Cancelled):  # stopped once the child was seen nicer, before the end of the files
        run_to_end(stream_corpus(folder, stream_bytes=1, piece_bytes=4, in_child=True, cancel=cancel))
    assert seen[-1] == WINDOW_WORKER_NICE and set(seen) <= {0, WINDOW_WORKER_NICE}
