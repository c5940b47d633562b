"""``train``: train a tokenizer on text files and save it.

The training itself is :mod:`tokexplorer.core.training`'s; this command reads
the files (a file that cannot be used is skipped with a note while others are
left, a large corpus is streamed from disk), shows the progress, turns a
vocabulary size SentencePiece refuses into a usage error, saves the model and
reports in one line.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from tokexplorer.cli.errors import UsageError
from tokexplorer.cli.inputs import check_output_path, checked_file, named_problems, skipped_or_fail, streamed_files
from tokexplorer.cli.output import PROG, ProgressPrinter, drive, note, say
from tokexplorer.core.errors import CorpusError, InputError

if TYPE_CHECKING:  # the engine is imported when the command runs
    from tokexplorer.core.backends import SentencePieceOptions
    from tokexplorer.core.io import FileEncodings, WordCounts
    from tokexplorer.core.training import TrainingOutcome, TrainingRequest

#: The SentencePiece options of ``train``, named as in the training dialog:
#: argparse destination -> flag. Every field of
#: :class:`~tokexplorer.core.backends.SentencePieceOptions` but ``model_type``
#: (``--algorithm`` chooses it), and ``skip_long_lines`` (the dialog's "let
#: SentencePiece skip longer lines", a field of the training request). The
#: parser builds one argument per entry, all defaulting to None ("not given").
SP_FLAGS: dict[str, str] = {
    "character_coverage": "--character-coverage",
    "normalization_rule_name": "--normalization",
    "byte_fallback": "--byte-fallback",
    "remove_extra_whitespaces": "--remove-extra-whitespaces",
    "split_digits": "--split-digits",
    "max_sentence_length": "--max-sentence-length",
    "skip_long_lines": "--skip-long-lines",
}

#: SentencePiece's own default ``character_coverage`` (``spm_train --help``),
#: named in the report when ours (1.0) was used.
SPM_DEFAULT_COVERAGE = 0.9995

#: Clock used for the "N s" in the training report (replaceable in tests).
_clock: Callable[[], float] = time.perf_counter


def cmd_train(ns: argparse.Namespace) -> int:
    """``tokexplorer train``: train, save, and report in one line."""
    from tokexplorer.core.training import TrainingRequest

    if bool(ns.files) == (ns.word_counts is not None):
        raise UsageError("give the text files to train on, or --word-counts COUNTS (not both)", f"{PROG} train")
    if ns.dask is not None and (ns.algorithm != "bpe" or not ns.files):
        raise UsageError(
            "--dask counts the text files given on a Dask cluster to train a byte-level BPE "
            f"(--algorithm bpe){'' if ns.files else ', not a --word-counts table'}"
            f"{'' if ns.algorithm == 'bpe' else ', not ' + ns.algorithm}", f"{PROG} train"
        )  # fmt: skip
    request = TrainingRequest(
        algorithm=ns.algorithm,
        vocab_size=ns.vocab_size,
        pattern=ns.pattern,
        special_tokens=ns.special or (),
        encoding=ns.encoding if isinstance(ns.encoding, str) else "utf-8",  # codecs by file: read below
        allow_damaged=ns.allow_damaged,
        sentencepiece=sentencepiece_options(ns),
        skip_long_lines=bool(ns.skip_long_lines),
        word_counts=ns.word_counts,
        lowercase=ns.lowercase,
        strip_accents=ns.strip_accents,
    )
    request.validate()
    check_output_path(ns.output)

    t0 = _clock()
    printer = ProgressPrinter(sys.stderr)
    big = _large_files(ns.files) if ns.algorithm == "bpe" and ns.files and ns.dask is None else None
    if ns.dask is not None:  # counted on the cluster, trained here from the table in memory
        request = replace(request, word_counts=_count_on_dask(ns, printer))
    elif big:
        paths, codecs = streamed_files(big, ns.encoding, printer, allow_damaged=ns.allow_damaged, verb="train on")
        request = replace(request, files=paths, encoding=codecs)
    elif ns.files:  # else the word-count table is the corpus
        texts = _training_texts(ns.files, ns.encoding, printer, allow_damaged=ns.allow_damaged)
        request = replace(request, texts=texts)
    outcome = _train(request, printer)
    if ns.algorithm == "bpe":
        _save_bpe(outcome, ns.output, t0)
    elif ns.algorithm == "wordpiece":
        _save_wordpiece(outcome, ns.output)
    else:
        coverage = request.sentencepiece.character_coverage
        _save_sentencepiece(outcome, ns.output, t0, coverage=(coverage, ns.character_coverage is not None))
    return 0


def sentencepiece_options(ns: argparse.Namespace) -> SentencePieceOptions:
    """The :class:`~tokexplorer.core.backends.SentencePieceOptions` the SentencePiece
    flags of ``ns`` give (:data:`SP_FLAGS`; the fields not given keep their
    defaults, ``model_type`` is set later from the algorithm).

    Raises:
        UsageError: a SentencePiece flag was given with ``--algorithm bpe`` or ``wordpiece``.
    """
    from tokexplorer.core.backends import SentencePieceOptions

    given = {dest: getattr(ns, dest) for dest in SP_FLAGS if getattr(ns, dest) is not None}
    if given and ns.algorithm in ("bpe", "wordpiece"):
        flags = ", ".join(_flag_spelling(dest, value) for dest, value in given.items())
        raise UsageError(
            f"{flags} {'applies' if len(given) == 1 else 'apply'} to --algorithm sp-bpe or sp-unigram "
            f"(SentencePiece) only, not {ns.algorithm}",
            f"{PROG} train",
        )
    given.pop("skip_long_lines", None)
    return SentencePieceOptions(**given)


def _count_on_dask(ns: argparse.Namespace, printer: ProgressPrinter) -> WordCounts:
    """``train --dask``: the files' word-count table, counted on the cluster as ``count
    --dask`` counts it (the same notes), and a note saying where it was counted."""
    from tokexplorer.cli.commands.count import count_on_dask
    from tokexplorer.core.types import DEFAULT_PATTERN

    table = count_on_dask(ns, printer, DEFAULT_PATTERN)
    where = "a local cluster" if ns.dask == "local" else f"the Dask scheduler at {ns.dask}"
    note(f"counted {len(table.counts):,} distinct chunks of {table.files:,} file{'s' * (table.files != 1)} "
         f"({table.bytes:,} bytes) on {where}")  # fmt: skip
    return table


def _flag_spelling(dest: str, value: object) -> str:
    """How the user spelled the flag of ``dest`` (``--no-split-digits`` for False)."""
    flag = SP_FLAGS[dest]
    return f"--no-{flag[2:]}" if value is False else flag


def _train(request: TrainingRequest, printer: ProgressPrinter) -> TrainingOutcome:
    """Run the training with progress on ``printer``.

    Raises:
        InputError: SentencePiece refused the vocabulary size as too large or
            too small for the corpus (the size asked for: a usage problem), or
            lines are longer than ``--max-sentence-length`` without
            ``--skip-long-lines`` (the message names both flags).
        CorpusError: a streamed file is not valid in its encoding (with the
            ``--allow-damaged`` hint), or the corpus is unusable.
    """
    from tokexplorer.core.backends import LinesTooLongError, VocabTooLargeError, VocabTooSmallError
    from tokexplorer.core.training import train_iter

    try:
        return drive(train_iter(request), printer)
    except (VocabTooLargeError, VocabTooSmallError) as exc:
        raise InputError(str(exc)) from None
    except LinesTooLongError as exc:
        lines = "line is" if exc.count == 1 else "lines are"
        raise InputError(
            f"{exc.count:,} {lines} longer than --max-sentence-length {exc.max_sentence_length:,} bytes "
            f"(longest: line {exc.line_number:,}, {exc.longest:,} bytes); pass --max-sentence-length "
            f"{exc.longest} to keep {'it' if exc.count == 1 else 'them'}, or --skip-long-lines to let "
            "SentencePiece skip them"
        ) from None
    except CorpusError as exc:
        if request.files is not None and not request.allow_damaged and "not valid" in str(exc):
            raise CorpusError(f"{exc}; pass --allow-damaged to train on it as it reads") from None
        raise


def _save_bpe(outcome: TrainingOutcome, output: str, t0: float) -> None:
    """Save a byte-level BPE and report: its notes, then one summary line."""
    from tokexplorer.core.io import save_bpe

    bpe, report = outcome.bpe, outcome.report
    assert bpe is not None and report is not None  # always set for algorithm "bpe"
    save_bpe(bpe, output)
    seconds = _clock() - t0
    for m in outcome.notes:
        if not (m.startswith("learned ") and report.learned_merges == report.requested_merges):
            note(m)
    say(
        f"learned {report.learned_merges:,} of {report.requested_merges:,} merges; "
        f"vocab {report.vocab_size:,}; {seconds:.1f} s; saved to {output}"
    )


def _save_wordpiece(outcome: TrainingOutcome, output: str) -> None:
    """Save a WordPiece (our JSON file) and report: its notes, then one summary line."""
    from tokexplorer.core.io import save_wordpiece

    wp = outcome.wordpiece
    assert wp is not None  # always set for algorithm "wordpiece"
    save_wordpiece(wp, output)
    for m in outcome.notes:
        note(m)
    say(f"{outcome.wordpiece_headline}; saved to {output}")  # the window's line too


def _save_sentencepiece(outcome: TrainingOutcome, output: str, t0: float, *, coverage: tuple[float, bool]) -> None:
    """Save a SentencePiece model and report: its training notes, then one summary
    line that names the character coverage used (``coverage``: the value and
    whether it was given) and, when it is our default, SentencePiece's, which
    gives a different model."""
    from tokexplorer.core.backends import SentencePieceTokenizer

    sp = outcome.tokenizer
    assert isinstance(sp, SentencePieceTokenizer)  # always, for "sp-bpe" and "sp-unigram"
    for n in outcome.notes:
        note(n)
    sp.save(output)
    seconds = _clock() - t0
    model_type = outcome.algorithm.split("-", 1)[1]
    value, given = coverage
    used = f"character coverage {value}"
    if not given:
        used += f" (the default; spm_train's is {SPM_DEFAULT_COVERAGE})"
    say(f"trained SentencePiece {model_type}; vocab {sp.vocab_size:,}; {used}; {seconds:.1f} s; saved to {output}")


def _training_texts(
    paths: Sequence[str],
    encoding: str | FileEncodings | None,
    printer: ProgressPrinter,
    *,
    allow_damaged: bool = False,
) -> list[str]:
    """Read the training files and folders (with progress) and return their texts.

    Args:
        paths: the files and folders named on the command line.
        encoding: the ``--encoding`` the user gave (one codec, or codecs by file), or None (UTF-8, checked).
        printer: shows the reading progress.
        allow_damaged: train on a file whose decode replaced undecodable bytes
            with U+FFFD (``--allow-damaged``) instead of refusing it.

    Raises:
        CorpusError: a file is missing or binary, a decode had to insert U+FFFD
            (without ``allow_damaged``), or there is no text.
    """
    from tokexplorer.core.io import collect_files, read_corpus, training_files

    corpus = drive(read_corpus(list(paths), encoding=encoding), printer)
    for n in corpus.notes:  # the tokenizer model files a folder held, left out
        note(n)
    # The one reading rule (core.io.reading), the window's too: a guessed encoding is
    # used and noted; a file that cannot be used is skipped with a note as long as
    # other files are left; alone, it is the error.
    for f in corpus.files:
        checked_file(f)
    hint = "fix the file, choose its real --encoding, or pass --allow-damaged to train on it as it reads"
    files, problems = training_files(corpus, allow_damaged=allow_damaged, damaged_hint=hint)
    problems = named_problems(problems, collect_files(list(paths))[0])
    for f in files:
        if f.lossy:
            note(f"{f.path}: training on text with U+FFFD where bytes could not be decoded")
    texts = [f.text for f in files]
    skipped_or_fail(problems, bool(texts), "nothing to train on: the files hold no text", paths=paths)
    _say_files(paths, len(files), sum(f.size_bytes for f in files))
    return texts


def _say_files(paths: Sequence[str], n_files: int, n_bytes: int) -> None:
    """Note how many files a folder given on the command line put into the training (every
    file below it that is not hidden and not a tokenizer model file)."""
    import os

    from tokexplorer.core.io.sizes import format_size

    folders = [p for p in paths if os.path.isdir(p)]
    if folders:
        what = "file" if n_files == 1 else "files"
        note(f"training on {n_files:,} {what} ({format_size(n_bytes)} on disk) from {', '.join(folders)}")


def _large_files(paths: Sequence[str]) -> list[str] | None:
    """The files to stream when the corpus is large (at least
    :data:`~tokexplorer.core.io.streaming.STREAM_BYTES`, as in the window), else None.

    Large corpora are not read into memory: worker processes read the files in
    ranges (:func:`tokexplorer.core.bpe.counting.count_files`), each file with the
    codec the one reading rule chose for it (:func:`~tokexplorer.cli.inputs.streamed_files`:
    the same notes and skipped files as the in-memory reader).

    Raises:
        CorpusError: a path is missing.
    """
    from tokexplorer.core.io import streaming, walk_files

    walk = walk_files(list(paths))
    if walk.errors:
        raise CorpusError(walk.errors[0])
    total = sum(f.stat().st_size for f in walk.files)
    if total < streaming.STREAM_BYTES:  # the window's threshold too
        return None
    for n in walk.notes:  # the tokenizer model files a folder held, left out
        note(n)
    files = walk.files
    _say_files(paths, len(files), total)
    return [str(f) for f in files]
