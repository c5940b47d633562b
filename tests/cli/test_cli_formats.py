"""Bare paths and --pattern on the command line."""

from __future__ import annotations

import json

import tiktoken

from tokexplorer.cli import main
from tokexplorer.core.backends import RANK_PATTERNS
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import write_tiktoken_file

TEXT = "The cats sat: 1234 naïve 東京 dogs"


def _ranks(tmp_path):
    bpe, _ = train_bpe("the cat sat on the mat, 1234 naïve " * 8, vocab_size=280, pattern="gpt2")
    path = tmp_path / "tokenizer.model"
    write_tiktoken_file(bpe.mergeable_ranks, path)
    return path, bpe


def test_unknown_rank_file_needs_pattern_on_every_command(tmp_path, capsys):
    path, _ = _ranks(tmp_path)
    out = tmp_path / "o.tiktoken"
    for argv in (
        ["encode", "--tokenizer", str(path), "--text", TEXT],
        ["compare", "--tokenizer", str(path), "--text", TEXT],
        ["inspect", "--tokenizer", str(path), "--text", TEXT],
        ["stats", "--tokenizer", str(path), str(path)],
        ["merges", str(path)],
        ["export", str(path), "--format", "tiktoken", "-o", str(out)],
    ):
        assert main(argv) == 1, argv
        err = capsys.readouterr().err
        assert err == (
            f"tokexplorer: error: {path} is a rank file that is not a published one, and rank files "
            "carry no split pattern: give its split pattern (--pattern NAME|REGEX; names: gpt2, cl100k, o200k, "
            "llama3, qwen, whisper)\n"
        ), argv


def test_pattern_by_name_and_regex(tmp_path, capsys):
    path, bpe = _ranks(tmp_path)
    for pattern in ("qwen", r"\p{L}+|\p{N}|\s+|[^\s\p{L}\p{N}]+"):
        assert main(["encode", "--tokenizer", str(path), "--pattern", pattern, "--text", TEXT, "--json"]) == 0
        got = json.loads(capsys.readouterr().out)["ids"]
        ref = tiktoken.Encoding("r", pat_str=RANK_PATTERNS.get(pattern, pattern), mergeable_ranks=bpe.mergeable_ranks,
                                special_tokens={})  # fmt: skip
        assert got == ref.encode_ordinary(TEXT)


def test_merges_and_export_of_a_bare_path(tmp_path, capsys):
    path, bpe = _ranks(tmp_path)
    assert main(["merges", str(path), "--pattern", "gpt2"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(bpe.merges)
    out = tmp_path / "o.tiktoken"
    assert main(["export", str(path), "--pattern", "cl100k", "--format", "tiktoken", "-o", str(out)]) == 0
    capsys.readouterr()
    side = json.loads((tmp_path / "o.tiktoken.json").read_text())
    assert side["pat_str"] == RANK_PATTERNS["cl100k"]
    # the export reads back by content, pattern from its sidecar
    assert main(["encode", "--tokenizer", str(out), "--text", TEXT]) == 0
    ids = [int(i) for i in capsys.readouterr().out.split()]
    ranks = bpe.mergeable_ranks
    ref = tiktoken.Encoding("r", pat_str=RANK_PATTERNS["cl100k"], mergeable_ranks=ranks, special_tokens={})
    assert ids == ref.encode_ordinary(TEXT)


def test_not_a_tokenizer_and_folder_notes(tmp_path, capsys):
    notes = tmp_path / "notes.md"
    notes.write_text("# my notes\n")
    assert main(["encode", "--tokenizer", str(notes), "--text", "x"]) == 1
    assert capsys.readouterr().err == (
        f"tokexplorer: error: {notes}: looks like a UTF-8 text file, not a tokenizer (first line '# my notes')\n"
    )
    path, _ = _ranks(tmp_path)
    assert main(["encode", "--tokenizer", str(tmp_path), "--pattern", "gpt2", "--text", "the cat"]) == 0
    cap = capsys.readouterr()
    assert f"tokexplorer: note: folder {tmp_path}: using tokenizer.model" in cap.err
