"""Files whose encoding changes deep inside (UTF-8 for the first MiB, then GBK or
Latin-1): the one reading rule says so in a note and reads them alike in memory
(the window's small corpora, stats, train), streamed (the window's large corpora)
and for ``count``; no text is changed silently."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokexplorer.core.io import counting_files, read_corpus, stream_corpus
from tokexplorer.core.types import run_to_end

MIB = 1 << 20
ZH = "中文的文本，用来训练分词器。"  # 14 characters


def _readings(path: Path):
    """The file as read in memory, streamed, and for count."""
    memory = run_to_end(read_corpus([path])).files[0]
    streamed = run_to_end(stream_corpus([path], stream_bytes=1)).files[0]
    counted = run_to_end(counting_files([path]))
    return memory, streamed, counted


def test_utf8_then_gbk_is_read_as_utf8_with_the_rest_flagged(tmp_path):
    head = (ZH + "\n").encode("utf-8") * (MIB // 43 + 1)  # 15 characters = 43 bytes a line, past 1 MiB
    tail = (ZH + "\n").encode("gbk") * 2000  # 29 bytes a line, 20 of them not UTF-8 (more than a few)
    path = tmp_path / "mixed.txt"
    path.write_bytes(head + tail)
    memory, streamed, (counted, problems) = _readings(path)
    assert memory.encoding == streamed.encoding == counted[0].encoding == "utf-8"
    assert memory.lossy and streamed.lossy and counted[0].lossy and not counted[0].counted
    note = (
        f"mixed.txt: not valid UTF-8 at byte {len(head)} (invalid continuation byte), though UTF-8 before "
        "it: the file mixes encodings; read as UTF-8 anyway (40,000 undecodable bytes; shown as U+FFFD). "
        "Convert the rest to UTF-8"
    )
    assert memory.notes == streamed.notes == counted[0].notes == (note,)
    assert memory.text.startswith((ZH + "\n") * (MIB // 43 + 1)) and memory.text.count("\ufffd") > 0
    assert problems == [
        f"{path}: reading it as UTF-8 replaced undecodable bytes with U+FFFD; not training on damaged text "
        "(fix the file, choose its real encoding, or allow damaged text to train on it as it reads)"
    ]


@pytest.mark.parametrize(
    ("tail", "codec", "at", "how_sure"),
    [
        ((ZH + "\n").encode("gbk") * 100, "gb18030", 0, "high confidence: 2,800 non-ASCII bytes to go by"),
        ("café naïve señor, à la française\n".encode("latin-1") * 50, "cp1252", 3,
         "medium confidence: 250 non-ASCII bytes to go by, and cp1250, cp1256, iso8859-2 read it as well"),
    ],
)  # fmt: skip
def test_ascii_then_another_encoding_is_guessed_from_its_non_ascii_part(tmp_path, tail, codec, at, how_sure):
    """A long ASCII start reads alike in every candidate: the guess looks at the non-ASCII
    part (after 1 MiB here), so the whole file decodes exactly. One French line written 50
    times holds five letters past ASCII: cp1252 (``naïve señor``) is likeliest, not sure
    (cp1250 reads ``naďve seńor``)."""
    head = b"plain English text, line after line.\n" * (MIB // 37 + 1)
    path = tmp_path / "late.txt"
    path.write_bytes(head + tail)
    memory, streamed, (counted, problems) = _readings(path)
    assert memory.text == (head + tail).decode(codec) and not memory.lossy
    assert memory.encoding == streamed.encoding == counted[0].encoding == codec
    assert memory.notes == streamed.notes == counted[0].notes == (
        f"late.txt: not valid UTF-8 at byte {len(head) + at} (invalid continuation byte); read as {codec} "
        f"(guessed, {how_sure}; choose another encoding if wrong)",
    )
    assert counted[0].counted and problems == []
