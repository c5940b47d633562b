"""The normalization diff: removals and insertions stand alone, with their code points.

Offsets come from SentencePiece itself (``SentencePieceNormalizer.Normalize(text,
with_offsets=True)``, sentencepiece 0.2.3) with the fixture model SP120 (``nmt_nfkc``) and
NFD, the fixture corpus trained with a custom rule table (é → e + U+0301, A → A + U+0301).
"""

from __future__ import annotations

import pytest

from fixtures.sp import SP120_OPTIONS, train_proto
from tokexplorer.core.analysis import normalization_diff
from tokexplorer.core.backends import SentencePieceTokenizer


@pytest.fixture(scope="module")
def nfd(tmp_path_factory):
    rules = tmp_path_factory.mktemp("rules") / "nfd.tsv"
    rules.write_text("E9\t65 301\n41\t41 301\n", encoding="utf-8")
    return SentencePieceTokenizer(train_proto(normalization_rule_tsv=str(rules), **SP120_OPTIONS)[0], name="NFD")


def runs(d):
    return [(s.kind, s.original, s.normalized, s.orig_start, s.orig_end) for s in d.segments]


@pytest.mark.parametrize(
    ("text", "offsets", "expected", "described"),
    [
        ("a\x01b", [0, 0, 2, 3],
         [("same", "a", "a", 0, 1), ("removed", "\x01", "", 1, 2), ("same", "b", "b", 2, 3)],
         ["chars 1–2: '\\x01' (U+0001) removed (control character removed)"]),
        ("ab\x7f", [0, 0, 1, 3],
         [("same", "ab", "ab", 0, 2), ("removed", "\x7f", "", 2, 3)],
         ["chars 2–3: '\\x7f' (U+007F) removed (control character removed)"]),
        ("a \x01 b", [0, 0, 1, 4, 5],
         [("same", "a ", "a ", 0, 2), ("removed", "\x01", "", 2, 3), ("removed", " ", "", 3, 4),
          ("same", "b", "b", 4, 5)],
         ["chars 2–3: '\\x01' (U+0001) removed (control character removed)",
          "chars 3–4: ' ' (U+0020) removed (whitespace removed)"]),
        ("\x01ab", [0, 1, 2, 3],
         [("removed", "\x01", "", 0, 1), ("same", "ab", "ab", 1, 3)],
         ["chars 0–1: '\\x01' (U+0001) removed (control character removed)"]),
    ],
)  # fmt: skip
def test_a_removed_character_stands_alone(sp_models, text, offsets, expected, described):
    sp = sp_models["SP120"]
    assert sp.normalize_with_offsets(text)[1] == offsets
    d = normalization_diff(sp, text)
    assert d.exact is True
    assert runs(d) == expected
    assert [s.describe() for s in d.changes] == described


def test_nfc_and_nfd_look_alike_but_differ(sp_models):
    sp = sp_models["SP120"]
    nfc, nfd_text = "caf\u00e9", "cafe\u0301"
    assert sp.normalize(nfc) == sp.normalize(nfd_text) == "caf\u00e9"
    assert normalization_diff(sp, nfc).changes == ()
    d = normalization_diff(sp, nfd_text)
    assert [s.describe() for s in d.changes] == ["chars 3–5: 'e\u0301' (U+0065 U+0301) → '\u00e9' (U+00E9) (NFKC)"]
    assert d.changes[0].to_json()["from_code_points"] == ["U+0065", "U+0301"]
    assert d.changes[0].to_json()["to_code_points"] == ["U+00E9"]


def test_an_inserted_character_stands_alone(nfd):
    # the NFD rules: 'A' -> 'A' + U+0301 adds a character after a kept one
    assert nfd.normalize_with_offsets("Ann") == ("\u2581A\u0301nn", [0, 0, 0, 1, 2, 3])
    d = normalization_diff(nfd, "Ann")
    assert runs(d) == [("same", "A", "A", 0, 1), ("inserted", "", "\u0301", 1, 1), ("same", "nn", "nn", 1, 3)]
    assert [s.describe() for s in d.changes] == ["at char 1: '\u0301' (U+0301) inserted"]
    assert d.summary == "normalized: U+0301 inserted"
    # 'é' (U+00E9) -> 'e' + U+0301 is a rewrite, named as NFD
    d = normalization_diff(nfd, "caf\u00e9")
    assert [s.describe() for s in d.changes] == ["chars 3–4: '\u00e9' (U+00E9) → 'e\u0301' (U+0065 U+0301) (NFD)"]
    assert normalization_diff(nfd, "cafe\u0301").changes == ()


def test_the_text_diff_fallback_names_insertions(nfd, monkeypatch):
    monkeypatch.setattr(nfd, "normalize_with_offsets", lambda text: None)
    d = normalization_diff(nfd, "Ann")
    assert d.exact is False
    assert runs(d) == [("same", "A", "A", 0, 1), ("inserted", "", "\u0301", 1, 1), ("same", "nn", "nn", 1, 3)]
