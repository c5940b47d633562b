"""``inspect`` writes its tables block by block (tokexplorer.cli.commands.inspect_stream): the
same bytes as the tables of the whole analysis, and a reader gone stops it at the first block."""

from __future__ import annotations

import pytest

import tokexplorer.core.text as core_text
from tokexplorer.cli.commands.inspect import inspect_text
from tokexplorer.cli.commands.inspect_stream import write_inspect
from tokexplorer.core.text import analyze, analyze_bytes, clean_text
from tokexplorer.core.text.utf8_issues import find_utf8_issues

TEXTS = [
    "",
    "a",
    "\n",
    "a\u00e9\n" * 50,
    "x\x07\ty\n" * 30,
    "🏳️‍🌈\ne\u0301\r\n" * 10,
    "\ud800ab\n",
    "漢字\n" * 9 + "\U0010ffff",
]
RAW = [b"", b"\xff", b"a\xc0\xafb\n\xed\xa0\x80\n\xf0\x9f\n" * 40, b"abc\n\x00\x01"]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("block", [1, 5, 1 << 14])
def test_the_tables_of_a_text_in_blocks_are_those_of_the_whole(text, block):
    pieces: list[str] = []
    write_inspect(clean_text(text).text, None, pieces.append, block=block)
    assert "".join(pieces) == inspect_text(analyze(text))


@pytest.mark.parametrize("data", RAW)
@pytest.mark.parametrize("block", [1, 7, 1 << 14])
def test_the_tables_of_raw_bytes_in_blocks_are_those_of_the_whole(data, block):
    """An invalid byte's reason names offsets of the whole data (``but byte 23 is not ...``)."""
    pieces: list[str] = []
    text = data.decode("utf-8", "surrogateescape")
    write_inspect(text, data, pieces.append, issues=find_utf8_issues(data), block=block)
    assert "".join(pieces) == inspect_text(analyze_bytes(data))


def test_a_reader_gone_stops_it_at_the_first_block(monkeypatch):
    analysed: list[int] = []

    def counted(text):
        analysed.append(len(text))
        return analyze(text)

    def out(piece):
        if piece.startswith("   "):  # the first rows
            raise BrokenPipeError

    monkeypatch.setattr(core_text, "analyze", counted)
    with pytest.raises(BrokenPipeError):
        write_inspect("the cat sat on the mat\n" * 3_000, None, out, block=1_000)
    assert analysed == [1_012]  # one block of the 69,000 characters: 44 lines of 23
