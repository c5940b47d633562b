"""A SentencePiece unigram model scores a whole text in floating point, so where two
segmentations of a word score within rounding of each other, the one that wins depends
on the text before it: cutting the text can change its ids and even its count. Counts,
``encode --count`` and the statistics are those of one call on the whole text, as
``len(sp.encode(text))`` gives them.

The model and the text are generated here (runs of ``=-*#`` of any length make such
near ties common); values from sentencepiece 0.2.x, computed by the test.
"""

from __future__ import annotations

import io
import random

import pytest

from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.analysis.blocks import count_tokens, count_tokens_noted, cuts_are_exact, text_blocks
from tokexplorer.core.backends.sentencepiece import counting as sp_counting

spm = pytest.importorskip("sentencepiece")


def _lines(seed: int, n: int) -> list[str]:
    """``n`` generated lines of words, numbers and runs of one of ``=-*#``."""
    rng = random.Random(seed)
    words = "the of and to in is was for on that with as by at from it be this are".split()
    out = []
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(2, 8)):
            r = rng.random()
            if r < 0.5:
                parts.append(rng.choice(words))
            elif r < 0.8:
                parts.append(rng.choice("=-*#") * rng.randint(1, 60))
            else:
                parts.append(str(rng.randint(0, 99999)))
        out.append(" ".join(parts))
    return out


TEXT = "\n".join(_lines(1001, 5000))  # 310,987 characters


@pytest.fixture(scope="module")
def unigram():
    from tokexplorer.core.backends import SentencePieceTokenizer

    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(_lines(7, 20000)), model_writer=model, vocab_size=300,
        model_type="unigram", minloglevel=2, num_threads=1,
    )  # fmt: skip
    return SentencePieceTokenizer(model.getvalue(), name="ties")


def _block_sum(tok, text: str) -> int:
    return sum(len(tok.processor.encode(text[a:b], out_type=int)) for a, b in text_blocks(text, block_chars=4096))


def test_cutting_the_text_changes_the_count_of_a_unigram_model(unigram):
    whole = len(unigram.processor.encode(TEXT, out_type=int))
    assert _block_sum(unigram, TEXT) != whole  # the kind of text the tests below need
    assert not unigram.line_cuts_exact and unigram.line_cuts_keep_pieces and not cuts_are_exact(unigram)


def test_counts_are_those_of_one_call_on_the_whole_text(unigram):
    ids = unigram.processor.encode(TEXT, out_type=int)
    assert count_tokens(unigram, TEXT, block_chars=4096) == len(ids)
    assert count_tokens_noted(unigram, TEXT)[0] == len(ids)
    assert unigram.encode(TEXT) == ids
    assert unigram.counting_notes == ()


def test_statistics_count_the_ids_of_one_call_on_each_file(unigram):
    """Each block counts its share of one call on its file (the blocks are small here, so
    that many of them meet a near tie)."""
    other = "\n".join(_lines(1009, 3000))
    st = compute_stats([unigram], [("a.txt", TEXT), ("b.txt", other)], block_chars=4096)
    rows = {r["group"]: r for r in st.rows()}
    want = {name: len(unigram.processor.encode(t, out_type=int)) for name, t in (("a.txt", TEXT), ("b.txt", other))}
    assert {name: rows[name]["tokens"] for name in want} == want
    assert rows["all"]["tokens"] == sum(want.values())
    assert sum(g.tokens for g in st.tokenizers[0].by_script.values()) == sum(want.values())
    assert st.tokenizers[0].notes == ()


def test_a_text_too_long_for_one_call_is_counted_in_parts_and_says_so(unigram, monkeypatch):
    from tokexplorer.core.backends import SentencePieceTokenizer

    tok = SentencePieceTokenizer(unigram.model_proto, name="ties")
    monkeypatch.setattr(sp_counting, "WHOLE_CALL_MAX_CHARS", 100_000)
    count, _notes = count_tokens_noted(tok, TEXT)
    assert count != len(tok.processor.encode(TEXT, out_type=int))
    assert tok.counting_notes == (
        "1 text of more than 100,000 characters counted in parts: where two segmentations of this unigram model "
        "score within rounding, the count may differ by a token or so from one call on the whole text",
    )
