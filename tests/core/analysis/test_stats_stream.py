"""Statistics of a streamed corpus (issue 14.3): read in pieces, equal to the in-memory result."""

from __future__ import annotations

from pathlib import Path

import pytest

from fixtures.multilingual import multilingual_text
from fixtures.stats import FILE_A, FILE_B, fixture_tokenizers
from tokexplorer.core.analysis import compute_stats, stats_pieces, streamed_stats_iter
from tokexplorer.core.backends import BPETokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import Cancelled
from tokexplorer.core.io import load_corpus, stream_corpus
from tokexplorer.core.types import run_to_end


@pytest.fixture(scope="module")
def toks():
    return fixture_tokenizers()


def _folder(tmp_path: Path, texts: dict[str, str]) -> Path:
    for name, text in texts.items():
        (tmp_path / name).write_bytes(text.encode("utf-8"))
    return tmp_path


def _both(folder: Path, toks, *, piece_chars: int, special: str = "plain"):
    whole = load_corpus(folder)
    streamed = run_to_end(stream_corpus(folder, stream_bytes=1, piece_bytes=7))
    assert streamed.streamed
    memory = compute_stats(toks, [(f.name, f.text) for f in whole.files], special=special)
    pieces = run_to_end(streamed_stats_iter(toks, streamed.files, special=special, piece_chars=piece_chars))
    return memory, pieces


@pytest.mark.parametrize("special", ["plain", "special", "raise"])
def test_streamed_statistics_equal_the_in_memory_ones(tmp_path, toks, special):
    folder = _folder(tmp_path, {"a.txt": FILE_A * 3, "b.txt": FILE_B * 2, "c.txt": "", "d.txt": "no line end"})
    memory, pieces = _both(folder, toks, piece_chars=1_000_000, special=special)
    assert pieces.files == memory.files == ("a.txt", "b.txt", "c.txt", "d.txt")
    assert pieces.rows() == memory.rows()
    assert [t.notes for t in pieces.tokenizers] == [t.notes for t in memory.tokenizers]
    if special == "raise":  # <|endoftext|> in the text fails the two tokenizers that know it as special
        assert [t.error is not None for t in pieces.tokenizers] == [True, True, False]


def test_small_pieces_keep_the_counts_of_exact_tokenizers(tmp_path, toks):
    folder = _folder(tmp_path, {"a.txt": FILE_A * 40, "b.txt": FILE_B * 40})
    whole_text, _ = train_bpe([FILE_A, FILE_B], vocab_size=300, pattern="none")  # merges cross every cut
    loose_tok = BPETokenizer(whole_text)
    loose_tok.set_name("no pattern")
    with_whole = [*toks, loose_tok]
    memory, pieces = _both(folder, with_whole, piece_chars=500)
    assert len(list(stats_pieces(load_corpus(folder).files[0], piece_chars=500))) > 5
    # BPE and cl100k (counted from ids) give every row; SP120 (counted from spans) its totals
    # and files: a piece of SentencePiece tokens ends at a cut, so a token no longer crosses
    # into a line of another script there and the per-script rows may move by a token
    def rows(stats, kinds):
        return [r for r in stats.rows() if r["tokenizer"] != "no pattern" and
                (r["tokenizer"] != "SP120" or r["group_kind"] in kinds)]  # fmt: skip

    assert rows(pieces, ("total", "file")) == rows(memory, ("total", "file"))
    loose = pieces.tokenizers[3]
    assert loose.notes[-1].startswith("counted in pieces of about 500 characters (the corpus is streamed)")
    assert loose.total.lines == memory.tokenizers[3].total.lines == 320
    assert loose.total.tokens != memory.tokenizers[3].total.tokens


def test_pieces_join_to_the_text_and_end_after_a_line(tmp_path):
    text = "x" * 50 + "\n" + "Line two\n" * 30 + "tail without cut"
    f = load_corpus(_folder(tmp_path, {"a.txt": text})).files[0]
    got = list(stats_pieces(f, piece_chars=40))
    assert "".join(got) == text
    assert all(p.endswith("\n") for p in got[:-1]) and got[0] == "x" * 50 + "\n"


def test_cancel(tmp_path, toks):
    folder = _folder(tmp_path, {"a.txt": FILE_A * 20})
    corpus = run_to_end(stream_corpus(folder, stream_bytes=1))
    with pytest.raises(Cancelled):
        run_to_end(streamed_stats_iter(toks, corpus.files, cancel=lambda: True))


def test_multilingual_text_in_pieces(tmp_path, toks):
    """200 kB of many scripts, emoji sequences and every line ending, in pieces of
    20,000 characters: the rows of reading it whole."""
    folder = tmp_path / "ml"
    folder.mkdir()
    (folder / "ml.txt").write_text(multilingual_text(40_000, seed=7), encoding="utf-8", newline="")
    memory, pieces = _both(folder, toks[:2], piece_chars=20_000)
    assert pieces.rows() == memory.rows()


def test_closing_the_generator_closes_the_piece_under_way(tmp_path, toks, monkeypatch):
    import gc
    import sys

    unraisable = []
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    folder = _folder(tmp_path, {"a.txt": FILE_A * 20})
    corpus = run_to_end(stream_corpus(folder, stream_bytes=1))
    cancelled = {"v": False}
    steps = streamed_stats_iter(toks, corpus.files, cancel=lambda: cancelled["v"])
    next(steps)
    cancelled["v"] = True  # a worker cancels, then closes the generator
    steps.close()  # the piece under way is closed with it, cleanly
    del steps
    gc.collect()
    assert unraisable == []  # (left to the collector, it printed "Exception ignored" at quit)
