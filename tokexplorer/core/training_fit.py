"""Fitting a SentencePiece training to its corpus: the line limit that fits the longest
line (:func:`fit_line_length`) and the vocabulary size SentencePiece allows when it
refuses the one asked for (:func:`fitted_size`), for :mod:`tokexplorer.core.training`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tokexplorer.core.backends import VocabTooLargeError, VocabTooSmallError
from tokexplorer.core.io.line_ends import lf_lines

__all__ = ["FIT_LINES_CEILING", "fit_line_length", "fitted_size"]


#: The longest ``max_sentence_length`` (bytes) :attr:`TrainingRequest.fit_lines`
#: sets; longer lines are skipped.
FIT_LINES_CEILING = 65_536


def fit_line_length(
    texts: Sequence[str], *, max_sentence_length: int, ceiling: int = FIT_LINES_CEILING
) -> tuple[int, bool, str | None]:
    """The SentencePiece line limit that fits ``texts`` (see :attr:`TrainingRequest.fit_lines`).

    Lines end at ``"\\n"``, as SentencePiece reads them; lengths are UTF-8 bytes.

    Args:
        texts: the corpus.
        max_sentence_length: the limit asked for, in bytes.
        ceiling: the highest limit to raise it to, in bytes.

    Returns:
        ``(limit, skip_long_lines, note)``: the limit unchanged, False and None
        when every line fits; else the limit raised to the longest line (at most
        ``ceiling``), whether lines longer than that must be skipped, and a note
        saying what changed.

    >>> fit_line_length(["short\\n" + "x" * 5000], max_sentence_length=4192)
    (5000, False, 'max_sentence_length raised from 4,192 to 5,000 bytes to fit the longest line')
    >>> fit_line_length(["ab\\n" + "x" * 20 + "\\n" + "y" * 30], max_sentence_length=4, ceiling=25)
    (25, True, 'max_sentence_length raised from 4 to 25 bytes; 1 line longer than 25 bytes skipped (longest: 30 bytes)')
    >>> fit_line_length(["ab"], max_sentence_length=4)
    (4, False, None)
    """
    lengths = [len(line.encode("utf-8", "surrogatepass")) for t in texts for line in lf_lines(t)]
    longest = max(lengths, default=0)
    if longest <= max_sentence_length:
        return max_sentence_length, False, None
    limit = max(max_sentence_length, min(longest, ceiling))
    note = f"max_sentence_length raised from {max_sentence_length:,} to {limit:,} bytes"
    if longest <= limit:
        return limit, False, note + " to fit the longest line"
    n_long = sum(1 for n in lengths if n > limit)
    lines = "line" if n_long == 1 else "lines"
    return limit, True, f"{note}; {n_long:,} {lines} longer than {limit:,} bytes skipped (longest: {longest:,} bytes)"


def fitted_size(exc: VocabTooLargeError | VocabTooSmallError, *, requested: int) -> tuple[int, str] | None:
    """The size SentencePiece allows instead of the refused one and a note that
    says so, or None when it allows none.

    >>> fitted_size(VocabTooLargeError(100, 17), requested=100)
    (17, 'vocab 100 is too large for this corpus; trained with 17, the most SentencePiece allows')
    >>> fitted_size(VocabTooLargeError(100, 0), requested=100) is None
    True
    """
    if isinstance(exc, VocabTooLargeError):
        if exc.max_vocab_size < 1:
            return None
        size = exc.max_vocab_size
        return size, (
            f"vocab {requested:,} is too large for this corpus; trained with {size:,}, the most SentencePiece allows"
        )
    # a corpus with many distinct characters (Chinese) needs a piece each
    size = exc.min_vocab_size
    return size, (
        f"vocab {requested:,} is too small for this corpus; trained with {size:,}, the least SentencePiece accepts"
    )
