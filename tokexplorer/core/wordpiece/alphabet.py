"""The ids a WordPiece training needs before its first merge, known as early as the corpus allows.

Every counted word starts as its characters (``hug`` -> ``h ##u ##g``), so the vocabulary
must hold the special tokens and the *alphabet*: each word's first character, and every
other character with ``##`` (words spelled as a special token are left out). A
``vocab_size`` below that is refused, and the sooner the better: on a Chinese text every
ideograph is a piece, and counting a large corpus only to say "too small" wastes the wait.
:class:`AlphabetBudget` says it at the first of three moments that proves it:

1. before any word is counted: the distinct characters of the corpus, a cheap scan
   (each character left after normalizing, white space aside for ``bert``, needs at least
   one piece; the characters of the special tokens are not counted, since a word spelled
   as a special token is dropped);
2. while the words are counted, block by block (:func:`~tokexplorer.core.wordpiece.trainer.count_words`
   works in blocks): the alphabet of the words counted so far; more may follow;
3. once every word is counted: the exact figure.

The first two are lower bounds, and the messages say so.

>>> budget = AlphabetBudget(5, ["[UNK]"])
>>> budget.check_characters(["hug ugh"], pattern="bert")  # h u g + [UNK]: 4 ids, may fit
>>> budget.add_words(["hug", "ugh"])
>>> budget.needed, budget.alphabet()
(6, ['##g', '##h', '##u', 'h', 'u'])
>>> budget.check_counted(7, 9)
Traceback (most recent call last):
...
tokexplorer.core.errors.InputError: vocab_size 5 is too small: counting stopped at 77% of the corpus (7 of 9 \
characters), whose words already need 5 alphabet pieces (first characters and ## continuations) + 1 special \
token; use at least 6 (the rest may need more)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from tokexplorer.core.errors import Cancelled, InputError
from tokexplorer.core.wordpiece.model import CONTINUATION
from tokexplorer.core.wordpiece.pretokenize import BERT_PATTERN, WHITESPACE, normalize

__all__ = ["AlphabetBudget", "character_pieces", "distinct_characters"]

_PIECES = "alphabet pieces (first characters and ## continuations)"


class AlphabetBudget:
    """The special tokens and the alphabet of the words seen so far, against ``vocab_size``.

    Args:
        vocab_size: the number of ids asked for.
        specials: the special tokens, without duplicates (they take ids of their own; a
            piece spelled as one is not counted twice).

    Attributes:
        vocab_size, specials: as given.
        firsts: the first characters of the words added (a set of 1-character str).
        rest: the other characters of those words (their pieces are ``"##" + c``).
    """

    def __init__(self, vocab_size: int, specials: Sequence[str]) -> None:
        self.vocab_size = vocab_size
        self.specials = list(specials)
        self._special_set = frozenset(self.specials)
        self.firsts: set[str] = set()
        self.rest: set[str] = set()

    @property
    def needed(self) -> int:
        """The ids the words added so far need before any merge: special tokens + alphabet pieces."""
        shared = sum(
            1
            for s in self._special_set
            if s in self.firsts
            or (len(s) == len(CONTINUATION) + 1 and s.startswith(CONTINUATION) and s[-1] in self.rest)
        )
        return len(self.specials) + len(self.firsts) + len(self.rest) - shared

    def alphabet(self) -> list[str]:
        """The alphabet of the words added, without the special tokens, sorted in code point
        order (:func:`~tokexplorer.core.wordpiece.trainer.initial_alphabet` of them)."""
        pieces = self.firsts | {CONTINUATION + c for c in self.rest}
        return sorted(pieces - self._special_set)

    def add_words(self, words: Iterable[str]) -> None:
        """Add the alphabet of ``words`` (non-empty str; a word spelled as a special token is skipped)."""
        for w in words:
            if w not in self._special_set:
                self.firsts.add(w[0])
                self.rest.update(w[1:])

    def check_characters(
        self, texts: Sequence[str], *, pattern: str, lowercase: bool = False, strip_accents: bool = False
    ) -> None:
        """Refuse ``vocab_size`` before any word is counted when the distinct characters of
        ``texts`` already need more ids: each character the normalizer leaves (white space
        aside for ``bert``, which drops it; characters of a special token aside) is in some
        word and needs at least one piece. Normalizing works one character at a time, so the
        distinct characters are normalized, not the texts: one ``set`` pass over each text.

        Raises:
            InputError: the special tokens + one piece per such character exceed
                ``vocab_size`` (the message says it is a lower bound).

        >>> AlphabetBudget(4, ["[UNK]"]).check_characters(["世界 世界 你好"], pattern="bert")
        Traceback (most recent call last):
        ...
        tokexplorer.core.errors.InputError: vocab_size 4 is too small: before counting the words, the corpus's \
distinct characters already need at least 4 alphabet pieces (first characters and ## continuations) + 1 special \
token; use at least 5 (counting the words may show more)
        """
        distinct = distinct_characters(texts)
        kept = character_pieces(
            distinct, self.specials, pattern=pattern, lowercase=lowercase, strip_accents=strip_accents
        )
        least = len(self.specials) + kept
        if self.vocab_size >= least:
            return
        if not kept:
            n = len(self.specials)
            raise InputError(
                f"vocab_size {self.vocab_size:,} is too small: the {n} special {_tokens(n)} alone need {n} ids, "
                f"and the corpus's {_PIECES} come on top"
            )
        raise InputError(
            f"vocab_size {self.vocab_size:,} is too small: before counting the words, the corpus's distinct "
            f"characters already need at least {kept:,} {_PIECES} + {self._specials_text()}; "
            f"use at least {least:,} (counting the words may show more)"
        )

    def check_counted(self, done: int, total: int) -> None:
        """Refuse ``vocab_size`` when the words added so far need more ids.

        Args:
            done: characters of the corpus whose words were added.
            total: characters of the whole corpus; ``done < total``: more words may
                follow and the message says that the figure is a lower bound, else it is exact.

        Raises:
            InputError: :attr:`needed` exceeds ``vocab_size``.
        """
        least = self.needed
        if self.vocab_size >= least:
            return
        alphabet = least - len(self.specials)
        if done >= total:
            raise InputError(
                f"vocab_size {self.vocab_size:,} is too small: this corpus needs {alphabet:,} {_PIECES} + "
                f"{self._specials_text()}; use at least {least:,}"
            )
        raise InputError(
            f"vocab_size {self.vocab_size:,} is too small: counting stopped at {_share(done, total)} of the corpus "
            f"({done:,} of {total:,} characters), whose words already need {alphabet:,} {_PIECES} + "
            f"{self._specials_text()}; use at least {least:,} (the rest may need more)"
        )

    def _specials_text(self) -> str:
        return f"{len(self.specials)} special {_tokens(len(self.specials))}"


# characters per ``set.update`` call of :func:`distinct_characters` (about 10 ms each)
SLICE_CHARS = 1 << 20


def distinct_characters(texts: Iterable[str], cancel: Callable[[], bool] | None = None) -> set[str]:
    """The distinct characters (code points) of ``texts``, read in slices of
    :data:`SLICE_CHARS` so that no single call holds the interpreter lock for long (one
    ``set`` of 64 MB of text takes 0.6 s, during which no other thread runs).

    Raises:
        Cancelled: ``cancel()`` returned True (polled between slices).

    >>> sorted(distinct_characters(["abca", "世界"]))
    ['a', 'b', 'c', '世', '界']
    """
    distinct: set[str] = set()
    for text in texts:
        for start in range(0, len(text), SLICE_CHARS):
            distinct.update(text[start : start + SLICE_CHARS])
            if cancel is not None and cancel():
                raise Cancelled("cancelled")
    return distinct


def character_pieces(
    characters: Iterable[str],
    specials: Sequence[str],
    *,
    pattern: str,
    lowercase: bool = False,
    strip_accents: bool = False,
) -> int:
    """The alphabet pieces a corpus of these distinct characters needs at least (a lower
    bound, known before any word is counted): one per character the normalizer leaves
    (white space aside for ``bert``, which drops it), characters of ``specials`` aside (a
    word spelled as a special token is dropped, and its characters with it).

    Args:
        characters: the distinct characters of the corpus (1-character str, any order).
        specials: the special tokens the model will have.
        pattern, lowercase, strip_accents: the pre-tokenizer and the normalizer's options.

    Normalizing works one character at a time, so the distinct characters are normalized, not the corpus.

    >>> character_pieces(set("Héllo 世界!"), ["[UNK]"], pattern="bert", lowercase=True, strip_accents=True)
    7
    """
    normalized, _ = normalize("".join(sorted(set(characters))), pattern=pattern, lowercase=lowercase,
                              strip_accents=strip_accents)  # fmt: skip
    kept = set(normalized)
    if pattern == BERT_PATTERN:
        kept -= WHITESPACE
    for s in specials:
        kept.difference_update(s)
    return len(kept)


def _tokens(n: int) -> str:
    return "token" if n == 1 else "tokens"


def _share(done: int, total: int) -> str:
    """``done`` of ``total`` as a percentage rounded down (never "100%" before the end).

    >>> _share(1, 3), _share(1, 1000)
    ('33%', 'less than 1%')
    """
    percent = done * 100 // total
    return f"{percent}%" if percent else "less than 1%"
