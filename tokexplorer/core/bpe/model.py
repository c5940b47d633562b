"""Byte-level BPE: training, encoding by merge rank, decoding.

The model
---------
A :class:`BPE` is a list of merges (:class:`~tokexplorer.core.types.MergeRecord`),
a pre-tokenizer (split pattern), and special tokens. Ids 0–255 are the 256
single bytes (for our trained models; a tiktoken encoding loaded with
:meth:`BPE.from_mergeable_ranks` keeps tiktoken's ids, where single bytes are
permuted). Every merge creates one token whose bytes are the concatenation of
its two parts. ``vocab`` (id -> bytes) and ``mergeable_ranks`` (bytes -> id) are
derived from the merges, never stored separately.

Vocabulary size is defined once, here: ``vocab_size = 256 byte tokens + merged
tokens + special tokens``. See :func:`validate_vocab_size`.

Training
--------
Byte-pair encoding as introduced for subword units by Sennrich, Haddow and
Birch, "Neural Machine Translation of Rare Words with Subword Units" (ACL 2016),
applied to UTF-8 bytes as in GPT-2 (Radford et al., 2019). The text is split
into chunks by the pre-tokenizer; merges never cross a chunk boundary. Chunks
are counted once (a word-frequency table); pair counts are kept incrementally
with a pair -> words index, and after each merge only the pairs next to the
merge sites are updated. The next pair comes from a lazy max-heap.

Tie-break (deterministic whatever the line order or hash seed): the pair with
the highest count wins; among equal counts, the smallest pair of token byte
strings, compared as ``(bytes_of_left, bytes_of_right)``.

When a merge produces bytes that are already a token (``ab+c`` and ``a+bc`` both
give ``abc``), the existing id is reused (as Hugging Face ``tokenizers`` does),
so token bytes stay unique; such a merge is recorded but adds no token.

Encoding
--------
As tiktoken does: each chunk's bytes start as single bytes, and the adjacent
pair whose concatenation has the lowest rank in ``mergeable_ranks`` is merged
(leftmost first among equal ranks) until no adjacent pair is a token. Short
chunks use a direct loop; long chunks a heap over a linked list, so runs such
as ``"x" * 1_000_000`` take O(n log n). Results are cached per chunk.

>>> bpe, report = train_bpe("xxxyyyzzzzwwww", vocab_size=260, pattern="none")
>>> [(m.merged, m.count) for m in bpe.merges]
[(b'ww', 3), (b'zz', 3), (b'xx', 2), (b'yy', 2)]
>>> bpe.decode(bpe.encode("wwwwzz"))
'wwwwzz'
"""

from __future__ import annotations

import gc
import heapq
import os
import threading
import time
from array import array
from collections.abc import Callable, Collection, Generator, Iterable, Mapping, Sequence
from contextlib import contextmanager
from itertools import chain, compress, repeat
from operator import lshift, or_
from typing import AbstractSet, Literal

from tokexplorer.core.bpe.counting import count_files, count_texts, run
from tokexplorer.core.bpe.counting import special_regex as _special_regex
from tokexplorer.core.errors import Cancelled, InputError, SpecialTokenError, TrainingError
from tokexplorer.core.text import clean_text, compile_splitter, name_of_pattern, pattern_string
from tokexplorer.core.types import MergeRecord, Progress, SpecialPolicy, TrainReport

N_BYTES = 256
_SHORT_CHUNK = 512  # bytes; longer chunks use the heap-based merge loop
_INF = 1 << 62
_SHIFT = 21  # pair keys in training: left << 21 | right
_MASK = (1 << _SHIFT) - 1
MAX_TRAIN_VOCAB = 1 << _SHIFT
_CACHE_LIMIT = 200_000  # chunks kept in the encode cache before it is cleared
_CACHE_CHUNK_CHARS = 256  # longer chunks are not cached


def validate_vocab_size(vocab_size: int, n_special: int = 0) -> None:
    """Check a requested vocabulary size for byte-level BPE.

    Args:
        vocab_size: requested number of token ids (256 bytes + merges + specials).
        n_special: number of special tokens that will be registered.

    Raises:
        InputError: ``vocab_size`` is not an int, is below ``256 + n_special``
            or above :data:`MAX_TRAIN_VOCAB` (2,097,152; token ids are packed
            into 21 bits in the trainer's pair keys).

    >>> validate_vocab_size(258, 2)
    >>> validate_vocab_size(257, 2)
    Traceback (most recent call last):
    ...
    tokexplorer.core.errors.InputError: byte-level BPE needs at least 256 base tokens (+2 special): vocab_size 257 is too small; use at least 258
    """
    if isinstance(vocab_size, bool) or not isinstance(vocab_size, int):
        raise InputError(f"vocab_size must be an integer, not {vocab_size!r}")
    need = N_BYTES + n_special
    if vocab_size < need:
        extra = f" (+{n_special} special)" if n_special else ""
        raise InputError(
            f"byte-level BPE needs at least 256 base tokens{extra}: "
            f"vocab_size {vocab_size} is too small; use at least {need}"
        )
    if vocab_size > MAX_TRAIN_VOCAB:
        raise InputError(f"vocab_size {vocab_size:,} is too large; the trainer supports up to {MAX_TRAIN_VOCAB:,}")


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
    ) -> None:
        if pat_str is None:
            self.pat_str = pattern_string(pattern)
            self.pattern_name: str | None = pattern
        else:
            self.pat_str = pat_str
            self.pattern_name = name_of_pattern(pat_str)
        self.name = name
        self._merges: list[MergeRecord] | None = list(merges)
        byte_ids = list(range(N_BYTES)) if byte_ids is None else list(byte_ids)
        if len(byte_ids) != N_BYTES:
            raise InputError("byte_ids must give an id for each of the 256 byte values")
        vocab: dict[int, bytes] = {i: bytes([b]) for b, i in enumerate(byte_ids)}
        if len(vocab) != N_BYTES:
            raise InputError("byte_ids must be 256 distinct ids")
        for m in self._merges:
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
        self._vocab = vocab
        self.mergeable_ranks: dict[bytes, int] = {}
        for i, b in sorted(vocab.items()):
            self.mergeable_ranks.setdefault(b, i)
        self.special_tokens: dict[str, int] = dict(special_tokens or {})
        for s, i in self.special_tokens.items():
            if i in vocab:
                raise InputError(f"special token {s!r} id {i} collides with a token id")
            if not s:
                raise InputError("a special token cannot be empty")
        self._special_by_id = {i: s.encode("utf-8") for s, i in self.special_tokens.items()}
        self._special_re = _special_regex(self.special_tokens)
        self._splitter = compile_splitter(self.pat_str) if self.pat_str is not None else None
        self._reset_encoding_tables()

    # ------------------------------------------------------------------ loading
    @classmethod
    def from_mergeable_ranks(
        cls,
        mergeable_ranks: Mapping[bytes, int],
        *,
        pat_str: str | None,
        special_tokens: Mapping[str, int] | None = None,
        name: str = "tiktoken",
    ) -> BPE:
        """Load a tiktoken-style vocabulary (``bytes -> rank``) into this engine.

        The ranks become the ids (so cl100k's single-byte ids are not the byte
        values). The merges are recovered from the ranks: each multi-byte token
        is split into the two parts that rank-based encoding of its own bytes,
        with only lower ranks allowed, leaves at the last step (the method used
        by minbpe's ``recover_merges``). Merge counts are unknown (None).

        Args:
            mergeable_ranks: token bytes -> rank (tiktoken's ``_mergeable_ranks``).
            pat_str: the encoding's split pattern.
            special_tokens: special token text -> id.
            name: display name.

        Raises:
            InputError: the ranks lack a single byte, or a token cannot be
                built from two lower-ranked tokens.
        """
        byte_ids = []
        for b in range(N_BYTES):
            r = mergeable_ranks.get(bytes([b]))
            if r is None:
                raise InputError(f"the ranks have no token for byte {b:02X}")
            byte_ids.append(r)
        self = cls.__new__(cls)
        # Build a provisional instance for encoding, then recover merges lazily.
        self._init_from_ranks(dict(mergeable_ranks), pat_str, dict(special_tokens or {}), name)
        self._byte_ids = byte_ids
        return self

    def _init_from_ranks(self, ranks, pat_str, special_tokens, name) -> None:
        self.pat_str = pat_str
        self.pattern_name = name_of_pattern(pat_str)
        self.name = name
        self.mergeable_ranks = ranks
        self._vocab = {i: b for b, i in ranks.items()}
        if len(self._vocab) != len(ranks):
            raise InputError("mergeable_ranks has two tokens with the same rank")
        self.special_tokens = special_tokens
        for s, i in special_tokens.items():
            if i in self._vocab:
                raise InputError(f"special token {s!r} id {i} collides with a token id")
        self._special_by_id = {i: s.encode("utf-8") for s, i in special_tokens.items()}
        self._special_re = _special_regex(special_tokens)
        self._splitter = compile_splitter(pat_str) if pat_str is not None else None
        self._reset_encoding_tables()
        self._merges = None

    def _reset_encoding_tables(self) -> None:
        """No per-model encoding tables yet: :meth:`prepare` builds them."""
        self._whole: dict[str, tuple[int]] | None = None
        self._cache: _ChunkCache | None = None
        self._seg_cache: dict[bytes, tuple[int, ...]] = {}
        self._cuts: tuple[array, bytes] | None = None
        self._pair_ranks: list[int] = []
        self._byte_ranks: list[int] = []

    @property
    def merges(self) -> list[MergeRecord]:
        """The merges in rank order (list of :class:`MergeRecord`).

        For a model loaded from ranks they are recovered on first access
        (about a second for cl100k's 100,000 tokens)."""
        if self._merges is None:
            self._merges = self._recover_merges()
        return self._merges

    def _recover_merges(self) -> list[MergeRecord]:
        ranks = self.mergeable_ranks
        out: list[MergeRecord] = []
        for tok, rank in sorted(ranks.items(), key=lambda kv: kv[1]):
            if len(tok) < 2:
                continue
            parts = _merge_parts(ranks, tok, max_rank=rank)
            if len(parts) != 2:
                raise InputError(
                    f"token rank {rank} ({tok!r}) cannot be built from two lower-ranked tokens"
                )
            out.append(
                MergeRecord(len(out), ranks[parts[0]], ranks[parts[1]], rank, tok, None)
            )
        return out

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
        ids = list(self._vocab) + list(self.special_tokens.values())
        return max(ids) + 1

    def __repr__(self) -> str:
        return f"<BPE {self.name!r} pattern={self.pattern_name} vocab_size={self.vocab_size}>"

    # ----------------------------------------------------------------- encoding
    def prepare(self) -> BPE:
        """Build the per-model lookup tables now instead of on the first encoding.

        The tables are the text of each whole token (so a chunk that is a token
        costs one lookup), the ranks of the two-byte tokens and of the single
        bytes (the merge loop's start), and the table of safe cut points (see
        :func:`_cut_table` and :meth:`_encode_chunk`); about 0.3 s for a
        100,000-token vocabulary.

        Returns:
            self.
        """
        if self._whole is None:
            self._whole = self._whole_tokens()
            self._cache = _ChunkCache(self._whole, self._encode_chunk)
        if self._cuts is None:
            ranks = self.mergeable_ranks
            self._pair_ranks = _pair_rank_table(ranks)
            self._byte_ranks = [ranks[bytes([b])] for b in range(N_BYTES)]
            self._seg_cache = _SegmentCache(ranks, self._byte_ranks, self._pair_ranks)
            self._cuts = _cut_table(ranks)
        return self

    def clear_cache(self) -> None:
        """Forget cached chunk and segment encodings (for cold-cache timing).

        The chunk cache keeps only the vocabulary's own tokens (a chunk that is
        a whole token is always found by one lookup; tiktoken does the same).
        """
        if self._whole is not None:
            self._cache = _ChunkCache(self._whole, self._encode_chunk)
        self._seg_cache.clear()

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
        """
        text = clean_text(text).text
        out: list[int] = []
        with _cancel_scope(cancel), _gc_paused():
            self._encode_ordinary_into(text, out)
        return out

    def _encode_ordinary_into(self, text: str, out: list[int]) -> None:
        if not text:
            return
        chunks = [text] if self._splitter is None else self._splitter.findall(text)
        if self._whole is None:
            self.prepare()
        # One pass in C over the chunks: a chunk that is a whole token or was
        # seen before costs one lookup; the cache encodes the others (once each).
        out.extend(chain.from_iterable(map(self._cache.__getitem__, chunks)))

    def _whole_tokens(self) -> dict[str, tuple[int]]:
        """Text of each token whose bytes are valid UTF-8 -> ``(id,)``.

        Built once per model on the first encoding: a chunk that is a whole
        token is then found with one str lookup (no UTF-8 encoding, no merging).
        """
        out: dict[str, tuple[int]] = {}
        for b, r in self.mergeable_ranks.items():
            try:
                out[b.decode("utf-8")] = (r,)
            except UnicodeDecodeError:
                pass
        return out

    def _encode_chunk(self, chunk: str) -> list[int]:
        """Token ids of one chunk (no chunk cache).

        A chunk that is not ASCII is first cut wherever no token of the
        vocabulary can lie across the cut: no token holds the two bytes on
        either side of it followed by the next byte of the chunk (or ending
        there). No merge can ever join across such a point, so the segments can
        be merged (and cached) on their own with the same result. In CJK and
        emoji text most character boundaries are such points, and many points
        inside characters too (a 1 MiB Chinese text has about 7,000 distinct
        segments where it has 23,000 distinct chunks), which shrinks the merge
        work and lets repeated characters and words hit the segment cache.
        """
        b = chunk.encode("utf-8")
        n = len(b)
        if n == len(chunk):  # ASCII: cuts are rare, merge directly
            return _merge_ids(self.mergeable_ranks, b, self._byte_ranks, self._pair_ranks)
        # the cut points, found with C-level maps: i where the bytes
        # (b[i-1], b[i], b[i+1]) are flagged by the cut table (b[n] reads as 0)
        row_start, rows = self._cuts
        pairs = map(or_, map(lshift, b, repeat(8)), b[1:])
        keys = map(or_, map(row_start.__getitem__, pairs), b[2:] + b"\0")
        cuts = list(compress(range(1, n), map(rows.__getitem__, keys)))
        starts = [0, *cuts]
        cuts.append(n)
        segs = map(b.__getitem__, map(slice, starts, cuts))
        return list(chain.from_iterable(map(self._seg_cache.__getitem__, segs)))

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
        """
        with _cancel_scope(cancel), _gc_paused():
            return self._encode(text, allowed_special, disallowed_special)

    def _encode(self, text, allowed_special, disallowed_special) -> list[int]:
        text = clean_text(text).text
        specials = set(self.special_tokens)
        allowed = specials if allowed_special == "all" else set(allowed_special) & specials
        disallowed = (specials - allowed) if disallowed_special == "all" else set(disallowed_special)
        if disallowed:
            m = _special_regex(disallowed).search(text)
            if m:
                raise SpecialTokenError(
                    f"text contains the special token {m.group()!r}; choose 'special' to encode "
                    "it as its special id or 'plain' to encode it as ordinary text"
                )
        out: list[int] = []
        if not allowed:
            self._encode_ordinary_into(text, out)
            return out
        sre = _special_regex(allowed)
        pos = 0
        for m in sre.finditer(text):
            self._encode_ordinary_into(text[pos : m.start()], out)
            out.append(self.special_tokens[m.group()])
            pos = m.end()
        self._encode_ordinary_into(text[pos:], out)
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
        """
        if policy == "plain":
            return self.encode_ordinary(text, cancel=cancel)
        if policy == "special":
            return self.encode(text, allowed_special="all", cancel=cancel)
        if policy == "raise":
            return self.encode(text, cancel=cancel)
        raise InputError(f"unknown special-token policy {policy!r}")

    def find_special(self, text: str) -> list[tuple[int, int, str]]:
        """Character spans ``(start, end, token)`` of special token spellings in ``text``."""
        if self._special_re is None:
            return []
        return [(m.start(), m.end(), m.group()) for m in self._special_re.finditer(text)]

    def chunks(self, text: str) -> list[str]:
        """The pre-tokenizer's chunks of ``text`` (list of str joining back to it)."""
        if not text:
            return []
        return [text] if self._splitter is None else self._splitter.findall(text)

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
        """
        v = self._vocab
        try:
            return b"".join([v[i] for i in ids])
        except KeyError:
            return b"".join([self.token_bytes(i) for i in ids])

    def decode(self, ids: Iterable[int], *, errors: str = "replace") -> str:
        """Decode ids to text with ``bytes.decode("utf-8", errors)``; no clean-up of spaces."""
        return self.decode_bytes(ids).decode("utf-8", errors)

    def is_special(self, token_id: int) -> bool:
        return token_id in self._special_by_id


class _ChunkCache(dict):
    """Chunk text -> its token ids (a list or tuple of int), filled on demand.

    It starts as the model's whole-token table (text of each token -> ``(id,)``).
    A lookup of a chunk it lacks (``__missing__``) encodes the chunk, keeps the
    result unless the chunk is longer than ``_CACHE_CHUNK_CHARS`` characters,
    and returns it, so that ``map(cache.__getitem__, chunks)`` runs in C for
    every chunk seen before. Past ``_CACHE_LIMIT`` learned chunks it starts over
    from the whole tokens. The cancel callback of the running encode is polled
    every 1,024 misses.

    Raises (from a lookup):
        Cancelled: the running encode's cancel callback returned True.
    """

    __slots__ = ("_base", "_encode_chunk", "_misses")

    def __init__(self, base: dict[str, tuple[int]], encode_chunk: Callable[[str], list[int]]) -> None:
        super().__init__(base)
        self._base = base
        self._encode_chunk = encode_chunk
        self._misses = 0

    def __missing__(self, chunk: str) -> list[int]:
        self._misses += 1
        if not self._misses & 0x3FF:
            cancel = getattr(_CANCEL, "fn", None)
            if cancel is not None and cancel():
                raise Cancelled("encoding cancelled")
        ids = self._encode_chunk(chunk)
        if len(chunk) <= _CACHE_CHUNK_CHARS:
            if len(self) - len(self._base) >= _CACHE_LIMIT:
                self.clear()
                self.update(self._base)
            self[chunk] = ids
        return ids


# ---------------------------------------------------------------------- merging
def _merge_parts(ranks: Mapping[bytes, int], data: bytes, max_rank: int | None = None) -> list[bytes]:
    """Split ``data`` into tokens by rank-based merging (tiktoken's algorithm).

    Args:
        ranks: token bytes -> rank.
        data: the bytes of one chunk (len >= 1).
        max_rank: only ranks strictly below this may merge (for merge recovery).

    Returns:
        list of token byte strings joining to ``data``.
    """
    n = len(data)
    if n <= 1:
        return [data]
    if n > _SHORT_CHUNK:
        return _merge_parts_heap(ranks, data, max_rank)
    # tiktoken's loop: keep the rank of every adjacent pair, merge the lowest
    # (leftmost on ties), then recompute only the two pairs next to the merge.
    inf = _INF if max_rank is None else max_rank
    get = ranks.get
    bounds = list(range(n + 1))
    pr = [get(data[i : i + 2], inf) for i in range(n - 1)]
    if max_rank is not None:
        pr = [r if r < inf else inf for r in pr]
    while pr:
        r = min(pr)
        if r >= inf:
            break
        i = pr.index(r)
        del bounds[i + 1]
        del pr[i]
        if i < len(pr):
            r2 = get(data[bounds[i] : bounds[i + 2]], inf)
            pr[i] = r2 if r2 < inf else inf
        if i > 0:
            r2 = get(data[bounds[i - 1] : bounds[i + 1]], inf)
            pr[i - 1] = r2 if r2 < inf else inf
    return [data[bounds[k] : bounds[k + 1]] for k in range(len(bounds) - 1)]


def _merge_ids(
    ranks: Mapping[bytes, int], data: bytes, byte_ids: Sequence[int], pair_ranks: Sequence[int]
) -> list[int]:
    """Token ids of ``data`` by rank-based merging (the loop of :func:`_merge_parts`).

    The ids are carried along the merges (a merged part's id is the rank that
    merged it), so no lookup of the final parts is needed.

    Args:
        ranks: token bytes -> rank (= id).
        data: the bytes of one chunk (len >= 1).
        byte_ids: id of each of the 256 single bytes.
        pair_ranks: 65,536 ranks, ``pair_ranks[a << 8 | b]`` the rank of the
            token ``bytes([a, b])`` or ``_INF`` (see :func:`_pair_rank_table`).

    Returns:
        list of token ids.
    """
    n = len(data)
    if n > _SHORT_CHUNK:
        return [ranks[p] for p in _merge_parts_heap(ranks, data, None)]
    ids = list(map(byte_ids.__getitem__, data))
    if n == 1:
        return ids
    inf = _INF
    get = ranks.get
    bounds = list(range(n + 1))
    pr = list(map(pair_ranks.__getitem__, map(or_, map(lshift, data, repeat(8)), data[1:])))
    while pr:
        r = min(pr)
        if r >= inf:
            break
        i = pr.index(r)
        ids[i] = r
        del ids[i + 1]
        del bounds[i + 1]
        del pr[i]
        if i < len(pr):
            pr[i] = get(data[bounds[i] : bounds[i + 2]], inf)
        if i > 0:
            pr[i - 1] = get(data[bounds[i - 1] : bounds[i + 1]], inf)
    return ids


def _pair_rank_table(ranks: Mapping[bytes, int]) -> list[int]:
    """Ranks of the two-byte tokens: a list of 65,536 ints, ``table[a << 8 | b]``
    the rank of ``bytes([a, b])``, ``_INF`` where that is no token."""
    table = [_INF] * 65536
    for tok, r in ranks.items():
        if len(tok) == 2:
            table[tok[0] << 8 | tok[1]] = r
    return table


def _cut_table(ranks: Mapping[bytes, int]) -> tuple[array, bytes]:
    """Table of the safe cut points of a vocabulary, by the bytes around them.

    A token lies across the point between bytes ``a`` and ``b`` of a text only
    if it holds ``a`` followed by ``b`` and then either ends or goes on with the
    text's next byte ``c``. So where no token does, no merge can ever join
    across the point.

    The flags of each pair ``(a, b)`` form a row of 256 (one per ``c``). Almost
    every row is all ones (no token holds ``a, b``) or all zeros (a token ends
    with ``a, b``), and cl100k_base has about 540 other distinct rows, so the
    rows are stored once each: the table is about 0.4 MB and stays in the
    processor's cache, where one flag per byte triple would take 16 MiB.

    Returns:
        ``(row_start, rows)``: ``rows[row_start[a << 8 | b] | c]`` is 1 when no
        token holds ``a, b, c`` in a row and no token ends with ``a, b``.
        ``row_start`` is an ``array('I')`` of 65,536 offsets (multiples of
        256), ``rows`` a bytes of 256 flags per distinct row.
    """
    joins: dict[int, bytearray] = {}  # pair -> flags of the third bytes that join
    ended: set[int] = set()  # pairs that end a token
    for tok in ranks:
        n = len(tok)
        if n < 2:
            continue
        for k in range(n - 2):
            pair = tok[k] << 8 | tok[k + 1]
            row = joins.get(pair)
            if row is None:
                row = joins[pair] = bytearray(256)
            row[tok[k + 2]] = 1
        ended.add(tok[n - 2] << 8 | tok[n - 1])
    all_cut, all_join = b"\x01" * 256, bytes(256)
    row_index = {all_cut: 0, all_join: 256}
    row_start = array("I", bytes(4 * 65536))
    for pair in range(65536):
        if pair in ended:
            row = all_join
        elif pair in joins:
            row = bytes(1 - f for f in joins[pair])
        else:
            row = all_cut
        start = row_index.get(row)
        if start is None:
            start = row_index[row] = 256 * len(row_index)
        row_start[pair] = start
    return row_start, b"".join(row_index)  # dicts keep insertion order: row k at 256 * k


class _SegmentCache(dict):
    """Segment bytes -> tuple of token ids, filled on demand (``__missing__``
    merges the segment); segments longer than ``4 * _CACHE_CHUNK_CHARS`` bytes
    are not kept, and it is cleared when it holds ``_CACHE_LIMIT`` segments."""

    __slots__ = ("_ranks", "_byte_ranks", "_pair_ranks")

    def __init__(self, ranks: Mapping[bytes, int], byte_ranks: Sequence[int], pair_ranks: Sequence[int]) -> None:
        super().__init__()
        self._ranks = ranks
        self._byte_ranks = byte_ranks
        self._pair_ranks = pair_ranks

    def __missing__(self, seg: bytes) -> tuple[int, ...]:
        r = self._ranks.get(seg)
        ids = (r,) if r is not None else tuple(_merge_ids(self._ranks, seg, self._byte_ranks, self._pair_ranks))
        if len(seg) <= 4 * _CACHE_CHUNK_CHARS:  # (UTF-8 takes at most 4 bytes a character)
            if len(self) >= _CACHE_LIMIT:
                self.clear()
            self[seg] = ids
        return ids


def _merge_parts_heap(ranks: Mapping[bytes, int], data: bytes, max_rank: int | None) -> list[bytes]:
    """O(n log n) rank merging over a doubly linked list of parts with a heap.

    A heap entry ``(rank, start, right_start, right_end)`` is valid while the part
    at ``start`` still ends at ``right_start`` and the part at ``right_start``
    still ends at ``right_end``. Equal ranks pop leftmost first, as in tiktoken.
    """
    n = len(data)
    end = list(range(1, n + 1))  # end[i]: end of the part starting at i (if alive)
    prev = list(range(-1, n - 1))
    alive = [True] * n
    get = ranks.get
    heap: list[tuple[int, int, int, int]] = []
    limit = max_rank if max_rank is not None else None
    for i in range(n - 1):
        r = get(data[i : i + 2])
        if r is not None and (limit is None or r < limit):
            heap.append((r, i, i + 1, i + 2))
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    cancel = getattr(_CANCEL, "fn", None)
    steps = 0
    while heap:
        steps += 1
        if cancel is not None and not steps & 0xFFFF and cancel():
            raise Cancelled("encoding cancelled")
        r, s, rs, re_ = pop(heap)
        if not alive[s] or end[s] != rs or not alive[rs] or end[rs] != re_:
            continue
        # merge the part at s with the part at rs
        alive[rs] = False
        end[s] = re_
        if re_ < n:
            prev[re_] = s
            r2 = get(data[s : end[re_]])
            if r2 is not None and (limit is None or r2 < limit):
                push(heap, (r2, s, re_, end[re_]))
        p = prev[s]
        if p >= 0:
            r2 = get(data[p:re_])
            if r2 is not None and (limit is None or r2 < limit):
                push(heap, (r2, p, s, re_))
    out = []
    i = 0
    while i < n:
        out.append(data[i : end[i]])
        i = end[i]
    return out


# --------------------------------------------------------------------- training
def train_bpe_iter(
    texts: str | Iterable[str],
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    name: str = "custom BPE",
    cancel: Callable[[], bool] | None = None,
    word_counts: Mapping[str | bytes, int] | None = None,
    files: Sequence[str | os.PathLike] | None = None,
    encoding: str = "utf-8",
    workers: int | None = None,
    encoding_errors: str = "strict",
) -> Generator[Progress, None, tuple[BPE, TrainReport]]:
    """Train a byte-level BPE, yielding progress; the generator returns the model.

    Args:
        texts: one str or an iterable of str; ignored when ``word_counts`` is given.
        vocab_size: target number of ids (256 + merges + ``len(special_tokens)``).
        pattern: pre-tokenizer name (see :data:`tokexplorer.core.text.pretokenize.PATTERNS`).
        special_tokens: special token texts; they get the ids after the merged
            tokens and are cut out of the training text.
        name: display name of the model.
        cancel: called between steps; returning True stops training.
        word_counts: an already counted chunk table (chunk str or bytes -> count).
        files: text files to train on instead of ``texts``; they are read in
            ranges by worker processes and never held whole in memory
            (:func:`tokexplorer.core.bpe.counting.count_files`).
        encoding: the files' encoding.
        encoding_errors: decode error handler for ``files`` (``"replace"``:
            undecodable bytes become U+FFFD instead of raising CorpusError).
        workers: processes for pre-tokenizing and counting large inputs
            (default: every core; 1 = this process only).

    Yields:
        :class:`Progress` with phases ``"pre-tokenizing"``, ``"counting"`` and
        ``"merging"`` (merges done of merges requested).

    Returns:
        ``(BPE, TrainReport)``; training stops early when no pair is left and
        says so in ``TrainReport.messages``.

    Raises:
        InputError: bad ``vocab_size``, pattern or special tokens.
        TrainingError: nothing to train on (empty text).
        Cancelled: ``cancel()`` returned True.
    """
    t0 = time.perf_counter()
    specials = list(dict.fromkeys(special_tokens))
    if any(not s for s in specials):
        raise InputError("a special token cannot be empty")
    validate_vocab_size(vocab_size, len(specials))
    pattern_string(pattern)  # validates the name
    n_requested = vocab_size - N_BYTES - len(specials)
    messages: list[str] = []

    if word_counts is None and files is not None:
        counts, n_special_seen = yield from count_files(
            files, pattern=pattern, special_tokens=specials, encoding=encoding,
            cancel=cancel, workers=workers, errors=encoding_errors,
        )
    elif word_counts is None:
        counts, n_special_seen = yield from count_texts(
            texts, pattern=pattern, special_tokens=specials, cancel=cancel, workers=workers
        )
    if word_counts is None:
        if n_special_seen:
            messages.append(
                f"{n_special_seen} special-token spellings were cut out of the training text"
            )
    else:
        counts = dict(word_counts)
    yield Progress("counting", 0, len(counts))

    box = [counts]  # handed over, so the chunk table is freed once the words are built
    del counts
    with _gc_paused():
        return (yield from _merge_loop(box, specials, n_requested, pattern, name, cancel, messages, t0))


_CANCEL = threading.local()  # .fn: the cancel callback of the encode running on this thread


@contextmanager
def _cancel_scope(cancel: Callable[[], bool] | None):
    """Make ``cancel`` visible to the merge loops of this thread during an encode."""
    prev = getattr(_CANCEL, "fn", None)
    _CANCEL.fn = cancel if cancel is not None else prev
    try:
        yield
    finally:
        _CANCEL.fn = prev


_GC_LOCK = threading.Lock()
_GC_USERS = 0


@contextmanager
def _gc_paused():
    """Pause Python's cyclic garbage collector while training.

    Training builds millions of small lists and tuples but no reference
    cycles; a full collection over them takes hundreds of milliseconds with
    the GIL held, which would freeze the GUI thread and slow training.
    Reference counting still frees everything. Nested or concurrent users
    share one pause.
    """
    global _GC_USERS
    with _GC_LOCK:
        if _GC_USERS == 0:
            _gc_paused.was_enabled = gc.isenabled()
            gc.disable()
        _GC_USERS += 1
    try:
        yield
    finally:
        with _GC_LOCK:
            _GC_USERS -= 1
            if _GC_USERS == 0 and _gc_paused.was_enabled:
                gc.enable()


_gc_paused.was_enabled = True


def _merge_loop(box, specials, n_requested, pattern, name, cancel, messages, t0):
    """The merge phase of :func:`train_bpe_iter` (a generator with the same return)."""
    counts = box.pop()
    n_chunks = len(counts)
    # Word table: every word's symbols side by side in one int32 array
    # (``flat[start[w] : start[w] + size[w]]``). Merges only shorten words, so
    # each word is rewritten in place: no object per word, nothing to fragment
    # the heap as words shrink. Chunks of one byte hold no pair and are dropped.
    # The chunk table is emptied as it is read so its strings are freed on the way.
    flat = array("i")
    start = array("q")
    size = array("i")
    freqs: list[int] = []
    had_text = bool(counts)
    popitem = counts.popitem
    # A pair of ids (a, b) is the int key a << 21 | b (ids < 2**21): cheaper to
    # hash and to store than a tuple.
    pair_counts: dict[int, int] = {}
    # pair -> indices of the words that held it when it was added: one int, or
    # a compact int32 array once there are two (a set costs ten times that).
    # An index may repeat or go stale; a visit to a word that no longer holds
    # the pair changes nothing. A pair whose count drops to zero loses its entry.
    where: dict[int, int | array] = {}
    wi = 0
    pc_get = pair_counts.get
    w_get = where.get
    while counts:
        chunk, c = popitem()
        w = chunk.encode("utf-8") if chunk.__class__ is str else bytes(chunk)
        n = len(w)
        if n < 2 or c <= 0:
            continue
        start.append(len(flat))
        size.append(n)
        flat.extend(w)
        freqs.append(c)
        prev = w[0] << _SHIFT
        for x in w[1:]:
            p = prev | x
            prev = x << _SHIFT
            pair_counts[p] = pc_get(p, 0) + c
            s = w_get(p)
            if s is None:
                where[p] = wi
            elif s.__class__ is int:
                if s != wi:
                    where[p] = array("i", (s, wi))
            elif s[-1] != wi:
                s.append(wi)
        if cancel is not None and wi % 20000 == 0 and cancel():
            raise Cancelled("training cancelled")
        wi += 1
    del counts, box
    if not had_text:
        raise TrainingError("nothing to train on: the text is empty")
    words = (flat, start, size)

    vocab: list[bytes] = [bytes([i]) for i in range(N_BYTES)]
    id_of: dict[bytes, int] = {b: i for i, b in enumerate(vocab)}
    yield Progress("counting", n_chunks, n_chunks)

    # The heap holds the pairs counted at least ``floor`` times (the others
    # cannot be the best while a pair above the floor exists); when none is
    # left above it the floor drops to 1 and the heap is rebuilt. Pairs seen
    # once are most of all pairs in a large corpus, and rarely merged.
    floor = 2
    heap: list = []
    _rebuild_heap(heap, pair_counts, vocab, floor)
    heap_limit = 2 * len(heap) + 100_000
    merges: list[MergeRecord] = []
    n_new_tokens = 0
    last_yield = time.perf_counter()
    yield Progress("merging", 0, n_requested, detail=merges)
    while n_new_tokens < n_requested:
        # pop the best valid pair
        best = None
        while True:
            while heap:
                negc, _, _, p = heapq.heappop(heap)
                cur = pair_counts.get(p, 0)
                if cur == -negc and cur > 0:
                    best = p
                    break
                if floor <= cur < -negc:
                    heapq.heappush(heap, (-cur, vocab[p >> _SHIFT], vocab[p & _MASK], p))
            if best is not None or floor <= 1:
                break
            floor = 1
            _rebuild_heap(heap, pair_counts, vocab, 1)
            heap_limit = 2 * len(heap) + 100_000
        if best is None:
            break
        a, b, cnt = best >> _SHIFT, best & _MASK, pair_counts[best]
        merged = vocab[a] + vocab[b]
        new_id = id_of.get(merged)
        if new_id is None:
            new_id = len(vocab)
            vocab.append(merged)
            id_of[merged] = new_id
            n_new_tokens += 1
        merges.append(MergeRecord(len(merges), a, b, new_id, merged, cnt))
        _apply_merge(a, b, new_id, words, freqs, pair_counts, where, heap, vocab, floor)
        if len(heap) > heap_limit:
            # Lazy deletion leaves stale entries behind; rebuild from the live counts.
            _rebuild_heap(heap, pair_counts, vocab, floor)
            heap_limit = 2 * len(heap) + 100_000
        if cancel is not None and cancel():
            raise Cancelled("training cancelled")
        now = time.perf_counter()
        if now - last_yield > 0.05:
            last_yield = now
            yield Progress("merging", n_new_tokens, n_requested, detail=merges)
    yield Progress("merging", n_new_tokens, n_requested, detail=merges)
    # Free the training tables in slices: dropping millions of objects in one
    # go holds the GIL long enough to freeze a GUI thread.
    del heap[:]
    del words, flat, start, size
    while freqs:
        del freqs[-50_000:]
    for d in (where, pair_counts):
        if len(d) <= 200_000:  # small enough to free in one go (a few ms)
            d.clear()
        while d:
            for _ in range(min(len(d), 20_000)):
                d.popitem()
    yield Progress("merging", n_new_tokens, n_requested, detail=merges)

    special_map = {s: len(vocab) + i for i, s in enumerate(specials)}
    bpe = BPE(merges, pattern=pattern, special_tokens=special_map, name=name)
    if n_new_tokens < n_requested:
        messages.insert(
            0,
            f"learned {n_new_tokens} of {n_requested} requested merges; "
            f"vocab {bpe.vocab_size}: no pair of tokens is left to merge",
        )
    else:
        messages.insert(0, f"learned {n_new_tokens} of {n_requested} merges; vocab {bpe.vocab_size}")
    if len(merges) > n_new_tokens:
        messages.append(
            f"{len(merges) - n_new_tokens} merges produced bytes that were already a token "
            "(the existing id was reused)"
        )
    report = TrainReport(
        requested_merges=n_requested,
        learned_merges=n_new_tokens,
        vocab_size=bpe.vocab_size,
        seconds=time.perf_counter() - t0,
        messages=messages,
    )
    return bpe, report


def _rebuild_heap(heap: list, pair_counts: dict[int, int], vocab: list[bytes], floor: int) -> None:
    """Refill ``heap`` in place with one entry per pair counted ``floor`` times
    or more: ``(-count, left bytes, right bytes, pair key)``, so the most
    frequent pair pops first and ties go to the smaller bytes (v0's tie-break).
    The old entries are dropped first, so two heaps never coexist in memory."""
    heap.clear()
    heap.extend(
        [(-c, vocab[p >> _SHIFT], vocab[p & _MASK], p) for p, c in pair_counts.items() if c >= floor]
    )
    heapq.heapify(heap)


def _apply_merge(a, b, t, words, freqs, pair_counts, where, heap, vocab, floor=1) -> None:
    """Replace every (a, b) in the words holding it by t, updating pair counts
    only next to the merge sites.

    ``words`` is ``(flat, start, size)`` (see :func:`_merge_loop`); each word is
    rewritten in place (a merge writes t and moves the rest of the word one
    slot left). Occurrences are found with ``array.index`` (C speed)
    and merged left to right without overlap, as the textbook loop does. Pairs
    are int keys ``left << 21 | right``.
    """
    flat, start, size = words
    index = flat.index
    pair = a << _SHIFT | b
    wis = where.pop(pair, ())
    if wis.__class__ is int:
        wis = (wis,)
    changed: dict[int, int] = {}
    get = changed.get
    t_hi = t << _SHIFT
    b_hi = b << _SHIFT
    for wi in wis:
        o = start[wi]
        n = size[wi]
        if n == 2:  # the most common case: the whole word becomes one token
            if flat[o] == a and flat[o + 1] == b:
                flat[o] = t
                size[wi] = 1
            continue
        e = o + n
        # How many a's the word holds tells when to stop looking (list.index
        # raising ValueError at the end would cost more than the rest).
        left_a = flat[o:e].count(a)
        if not left_a:
            continue  # a stale entry: the word no longer holds a
        i = index(a, o, e)
        used = 2 if a == b else 1  # a's one merge consumes
        c = freqs[wi]
        while True:
            if i + 1 < e and flat[i + 1] == b:
                # merge in place: t at i, the rest of the word moves one left
                flat[i] = t
                if i + 2 < e:
                    flat[i + 1 : e - 1] = flat[i + 2 : e]
                e -= 1
                left_a -= used
                if i > o:
                    left = flat[i - 1] << _SHIFT
                    p = left | a
                    changed[p] = get(p, 0) - c
                    p = left | t
                    changed[p] = get(p, 0) + c
                    s_ = where.get(p)
                    if s_ is None:
                        where[p] = wi
                    elif s_.__class__ is int:
                        if s_ != wi:
                            where[p] = array("i", (s_, wi))
                    elif s_[-1] != wi:
                        s_.append(wi)
                if i + 1 < e:
                    right = flat[i + 1]
                    p = b_hi | right
                    changed[p] = get(p, 0) - c
                    p = t_hi | right
                    changed[p] = get(p, 0) + c
                    s_ = where.get(p)
                    if s_ is None:
                        where[p] = wi
                    elif s_.__class__ is int:
                        if s_ != wi:
                            where[p] = array("i", (s_, wi))
                    elif s_[-1] != wi:
                        s_.append(wi)
                else:
                    break
            else:
                left_a -= 1
            if left_a <= 0:
                break
            i = index(a, i + 1, e)
        size[wi] = e - o
    pair_counts.pop(pair, None)
    push = heapq.heappush
    for p, d in changed.items():
        if p == pair or d == 0:
            continue
        v = pair_counts.get(p, 0) + d
        if v <= 0:
            pair_counts.pop(p, None)
            where.pop(p, None)
        else:
            pair_counts[p] = v
            if d > 0 and v >= floor:
                push(heap, (-v, vocab[p >> _SHIFT], vocab[p & _MASK], p))


def train_bpe(
    texts: str | Iterable[str],
    *,
    vocab_size: int,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    name: str = "custom BPE",
    cancel: Callable[[], bool] | None = None,
    word_counts: Mapping[str | bytes, int] | None = None,
    files: Sequence[str | os.PathLike] | None = None,
    encoding: str = "utf-8",
    workers: int | None = None,
    encoding_errors: str = "strict",
) -> tuple[BPE, TrainReport]:
    """Train a byte-level BPE to the end; see :func:`train_bpe_iter` for arguments.

    Returns:
        ``(BPE, TrainReport)``.
    """
    return run(
        train_bpe_iter(
            texts,
            vocab_size=vocab_size,
            pattern=pattern,
            special_tokens=special_tokens,
            name=name,
            cancel=cancel,
            word_counts=word_counts,
            files=files,
            encoding=encoding,
            workers=workers,
            encoding_errors=encoding_errors,
        )
    )
