"""Our ``bert`` normalizer and pre-tokenizer read every code point as ``tokenizers``' own
``BertNormalizer`` + ``BertPreTokenizer`` do (tokenizers 0.23.3), so a WordPiece trained here
and exported as vocab.txt gives our ids there.

The code points checked: every one the tables of ``bert_unicode`` name, unassigned and
private-use ones, CJK compatibility ideographs and the extension-E start, each inside a word,
in all four lowercase / strip-accents settings; the words expected are the library's.
"""

from __future__ import annotations

import pytest
from tokenizers import normalizers, pre_tokenizers
from tokenizers.implementations import BertWordPieceTokenizer

from tokexplorer.core.backends import load_tokenizer
from tokexplorer.core.io import save_wordpiece, write_vocab_txt
from tokexplorer.core.wordpiece import pre_tokenize, train_wordpiece
from tokexplorer.core.wordpiece.bert_unicode import KEPT_FORMAT, LOWER, NOT_PUNCTUATION, ONLY_PUNCTUATION, STRIP

SETTINGS = [(False, False), (True, None), (True, False), (False, True)]


def _points() -> list[int]:
    named = [c for table in (KEPT_FORMAT, NOT_PUNCTUATION, ONLY_PUNCTUATION) for a, b in table for c in range(a, b + 1)]
    named += [*STRIP, *LOWER]
    others = [0x378, 0xFFFE, 0xFFFF, 0x10FFFF, 0xE000, 0xF0000, 0x200B, 0x00AD, 0xFEFF, 0x061C, 0x2B81F, 0x2B820,
              0x2B91F, 0x2B920, *range(0xF900, 0xF910), *range(0x2F800, 0x2F808), 0x1734, 0x0301, 0x00C9, 0x0130]
    return sorted(set(named + others))  # fmt: skip


def _library(lowercase: bool, strip_accents: bool | None):
    norm = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=strip_accents, lowercase=lowercase
    )
    pre = pre_tokenizers.BertPreTokenizer()
    return lambda text: [w for w, _ in pre.pre_tokenize_str(norm.normalize_str(text))]


@pytest.mark.parametrize(("lowercase", "strip_accents"), SETTINGS)
def test_every_code_point_of_the_tables_gives_the_librarys_words(lowercase, strip_accents):
    lib = _library(lowercase, strip_accents)
    ours_strip = lowercase if strip_accents is None else strip_accents  # BERT: unset strips when lowercasing
    diff = []
    for c in _points():
        text = f"Xa{chr(c)}b"
        ours = [w.text for w in pre_tokenize(text, pattern="bert", lowercase=lowercase, strip_accents=ours_strip)]
        if ours != lib(text):
            diff.append((hex(c), ours, lib(text)))
    assert diff == []


def test_the_values_of_some_edges():
    words = [w.text for w in pre_tokenize("x\uffffy \ue000 a\u2e43b x\u166dy \u0890z", pattern="bert")]
    assert words == ["x\uffffy", "a\u2e43b", "x", "\u166d", "y", "\u0890z"]
    assert _library(False, False)("x\uffffy \ue000 a\u2e43b x\u166dy \u0890z") == words
    # a CJK compatibility ideograph is a word of its own, then stripped (NFD) as any character
    assert [w.text for w in pre_tokenize("a\uf900b", pattern="bert", strip_accents=True)] == ["a", "\u8c48", "b"]
    assert _library(False, True)("a\uf900b") == ["a", "\u8c48", "b"]
    # U+2B820..U+2B91F are no ideographs to tokenizers (its extension E starts at U+2B920)
    assert [w.text for w in pre_tokenize("a\U0002b820\U0002b920", pattern="bert")] == ["a\U0002b820", "\U0002b920"]
    # Rust lowercases U+1C89 (Unicode 16.0), Python 3.11's str.lower does not
    assert [w.text for w in pre_tokenize("\u1c89", pattern="bert", lowercase=True)] == ["\u1c8a"]


def test_an_exported_vocab_txt_gives_our_ids_in_tokenizers(tmp_path):
    corpus = ["Café \uf900\uf901 is here, a\u2e43b x\uffffy", "the cats \u1c89 sat \u0897 on mats"] * 30
    wp, _ = train_wordpiece(corpus, vocab_size=120, lowercase=True, strip_accents=True)
    save_wordpiece(wp, tmp_path / "m.wordpiece")
    vocab, _ = write_vocab_txt(wp, tmp_path / "vocab.txt")
    ref = BertWordPieceTokenizer(str(vocab), lowercase=True, strip_accents=True)
    ours = load_tokenizer(f"wordpiece:{tmp_path / 'm.wordpiece'}")
    text = "CAFÉ \uf900 here a\u2e43b x\uffffy \u1c89 \u0897cats"
    enc = ref.encode(text, add_special_tokens=False)
    assert enc.tokens == ["cafe", "\u8c48", "here", "a\u2e43b", "x\uffffy", "\u1c8a", "[UNK]"]
    assert ours.encode(text) == enc.ids == [48, 30, 49, 33, 36, 28, 1]
