"""Our WordPiece (:class:`tokexplorer.core.wordpiece.model.WordPiece`) behind the
:class:`~tokexplorer.core.backends.base.Tokenizer` interface.

Each token's span is the part of the original text its piece came from (the
normalizer works a character at a time, so spans stay in the text even when
it lower-cases or strips accents). A token's bytes are its piece without the
``##`` of a continuation (an unknown token's is ``[UNK]``; the notes name the
text each one stands for, and what the normalizer did, as a ``vocab.txt`` read
by ``tokenizers`` does); with
BERT's pre-tokenizer the spaces between words belong to no token, so the tokens
do not tile the text
(``Tokenization.exact_offsets`` is False then, and whenever normalizing
changed the text).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath

from tokexplorer.core.backends.base import CancelCheck, Tokenizer, unknown_tokens_notes
from tokexplorer.core.backends.naming import file_label
from tokexplorer.core.text import CleanText
from tokexplorer.core.types import SpecialPolicy, Token, Tokenization
from tokexplorer.core.wordpiece import WordPiece, normalize

__all__ = ["WordPieceTokenizer"]


class WordPieceTokenizer(Tokenizer):
    """A :class:`~tokexplorer.core.wordpiece.model.WordPiece` as a :class:`Tokenizer`.

    Args:
        wordpiece: the model (trained, or loaded with
            :func:`tokexplorer.core.io.wordpiece_files.load_wordpiece`).
        source_file: the model file it was loaded from, or None.

    Attributes:
        wordpiece: the wrapped model.

    >>> from tokexplorer.core.wordpiece import train_wordpiece
    >>> tok = WordPieceTokenizer(train_wordpiece("playing plays played", vocab_size=24)[0])
    >>> tok.description
    'custom WordPiece · bert pre-tokenizer · 24 tokens'
    >>> [(t.piece, t.bytes, t.char_start, t.char_end) for t in tok.tokenize("plays!").tokens]
    [('plays', b'plays', 0, 5), ('[UNK]', b'[UNK]', 5, 6)]
    """

    family = "wordpiece"

    def __init__(self, wordpiece: WordPiece, *, source_file: PurePath | None = None) -> None:
        self.wordpiece = wordpiece
        self.source_file = source_file

    @property
    def default_name(self) -> str:
        """``"m.wordpiece (WordPiece)"`` for a model from a file, else the model's name
        (``"custom WordPiece · saved as vocab.txt"`` once exported: :attr:`saved_as`)."""
        if self.source_file is not None:
            return file_label(self.source_file, self.family)
        if self.saved_as is not None:
            return f"{self.wordpiece.name} · saved as {self.saved_as.name}"
        return self.wordpiece.name

    @property
    def description(self) -> str:
        """``"custom WordPiece · bert pre-tokenizer, lowercase · 30,000 tokens"`` (the name first)."""
        wp = self.wordpiece
        what = f"{wp.pattern} pre-tokenizer"
        options = [o for o, on in (("lowercase", wp.lowercase), ("accents stripped", wp.strip_accents)) if on]
        if options:
            what += ", " + ", ".join(options)
        return f"{self.name} · {what} · {self.vocab_size:,} tokens"

    @property
    def vocab_size(self) -> int:
        """Number of ids, special tokens included."""
        return self.wordpiece.vocab_size

    @property
    def special_tokens(self) -> dict[str, int]:
        return dict(self.wordpiece.special_tokens)

    def _tokenize(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> Tokenization:
        """Tokens with their spans in the text (code points and UTF-8 bytes).

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.
        """
        wp, t = self.wordpiece, cleaned.text
        byte_at = [0]
        for c in t:
            byte_at.append(byte_at[-1] + len(c.encode("utf-8")))
        specials = set(wp.special_tokens.values()) if special == "special" else set()
        tokens = []
        for tok in wp.tokens(t, special=special):
            tokens.append(
                Token(
                    tok.id, wp.piece_text(tok.id).encode("utf-8"), byte_at[tok.start], byte_at[tok.end],
                    tok.start, tok.end, False, special=tok.id in specials,
                    unknown=tok.id == wp.unk_id, piece=wp.vocab[tok.id],
                )  # fmt: skip
            )
        normalized, _ = normalize(t, pattern=wp.pattern, lowercase=wp.lowercase, strip_accents=wp.strip_accents)
        exact = b"".join(x.bytes for x in tokens) == t.encode("utf-8")
        notes = list(cleaned.notes)
        if normalized != t:  # said as a Hugging Face tokenizer says its normalizer's work
            from tokexplorer.core.backends.sentencepiece.normalization import describe_normalization

            notes.append(describe_normalization(t, normalized))
        notes.extend(unknown_tokens_notes([t[x.char_start : x.char_end] for x in tokens if x.unknown]))
        return Tokenization(self.name, t, tuple(tokens), exact, tuple(notes), normalized if normalized != t else None)

    def _encode(self, cleaned: CleanText, *, special: SpecialPolicy, cancel: CancelCheck | None) -> list[int]:
        return self.wordpiece.encode(cleaned.text, special=special)

    def token_bytes(self, token_id: int) -> bytes:
        """The UTF-8 of one piece without the ``##`` of a continuation.

        Raises:
            InputError: the id is not in the vocabulary.
        """
        return self.wordpiece.piece_text(token_id).encode("utf-8")

    def decode_bytes(self, ids: Sequence[int]) -> bytes:
        """The UTF-8 of :meth:`WordPiece.decode <tokexplorer.core.wordpiece.model.WordPiece.decode>`:
        with BERT's pre-tokenizer a space before every piece that starts a word,
        so the text is not given back exactly (what the pre-tokenizer dropped is lost).

        Raises:
            InputError: an id is not in the vocabulary.
        """
        return self.wordpiece.decode(ids).encode("utf-8")
