"""Training a byte-level BPE: the chunk table, then the merge loop.

Byte-pair encoding as introduced for subword units by Sennrich, Haddow and
Birch, "Neural Machine Translation of Rare Words with Subword Units" (ACL 2016),
applied to UTF-8 bytes as in GPT-2 (Radford et al., 2019). The text is split
into chunks by the pre-tokenizer; merges never cross a chunk boundary. Chunks
are counted once (a word-frequency table, :mod:`tokexplorer.core.bpe.counting`);
pair counts are kept incrementally with a pair -> words index, and after each
merge only the pairs next to the merge sites are updated. The next pair comes
from a lazy max-heap.

Vocabulary size is defined once, here: ``vocab_size = 256 byte tokens + merged
tokens + special tokens``. See :func:`validate_vocab_size`.

Tie-break (deterministic whatever the line order or hash seed): the pair with
the highest count wins; among equal counts, the smallest pair of token byte
strings, compared as ``(bytes_of_left, bytes_of_right)``.

When a merge produces bytes that are already a token (``ab+c`` and ``a+bc`` both
give ``abc``), the existing id is reused (as Hugging Face ``tokenizers`` does),
so token bytes stay unique; such a merge is recorded but adds no token.

>>> bpe, report = train_bpe("xxxyyyzzzzwwww", vocab_size=260, pattern="none")
>>> [(m.merged, m.count) for m in bpe.merges]
[(b'ww', 3), (b'zz', 3), (b'xx', 2), (b'yy', 2)]
>>> bpe.decode(bpe.encode("wwwwzz"))
'wwwwzz'
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tokexplorer.core.bpe.counting import count_files, count_texts, run
from tokexplorer.core.bpe.encoder import N_BYTES
from tokexplorer.core.bpe.gc_pause import gc_paused
from tokexplorer.core.bpe.merge_state import MAX_TRAIN_VOCAB, MergeState
from tokexplorer.core.bpe.model import BPE
from tokexplorer.core.errors import Cancelled, InputError, TrainingError
from tokexplorer.core.text import pattern_string
from tokexplorer.core.types import MergeRecord, Progress, TrainReport

_YIELD_SECONDS = 0.05  # the merge loop reports progress at most this often


def validate_vocab_size(vocab_size: int, n_special: int = 0) -> None:
    """Check a requested vocabulary size for byte-level BPE.

    Args:
        vocab_size: requested number of token ids (256 bytes + merges + specials).
        n_special: number of special tokens that will be registered.

    Raises:
        InputError: ``vocab_size`` is not an int, is below ``256 + n_special``
            or above :data:`MAX_TRAIN_VOCAB` (1,114,112: while it merges, a
            token id is a character of a str).

    >>> validate_vocab_size(258, 2)
    >>> validate_vocab_size(257, 2)
    Traceback (most recent call last):
    ...
    tokexplorer.core.errors.InputError: byte-level BPE needs at least 256 base tokens (+2 special): ... use at least 258
    """
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise InputError(f"vocab_size must be an integer, not {vocab_size!r}")
    need = N_BYTES + n_special
    if vocab_size < need:
        extra = f" (+{n_special} special)" if n_special else ""
        raise InputError(
            f"byte-level BPE needs at least 256 base tokens{extra}: "
            f"vocab_size {vocab_size:,} is too small; use at least {need:,}"
        )
    if vocab_size > MAX_TRAIN_VOCAB:
        raise InputError(f"vocab_size {vocab_size:,} is too large; the trainer supports up to {MAX_TRAIN_VOCAB:,}")


@dataclass(frozen=True, slots=True)
class _Run:
    """What one training run was asked for (the merge phase's settings).

    Attributes:
        specials: special token texts, deduplicated, in order.
        n_requested: merges that add a token, requested (vocab_size - 256 - specials).
        pattern: pre-tokenizer name of the model.
        name: display name of the model.
        cancel: polled after every merge; True raises :class:`Cancelled`.
        messages: report lines gathered so far (the merge phase adds its own).
        t0: ``time.perf_counter()`` when the run started.
    """

    specials: list[str]
    n_requested: int
    pattern: str
    name: str
    cancel: Callable[[], bool] | None
    messages: list[str]
    t0: float


def _merge_phase(box: list[dict], job: _Run) -> Generator[Progress, None, tuple[BPE, TrainReport]]:
    """The merge phase of :func:`train_bpe_iter` (a generator with the same return).

    ``box`` holds the chunk table; it is taken out, so the table is freed once
    the words are built."""
    state = MergeState()
    n_chunks = len(box[0])
    state.add_words(box.pop(), job.cancel)
    if not n_chunks:
        raise TrainingError("nothing to train on: the text is empty")
    yield Progress("counting", n_chunks, n_chunks, unit="chunks")

    state.rebuild_heap()
    merges: list[MergeRecord] = []
    n_new_tokens = 0
    n_requested, cancel = job.n_requested, job.cancel
    last_yield = time.perf_counter()
    yield Progress("merging", 0, n_requested, detail=merges, unit="merges")
    while n_new_tokens < n_requested:
        best = state.pop_best()
        if best is None:
            break
        record, added = state.merge(best, len(merges))
        merges.append(record)
        n_new_tokens += added
        if cancel is not None and cancel():
            raise Cancelled("training cancelled")
        now = time.perf_counter()
        if now - last_yield > _YIELD_SECONDS:
            last_yield = now
            yield Progress("merging", n_new_tokens, n_requested, detail=merges, unit="merges")
    yield Progress("merging", n_new_tokens, n_requested, detail=merges, unit="merges")
    state.free()
    yield Progress("merging", n_new_tokens, n_requested, detail=merges, unit="merges")
    return _finish(merges, n_new_tokens, len(state.vocab), job)


def _finish(merges: list[MergeRecord], n_new_tokens: int, n_tokens: int, job: _Run) -> tuple[BPE, TrainReport]:
    """The model and the report of a finished merge phase (``n_tokens``: bytes + merged tokens)."""
    special_map = {s: n_tokens + i for i, s in enumerate(job.specials)}
    bpe = BPE(merges, pattern=job.pattern, special_tokens=special_map, name=job.name)
    messages, n_requested = job.messages, job.n_requested
    if n_new_tokens < n_requested:
        messages.insert(
            0,
            f"learned {n_new_tokens:,} of {n_requested:,} requested merges; "
            f"vocab {bpe.vocab_size:,}: no pair of tokens is left to merge",
        )
    else:
        messages.insert(0, f"learned {n_new_tokens:,} of {n_requested:,} merges; vocab {bpe.vocab_size:,}")
    if len(merges) > n_new_tokens:
        messages.append(
            f"{len(merges) - n_new_tokens:,} merges produced bytes that were already a token "
            "(the existing id was reused)"
        )
    report = TrainReport(
        requested_merges=n_requested,
        learned_merges=n_new_tokens,
        vocab_size=bpe.vocab_size,
        seconds=time.perf_counter() - job.t0,
        messages=messages,
    )
    return bpe, report


def train_bpe_iter(
    texts: str | Iterable[str],
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    name: str = "custom BPE",
    cancel: Callable[[], bool] | None = None,
    word_counts: Mapping[str | bytes, int] | None = None,
    files: Sequence[str | os.PathLike] | None = None,
    encoding: str = "utf-8",
    workers: int | None = None,
    encoding_errors: str = "strict",
) -> Generator[Progress, None, tuple[BPE, TrainReport]]:
    """Train a byte-level BPE, yielding progress; the generator returns the model.

    Args:
        texts: one str or an iterable of str; ignored when ``word_counts`` is given.
        vocab_size: target number of ids (256 + merges + ``len(special_tokens)``).
        pattern: pre-tokenizer name (see :data:`tokexplorer.core.text.pretokenize.PATTERNS`).
        special_tokens: special token texts; they get the ids after the merged
            tokens and are cut out of the training text.
        name: display name of the model.
        cancel: called between steps; returning True stops training.
        word_counts: an already counted chunk table (chunk str or bytes -> count).
        files: text files to train on instead of ``texts``; they are read in
            ranges by worker processes and never held whole in memory
            (:func:`tokexplorer.core.bpe.counting.count_files`).
        encoding: the files' encoding.
        encoding_errors: decode error handler for ``files`` (``"replace"``:
            undecodable bytes become U+FFFD instead of raising CorpusError).
        workers: processes for pre-tokenizing and counting large inputs
            (default: every core; 1 = this process only).

    Yields:
        :class:`Progress` with phases ``"pre-tokenizing"``, ``"counting"`` and
        ``"merging"`` (merges done of merges requested).

    Returns:
        ``(BPE, TrainReport)``; training stops early when no pair is left and
        says so in ``TrainReport.messages``.

    Raises:
        InputError: bad ``vocab_size``, pattern or special tokens.
        TrainingError: nothing to train on (empty text).
        Cancelled: ``cancel()`` returned True.

    >>> steps = train_bpe_iter(["ab ab ab"], vocab_size=258, pattern="gpt2", workers=1)
    >>> bpe, report = run(steps)
    >>> [m.merged for m in bpe.merges], report.messages
    ([b'ab', b' ab'], ['learned 2 of 2 merges; vocab 258'])
    """
    t0 = time.perf_counter()
    specials = list(dict.fromkeys(special_tokens))
    if any(not s for s in specials):
        raise InputError("a special token cannot be empty")
    validate_vocab_size(vocab_size, len(specials))
    pattern_string(pattern)  # validates the name
    job = _Run(specials, vocab_size - N_BYTES - len(specials), pattern, name, cancel, [], t0)

    if word_counts is None and files is not None:
        counts, n_special_seen = yield from count_files(
            files, pattern=pattern, special_tokens=specials, encoding=encoding,
            cancel=cancel, workers=workers, errors=encoding_errors,
        )
    elif word_counts is None:
        counts, n_special_seen = yield from count_texts(
            texts, pattern=pattern, special_tokens=specials, cancel=cancel, workers=workers
        )
    if word_counts is None:
        if n_special_seen:
            job.messages.append(
                f"{n_special_seen:,} special-token spelling{'s were' if n_special_seen != 1 else ' was'} "
                "cut out of the training text"
            )
    else:
        counts = dict(word_counts)
    yield Progress("counting", 0, len(counts), unit="chunks")

    box = [counts]  # handed over, so the chunk table is freed once the words are built
    del counts
    with gc_paused():
        return (yield from _merge_phase(box, job))


def train_bpe(
    texts: str | Iterable[str],
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    name: str = "custom BPE",
    cancel: Callable[[], bool] | None = None,
    word_counts: Mapping[str | bytes, int] | None = None,
    files: Sequence[str | os.PathLike] | None = None,
    encoding: str = "utf-8",
    workers: int | None = None,
    encoding_errors: str = "strict",
) -> tuple[BPE, TrainReport]:
    """Train a byte-level BPE to the end; see :func:`train_bpe_iter` for arguments.

    Returns:
        ``(BPE, TrainReport)``.

    >>> bpe, report = train_bpe("low lower lowest", vocab_size=260)
    >>> [m.merged for m in bpe.merges], bpe.encode("lowest")
    ([b'lo', b'low', b' low', b' lowe'], [257, 101, 115, 116])
    """
    return run(
        train_bpe_iter(
            texts,
            vocab_size=vocab_size,
            pattern=pattern,
            special_tokens=special_tokens,
            name=name,
            cancel=cancel,
            word_counts=word_counts,
            files=files,
            encoding=encoding,
            workers=workers,
            encoding_errors=encoding_errors,
        )
    )
