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
    n = len(wp.merges)
    alphabet = 400 - 5 - n
    assert captured.out.startswith(
        f"learned {n} of {n} WordPiece pieces ({n} merges); vocab 400 = 5 special tokens + {alphabet} alphabet pieces"
        f" + {n} learned; "
    ) and captured.out.endswith(f" s; saved to {out}\n")
    assert "note: no special tokens given: BERT's [PAD] [UNK] [CLS] [SEP] [MASK] are ids 0-4" in captured.err


def test_encode_json_and_export_vocab_txt_read_by_tokenizers(tmp_path, capsys):
    _, model, _ = _train(tmp_path, capsys, "--lowercase", "--strip-accents")
    text = "Tokenizers, byte-level BPE and Émile's naïve WordPiece!"
    assert main(["encode", "--tokenizer", f"wordpiece:{model}", "--json", "--text", text]) == 0
    ids = json.loads(capsys.readouterr().out)["ids"]
    vocab = tmp_path / "vocab.txt"
    assert main(["export", f"wordpiece:{model}", "--format", "vocab.txt", "-o", str(vocab)]) == 0
    captured = capsys.readouterr()
    assert captured.out.split() == [str(vocab), str(tmp_path / "tokenizer_config.json")]
    assert "tokenizer_config.json beside it holds do_lower_case=True, strip_accents=True" in captured.err
    hf = Tokenizer(models.WordPiece.from_file(str(vocab), unk_token="[UNK]"))
    hf.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=True)
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    assert hf.encode(text, add_special_tokens=False).ids == ids


def test_wrong_pairs_of_flags_are_usage_errors_and_models_that_cannot_be_exported_input_errors(tmp_path, capsys):
    code, _, captured = _train(tmp_path, capsys, "--byte-fallback")
    assert code == 2 and "--byte-fallback applies to --algorithm sp-bpe or sp-unigram (SentencePiece) only, " \
        "not wordpiece" in captured.err  # fmt: skip
    _, model, _ = _train(tmp_path, capsys)
    assert main(["export", f"wordpiece:{model}", "--format", "tiktoken", "-o", str(tmp_path / "x")]) == 1
    assert "a WordPiece exports as vocab.txt only" in capsys.readouterr().err
    code, model, _ = _train(tmp_path, capsys, "--pattern", "gpt2")
    assert code == 0
    assert main(["export", f"wordpiece:{model}", "--format", "vocab.txt", "-o", str(tmp_path / "v.txt")]) == 1
    assert "trained with the gpt2 pre-tokenizer: train it with the bert pre-tokenizer (--pattern bert) to export it\n" \
        in capsys.readouterr().err  # the core names the setting, the command line its flag


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
    # the exported vocab.txt opens as BERT's WordPiece, its normalizer read from tokenizer_config.json
    assert main(["encode", "--tokenizer", str(vocab), "--no-add-special-tokens", "--text", text]) == 0
    captured = capsys.readouterr()
    assert captured.out == prefixed
    assert "lowercased, accents kept: do_lower_case and strip_accents of tokenizer_config.json" in captured.err


ACCENTED = "Café naïve résumé: the café served a naïve résumé. " * 40


def _ids(capsys, spec: str, text: str) -> list[int]:
    assert main(["encode", "--tokenizer", spec, "--no-add-special-tokens", "--json", "--text", text]) == 0
    return json.loads(capsys.readouterr().out)["ids"]


def test_export_reopens_to_the_same_ids_and_a_bare_vocab_txt_says_what_it_assumes(tmp_path, capsys):
    """Lower-cased, accents kept: the export reads back (ours and BertTokenizer's keys) to the same ids;
    without its tokenizer_config.json, vocab.txt is read as BERT reads it (accents stripped), said in a note."""
    corpus = tmp_path / "c.txt"
    corpus.write_text(sample_text() + ACCENTED, encoding="utf-8")
    model = tmp_path / "m.wordpiece"
    args = ["train", str(corpus), "--algorithm", "wordpiece", "--vocab-size", "500", "--lowercase", "-o", str(model)]
    assert main(args) == 0
    vocab = tmp_path / "exp" / "vocab.txt"
    vocab.parent.mkdir()
    assert main(["export", f"wordpiece:{model}", "--format", "vocab.txt", "-o", str(vocab)]) == 0
    capsys.readouterr()
    text = "café naïve résumé " + sample_text()[:3000]
    ours = _ids(capsys, f"wordpiece:{model}", text)
    assert _ids(capsys, str(vocab), text) == ours
    pieces = vocab.read_text(encoding="utf-8").splitlines()
    first = "".join(pieces[i] for i in ours[:12])
    assert "é" in first and "ï" in first  # accents kept, as trained
    # a BertTokenizer-style reader: the normalizer's options from tokenizer_config.json
    cfg = json.loads((vocab.parent / "tokenizer_config.json").read_text(encoding="utf-8"))
    assert (cfg["tokenizer_class"], cfg["do_lower_case"], cfg["strip_accents"]) == ("BertTokenizer", True, False)
    hf = Tokenizer(models.WordPiece.from_file(str(vocab), unk_token=cfg["unk_token"]))
    hf.normalizer = normalizers.BertNormalizer(lowercase=cfg["do_lower_case"], strip_accents=cfg["strip_accents"])
    hf.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    assert hf.encode(text, add_special_tokens=False).ids == ours
    # vocab.txt alone: BERT's uncased default strips accents, and the note says it assumed so
    (vocab.parent / "tokenizer_config.json").unlink()
    assert main(["encode", "--tokenizer", str(vocab), "--no-add-special-tokens", "--json", "--text", text]) == 0
    captured = capsys.readouterr()
    bare = json.loads(captured.out)["ids"]
    assert "lowercased, accents stripped: assumed, no upper-case token in the vocabulary" in captured.err
    hf.normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=None)
    assert bare == hf.encode(text, add_special_tokens=False).ids != ours


def test_export_vocab_txt_says_what_loading_noted(tmp_path, capsys):
    """The load notes encode prints: the file of a folder used, a --pattern not used."""
    _, model, _ = _train(tmp_path, capsys, "--lowercase")
    folder = tmp_path / "wp"
    folder.mkdir()
    (folder / "m.wordpiece").write_bytes(model.read_bytes())
    vocab = tmp_path / "vocab.txt"
    assert main(["encode", "--tokenizer", str(folder), "--pattern", "gpt2", "--text", "hi", "--count"]) == 0
    loaded = capsys.readouterr().err.splitlines()
    assert loaded == [
        f"tokexplorer: note: folder {folder}: using m.wordpiece",
        "tokexplorer: note: pattern 'gpt2' not used: m.wordpiece (WordPiece) carries its own split pattern",
    ]
    assert main(["export", str(folder), "--pattern", "gpt2", "--format", "vocab.txt", "-o", str(vocab)]) == 0
    assert capsys.readouterr().err.splitlines()[:2] == loaded


def test_export_says_when_it_writes_over_another_vocab_txts_config(tmp_path, capsys):
    _, cased, _ = _train(tmp_path, capsys)
    lower = tmp_path / "lower.wordpiece"
    corpus = tmp_path / "c.txt"
    assert main(["train", str(corpus), "--algorithm", "wordpiece", "--vocab-size", "300", "--lowercase",
                 "--strip-accents", "-o", str(lower)]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["export", f"wordpiece:{cased}", "--format", "vocab.txt", "-o", str(tmp_path / "vocab.txt")]) == 0
    assert "written over" not in capsys.readouterr().err  # nothing was there
    assert main(["export", f"wordpiece:{cased}", "--format", "vocab.txt", "-o", str(tmp_path / "vocab.txt")]) == 0
    assert "written over" not in capsys.readouterr().err  # the same settings: nothing to say
    assert main(["export", f"wordpiece:{lower}", "--format", "vocab.txt", "-o", str(tmp_path / "lower.txt")]) == 0
    assert ("note: tokenizer_config.json there holds do_lower_case=False, strip_accents=False; written over with "
            "do_lower_case=True, strip_accents=True (a vocab.txt read with it before is read otherwise now)"
            in capsys.readouterr().err)  # fmt: skip
    assert json.loads((tmp_path / "tokenizer_config.json").read_text(encoding="utf-8"))["do_lower_case"] is True


PIECES = "alphabet pieces (first characters and ## continuations)"


def test_a_chinese_corpus_with_too_small_a_vocab_is_refused_before_counting(tmp_path, capsys, monkeypatch):
    from tokexplorer.core.wordpiece import trainer

    pre_tokenized: list[int] = []
    real = trainer.normalize
    monkeypatch.setattr(trainer, "normalize", lambda block, **o: pre_tokenized.append(len(block)) or real(block, **o))
    chars = [chr(0x4E00 + i) for i in range(4200)]
    corpus = tmp_path / "zh.txt"
    corpus.write_text("\n".join("".join(chars[i : i + 60]) for i in range(0, 4200, 60)) + "\n", encoding="utf-8")
    out = tmp_path / "m.wordpiece"
    code = main(["train", str(corpus), "--algorithm", "wordpiece", "--vocab-size", "4096", "-o", str(out)])
    assert code == 1 and not out.exists() and pre_tokenized == []
    assert capsys.readouterr().err.splitlines()[-1] == (
        "tokexplorer: error: vocab_size 4,096 is too small: before counting the words, the corpus's distinct "
        f"characters already need at least 4,200 {PIECES} + 5 special tokens; use at least 4,205 (counting the "
        "words may show more)"
    )


def test_refused_after_the_block_whose_words_need_more(tmp_path, capsys, monkeypatch):
    from tokexplorer.core.wordpiece import trainer

    monkeypatch.setattr(trainer, "BLOCK_CHARS", 1000)  # blocks of 1,000 characters, cut at the next line start
    pre_tokenized: list[int] = []
    real = trainer.normalize
    monkeypatch.setattr(trainer, "normalize", lambda block, **o: pre_tokenized.append(len(block)) or real(block, **o))
    letters = [chr(c) for c in range(0x430, 0x450)]  # а..я, each first once and second once below
    line = " ".join(a + b for a, b in zip(letters, letters[1:] + letters[:1]))
    corpus = tmp_path / "ru.txt"
    corpus.write_text((line + "\n") * 50, encoding="utf-8")  # 96 characters a line, 4,800
    out = tmp_path / "m.wordpiece"
    code = main(["train", str(corpus), "--algorithm", "wordpiece", "--vocab-size", "60", "-o", str(out)])
    assert code == 1 and not out.exists()
    assert pre_tokenized == [1056]  # the first block only
    assert capsys.readouterr().err.splitlines()[-1] == (
        "tokexplorer: error: vocab_size 60 is too small: counting stopped at 22% of the corpus (1,056 of 4,800 "
        f"characters), whose words already need 64 {PIECES} + 5 special tokens; use at least 69 (the rest may "
        "need more)"
    )
