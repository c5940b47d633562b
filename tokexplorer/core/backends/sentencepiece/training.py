"""Training SentencePiece models in memory: a check before training, training, and
training in a child process that Cancel can end."""

from __future__ import annotations

import io
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tokexplorer.core.backends.sentencepiece.errors import (
    LinesTooLongError,
    VocabTooSmallError,
    _translate_training_error,
)
from tokexplorer.core.backends.sentencepiece.proto import WS, _import_spm
from tokexplorer.core.backends.sentencepiece.tokenizer import SentencePieceTokenizer
from tokexplorer.core.errors import (
    Cancelled,
    InputError,
    TrainingError,
)
from tokexplorer.core.text import clean_text


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
    problems: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SentencePieceOptions:
    """The SentencePiece trainer options a user chooses, spelled out once.

    Every front end (the command line's ``train``, the Corpus pane, the training
    dialog) builds one of these; :func:`train_sentencepiece` and
    :func:`check_sentencepiece_training` take its fields. Defaults are
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
        """The options as keyword arguments of :func:`train_sentencepiece`."""
        return {name: getattr(self, name) for name in self.__slots__}


_MAX_PIECE_LENGTH = 16  # SentencePiece's default max_piece_length


def _corpus_lines(texts: Iterable[str]) -> tuple[list[str], int]:
    """Non-empty cleaned lines of ``texts`` and how many texts had lone surrogates."""
    if isinstance(texts, str):
        texts = [texts]
    lines: list[str] = []
    n_surrogate = 0
    for text in texts:
        cleaned = clean_text(text)
        if cleaned.changed:
            n_surrogate += 1
        lines.extend(line for line in cleaned.text.splitlines() if line.strip())
    return lines, n_surrogate


def check_sentencepiece_training(
    texts: Iterable[str],
    *,
    vocab_size: int,
    model_type: str = "bpe",
    character_coverage: float = 1.0,
    byte_fallback: bool = False,
    normalization_rule_name: str = "nmt_nfkc",
    remove_extra_whitespaces: bool = True,
    user_defined_symbols: Sequence[str] = (),
    max_sentence_length: int = 4192,
    skip_long_lines: bool = False,
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
        vocab_size, model_type, character_coverage, byte_fallback,
        normalization_rule_name, remove_extra_whitespaces, user_defined_symbols,
        max_sentence_length: as :func:`train_sentencepiece`.
        skip_long_lines: when False, lines over ``max_sentence_length`` bytes are
            a problem; when True they are only counted.

    Returns:
        :class:`SPTrainingCheck`; ``problems`` lists, in this order: an empty
        corpus, coverage out of range, lines over the limit, a vocab_size below
        ``min_vocab_size``, a vocab_size above ``max_vocab_estimate``.

    Raises:
        InputError: unknown normalization rule or model type.
        BackendUnavailableError: sentencepiece is not installed.

    >>> c = check_sentencepiece_training(["ab ab", "ba"], vocab_size=5)
    >>> (c.required_chars, c.min_vocab_size, c.problems)
    (3, 6, ('vocab_size 5 < 6 needed: 3 characters kept by character_coverage 1.0 + 3 meta pieces',))
    """
    spm = _import_spm()
    _check_options(model_type, vocab_size, normalization_rule_name, max_sentence_length, 1)
    lines, _n = _corpus_lines(texts)
    problems: list[str] = []
    if not lines:
        problems.append("nothing to train on")
    cov = float(character_coverage)
    if not 0.98 <= cov <= 1.0:
        problems.append(f"character_coverage {character_coverage} is outside 0.98–1.0 (SentencePiece's range)")
    n_long = longest = longest_line = 0
    kept: list[str] = []
    for i, line in enumerate(lines, 1):
        nb = len(line.encode("utf-8"))
        if nb > longest:
            longest, longest_line = nb, i
        if nb > max_sentence_length:
            n_long += 1
        else:
            kept.append(line)
    if n_long and not skip_long_lines:
        problems.append(str(LinesTooLongError(n_long, longest, longest_line, max_sentence_length)))
    if lines and not kept:
        problems.append(
            f"every line is longer than max_sentence_length {max_sentence_length:,} bytes: nothing to train on"
        )
    norm = spm.SentencePieceNormalizer(
        rule_name=normalization_rule_name,
        add_dummy_prefix=True,
        escape_whitespaces=True,
        remove_extra_whitespaces=bool(remove_extra_whitespaces),
    )
    counts: Counter[str] = Counter()
    words: set[str] = set()
    for line in kept:
        s = norm.normalize(line)
        counts.update(s)
        words.update(WS + w for w in s.split(WS) if w)
    counts.pop("\x00", None)
    counts.pop(" ", None)
    total = sum(counts.values())
    required = acc = 0
    if total:
        for _ch, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
            if acc / total >= min(cov, 1.0):
                break
            acc += n
            required += 1
    meta = 3 + len(dict.fromkeys(user_defined_symbols)) + (256 if byte_fallback else 0)
    min_vocab = required + meta
    max_est: int | None = min_vocab
    if model_type != "char":
        # every piece is a substring of a word (SentencePiece never crosses
        # whitespace); stop counting once the request fits
        subs: set[str] = set()
        for w in words:
            for i in range(len(w)):
                subs.update(w[i:j] for j in range(i + 2, min(len(w), i + _MAX_PIECE_LENGTH) + 1))
            if min_vocab + len(subs) >= vocab_size:
                max_est = None
                break
        else:
            max_est = min_vocab + len(subs)
    if kept and vocab_size < min_vocab:
        problems.append(
            f"vocab_size {vocab_size:,} < {min_vocab:,} needed: {required:,} characters kept by "
            f"character_coverage {cov} + {meta} meta pieces"
        )
    if kept and max_est is not None and vocab_size > max_est:
        problems.append(
            f"vocab_size {vocab_size:,} is too large for this corpus: it has {len(words):,} distinct "
            f"words, enough for at most about {max_est:,} pieces"
        )
    return SPTrainingCheck(
        len(lines), n_long, longest, longest_line, len(counts), required, meta, min_vocab, max_est,
        tuple(problems),
    )


def _check_options(
    model_type: str, vocab_size: Any, normalization_rule_name: str, max_sentence_length: int, num_threads: int
) -> None:
    if model_type not in ("bpe", "unigram", "char", "word"):
        raise InputError(f"unknown model_type {model_type!r}; choose bpe, unigram, char or word")
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int) or vocab_size < 1:
        raise InputError(f"vocab_size must be a positive integer, not {vocab_size!r}")
    if normalization_rule_name not in ("nmt_nfkc", "nfkc", "nmt_nfkc_cf", "nfkc_cf", "identity"):
        raise InputError(
            f"unknown normalization_rule_name {normalization_rule_name!r}; choose nmt_nfkc, "
            "nfkc, nmt_nfkc_cf, nfkc_cf or identity"
        )
    if max_sentence_length < 1 or num_threads < 1:
        raise InputError("max_sentence_length and num_threads must be at least 1")


def train_sentencepiece(
    texts: Iterable[str],
    *,
    vocab_size: int,
    model_type: str = "bpe",
    character_coverage: float = 1.0,
    byte_fallback: bool = False,
    normalization_rule_name: str = "nmt_nfkc",
    remove_extra_whitespaces: bool = True,
    split_digits: bool = False,
    user_defined_symbols: Sequence[str] = (),
    max_sentence_length: int = 4192,
    skip_long_lines: bool = False,
    hard_vocab_limit: bool = True,
    num_threads: int = 2,
    name: str | None = None,
    cancel: Callable[[], bool] | None = None,
) -> SentencePieceTokenizer:
    """Train a SentencePiece model in memory (no files written).

    Each text is split at line breaks; every line is one SentencePiece
    "sentence" (as when SentencePiece reads a file). Lines are cleaned with
    :func:`~tokexplorer.core.text.clean.clean_text`; empty lines are skipped.
    SentencePiece's C++ log is captured (not shown) and mined for warnings: for
    the duration of the call, file descriptor 2 (stderr) of the whole process is
    redirected to a temporary file (SentencePiece's ``logstream`` option).

    SentencePiece's trainer is one C++ call that cannot be interrupted. With a
    ``cancel`` callback and a corpus of at least :data:`CHILD_TRAIN_CHARS`, it
    runs in a child process (spawned, so it is safe beside GUI threads) that is
    ended when ``cancel()`` returns True (polled every 0.1 s); smaller corpora
    train in this process, in well under a second.

    Args:
        texts: the corpus, any iterable of str.
        vocab_size: number of pieces, meta pieces (``<unk>``, ``<s>``, ``</s>``) included.
        model_type: ``"bpe"``, ``"unigram"``, ``"char"`` or ``"word"``.
        character_coverage: share of characters the vocabulary must cover,
            0.98–1.0 (SentencePiece's accepted range).
        byte_fallback: add 256 ``<0xNN>`` byte pieces for unseen characters.
        normalization_rule_name: ``"nmt_nfkc"``, ``"nfkc"``, ``"nmt_nfkc_cf"``,
            ``"nfkc_cf"`` or ``"identity"``.
        remove_extra_whitespaces: collapse runs of spaces, strip leading/trailing ones.
        split_digits: one piece per digit.
        user_defined_symbols: pieces that are always kept whole.
        max_sentence_length: longest line SentencePiece trains on, in bytes.
        skip_long_lines: let SentencePiece skip longer lines (noted in
            ``train_notes``) instead of refusing with :class:`LinesTooLongError`.
        hard_vocab_limit: False lets SentencePiece return fewer pieces than asked.
        num_threads: trainer threads.
        name: display name of the result.
        cancel: polled while training; returning True stops it (see above).

    Returns:
        :class:`SentencePieceTokenizer` with ``model_proto`` set and
        ``train_notes`` (e.g. "5 lines contain NUL; SentencePiece skips NUL (it
        is an unknown piece)").

    Raises:
        InputError: a setting is out of range (coverage outside 0.98–1.0, unknown
            model type, vocab_size < 1).
        TrainingError: nothing to train on, or SentencePiece refused;
            :class:`VocabTooLargeError` carries ``max_vocab_size`` (vocabulary too large for the corpus; known
            only after SentencePiece tried),
            :class:`VocabTooSmallError` carries ``min_vocab_size`` (vocabulary smaller than the alphabet; counted
            before training by :func:`check_sentencepiece_training`),
            :class:`LinesTooLongError`: lines over ``max_sentence_length`` and
            ``skip_long_lines`` is False (checked before training).
        Cancelled: ``cancel()`` returned True.
    """
    spm = _import_spm()
    _check_options(model_type, vocab_size, normalization_rule_name, max_sentence_length, num_threads)
    if not 0.98 <= float(character_coverage) <= 1.0:
        raise InputError(
            f"character_coverage {character_coverage} is outside 0.98–1.0 (SentencePiece's range)"
        )
    if isinstance(texts, str):
        texts = [texts]
    lines: list[str] = []
    n_nul = n_long = n_surrogate = 0
    for text in texts:
        cleaned = clean_text(text)
        if cleaned.changed:
            n_surrogate += 1
        for line in cleaned.text.splitlines():
            if not line.strip():
                continue
            if "\x00" in line:
                n_nul += 1
            if len(line.encode("utf-8")) > max_sentence_length:
                n_long += 1
            lines.append(line)
    if not lines:
        raise TrainingError("nothing to train on")
    check = check_sentencepiece_training(
        lines,
        vocab_size=vocab_size,
        model_type=model_type,
        character_coverage=character_coverage,
        byte_fallback=byte_fallback,
        normalization_rule_name=normalization_rule_name,
        remove_extra_whitespaces=remove_extra_whitespaces,
        user_defined_symbols=user_defined_symbols,
        max_sentence_length=max_sentence_length,
        skip_long_lines=skip_long_lines,
    )
    if check.n_long and not skip_long_lines:
        raise LinesTooLongError(check.n_long, check.longest, check.longest_line, max_sentence_length)
    if check.n_long == check.n_lines:
        raise TrainingError(
            f"every line is longer than max_sentence_length {max_sentence_length:,} bytes: nothing to train on"
        )
    if model_type in ("bpe", "unigram") and vocab_size < check.min_vocab_size:
        raise VocabTooSmallError(vocab_size, check.min_vocab_size)
    options: dict[str, Any] = dict(
        model_type=model_type,
        vocab_size=vocab_size,
        character_coverage=float(character_coverage),
        byte_fallback=bool(byte_fallback),
        normalization_rule_name=normalization_rule_name,
        remove_extra_whitespaces=bool(remove_extra_whitespaces),
        split_digits=bool(split_digits),
        max_sentence_length=int(max_sentence_length),
        hard_vocab_limit=bool(hard_vocab_limit),
        num_threads=int(num_threads),
    )
    if user_defined_symbols:
        options["user_defined_symbols"] = list(user_defined_symbols)
    n_chars = sum(len(line) for line in lines)
    if cancel is not None and n_chars >= CHILD_TRAIN_CHARS:
        model, log_text = _train_in_child(lines, options, cancel)
    else:
        try:
            model, log_text = _train_here(spm, lines, options)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - RuntimeError from the C++ trainer
            raise _translate_training_error(exc) from None
    notes: list[str] = []
    warned_nul = log_text.count("Found null character")
    if n_nul or warned_nul:
        n = max(n_nul, warned_nul)
        notes.append(
            f"{n} line{'s' if n != 1 else ''} contain NUL; SentencePiece skips NUL "
            "(it is an unknown piece)"
        )
    if n_long:
        notes.append(
            f"{n_long} line{'s' if n_long != 1 else ''} longer than {max_sentence_length} bytes "
            "skipped by SentencePiece"
        )
    if n_surrogate:
        notes.append(f"lone surrogates replaced by U+FFFD in {n_surrogate} text(s)")
    if not model:
        raise TrainingError("SentencePiece produced no model")
    return SentencePieceTokenizer(model, name=name, train_notes=notes)


#: Corpora of at least this many characters train in a child process when a
#: cancel callback is given (see :func:`train_sentencepiece`): starting the
#: child costs about 0.3 s, which only pays off where training takes longer.
CHILD_TRAIN_CHARS = 2_000_000


def _train_here(spm: Any, lines: list[str], options: dict[str, Any]) -> tuple[bytes, str]:
    """Run SentencePiece's trainer in this process.

    Returns:
        ``(model bytes, SentencePiece's log text)``.
    """
    buf = io.BytesIO()
    log_text = ""
    with tempfile.TemporaryFile() as log:
        try:
            spm.SentencePieceTrainer.train(
                sentence_iterator=iter(lines), model_writer=buf, logstream=log, **options
            )
        finally:
            try:
                log.seek(0)
                log_text = log.read().decode("utf-8", "replace")
            except OSError:
                log_text = ""
    return buf.getvalue(), log_text


def _child_train(conn: Any, lines: list[str], options: dict[str, Any]) -> None:
    """Child process side of :func:`_train_in_child`: train, send the outcome."""
    try:
        result: tuple[str, Any] = ("ok", _train_here(_import_spm(), lines, options))
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        result = ("error", f"{exc}")
    try:
        conn.send(result)
    finally:
        conn.close()


def _train_in_child(
    lines: list[str], options: dict[str, Any], cancel: Callable[[], bool]
) -> tuple[bytes, str]:
    """Train in a spawned child process, ending it when ``cancel()`` is True.

    Raises:
        Cancelled: ``cancel()`` returned True (the child is terminated).
        TrainingError: SentencePiece refused (translated as in this process),
            or the child died without an answer.
    """
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child_train, args=(child, lines, options), daemon=True)
    proc.start()
    child.close()
    try:
        while not parent.poll(0.1):
            if cancel():
                raise Cancelled("SentencePiece training cancelled")
            if not proc.is_alive() and not parent.poll(0):
                raise TrainingError(
                    f"SentencePiece training stopped without a result (exit code {proc.exitcode})"
                )
        try:
            kind, payload = parent.recv()
        except EOFError:
            raise TrainingError("SentencePiece training stopped without a result") from None
    finally:
        if proc.is_alive():
            proc.terminate()
        proc.join(5)
        parent.close()
    if kind == "error":
        raise _translate_training_error(RuntimeError(payload))
    return payload
