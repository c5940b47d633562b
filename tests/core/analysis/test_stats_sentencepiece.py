"""SentencePiece statistics from piece columns (issue 14): the counts of each block are
those the tokens with spans give (``span_block``, the reference path the other
families without byte-level ids take), on multilingual text with CRLF, emoji
sequences, combining marks, unknown pieces and byte fallback.

Values: sentencepiece 0.2.3 with the fixture models SP120, SPID, SPBF.
"""

from __future__ import annotations

import pytest

from fixtures.multilingual import multilingual_text
from fixtures.stats import FILES
from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.analysis.stats_blocks import span_block
from tokexplorer.core.analysis.stats_lines import block_lines
from tokexplorer.core.analysis.stats_sentencepiece import piece_block
from tokexplorer.core.errors import SpecialTokenError

BLOCKS = [
    multilingual_text(600, seed=5),
    multilingual_text(300, seed=8) + "no line end",
    "\U0001f469\u200d\U0001f52c lab\r\nok e\u0301 ok\r\n\U0001f1ef\U0001f1f5 \U0001f44b\U0001f3fd\n",
    "x\u4e2d\r\n  lead and trail  \n\n",
    "",
]


@pytest.mark.parametrize("name", ["SP120", "SPID", "SPBF"])
@pytest.mark.parametrize("special", ["plain", "special"])
def test_piece_block_counts_what_spans_count(sp_models, name, special):
    tok = sp_models[name]
    for block in BLOCKS:
        for last in (True, False):
            bl = block_lines(block, last_block=last)
            assert piece_block(tok, bl, special) == span_block(tok, bl, special), (block[:40], last)


def test_the_cases_the_columns_must_get_right_are_there(sp_models):
    """The blocks above hold parts of graphemes (SPID keeps the text exact), partial
    byte pieces (SPBF) and unknown pieces (SP120)."""
    got = {name: piece_block(sp_models[name], block_lines(BLOCKS[0]), "plain")[0] for name in ("SP120", "SPID", "SPBF")}
    assert (got["SPID"].grapheme_part, got["SPBF"].partial, got["SP120"].unknown) == (50, 2428, 611)
    assert got["SPBF"].tokens == len(sp_models["SPBF"].processor.encode(BLOCKS[0], out_type=int))


def test_raise_policy_is_the_error_of_tokenize(sp_models):
    tok = sp_models["SP120"]
    with pytest.raises(SpecialTokenError, match="control piece '<s>'"):
        piece_block(tok, block_lines("a <s> b\n"), "raise")
    bl = block_lines("the cat\nthe hat\n")
    assert piece_block(tok, bl, "raise") == span_block(tok, bl, "plain")


def test_statistics_of_a_sentencepiece_model_count_the_library_ids(sp_models):
    tok = sp_models["SPBF"]
    st = compute_stats([tok], FILES, block_chars=40)
    rows = {r["group"]: r for r in st.rows()}
    for name, text in FILES:
        assert rows[name]["tokens"] == len(tok.processor.encode(text, out_type=int))
    # partial: the byte pieces of lead and continuation bytes (every other piece holds whole characters)
    ids = [i for _n, text in FILES for i in tok.processor.encode(text, out_type=int)]
    high = [i for i in ids if tok.processor.is_byte(i) and int(tok.processor.id_to_piece(i)[3:5], 16) >= 0x80]
    assert rows["all"]["partial_pct"] == round(100 * len(high) / len(ids), 2) == 46.99
    assert rows["all"]["unknown_pct"] == 0.0


def test_id_array_converts_a_file_of_ids_in_pieces(monkeypatch):
    """A whole file's ids become an array a chunk per call (each call holds the
    interpreter lock, and the window waits for it): the same values, no call longer."""
    import numpy as np

    from tokexplorer.core.analysis import stats_sentencepiece as ssp

    ids = [(k * 7919) % 32000 for k in range(3 * ssp.ID_ARRAY_CHUNK + 5)]
    got = ssp.id_array(ids)
    assert got.dtype == np.int64 and got.tolist() == ids
    assert ssp.id_array([5, 0, 31999]).tolist() == [5, 0, 31999]
    assert ssp.id_array([]).tolist() == []
    sizes = []
    real = np.ndarray.__setitem__

    class Spy(np.ndarray):
        def __setitem__(self, key, value):
            sizes.append(len(value))
            real(self, key, value)

    monkeypatch.setattr(ssp.np, "empty", lambda n, dtype: np.zeros(n, dtype=dtype).view(Spy))
    assert ssp.id_array(ids).tolist() == ids
    assert sizes == [ssp.ID_ARRAY_CHUNK] * 3 + [5]
