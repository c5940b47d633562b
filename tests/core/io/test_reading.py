"""``counting_files``: how ``count`` reads each file while streaming it gives the codec and
the notes of the in-memory reader (``read_text_file``), chunk boundaries included."""

from __future__ import annotations

import pytest

from tokexplorer.core.io import counting_files, damaged_message, read_text_file
from tokexplorer.core.io.folders import CHUNK_BYTES
from tokexplorer.core.types import run_to_end

CASES = {
    # a CRLF cut by the first chunk boundary, then LF and CR ends: mixed, counted once each
    "crlf_cut.txt": b"a" * (CHUNK_BYTES - 1) + b"\r\nb\nc\rd\r\n",
    # a BOM and a control character
    "bom.txt": b"\xef\xbb\xbfhello\x07 world\n",
    # a character cut by the chunk boundary
    "cut_char.txt": b"a" * (CHUNK_BYTES - 1) + "é".encode() + b"\n",
    # not UTF-8 past the first chunk: read whole by the in-memory reader (its guess from the head, ASCII, is lossy)
    "late_gbk.txt": b"ok\n" * (CHUNK_BYTES // 3 + 10) + "中文的文本".encode("gbk"),
    "gbk.txt": ("中文的文本，用来训练分词器。" * 200).encode("gbk"),
    "utf16.txt": "\ufeffhi there\n".encode("utf-16-le"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_streamed_reading_matches_the_in_memory_reader(tmp_path, name):
    path = tmp_path / name
    path.write_bytes(CASES[name])
    (got,), problems = run_to_end(counting_files([path]))
    want = read_text_file(path)
    assert problems == ([damaged_message(want)] if want.lossy else [])
    assert (got.path, got.encoding, got.notes, got.lossy, got.counted) == (
        path, want.encoding, want.notes, want.lossy, not want.lossy,
    )  # fmt: skip
    if want.lossy:
        return
    assert CASES[name].decode(got.encoding).removeprefix("\ufeff") == want.text


def test_known_notes(tmp_path):
    (tmp_path / "crlf_cut.txt").write_bytes(CASES["crlf_cut.txt"])
    (tmp_path / "gbk.txt").write_bytes(CASES["gbk.txt"])
    (tmp_path / "empty.txt").write_bytes(b"")
    (tmp_path / "x.bin").write_bytes(b"\xff\x00\x01\x02\x03")
    files, problems = run_to_end(counting_files([tmp_path], allow_damaged=False))
    assert [(f.path.name, f.encoding, f.notes, f.counted) for f in files] == [
        ("crlf_cut.txt", "utf-8", ("mixed line endings: 1 LF, 2 CRLF, 1 CR (kept as they are)",), True),
        ("empty.txt", "utf-8", ("empty file",), False),
        ("gbk.txt", "gb18030", (
            "gbk.txt: not valid UTF-8 at byte 0 (invalid continuation byte); read as gb18030 (guessed, high "
            "confidence: 5,600 non-ASCII bytes to go by; choose another encoding if wrong)",
        ), True),
    ]  # fmt: skip
    assert problems == [
        f"{tmp_path / 'x.bin'}: looks like a binary file (not UTF-8, NUL byte at offset 1); not loaded; to read it "
        "anyway, give its encoding (latin-1 reads any bytes) or open its raw bytes"
    ]
