"""Training a tokenizer: the one use case every front end calls.

The command line's ``train``, the Corpus pane, the SentencePiece training dialog
and the window's startup models all describe what to train as a
:class:`TrainingRequest`, run :func:`train_iter` (a generator of
:class:`~tokexplorer.core.types.Progress` whose return value is a
:class:`TrainingOutcome`) and show the outcome their own way. Validation, the
choice of algorithm and the handling of a SentencePiece vocabulary size that
does not fit the corpus live here, once.

>>> outcome = train(TrainingRequest(algorithm="bpe", vocab_size=260, texts=["aaab aaab"]))
>>> outcome.vocab_size, outcome.tokenizer.family
(260, 'bpe')
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from tokexplorer.core.backends import (
    BPETokenizer,
    SentencePieceOptions,
    Tokenizer,
    VocabTooLargeError,
    VocabTooSmallError,
    WordPieceTokenizer,
)
from tokexplorer.core.bpe import BPE, train_bpe_iter, validate_vocab_size
from tokexplorer.core.errors import Cancelled, InputError, SettingsConflictError
from tokexplorer.core.text import PATTERN_NAMES
from tokexplorer.core.training_fit import FIT_LINES_CEILING, fit_line_length, fitted_size
from tokexplorer.core.types import (
    ALGORITHMS,
    DEFAULT_PATTERN,
    MORE_SENTENCEPIECE_ALGORITHMS,
    Progress,
    TrainReport,
    run_to_end,
)
from tokexplorer.core.wordpiece import (
    BERT_PATTERN,
    BERT_SPECIAL_TOKENS,
    UNK,
    WORDPIECE_PATTERNS,
    WordPiece,
    character_pieces,
    train_wordpiece_iter,
)

if TYPE_CHECKING:
    from tokexplorer.core.backends import SentencePieceTokenizer
    from tokexplorer.core.io import WordCounts  # noqa: F401 - the annotation's (imported where used)


@dataclass(frozen=True)
class TrainingRequest:
    """What to train, on what.

    Attributes:
        algorithm: one of :data:`ALGORITHMS` or :data:`MORE_SENTENCEPIECE_ALGORITHMS`.
        vocab_size: for ``"bpe"`` every id counts (256 bytes + merges + special
            tokens); for SentencePiece it is its piece count.
        texts: the corpus as strings (ignored when ``files`` is given).
        files: paths to count straight from disk without reading them into
            memory (byte-level BPE only; large corpora).
        encoding: codec of ``files``, or one per file (as
            :func:`~tokexplorer.core.io.counting_files` chose them).
        allow_damaged: decode ``files`` with U+FFFD for undecodable bytes
            instead of refusing them.
        pattern: split pattern name for ``"bpe"`` (``None``: :data:`DEFAULT_PATTERN`)
            or pre-tokenizer for ``"wordpiece"`` (``None``: ``"bert"``, BERT's);
            naming one for SentencePiece is an error, since it has none.
        special_tokens: special tokens (``"bpe"``, ``"wordpiece"``: none given
            means BERT's five, noted) or user-defined symbols (SentencePiece),
            duplicates dropped in order.
        lowercase: ``"wordpiece"`` only: lower-case the text before pre-tokenizing.
        strip_accents: ``"wordpiece"`` only: drop accents (NFD, no ``Mn``) first.
        sentencepiece: trainer options for the ``"sp-..."`` algorithms
            (its ``model_type`` is set from the algorithm).
        skip_long_lines: SentencePiece only: let it skip lines over
            ``sentencepiece.max_sentence_length`` bytes (noted in the model's
            ``train_notes``) instead of refusing them.
        fit_vocab: when SentencePiece refuses the size as too large or too
            small for the corpus, train again with the size it allows and say so,
            instead of raising :class:`VocabTooLargeError` / :class:`VocabTooSmallError`.
        fit_lines: SentencePiece only: when a line is longer than
            ``sentencepiece.max_sentence_length`` bytes, raise that limit to the
            longest line (at most :data:`FIT_LINES_CEILING` bytes) and skip the
            lines longer still, and say so in a note (:func:`fit_line_length`),
            instead of refusing the corpus (the window's startup model).
        word_counts: a word-count table file (:mod:`tokexplorer.core.io.word_counts`,
            written by ``tokexplorer count``), or such a table in memory (a
            ``WordCounts``: ``train --dask``), to train on instead of ``texts`` and
            ``files`` (``"bpe"`` only); its pattern and special tokens are used
            (``pattern`` and ``special_tokens`` must be unset or the same).
    """

    algorithm: str
    vocab_size: int
    texts: Sequence[str] = ()
    files: Sequence[str] | None = None
    encoding: str | Sequence[str] = "utf-8"
    allow_damaged: bool = False
    pattern: str | None = None
    special_tokens: Sequence[str] = ()
    sentencepiece: SentencePieceOptions = field(default_factory=SentencePieceOptions)
    skip_long_lines: bool = False
    fit_vocab: bool = False
    fit_lines: bool = False
    word_counts: str | WordCounts | None = None
    lowercase: bool = False
    strip_accents: bool = False

    @property
    def specials(self) -> list[str]:
        """The special tokens without duplicates, in the order given."""
        return list(dict.fromkeys(self.special_tokens))

    def validate(self) -> None:
        """Check the request before any corpus is read.

        Raises:
            InputError: an unknown algorithm or pattern, a pattern for
                SentencePiece, files for SentencePiece or WordPiece, lowercasing
                or accent stripping for another algorithm than WordPiece, or a
                vocabulary size the algorithm cannot use (for ``"bpe"``: below
                ``256 + specials`` or above the trainer's limit).

        >>> TrainingRequest(algorithm="bpe", vocab_size=257, special_tokens=["<a>", "<b>"]).validate()
        Traceback (most recent call last):
        ...
        tokexplorer.core.errors.InputError: byte-level BPE needs at least 256 base tokens (+2 special): ... at least 258
        >>> TrainingRequest(algorithm="sp-bpe", vocab_size=100, pattern="gpt2").validate()
        Traceback (most recent call last):
        ...
        tokexplorer.core.errors.SettingsConflictError: a split pattern applies to the bpe and wordpiece ... not sp-bpe
        """
        if self.algorithm not in ALGORITHMS + MORE_SENTENCEPIECE_ALGORITHMS:
            raise InputError(f"unknown algorithm {self.algorithm!r}; choose {', '.join(ALGORITHMS)}")
        if (self.lowercase or self.strip_accents) and self.algorithm != "wordpiece":
            raise SettingsConflictError(
                f"lowercase and strip accents apply to the wordpiece algorithm only, not {self.algorithm}"
            )
        if self.algorithm == "wordpiece":
            if self.pattern is not None and self.pattern not in WORDPIECE_PATTERNS:
                raise InputError(f"unknown pattern {self.pattern!r}; choose {', '.join(WORDPIECE_PATTERNS)}")
            if self.files is not None:
                raise InputError("WordPiece trains on texts in memory, not on streamed files")
            if isinstance(self.vocab_size, bool) or not isinstance(self.vocab_size, int) or self.vocab_size < 1:
                raise InputError(f"vocab_size must be positive, not {self.vocab_size}")
            return
        if self.algorithm == "bpe":
            if self.pattern is not None and self.pattern not in PATTERN_NAMES:
                if self.pattern in WORDPIECE_PATTERNS:  # (bert: a setting of another algorithm)
                    raise SettingsConflictError(
                        f"the {self.pattern} pattern applies to the wordpiece algorithm only, not bpe; "
                        f"choose {', '.join(PATTERN_NAMES)}"
                    )
                raise InputError(f"unknown pattern {self.pattern!r}; choose {', '.join(PATTERN_NAMES)}")
            validate_vocab_size(self.vocab_size, len(self.specials))
            if self.word_counts is not None and (self.files is not None or self.texts):
                raise InputError("train on a word-count table or on texts, not both")
            return
        if self.word_counts is not None:
            raise SettingsConflictError(f"a word-count table trains the bpe algorithm only, not {self.algorithm}")
        if self.pattern is not None:
            raise SettingsConflictError(
                f"a split pattern applies to the bpe and wordpiece algorithms only, not {self.algorithm}"
            )
        if self.files is not None:
            raise InputError("SentencePiece trains on texts in memory, not on streamed files")
        if isinstance(self.vocab_size, bool) or not isinstance(self.vocab_size, int) or self.vocab_size < 1:
            raise InputError(f"vocab_size must be positive, not {self.vocab_size}")


@dataclass(frozen=True)
class TrainingOutcome:
    """What a training run produced.

    Attributes:
        algorithm: the request's algorithm.
        tokenizer: the trained model behind the :class:`Tokenizer` interface.
        vocab_size: the size actually trained with (differs from the request's
            when ``fit_vocab`` moved it).
        bpe: the byte-level BPE model (``"bpe"`` only).
        report: the trainer's report (``"bpe"`` and ``"wordpiece"``; for WordPiece
            its merges count the pieces merges added).
        wordpiece: the WordPiece model (``"wordpiece"`` only).
        notes: remarks for the user, in order (a fitted size, SentencePiece's
            warnings, fewer merges than asked for).
    """

    algorithm: str
    tokenizer: Tokenizer
    vocab_size: int
    bpe: BPE | None = None
    report: TrainReport | None = None
    notes: tuple[str, ...] = ()
    wordpiece: WordPiece | None = None

    @property
    def summary(self) -> str:
        """One line for a status bar: the notes, else what was learned (a WordPiece's:
        :attr:`wordpiece_headline`, then the notes).

        >>> train(TrainingRequest(algorithm="sp-bpe", vocab_size=24, texts=["low lower lowest", "new newer"])).summary
        'trained SentencePiece · bpe model · nmt_nfkc · 24 pieces'
        """
        if self.wordpiece is not None:
            return "; ".join((self.wordpiece_headline, *self.notes))
        if self.notes:
            return "; ".join(self.notes)
        if self.report is not None:
            r = self.report
            return f"learned {r.learned_merges:,} of {r.requested_merges:,} requested merges; vocab {r.vocab_size:,}"
        return f"trained {self.tokenizer.description}"

    @property
    def wordpiece_headline(self) -> str:
        """What a WordPiece run learned, in one line (the window's and ``train``'s): the
        pieces merges added of those asked for, the vocabulary split into special
        tokens, alphabet (the corpus's first characters and ``##`` continuations: it
        sets how many pieces are left to learn) and learned pieces, and the training
        time in seconds. ``""`` for other algorithms.

        >>> out = train(TrainingRequest(algorithm="wordpiece", vocab_size=22, texts=["low lower lowest"]))
        >>> out.wordpiece_headline.split("; ")[:2]
        ['learned 7 of 10 requested WordPiece pieces (7 merges, no pair of pieces is left to merge)', \
'vocab 19 = 5 special tokens + 7 alphabet pieces + 7 learned']
        """
        wp, r = self.wordpiece, self.report
        if wp is None or r is None:
            return ""
        asked = "" if r.learned_merges == r.requested_merges else " requested"
        why = "" if not asked else ", no pair of pieces is left to merge"
        n_special = len(wp.special_tokens)
        return (
            f"learned {r.learned_merges:,} of {r.requested_merges:,}{asked} WordPiece pieces ({len(wp.merges):,} merges"
            f"{why}); vocab {r.vocab_size:,} = {n_special:,} special tokens + "
            f"{r.vocab_size - n_special - r.learned_merges:,} alphabet pieces + {r.learned_merges:,} learned; "
            f"{r.seconds:.1f} s"
        )


def train_iter(
    request: TrainingRequest, *, cancel: Callable[[], bool] | None = None
) -> Generator[Progress, None, TrainingOutcome]:
    """Train what ``request`` asks for, yielding progress.

    Args:
        request: what to train (validated first).
        cancel: polled between steps; when it returns True the run stops with
            :class:`~tokexplorer.core.errors.Cancelled`.

    Returns:
        The :class:`TrainingOutcome` (as the generator's return value).

    Raises:
        InputError: the request is invalid (see :meth:`TrainingRequest.validate`).
        TrainingError: nothing to train on, or the trainer failed;
            :class:`VocabTooLargeError` / :class:`VocabTooSmallError` (carrying the
            size SentencePiece allows) unless ``fit_vocab`` is set.
        Cancelled: ``cancel()`` returned True.

    >>> steps = train_iter(TrainingRequest(algorithm="bpe", vocab_size=258, texts=["aaab aaab"]))
    >>> [(p.phase, p.done, p.total) for p in steps][:3]
    [('pre-tokenizing', 9, 9), ('counting', 0, 2), ('counting', 2, 2)]
    """
    request.validate()
    if request.algorithm == "bpe":
        return (yield from _train_bpe(request, cancel))
    if request.algorithm == "wordpiece":
        return (yield from _train_wordpiece(request, cancel))
    return (yield from _train_sentencepiece(request, cancel))


def train(request: TrainingRequest, *, cancel: Callable[[], bool] | None = None) -> TrainingOutcome:
    """Run :func:`train_iter` to the end and return its outcome (same errors).

    >>> corpus = ["low lower lowest", "new newer newest"]
    >>> outcome = train(TrainingRequest(algorithm="sp-unigram", vocab_size=100, texts=corpus, fit_vocab=True))
    >>> outcome.vocab_size, outcome.notes
    (17, ('vocab 100 is too large for this corpus; trained with 17, the most SentencePiece allows',))
    """
    return run_to_end(train_iter(request, cancel=cancel))


def _counts_request(request: TrainingRequest) -> tuple[TrainingRequest, dict[str, int], str]:
    """The request with the table's pattern and special tokens, its counts and a note naming what was counted.

    Raises:
        InputError, ModelFormatError: the table cannot be read, or the request
            names another pattern or other special tokens than it was counted with.
    """
    from tokexplorer.core.io import WordCounts, load_word_counts

    given = request.word_counts
    table = given if isinstance(given, WordCounts) else load_word_counts(given)
    if request.pattern is not None and request.pattern != table.pattern:
        raise InputError(
            f"the word counts were split with the {table.pattern} pattern, not {request.pattern}; count again"
        )
    if request.special_tokens and tuple(request.specials) != table.special_tokens:
        given = ", ".join(table.special_tokens) or "none"
        raise InputError(f"the word counts were made with the special tokens {given}; count again to change them")
    validate_vocab_size(request.vocab_size, len(table.special_tokens))
    note = (
        f"trained from the word counts of {table.files:,} file{'s' if table.files != 1 else ''} "
        f"({table.bytes:,} bytes, {len(table.counts):,} chunks)"
    )
    return replace(request, pattern=table.pattern, special_tokens=table.special_tokens), table.counts, note


def _train_bpe(
    request: TrainingRequest, cancel: Callable[[], bool] | None
) -> Generator[Progress, None, TrainingOutcome]:
    counts, notes = None, ()
    if request.word_counts is not None:
        request, counts, note = _counts_request(request)
        notes = (note,)
    bpe, report = yield from train_bpe_iter(
        list(request.texts) if request.files is None else [],
        vocab_size=request.vocab_size,
        pattern=request.pattern or DEFAULT_PATTERN,
        special_tokens=request.specials,
        files=list(request.files) if request.files is not None else None,
        encoding=request.encoding,
        encoding_errors="replace" if request.allow_damaged else "strict",
        word_counts=counts,
        cancel=cancel,
    )
    return bpe_outcome(bpe, report, tuple(report.messages) + notes)


def bpe_outcome(bpe: BPE, report: TrainReport, notes: tuple[str, ...]) -> TrainingOutcome:
    """The :class:`TrainingOutcome` of a byte-level BPE training: ``bpe`` behind the
    Tokenizer interface, the size ``report`` reached, ``notes`` as given (also used by
    :mod:`tokexplorer.core.training_child`, which rebuilds the model in the parent)."""
    return TrainingOutcome(
        algorithm="bpe", tokenizer=BPETokenizer(bpe), vocab_size=report.vocab_size, bpe=bpe, report=report, notes=notes
    )


def wordpiece_floor(request: TrainingRequest, characters: Iterable[str]) -> tuple[int, int]:
    """``(vocab_size, special tokens)``: the least size a WordPiece training of ``request``
    needs on a corpus of these distinct characters, known before any word is counted (a
    lower bound: :func:`~tokexplorer.core.wordpiece.character_pieces` + the special tokens,
    BERT's when none are given, ``[UNK]`` added when missing, as training does).

    >>> wordpiece_floor(TrainingRequest(algorithm="wordpiece", vocab_size=1), set("世界 你好"))
    (9, 5)
    """
    specials = request.specials or list(BERT_SPECIAL_TOKENS)
    specials = specials if UNK in specials else [UNK, *specials]
    pieces = character_pieces(characters, specials, pattern=request.pattern or BERT_PATTERN,
                              lowercase=request.lowercase, strip_accents=request.strip_accents)  # fmt: skip
    return len(specials) + pieces, len(specials)


def _train_wordpiece(
    request: TrainingRequest, cancel: Callable[[], bool] | None
) -> Generator[Progress, None, TrainingOutcome]:
    specials = request.specials
    notes: list[str] = []
    if not specials:
        specials = list(BERT_SPECIAL_TOKENS)
        notes.append(f"no special tokens given: BERT's {' '.join(specials)} are ids 0-{len(specials) - 1}")
    wp, report = yield from train_wordpiece_iter(
        list(request.texts),
        vocab_size=request.vocab_size,
        pattern=request.pattern or BERT_PATTERN,
        lowercase=request.lowercase,
        strip_accents=request.strip_accents,
        special_tokens=specials,
        cancel=cancel,
    )
    return TrainingOutcome(
        algorithm="wordpiece",
        tokenizer=WordPieceTokenizer(wp),
        vocab_size=report.vocab_size,
        report=report,
        notes=tuple(notes + report.messages[1:]),  # the first message is in the summary's headline
        wordpiece=wp,
    )


def _train_sentencepiece(
    request: TrainingRequest, cancel: Callable[[], bool] | None
) -> Generator[Progress, None, TrainingOutcome]:
    from tokexplorer.core.backends import train_sentencepiece  # (its adapter and numpy loaded where one trains)

    model_type = request.algorithm.split("-", 1)[1]
    yield Progress("training SentencePiece", 0, None, model_type)
    options = replace(request.sentencepiece, model_type=model_type)
    texts = list(request.texts)
    skip_long_lines = request.skip_long_lines
    line_notes: list[str] = []  # said after the note of a fitted size, which comes first
    if request.fit_lines:
        limit, skip, note = fit_line_length(texts, max_sentence_length=options.max_sentence_length)
        options = replace(options, max_sentence_length=limit)
        skip_long_lines = skip_long_lines or skip
        line_notes += [note] if note else []

    def run(size: int) -> SentencePieceTokenizer:
        return train_sentencepiece(
            texts,
            vocab_size=size,
            options=options,
            user_defined_symbols=request.specials,
            skip_long_lines=skip_long_lines,
            cancel=cancel,
        )

    size = request.vocab_size
    notes: list[str] = []
    try:
        tok = run(size)
    except (VocabTooLargeError, VocabTooSmallError) as exc:
        fitted = fitted_size(exc, requested=request.vocab_size) if request.fit_vocab else None
        if fitted is None:
            raise
        if cancel is not None and cancel():
            raise Cancelled("SentencePiece training cancelled") from None
        size, note = fitted
        notes.append(note)
        tok = run(size)
    notes += line_notes + list(tok.train_notes)
    return TrainingOutcome(algorithm=request.algorithm, tokenizer=tok, vocab_size=size, notes=tuple(notes))


__all__ = [
    "FIT_LINES_CEILING",
    "fit_line_length",
    "ALGORITHMS",
    "DEFAULT_PATTERN",
    "MORE_SENTENCEPIECE_ALGORITHMS",
    "TrainingOutcome",
    "TrainingRequest",
    "train",
    "train_iter",
    "wordpiece_floor",
]
