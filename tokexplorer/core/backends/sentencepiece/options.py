"""The SentencePiece trainer options a user chooses, spelled out once, and what
the check and the training both do first: refuse settings SentencePiece cannot
use and cut the corpus into the lines it trains on."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import Any

from tokexplorer.core.errors import InputError
from tokexplorer.core.io.line_ends import lf_lines
from tokexplorer.core.text import clean_text


@dataclass(frozen=True, slots=True)
class SentencePieceOptions:
    """The SentencePiece trainer options a user chooses, spelled out once.

    Every front end (the command line's ``train``, the Corpus pane, the training
    dialog) builds one of these; :func:`~.training.train_sentencepiece` and
    :func:`~.check.check_sentencepiece_training` take it as ``options`` (or its
    fields one by one, as keyword arguments). Defaults are
    SentencePiece's own (``spm_train --help``), except ``character_coverage``
    (SentencePiece's default is 0.9995; 1.0 keeps every character of the corpus).

    Attributes:
        model_type: ``"bpe"``, ``"unigram"``, ``"char"`` or ``"word"``.
        character_coverage: share of the corpus's characters covered by the
            alphabet (0.98–1.0); rarer characters become ``<unk>`` or bytes.
        byte_fallback: characters outside the vocabulary become ``<0xNN>``
            byte pieces instead of ``<unk>``.
        normalization_rule_name: ``nmt_nfkc``, ``nfkc``, ``nmt_nfkc_cf``,
            ``nfkc_cf`` or ``identity``.
        remove_extra_whitespaces: collapse runs of spaces and strip line ends.
        split_digits: every digit is its own piece.
        max_sentence_length: longest line used, in bytes (SentencePiece's
            ``max_sentence_length``).

    >>> SentencePieceOptions(model_type="unigram").as_kwargs()["model_type"]
    'unigram'
    """

    model_type: str = "bpe"
    character_coverage: float = 1.0
    byte_fallback: bool = False
    normalization_rule_name: str = "nmt_nfkc"
    remove_extra_whitespaces: bool = True
    split_digits: bool = False
    max_sentence_length: int = 4192

    def as_kwargs(self) -> dict[str, Any]:
        """The fields by name: keyword arguments of :func:`~.training.train_sentencepiece`."""
        return asdict(self)


_DEFAULT_OPTIONS = SentencePieceOptions()

#: The type of a :class:`SentencePieceOptions` field given one by one, as a
#: keyword argument, instead of in ``options``.
OptionValue = str | float | bool

_MODEL_TYPES = ("bpe", "unigram", "char", "word")
#: Every normalization rule SentencePiece knows (``normalization_rule_name``), its default first.
NORMALIZATION_RULES: tuple[str, ...] = ("nmt_nfkc", "nfkc", "nmt_nfkc_cf", "nfkc_cf", "identity")


def _with_fields(options: SentencePieceOptions, fields: dict[str, OptionValue]) -> SentencePieceOptions:
    """``options`` with the fields given one by one replaced.

    Raises:
        TypeError: a name that is not a field of :class:`SentencePieceOptions`
            (as for any unknown keyword argument).
    """
    return replace(options, **fields) if fields else options


def _check_options(options: SentencePieceOptions, vocab_size: int, *, num_threads: int) -> None:
    """Refuse settings SentencePiece cannot use (coverage is checked by the callers).

    Raises:
        InputError: unknown model type or normalization rule, a vocab_size that
            is not a positive int, max_sentence_length or num_threads below 1.
    """
    if options.model_type not in _MODEL_TYPES:
        raise InputError(f"unknown model_type {options.model_type!r}; choose bpe, unigram, char or word")
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise InputError(f"vocab_size must be a positive integer, not {vocab_size!r}")
    if options.normalization_rule_name not in NORMALIZATION_RULES:
        raise InputError(
            f"unknown normalization_rule_name {options.normalization_rule_name!r}; choose nmt_nfkc, "
            "nfkc, nmt_nfkc_cf, nfkc_cf or identity"
        )
    if options.max_sentence_length < 1 or num_threads < 1:
        raise InputError("max_sentence_length and num_threads must be at least 1")


def coverage_problem(coverage: float) -> str | None:
    """The one-line message for a ``character_coverage`` outside SentencePiece's
    range (0.98–1.0), else None.

    >>> coverage_problem(0.9995) is None
    True
    >>> coverage_problem(0.9)
    "character_coverage 0.9 is outside 0.98–1.0 (SentencePiece's range)"
    """
    if 0.98 <= float(coverage) <= 1.0:
        return None
    return f"character_coverage {coverage} is outside 0.98–1.0 (SentencePiece's range)"


def _corpus_lines(texts: Iterable[str]) -> tuple[list[str], int]:
    """The cleaned lines of ``texts`` as ``spm_train`` reads them from a file, and
    how many texts had lone surrogates.

    Lines end at ``"\\n"`` only (not at the other breaks :meth:`str.splitlines`
    knows, such as U+0085, which SentencePiece keeps inside a line); empty lines
    are dropped, lines of only spaces kept: SentencePiece counts them as
    sentences, which changes how a unigram trainer shares its work between
    threads, and so its scores. No lines at all when none holds anything but
    whitespace.

    >>> _corpus_lines(["a b\\n\\n \\nc\\x85d\\r\\n"])
    (['a b', ' ', 'c\\x85d\\r'], 0)
    >>> _corpus_lines([" \\n\\t"])
    ([], 0)
    """
    if isinstance(texts, str):
        texts = [texts]
    lines: list[str] = []
    n_surrogate = 0
    for text in texts:
        cleaned = clean_text(text)
        if cleaned.changed:
            n_surrogate += 1
        lines.extend(line for line in lf_lines(cleaned.text) if line)
    if not any(line.strip() for line in lines):
        return [], n_surrogate
    return lines, n_surrogate
