"""Granularity: the same corpus at word, character, byte and subword level.

The argument every tokenizer text opens with, in numbers: a word-level
vocabulary is large and still leaves words of new text out of it; characters
and bytes need tiny vocabularies but make long sequences; subword models trade
one against the other. For a corpus this computes, per level, the vocabulary
size, the number of tokens, characters per token, and how much of held-out
text the level cannot cover:

* **word**: words and punctuation marks (``\\w+`` runs and single other
  non-space characters, :data:`WORD_PATTERN`); the vocabulary is every distinct
  word of the corpus. Scripts written without spaces (Chinese, Japanese) make
  a "word" of a whole run of characters, which is why their word-level
  vocabulary explodes.
* **character**: code points (spaces included); the vocabulary is every
  distinct character of the corpus.
* **byte**: UTF-8 bytes; the vocabulary is all 256 byte values, whichever the
  corpus holds (``seen``: how many of them occur, often 100-200 of the 256).
* **subword**: each given tokenizer, with its own vocabulary size.

*Held-out rate*: each text (file) is cut at a line boundary into a first part
(``train_fraction`` of its characters) and the rest, so every file has its
share in both; a level's vocabulary is
built on the first part only (words, characters or bytes seen there) and the
rate is the share of the rest's tokens outside it (out-of-vocabulary words,
unseen characters); at byte level it is 0, every byte being one of the 256.
For a subword tokenizer it is the share of the rest's tokens that are its
unknown token (``<unk>``, ``[UNK]``): 0 for
byte-level models, which cover everything.

>>> from tokexplorer.core.types import run_to_end
>>> report = run_to_end(granularity_iter(["the cat sat\\nthe cat ran\\n"], train_fraction=0.5))
>>> [(lv.level, lv.vocab_size, lv.seen, lv.tokens, round(lv.heldout_rate, 3)) for lv in report.levels]
[('word', 4, 4, 6, 0.333), ('character', 10, 10, 24, 0.167), ('byte', 256, 10, 24, 0.0)]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import asdict, dataclass

import regex

from tokexplorer.core.analysis.blocks import count_tokens, text_blocks, tokenizer_cuts
from tokexplorer.core.analysis.stats import UNKNOWN_FAMILIES
from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import Cancelled, InputError
from tokexplorer.core.text import compile_splitter
from tokexplorer.core.types import Progress, SpecialPolicy

__all__ = ["BYTE_VOCAB", "WORD_PATTERN", "GranularityReport", "Level", "bpe_curve", "granularity_iter", "split_heldout"]

#: What the word level counts as one token: a run of word characters, or one other non-space character.
WORD_PATTERN = r"\w+|[^\w\s]"
_WORDS = regex.compile(WORD_PATTERN)


@dataclass(frozen=True, slots=True)
class Level:
    """One row of the granularity table.

    Attributes:
        level: ``"word"``, ``"character"``, ``"byte"`` or ``"subword"``.
        name: what the row is (the tokenizer's name for a subword row).
        vocab_size: the level's vocabulary: the distinct words / characters of the corpus,
            the 256 byte values, or the tokens of the tokenizer's vocabulary
            (:attr:`~tokexplorer.core.backends.base.Tokenizer.n_tokens`: 100,261 for
            cl100k_base, not the 100,277 ids of tiktoken's ``n_vocab``).
        tokens: tokens of the whole corpus.
        chars_per_token: the corpus's code points per token (None for no tokens).
        heldout_rate: share of the held-out part's tokens the level cannot cover
            (see the module docstring), or None without a held-out part.
        seen: how many of the vocabulary's tokens occur in the corpus (the distinct
            words, characters, bytes); None for a subword row (not counted).
    """

    level: str
    name: str
    vocab_size: int
    tokens: int
    chars_per_token: float | None
    heldout_rate: float | None
    seen: int | None = None


#: The byte level's vocabulary: every byte value.
BYTE_VOCAB = 256


@dataclass(frozen=True, slots=True)
class GranularityReport:
    """The granularity of one corpus.

    Attributes:
        chars, bytes: the corpus size in code points and UTF-8 bytes.
        train_chars, heldout_chars: the sizes of the two parts.
        levels: word, character, byte, then one row per tokenizer.
        errors: ``(tokenizer name, one-line reason)`` for tokenizers that failed.
    """

    chars: int
    bytes: int
    train_chars: int
    heldout_chars: int
    levels: list[Level]
    errors: list[tuple[str, str]]

    def to_json(self) -> dict:
        """``{"chars", "bytes", "train_chars", "heldout_chars", "word_pattern", "levels": [...], "errors"}``."""
        return {
            "chars": self.chars, "bytes": self.bytes, "train_chars": self.train_chars,
            "heldout_chars": self.heldout_chars, "word_pattern": WORD_PATTERN,
            "levels": [asdict(lv) for lv in self.levels],
            "errors": [{"name": n, "error": e} for n, e in self.errors],
        }  # fmt: skip


def split_heldout(texts: Sequence[str], train_fraction: float) -> tuple[list[str], list[str]]:
    """Each text cut at the first line end after ``train_fraction`` of its characters.

    Returns:
        ``(first parts, rests)``: one of each per text, in order (never joined:
        each file stays its own text, so nothing is counted across a file's end).

    Raises:
        InputError: ``train_fraction`` not in (0, 1].

    >>> split_heldout(["a\\nb\\n", "c\\nd\\ne\\nf\\n"], 0.5)
    (['a\\n', 'c\\nd\\n'], ['b\\n', 'e\\nf\\n'])
    """
    ends = _heldout_ends(texts, train_fraction)
    return [t[:e] for t, e in zip(texts, ends)], [t[e:] for t, e in zip(texts, ends)]


def _heldout_ends(texts: Sequence[str], train_fraction: float) -> list[int]:
    """Per text, the character offset where :func:`split_heldout` cuts it (its rest begins).

    Raises:
        InputError: ``train_fraction`` not in (0, 1].
    """
    if isinstance(train_fraction, bool) or not isinstance(train_fraction, (int, float)) or not 0 < train_fraction <= 1:
        raise InputError(f"the training fraction must be above 0 and at most 1, not {train_fraction!r}")
    ends: list[int] = []
    for text in texts:
        cut = int(len(text) * train_fraction)
        end = text.find("\n", max(cut - 1, 0)) if cut < len(text) else -1
        ends.append(len(text) if end < 0 else end + 1)
    return ends


#: A part of a text: ``(text, start, stop)``, the characters ``text[start:stop]``
#: (a part is read in place: copying the first 80 % of a large text would hold the
#: interpreter while its memory is filled).
_Part = tuple[str, int, int]


#: Texts are measured in blocks of about this many characters, cut at line ends, so
#: that no single call holds the interpreter long (the window stays responsive).
_BLOCK = 1 << 16


def _blocks(text: str, start: int, stop: int) -> Iterator[str]:
    """``text[start:stop]`` in pieces of about :data:`_BLOCK` characters, each ending at
    a line end (or at ``stop``)."""
    pos = start
    while pos < stop:
        end = text.find("\n", pos + _BLOCK, stop)
        end = stop if end < 0 else end + 1
        yield text[pos:end]
        pos = end


@dataclass
class _Counts:
    """Words, characters and bytes of some text: the distinct ones and how many."""

    words: Counter[str]
    chars: Counter[str]
    bytes: Counter[int]


def _count(parts: Sequence[_Part], cancel: Callable[[], bool] | None) -> _Counts:
    """The words, characters and bytes of ``parts``, each part on its own (a word never runs across two)."""
    counts = _Counts(Counter(), Counter(), Counter())
    for text, start, stop in parts:
        for block in _blocks(text, start, stop):
            counts.words.update(_WORDS.findall(block))
            counts.chars.update(block)
            counts.bytes.update(block.encode("utf-8"))
            if cancel is not None and cancel():
                raise Cancelled("granularity cancelled")
    return counts


def _rate(train: Counter, heldout: Counter) -> float | None:
    total = sum(heldout.values())
    if not total:
        return None
    return sum(n for t, n in heldout.items() if t not in train) / total


def _base_levels(train: _Counts, rest: _Counts, n_chars: int) -> list[Level]:
    out = []
    for name, seen, held in (
        ("word", train.words, rest.words), ("character", train.chars, rest.chars), ("byte", train.bytes, rest.bytes),
    ):  # fmt: skip
        tokens = sum(seen.values()) + sum(held.values())
        occur = len(seen.keys() | held.keys())
        cpt = n_chars / tokens if tokens else None
        if name == "byte":  # (all 256 byte values: none is ever out of the vocabulary)
            out.append(Level(name, name, BYTE_VOCAB, tokens, cpt, 0.0 if held else None, seen=occur))
        else:
            out.append(Level(name, name, occur, tokens, cpt, _rate(seen, held), seen=occur))
    return out


def granularity_iter(
    texts: Sequence[str],
    tokenizers: Sequence[Tokenizer] = (),
    *,
    train_fraction: float = 0.8,
    special: SpecialPolicy = "plain",
    cancel: Callable[[], bool] | None = None,
) -> Generator[Progress, None, GranularityReport]:
    """The granularity of ``texts`` (a Progress generator: one ``"granularity"``
    report per level done; returns the :class:`GranularityReport`).

    Args:
        texts: the corpus (the files' texts, in order); each text is measured
            on its own, so the counts are the sums of the files' counts (nothing is
            counted across the end of one file and the start of the next).
        tokenizers: the subword levels, one row each.
        train_fraction: the share of the corpus (characters, cut at a line
            end) the held-out rates build their vocabularies on.
        special: the special-token policy for the tokenizers.
        cancel: polled between levels and blocks.

    Raises:
        InputError: a bad ``train_fraction``, or the corpus is empty.
        Cancelled: ``cancel()`` returned True.
    """
    n_chars = sum(len(t) for t in texts)
    if not n_chars:
        raise InputError("nothing to measure: the corpus is empty")
    ends = _heldout_ends(texts, train_fraction)
    train = [(t, 0, e) for t, e in zip(texts, ends)]
    rest = [(t, e, len(t)) for t, e in zip(texts, ends)]
    total = 3 + len(tokenizers)
    yield Progress("granularity", 0, total, "word, character and byte levels", unit="levels")
    seen, held = _count(train, cancel), _count(rest, cancel)
    levels = _base_levels(seen, held, n_chars)
    n_bytes = sum(seen.bytes.values()) + sum(held.bytes.values())
    errors: list[tuple[str, str]] = []
    for k, tok in enumerate(tokenizers):
        if cancel is not None and cancel():
            raise Cancelled("granularity cancelled")
        yield Progress("granularity", 3 + k, total, tok.name, unit="levels")
        try:
            n = sum(count_tokens(tok, t, special=special, cancel=cancel) for t in texts if t)
            unknown = _unknown_rate(tok, rest, special, cancel)
        except Cancelled:
            raise
        except Exception as exc:  # noqa: BLE001 - one tokenizer's failure is a row's error, not the report's
            errors.append((tok.name, str(exc).splitlines()[0] if str(exc) else type(exc).__name__))
            continue
        levels.append(Level("subword", tok.name, tok.n_tokens, n, n_chars / n if n else None, unknown))
    yield Progress("granularity", total, total, unit="levels")
    train_chars = sum(ends)
    return GranularityReport(n_chars, n_bytes, train_chars, n_chars - train_chars, levels, errors)


def _unknown_rate(
    tok: Tokenizer, rests: Sequence[_Part], special: SpecialPolicy, cancel: Callable[[], bool] | None = None
) -> float | None:
    """The share of the held-out parts' tokens (each part tokenized on its own) that
    are unknown; None without a held-out part. A tokenizer of a family without an
    unknown piece (a byte-level BPE: every byte is a token,
    :data:`~tokexplorer.core.analysis.stats.UNKNOWN_FAMILIES`) covers everything: 0,
    without tokenizing. The others are tokenized in blocks where a cut changes no
    token (:func:`~tokexplorer.core.analysis.blocks.tokenizer_cuts`), so that no single
    call holds the interpreter long; else part by part.

    Raises:
        Cancelled: ``cancel()`` turned True (polled between blocks).
    """
    if tok.family not in UNKNOWN_FAMILIES:
        return 0.0 if any(stop > start for _text, start, stop in rests) else None
    held = unknown = 0
    for text, start, stop in rests:
        part = text[start:stop]
        for a, b in tokenizer_cuts(tok, part) if part else ():
            if cancel is not None and cancel():
                raise Cancelled("granularity cancelled")
            tokens = tok.tokenize(part[a:b], special=special).tokens
            held += len(tokens)
            unknown += sum(1 for t in tokens if t.unknown)
    return unknown / held if held else None


def _applied_ranks(chunk: bytes, ranks: dict[tuple[int, int], tuple[int, int]]) -> list[int]:
    """The ranks of the merges rank-order encoding applies to one chunk, in order."""
    ids = list(chunk)
    applied: list[int] = []
    while len(ids) > 1:
        best = min(range(len(ids) - 1), key=lambda i: ranks.get((ids[i], ids[i + 1]), (1 << 62, 0))[0])
        found = ranks.get((ids[best], ids[best + 1]))
        if found is None:
            break
        applied.append(found[0])
        ids[best : best + 2] = [found[1]]
    return applied


def bpe_curve(bpe: BPE, texts: Sequence[str], *, cancel: Callable[[], bool] | None = None) -> list[tuple[int, int]]:
    """A byte-level BPE's curve on ``texts``: ``(vocab size, corpus tokens)`` with
    the first ``k`` merges, for every ``k`` from 0 to all of them.

    Exact, not estimated: every distinct chunk of the texts (split by the
    model's pattern) is encoded once, merge by merge in rank order; each merge
    applied to a chunk makes it one token shorter, and rank-order encoding
    applies merges in rising rank order, so the encoding with the first ``k``
    merges is the one stopped before rank ``k``. Special tokens are not
    looked for (the text is ordinary text). Vocab size is ``256 + k``.

    Raises:
        Cancelled: ``cancel()`` returned True (polled between blocks and chunks).

    >>> from tokexplorer.core.bpe import train_bpe
    >>> bpe, _ = train_bpe("aaab aaab", vocab_size=259, pattern="none")
    >>> bpe_curve(bpe, ["aaab aaab"])
    [(256, 9), (257, 7), (258, 5), (259, 3)]
    """
    merges = bpe.merges
    ranks = {(m.left, m.right): (m.rank, m.new_id) for m in merges}
    chunks: Counter[str] = Counter()
    splitter = compile_splitter(bpe.pat_str) if bpe.pat_str is not None else None
    for text in texts:
        # in the blocks of text_blocks, whose cuts no chunk of a split pattern crosses (as the
        # statistics count), so that no one call holds the interpreter long; without a
        # pattern the whole text is the one chunk
        pieces = [text[a:b] for a, b in text_blocks(text)] if splitter is not None else [text]
        for piece in pieces:
            chunks.update(splitter.findall(piece) if splitter is not None else [piece])
            if cancel is not None and cancel():
                raise Cancelled("granularity cancelled")
    saved = [0] * (len(merges) + 1)
    total = 0
    for k, (chunk, n) in enumerate(chunks.items()):
        data = chunk.encode("utf-8")
        total += len(data) * n
        for r in _applied_ranks(data, ranks):
            saved[r] += n
        if cancel is not None and k % 2048 == 0 and cancel():
            raise Cancelled("granularity cancelled")
    points, tokens = [(256, total)], total
    for k in range(len(merges)):
        tokens -= saved[k]
        points.append((256 + k + 1, tokens))
    return points
