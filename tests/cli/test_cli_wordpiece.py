"""tokexplorer train --algorithm wordpiece, encode with wordpiece:PATH, export --format vocab.txt."""

from __future__ import annotations

import json

from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

from tokexplorer.cli import main
from tokexplorer.core.io import load_wordpiece, sample_text


def _train(tmp_path, capsys, *extra):
    corpus = tmp_path / "c.txt"
    corpus.write_text(sample_text(), encoding="utf-8")
    out = tmp_path / "m.wordpiece"
    code = main(["train", str(corpus), "--algorithm", "wordpiece", "--vocab-size", "400", "-o", str(out), *extra])
    return code, out, capsys.readouterr()


def test_train_saves_a_wordpiece_and_reports(tmp_path, capsys):
    code, out, captured = _train(tmp_path, capsys, "--lowercase")
    assert code == 0
    wp = load_wordpiece(out)
    assert wp.vocab_size == 400 and wp.lowercase and not wp.strip_accents and wp.pattern == "bert"
    assert captured.out.startswith(f"learned {400 - wp.vocab.index(wp.merges[0].merged)} of ")
    assert "note: no special tokens given: BERT's [PAD] [UNK] [CLS] [SEP] [MASK] are ids 0-4" in captured.err


def test_encode_json_and_export_vocab_txt_read_by_tokenizers(tmp_path, capsys):
    _, model, _ = _train(tmp_path, capsys, "--lowercase", "--strip-accents")
    text = "Tokenizers, byte-level BPE and Émile's naïve WordPiece!"
    assert main(["encode", "--tokenizer", f"wordpiece:{model}", "--json", "--text", text]) == 0
    ids = json.loads(capsys.readouterr().out)["ids"]
    vocab = tmp_path / "vocab.txt"
    assert main(["export", f"wordpiece:{model}", "--format", "vocab.txt", "-o", str(vocab)]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == str(vocab)
    assert "read it with lowercase=True, strip_accents=True" in captured.err
    hf = Tokenizer(models.WordPiece.from_file(str(vocab), unk_token="[UNK]"))
    hf.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=True)
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    assert hf.encode(text, add_special_tokens=False).ids == ids


def test_wrong_pairs_of_flags_are_usage_errors(tmp_path, capsys):
    code, _, captured = _train(tmp_path, capsys, "--byte-fallback")
    assert code == 2 and "--byte-fallback applies to --algorithm sp-bpe or sp-unigram (SentencePiece) only, " \
        "not wordpiece" in captured.err  # fmt: skip
    _, model, _ = _train(tmp_path, capsys)
    assert main(["export", f"wordpiece:{model}", "--format", "tiktoken", "-o", str(tmp_path / "x")]) == 2
    assert "a WordPiece exports as vocab.txt only" in capsys.readouterr().err
    code, model, _ = _train(tmp_path, capsys, "--pattern", "gpt2")
    assert code == 0
    assert main(["export", f"wordpiece:{model}", "--format", "vocab.txt", "-o", str(tmp_path / "v.txt")]) == 2
    assert "trained with the gpt2 pre-tokenizer: train it with --pattern bert" in capsys.readouterr().err


def test_a_bare_wordpiece_path_is_told_by_content(tmp_path, capsys):
    """Our WordPiece file opens and exports from a bare path (no wordpiece: prefix), renamed too."""
    _, model, _ = _train(tmp_path, capsys, "--lowercase")
    renamed = tmp_path / "model.json"
    renamed.write_bytes(model.read_bytes())
    text = "Playing unbelievable things"
    assert main(["encode", "--tokenizer", f"wordpiece:{model}", "--text", text]) == 0
    prefixed = capsys.readouterr().out
    assert main(["encode", "--tokenizer", str(renamed), "--text", text]) == 0
    assert capsys.readouterr().out == prefixed
    vocab = tmp_path / "vocab.txt"
    assert main(["export", str(renamed), "--format", "vocab.txt", "-o", str(vocab)]) == 0
    capsys.readouterr()
    # the exported vocab.txt opens as BERT's WordPiece (no upper-case tokens: lower-cased, noted)
    assert main(["encode", "--tokenizer", str(vocab), "--no-add-special-tokens", "--text", text]) == 0
    captured = capsys.readouterr()
    assert captured.out == prefixed
    assert "lowercased: the vocabulary has no upper-case tokens" in captured.err
