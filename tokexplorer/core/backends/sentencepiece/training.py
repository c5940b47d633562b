"""Training SentencePiece models in memory, in this process or in a child
process that Cancel can end."""

from __future__ import annotations

import io
import tempfile
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tokexplorer.core.backends.sentencepiece.check import (
    SPTrainingCheck,
    check_sentencepiece_training,
    vocab_too_small_message,
)
from tokexplorer.core.backends.sentencepiece.errors import (
    LinesTooLongError,
    VocabTooSmallError,
    _translate_training_error,
)
from tokexplorer.core.backends.sentencepiece.options import (
    _DEFAULT_OPTIONS,
    OptionValue,
    SentencePieceOptions,
    _check_options,
    _corpus_lines,
    _with_fields,
    coverage_problem,
)
from tokexplorer.core.backends.sentencepiece.proto import _import_spm
from tokexplorer.core.backends.sentencepiece.tokenizer import SentencePieceTokenizer
from tokexplorer.core.errors import Cancelled, InputError, TrainingError


def train_sentencepiece(
    texts: Iterable[str],
    *,
    vocab_size: int,
    options: SentencePieceOptions = _DEFAULT_OPTIONS,
    user_defined_symbols: Sequence[str] = (),
    skip_long_lines: bool = False,
    hard_vocab_limit: bool = True,
    num_threads: int = 2,
    name: str | None = None,
    cancel: Callable[[], bool] | None = None,
    **option_fields: OptionValue,
) -> SentencePieceTokenizer:
    """Train a SentencePiece model in memory (no files written).

    Each text is split at ``"\\n"``; every line is one SentencePiece
    "sentence", as when ``spm_train`` reads a file (empty lines are skipped,
    lines of spaces kept). Lines are cleaned with
    :func:`~tokexplorer.core.text.clean.clean_text`.
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
        options: the trainer options the user chose (model type, coverage,
            byte fallback, normalization, whitespace, digits, line length; see
            :class:`SentencePieceOptions`).
        user_defined_symbols: pieces that are always kept whole.
        skip_long_lines: let SentencePiece skip lines over
            ``options.max_sentence_length`` bytes (noted in ``train_notes``)
            instead of refusing with :class:`LinesTooLongError`.
        hard_vocab_limit: False lets SentencePiece return fewer pieces than asked.
        num_threads: trainer threads.
        name: display name of the result.
        cancel: polled while training; returning True stops it (see above).
        option_fields: fields of :class:`SentencePieceOptions` given one by one
            (``model_type="unigram"``); they replace those of ``options``.

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

    >>> corpus = ["low lower lowest", "new newer newest"]
    >>> sp = train_sentencepiece(corpus, vocab_size=24, num_threads=1)
    >>> sp.vocab_size, [sp.piece(i) for i in sp.encode("newest lower")]
    (24, ['▁ne', 'west', '▁lower'])
    >>> uni = train_sentencepiece(corpus, vocab_size=17, options=SentencePieceOptions(model_type="unigram"))
    >>> uni.description, [uni.piece(i) for i in uni.encode("newest lower")]
    ('SentencePiece · unigram model · nmt_nfkc · 17 pieces', ['▁new', 'est', '▁lowe', 'r'])
    >>> train_sentencepiece(corpus, vocab_size=100)
    Traceback (most recent call last):
    ...
    tokexplorer...VocabTooLargeError: vocab_size 100 is too large for this corpus; ... at most 41 pieces; ...
    """
    spm = _import_spm()
    opts = _with_fields(options, option_fields)
    _check_options(opts, vocab_size, num_threads=num_threads)
    problem = coverage_problem(opts.character_coverage)
    if problem:
        raise InputError(problem)
    lines, n_surrogate = _corpus_lines(texts)
    if not lines:
        raise TrainingError("nothing to train on")
    check = check_sentencepiece_training(
        lines, vocab_size=vocab_size, options=opts,
        user_defined_symbols=user_defined_symbols, skip_long_lines=skip_long_lines,
    )  # fmt: skip
    _refuse_before_training(check, vocab_size=vocab_size, options=opts, skip_long_lines=skip_long_lines)
    trainer_options = _trainer_options(
        opts, vocab_size=vocab_size, user_defined_symbols=user_defined_symbols,
        hard_vocab_limit=hard_vocab_limit, num_threads=num_threads,
    )  # fmt: skip
    model, log_text = _run_trainer(spm, lines, trainer_options, cancel)
    notes = _training_notes(
        lines, log_text, n_long=check.n_long, max_sentence_length=opts.max_sentence_length, n_surrogate=n_surrogate
    )
    if not model:
        raise TrainingError("SentencePiece produced no model")
    tok = SentencePieceTokenizer(model, name=name, train_notes=notes)
    if opts.character_coverage < 1.0:
        dropped = dropped_characters(tok, lines)
        if dropped:
            shown = " ".join(f"{c!r} U+{ord(c):04X}" for c in dropped[:20])
            more = f" and {len(dropped) - 20:,} more" if len(dropped) > 20 else ""
            tok.train_notes += (
                f"character coverage {opts.character_coverage} left {len(dropped):,} of the corpus's characters "
                f"out of the pieces: {shown}{more}; "
                + ("they become byte pieces" if opts.byte_fallback else "they become <unk>"),
            )
    return tok


def dropped_characters(tokenizer: SentencePieceTokenizer, lines: Sequence[str]) -> list[str]:
    """The characters of ``lines`` that no piece of the model holds, as normalized.

    A character counts as kept when every character the normalizer makes of it
    (NFKC: ``'ﬁ'`` → ``'fi'``) is in some piece (whitespace aside; byte pieces,
    control and unknown pieces do not count).

    Args:
        tokenizer: the trained model.
        lines: the training lines.

    Returns:
        the dropped characters, most frequent first (ties in code point order).

    >>> sp = train_sentencepiece(["aab"] * 20 + ["c"], vocab_size=6, num_threads=1,
    ...                          options=SentencePieceOptions(character_coverage=0.98))
    >>> dropped_characters(sp, ["aab"] * 20 + ["c"])
    ['c']
    """
    kept: set[str] = set()
    for i in range(tokenizer.vocab_size):
        if not (tokenizer.is_byte(i) or tokenizer.processor.is_control(i) or tokenizer.processor.is_unknown(i)):
            kept.update(tokenizer.piece(i))
    counts: dict[str, int] = {}
    for line in lines:
        for c in line:
            counts[c] = counts.get(c, 0) + 1
    dropped = [
        c for c in counts
        if not c.isspace() and any(n not in kept and not n.isspace() for n in tokenizer.normalize(c))
    ]  # fmt: skip
    return sorted(dropped, key=lambda c: (-counts[c], c))


def _refuse_before_training(
    check: SPTrainingCheck, *, vocab_size: int, options: SentencePieceOptions, skip_long_lines: bool
) -> None:
    """Raise what :func:`train_sentencepiece` refuses once the corpus is counted.

    Raises:
        LinesTooLongError: lines over the limit and ``skip_long_lines`` is False.
        TrainingError: every line is over the limit.
        VocabTooSmallError: ``vocab_size`` below ``check.min_vocab_size``
            (model types ``bpe`` and ``unigram``).
    """
    limit = options.max_sentence_length
    if check.n_long and not skip_long_lines:
        raise LinesTooLongError(check.n_long, check.longest, check.longest_line, limit)
    if check.n_long == check.n_lines:
        raise TrainingError(f"every line is longer than max_sentence_length {limit:,} bytes: nothing to train on")
    if options.model_type in ("bpe", "unigram") and vocab_size < check.min_vocab_size:
        message = vocab_too_small_message(
            vocab_size, required_chars=check.required_chars, meta_pieces=check.meta_pieces,
            coverage=float(options.character_coverage), fitting_coverage=check.fitting_coverage,
            byte_fallback=bool(options.byte_fallback),
        )  # fmt: skip
        raise VocabTooSmallError(vocab_size, check.min_vocab_size, message=message)


def _trainer_options(
    options: SentencePieceOptions,
    *,
    vocab_size: int,
    user_defined_symbols: Sequence[str],
    hard_vocab_limit: bool,
    num_threads: int,
) -> dict[str, Any]:
    """The keyword arguments of ``SentencePieceTrainer.train`` for this request."""
    trainer_options: dict[str, Any] = dict(
        model_type=options.model_type,
        vocab_size=vocab_size,
        character_coverage=float(options.character_coverage),
        byte_fallback=bool(options.byte_fallback),
        normalization_rule_name=options.normalization_rule_name,
        remove_extra_whitespaces=bool(options.remove_extra_whitespaces),
        split_digits=bool(options.split_digits),
        max_sentence_length=int(options.max_sentence_length),
        hard_vocab_limit=bool(hard_vocab_limit),
        num_threads=int(num_threads),
    )
    if user_defined_symbols:
        trainer_options["user_defined_symbols"] = list(user_defined_symbols)
    return trainer_options


def _run_trainer(
    spm: Any, lines: list[str], trainer_options: dict[str, Any], cancel: Callable[[], bool] | None
) -> tuple[bytes, str]:
    """Train here, or in a child process for a large corpus that may be cancelled.

    Returns:
        ``(model bytes, SentencePiece's log text)``.

    Raises:
        TrainingError: SentencePiece refused (its message translated).
        Cancelled: ``cancel()`` returned True (child process only).
    """
    n_chars = sum(len(line) for line in lines)
    if cancel is not None and n_chars >= CHILD_TRAIN_CHARS:
        return _train_in_child(lines, trainer_options, cancel)
    try:
        return _train_here(spm, lines, trainer_options)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - RuntimeError from the C++ trainer
        raise _translate_training_error(exc) from None


def _training_notes(
    lines: Sequence[str], log_text: str, *, n_long: int, max_sentence_length: int, n_surrogate: int
) -> list[str]:
    """Remarks for the user: NUL lines, lines skipped as too long, replaced surrogates."""
    notes: list[str] = []
    n_nul = sum(1 for line in lines if "\x00" in line)
    warned_nul = log_text.count("Found null character")
    if n_nul or warned_nul:
        n = max(n_nul, warned_nul)
        notes.append(
            f"{n:,} line{'s' if n != 1 else ''} contain NUL; SentencePiece skips NUL "
            "(it is an unknown piece)"
        )
    if n_long:
        notes.append(
            f"{n_long:,} line{'s' if n_long != 1 else ''} longer than {max_sentence_length:,} bytes "
            "skipped by SentencePiece"
        )
    if n_surrogate:
        notes.append(f"lone surrogates replaced by U+FFFD in {n_surrogate:,} text{'s' * (n_surrogate != 1)}")
    return notes


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


#: Lines sent to the training child per message: each message is pickled in one
#: short call, which a window's event loop does not notice (the whole corpus as
#: one argument took 30-80 ms with the interpreter lock held).
CHILD_BATCH_LINES = 20_000


def _child_train(conn: Any, options: dict[str, Any]) -> None:
    """Child process side of :func:`_train_in_child`: receive the lines (batches
    of :data:`CHILD_BATCH_LINES`, then None), train, send the outcome."""
    lines: list[str] = []
    while (batch := conn.recv()) is not None:
        lines.extend(batch)
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
    parent, child = ctx.Pipe(duplex=True)
    proc = ctx.Process(target=_child_train, args=(child, options), daemon=True)
    proc.start()
    child.close()
    try:
        try:
            for start in range(0, len(lines), CHILD_BATCH_LINES):
                if cancel():
                    raise Cancelled("SentencePiece training cancelled")
                parent.send(lines[start : start + CHILD_BATCH_LINES])
            parent.send(None)
        except (BrokenPipeError, EOFError):
            raise TrainingError(
                f"SentencePiece training stopped before it had the corpus (exit code {proc.exitcode})"
            ) from None
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
