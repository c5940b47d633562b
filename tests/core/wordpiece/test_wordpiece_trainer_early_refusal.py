"""A vocab_size too small for the corpus's alphabet is refused as soon as that is known:
before counting when the distinct characters prove it, after the block of words that
proves it, else once every word is counted; never when the size fits."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.multilingual import multilingual_text
from tokexplorer.core.errors import InputError, TrainingError
from tokexplorer.core.types import run_to_end
from tokexplorer.core.wordpiece import count_words, initial_alphabet, train_wordpiece, train_wordpiece_iter, trainer

ROOT = Path(__file__).resolve().parents[3]
PIECES = "alphabet pieces (first characters and ## continuations)"
CYRILLIC = [chr(c) for c in range(0x430, 0x450)]  # а..я: 32 letters, kept as they are by BERT's normalizer


@pytest.fixture
def blocks(monkeypatch):
    """Count in blocks of 1,000 characters (the rule is the same at any size); the
    characters each block normalized are recorded in the returned list."""
    monkeypatch.setattr(trainer, "BLOCK_CHARS", 1000)
    seen: list[int] = []
    real = trainer.normalize

    def recording(block, **options):
        seen.append(len(block))
        return real(block, **options)

    monkeypatch.setattr(trainer, "normalize", recording)
    return seen


def _ideographs(n: int) -> str:
    """``n`` distinct CJK ideographs, 50 to a line: each a word of its own (one piece each)."""
    chars = [chr(0x4E00 + i) for i in range(n)]
    return "\n".join("".join(chars[i : i + 50]) for i in range(0, n, 50)) + "\n"


def _cyclic_pairs_line() -> str:
    """Every letter of :data:`CYRILLIC` first once and second once: 32 characters, 64 pieces."""
    return " ".join(a + b for a, b in zip(CYRILLIC, CYRILLIC[1:] + CYRILLIC[:1]))


def test_chinese_text_is_refused_before_any_word_is_counted(blocks):
    text = _ideographs(4200)
    gen = train_wordpiece_iter([text], vocab_size=4096)
    with pytest.raises(InputError) as refused:
        next(gen)  # no progress at all: refused before pre-tokenizing
    assert str(refused.value) == (
        "vocab_size 4,096 is too small: before counting the words, the corpus's distinct characters already need "
        f"at least 4,200 {PIECES} + 5 special tokens; use at least 4,205 (counting the words may show more)"
    )
    assert blocks == []
    # the figure is the least that trains: each ideograph is a piece, nothing to merge
    wp, report = train_wordpiece([text], vocab_size=4205)
    assert len(wp.vocab) == 4205 and wp.merges == []
    assert report.messages[0] == "learned 0 of 0 pieces; vocab 4,205"


def test_refused_after_the_first_block_whose_words_need_more(blocks):
    line = _cyclic_pairs_line()  # 32 * 2 + 31 = 95 characters
    assert len(line) == 95
    text = (line + "\n") * 50  # 4,800 characters; blocks of 1,000 cut at the next line start: 1,056
    progress = []
    with pytest.raises(InputError) as refused:
        for p in train_wordpiece_iter([text], vocab_size=60):  # 32 characters + 5: may fit; 64 pieces + 5 do not
            progress.append((p.phase, p.done, p.total))
    assert str(refused.value) == (
        "vocab_size 60 is too small: counting stopped at 22% of the corpus (1,056 of 4,800 characters), whose words "
        f"already need 64 {PIECES} + 5 special tokens; use at least 69 (the rest may need more)"
    )
    assert progress == [("pre-tokenizing", 1056, 4800)]
    assert blocks == [1056]  # the other 3,744 characters were never pre-tokenized


def test_the_exact_figure_when_the_last_block_brings_the_pieces_over(blocks):
    line = _cyclic_pairs_line()
    text = ("а\n" * 1500) + line + "\n"  # the pairs only in the last block
    with pytest.raises(InputError) as refused:
        run_to_end(train_wordpiece_iter([text], vocab_size=60))
    assert str(refused.value) == f"vocab_size 60 is too small: this corpus needs 64 {PIECES} + 5 special tokens; " \
        "use at least 69"  # fmt: skip
    assert sum(blocks) == len(text) and len(blocks) == 4


def test_special_tokens_alone_too_many_and_words_spelled_as_one_left_out(blocks):
    with pytest.raises(InputError) as refused:
        run_to_end(train_wordpiece_iter(["  \n "], vocab_size=3))
    assert str(refused.value) == (
        f"vocab_size 3 is too small: the 5 special tokens alone need 5 ids, and the corpus's {PIECES} come on top"
    )
    assert blocks == []
    with pytest.raises(TrainingError, match="nothing to train on"):  # enough ids: then the empty text is said
        run_to_end(train_wordpiece_iter(["  \n "], vocab_size=5))
    # "zz" is a special token and a word: its characters are counted neither before the words
    # are (z would make 5 ids) nor after
    wp, _ = train_wordpiece(["zz ab"], vocab_size=4, special_tokens=["[UNK]", "zz"])
    assert wp.vocab == ["[UNK]", "zz", "##b", "a"]


def test_the_alphabet_is_the_one_counted_at_the_end_with_special_tokens_among_its_pieces():
    texts = [
        (ROOT / "README.md").read_text(encoding="utf-8")[:30000]
        + "\n"
        + (ROOT / "resources/samples/sample.txt").read_text(encoding="utf-8")
    ]  # one block: exact at the end
    specials = ["[UNK]", "a", "##e", "the"]  # a first character, a continuation, a word
    counts = run_to_end(count_words(texts))
    for s in specials:
        counts.pop(s, None)
    alphabet = [p for p in initial_alphabet(counts) if p not in specials]
    least = len(specials) + len(alphabet)
    wp, _ = train_wordpiece(texts, vocab_size=least + 40, special_tokens=specials)
    assert wp.vocab[:least] == specials + alphabet
    assert len(train_wordpiece(texts, vocab_size=least, special_tokens=specials)[0].vocab) == least
    with pytest.raises(InputError, match=f"this corpus needs {len(alphabet):,} alphabet .* use at least {least:,}$"):
        train_wordpiece(texts, vocab_size=least - 1, special_tokens=specials)


def _least(texts, **options) -> int:
    """Special tokens + alphabet, counted the slow way (BERT's five special tokens)."""
    counts = run_to_end(count_words(texts, **options))
    specials = list(trainer.BERT_SPECIAL_TOKENS)
    for s in specials:
        counts.pop(s, None)
    return len(specials) + len([p for p in initial_alphabet(counts) if p not in specials])


def _check_never_refused_at_the_least(texts, **options) -> None:
    least = _least(texts, **options)
    train_wordpiece(texts, vocab_size=least, **options)  # fits: no early refusal
    with pytest.raises(InputError) as refused:
        train_wordpiece(texts, vocab_size=least - 1, **options)
    said = int(str(refused.value).split("use at least ")[1].split(" ")[0].replace(",", ""))
    assert said <= least  # a lower bound, never more than the corpus needs


@pytest.mark.parametrize(
    "options",
    [dict(pattern="bert"), dict(pattern="bert", lowercase=True, strip_accents=True), dict(pattern="gpt2"),
     dict(pattern="cl100k", lowercase=True), dict(pattern="none")],
)  # fmt: skip
def test_the_early_figures_are_lower_bounds_on_multilingual_text(blocks, options):
    texts = [multilingual_text(3000, seed=5), multilingual_text(800, seed=6).upper()]
    _check_never_refused_at_the_least(texts, **options)


_TRICKY = "aAzΣσςİıßẞ\u0301\u0327e\u00e9\u1e9eǅﬁ世界\u3000\u00a0\t\n \r\x00\x07\ufffd\u200d\ue000#[]UNK-.,!"


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet=_TRICKY, min_size=1, max_size=60),
    options=st.sampled_from([dict(pattern="bert"), dict(pattern="bert", lowercase=True, strip_accents=True),
                             dict(pattern="gpt2", lowercase=True), dict(pattern="o200k", strip_accents=True)]),
)  # fmt: skip
def test_the_character_scan_never_asks_for_more_than_the_words_need(text, options):
    """Lowercasing, accent stripping, dropped control characters, white space, words spelled as a
    special token: the scan before counting stays a lower bound."""
    if not run_to_end(count_words([text], **options)):
        return
    least = _least([text], **options)
    if least == len(trainer.BERT_SPECIAL_TOKENS):
        return  # every word a special token: nothing to train on
    _check_never_refused_at_the_least([text], **options)
