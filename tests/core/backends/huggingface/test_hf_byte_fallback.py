"""Byte-fallback pieces of a ``tokenizer.json`` are their raw bytes everywhere: in each
token, in ``decode_bytes`` of any run of them (a character cut by the ids too), in the
decode report, and the same as the SentencePiece adapter gives for the same pieces."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer

from fixtures import hf
from tokexplorer.core.analysis import decode_ids
from tokexplorer.core.backends import HuggingFaceTokenizer

TEXT = "café 🦜 龘"


@pytest.fixture()
def llama(tmp_path) -> HuggingFaceTokenizer:
    """The Llama-style byte-fallback tokenizer.json, saved and opened as a user opens it."""
    return HuggingFaceTokenizer.from_file(hf.save(hf.llama_byte_fallback(), tmp_path))


def test_each_byte_piece_is_its_byte(llama):
    lib = llama.tokenizer
    enc = lib.encode(TEXT)
    assert enc.tokens == [
        "<s>",
        "▁café",
        "▁",
        "<0xF0>",
        "<0x9F>",
        "<0xA6>",
        "<0x9C>",
        "▁",
        "<0xE9>",
        "<0xBE>",
        "<0x98>",
    ]
    tz = llama.tokenize(TEXT)
    assert tz.ids == enc.ids == [1, 267, 259, 243, 162, 169, 159, 259, 236, 193, 155]
    assert [t.bytes for t in tz.tokens[3:7]] == [b"\xf0", b"\x9f", b"\xa6", b"\x9c"]
    assert [t.bytes for t in tz.tokens[8:]] == [b"\xe9", b"\xbe", b"\x98"]
    for b in range(256):
        assert llama.token_bytes(3 + b) == bytes([b])
        assert llama.decode_bytes([3 + b]) == bytes([b])


def test_a_cut_character_keeps_its_bytes_where_the_library_gives_u_fffd(llama):
    lib = llama.tokenizer
    parrot = [243, 162, 169, 159]  # 🦜 U+1F99C, F0 9F A6 9C
    assert lib.decode(parrot[:2]) == "\ufffd\ufffd"
    assert llama.decode_bytes(parrot[:2]) == b"\xf0\x9f"
    assert llama.decode_bytes(parrot[2:]) == b"\xa6\x9c"
    assert llama.decode_bytes(parrot) == "🦜".encode() == lib.decode(parrot).encode()
    # a word before the run and the prefix space the decoder strips, as the library does
    assert lib.decode([267, 259, *parrot[:3]]) == "café \ufffd\ufffd\ufffd"
    assert llama.decode_bytes([267, 259, *parrot[:3]]) == b"caf\xc3\xa9 \xf0\x9f\xa6"
    ids = llama.tokenize(TEXT).ids  # the BOS <s> first: decoded as the library does without skipping it
    assert llama.decode_bytes(ids) == lib.decode(ids, skip_special_tokens=False).encode() == b"<s> " + TEXT.encode()
    assert llama.decode_bytes(ids[1:]) == TEXT.encode()


def test_decode_text_is_the_library_s_and_strict_refuses_a_cut_character(llama):
    ids = [267, 259, 243, 162]
    assert llama.decode(ids) == llama.tokenizer.decode(ids) == "café \ufffd\ufffd"
    with pytest.raises(UnicodeDecodeError):
        llama.decode(ids, errors="strict")
    assert llama.decode(ids, errors="backslashreplace") == "café \\xf0\\x9f"


def test_decode_report_of_a_cut_run_shows_the_bytes(llama):
    report = decode_ids(llama, [236, 193])  # 龘 U+9F98 is E9 BE 98: its first two bytes
    assert report.data == b"\xe9\xbe"
    assert [t.bytes for t in report.tokens] == [b"\xe9", b"\xbe"]
    assert [t.spelling for t in report.tokens] == ["<0xE9>", "<0xBE>"]
    assert [(i.offset, i.length) for i in report.issues] == [(0, 2)]
    assert report.verdict.startswith("not valid UTF-8: 2 bytes shown as U+FFFD (first at byte 0)")


def test_same_bytes_as_the_sentencepiece_adapter_for_the_same_pieces(sp_models):
    """SPBF (a SentencePiece byte-fallback model) and a tokenizer.json holding its pieces
    with Llama's decoder: every piece's bytes, and the decode of each text's ids and of
    every cut of them, agree."""
    sp = sp_models["SPBF"]
    pieces = [sp.piece(i) for i in range(sp.vocab_size)]
    lib = Tokenizer.from_str(hf.llama_byte_fallback(pieces[259:], []).to_str())
    assert [lib.id_to_token(i) for i in range(sp.vocab_size)] == pieces
    tok = HuggingFaceTokenizer(lib)
    assert [tok.token_bytes(i) for i in range(3, 259)] == [sp.token_bytes(i) for i in range(3, 259)]
    for text in ["🦜 龘", "𠮷野家", "👨‍👩‍👧 café", "ok 🙂🙂"]:
        ids = sp.encode(text)
        assert any(sp.piece(i).startswith("<0x") for i in ids), text
        for a in range(len(ids)):
            for b in range(a + 1, len(ids) + 1):
                assert tok.decode_bytes(ids[a:b]) == sp.decode_bytes(ids[a:b]), (text, ids[a:b])
        assert tok.decode_bytes(ids) == sp.decode_bytes(ids) == text.encode()
