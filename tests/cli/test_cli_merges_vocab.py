"""``tokexplorer merges`` says what the vocabulary holds for every BPE kind: a Hugging Face
``tokenizer.json`` too, in the library's terms (model vocab, added and special tokens)."""

from __future__ import annotations

from tokenizers import Tokenizer, models

from fixtures import hf
from tokexplorer.cli import main


def test_merges_of_a_tokenizer_json_note_its_vocab(tmp_path, capsys):
    path = hf.save(hf.byte_level_bpe(), tmp_path)
    lib = Tokenizer.from_file(str(path))
    model = lib.get_vocab(with_added_tokens=False)
    assert (len(model), lib.get_vocab_size(with_added_tokens=True)) == (320, 320)  # specials trained in
    assert main(["merges", str(path)]) == 0
    out, err = capsys.readouterr()
    n_merges = len(out.splitlines())
    assert n_merges == 320 - 256 - 2  # 256 bytes, <|endoftext|> and <s>, then one token per merge
    assert err == f"tokexplorer: note: {path}: vocab 320 tokens (320 in the model's vocab; 2 special); 62 merges\n"


def test_added_tokens_outside_the_model_vocab_are_counted(tmp_path, capsys):
    lib = Tokenizer(models.BPE(vocab={"a": 0, "b": 1, "ab": 2, "c": 3}, merges=[("a", "b")]))
    lib.add_tokens(["<x>"])  # added, not special
    lib.add_special_tokens(["<s>"])
    assert lib.get_added_tokens_decoder().keys() == {4, 5}
    path = tmp_path / "tokenizer.json"
    lib.save(str(path))
    assert main(["merges", str(path)]) == 0
    out, err = capsys.readouterr()
    assert out == "0\ta\tb\tab\t-\n"
    assert err.splitlines()[-1] == (
        f"tokexplorer: note: {path}: vocab 6 tokens (4 in the model's vocab + 2 added; 1 special); 1 merges"
    )
