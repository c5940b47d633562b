"""A WordPiece model: a vocabulary of pieces, encoded longest match first.

Each pre-tokenized word (:mod:`tokexplorer.core.wordpiece.pretokenize`) is
encoded on its own, greedily from the left: the longest vocabulary piece the
word starts with, then the longest piece that continues it, spelled with the
continuation prefix ``##``, and so on (Wu et al. 2016; BERT, Devlin et al.
2019). When some position has no piece at all, or the word is longer than
``max_input_chars_per_word`` characters (100, BERT's default), the whole word
becomes the unknown token ``[UNK]``.

>>> wp = WordPiece(["[UNK]", "play", "##ing", "##s", "p", "##l", "##a", "##y"])
>>> [wp.vocab[i] for i in wp.encode("playing plays pray")]
['play', '##ing', 'play', '##s', '[UNK]']
>>> wp.decode(wp.encode("playing plays"))
'playing plays'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import regex

from tokexplorer.core.errors import InputError, SpecialTokenError
from tokexplorer.core.types import SpecialPolicy
from tokexplorer.core.wordpiece.pretokenize import BERT_PATTERN, Word, pre_tokenize, validate_pattern

__all__ = ["CONTINUATION", "DEFAULT_MAX_CHARS", "UNK", "MatchStep", "WordPiece", "WordPieceMerge", "WordPieceToken"]

#: The prefix of a piece that continues a word.
CONTINUATION = "##"
#: The unknown token.
UNK = "[UNK]"
#: BERT's ``max_input_chars_per_word``: longer words encode as ``[UNK]``.
DEFAULT_MAX_CHARS = 100


@dataclass(frozen=True, slots=True)
class WordPieceMerge:
    """One step of WordPiece training.

    Attributes:
        step: 0 for the first merge.
        left, right: the two pieces joined (``right`` starts with ``##``).
        merged: the new piece (``left`` + ``right`` without its ``##``).
        new_id: the id of ``merged``.
        added: False when ``merged`` was already a piece (``a + ##bc`` after
            ``ab + ##c``): the step is kept but adds no id.
        count: how often the pair occurs in the counted words.
        left_count, right_count: how often each part occurs (as a piece of the
            current segmentation of the words).
        bpe_left, bpe_right, bpe_count: the most frequent pair at this step, the
            one plain BPE would have merged (ties as in the trainer).
    """

    step: int
    left: str
    right: str
    merged: str
    new_id: int
    added: bool
    count: int
    left_count: int
    right_count: int
    bpe_left: str
    bpe_right: str
    bpe_count: int

    @property
    def score(self) -> float:
        """The WordPiece score ``count / (left_count * right_count)`` (a float)."""
        return self.count / (self.left_count * self.right_count)

    @property
    def same_as_bpe(self) -> bool:
        """True when plain BPE would have merged the same pair."""
        return (self.left, self.right) == (self.bpe_left, self.bpe_right)


@dataclass(frozen=True, slots=True)
class MatchStep:
    """One look-up of longest-match-first encoding (for the replay).

    Attributes:
        start, end: the characters of the word tried, ``word[start:end]``.
        candidate: the piece looked up (``##`` prefixed when ``start > 0``).
        found: whether the vocabulary has it (then it is taken and the next
            look-up starts at ``end``).
    """

    start: int
    end: int
    candidate: str
    found: bool


@dataclass(frozen=True, slots=True)
class WordPieceToken:
    """One token of an encoded text: its id and its span in the original text (code points)."""

    id: int
    start: int
    end: int


class WordPiece:
    """A WordPiece vocabulary with its pre-tokenizer and normalizer.

    Args:
        vocab: the pieces in id order (continuations spelled ``##...``); must hold
            ``unk_token``; no piece twice.
        pattern: the pre-tokenizer (:data:`~tokexplorer.core.wordpiece.pretokenize.WORDPIECE_PATTERNS`).
        lowercase, strip_accents: the normalizer's options.
        unk_token: the unknown token.
        special_tokens: pieces that are special tokens (``[CLS]``...); each must be
            in ``vocab``; ``unk_token`` always is one.
        max_input_chars_per_word: longer words encode as ``unk_token``.
        merges: the training steps (empty for a vocabulary from a file).
        name: display name.

    Raises:
        InputError: a piece twice, ``unk_token`` or a special token missing, an
            unknown pattern.
    """

    def __init__(
        self,
        vocab: Sequence[str],
        *,
        pattern: str = BERT_PATTERN,
        lowercase: bool = False,
        strip_accents: bool = False,
        unk_token: str = UNK,
        special_tokens: Sequence[str] = (),
        max_input_chars_per_word: int = DEFAULT_MAX_CHARS,
        merges: Sequence[WordPieceMerge] = (),
        name: str = "custom WordPiece",
    ) -> None:
        validate_pattern(pattern)
        self.vocab: list[str] = list(vocab)
        self.ids: dict[str, int] = {p: i for i, p in enumerate(self.vocab)}
        if len(self.ids) != len(self.vocab):
            twice = next(p for i, p in enumerate(self.vocab) if self.ids[p] != i)
            raise InputError(f"the WordPiece vocabulary holds {twice!r} twice")
        if unk_token not in self.ids:
            raise InputError(f"the WordPiece vocabulary has no unknown token {unk_token!r}")
        specials = list(dict.fromkeys([unk_token, *special_tokens]))
        missing = [s for s in specials if s not in self.ids]
        if missing:
            raise InputError(f"special token {missing[0]!r} is not in the WordPiece vocabulary")
        self.pattern = pattern
        self.lowercase = lowercase
        self.strip_accents = strip_accents
        self.unk_token = unk_token
        self.unk_id = self.ids[unk_token]
        self.special_tokens: dict[str, int] = {s: self.ids[s] for s in specials}
        self.max_input_chars_per_word = max_input_chars_per_word
        self.merges: list[WordPieceMerge] = list(merges)
        self.name = name
        ordered = sorted(self.special_tokens, key=len, reverse=True)
        self._special_re = regex.compile("|".join(regex.escape(s) for s in ordered))

    @property
    def vocab_size(self) -> int:
        """Number of ids (special tokens included)."""
        return len(self.vocab)

    def __repr__(self) -> str:
        return f"<WordPiece {self.name!r} {self.vocab_size} pieces, {self.pattern}>"

    # ---------------------------------------------------------------- words
    def words(self, text: str) -> list[Word]:
        """The pre-tokenized words of ``text`` with their spans (see
        :func:`~tokexplorer.core.wordpiece.pretokenize.pre_tokenize`)."""
        return pre_tokenize(text, pattern=self.pattern, lowercase=self.lowercase, strip_accents=self.strip_accents)

    def match_steps(self, word: str) -> list[MatchStep]:
        """Every look-up longest-match-first encoding of ``word`` makes, in order.

        The steps stop at the first position where nothing matched (the word is
        then ``[UNK]``); a word over ``max_input_chars_per_word`` characters
        makes no look-up at all.

        >>> wp = WordPiece(["[UNK]", "pl", "play", "##ing"])
        >>> [(s.candidate, s.found) for s in wp.match_steps("plays")]
        [('plays', False), ('play', True), ('##s', False)]
        """
        steps: list[MatchStep] = []
        if len(word) > self.max_input_chars_per_word:
            return steps
        start, n, ids = 0, len(word), self.ids
        while start < n:
            for end in range(n, start, -1):
                piece = word[start:end] if start == 0 else CONTINUATION + word[start:end]
                found = piece in ids
                steps.append(MatchStep(start, end, piece, found))
                if found:
                    start = end
                    break
            else:
                return steps
        return steps

    def encode_word(self, word: str) -> list[int]:
        """The ids of one pre-tokenized word, longest match first (``[UNK]`` alone
        when the word cannot be covered or is too long).

        >>> WordPiece(["[UNK]", "a", "##b"]).encode_word("abab")
        [0]
        """
        if len(word) > self.max_input_chars_per_word:
            return [self.unk_id]
        out: list[int] = []
        start, n, ids = 0, len(word), self.ids
        while start < n:
            for end in range(n, start, -1):
                i = ids.get(word[start:end] if start == 0 else CONTINUATION + word[start:end])
                if i is not None:
                    out.append(i)
                    start = end
                    break
            else:
                return [self.unk_id]
        return out

    # ----------------------------------------------------------------- text
    def _word_tokens(self, text: str, offset: int, out: list[WordPieceToken]) -> None:
        """Append the tokens of ordinary text (spans shifted by ``offset``)."""
        for w in self.words(text):
            ids = self.encode_word(w.text)
            if len(ids) == 1:
                out.append(WordPieceToken(ids[0], offset + w.start, offset + w.end))
                continue
            # continuation pieces: split the word's span where the normalized
            # pieces end (exact when normalizing kept one character per character)
            pos = w.start
            for k, i in enumerate(ids):
                length = len(self.vocab[i]) - (len(CONTINUATION) if k else 0)
                end = w.end if k == len(ids) - 1 else min(w.end, pos + length)
                out.append(WordPieceToken(i, offset + pos, offset + end))
                pos = end

    def tokens(self, text: str, *, special: SpecialPolicy = "plain") -> list[WordPieceToken]:
        """Encode ``text``: tokens with spans in ``text`` (code points).

        Args:
            text: any str.
            special: ``"plain"`` encodes spellings of special tokens as text,
                ``"special"`` as their ids, ``"raise"`` refuses them.

        Raises:
            SpecialTokenError: ``special="raise"`` and the text spells a special token.

        >>> wp = WordPiece(["[UNK]", "[SEP]", "a", "##b", "b"], special_tokens=["[SEP]"])
        >>> [(t.id, t.start, t.end) for t in wp.tokens("ab [SEP]b", special="special")]
        [(2, 0, 1), (3, 1, 2), (1, 3, 8), (4, 8, 9)]
        """
        out: list[WordPieceToken] = []
        if special == "plain":
            self._word_tokens(text, 0, out)
            return out
        pos = 0
        for m in self._special_re.finditer(text):
            if special == "raise":
                raise SpecialTokenError(m.group())
            self._word_tokens(text[pos : m.start()], pos, out)
            out.append(WordPieceToken(self.special_tokens[m.group()], m.start(), m.end()))
            pos = m.end()
        self._word_tokens(text[pos:], pos, out)
        return out

    def encode(self, text: str, *, special: SpecialPolicy = "plain") -> list[int]:
        """The ids of ``text`` (see :meth:`tokens`)."""
        return [t.id for t in self.tokens(text, special=special)]

    # ------------------------------------------------------------- decoding
    def piece_text(self, token_id: int) -> str:
        """The text of one id: the piece without its ``##``.

        Raises:
            InputError: the id is not in the vocabulary.
        """
        if not 0 <= token_id < len(self.vocab):
            raise InputError(f"token id {token_id} is not in the vocabulary (0..{len(self.vocab) - 1})")
        piece = self.vocab[token_id]
        return piece[len(CONTINUATION) :] if self.is_continuation(token_id) else piece

    def is_continuation(self, token_id: int) -> bool:
        """True for a piece that continues a word (``##...``; not a special token)."""
        piece = self.vocab[token_id]
        special = token_id in self.special_tokens.values()
        return piece.startswith(CONTINUATION) and len(piece) > len(CONTINUATION) and not special

    def decode(self, ids: Sequence[int]) -> str:
        """The text of ``ids``: continuation pieces join the piece before them;
        with the ``bert`` pre-tokenizer, which drops spaces, every other piece
        starts a new word after a space (as ``tokenizers``' WordPiece decoder
        joins them). Unlike that decoder, no clean-up follows (``a ?`` stays
        ``a ?``; the library's ``cleanup=True`` gives ``a?``) and a continuation
        piece first gives its text (``##ing`` → ``ing``; the library keeps
        ``##ing``). Other pre-tokenizers keep the spaces inside the pieces, so
        pieces join as they are.

        Raises:
            InputError: an id is not in the vocabulary.
        """
        parts: list[str] = []
        for k, i in enumerate(ids):
            text = self.piece_text(i)
            if k and self.pattern == BERT_PATTERN and not self.is_continuation(i):
                parts.append(" ")
            parts.append(text)
        return "".join(parts)
