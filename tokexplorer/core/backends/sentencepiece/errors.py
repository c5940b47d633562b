"""What SentencePiece's trainer refuses, as errors that carry the numbers to fix it."""

from __future__ import annotations

import re

from tokexplorer.core.errors import TrainingError


class VocabTooLargeError(TrainingError):
    """SentencePiece found fewer pieces than requested.

    Attributes:
        requested: the vocab_size asked for.
        max_vocab_size: the largest size SentencePiece says will work.
    """

    def __init__(self, requested: int, max_vocab_size: int) -> None:
        super().__init__(
            f"vocab_size {requested:,} is too large for this corpus; SentencePiece can make at "
            f"most {max_vocab_size:,} pieces; ask for {max_vocab_size:,} or fewer"
        )
        self.requested = requested
        self.max_vocab_size = max_vocab_size


def too_large_note(requested: int, limit: int, *, sample: str = "") -> str:
    """What to tell a user whose ``requested`` vocab SentencePiece refused, ``limit``
    being the most it can make; ``sample``: the streamed corpus's
    :attr:`~tokexplorer.core.io.corpus.Corpus.sample_note` when it trained on that
    sample only (the limit is the sample's, not the whole corpus's).

    >>> too_large_note(8000, 214)
    'vocab 8,000 is too large for this corpus; SentencePiece can make at most 214 pieces'
    >>> too_large_note(8000, 214, sample="sample: first 200,000 characters of 30.0 MiB, 1 file")[-70:]
    ' file (the corpus is streamed): it can make at most 214 pieces from it'
    """
    if not sample:
        return f"vocab {requested:,} is too large for this corpus; SentencePiece can make at most {limit:,} pieces"
    return (
        f"vocab {requested:,} is too large for what SentencePiece trained on, the corpus {sample} "
        f"(the corpus is streamed): it can make at most {limit:,} pieces from it"
    )


class VocabTooSmallError(TrainingError):
    """The vocabulary cannot even hold every required character plus the meta pieces.

    Args:
        requested, min_vocab_size: as the attributes.
        message: the whole one-line message when the corpus was counted (the
            check's, with its fixes); else one built from the two numbers.

    Attributes:
        requested: the vocab_size asked for.
        min_vocab_size: characters kept by character_coverage + meta pieces.
    """

    def __init__(self, requested: int, min_vocab_size: int, *, message: str | None = None) -> None:
        super().__init__(
            message
            or f"vocab_size {requested:,} < {min_vocab_size:,} needed (every kept character plus "
            f"the meta pieces needs a piece); raise vocab_size to at least {min_vocab_size:,}, or lower "
            "character_coverage so that fewer characters are kept"
        )
        self.requested = requested
        self.min_vocab_size = min_vocab_size


_TOO_HIGH = re.compile(r"Vocabulary size too high \((\d+)\)\. Please set it to a value <= (\d+)")
_TOO_SMALL = re.compile(r"Vocabulary size is smaller than required_chars\. (\d+) vs (\d+)")
_INTERNAL = re.compile(r"^[A-Z_]+: \S+\(\d+\) ")


def _translate_training_error(exc: BaseException) -> TrainingError:
    """Turn SentencePiece's RuntimeError text into a one-line :class:`TrainingError`.

    >>> err = _translate_training_error(RuntimeError("Vocabulary size too high (100). Please set it to a value <= 41."))
    >>> type(err).__name__, err.requested, err.max_vocab_size
    ('VocabTooLargeError', 100, 41)
    >>> str(_translate_training_error(RuntimeError("Internal: src/trainer_interface.cc(429) [!sentences_.empty()]")))
    'nothing to train on'
    """
    msg = " ".join(str(exc).split())
    m = _TOO_HIGH.search(msg)
    if m:
        return VocabTooLargeError(int(m.group(1)), int(m.group(2)))
    m = _TOO_SMALL.search(msg)
    if m:
        return VocabTooSmallError(int(m.group(1)), int(m.group(2)))
    body = _INTERNAL.sub("", msg).strip()
    if "[!sentences_.empty()]" in body:
        return TrainingError("nothing to train on")
    return TrainingError(f"SentencePiece refused to train: {body or type(exc).__name__}")


class LinesTooLongError(TrainingError):
    """Lines longer than ``max_sentence_length`` bytes, which SentencePiece would skip.

    Attributes:
        count: how many lines are too long.
        longest: length of the longest line, in UTF-8 bytes.
        line_number: 1-based number of the longest line among the non-empty lines.
        max_sentence_length: the limit, in bytes.
    """

    def __init__(self, count: int, longest: int, line_number: int, max_sentence_length: int) -> None:
        lines = "line is" if count == 1 else "lines are"
        super().__init__(
            f"{count:,} {lines} longer than max_sentence_length {max_sentence_length:,} bytes "
            f"(longest: line {line_number:,}, {longest:,} bytes) and SentencePiece would skip "
            f"{'it' if count == 1 else 'them'}; set max_sentence_length to {longest:,} bytes, or tick "
            "'let SentencePiece skip longer lines'"
        )
        self.count = count
        self.longest = longest
        self.line_number = line_number
        self.max_sentence_length = max_sentence_length
