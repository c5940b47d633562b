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
from tokexplorer.core.backends import stage_piece
from tokexplorer.core.text import GPT2_UNICODE_TO_BYTE

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
        ("bert/tokenizer.json (Hugging Face WordPiece)", 6),  # two tokenizer.json: each says its folder
        ("gpt/tokenizer.json (Hugging Face BPE)", len(hf.byte_level_bpe().encode(TEXT).ids)),
    ]


def test_inspect_prints_and_writes_the_stages(files, capsys):
    out, _ = _run(capsys, "inspect", "--tokenizer", "hf:bert/tokenizer.json", "--text", TEXT)
    assert "pipeline stages\n  normalizer (BertNormalizer): 'hello world!  你 '\n" in out
    assert "  pre-tokens (BertPreTokenizer): hello │ world │ ! │ 你\n" in out
    assert "  model tokens (WordPiece): hello │ world │ ! │ 你\n" in out
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


def test_inspect_stages_of_a_byte_level_bpe_are_text(files, capsys):
    """Pre-tokens and model tokens as their text, spaces as ␣, a │ of the text escaped so
    that the separator is never inside a piece; not GPT-2's ``Ġä½łå¥½`` spelling."""
    out, _ = _run(capsys, "inspect", "--tokenizer", "hf:gpt/tokenizer.json", "--text", "café 你好 a│b",
                  "--no-add-special-tokens")  # fmt: skip
    lib = hf.byte_level_bpe()
    assert [s for s, _ in lib.pre_tokenizer.pre_tokenize_str("café 你好 a│b")] == ["cafÃ©", "Ġä½łå¥½", "Ġa", "âĶĤ", "b"]
    assert "  pre-tokens (ByteLevel): café │ ␣你好 │ ␣a │ <U+2502> │ b\n" in out
    pieces = [lib.id_to_token(i) for i in lib.encode("café 你好 a│b", add_special_tokens=False).ids]
    shown = " │ ".join(stage_piece(bytes(GPT2_UNICODE_TO_BYTE[c] for c in p)) for p in pieces)
    assert f"  model tokens (BPE): {shown}\n" in out
    assert "Ġ" not in shown and "Ã" not in shown


def test_stats_rows_unknown_and_round_trip(files, capsys):
    out, _ = _run(capsys, "stats", "--tokenizer", "hf:bert/tokenizer.json", "--tokenizer", "hf:gpt/tokenizer.json",
                  "t.txt", "--csv")  # fmt: skip
    rows = {(r["tokenizer"], r["group"]): r for r in csv.DictReader(io.StringIO(out))}
    bert = rows[("bert/tokenizer.json (Hugging Face WordPiece)", "all")]
    gpt = rows[("gpt/tokenizer.json (Hugging Face BPE)", "all")]
    # WordPiece: hello world cafe 你, the text's tokens (not the post-processor's [CLS]/[SEP]);
    # "café" loses its accent, as its normalizer (strip_accents) makes it: decoding gives back
    # the normalized line, a round trip
    assert (bert["tokens"], bert["unknown_pct"], bert["roundtrip_failed_lines"]) == ("4", "0.0", "0")
    # byte-level BPE: the text's tokens without the BOS its post-processor adds; every line decodes back
    lib = Tokenizer.from_file(str(files / "gpt" / "tokenizer.json"))
    assert gpt["tokens"] == str(len(lib.encode("hello world\ncafé 你\n", add_special_tokens=False).ids))
    assert len(lib.encode("hello world\ncafé 你\n").ids) == int(gpt["tokens"]) + 1
    assert (gpt["unknown_pct"], gpt["roundtrip_failed_lines"]) == ("0.0", "0")


def test_encode_with_an_empty_vocab_says_the_text_is_lost(tmp_path, capsys):
    path = tmp_path / "tj.json"
    path.write_text('{"model": {"type": "BPE", "vocab": {}, "merges": []}}', encoding="utf-8")
    code = main(["encode", "--tokenizer", str(path), "--text", "hi"])
    out, err = capsys.readouterr()
    assert (code, out) == (0, "\n")
    assert err == (
        "tokexplorer: note: 2 characters of the text are in no token (the model has none for them; they are lost): "
        "'h', 'i'\n"
    )


def test_decode_bytes_of_a_cut_byte_fallback_run(tmp_path, capsys):
    """``decode --bytes`` of the first two byte pieces of 🦜 (F0 9F A6 9C) prints those
    bytes; the text is Python's replacement of them, as for a SentencePiece model."""
    path = hf.save(hf.llama_byte_fallback(), tmp_path)
    assert Tokenizer.from_file(str(path)).decode([243, 162]) == "\ufffd\ufffd"
    out, _ = _run(capsys, "decode", "--tokenizer", f"hf:{path}", "243", "162", "--bytes")
    assert out == "f09f\n"
    out, _ = _run(capsys, "decode", "--tokenizer", f"hf:{path}", "243", "162", "169", "159")
    assert out == "🦜"
