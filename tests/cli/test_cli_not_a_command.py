"""A lone bare word that is no file (``tokexplorer frobnicate``) is a file for the window, so
it is refused as one (exit 1), saying too that it is no command, and which the commands are."""

from __future__ import annotations

import pytest

from fixtures.cli import run

COMMANDS = "train, count, encode, decode, compare, inspect, stats, merges, export, granularity"


@pytest.mark.parametrize(
    ("word", "hint"),
    [
        ("frobnicate", f" (not a command either: the commands are {COMMANDS})"),
        ("encdoe", f" (not a command either: did you mean encode? the commands are {COMMANDS})"),
        ("notes.txt", ""),
        ("data/corpus", ""),
    ],
)
def test_a_word_that_is_no_file_and_no_command(capsys, tmp_path, monkeypatch, word, hint):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, word)
    assert (code, out, err) == (1, "", f"tokexplorer: error: no such file or folder: {word}{hint}\n")
