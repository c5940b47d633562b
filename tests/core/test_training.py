"""The training use case (tokexplorer.core.training): one request, progress,
one outcome, for byte-level BPE and both SentencePiece algorithms."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tokexplorer.core.backends import SentencePieceOptions, VocabTooLargeError, VocabTooSmallError
from tokexplorer.core.backends.sentencepiece.errors import LinesTooLongError
from tokexplorer.core.errors import Cancelled, InputError
from tokexplorer.core.training import TrainingRequest, fit_line_length, train, train_iter

CORPUS = ["low lower lowest", "new newer newest"]
CHINESE = ["你好世界，这是一个中文句子。", "我们今天学习分词器的训练方法。"]


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (TrainingRequest(algorithm="unigram", vocab_size=300), "unknown algorithm 'unigram'"),
        (TrainingRequest(algorithm="wordpiece", vocab_size=300, pattern="nope"), "unknown pattern 'nope'"),
        (TrainingRequest(algorithm="wordpiece", vocab_size=50, files=["a.txt"]), "WordPiece trains on texts"),
        (TrainingRequest(algorithm="bpe", vocab_size=300, lowercase=True), "apply to the wordpiece algorithm only"),
        (TrainingRequest(algorithm="bpe", vocab_size=300, pattern="bert"), "the bert pattern applies to the wordpiece"),
        (TrainingRequest(algorithm="bpe", vocab_size=300, pattern="nope"), "unknown pattern 'nope'"),
        (TrainingRequest(algorithm="bpe", vocab_size=200), "vocab_size 200 is too small"),
        (TrainingRequest(algorithm="sp-bpe", vocab_size=0), "vocab_size must be positive, not 0"),
        (TrainingRequest(algorithm="sp-unigram", vocab_size=50, files=["a.txt"]), "not on streamed files"),
    ],
)
def test_invalid_requests_are_refused_before_training(request_, message):
    with pytest.raises(InputError, match=message):
        next(train_iter(request_))


def test_bpe_outcome_carries_the_model_and_its_report():
    request = TrainingRequest(algorithm="bpe", vocab_size=259, texts=["aaab aaab"], special_tokens=["<s>", "<s>"])
    outcome = train(request)
    assert outcome.algorithm == "bpe" and outcome.bpe is not None and outcome.report is not None
    assert outcome.vocab_size == outcome.report.vocab_size == 259
    assert outcome.bpe.special_tokens == {"<s>": 258}  # duplicates dropped
    assert outcome.notes == tuple(outcome.report.messages)


def test_wordpiece_outcome_carries_the_model_and_says_which_special_tokens():
    outcome = train(TrainingRequest(algorithm="wordpiece", vocab_size=22, texts=CORPUS, lowercase=True))
    wp = outcome.wordpiece
    assert wp is not None and outcome.bpe is None and wp.lowercase and wp.pattern == "bert"
    assert wp.vocab[:5] == ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    assert outcome.tokenizer.family == "wordpiece" and outcome.vocab_size == 22 == wp.vocab_size
    assert outcome.notes == ("no special tokens given: BERT's [PAD] [UNK] [CLS] [SEP] [MASK] are ids 0-4",)
    head, seconds = outcome.wordpiece_headline.rsplit("; ", 1)
    assert head == (
        "learned 9 of 9 WordPiece pieces (9 merges); vocab 22 = 5 special tokens + 8 alphabet pieces + 9 learned"
    )
    assert seconds == f"{outcome.report.seconds:.1f} s"
    assert outcome.summary == f"{outcome.wordpiece_headline}; {outcome.notes[0]}"
    assert len(wp.merges) == 9 and wp.vocab_size - 5 - 9 == 8  # the headline's numbers are the model's
    assert outcome.tokenizer.encode("LOWEST") == wp.encode("lowest")


def test_sentencepiece_algorithm_sets_the_model_type_and_symbols():
    options = SentencePieceOptions(model_type="bpe", split_digits=True)
    request = TrainingRequest(
        algorithm="sp-unigram", vocab_size=18, texts=CORPUS, special_tokens=["<sep>"], sentencepiece=options
    )
    steps = train_iter(request)
    first = next(steps)
    assert (first.phase, first.message) == ("training SentencePiece", "unigram")
    outcome = train(request)
    assert outcome.tokenizer.description.startswith("SentencePiece · unigram model")
    assert "<sep>" in outcome.tokenizer.user_defined_symbols
    assert outcome.bpe is None and outcome.report is None and outcome.vocab_size == 18


def test_sizes_sentencepiece_refuses_raise_unless_fitted():
    with pytest.raises(VocabTooLargeError):
        train(TrainingRequest(algorithm="sp-bpe", vocab_size=100, texts=CORPUS))
    with pytest.raises(VocabTooSmallError):
        train(TrainingRequest(algorithm="sp-bpe", vocab_size=10, texts=CHINESE))
    large = train(TrainingRequest(algorithm="sp-bpe", vocab_size=100, texts=CORPUS, fit_vocab=True))
    assert large.vocab_size == large.tokenizer.vocab_size < 100
    assert large.notes[0] == (
        f"vocab 100 is too large for this corpus; trained with {large.vocab_size:,}, the most SentencePiece allows"
    )
    small = train(TrainingRequest(algorithm="sp-bpe", vocab_size=10, texts=CHINESE, fit_vocab=True))
    assert small.vocab_size == small.tokenizer.vocab_size > 10
    assert small.summary == (
        f"vocab 10 is too small for this corpus; trained with {small.vocab_size:,}, the least SentencePiece accepts"
    )


def test_cancel_stops_before_a_refit():
    request = TrainingRequest(algorithm="sp-bpe", vocab_size=100, texts=CORPUS, fit_vocab=True)
    with pytest.raises(Cancelled):
        train(request, cancel=lambda: True)


def test_fit_lines_raises_max_sentence_length_and_says_so():
    words = "low lower lowest newer newest wider widest"
    long_line = " ".join([words] * 150)  # 6,449 bytes
    texts = [(words + "\n") * 20 + long_line]
    request = TrainingRequest(algorithm="sp-bpe", vocab_size=40, texts=texts, fit_lines=True)
    outcome = train(request)
    assert outcome.notes[0] == "max_sentence_length raised from 4,192 to 6,449 bytes to fit the longest line"
    with pytest.raises(LinesTooLongError):
        train(replace(request, fit_lines=False))


def test_fit_lines_skips_what_is_over_the_ceiling():
    assert fit_line_length(["a\n" + "é" * 40_000, "b" * 70_000], max_sentence_length=4192) == (
        65_536,
        True,
        "max_sentence_length raised from 4,192 to 65,536 bytes; 2 lines longer than 65,536 bytes skipped "
        "(longest: 80,000 bytes)",
    )
