"""sniff_bytes / sniff_path: the format from the bytes, never the name."""

from __future__ import annotations

import json

import pytest

from tokexplorer.core.errors import InputError
from tokexplorer.core.io import sniff_bytes, sniff_path
from tokexplorer.core.io.sniff import HEAD_BYTES


def test_sentencepiece_proto_from_real_model(sp_protos):
    for proto in sp_protos.values():
        assert sniff_bytes(proto) == ("sentencepiece", "protobuf whose first field is a SentencePiece piece")
        assert sniff_bytes(proto[:HEAD_BYTES], complete=False)[0] == "sentencepiece"


def test_protobuf_like_bytes_that_are_not_a_model():
    # field 1 holding a message with an unknown field 7
    assert sniff_bytes(b"\x0a\x03\x38\x01\x00")[0] is None
    assert sniff_bytes(b"\x0a\x00")[0] is None


def test_rank_lines_and_their_limits():
    assert sniff_bytes(b"IQ== 0\r\nIg== 1\r\n= 2\n")[0] == "ranks"
    assert sniff_bytes(b"IQ== 0\nnot base64 1\n")[0] is None
    # a merges.txt line is two fields too, but not base64 + rank
    assert sniff_bytes("Ġ t\nĠ a\n".encode())[0] == "gpt2-merges"


@pytest.mark.parametrize(
    ("data", "fmt"),
    [
        (json.dumps({"model": {"type": "WordPiece"}, "normalizer": None}).encode(), "tokenizer.json"),
        (json.dumps({"config": {"pattern": "x", "version": "v7"}, "vocab": []}).encode(), "tekken"),
        (b"#version: 0.2\n", "gpt2-merges"),
        (b"[CLS]\n[SEP]\n[UNK]\nthe\n##s\n", "bert-vocab"),
        (b"a\nb\n##x\n##y\n", "bert-vocab"),  # no [UNK], but '##' continuation lines
    ],
)
def test_text_and_json_formats(data, fmt):
    assert sniff_bytes(data)[0] == fmt


def test_descriptions_of_what_is_not_a_tokenizer():
    assert sniff_bytes(b"[1, 2, 3]") == (None, "a JSON list, not a tokenizer (tokenizer files hold a JSON object)")
    assert sniff_bytes(b"{not json") == (None, "starts like JSON but does not parse as JSON, not a tokenizer")
    assert sniff_bytes(b"\xff\xfe\x00a", size=5 << 20) == (None, "binary, 5.0 MiB, not a tokenizer format")
    assert sniff_bytes(b"\xff\xfe\x00a", size=5000) == (None, "binary, 4.9 KiB, not a tokenizer format")
    assert sniff_bytes(b"word with spaces\nanother line\n") == (
        None,
        "looks like a UTF-8 text file, not a tokenizer (first line 'word with spaces')",
    )


def test_sniff_path_missing_and_folder_without_tokenizer(tmp_path):
    with pytest.raises(InputError, match="no such file or folder: "):
        sniff_path(tmp_path / "nope")
    (tmp_path / "readme.txt").write_text("hello there\n")
    with pytest.raises(InputError, match=f"folder {tmp_path.name} holds no tokenizer file"):
        sniff_path(tmp_path)


def test_other_files_of_a_folder_in_name_order(tmp_path, sp_protos):
    (tmp_path / "b.model.v3").write_bytes(sp_protos["SP120"])
    (tmp_path / "a.tiktoken").write_bytes(b"IQ== 0\n")
    (tmp_path / "notes.txt").write_text("hello there\n")
    found = sniff_path(tmp_path)
    assert (found.format, found.path.name) == ("ranks", "a.tiktoken")
    assert found.notes == (f"folder {tmp_path.name}: using a.tiktoken (also there: b.model.v3)",)
