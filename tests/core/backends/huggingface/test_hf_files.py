"""Opening tokenizer.json files: the hf: spec, names, and one-line errors for bad files."""

from __future__ import annotations

import pytest

from fixtures import hf
from tokexplorer.core.backends import (
    HuggingFaceTokenizer,
    load_tokenizer,
    load_tokenizers,
    name_distinctly,
    parse_spec,
)
from tokexplorer.core.errors import InputError, ModelFormatError


def test_parse_hf_spec():
    assert parse_spec("hf:models/a:b/tokenizer.json") == ("hf", "models/a:b/tokenizer.json")
    assert parse_spec("HF:tokenizer.json") == ("hf", "tokenizer.json")


def test_names_say_the_file_and_the_model_type(tmp_path):
    bpe = load_tokenizer(f"hf:{hf.save(hf.byte_level_bpe(), tmp_path / 'gpt')}")
    wp = load_tokenizer(f"hf:{hf.save(hf.wordpiece(), tmp_path / 'bert')}")
    uni = load_tokenizer(f"hf:{hf.save(hf.unigram(), tmp_path / 't5')}")
    assert [t.name for t in (bpe, wp, uni)] == [
        "tokenizer.json (Hugging Face BPE)",
        "tokenizer.json (Hugging Face WordPiece)",
        "tokenizer.json (Hugging Face Unigram)",
    ]
    assert bpe.family == "huggingface" and bpe.source_file == (tmp_path / "gpt" / "tokenizer.json").absolute()
    assert wp.description == (
        "tokenizer.json (Hugging Face WordPiece) · BertNormalizer → BertPreTokenizer → WordPiece → "
        "BertProcessing · 15 tokens"
    )
    assert (
        uni.description
        == "tokenizer.json (Hugging Face Unigram) · NFKC → Metaspace → Unigram → TemplateProcessing · 19 tokens"
    )
    assert HuggingFaceTokenizer(hf.wordpiece()).name == "Hugging Face WordPiece"


def test_two_files_of_one_name_are_told_apart_by_folder(tmp_path):
    a = hf.save(hf.wordpiece(), tmp_path / "a")
    b = hf.save(hf.wordpiece(), tmp_path / "b")
    toks = load_tokenizers([f"hf:{a}", f"hf:{b}"])
    assert [t.name for t in toks] == [
        "a/tokenizer.json (Hugging Face WordPiece)",
        "b/tokenizer.json (Hugging Face WordPiece)",
    ]
    assert name_distinctly(toks[:1]) == ["tokenizer.json (Hugging Face WordPiece)"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json at all", "bad.json is not a tokenizer.json (not JSON: Expecting value at line 1)"),
        (b"\xff\xfe\x00", "bad.json is not a tokenizer.json (not UTF-8 text)"),
        (b'{"version": "1.0"}', 'bad.json is JSON but not a tokenizer.json (no "model" section)'),
        (b"[1, 2]", 'bad.json is JSON but not a tokenizer.json (no "model" section)'),
        (
            b'{"model": {"type": "Foo"}}',
            "bad.json: the tokenizers library cannot read it: data did not match any variant",
        ),
    ],
)
def test_bad_files_get_one_line(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(ModelFormatError) as err:
        load_tokenizer(f"hf:{path}")
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_truncated_file(tmp_path):
    full = hf.save(hf.wordpiece(), tmp_path).read_bytes()
    path = tmp_path / "cut.json"
    path.write_bytes(full[: len(full) // 2])
    with pytest.raises(ModelFormatError, match=r"^cut.json is not a tokenizer.json \(not JSON: "):
        HuggingFaceTokenizer.from_file(path)


def test_missing_file_and_folder(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        load_tokenizer(f"hf:{tmp_path / 'nope.json'}")
    with pytest.raises(InputError, match="is a folder"):
        load_tokenizer(f"hf:{tmp_path}")
