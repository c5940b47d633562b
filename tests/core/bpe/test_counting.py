"""Chunk counting: safe cuts, process pool, files read in ranges."""

from __future__ import annotations

from collections import Counter

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from tokexplorer.core.bpe import (
    count_files,
    count_texts,
    counting,
    plan_file_ranges,
    run,
    safe_pieces,
    train_bpe,
)
from tokexplorer.core.errors import Cancelled, CorpusError
from tokexplorer.core.text import PATTERNS

LINES = [
    "The cat sat.\n", "  indented line\n", "数字 123456 and 你好世界\n", "\n", "\r\n", "x\n",
    "emoji 👩\u200d🔬 ok\n", "tab\there\n", "'s 'll 've\n", "!!!\n", "1\n", "é\n",
]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LINES + ["a", " ", "\n\n", "Ab", "　", "\u3000\n", " x", "é ", "1 "]), max_size=60),
       st.sampled_from(["gpt2", "cl100k", "o200k"]), st.integers(1, 40))
def test_safe_pieces_give_exact_counts(parts, pattern, size):
    text = "".join(parts)
    pieces = list(safe_pieces(text, size))
    assert "".join(pieces) == text
    whole = Counter(regex.findall(PATTERNS[pattern], text))
    cut: Counter = Counter()
    for p in pieces:
        cut.update(regex.findall(PATTERNS[pattern], p))
    assert cut == whole


def big_text() -> str:
    return "".join(LINES) * 12000  # about 1.9 M characters


def test_pool_counts_equal_single_process(monkeypatch):
    monkeypatch.setattr(counting, "POOL_MIN_CHARS", 1000)
    monkeypatch.setattr(counting, "POOL_PIECE_CHARS", 200_000)
    text = big_text()
    texts = [text, "second text without newline", "<|endoftext|> tail"]
    one = run(count_texts(texts, pattern="cl100k", special_tokens=["<|endoftext|>"], workers=1))
    two = run(count_texts(texts, pattern="cl100k", special_tokens=["<|endoftext|>"], workers=2))
    assert one == two
    assert one[1] == 1
    assert one[0]["数字"] == 12000
    assert one[0][" tail"] == 1


def test_files_counted_in_ranges_equal_text(tmp_path, monkeypatch):
    monkeypatch.setattr(counting, "POOL_PIECE_CHARS", 100_000)
    text = big_text()
    p = tmp_path / "c.txt"
    p.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    ranges = plan_file_ranges(str(p), 100_000)
    assert len(ranges) > 5
    assert ranges[0][0] == 0 and ranges[-1][1] == p.stat().st_size
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    want = run(count_texts([text], pattern="gpt2", workers=1))
    for workers in (1, 2):
        got = run(count_files([p], pattern="gpt2", workers=workers))
        assert got == want


def test_file_decode_error_names_offset(tmp_path):
    p = tmp_path / "bad.txt"
    p.write_bytes(b"good text\n" + "汉字".encode("gbk"))
    with pytest.raises(CorpusError, match=r"bad.txt: not valid UTF-8 at byte 10"):
        run(count_files([p], workers=1))
    counts, _ = run(count_files([p], encoding="gbk", workers=1))
    assert counts["汉字"] == 1


@pytest.mark.parametrize(
    ("encoding", "data", "chunk"),
    [
        ("utf-7", b"a +2AA- b", " \ufffd"),  # UTF-7 decodes +2AA- to a lone U+D800: cleaned
        ("utf-8", "a \U0001f469 b".encode(), " \U0001f469"),  # never a surrogate: not looked for
        ("utf-8", b"a \xed\xa0\x80 b", " \ufffd\ufffd\ufffd"),  # an encoded surrogate: 3 replacements
    ],
)
def test_a_file_range_counts_no_surrogate(tmp_path, encoding, data, chunk):
    p = tmp_path / "s.txt"
    p.write_bytes(data)
    counts, _ = run(count_files([p], encoding=encoding, errors="replace", workers=1))
    assert counts == Counter({"a": 1, chunk: 1, " b": 1})


def test_train_from_files_equals_train_from_text(tmp_path):
    text = "".join(LINES) * 50
    p = tmp_path / "c.txt"
    p.write_text(text, encoding="utf-8")
    a, _ = train_bpe(text, vocab_size=400)
    b, _ = train_bpe((), vocab_size=400, files=[p])
    assert a.merges == b.merges


def test_cancel_stops_counting():
    with pytest.raises(Cancelled):
        run(count_texts([big_text()], cancel=lambda: True, workers=1))
