"""Our BPE written as tiktoken and GPT-2 files, read back by tiktoken and tokenizers."""

from __future__ import annotations

import json

import pytest
import tiktoken
import tiktoken.load
from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

from tokexplorer.core.bpe import BPE, train_bpe
from tokexplorer.core.errors import InputError
from tokexplorer.core.io import (
    NO_SPLIT_PATTERN,
    oniguruma_pattern,
    sample_text,
    sidecar_path,
    write_gpt2_export,
    write_tiktoken_export,
    write_tokenizer_json,
)
from tokexplorer.core.text import pattern_string
from tokexplorer.core.types import MergeRecord

SPECIALS = ["<|endoftext|>", "<|fim_middle|>"]
#: English, code, Chinese, Japanese, emoji and both specials on top of the sample.
EXTRA = "<|endoftext|>def f(x):\n    return x**2  # 平方\n<|fim_middle|>👩‍🔬 🇯🇵 don't 1234567\r\n"


@pytest.fixture(scope="module", params=["gpt2", "cl100k", "o200k", "none"])
def trained(request):
    bpe, _ = train_bpe(sample_text(), vocab_size=256 + 400 + len(SPECIALS), pattern=request.param,
                       special_tokens=SPECIALS)  # fmt: skip
    return request.param, bpe


def _text() -> str:
    return sample_text() + EXTRA


def test_tiktoken_export_reads_back_with_our_ids(trained, tmp_path):
    pattern, bpe = trained
    path = tmp_path / "m.tiktoken"
    assert write_tiktoken_export(bpe, path) == [path, tmp_path / "m.tiktoken.json"]
    side = json.loads(sidecar_path(path).read_text(encoding="utf-8"))
    assert set(side) == {"name", "source", "pat_str", "special_tokens"}
    assert (side["name"], side["source"]) == (bpe.name, None)  # no name given: the model's own, no source
    assert side["pat_str"] == (pattern_string(pattern) or NO_SPLIT_PATTERN)
    assert side["special_tokens"] == {"<|endoftext|>": 656, "<|fim_middle|>": 657}
    ranks = tiktoken.load.load_tiktoken_bpe(str(path))
    assert ranks == {b: i for i, b in bpe.vocab.items()}  # the ranks are our ids
    enc = tiktoken.Encoding(name="exported", pat_str=side["pat_str"], mergeable_ranks=ranks,
                            special_tokens=side["special_tokens"])  # fmt: skip
    text = _text()
    ours = bpe.encode(text, allowed_special="all")
    assert enc.encode(text, allowed_special="all") == ours
    assert ours.count(656) == 1 and ours.count(657) == 1
    assert len(ours) < len(text.encode("utf-8")) // 2  # merges were used, not bytes
    assert enc.decode(ours) == text


def test_gpt2_export_reads_back_in_tokenizers(tmp_path):
    bpe, _ = train_bpe(sample_text(), vocab_size=256 + 400 + 1, pattern="gpt2", special_tokens=SPECIALS[:1])
    vocab, merges = write_gpt2_export(bpe, tmp_path)
    lines = merges.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "#version: 0.2" and len(lines) == 401
    assert json.loads(vocab.read_text(encoding="utf-8"))["<|endoftext|>"] == 656
    tok = Tokenizer(models.BPE.from_file(str(vocab), str(merges)))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens([AddedToken("<|endoftext|>", special=True)])
    text = _text().replace("<|fim_middle|>", "")
    ours = bpe.encode(text, allowed_special="all")
    assert tok.encode(text).ids == ours
    assert tok.decode(ours, skip_special_tokens=False) == text


def test_gpt2_export_of_a_cl100k_model_differs_in_tokenizers(tmp_path):
    """Why the command notes it: the format carries no pattern; readers split as GPT-2."""
    bpe, _ = train_bpe(sample_text(), vocab_size=256 + 400, pattern="cl100k")
    vocab, merges = write_gpt2_export(bpe, tmp_path)
    tok = Tokenizer(models.BPE.from_file(str(vocab), str(merges)))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    text = "    ids = encode(text)"  # a line of the sample
    assert [bpe.decode([i]) for i in bpe.encode(text)] == ["   ", " ids", " =", " encode", "(text", ")"]
    assert [bpe.decode([i]) for i in tok.encode(text).ids] == ["   ", " ids", " =", " encode", "(", "text", ")"]
    assert (len(bpe.encode(sample_text())), len(tok.encode(sample_text()).ids)) == (843, 879)


def test_tokenizer_json_loads_in_tokenizers_with_our_ids(trained, tmp_path):
    pattern, bpe = trained
    path = write_tokenizer_json(bpe, tmp_path / "tokenizer.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert [(t["id"], t["content"], t["special"]) for t in doc["added_tokens"]] == [
        (656, "<|endoftext|>", True), (657, "<|fim_middle|>", True)]  # fmt: skip
    tok = Tokenizer.from_file(str(path))
    text = _text()
    ours = bpe.encode(text, allowed_special="all")
    assert tok.encode(text).ids == ours
    assert tok.decode(ours, skip_special_tokens=False) == text
    if pattern == "none":
        assert doc["pre_tokenizer"]["type"] == "ByteLevel"
    else:
        split = doc["pre_tokenizer"]["pretokenizers"][0]
        assert split["pattern"]["Regex"] == oniguruma_pattern(pattern_string(pattern))


def test_oniguruma_pattern_keeps_digit_runs_of_three(tmp_path):
    """Oniguruma reads cl100k's ``\\p{N}{1,3}+`` as any run of digits; the rewritten form as we do."""
    bpe, _ = train_bpe("x 34" * 100 + " 123456" * 50, vocab_size=256 + 5, pattern="cl100k")
    assert [bpe.vocab[m.new_id] for m in bpe.merges] == [b"34", b"12", b"123", b"45", b"456"]
    path = write_tokenizer_json(bpe, tmp_path / "tokenizer.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert r"|(?>\p{N}{1,3})|" in doc["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"]
    written = Tokenizer.from_file(str(path))
    doc["pre_tokenizer"]["pretokenizers"][0]["pattern"]["Regex"] = bpe.pat_str  # tiktoken's own spelling
    verbatim = Tokenizer.from_str(json.dumps(doc))
    spell = [bpe.vocab[i] for i in bpe.encode("123456")]
    assert spell == [b"123", b"456"]
    assert [bpe.vocab[i] for i in written.encode("123456").ids] == spell
    assert [bpe.vocab[i] for i in verbatim.encode("123456").ids] == [b"12", b"34", b"5", b"6"]


def test_oniguruma_pattern_rewrites_only_what_differs():
    assert oniguruma_pattern(pattern_string("o200k")) == pattern_string("o200k")  # nothing to rewrite
    assert oniguruma_pattern(pattern_string("gpt2")) == pattern_string("gpt2").replace(r"\s++$", r"\s++\z")
    assert oniguruma_pattern(r"[\]$]{2}+\${1,}+") == r"(?>[\]$]{2})(?>\${1,})"
    with pytest.raises(InputError, match="after a group"):
        oniguruma_pattern(r"(ab){1,3}+")
    with pytest.raises(InputError, match="ends inside"):
        oniguruma_pattern(r"[abc")


def test_a_byte_string_under_two_ids_is_refused(tmp_path):
    m = [MergeRecord(0, 97, 98, 256, b"ab", 1), MergeRecord(1, 256, 99, 257, b"abc", 1),
         MergeRecord(2, 98, 99, 258, b"bc", 1), MergeRecord(3, 97, 258, 259, b"abc", 1)]  # fmt: skip
    bpe = BPE(m, pattern="none")
    with pytest.raises(InputError, match=r"token b'abc' has two ids \(257 and 259\)"):
        write_tiktoken_export(bpe, tmp_path / "m.tiktoken")
    with pytest.raises(InputError, match="two ids"):
        write_gpt2_export(bpe, tmp_path)
    with pytest.raises(InputError, match="two ids"):
        write_tokenizer_json(bpe, tmp_path / "tokenizer.json")
    assert list(tmp_path.iterdir()) == []
