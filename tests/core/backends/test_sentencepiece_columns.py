"""SentencePiece pieces as numpy columns (issue 14: counting paths build no token per piece),
and the count and notes of ``encode --count`` from one run of the model.

Values: sentencepiece 0.2.3 with the fixture models (SP120: bpe, nmt_nfkc, no byte
fallback; SPID: identity normalizer, whitespace kept; SPBF: byte fallback).
"""

from __future__ import annotations

import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.analysis import count_tokens_noted
from tokexplorer.core.errors import SpecialTokenError

TEXTS = [
    multilingual_text(600, seed=5),
    "x\u4e2d\r\n",
    "a\u2026b the \u338f day \uff13\u338f",
    "\U0001f469\u200d\U0001f52c lab\r\nok e\u0301 ok\r",
    "  lead and trail  \n\n",
    "a\x00b <s> \U0001f30a",
    "",
]


@pytest.mark.parametrize("name", ["SP120", "SPID", "SPBF"])
def test_columns_are_the_tokens_of_tokenize(sp_models, name):
    tok = sp_models[name]
    for text in TEXTS:
        cols = tok.piece_columns(text)
        tz = tok.tokenize(text)
        assert cols.ids.tolist() == tok.processor.encode(text, out_type=int) == tz.ids
        assert cols.starts.tolist() == [t.byte_start for t in tz.tokens]
        assert cols.ends.tolist() == [t.byte_end for t in tz.tokens]
        assert cols.partial.tolist() == [t.partial for t in tz.tokens]
        assert cols.inside.tolist() == [t.inside_normalized for t in tz.tokens]
        assert (cols.exact_offsets, cols.normalized) == (tz.exact_offsets, tz.normalized)


def test_byte_pieces_get_a_byte_each_and_are_partial(sp_models):
    cols = sp_models["SPBF"].piece_columns("x\u4e2d\r\n")
    assert cols.ids.tolist() == [367, 390, 231, 187, 176]  # ▁ x <0xE4> <0xB8> <0xAD>
    assert list(zip(cols.starts.tolist(), cols.ends.tolist())) == [(0, 0), (0, 1), (1, 2), (2, 3), (3, 4)]
    assert cols.partial.tolist() == [False, False, True, True, True]
    assert cols.normalized == "x\u4e2d" and not cols.exact_offsets


def test_unknown_pieces_span_the_text_they_swallowed(sp_models):
    cols = sp_models["SPID"].piece_columns("\U0001f469\u200d\U0001f52c lab\r\nok")
    assert cols.ids.tolist() == [83, 81, 51, 52, 0, 92, 105]  # ... 'ab', <unk> (CRLF), 'o', 'k'
    assert list(zip(cols.starts.tolist(), cols.ends.tolist()))[3:5] == [(13, 15), (15, 17)]
    assert cols.exact_offsets


def test_columns_keep_the_special_token_policy(sp_models):
    tok = sp_models["SP120"]
    with pytest.raises(SpecialTokenError, match="control piece '<s>'"):
        tok.piece_columns("a <s> b", special="raise")
    assert tok.piece_columns("a <s> b", special="special").ids.tolist() == tok.processor.encode("a <s> b")


class _Runs:
    """Wraps a processor's ``encode`` and adds up the characters each kind of call encodes."""

    def __init__(self, processor, monkeypatch):
        self.chars: dict[str, int] = {"int": 0, "proto": 0}
        real = processor.encode

        def encode(text, **kw):
            kind = "int" if kw.get("out_type", int) is int else "proto"  # ids, or the pieces (str, proto)
            self.chars[kind] += sum(map(len, text)) if isinstance(text, list) else len(text)
            return real(text, **kw)

        monkeypatch.setattr(processor, "encode", encode)


@pytest.mark.parametrize(
    ("name", "int_runs", "proto_chars"), [("SP120", 2, (1, 4_000)), ("SPID", 1, None), ("SPBF", 1, (0, 0))]
)
def test_count_and_notes_encode_the_text_once(sp_models, name, int_runs, proto_chars, monkeypatch):
    """``encode --count``: the ids of the text once (SP120, SPBF in blocks; SPID, which
    keeps line breaks, whole); only a text holding an unknown piece gets its parts
    encoded again, with spans only for the parts holding one (SP120); byte fallback
    (SPBF) has no unknown piece, though 中 is none of its pieces. The count is the
    library's, the notes those of tokenize."""
    tok = sp_models[name]
    lines = ["the good cat is here.\n"] * 400 + ["the \u4e2d cat\n"] + ["the old hat was there.\n"] * 400
    text = "".join(lines)
    want = (len(tok.processor.encode(text, out_type=int)), tok.tokenize(text).notes)
    _ = tok.line_cuts_exact  # (its probes are encoded once per model)
    runs = _Runs(tok.processor, monkeypatch)
    assert count_tokens_noted(tok, text) == want
    assert runs.chars["int"] == int_runs * len(text)
    if proto_chars is None:  # its unknown pieces' spans need the whole text
        assert runs.chars["proto"] == len(text)
    else:
        assert proto_chars[0] <= runs.chars["proto"] <= proto_chars[1]


@pytest.mark.parametrize("name", ["SP120", "SPID", "SPBF"])
def test_encode_with_notes_is_encode_and_the_notes_of_tokenize(sp_models, name):
    tok = sp_models[name]
    for text in TEXTS:
        for special in ("plain", "special"):
            assert tok.encode_with_notes(text, special=special) == (
                tok.processor.encode(text, out_type=int),
                tok.tokenize(text, special=special).notes,
            )
            assert tok.count_with_notes(text, special=special) == (
                len(tok.processor.encode(text, out_type=int)),
                tok.tokenize(text, special=special).notes,
            )


def test_round_trips_decode_each_text_on_its_own(sp_models):
    tok = sp_models["SP120"]
    texts = ["the cat", "  the cat", "the \u4e2d", "", "\ud800x"]
    want = [tok.decode(tok.encode(t)) == t for t in texts]
    assert tok.round_trips(texts) == want == [True, False, False, True, False]
