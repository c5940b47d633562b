"""Reading a piece at a time (line ends, strict UTF-8, SentencePiece's lines) gives
exactly what one whole-text call gives, whatever falls on a piece boundary."""

from __future__ import annotations

import pytest

from tokexplorer.core.io import line_ends, utf8_checks
from tokexplorer.core.io.corpus import decode_file_bytes
from tokexplorer.core.io.line_ends import count_lines, lf_lines, line_breaks, line_ending_of
from tokexplorer.core.io.utf8_checks import decode_utf8, utf8_error

TEXTS = [
    "",
    "\n",
    "\r\n",
    "a\r",
    "x\r\ny\r\n\r\n",
    "one\ntwo\r\nthree\rfour\r\r\n\n",
    "你好\r\n世界\n🙂\r",
    "\r" * 5 + "\n" * 5,
]


@pytest.mark.parametrize("piece", [1, 2, 3, 7, 1 << 20])
@pytest.mark.parametrize("text", TEXTS)
def test_piecewise_line_ends_equal_whole_text_counts(monkeypatch, piece, text):
    monkeypatch.setattr(line_ends, "PIECE", piece)
    crlf = text.count("\r\n")
    assert line_breaks(text) == (text.count("\n") - crlf, crlf, text.count("\r") - crlf)
    assert list(lf_lines(text)) == text.split("\n")


def test_line_ends_values():
    assert line_breaks("one\ntwo\r\nthree\rfour\r\r\n\n") == (2, 2, 2)
    assert line_ending_of("a\r\nb\r\n") == "CRLF"
    assert line_ending_of("a\nb\r") == "mixed"
    assert count_lines("a\r\nb\rc\n") == 3
    assert count_lines("a\r\nb\rc") == 3


@pytest.mark.parametrize("piece", [1, 2, 3, 4, 5])
def test_piecewise_utf8_decoding_cuts_characters_safely(monkeypatch, piece):
    monkeypatch.setattr(utf8_checks, "PIECE", piece)
    text = "é你🙂a\n" * 3
    assert decode_utf8(text.encode("utf-8")) == (text, "")


@pytest.mark.parametrize("piece", [1, 3, 1 << 20])
def test_piecewise_utf8_error_names_the_first_bad_byte_of_the_file(monkeypatch, piece):
    monkeypatch.setattr(utf8_checks, "PIECE", piece)
    data = "ok 你好 ".encode() + b"\xff tail \xc3"
    assert decode_utf8(data) == (None, "not valid UTF-8 at byte 10 (invalid start byte)")
    assert utf8_error(data, skip=3) == "not valid UTF-8 at byte 13 (invalid start byte)"
    assert utf8_error("你".encode()[:2]) == "not valid UTF-8 at byte 0 (unexpected end of data)"


def test_a_file_read_by_pieces_equals_the_whole_read(monkeypatch):
    data = ("line one\r\nzweite Zeile\n第三行\r" * 50).encode("utf-8")
    whole = decode_file_bytes(data, path="a.txt")
    monkeypatch.setattr(utf8_checks, "PIECE", 7)
    monkeypatch.setattr(line_ends, "PIECE", 5)
    pieces = decode_file_bytes(data, path="a.txt")
    assert (pieces.text, pieces.n_lines, pieces.line_ending, pieces.notes) == (
        whole.text, whole.n_lines, whole.line_ending, whole.notes,
    )  # fmt: skip
    assert whole.n_lines == 150
    assert whole.notes == ("mixed line endings: 50 LF, 50 CRLF, 50 CR (kept as they are)",)
