"""Training a WordPiece: count the words, then merge the best-scoring pair.

WordPiece training as it is taught (Schuster and Nakajima 2012; the Hugging
Face course's chapter on WordPiece): every counted word starts as its
characters, the first as it is and the others with the continuation prefix
(``hug`` -> ``h ##u ##g``); the vocabulary starts as the special tokens and
this alphabet, sorted. Then, until the vocabulary has ``vocab_size`` pieces,
the pair of neighbouring pieces with the highest score

    score(a, b) = freq(a, b) / (freq(a) * freq(b))

is merged everywhere into one piece (``h + ##u`` -> ``hu``, ``##u + ##g`` ->
``##ug``). Frequencies are counted over the current segmentation of every word,
weighted by the word's count. Unlike BPE, which merges the most frequent pair,
the score prefers pairs whose parts are rarely seen apart.

Tie-break (deterministic whatever the order of the texts or the hash seed):
the exact score (a fraction, never a rounded float) decides; among equal
scores, the higher pair count; then the smaller pair of piece strings, compared
as ``(left, right)`` in code point order. The pair plain BPE would merge at
the same step (recorded in each :class:`WordPieceMerge`) is the most frequent
pair, ties broken the same way.

Pair and piece counts are kept incrementally with a pair -> words index; after a
merge only the words holding the pair are re-segmented, and every pair whose
count or whose parts' counts changed gets a fresh entry in a lazy heap.

>>> wp, report = train_wordpiece(["hug pug pun bun hugs"], vocab_size=10, special_tokens=[])
>>> [(m.left, m.right, m.count, m.left_count, m.right_count, m.bpe_left, m.bpe_right) for m in wp.merges]
[('##g', '##s', 1, 3, 1, '##u', '##g'), ('##u', '##g', 2, 5, 2, '##u', '##g')]
>>> wp.vocab, [wp.vocab[i] for i in wp.encode("hugs bug")]  # longest match first, not the training split
(['[UNK]', '##g', '##n', '##s', '##u', 'b', 'h', 'p', '##gs', '##ug'], ['h', '##ug', '##s', 'b', '##ug'])
"""

from __future__ import annotations

import heapq
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Sequence
from fractions import Fraction
from itertools import islice

import regex

from tokexplorer.core.errors import Cancelled, InputError, TrainingError
from tokexplorer.core.types import Progress, TrainReport, run_to_end
from tokexplorer.core.wordpiece.alphabet import AlphabetBudget
from tokexplorer.core.wordpiece.model import CONTINUATION, DEFAULT_MAX_CHARS, UNK, WordPiece, WordPieceMerge
from tokexplorer.core.wordpiece.pretokenize import BERT_PATTERN, normalize, normalized_words, validate_pattern

__all__ = ["BERT_SPECIAL_TOKENS", "count_words", "initial_alphabet", "train_wordpiece", "train_wordpiece_iter"]

#: BERT's special tokens, the default of a WordPiece trained here.
BERT_SPECIAL_TOKENS: tuple[str, ...] = ("[PAD]", UNK, "[CLS]", "[SEP]", "[MASK]")

_YIELD_SECONDS = 0.05  # the merge loop reports progress at most this often

#: :func:`count_words` counts a long text in blocks of about this many characters (or more, up
#: to the next cut), polling ``cancel`` and reporting progress after each: a 10 MB file is not
#: one step that a cancel (closing the window) has to wait for.
BLOCK_CHARS = 1 << 18

# Where count_words cuts a text: core.text.safe_cuts.LINE_START_CUT (x\n|T, safe for every split
# pattern and for BERT's white-space split) with a letter or digit before the line break too, so
# that both sides stay non-space after normalizing (strip_accents can drop a mark, never a letter).
_BLOCK_CUT = regex.compile(r"(?<=[\p{L}\p{N}]\n)(?=[\p{L}\p{N}])")
Pair = tuple[int, int]


def count_words(
    texts: Iterable[str],
    *,
    pattern: str = BERT_PATTERN,
    lowercase: bool = False,
    strip_accents: bool = False,
    cancel: Callable[[], bool] | None = None,
) -> Generator[Progress, None, Counter[str]]:
    """Count the pre-tokenized words of ``texts`` (a Progress generator: a
    ``"pre-tokenizing"`` report after each text, and within a long text after each block
    of about :data:`BLOCK_CHARS` characters cut at a line start, in characters done of
    all characters; returns word -> count, the same as counting each text whole).

    Raises:
        InputError: unknown pattern.
        Cancelled: ``cancel()`` returned True (polled after each report).

    >>> run_to_end(count_words(["a b, a"]))
    Counter({'a': 2, 'b': 1, ',': 1})
    """
    validate_pattern(pattern)
    return (yield from _count(list(texts), pattern, lowercase, strip_accents, cancel, None))


def _count(
    texts: list[str],
    pattern: str,
    lowercase: bool,
    strip_accents: bool,
    cancel: Callable[[], bool] | None,
    budget: AlphabetBudget | None,
) -> Generator[Progress, None, Counter[str]]:
    """:func:`count_words`; with a ``budget``, the new words of each block go into it and,
    text being left, its ``vocab_size`` is refused (InputError) after the block's report as
    soon as they need more ids."""
    counts: Counter[str] = Counter()
    total, done = sum(map(len, texts)), 0
    for text in texts:
        for block in _blocks(text, whole=pattern == "none"):
            normalized, _ = normalize(block, pattern=pattern, lowercase=lowercase, strip_accents=strip_accents)
            known = len(counts)
            counts.update(w for w, _ in normalized_words(normalized, pattern))
            if budget is not None:  # the block's new words: the last keys, in insertion order
                budget.add_words(islice(reversed(counts), len(counts) - known))
            if cancel is not None and cancel():
                raise Cancelled("training cancelled")
            done += len(block)
            yield Progress("pre-tokenizing", done, total, unit="characters")
            if budget is not None and done < total:  # (the end says the exact figure)
                budget.check_counted(done, total)
    return counts


def _blocks(text: str, *, whole: bool) -> Iterable[str]:
    """``text`` in blocks of at least :data:`BLOCK_CHARS` characters cut at line starts that
    split the same (the last block may be shorter; a text without such a line start, or
    ``whole``, is one block)."""
    start = 0
    while not whole and len(text) - start > BLOCK_CHARS:
        cut = _BLOCK_CUT.search(text, start + BLOCK_CHARS)
        if cut is None:
            break
        yield text[start : cut.start()]
        start = cut.start()
    yield text[start:]


def initial_alphabet(words: Iterable[str]) -> list[str]:
    """The starting pieces of these words, sorted: each first character, and
    every other character with ``##``.

    >>> initial_alphabet(["hug", "ugh"])
    ['##g', '##h', '##u', 'h', 'u']
    """
    alphabet: set[str] = set()
    for w in words:
        alphabet.add(w[0])
        alphabet.update(CONTINUATION + c for c in w[1:])
    return sorted(alphabet)


def _join(left: str, right: str) -> str:
    return left + right[len(CONTINUATION) :] if right.startswith(CONTINUATION) else left + right


class _State:
    """The merge loop's counts: words as piece ids, pair and piece counts, heaps."""

    def __init__(self, counts: dict[str, int], pieces: list[str]) -> None:
        self.pieces = pieces
        self.ids = {p: i for i, p in enumerate(pieces)}
        self.words: list[list[int]] = []
        self.freqs: list[int] = []
        self.pair_count: dict[Pair, int] = {}
        self.pair_words: dict[Pair, set[int]] = {}
        self.piece_count: dict[int, int] = {}
        self.piece_pairs: dict[int, set[Pair]] = {}
        for w in sorted(counts):
            self.words.append([self.ids[w[0]], *(self.ids[CONTINUATION + c] for c in w[1:])])
            self.freqs.append(counts[w])
        self.score_heap: list[tuple] = []
        self.count_heap: list[tuple] = []
        for k, (symbols, f) in enumerate(zip(self.words, self.freqs)):
            self._add(k, symbols, f)
        for pair in self.pair_count:
            self._push(pair)

    def _add(self, k: int, symbols: list[int], f: int) -> None:
        for s in symbols:
            self.piece_count[s] = self.piece_count.get(s, 0) + f
        for pair in zip(symbols, symbols[1:]):
            n = self.pair_count.get(pair, 0)
            if not n:
                self.pair_words[pair] = set()
                self.piece_pairs.setdefault(pair[0], set()).add(pair)
                self.piece_pairs.setdefault(pair[1], set()).add(pair)
            self.pair_count[pair] = n + f
            self.pair_words[pair].add(k)

    def _remove(self, k: int, symbols: list[int], f: int) -> None:
        for s in symbols:
            self.piece_count[s] -= f
        for pair in zip(symbols, symbols[1:]):
            n = self.pair_count[pair] - f
            if n:
                self.pair_count[pair] = n
                self.pair_words[pair].discard(k)
            elif pair in self.pair_count:
                del self.pair_count[pair]
                del self.pair_words[pair]
                self.piece_pairs[pair[0]].discard(pair)
                self.piece_pairs[pair[1]].discard(pair)

    def _push(self, pair: Pair) -> None:
        n = self.pair_count[pair]
        a, b = pair
        na, nb = self.piece_count[a], self.piece_count[b]
        strings = (self.pieces[a], self.pieces[b])
        heapq.heappush(self.score_heap, (-Fraction(n, na * nb), -n, strings, pair, na, nb))
        heapq.heappush(self.count_heap, (-n, strings, pair))

    def best(self) -> tuple[Pair, int, int, int] | None:
        """The best-scoring pair with its count and its parts' counts (None: no pair left)."""
        heap = self.score_heap
        while heap:
            _s, neg_n, _strings, pair, na, nb = heap[0]
            if (
                self.pair_count.get(pair) == -neg_n
                and self.piece_count[pair[0]] == na
                and self.piece_count[pair[1]] == nb
            ):
                return pair, -neg_n, na, nb
            heapq.heappop(heap)
        return None

    def most_frequent(self) -> tuple[Pair, int]:
        """The pair plain BPE would merge now, with its count (call after :meth:`best` found one)."""
        heap = self.count_heap
        while self.pair_count.get(heap[0][2]) != -heap[0][0]:
            heapq.heappop(heap)
        return heap[0][2], -heap[0][0]

    def merge(self, pair: Pair, new_id: int) -> None:
        """Replace every ``pair`` in the words by ``new_id``; refresh the changed heap entries."""
        a, b = pair
        touched_pairs: set[Pair] = set()
        for k in sorted(self.pair_words[pair]):
            old, f = self.words[k], self.freqs[k]
            new: list[int] = []
            i = 0
            while i < len(old):
                if i + 1 < len(old) and old[i] == a and old[i + 1] == b:
                    new.append(new_id)
                    i += 2
                else:
                    new.append(old[i])
                    i += 1
            self._remove(k, old, f)
            self._add(k, new, f)
            self.words[k] = new
            touched_pairs.update(zip(old, old[1:]))
            touched_pairs.update(zip(new, new[1:]))
        for piece in {a, b, new_id}:
            touched_pairs.update(self.piece_pairs.get(piece, ()))
        for p in touched_pairs:
            if p in self.pair_count:
                self._push(p)


def train_wordpiece_iter(
    texts: str | Iterable[str],
    *,
    vocab_size: int,
    pattern: str = BERT_PATTERN,
    lowercase: bool = False,
    strip_accents: bool = False,
    special_tokens: Sequence[str] = BERT_SPECIAL_TOKENS,
    name: str = "custom WordPiece",
    cancel: Callable[[], bool] | None = None,
) -> Generator[Progress, None, tuple[WordPiece, TrainReport]]:
    """Train a WordPiece, yielding progress; the generator returns the model.

    Args:
        texts: one str or an iterable of str.
        vocab_size: target number of ids: special tokens + alphabet + merged pieces.
        pattern: the pre-tokenizer (``"bert"`` or one of our split patterns).
        lowercase, strip_accents: the normalizer's options (kept in the model).
        special_tokens: the special tokens, ids 0.. in this order; ``[UNK]`` is
            put first when missing (and a report message says so).
        name: display name of the model.
        cancel: polled after every block of text and every merge; True raises :class:`Cancelled`.

    Yields:
        :class:`Progress`: ``"pre-tokenizing"`` (texts done), ``"counting"``,
        ``"merging"`` (pieces added of pieces requested).

    Returns:
        ``(WordPiece, TrainReport)``; training stops early when no pair is left
        and says so in the report (``requested_merges``/``learned_merges``
        count pieces added by merges).

    Raises:
        InputError: bad ``vocab_size`` (not an int; smaller than the special
            tokens and the alphabet the corpus needs, named in the message),
            unknown pattern, an empty special token. A ``vocab_size`` too small
            is refused as soon as that is known (:class:`AlphabetBudget`): before
            any word is counted when the distinct characters already need more
            ids, while counting after the block whose words do (both messages
            say the figure is a lower bound), else once every word is counted.
        TrainingError: nothing to train on.
        Cancelled: ``cancel()`` returned True.
    """
    t0 = time.perf_counter()
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise InputError(f"vocab_size must be an integer, not {vocab_size!r}")
    specials = list(dict.fromkeys(special_tokens))
    if any(not s for s in specials):
        raise InputError("a special token cannot be empty")
    messages: list[str] = []
    if UNK not in specials:
        specials.insert(0, UNK)
        messages.append(f"{UNK} added as id 0: WordPiece needs an unknown token")
    texts = [texts] if isinstance(texts, str) else list(texts)
    validate_pattern(pattern)
    budget = AlphabetBudget(vocab_size, specials)
    budget.check_characters(texts, pattern=pattern, lowercase=lowercase, strip_accents=strip_accents)
    chars = sum(map(len, texts))
    counts = yield from _count(texts, pattern, lowercase, strip_accents, cancel, budget)
    for s in specials:
        counts.pop(s, None)
    if not counts:
        raise TrainingError("nothing to train on: the text has no words")
    yield Progress("counting", len(counts), len(counts), unit="words")
    budget.check_counted(chars, chars)  # every word counted: the exact figure
    alphabet = budget.alphabet()  # initial_alphabet(counts) without the special tokens
    base = len(specials) + len(alphabet)
    long_words = sum(1 for w in counts if len(w) > DEFAULT_MAX_CHARS)
    if long_words:
        messages.append(
            f"{long_words:,} distinct {'word is' if long_words == 1 else 'words are'} longer than "
            f"{DEFAULT_MAX_CHARS:,} characters; {'it encodes' if long_words == 1 else 'they encode'} as {UNK}"
        )
    pieces = specials + alphabet
    merges = yield from _merge_loop(_State(counts, pieces), vocab_size - base, cancel)
    wp = WordPiece(
        pieces, pattern=pattern, lowercase=lowercase, strip_accents=strip_accents,
        special_tokens=specials, merges=merges, name=name,
    )  # fmt: skip
    learned = len(pieces) - base
    if learned < vocab_size - base:
        messages.insert(0, f"learned {learned:,} of {vocab_size - base:,} requested pieces; vocab {len(pieces):,}: "
                        "no pair of pieces is left to merge")  # fmt: skip
    else:
        messages.insert(0, f"learned {learned:,} of {vocab_size - base:,} pieces; vocab {len(pieces):,}")
    if len(merges) > learned:
        messages.append(f"{len(merges) - learned:,} merges produced a piece that was already there (no new id)")
    report = TrainReport(vocab_size - base, learned, len(pieces), time.perf_counter() - t0, messages)
    return wp, report


def _merge_loop(
    state: _State, n_requested: int, cancel: Callable[[], bool] | None
) -> Generator[Progress, None, list[WordPieceMerge]]:
    """Merge until ``n_requested`` pieces were added or no pair is left; ``state.pieces`` grows."""
    merges: list[WordPieceMerge] = []
    added_total = 0
    last_yield = time.perf_counter()
    yield Progress("merging", 0, n_requested, unit="pieces")
    while added_total < n_requested:
        found = state.best()
        if found is None:
            break
        pair, n, na, nb = found
        bpe_pair, bpe_n = state.most_frequent()
        left, right = state.pieces[pair[0]], state.pieces[pair[1]]
        merged = _join(left, right)
        new_id = state.ids.get(merged)
        added = new_id is None
        if new_id is None:
            new_id = len(state.pieces)
            state.pieces.append(merged)
            state.ids[merged] = new_id
            state.piece_count[new_id] = 0
            added_total += 1
        bpe_left, bpe_right = state.pieces[bpe_pair[0]], state.pieces[bpe_pair[1]]
        merges.append(
            WordPieceMerge(len(merges), left, right, merged, new_id, added, n, na, nb, bpe_left, bpe_right, bpe_n)
        )
        state.merge(pair, new_id)
        if cancel is not None and cancel():
            raise Cancelled("training cancelled")
        now = time.perf_counter()
        if now - last_yield > _YIELD_SECONDS:
            last_yield = now
            yield Progress("merging", added_total, n_requested, unit="pieces")
    yield Progress("merging", added_total, n_requested, unit="pieces")
    return merges


def train_wordpiece(
    texts: str | Iterable[str],
    *,
    vocab_size: int,
    pattern: str = BERT_PATTERN,
    lowercase: bool = False,
    strip_accents: bool = False,
    special_tokens: Sequence[str] = BERT_SPECIAL_TOKENS,
    name: str = "custom WordPiece",
    cancel: Callable[[], bool] | None = None,
) -> tuple[WordPiece, TrainReport]:
    """Train a WordPiece to the end; see :func:`train_wordpiece_iter` for the arguments and errors.

    >>> wp, report = train_wordpiece("low lower lowest", vocab_size=18, lowercase=True)
    >>> report.messages, [wp.vocab[i] for i in wp.encode("Lowest")]
    (['learned 6 of 6 pieces; vocab 18'], ['low', '##est'])
    """
    return run_to_end(
        train_wordpiece_iter(
            texts, vocab_size=vocab_size, pattern=pattern, lowercase=lowercase, strip_accents=strip_accents,
            special_tokens=special_tokens, name=name, cancel=cancel,
        )  # fmt: skip
    )
