"""The one interface every tokenizer backend implements.

A backend wraps one tokenizer (our BPE, a tiktoken encoding, a SentencePiece
model) and turns text into a :class:`~tokexplorer.core.types.Tokenization`.
The GUI, the CLI and the statistics only ever talk to this interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Sequence

import regex

from tokexplorer.core.types import SpecialPolicy, Tokenization


class Tokenizer(ABC):
    """A loaded tokenizer.

    Attributes (read-only properties):
        name: short display name, e.g. ``"cl100k_base"`` or ``"custom BPE"``.
        family: ``"bpe"`` (ours), ``"tiktoken"`` or ``"sentencepiece"``.
        description: one line for a column header naming the encoding, its
            pre-tokenizer or normalizer and its vocabulary size, e.g.
            ``"tiktoken cl100k_base · cl100k pattern · 100,277 tokens"``.
        vocab_size: number of token ids (including special tokens).
        special_tokens: special token text -> id.
    """

    family: str = ""

    @property
    @abstractmethod
    def name(self) -> str: ...

    @property
    @abstractmethod
    def description(self) -> str: ...

    @property
    @abstractmethod
    def vocab_size(self) -> int: ...

    @property
    def special_tokens(self) -> dict[str, int]:
        return {}

    @abstractmethod
    def tokenize(self, text: str, *, special: SpecialPolicy = "plain") -> Tokenization:
        """Tokenize ``text`` into tokens with spans.

        Args:
            text: any str; lone surrogates are cleaned by
                :func:`tokexplorer.core.text.clean.clean_text` first (noted in the result).
            special: what to do with text that spells a special token (see
                :data:`tokexplorer.core.types.SpecialPolicy`); with ``"plain"`` a
                note tells the user when the text contained such a spelling.

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
            Cancelled: the work was cancelled (only via ``cancel`` hooks of subclasses).
        """

    def tokenize_cancellable(
        self,
        text: str,
        *,
        special: SpecialPolicy = "plain",
        cancel: Callable[[], bool] | None = None,
    ) -> Tokenization:
        """:meth:`tokenize` that stops early when ``cancel()`` returns True.

        Backends whose encoding can take long (our pure-Python BPE on a huge
        chunk) override this and poll ``cancel``; the others are fast and run to
        the end.

        Raises:
            Cancelled: ``cancel()`` returned True (only where the backend polls it).
            SpecialTokenError: as :meth:`tokenize`.
        """
        return self.tokenize(text, special=special)

    def count_cancellable(
        self,
        text: str,
        *,
        special: SpecialPolicy = "plain",
        cancel: Callable[[], bool] | None = None,
    ) -> int:
        """:meth:`count` that stops early when ``cancel()`` returns True (see
        :meth:`tokenize_cancellable`)."""
        return self.count(text, special=special)

    def encode(self, text: str, *, special: SpecialPolicy = "plain") -> list[int]:
        """Token ids of ``text`` (list of int); see :meth:`tokenize`."""
        return self.tokenize(text, special=special).ids

    def count(self, text: str, *, special: SpecialPolicy = "plain") -> int:
        """Number of tokens of ``text``; subclasses may do this without building spans."""
        return len(self.encode(text, special=special))

    @abstractmethod
    def token_bytes(self, token_id: int) -> bytes:
        """The bytes one token id stands for.

        Raises:
            InputError: the id is not in the vocabulary.
        """

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
    """
    if policy == "plain" or "<|" not in text:
        return []
    seen: list[str] = []
    for m in _SPECIAL_LIKE.finditer(text):
        s = m.group()
        if s not in known and s not in seen:
            seen.append(s)
    return [f"{s!r} is not a special token of this tokenizer; encoded as plain text" for s in seen]
