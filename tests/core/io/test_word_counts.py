"""The word-count table file: written, read back, and refused when damaged."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

import pytest

from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.io import WordCounts, load_word_counts, save_word_counts
from tokexplorer.core.io.word_counts import _rows_at_once, _rows_by_line, dumps_word_counts, loads_word_counts
from tokexplorer.core.training import TrainingRequest, train

TABLE = WordCounts(
    Counter({" the": 5, "分词": 3, "\n": 3, "\t\r": 1, "👩\u200d🔬": 2}),
    pattern="cl100k",
    special_tokens=("<|endoftext|>", "<|a b|>"),
    special_seen=4,
    files=2,
    bytes=1234,
)


def test_round_trip_keeps_every_field(tmp_path):
    path = tmp_path / "t.counts"
    save_word_counts(TABLE, path)
    back = load_word_counts(path)
    assert back == TABLE
    assert back.special_tokens == ("<|endoftext|>", "<|a b|>")


def test_the_file_is_the_documented_text():
    lines = dumps_word_counts(TABLE).split("\n")
    assert lines[:8] == [
        "tokexplorer-word-counts 1",
        "pattern: cl100k",
        "special-tokens: PHxlbmRvZnRleHR8Pg== PHxhIGJ8Pg==",
        "special-spellings-cut: 4",
        "files: 2",
        "bytes: 1234",
        "chunks: 5",
        "",
    ]
    # most frequent first, ties by bytes ("\n" < "分词" in UTF-8)
    assert lines[8:] == ["IHRoZQ==\t5", "Cg==\t3", "5YiG6K+N\t3", "8J+RqeKAjfCflKw=\t2", "CQ0=\t1", ""]


def test_the_text_does_not_depend_on_the_order_the_table_was_filled_in():
    backwards = replace(TABLE, counts=Counter(dict(reversed(TABLE.counts.items()))))
    assert list(backwards.counts) != list(TABLE.counts)
    assert dumps_word_counts(backwards) == dumps_word_counts(TABLE)


def test_rows_read_at_once_are_the_rows_read_line_by_line():
    body = dumps_word_counts(TABLE).split("\n\n", 1)[1]
    assert _rows_at_once(body) == _rows_by_line(body, 8) == TABLE.counts
    # what is not as written goes line by line: a leading zero still reads, a repeat does not
    zero = body.replace("Cg==\t3", "Cg==\t03")
    assert _rows_at_once(zero) is None
    assert _rows_by_line(zero, 8)["\n"] == 3
    assert _rows_at_once(body.replace("Cg==\t3", "IHRoZQ==\t3")) is None
    assert _rows_at_once(body.replace("5YiG6K+N", "/w==")) is None  # byte 0xFF: not UTF-8


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda t: t.replace("word-counts 1", "word-counts 2"), "word-count table version '2'; this version reads 1"),
        (lambda t: "hello\n" + t, "not a word-count table"),
        (lambda t: t.replace("pattern: cl100k", "pattern: llama3"), "unknown pattern 'llama3'"),
        (lambda t: t.replace("files: 2", "filez: 2"), "line 5: unknown header line 'filez: 2'"),
        (lambda t: t.replace("chunks: 5\n", ""), "the header has no 'chunks' line"),
        (lambda t: t.replace("Cg==\t3", "Cg==\tx"), "line 10: the count must be a non-negative integer"),
        (lambda t: t.replace("Cg==\t3", "Cg==\t0"), "line 10: count 0"),
        (lambda t: t.replace("Cg==\t3", "C!==\t3"), "line 10: the chunk is not base64 of UTF-8 text"),
        (lambda t: t.replace("Cg==\t3", "IHRoZQ==\t3"), "line 10: a repeated chunk"),
        (lambda t: t.rsplit("\n", 2)[0] + "\n", "the header says 5 chunks but the file holds 4 (cut short?)"),
    ],
)
def test_damaged_tables_are_refused_with_the_line(edit, message):
    with pytest.raises(ModelFormatError, match="^" + re.escape(message)):
        loads_word_counts(edit(dumps_word_counts(TABLE)))


def test_load_names_the_file(tmp_path):
    path = tmp_path / "x.counts"
    path.write_text("tokexplorer-word-counts 9\n", encoding="utf-8")
    with pytest.raises(ModelFormatError, match="^x.counts: word-count table version '9'"):
        load_word_counts(path)
    with pytest.raises(InputError, match="^no such file: "):
        load_word_counts(tmp_path / "missing.counts")


def test_training_refuses_another_pattern_or_other_specials(tmp_path):
    path = tmp_path / "t.counts"
    save_word_counts(TABLE, path)
    with pytest.raises(InputError, match="split with the cl100k pattern, not gpt2; count again"):
        train(TrainingRequest(algorithm="bpe", vocab_size=300, word_counts=str(path), pattern="gpt2"))
    with pytest.raises(InputError, match=re.escape("made with the special tokens <|endoftext|>, <|a b|>; count again")):
        train(TrainingRequest(algorithm="bpe", vocab_size=300, word_counts=str(path), special_tokens=["<s>"]))
    with pytest.raises(InputError, match="trains the bpe algorithm only, not sp-bpe"):
        train(TrainingRequest(algorithm="sp-bpe", vocab_size=300, word_counts=str(path)))
    outcome = train(TrainingRequest(algorithm="bpe", vocab_size=270, word_counts=str(path)))
    assert outcome.bpe.pattern_name == "cl100k"
    assert outcome.bpe.special_tokens == {"<|endoftext|>": 268, "<|a b|>": 269}
    # " the" x5 is the most frequent pair source: ' ' + 't' first
    assert outcome.bpe.merges[0].merged == b" t" and outcome.bpe.merges[0].count == 5
