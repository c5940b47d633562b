"""A byte-level BPE of the tokenizers library as tiktoken ranks: the library's own ids
exactly (checked against the library on multilingual text), or refused saying why."""

from __future__ import annotations

import json

import pytest
import tiktoken
from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers

from fixtures import hf
from fixtures.multilingual import multilingual_text
from tokexplorer.core.backends import HuggingFaceTokenizer, byte_level_ranks, load_tokenizer
from tokexplorer.core.bpe import BPE, train_bpe
from tokexplorer.core.errors import InputError
from tokexplorer.core.io import sample_text, write_tokenizer_json
from tokexplorer.core.text import PATTERNS, to_gpt2_visible

TEXT = sample_text() + multilingual_text(3000, seed=7)


def _encoding(ranks) -> tiktoken.Encoding:
    return tiktoken.Encoding("t", pat_str=ranks.pat_str or r"[\s\S]+", mergeable_ranks=ranks.mergeable_ranks,
                             special_tokens=ranks.special_tokens)  # fmt: skip


def _byte_vocab() -> dict[str, int]:
    return {to_gpt2_visible(bytes([b])): b for b in range(256)}


def test_a_trained_tokenizer_json_gives_the_library_ids():
    lib = hf.byte_level_bpe()
    ranks = byte_level_ranks(HuggingFaceTokenizer(lib))
    assert ranks.special_tokens == {"<|endoftext|>": 0, "<s>": 1}
    assert ranks.pat_str == PATTERNS["gpt2"]
    assert len(ranks.mergeable_ranks) == 318
    assert ranks.notes == (
        "the post-processor adds <s> to each text; ranks do not: the ids are the library's with "
        "add_special_tokens=False",
    )
    text = TEXT + "<|endoftext|>x"
    ids = lib.encode(text, add_special_tokens=False).ids
    assert _encoding(ranks).encode(text, allowed_special="all") == ids
    assert ids.count(0) == 1 and len(ids) > 20000


def test_our_tokenizer_json_export_reads_back_as_its_ranks(tmp_path):
    bpe, _ = train_bpe(TEXT, vocab_size=600, pattern="cl100k", special_tokens=["<|end|>"])
    path = write_tokenizer_json(bpe, tmp_path / "tokenizer.json")
    ranks = byte_level_ranks(load_tokenizer(str(path)))
    assert ranks.pat_str == PATTERNS["cl100k"]  # the Split regex was Oniguruma's rewrite of it
    assert ranks.mergeable_ranks == bpe.mergeable_ranks
    assert ranks.special_tokens == {"<|end|>": 599}
    text = TEXT + "<|end|>"
    assert _encoding(ranks).encode(text, allowed_special="all") == Tokenizer.from_file(str(path)).encode(text).ids


def test_tokens_no_merge_builds_need_ignore_merges(tmp_path):
    ranks = {bytes([b]): b for b in range(256)} | {b"abab": 256}  # no merge builds abab
    path = write_tokenizer_json(BPE.from_mergeable_ranks(ranks, pat_str=None), tmp_path / "tokenizer.json")
    assert byte_level_ranks(load_tokenizer(str(path))).mergeable_ranks == ranks  # written with ignore_merges on
    data = json.loads(path.read_text(encoding="utf-8"))
    data["model"]["ignore_merges"] = False
    path.write_text(json.dumps(data), encoding="utf-8")
    lib = Tokenizer.from_file(str(path))
    assert lib.encode("abab").ids == [97, 98, 97, 98]  # the library never emits 256; ranks would
    with pytest.raises(InputError) as err:
        byte_level_ranks(HuggingFaceTokenizer(lib))
    assert str(err.value) == (
        "Hugging Face BPE cannot be written as ranks: its token 256 (b'abab') is built by no merge: ranks emit "
        "it for a piece that is that token, the library (ignore_merges off) never does; use the file itself "
        "with the tokenizers library"
    )


def test_merges_that_rank_order_would_join_otherwise_are_refused():
    # "abc" is built from ab + c, but b + c merges first: the library leaves a, bc; ranks would join them
    vocab = _byte_vocab() | {"bc": 256, "ab": 257, "abc": 258}
    lib = Tokenizer(models.BPE(vocab, [("b", "c"), ("a", "b"), ("ab", "c")]))
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    assert lib.encode("abc").ids == [97, 256]
    with pytest.raises(InputError) as err:
        byte_level_ranks(HuggingFaceTokenizer(lib))
    assert str(err.value).split("; use")[0] == (
        "Hugging Face BPE cannot be written as ranks: rank-order merging builds token 258 (b'abc') otherwise "
        "than its merges do, so ids would differ"
    )


def _bpe(merges=(("a", "b"),), extra=None, **model) -> Tokenizer:
    vocab = _byte_vocab() | (extra or {"ab": 256})
    lib = Tokenizer(models.BPE(vocab, list(merges), **model))
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    return lib


def _with(lib: Tokenizer, **parts) -> Tokenizer:
    for key, value in parts.items():
        setattr(lib, key, value)
    return lib


REFUSED = [
    (lambda: _with(_bpe(), normalizer=normalizers.NFC()),
     "its normalizer (NFC) rewrites the text before the BPE and ranks carry no normalizer, so ids would "
     "differ wherever NFC changes the text"),
    (lambda: _with(_bpe(), pre_tokenizer=pre_tokenizers.ByteLevel(add_prefix_space=True)),
     "its ByteLevel pre-tokenizer adds a space before the text (add_prefix_space), which ranks cannot say: "
     "every first word would get another id"),
    (lambda: _with(_bpe(), pre_tokenizer=pre_tokenizers.Whitespace()),
     "its pre-tokenizer (Whitespace) does not end with ByteLevel; the ranks need it"),
    (lambda: _with(_bpe(), pre_tokenizer=pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(r"\w+"), "isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])),
     "its Split pattern '\\\\w+'… is not the gpt2, cl100k or o200k pattern, so tiktoken's regex engine may cut "
     "the text otherwise than the library's (Oniguruma)"),
    (lambda: _bpe(dropout=0.1), "its BPE has dropout 0.1 (random merges); ranks always merge"),
    (lambda: _bpe(merges=[("a", "##b")], extra={"##b": 256, "ab": 257}, continuing_subword_prefix="##"),
     "its BPE marks pieces with continuing_subword_prefix '##'; ranks have no such marks"),
    (lambda: _bpe(merges=[("a", "b"), ("ab", "c")], extra={"abc": 256, "ab": 257}),
     "its ids do not grow with its merge list (merge 1, 'ab c', builds an id lower than the merge before it), "
     "so rank order is not merge order"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "why"), REFUSED)
def test_what_the_ranks_cannot_carry_is_refused_saying_why(make, why):
    with pytest.raises(InputError) as err:
        byte_level_ranks(HuggingFaceTokenizer(make()))
    assert str(err.value) == (
        f"Hugging Face BPE cannot be written as ranks: {why}; use the file itself with the tokenizers library"
    )


def test_added_tokens_must_be_special():
    lib = _bpe()
    lib.add_tokens(["hello"])
    with pytest.raises(InputError) as err:
        byte_level_ranks(HuggingFaceTokenizer(lib))
    why = "its added token 'hello' is not special: the library cuts it out of any text before the BPE"
    assert why in str(err.value)


def test_an_empty_token_is_left_out():
    lib = _bpe(extra={"ab": 256, "": 257})
    assert byte_level_ranks(HuggingFaceTokenizer(lib)).mergeable_ranks == {bytes([b]): b for b in range(256)} | {
        b"ab": 256
    }
