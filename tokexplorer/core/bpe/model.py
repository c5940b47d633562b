"""The byte-level BPE model: merges are the stored truth, the vocabulary is derived.

A :class:`BPE` is a list of merges (:class:`~tokexplorer.core.types.MergeRecord`),
a pre-tokenizer (split pattern), and special tokens. Ids 0–255 are the 256
single bytes (for our trained models; a tiktoken encoding loaded with
:meth:`BPE.from_mergeable_ranks` keeps tiktoken's ids, where single bytes are
permuted). Every merge creates one token whose bytes are the concatenation of
its two parts. ``vocab`` (id -> bytes) and ``mergeable_ranks`` (bytes -> id) are
derived from the merges, never stored separately.

``vocab_size`` = 256 byte tokens + merged tokens + special tokens (see
:func:`tokexplorer.core.bpe.trainer.validate_vocab_size`). Training is in
:mod:`tokexplorer.core.bpe.trainer`, encoding by merge rank in
:mod:`tokexplorer.core.bpe.encoder`.

>>> from tokexplorer.core.types import MergeRecord
>>> bpe = BPE([MergeRecord(0, 97, 98, 256, b"ab", 3)], pattern="none")
>>> bpe.encode("abcab"), bpe.vocab[256], bpe.vocab_size
([256, 99, 256], b'ab', 257)
>>> bpe.decode([256, 99])
'abc'
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Literal

from tokexplorer.core.bpe.encoder import N_BYTES, RankEncoder
from tokexplorer.core.bpe.gc_pause import gc_paused
from tokexplorer.core.bpe.recovery import recover_merges
from tokexplorer.core.bpe.specials import special_regex
from tokexplorer.core.errors import InputError, SpecialTokenError
from tokexplorer.core.text import Splitter, clean_text, compile_splitter, name_of_pattern, pattern_string
from tokexplorer.core.types import MergeRecord, SpecialPolicy


class BPE:
    """A byte-level BPE model (merges + split pattern + special tokens).

    Args:
        merges: merges in rank order. For our trained models, ``left``/``right``
            refer to byte ids 0–255 or earlier merges' ``new_id``.
        pattern: name of the pre-tokenizer (``"gpt2"``, ``"cl100k"``, ``"o200k"``,
            ``"none"``); ignored when ``pat_str`` is given.
        pat_str: a split pattern string (for tiktoken encodings); None with
            ``pattern="none"`` means no pre-tokenization.
        special_tokens: special token text -> id; ids must not collide with
            token ids.
        name: display name.
        byte_ids: id of each single byte (index = byte value); default identity.
        unicode: whose Unicode tables the split pattern's classes follow:
            ``"regex"`` (default, our own models) or ``"tiktoken"`` (see
            :class:`~tokexplorer.core.text.pretokenize.Splitter`).

    Raises:
        InputError: inconsistent merges (unknown part ids, duplicate ids) or
            special token ids that collide with token ids.
    """

    def __init__(
        self,
        merges: Sequence[MergeRecord],
        *,
        pattern: str = "gpt2",
        pat_str: str | None = None,
        special_tokens: Mapping[str, int] | None = None,
        name: str = "custom BPE",
        byte_ids: Sequence[int] | None = None,
        unicode: str = "regex",
    ) -> None:
        self.unicode = unicode
        if pat_str is None:
            self.pat_str = pattern_string(pattern)
            self.pattern_name: str | None = pattern
        else:
            self.pat_str = pat_str
            self.pattern_name = name_of_pattern(pat_str)
        self.name = name
        self._merges: list[MergeRecord] | None = list(merges)
        self._unbuilt: list[int] = []
        self._vocab = _vocab_of_merges(self._merges, byte_ids)
        self._n_vocab: tuple[tuple[int, ...], int] | None = None  # (special ids, n_vocab) last computed
        self.mergeable_ranks: dict[bytes, int] = {}
        for i, b in sorted(self._vocab.items()):
            self.mergeable_ranks.setdefault(b, i)
        self._set_specials(dict(special_tokens or {}), reject_empty=True)

    # ------------------------------------------------------------------ loading
    @classmethod
    def from_mergeable_ranks(
        cls,
        mergeable_ranks: Mapping[bytes, int],
        *,
        pat_str: str | None,
        special_tokens: Mapping[str, int] | None = None,
        name: str = "tiktoken",
        unicode: str = "tiktoken",
    ) -> BPE:
        """Load a tiktoken-style vocabulary (``bytes -> rank``) into this engine.

        The ranks become the ids (so cl100k's single-byte ids are not the byte
        values). The merges are recovered from the ranks on first access to
        :attr:`merges` (:func:`~tokexplorer.core.bpe.recovery.recover_merges`):
        a token is built from the two parts that rank-order merging of its own
        bytes joins last, as tiktoken builds it; the tokens that merging never
        builds are :attr:`unbuilt_tokens`. Merge counts are unknown (None).

        Args:
            mergeable_ranks: token bytes -> rank (tiktoken's ``_mergeable_ranks``).
            pat_str: the encoding's split pattern.
            special_tokens: special token text -> id.
            name: display name.
            unicode: whose Unicode tables the pattern's classes follow; default
                ``"tiktoken"``, so chunks are tiktoken's on every code point.

        Raises:
            InputError: the ranks lack a single byte, or two tokens share a rank.

        >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257}
        >>> bpe = BPE.from_mergeable_ranks(ranks, pat_str=None)
        >>> bpe.known_merges is None, [(m.left, m.right, m.merged) for m in bpe.merges]
        (True, [(97, 98, b'ab'), (256, 99, b'abc')])
        """
        for b in range(N_BYTES):
            if bytes([b]) not in mergeable_ranks:
                raise InputError(f"the ranks have no token for byte {b:02X}")
        self = cls.__new__(cls)
        self.unicode = unicode
        self.pat_str = pat_str
        self.pattern_name = name_of_pattern(pat_str)
        self.name = name
        self.mergeable_ranks = dict(mergeable_ranks)
        self._vocab = {i: b for b, i in self.mergeable_ranks.items()}
        self._n_vocab = None
        if len(self._vocab) != len(self.mergeable_ranks):
            raise InputError("mergeable_ranks has two tokens with the same rank")
        self._set_specials(dict(special_tokens or {}), reject_empty=False)
        self._merges = None  # recovered on first access
        self._unbuilt = []
        return self

    def _set_specials(self, special_tokens: dict[str, int], *, reject_empty: bool) -> None:
        """Register the special tokens and compile the splitter; no encoding tables yet."""
        self.special_tokens: dict[str, int] = special_tokens
        for s, i in special_tokens.items():
            if i in self._vocab:
                raise InputError(f"special token {s!r} id {i} collides with a token id")
            if reject_empty and not s:
                raise InputError("a special token cannot be empty")
        self._special_by_id = {i: s.encode("utf-8") for s, i in special_tokens.items()}
        self._special_re = special_regex(special_tokens)
        self._split: Splitter | None = None  # compiled on first use (0.2 s for cl100k)
        self._encoder: RankEncoder | None = None  # built by prepare()

    def _splitter(self) -> Splitter | None:
        """The pre-tokenizer (None: no pattern), compiled the first time it is needed."""
        if self._split is None and self.pat_str is not None:
            self._split = compile_splitter(self.pat_str, unicode=self.unicode)
        return self._split

    @property
    def merges(self) -> list[MergeRecord]:
        """The merges in rank order (list of :class:`MergeRecord`).

        For a model loaded from ranks they are recovered on first access
        (about a second for cl100k's 100,000 tokens); the tokens no merge
        builds are left out of them and listed by :attr:`unbuilt_tokens`.
        """
        if self._merges is None:
            self._merges, self._unbuilt = recover_merges(self.mergeable_ranks)
        return self._merges

    @property
    def unbuilt_tokens(self) -> list[int]:
        """Ids of the tokens (other than single bytes) that no merge builds, in id order.

        Rank-order merging of such a token's bytes ends with other parts, so
        the token is only ever emitted for a whole chunk that is that token
        (as tiktoken does). Empty for our trained models; for a model loaded
        from ranks, reading this recovers the merges (see :attr:`merges`).
        Llama 3's ranks have 588 such tokens.

        >>> ranks = {bytes([b]): b for b in range(256)} | {b"ba": 256, b"ab": 257, b"abab": 258}
        >>> bpe = BPE.from_mergeable_ranks(ranks, pat_str=None)
        >>> bpe.unbuilt_tokens, len(bpe.merges), bpe.encode("abab"), bpe.encode("ababa")
        ([258], 2, [258], [97, 256, 256])
        """
        if self._merges is None:
            self._merges, self._unbuilt = recover_merges(self.mergeable_ranks)
        return self._unbuilt

    @property
    def known_merges(self) -> list[MergeRecord] | None:
        """The merges if they are known without work: trained, loaded, or already
        recovered; None for a model loaded from ranks whose merges are not
        recovered yet (reading this never recovers them; :attr:`merges` does)."""
        return self._merges

    # --------------------------------------------------------------- properties
    @property
    def vocab(self) -> dict[int, bytes]:
        """Token id -> bytes, without special tokens (a copy is not made: do not mutate)."""
        return self._vocab

    @property
    def vocab_size(self) -> int:
        """Number of ids: byte tokens + merged tokens + special tokens."""
        return len(self._vocab) + len(self.special_tokens)

    @property
    def n_vocab(self) -> int:
        """One more than the largest id (tiktoken's ``n_vocab``)."""
        specials = tuple(self.special_tokens.values())
        if self._n_vocab is None or self._n_vocab[0] != specials:  # the vocab never changes; specials may
            self._n_vocab = (specials, max(max(self._vocab, default=-1), max(specials, default=-1)) + 1)
        return self._n_vocab[1]

    @property
    def vocab_text(self) -> str:
        """What :attr:`vocab_size` counts, as every view says it (:func:`vocab_text`)."""
        return vocab_text(len(self._vocab), len(self.special_tokens), self.n_vocab)

    def __repr__(self) -> str:
        return f"<BPE {self.name!r} pattern={self.pattern_name} vocab_size={self.vocab_size}>"

    # ----------------------------------------------------------------- encoding
    def prepare(self) -> BPE:
        """Build the per-model lookup tables now instead of on the first encoding.

        The tables are the text of each whole token (so a chunk that is a token
        costs one lookup), the ranks of the two-byte tokens and of the single
        bytes (the merge loop's start), and the table of safe cut points (see
        :class:`~tokexplorer.core.bpe.encoder.RankEncoder`); about 0.3 s for a
        100,000-token vocabulary. The split pattern is compiled too (about 0.03 s
        for cl100k's, a tenth of encoding 1 MiB of English).

        Returns:
            self.
        """
        if self._encoder is None:
            self._encoder = RankEncoder(self.mergeable_ranks)
        self._splitter()
        return self

    @property
    def rank_encoder(self) -> RankEncoder:
        """The model's :class:`~tokexplorer.core.bpe.encoder.RankEncoder` (built by :meth:`prepare`)."""
        if self._encoder is None:
            self.prepare()
        assert self._encoder is not None
        return self._encoder

    def clear_cache(self) -> None:
        """Forget cached chunk and segment encodings (for cold-cache timing).

        The chunk cache keeps only the vocabulary's own tokens (a chunk that is
        a whole token is always found by one lookup; tiktoken does the same).
        """
        if self._encoder is not None:
            self._encoder.clear_cache()

    def encode_ordinary(self, text: str, *, cancel: Callable[[], bool] | None = None) -> list[int]:
        """Encode ``text`` ignoring special tokens (their spelling is plain text).

        Lone surrogates are cleaned first (:func:`tokexplorer.core.text.clean.clean_text`).

        Args:
            text: any str.
            cancel: polled during long work (every few thousand new chunks, and
                inside very long chunks); returning True stops the encoding.

        Returns:
            list of token ids.

        Raises:
            Cancelled: ``cancel()`` returned True.

        >>> BPE([], special_tokens={"<|end|>": 256}).encode_ordinary("hi<|end|>")[:4]
        [104, 105, 60, 124]
        """
        text = clean_text(text).text
        out: list[int] = []
        with gc_paused():
            self._encode_ordinary_into(text, out, cancel)
        return out

    def _encode_ordinary_into(self, text: str, out: list[int], cancel: Callable[[], bool] | None) -> None:
        if not text:
            return
        splitter = self._splitter()
        chunks = [text] if splitter is None else splitter.findall(text)
        if self._encoder is None:
            self.prepare()
        self._encoder.encode_chunks(chunks, out, cancel)

    def encode(
        self,
        text: str,
        *,
        allowed_special: AbstractSet[str] | Literal["all"] = frozenset(),
        disallowed_special: Collection[str] | Literal["all"] = "all",
        cancel: Callable[[], bool] | None = None,
    ) -> list[int]:
        """Encode ``text`` with tiktoken's special-token semantics.

        Args:
            text: any str (lone surrogates are cleaned first).
            allowed_special: special tokens to encode as their ids (``"all"``: every one).
            disallowed_special: special tokens whose spelling in the text is an
                error (``"all"``: every one not allowed; ``()``: none, they are
                then plain text).
            cancel: see :meth:`encode_ordinary`.

        Returns:
            list of token ids.

        Raises:
            SpecialTokenError: the text contains a disallowed special token.
            Cancelled: ``cancel()`` returned True.

        >>> bpe = BPE([], special_tokens={"<|end|>": 256})
        >>> bpe.encode("hi<|end|>", allowed_special="all")
        [104, 105, 256]
        >>> bpe.encode("hi<|end|>")
        Traceback (most recent call last):
        ...
        tokexplorer.core.errors.SpecialTokenError: text contains the special token '<|end|>'; ...
        """
        with gc_paused():
            return self._encode(text, allowed_special, disallowed_special, cancel)

    def _encode(self, text, allowed_special, disallowed_special, cancel) -> list[int]:
        text = clean_text(text).text
        specials = set(self.special_tokens)
        allowed = specials if allowed_special == "all" else set(allowed_special) & specials
        disallowed = (specials - allowed) if disallowed_special == "all" else set(disallowed_special)
        if disallowed:
            m = special_regex(disallowed).search(text)
            if m:
                raise SpecialTokenError(m.group())
        out: list[int] = []
        if not allowed:
            self._encode_ordinary_into(text, out, cancel)
            return out
        sre = special_regex(allowed)
        pos = 0
        for m in sre.finditer(text):
            self._encode_ordinary_into(text[pos : m.start()], out, cancel)
            out.append(self.special_tokens[m.group()])
            pos = m.end()
        self._encode_ordinary_into(text[pos:], out, cancel)
        return out

    def encode_with_policy(
        self,
        text: str,
        policy: SpecialPolicy = "plain",
        *,
        cancel: Callable[[], bool] | None = None,
    ) -> list[int]:
        """Encode under a :data:`~tokexplorer.core.types.SpecialPolicy`.

        ``"raise"`` = ``encode(text)``; ``"special"`` = ``encode(text, allowed_special="all")``;
        ``"plain"`` = :meth:`encode_ordinary`.

        Raises:
            SpecialTokenError: policy ``"raise"`` and the text spells a special token.
            InputError: unknown policy.

        >>> BPE([], special_tokens={"<|end|>": 256}).encode_with_policy("hi<|end|>", "special")
        [104, 105, 256]
        """
        if policy == "plain":
            return self.encode_ordinary(text, cancel=cancel)
        if policy == "special":
            return self.encode(text, allowed_special="all", cancel=cancel)
        if policy == "raise":
            return self.encode(text, cancel=cancel)
        raise InputError(f"unknown special-token policy {policy!r}")

    def find_special(self, text: str) -> list[tuple[int, int, str]]:
        """Character spans ``(start, end, token)`` of special token spellings in ``text``.

        >>> BPE([], special_tokens={"<|end|>": 256}).find_special("a<|end|>b")
        [(1, 8, '<|end|>')]
        """
        if self._special_re is None:
            return []
        return [(m.start(), m.end(), m.group()) for m in self._special_re.finditer(text)]

    def chunks(self, text: str) -> list[str]:
        """The pre-tokenizer's chunks of ``text`` (list of str joining back to it).

        >>> BPE([]).chunks("hi there!")
        ['hi', ' there', '!']
        """
        if not text:
            return []
        splitter = self._splitter()
        return [text] if splitter is None else splitter.findall(text)

    # ----------------------------------------------------------------- decoding
    def token_bytes(self, token_id: int) -> bytes:
        """Bytes of one token id (special tokens give their UTF-8 spelling).

        Raises:
            InputError: unknown id.
        """
        b = self._vocab.get(token_id)
        if b is None:
            b = self._special_by_id.get(token_id)
            if b is None:
                raise InputError(f"token id {token_id} is not in the vocabulary")
        return b

    def decode_bytes(self, ids: Iterable[int]) -> bytes:
        """Lossless decode: the concatenated bytes of ``ids``.

        Raises:
            InputError: an id is not in the vocabulary.

        >>> BPE([], special_tokens={"<|end|>": 256}).decode_bytes([104, 256, 0xE4])
        b'h<|end|>\\xe4'
        """
        v = self._vocab
        try:
            return b"".join([v[i] for i in ids])
        except KeyError:
            return b"".join([self.token_bytes(i) for i in ids])

    def decode(self, ids: Iterable[int], *, errors: str = "replace") -> str:
        """Decode ids to text with ``bytes.decode("utf-8", errors)``; no clean-up of spaces."""
        return self.decode_bytes(ids).decode("utf-8", errors)


def vocab_text(n_ranked: int, n_special: int, n_ids: int) -> str:
    """How many tokens a byte-level BPE has and what they are, said the one way every view
    (the merge table, the compare columns, ``tokexplorer merges``) says it.

    The count is of tokens, ranked and special; tiktoken's ``n_vocab`` is one more than the
    largest id instead, which is more where ids are unused (cl100k_base has none at 100,256
    and 100,261–100,275), so that figure is given as the ids' range.

    Args:
        n_ranked: tokens with a merge rank: the 256 single bytes and the merged tokens
            (tiktoken's ``mergeable_ranks``).
        n_special: special tokens (outside the ranks).
        n_ids: one more than the largest id (tiktoken's ``n_vocab``), at least ``n_ranked + n_special``.

    >>> vocab_text(100_256, 5, 100_277)
    '100,261 tokens (100,256 ranked + 5 special; ids to 100,276, 16 unused)'
    >>> vocab_text(300, 1, 301), vocab_text(4_096, 0, 4_096), vocab_text(4_096, 0, 4_100)
    ('301 tokens (300 ranked + 1 special)', '4,096 tokens', '4,096 tokens (ids to 4,099, 4 unused)')
    """
    n = n_ranked + n_special
    parts = [f"{n_ranked:,} ranked + {n_special:,} special"] * bool(n_special)
    parts += [f"ids to {n_ids - 1:,}, {n_ids - n:,} unused"] * (n_ids > n)
    return f"{n:,} tokens" + (f" ({'; '.join(parts)})" if parts else "")


def _vocab_of_merges(merges: Sequence[MergeRecord], byte_ids: Sequence[int] | None) -> dict[int, bytes]:
    """Token id -> bytes built from the single bytes and the merges, checked.

    Raises:
        InputError: bad ``byte_ids``, a merge with unknown parts, merged bytes
            that are not its parts, or an id given to two different tokens.
    """
    byte_ids = list(range(N_BYTES)) if byte_ids is None else list(byte_ids)
    if len(byte_ids) != N_BYTES:
        raise InputError("byte_ids must give an id for each of the 256 byte values")
    vocab: dict[int, bytes] = {i: bytes([b]) for b, i in enumerate(byte_ids)}
    if len(vocab) != N_BYTES:
        raise InputError("byte_ids must be 256 distinct ids")
    for m in merges:
        try:
            merged = vocab[m.left] + vocab[m.right]
        except KeyError:
            raise InputError(f"merge rank {m.rank} refers to an unknown token id") from None
        if merged != m.merged:
            raise InputError(f"merge rank {m.rank}: merged bytes do not match its parts")
        old = vocab.get(m.new_id)
        if old is not None and old != merged:
            raise InputError(f"merge rank {m.rank}: id {m.new_id} is already another token")
        vocab[m.new_id] = merged
    return vocab
