"""Checking a SentencePiece training request against the corpus before training:
the characters it keeps, the smallest and largest vocabulary it allows, lines
that are too long."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tokexplorer.core.backends.sentencepiece.errors import LinesTooLongError
from tokexplorer.core.backends.sentencepiece.options import (
    _DEFAULT_OPTIONS,
    OptionValue,
    SentencePieceOptions,
    _check_options,
    _corpus_lines,
    _with_fields,
    coverage_problem,
)
from tokexplorer.core.backends.sentencepiece.proto import WS, _import_spm

_MAX_PIECE_LENGTH = 16  # SentencePiece's default max_piece_length
_META_PIECES = 3  # <unk>, <s>, </s>


@dataclass(frozen=True, slots=True)
class SPTrainingCheck:
    """What :func:`check_sentencepiece_training` found, before any training.

    Attributes:
        n_lines: non-empty lines (SentencePiece sentences).
        n_long: lines longer than ``max_sentence_length`` bytes (SentencePiece skips them).
        longest: length of the longest line, in UTF-8 bytes.
        longest_line: 1-based number of that line among the non-empty lines.
        n_chars: distinct characters after normalization (space counted as ``▁``).
        required_chars: characters ``character_coverage`` keeps, counted as
            SentencePiece does (most frequent first until the coverage is reached).
        meta_pieces: ``<unk>``, ``<s>``, ``</s>``, user-defined symbols and, with
            byte fallback, the 256 byte pieces.
        min_vocab_size: ``required_chars + meta_pieces``: the smallest vocab_size
            SentencePiece accepts (its "smaller than required_chars" check, vocabulary smaller than the alphabet).
        max_vocab_estimate: an upper bound of the pieces this corpus can give
            (``min_vocab_size`` plus the distinct substrings of 2 to 16 characters
            of its whitespace-separated words), or None when that bound is at
            least ``vocab_size`` (counting stops there). SentencePiece's exact
            limit is only known after training (vocabulary too large for the corpus).
        fitting_coverage: when ``vocab_size`` is below ``min_vocab_size``, the
            highest ``character_coverage`` (4 decimals, within SentencePiece's
            0.98–1.0) that keeps few enough characters for ``vocab_size``; None
            when the vocab fits, or when even 0.98 keeps too many.
        problems: one-line messages, empty when training may start.
    """

    n_lines: int
    n_long: int
    longest: int
    longest_line: int
    n_chars: int
    required_chars: int
    meta_pieces: int
    min_vocab_size: int
    max_vocab_estimate: int | None
    fitting_coverage: float | None = None
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _LineLengths:
    """Lines measured against ``max_sentence_length`` (lengths in UTF-8 bytes)."""

    kept: list[str]  # the lines SentencePiece trains on
    n_long: int
    longest: int
    longest_line: int  # 1-based, among the non-empty lines


def _measure_lines(lines: Sequence[str], max_sentence_length: int) -> _LineLengths:
    kept: list[str] = []
    n_long = longest = longest_line = 0
    for i, line in enumerate(lines, 1):
        nb = len(line.encode("utf-8"))
        if nb > longest:
            longest, longest_line = nb, i
        if nb > max_sentence_length:
            n_long += 1
        else:
            kept.append(line)
    return _LineLengths(kept, n_long, longest, longest_line)


def _normalized_alphabet(
    spm: Any, lines: Sequence[str], options: SentencePieceOptions
) -> tuple[Counter[str], set[str]]:
    """Characters of the normalized lines with their counts, and the distinct
    ``▁``-prefixed words, as SentencePiece's trainer sees them."""
    norm = spm.SentencePieceNormalizer(
        rule_name=options.normalization_rule_name,
        add_dummy_prefix=True,
        escape_whitespaces=True,
        remove_extra_whitespaces=bool(options.remove_extra_whitespaces),
    )
    counts: Counter[str] = Counter()
    words: set[str] = set()
    for line in lines:
        s = norm.normalize(line)
        counts.update(s)
        words.update(WS + w for w in s.split(WS) if w)
    counts.pop("\x00", None)
    counts.pop(" ", None)
    return counts, words


def _required_chars(counts: Counter[str], coverage: float) -> int:
    """Characters kept by ``coverage``, most frequent first (``trainer_interface.cc``)."""
    total = sum(counts.values())
    required = acc = 0
    if total:
        for _ch, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            if acc / total >= min(coverage, 1.0):
                break
            acc += n
            required += 1
    return required


def _fitting_coverage(counts: Counter[str], room: int) -> float | None:
    """The highest ``character_coverage`` (4 decimals, at least 0.98) that keeps at
    most ``room`` characters, or None when 0.98 keeps more."""
    total = sum(counts.values())
    if room < 1 or not total:
        return None
    top = sum(sorted(counts.values(), reverse=True)[:room])
    coverage = int(top / total * 10_000) / 10_000  # rounded down: it keeps at most ``room``
    while coverage >= 0.98 and _required_chars(counts, coverage) > room:
        coverage = round(coverage - 0.0001, 4)
    return coverage if coverage >= 0.98 else None


def vocab_too_small_message(
    vocab_size: int, *, required_chars: int, meta_pieces: int, coverage: float,
    fitting_coverage: float | None, byte_fallback: bool,
) -> str:  # fmt: skip
    """Why ``vocab_size`` is below what SentencePiece needs, and the two fixes: a
    larger vocab, or a lower ``character_coverage`` (rarer characters then become
    ``<unk>``, or byte pieces with byte fallback).

    Args:
        vocab_size: the vocab asked for (pieces).
        required_chars, meta_pieces: as :class:`SPTrainingCheck` counts them.
        coverage: the ``character_coverage`` asked for.
        fitting_coverage: :attr:`SPTrainingCheck.fitting_coverage`.
        byte_fallback: whether byte fallback is on.

    Returns:
        one line.

    >>> m = vocab_too_small_message(30, required_chars=33, meta_pieces=3, coverage=1.0,
    ...                             fitting_coverage=0.9953, byte_fallback=False)
    >>> print(m.replace("; ", ";\\n").replace(", or ", ",\\nor "))
    vocab_size 30 < 36 needed: 33 characters kept by character_coverage 1.0 + 3 meta pieces;
    raise vocab_size to at least 36,
    or lower character_coverage to 0.9953 (it keeps at most the 27 most frequent characters;
    rarer ones become <unk>)
    """
    need = required_chars + meta_pieces
    text = (
        f"vocab_size {vocab_size:,} < {need:,} needed: {required_chars:,} characters kept by "
        f"character_coverage {coverage} + {meta_pieces} meta pieces; raise vocab_size to at least {need:,}"
    )
    room = vocab_size - meta_pieces
    if fitting_coverage is not None:
        rarer = "byte pieces" if byte_fallback else "<unk>"
        return (
            f"{text}, or lower character_coverage to {fitting_coverage} (it keeps at most the {room:,} most frequent "
            f"characters; rarer ones become {rarer})"
        )
    if room >= 1 and coverage > 0.98:
        return f"{text} (even character_coverage 0.98, SentencePiece's lowest, keeps more than {room:,} characters)"
    return text


def _max_vocab_estimate(words: set[str], *, min_vocab: int, vocab_size: int, model_type: str) -> int | None:
    """``min_vocab`` plus the distinct substrings of 2 to 16 characters of ``words``,
    or None once that reaches ``vocab_size`` (see :class:`SPTrainingCheck`)."""
    if model_type == "char":
        return min_vocab
    # every piece is a substring of a word (SentencePiece never crosses
    # whitespace); stop counting once the request fits
    subs: set[str] = set()
    for w in words:
        for i in range(len(w)):
            subs.update(w[i:j] for j in range(i + 2, min(len(w), i + _MAX_PIECE_LENGTH) + 1))
        if min_vocab + len(subs) >= vocab_size:
            return None
    return min_vocab + len(subs)


def check_sentencepiece_training(
    texts: Iterable[str],
    *,
    vocab_size: int,
    options: SentencePieceOptions = _DEFAULT_OPTIONS,
    user_defined_symbols: Sequence[str] = (),
    skip_long_lines: bool = False,
    **option_fields: OptionValue,
) -> SPTrainingCheck:
    """Check a SentencePiece training request against the corpus, without training.

    The text is normalized with SentencePiece's own normalizer
    (``SentencePieceNormalizer``, same rule, dummy prefix and whitespace escaping
    as the trainer), characters are counted, and ``character_coverage`` is
    applied as in ``trainer_interface.cc`` (sort by count, keep until the covered
    share reaches the coverage), so ``min_vocab_size`` is exactly SentencePiece's
    ``required_chars`` number (36 for the edge-case fixture: 33 characters + 3).

    Args:
        texts: the corpus (split into lines; empty lines are skipped).
        vocab_size, options, user_defined_symbols: as :func:`train_sentencepiece`
            (``options.split_digits`` plays no part in the check).
        skip_long_lines: when False, lines over ``max_sentence_length`` bytes are
            a problem; when True they are only counted.
        option_fields: fields of :class:`SentencePieceOptions` given one by one;
            they replace those of ``options``.

    Returns:
        :class:`SPTrainingCheck`; ``problems`` lists, in this order: an empty
        corpus, coverage out of range, lines over the limit, a vocab_size below
        ``min_vocab_size``, a vocab_size above ``max_vocab_estimate``.

    Raises:
        InputError: unknown normalization rule or model type.
        BackendUnavailableError: sentencepiece is not installed.

    >>> c = check_sentencepiece_training(["ab ab", "ba"], vocab_size=5)
    >>> (c.required_chars, c.min_vocab_size, len(c.problems))
    (3, 6, 1)
    >>> print(c.problems[0].replace("; ", ";\\n"))
    vocab_size 5 < 6 needed: 3 characters kept by character_coverage 1.0 + 3 meta pieces;
    raise vocab_size to at least 6 (even character_coverage 0.98, SentencePiece's lowest, keeps more than 2 characters)
    >>> check_sentencepiece_training(["ab ab", "ba"], vocab_size=5, byte_fallback=True).min_vocab_size
    262
    """
    spm = _import_spm()
    opts = _with_fields(options, option_fields)
    _check_options(opts, vocab_size, num_threads=1)
    lines, _n = _corpus_lines(texts)
    problems: list[str] = []
    if not lines:
        problems.append("nothing to train on")
    problem = coverage_problem(opts.character_coverage)
    if problem:
        problems.append(problem)
    m = _measure_lines(lines, opts.max_sentence_length)
    if m.n_long and not skip_long_lines:
        problems.append(str(LinesTooLongError(m.n_long, m.longest, m.longest_line, opts.max_sentence_length)))
    if lines and not m.kept:
        problems.append(
            f"every line is longer than max_sentence_length {opts.max_sentence_length:,} bytes: nothing to train on"
        )
    counts, words = _normalized_alphabet(spm, m.kept, opts)
    cov = float(opts.character_coverage)
    required = _required_chars(counts, cov)
    meta = _META_PIECES + len(dict.fromkeys(user_defined_symbols)) + (256 if opts.byte_fallback else 0)
    min_vocab = required + meta
    max_est = _max_vocab_estimate(words, min_vocab=min_vocab, vocab_size=vocab_size, model_type=opts.model_type)
    fitting = _fitting_coverage(counts, vocab_size - meta) if vocab_size < min_vocab else None
    if m.kept and vocab_size < min_vocab:
        problems.append(
            vocab_too_small_message(
                vocab_size, required_chars=required, meta_pieces=meta, coverage=cov,
                fitting_coverage=fitting, byte_fallback=bool(opts.byte_fallback),
            )  # fmt: skip
        )
    if m.kept and max_est is not None and vocab_size > max_est:
        problems.append(
            f"vocab_size {vocab_size:,} is too large for this corpus: it has {len(words):,} distinct "
            f"words, enough for at most about {max_est:,} pieces"
        )
    return SPTrainingCheck(
        n_lines=len(lines),
        n_long=m.n_long,
        longest=m.longest,
        longest_line=m.longest_line,
        n_chars=len(counts),
        required_chars=required,
        meta_pieces=meta,
        min_vocab_size=min_vocab,
        max_vocab_estimate=max_est,
        fitting_coverage=fitting,
        problems=tuple(problems),
    )
