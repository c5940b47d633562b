"""``--tokenizer hf:PATH`` in encode, compare, inspect and stats, and the
``--[no-]add-special-tokens`` switch."""

from __future__ import annotations

import csv
import io
import json

import pytest
from tokenizers import Tokenizer

from fixtures import hf
from tokexplorer.cli import main

TEXT = "HÉLLO Wörld! 你"


@pytest.fixture()
def files(tmp_path, monkeypatch):
    """bert/tokenizer.json (WordPiece), gpt/tokenizer.json (byte-level BPE) and t.txt, in a working folder."""
    hf.save(hf.wordpiece(), tmp_path / "bert")
    hf.save(hf.byte_level_bpe(), tmp_path / "gpt")
    (tmp_path / "t.txt").write_text("hello world\ncafé 你\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


def test_encode_ids_and_notes(files, capsys):
    out, err = _run(capsys, "encode", "--tokenizer", "hf:bert/tokenizer.json", "--text", TEXT)
    assert out == "2 5 6 11 13 3\n"
    assert "the post-processor added '[CLS]', '[SEP]' (add special tokens: on)" in err
    off = "--no-add-special-tokens"
    out, err = _run(capsys, "encode", "--tokenizer", "hf:bert/tokenizer.json", "--text", TEXT, off)
    assert out == "5 6 11 13\n"
    assert "add special tokens: off (the post-processor's tokens are left out)" in err


def test_encode_json_matches_the_library(files, capsys):
    out, _ = _run(capsys, "encode", "--tokenizer", "hf:gpt/tokenizer.json", "--text", TEXT, "--json")
    data = json.loads(out)
    lib = Tokenizer.from_file(str(files / "gpt" / "tokenizer.json"))
    assert data["ids"] == lib.encode(TEXT).ids
    assert data["tokenizer"] == "tokenizer.json (Hugging Face BPE)"
    assert data["tokens"][0] == {
        "id": 1, "bytes": "", "byte_start": 0, "byte_end": 0, "char_start": 0, "char_end": 0,
        "partial": False, "special": True, "piece": "<s>",
    }  # fmt: skip
    assert bytes.fromhex("".join(t["bytes"] for t in data["tokens"])) == TEXT.encode()


def test_compare_rows_name_the_model_type(files, capsys):
    out, _ = _run(capsys, "compare", "--tokenizer", "hf:bert/tokenizer.json", "--tokenizer", "hf:gpt/tokenizer.json",
                  "--text", TEXT, "--json")  # fmt: skip
    rows = json.loads(out)
    assert [(r["tokenizer"], len(r["ids"])) for r in rows] == [
        ("tokenizer.json (Hugging Face WordPiece)", 6),
        ("tokenizer.json (Hugging Face BPE)", len(hf.byte_level_bpe().encode(TEXT).ids)),
    ]


def test_inspect_prints_and_writes_the_stages(files, capsys):
    out, _ = _run(capsys, "inspect", "--tokenizer", "hf:bert/tokenizer.json", "--text", TEXT)
    assert "pipeline stages\n  normalizer (BertNormalizer): 'hello world!  你 '\n" in out
    assert "  pre-tokens (BertPreTokenizer): hello | world | ! | 你\n" in out
    assert "  model tokens (WordPiece): hello | world | ! | 你\n" in out
    assert "  post-processor (BertProcessing, add special tokens on): [CLS] at 0, [SEP] at 5\n" in out
    out, _ = _run(capsys, "inspect", "--tokenizer", "hf:bert/tokenizer.json", "--text", TEXT, "--json")
    track = json.loads(out)["tokenizers"][0]
    assert track["family"] == "huggingface" and track["ids"] == [2, 5, 6, 11, 13, 3]
    st = track["stages"]
    assert st["normalized"] == "hello world!  你 " and st["model"] == "WordPiece"
    assert [(p["text"], p["char_start"], p["char_end"]) for p in st["pre_tokens"]] == [
        ("hello", 0, 5), ("world", 6, 11), ("!", 11, 12), ("你", 13, 14),
    ]  # fmt: skip
    assert [(p["index"], p["piece"]) for p in st["post_processor_tokens"]] == [(0, "[CLS]"), (5, "[SEP]")]
    assert [t["spelling"] for t in track["tokens"]] == ["[CLS]", "hello", "world", "!", "你", "[SEP]"]


def test_stats_rows_unknown_and_round_trip(files, capsys):
    out, _ = _run(capsys, "stats", "--tokenizer", "hf:bert/tokenizer.json", "--tokenizer", "hf:gpt/tokenizer.json",
                  "t.txt", "--csv")  # fmt: skip
    rows = {(r["tokenizer"], r["group"]): r for r in csv.DictReader(io.StringIO(out))}
    bert = rows[("tokenizer.json (Hugging Face WordPiece)", "all")]
    gpt = rows[("tokenizer.json (Hugging Face BPE)", "all")]
    # WordPiece: [CLS] hello world cafe 你 [SEP] for the one block; "café" loses its accent
    assert (bert["tokens"], bert["unknown_pct"], bert["roundtrip_failed_lines"]) == ("6", "0.0", "1")
    # byte-level BPE: one BOS for the block, every line decodes back
    lib = Tokenizer.from_file(str(files / "gpt" / "tokenizer.json"))
    assert gpt["tokens"] == str(len(lib.encode("hello world\ncafé 你\n").ids))
    assert (gpt["unknown_pct"], gpt["roundtrip_failed_lines"]) == ("0.0", "0")
