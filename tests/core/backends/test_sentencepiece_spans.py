"""SentencePiece piece spans where the normalizer expands a character (NFKC of '…', 'ﬁ', '㎏', full-width forms).

Values: sentencepiece 0.2.3 with the fixture models (SP120, SPBF) and DOTS, the fixture
corpus plus lines holding '..' and 'fi' (so pieces '..' and 'fi' exist). SentencePiece's own
spans (``pieces()``, its begin/end byte offsets) are quoted beside ours.
"""

from __future__ import annotations

import numpy as np
import pytest

from fixtures.sp import SP120_OPTIONS, fixture_lines, train_proto
from tokexplorer.core.backends import SentencePieceTokenizer
from tokexplorer.core.backends.sentencepiece.spans import char_span_columns


@pytest.fixture(scope="module")
def dots():
    proto = train_proto(fixture_lines() + ["wait.. ok", "fi fi"] * 20, **SP120_OPTIONS)[0]
    return SentencePieceTokenizer(proto, name="DOTS")


def rows(tok, text):
    """(piece, original characters spanned, inside_normalized, unknown) per token."""
    tz = tok.tokenize(text, special="plain")
    return [(t.piece, tz.text[t.char_start : t.char_end], t.inside_normalized, t.unknown) for t in tz.tokens]


def byte_spans(tok, text):
    return [(t.byte_start, t.byte_end) for t in tok.tokenize(text, special="plain").tokens]


@pytest.mark.parametrize(
    ("text", "sp_spans", "ours", "expected"),
    [
        (
            "a\u2026b",  # 'a…b' -> '▁a...b'
            [(0, 1), (1, 1), (1, 1), (1, 4), (4, 5)],
            [(0, 1), (1, 4), (1, 4), (1, 4), (4, 5)],
            [("\u2581a", "a", False, False), (".", "\u2026", True, False), (".", "\u2026", True, False),
             (".", "\u2026", True, False), ("b", "b", False, False)],
        ),
        (
            "the \u338f day",  # '㎏' -> 'kg'
            [(0, 3), (3, 4), (4, 4), (4, 7), (7, 11)],
            [(0, 3), (3, 4), (4, 7), (4, 7), (7, 11)],
            [("\u2581the", "the", False, False), ("\u2581", " ", False, False), ("k", "\u338f", True, False),
             ("g", "\u338f", True, False), ("\u2581day", " day", False, False)],
        ),
        (
            "\uff28\uff45\uff4c\uff4c\uff4f",  # full-width 'Ｈｅｌｌｏ': one character each, nothing inside
            [(0, 0), (0, 3), (3, 6), (6, 12), (12, 15)],
            [(0, 0), (0, 3), (3, 6), (6, 12), (12, 15)],
            [("\u2581", "", False, False), ("<unk>", "\uff28", False, True), ("e", "\uff45", False, False),
             ("ll", "\uff4c\uff4c", False, False), ("o", "\uff4f", False, False)],
        ),
        (
            "\uff13\u338f",  # '３㎏' -> '3kg'
            [(0, 0), (0, 3), (3, 3), (3, 6)],
            [(0, 0), (0, 3), (3, 6), (3, 6)],
            [("\u2581", "", False, False), ("<unk>", "\uff13", False, True), ("k", "\u338f", True, False),
             ("g", "\u338f", True, False)],
        ),
    ],
)
def test_every_piece_of_an_expansion_spans_its_character(sp_models, text, sp_spans, ours, expected):
    sp = sp_models["SP120"]
    assert [(b, e) for _, _, b, e in sp.pieces(text)] == sp_spans
    assert byte_spans(sp, text) == ours
    assert rows(sp, text) == expected


def test_an_unknown_piece_from_an_expansion_reports_the_character_it_swallowed(sp_models):
    sp = sp_models["SP120"]
    # 'ﬃ' -> 'ffi': SentencePiece's unknown 'ff' has the empty span (0, 0)
    assert sp.pieces("\ufb03") == [("\u2581", 87, 0, 0), ("ff", 0, 0, 0), ("i", 99, 0, 3)]
    assert rows(sp, "\ufb03") == [
        ("\u2581", "", False, False), ("<unk>", "\ufb03", True, True), ("i", "\ufb03", True, False),
    ]
    tz = sp.tokenize("\ufb01\ufb01", special="plain")  # 'ﬁﬁ': two unknown 'f'
    assert [p for p, _, _, _ in sp.pieces("\ufb01\ufb01")] == ["\u2581", "f", "i", "f", "i"]
    assert [(t.byte_start, t.byte_end) for t in tz.tokens if t.unknown] == [(0, 3), (3, 6)]
    assert tz.tokens[1].bytes == "\ufb01".encode()
    assert any(n.startswith("2 unknown pieces") and "'\ufb01', '\ufb01'" in n for n in tz.notes)


def test_byte_pieces_inside_an_expansion(sp_models):
    spbf = sp_models["SPBF"]
    # 'ﬁne': 'f' is not in SPBF, so it becomes the byte piece <0x66>, made from 'ﬁ'
    assert spbf.pieces("\ufb01ne") == [
        ("\u2581", 367, 0, 0), ("<0x66>", 105, 0, 0), ("i", 379, 0, 3), ("n", 380, 3, 4), ("e", 368, 4, 5),
    ]
    assert rows(spbf, "\ufb01ne") == [
        ("\u2581", "", False, False), ("<0x66>", "\ufb01", True, False), ("i", "\ufb01", True, False),
        ("n", "n", False, False), ("e", "e", False, False),
    ]
    # a byte-fallback run of one unexpanded character keeps its one-byte spans
    assert byte_spans(spbf, "\u9f98") == [(0, 0), (0, 1), (1, 2), (2, 3)]
    assert [t.inside_normalized for t in spbf.tokenize("\u9f98").tokens] == [False] * 4


def test_a_piece_across_two_expansions_spans_both(dots):
    # '……' -> '......' cut as '..' '..' '..': the middle piece holds a dot of each
    assert dots.pieces("\u2026\u2026") == [("\u2581", 86, 0, 0), ("..", 73, 0, 0), ("..", 73, 0, 3), ("..", 73, 3, 6)]
    assert byte_spans(dots, "\u2026\u2026") == [(0, 0), (0, 3), (0, 6), (3, 6)]
    assert rows(dots, "\u2026\u2026") == [
        ("\u2581", "", False, False), ("..", "\u2026", True, False), ("..", "\u2026\u2026", True, False),
        ("..", "\u2026", True, False),
    ]
    # a piece holding a whole expansion is not inside it: 'ﬁ' -> 'fi' is the piece 'fi'
    assert dots.pieces("\ufb01\ufb01") == [("\u2581fi", 53, 0, 3), ("fi", 50, 3, 6)]
    assert rows(dots, "\ufb01\ufb01") == [("\u2581fi", "\ufb01", False, False), ("fi", "\ufb01", False, False)]
    assert rows(dots, "\u2026\ufb01") == [
        ("\u2581", "", False, False), ("..", "\u2026", True, False), (".", "\u2026", True, False),
        ("fi", "\ufb01", False, False),
    ]


@pytest.mark.parametrize(
    "text", ["a\u2026b", "\ufb01ne", "\ufb03", "\uff28\uff45\uff4c\uff4c\uff4f", "\uff13\u338f",
             "good\u2026day", "a  b", "  lead and trail  ", "\u2026\u2026x"],
)
def test_no_piece_but_the_dummy_prefix_has_an_empty_span(sp_models, dots, text):
    for tok in (sp_models["SP120"], sp_models["SPBF"], dots):
        tz = tok.tokenize(text, special="plain")
        for k, t in enumerate(tz.tokens):
            # every span starts where SentencePiece says the piece starts
            assert t.byte_start == tok.pieces(text)[k][2]
            if t.byte_end == t.byte_start:
                assert k == 0 and t.piece == "\u2581"


def test_without_normalizer_offsets_sentencepiece_spans_are_kept(sp_protos, monkeypatch):
    sp = SentencePieceTokenizer(sp_protos["SP120"], name="SP120")
    monkeypatch.setattr(sp, "normalize_with_offsets", lambda text: None)
    assert byte_spans(sp, "a\u2026b") == [(0, 1), (1, 1), (1, 1), (1, 4), (4, 5)]


def test_char_span_columns_refuses_pieces_that_do_not_spell_the_text():
    assert char_span_columns(np.array([4]), "\u2581ab", [0, 0, 1, 2], dummy_prefix=True) is None
