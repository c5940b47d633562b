"""The WordPiece trainer against a deliberately simple textbook WordPiece.

The reference below is the algorithm as taught (every step recounts every pair
and every piece from scratch and takes the best score), written for reading,
not speed; the trainer keeps its counts incrementally. Both must give the same
vocabulary in the same order, and the same record of each step.
"""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from tokenizers import normalizers, pre_tokenizers

from fixtures.multilingual import multilingual_text
from tokexplorer.core.errors import Cancelled, InputError, TrainingError
from tokexplorer.core.text import split
from tokexplorer.core.types import run_to_end
from tokexplorer.core.wordpiece import count_words, train_wordpiece, train_wordpiece_iter
from tokexplorer.core.wordpiece.trainer import BLOCK_CHARS

ROOT = Path(__file__).resolve().parents[3]


def textbook_wordpiece(word_freqs: dict[str, int], vocab_size: int, specials: list[str]):
    """Textbook WordPiece: returns (vocab, steps), each step (left, right, count, bpe_pair)."""
    alphabet = sorted({w[0] for w in word_freqs} | {"##" + c for w in word_freqs for c in w[1:]})
    vocab = specials + [a for a in alphabet if a not in specials]
    splits = {w: [w[0]] + ["##" + c for c in w[1:]] for w in word_freqs}
    steps = []
    while len(vocab) < vocab_size:
        piece_freqs, pair_freqs = Counter(), Counter()
        for w, f in word_freqs.items():
            s = splits[w]
            for piece in s:
                piece_freqs[piece] += f
            for pair in zip(s, s[1:]):
                pair_freqs[pair] += f
        if not pair_freqs:
            break

        def rank(p, pairs=pair_freqs, pieces=piece_freqs):
            return (-Fraction(pairs[p], pieces[p[0]] * pieces[p[1]]), -pairs[p], p)

        best = min(pair_freqs, key=rank)
        bpe = min(pair_freqs, key=lambda p: (-pair_freqs[p], p))
        a, b = best
        new = a + b[2:] if b.startswith("##") else a + b
        steps.append((a, b, pair_freqs[best], piece_freqs[a], piece_freqs[b], bpe, pair_freqs[bpe]))
        for w, s in splits.items():
            i, out = 0, []
            while i < len(s):
                if i + 1 < len(s) and (s[i], s[i + 1]) == best:
                    out.append(new)
                    i += 2
                else:
                    out.append(s[i])
                    i += 1
            splits[w] = out
        if new not in vocab:
            vocab.append(new)
    return vocab, steps


def _check_same(texts: list[str], vocab_size: int, **options) -> None:
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    wp, report = train_wordpiece(texts, vocab_size=vocab_size, special_tokens=specials, **options)
    counts = run_to_end(count_words(texts, **options))
    vocab, steps = textbook_wordpiece(dict(counts), vocab_size, specials)
    assert wp.vocab == vocab
    got = [(m.left, m.right, m.count, m.left_count, m.right_count, (m.bpe_left, m.bpe_right), m.bpe_count)
           for m in wp.merges]  # fmt: skip
    assert got == steps
    assert report.vocab_size == len(vocab)


def _random_texts(seed: int) -> list[str]:
    rng = random.Random(seed)
    letters = "abcdeé世界"
    words = ["".join(rng.choice(letters) for _ in range(rng.randint(1, 7))) for _ in range(40)]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(1, 30))) + rng.choice([".", "!", ""])
            for _ in range(60)]  # fmt: skip


@pytest.mark.parametrize("seed", range(6))
def test_same_as_textbook_on_random_text(seed):
    _check_same(_random_texts(seed), vocab_size=120, pattern="bert")


@pytest.mark.parametrize("seed", range(3))
def test_same_as_textbook_on_random_text_gpt2_pattern(seed):
    _check_same(_random_texts(seed), vocab_size=110, pattern="gpt2")


@pytest.mark.parametrize(
    "options",
    [dict(pattern="bert"), dict(pattern="bert", lowercase=True, strip_accents=True), dict(pattern="cl100k")],
)
def test_same_as_textbook_on_real_text(options):
    texts = [(ROOT / "README.md").read_text(encoding="utf-8")[:20000],
             (ROOT / "resources/samples/sample.txt").read_text(encoding="utf-8")]  # fmt: skip
    counts = run_to_end(count_words(texts, **options))
    alphabet = len({w[0] for w in counts} | {"##" + c for w in counts for c in w[1:]})
    _check_same(texts, vocab_size=5 + alphabet + 250, **options)


def test_score_prefers_rare_parts_where_bpe_takes_the_frequent_pair():
    # "t h" is the most frequent pair (5), but "##a" and "##t" are seen only together
    # (score 1/(1*1)); "q ##u" too, and "##a" < "q" breaks the tie
    wp, _ = train_wordpiece(["the the the that this quiz"], vocab_size=5 + 11 + 1)
    m = wp.merges[0]
    assert (m.left, m.right, m.count, m.left_count, m.right_count) == ("##a", "##t", 1, 1, 1)
    assert m.score == 1.0
    assert (m.bpe_left, m.bpe_right, m.bpe_count) == ("t", "##h", 5)
    assert not m.same_as_bpe


def test_too_small_vocab_names_the_least_size():
    # 5 special tokens + the alphabet a, b, ##a, ##b (two characters: not known before counting)
    with pytest.raises(InputError, match="this corpus needs 4 alphabet pieces .* use at least 9$"):
        train_wordpiece(["ab ba"], vocab_size=8)


def test_no_pair_left_says_so():
    wp, report = train_wordpiece(["ab"], vocab_size=100, special_tokens=["[UNK]"])
    assert wp.vocab == ["[UNK]", "##b", "a", "ab"]
    assert report.messages[0] == "learned 1 of 97 requested pieces; vocab 4: no pair of pieces is left to merge"


def test_unk_added_when_missing_and_noted():
    wp, report = train_wordpiece(["ab"], vocab_size=4, special_tokens=["<s>"])
    assert wp.vocab[:2] == ["[UNK]", "<s>"]
    assert "[UNK] added as id 0: WordPiece needs an unknown token" in report.messages


def test_empty_text_is_refused():
    with pytest.raises(TrainingError, match="nothing to train on"):
        train_wordpiece(["   \n"], vocab_size=100)


def test_cancel_stops_the_merge_loop():
    calls = []

    def cancel():
        calls.append(1)
        return len(calls) > 3  # after the texts, during the merges

    with pytest.raises(Cancelled):
        run_to_end(train_wordpiece_iter(["a b", "ab ab abc"], vocab_size=30, cancel=cancel))
    assert len(calls) == 4


def test_progress_phases_and_determinism():
    texts = _random_texts(7)
    phases = [p.phase for p in train_wordpiece_iter(texts, vocab_size=120)]
    assert phases[0] == "pre-tokenizing" and "counting" in phases and phases[-1] == "merging"
    a, _ = train_wordpiece(texts, vocab_size=120)
    b, _ = train_wordpiece(list(reversed(texts)), vocab_size=120)
    assert a.vocab == b.vocab


def _hf_word_counts(text: str, *, lowercase: bool, strip_accents: bool) -> Counter[str]:
    norm = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=strip_accents, lowercase=lowercase
    )
    return Counter(w for w, _ in pre_tokenizers.BertPreTokenizer().pre_tokenize_str(norm.normalize_str(text)))


def _long_text() -> str:
    text = multilingual_text(150_000, seed=11)
    assert len(text) > 3 * BLOCK_CHARS
    return text


@pytest.mark.parametrize("lowercase,strip_accents", [(False, False), (True, True)])
def test_a_long_text_is_counted_in_blocks_with_the_counts_of_the_whole(lowercase, strip_accents):
    """A long text is counted block by block (a report, and a cancel poll, after each),
    and the counts are those of BERT's normalizer + pre-tokenizer on the whole text."""
    text = _long_text()
    gen = count_words([text], lowercase=lowercase, strip_accents=strip_accents)
    reports = []
    try:
        while True:
            reports.append(next(gen))
    except StopIteration as stop:
        counts = stop.value
    assert counts == _hf_word_counts(text, lowercase=lowercase, strip_accents=strip_accents)
    done = [p.done for p in reports]
    assert len(done) >= 3 and done == sorted(set(done)) and done[-1] == len(text)


@pytest.mark.parametrize("pattern", ["gpt2", "o200k"])
def test_a_long_text_split_by_a_pattern_is_counted_as_the_whole(pattern):
    text = _long_text()
    assert run_to_end(count_words([text], pattern=pattern)) == Counter(split(text, pattern))


def test_cancel_is_polled_within_a_long_text():
    text = _long_text()
    polls = []
    gen = count_words([text], cancel=lambda: polls.append(1) or len(polls) > 1)
    first = next(gen)
    with pytest.raises(Cancelled):
        next(gen)
    assert first.done < len(text) // 2 and len(polls) == 2


def test_the_long_word_note_counts_in_words():
    one = train_wordpiece("a" * 150 + " hello world", vocab_size=40)[1].messages[-1]
    two = train_wordpiece("a" * 150 + " hello world " + "b" * 120, vocab_size=40)[1].messages[-1]
    assert one == "1 distinct word is longer than 100 characters; it encodes as [UNK]"
    assert two == "2 distinct words are longer than 100 characters; they encode as [UNK]"
