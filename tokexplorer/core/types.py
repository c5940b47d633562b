"""Result and record types shared by every backend.

Every tokenizer family (our byte-level BPE, tiktoken, SentencePiece) returns the
same :class:`Tokenization`, so the GUI, the CLI and the statistics never need to
know which library produced it.

Offsets are half-open. *Byte* offsets count bytes of the UTF-8 encoding of
:attr:`Tokenization.text`; *character* offsets count Python ``str`` code points
of the same text.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Literal, TypeVar

T = TypeVar("T")

SpecialPolicy = Literal["raise", "special", "plain"]
"""How text that spells a special token (``<|endoftext|>``) is treated.

* ``"raise"``: refuse such text (:class:`~tokexplorer.core.errors.SpecialTokenError`),
  as tiktoken's ``encode`` does by default.
* ``"special"``: encode each occurrence as its special token id
  (tiktoken's ``allowed_special="all"``).
* ``"plain"``: encode the spelling as ordinary text (tiktoken's ``encode_ordinary``).
"""

SPECIAL_POLICIES: tuple[str, ...] = ("raise", "special", "plain")

#: The algorithms a training request (:mod:`tokexplorer.core.training`) may name: our
#: byte-level BPE, SentencePiece BPE, SentencePiece Unigram, our WordPiece.
ALGORITHMS: tuple[str, ...] = ("bpe", "sp-bpe", "sp-unigram", "wordpiece")
#: SentencePiece's character and word models: a request may name them too (the
#: SentencePiece training dialog offers every model type; the command line does not).
MORE_SENTENCEPIECE_ALGORITHMS: tuple[str, ...] = ("sp-char", "sp-word")

#: Default split pattern of byte-level BPE (GPT-2's), used when a request names none.
DEFAULT_PATTERN = "gpt2"


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a tokenization.

    Attributes:
        id: the token id in its tokenizer's vocabulary.
        bytes: the bytes this token stands for (for SentencePiece: the piece with
            ``▁`` turned into a space and ``<0xNN>`` byte pieces into their byte).
        byte_start: first byte (inclusive) of the token's span in the UTF-8 text.
        byte_end: end byte (exclusive) of that span.
        char_start: first code point index (inclusive) of the span; when the span
            starts inside a multi-byte character this is the index of that character.
        char_end: end code point index (exclusive); when the span ends inside a
            character this is the index just after that character.
        partial: True when the token holds only part of at least one UTF-8
            character (its span starts or ends inside a character).
        special: True for a special token (``<|endoftext|>``, ``<s>``...).
        unknown: True for an unknown piece (SentencePiece ``<unk>``).
        piece: the tokenizer's own spelling of the token when it has one
            (SentencePiece pieces such as ``"▁good"`` or ``"<0xE9>"``), else None.
        inside_normalized: True when the token holds only part of what a normalizer
            made of one original character (one ``"."`` of the three NFKC makes of
            ``"…"``); its span is then that whole character.
    """

    id: int
    bytes: bytes
    byte_start: int
    byte_end: int
    char_start: int
    char_end: int
    partial: bool
    special: bool = False
    unknown: bool = False
    piece: str | None = None
    inside_normalized: bool = False

    def __repr__(self) -> str:
        return f"Token({self.id}, {self.bytes!r}, [{self.byte_start}:{self.byte_end}])"

    def to_json(self) -> dict:
        """Return the JSON object used by ``tokexplorer encode --json``.

        Returns:
            ``{"id", "bytes" (lower-case hex, no spaces), "byte_start", "byte_end",
            "char_start", "char_end", "partial"}`` plus ``"special"``/``"unknown"``/
            ``"piece"``/``"inside_normalized"`` when they apply.

        >>> Token(2, b"\\xe4\\xbd", 1, 3, 1, 2, True).to_json()
        {'id': 2, 'bytes': 'e4bd', 'byte_start': 1, 'byte_end': 3, 'char_start': 1, 'char_end': 2, 'partial': True}
        """
        out = {
            "id": self.id,
            "bytes": self.bytes.hex(),
            "byte_start": self.byte_start,
            "byte_end": self.byte_end,
            "char_start": self.char_start,
            "char_end": self.char_end,
            "partial": self.partial,
        }
        if self.special:
            out["special"] = True
        if self.unknown:
            out["unknown"] = True
        if self.piece is not None:
            out["piece"] = self.piece
        if self.inside_normalized:
            out["inside_normalized"] = True
        return out


@dataclass(frozen=True, slots=True)
class Tokenization:
    """The result of tokenizing one text with one tokenizer.

    Attributes:
        tokenizer: display name of the tokenizer (e.g. ``"tiktoken cl100k_base"``).
        text: the text that was tokenized, after :func:`tokexplorer.core.text.clean.clean_text`
            (lone surrogates replaced); offsets refer to this text.
        tokens: the tokens in order.
        exact_offsets: True when the tokens' byte spans tile the UTF-8 text exactly
            (always for byte-level tokenizers). False when a normalizer rewrote the
            text (SentencePiece NFKC, whitespace collapsing) so spans are approximate.
        notes: human-readable remarks for the user (surrogates replaced, special
            token text encoded as plain text, normalizer changed the text...).
        normalized: the text the tokenizer actually saw after its normalizer, when
            it differs from :attr:`text`, else None.
    """

    tokenizer: str
    text: str
    tokens: tuple[Token, ...]
    exact_offsets: bool = True
    notes: tuple[str, ...] = ()
    normalized: str | None = None

    def __repr__(self) -> str:
        return f"Tokenization({self.tokenizer!r}, {len(self.tokens)} tokens)"

    @property
    def ids(self) -> list[int]:
        """The token ids, in order (list of int)."""
        return [t.id for t in self.tokens]

    def __len__(self) -> int:
        return len(self.tokens)

    def to_json(self) -> dict:
        """Return ``{"tokenizer", "ids", "tokens": [...]}`` (see :meth:`Token.to_json`)."""
        out = {
            "tokenizer": self.tokenizer,
            "ids": self.ids,
            "tokens": [t.to_json() for t in self.tokens],
        }
        if not self.exact_offsets:
            out["exact_offsets"] = False
        if self.notes:
            out["notes"] = list(self.notes)
        if self.normalized is not None:
            out["normalized"] = self.normalized
        return out


@dataclass(frozen=True, slots=True)
class MergeRecord:
    """One learned BPE merge.

    Attributes:
        rank: position in the merge list (0 = first merge learned, merged first).
        left: token id of the left part.
        right: token id of the right part.
        new_id: token id of the merged token.
        merged: bytes of the merged token (``vocab[left] + vocab[right]``).
        count: how often the pair occurred in the (pre-tokenized) training corpus
            when it was chosen, or None when unknown (merges recovered from
            tiktoken's ``mergeable_ranks``).
        saved: how many tokens merging it saved in the training corpus (its
            replacements, fewer than ``count`` where the pair overlaps itself:
            ``a a a`` counts (a, a) twice and merges it once), or None when
            unknown (merges read from a file or recovered from ranks).
    """

    rank: int
    left: int
    right: int
    new_id: int
    merged: bytes
    count: int | None = None
    saved: int | None = None

    def __repr__(self) -> str:
        return f"MergeRecord(#{self.rank} {self.left}+{self.right}->{self.new_id} {self.merged!r})"


@dataclass(frozen=True, slots=True)
class Progress:
    """A progress report from long core work (training, corpus reading, statistics).

    Attributes:
        phase: what is being done: ``"reading"``, ``"pre-tokenizing"``, ``"counting"``,
            ``"merging"``, ``"encoding"``...
        done: units finished in this phase.
        total: units in this phase, or None when unknown.
        message: optional human-readable detail.
        detail: optional live data for a view of the work in progress; for
            training's ``"merging"`` phase, the list of :class:`MergeRecord` learned
            so far (the same list object, growing; read it, never change it).
        unit: what ``done`` and ``total`` count, for the views that show them
            (``"bytes"``, ``"characters"``, ``"merges"``, ``"chunks"``...; each report
            says its own: one phase counts bytes of files but characters of texts);
            ``""`` for steps.
    """

    phase: str
    done: int = 0
    total: int | None = None
    message: str = ""
    detail: list[MergeRecord] | None = None
    unit: str = ""

    @property
    def fraction(self) -> float | None:
        """``done / total`` in [0, 1], or None when the total is unknown.

        >>> Progress("reading", 3, 4).fraction, Progress("reading", 3).fraction
        (0.75, None)
        """
        if not self.total:
            return None
        return min(1.0, self.done / self.total)


def run_to_end(gen: Generator[Progress, None, T]) -> T:
    """Run a generator of :class:`Progress` to the end and return its value.

    Long core work (training, reading a corpus, statistics) is written as such a
    generator; the GUI drives it in a worker, the CLI and tests with this.

    >>> def work():
    ...     yield Progress("counting", 1, 2)
    ...     yield Progress("counting", 2, 2)
    ...     return "done"
    >>> run_to_end(work())
    'done'
    """
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value


@dataclass(slots=True)
class TrainReport:
    """What a training run did, for the user.

    Attributes:
        requested_merges: merges asked for (``vocab_size - 256 - len(special_tokens)``).
        learned_merges: merges actually learned (fewer when the pairs ran out).
        vocab_size: final vocabulary size (256 + learned merges + special tokens).
        seconds: wall time of the run, in seconds.
        messages: human-readable remarks ("learned 1 of 44 requested merges; vocab 257").
    """

    requested_merges: int
    learned_merges: int
    vocab_size: int
    seconds: float = 0.0
    messages: list[str] = field(default_factory=list)
