"""Step-by-step replays of BPE encoding and BPE training, for teaching and debugging.

* :func:`replay_encode` re-runs the rank-based merge loop of our encoder
  (tiktoken's algorithm, as in :func:`tokexplorer.core.bpe.model._merge_parts`) on the
  bytes of one chunk and records every step: the current pieces, every adjacent
  pair that is a token with its rank (the candidates), and the pair merged.
  It is a separate, instrumented loop: the encoder itself is not slowed down.
* :func:`replay_training` re-runs BPE training on a small text (the classic
  "the cat in the hat" walk-through): at each step the table of pair counts,
  the pair chosen and the text re-segmented after the merge. Its choices follow
  :func:`tokexplorer.core.bpe.trainer.train_bpe_iter` (highest count; ties broken by the
  smaller left bytes, then the smaller right bytes).

Both return plain frozen dataclasses holding bytes; rendering happens in the GUI.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tokexplorer.core.errors import Cancelled, InputError
from tokexplorer.core.text import compile_splitter, pattern_string

__all__ = [
    "EncodeStep",
    "TrainStep",
    "replay_encode",
    "merge_sites",
    "replay_training",
    "MAX_REPLAY_CHUNK_BYTES",
    "MAX_TRAIN_REPLAY_CHARS",
]

#: Longest chunk :func:`replay_encode` accepts, in bytes (each step copies the pieces).
MAX_REPLAY_CHUNK_BYTES = 4096
#: Longest text :func:`replay_training` accepts, in characters (it recounts every pair each step).
MAX_TRAIN_REPLAY_CHARS = 20_000


@dataclass(frozen=True, slots=True)
class EncodeStep:
    """One step of :func:`replay_encode`.

    Attributes:
        pieces: the chunk's pieces (token bytes) before this step's merge.
        candidates: ``(i, rank)`` for every adjacent pair ``pieces[i] + pieces[i+1]``
            that is a token, in position order; ``rank`` is its mergeable rank
            (lower merges first).
        chosen: index ``i`` of the pair merged at this step (the lowest rank,
            leftmost on ties), or None on the last step (nothing left to merge).
    """

    pieces: tuple[bytes, ...]
    candidates: tuple[tuple[int, int], ...]
    chosen: int | None

    @property
    def chosen_rank(self) -> int | None:
        """Rank of the pair merged at this step (None on the last step)."""
        if self.chosen is None:
            return None
        return dict(self.candidates)[self.chosen]

    @property
    def merged(self) -> bytes | None:
        """Bytes of the token made at this step (None on the last step)."""
        if self.chosen is None:
            return None
        return self.pieces[self.chosen] + self.pieces[self.chosen + 1]


def replay_encode(ranks: Mapping[bytes, int], data: bytes) -> list[EncodeStep]:
    """Replay rank-based BPE encoding of one chunk, merge by merge.

    The first step shows the single bytes; each step merges the candidate pair
    with the lowest rank (the leftmost one on ties), exactly as the encoder
    does; the last step (``chosen is None``) shows the final pieces, which are
    the tokens ``BPE.encode_ordinary`` gives for this chunk.

    Args:
        ranks: token bytes -> mergeable rank (``BPE.mergeable_ranks``).
        data: the UTF-8 bytes of one chunk (at most :data:`MAX_REPLAY_CHUNK_BYTES`).

    Returns:
        list of :class:`EncodeStep`, one per merge plus the final one.

    Raises:
        InputError: ``data`` is longer than :data:`MAX_REPLAY_CHUNK_BYTES`.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256, b"abc": 257}
    >>> [s.pieces for s in replay_encode(ranks, b"abc")]
    [(b'a', b'b', b'c'), (b'ab', b'c'), (b'abc',)]
    """
    if len(data) > MAX_REPLAY_CHUNK_BYTES:
        raise InputError(
            f"chunk of {len(data):,} bytes is too long to replay "
            f"(at most {MAX_REPLAY_CHUNK_BYTES:,} bytes)"
        )
    pieces = [data[i : i + 1] for i in range(len(data))]
    steps: list[EncodeStep] = []
    get = ranks.get
    while True:
        cands = []
        best_i, best_r = -1, -1
        for i in range(len(pieces) - 1):
            r = get(pieces[i] + pieces[i + 1])
            if r is not None:
                cands.append((i, r))
                if best_i < 0 or r < best_r:
                    best_i, best_r = i, r
        if best_i < 0:
            steps.append(EncodeStep(tuple(pieces), tuple(cands), None))
            return steps
        steps.append(EncodeStep(tuple(pieces), tuple(cands), best_i))
        pieces[best_i : best_i + 2] = [pieces[best_i] + pieces[best_i + 1]]


def merge_sites(ranks: Mapping[bytes, int], data: bytes) -> list[tuple[int, int, int]]:
    """The merges that fire when one chunk is encoded, in the order they fire.

    Same loop as :func:`replay_encode` without recording the candidates.

    Args:
        ranks: token bytes -> mergeable rank.
        data: the bytes of one chunk (any length; the loop is O(n²) in the
            number of bytes, fine for pre-tokenized chunks).

    Returns:
        ``(start, mid, end)`` byte offsets in ``data`` for each merge: the left
        piece was ``data[start:mid]``, the right piece ``data[mid:end]``.

    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ab": 256}
    >>> merge_sites(ranks, b"abab")
    [(0, 1, 2), (2, 3, 4)]
    """
    bounds = list(range(len(data) + 1))
    get = ranks.get
    out: list[tuple[int, int, int]] = []
    pr = [get(data[i : i + 2]) for i in range(len(data) - 1)]
    while True:
        best_i, best_r = -1, -1
        for i, r in enumerate(pr):
            if r is not None and (best_i < 0 or r < best_r):
                best_i, best_r = i, r
        if best_i < 0:
            return out
        i = best_i
        out.append((bounds[i], bounds[i + 1], bounds[i + 2]))
        del bounds[i + 1]
        del pr[i]
        if i < len(pr):
            pr[i] = get(data[bounds[i] : bounds[i + 2]])
        if i > 0:
            pr[i - 1] = get(data[bounds[i - 1] : bounds[i + 1]])


@dataclass(frozen=True, slots=True)
class TrainStep:
    """One merge of :func:`replay_training`.

    Attributes:
        rank: the rank of the merge learned at this step (0, 1, ...).
        pair_counts: ``(left, right, count)`` for every adjacent pair of tokens in
            the text before this merge, most frequent first (ties in the order the
            trainer breaks them: smaller left bytes, then smaller right bytes).
        chosen: the pair merged, ``(left, right, count)`` (the first row of
            ``pair_counts``).
        before: the text's chunks, each as its pieces, before the merge.
        after: the same chunks after the merge.
    """

    rank: int
    pair_counts: tuple[tuple[bytes, bytes, int], ...]
    chosen: tuple[bytes, bytes, int]
    before: tuple[tuple[bytes, ...], ...]
    after: tuple[tuple[bytes, ...], ...]

    @property
    def merged(self) -> bytes:
        """Bytes of the token learned at this step."""
        return self.chosen[0] + self.chosen[1]


def _merge_word(word: tuple[bytes, ...], a: bytes, b: bytes) -> tuple[bytes, ...]:
    out: list[bytes] = []
    i, n = 0, len(word)
    while i < n:
        if i < n - 1 and word[i] == a and word[i + 1] == b:
            out.append(a + b)
            i += 2
        else:
            out.append(word[i])
            i += 1
    return tuple(out)


def replay_training(
    text: str,
    *,
    n_merges: int,
    pattern: str = "gpt2",
    cancel: Callable[[], bool] | None = None,
) -> list[TrainStep]:
    """Replay byte-level BPE training on a small text, one merge per step.

    Pairs are counted over the pre-tokenizer's chunks (never across two
    chunks), counting each chunk once per occurrence, and overlapping pairs
    (``a a a``) count twice, as in :func:`tokexplorer.core.bpe.trainer.train_bpe_iter`;
    the merges chosen are the ones that trainer learns on the same text.

    Args:
        text: the training text (at most :data:`MAX_TRAIN_REPLAY_CHARS` characters).
        n_merges: how many merges to learn (stops early when no pair is left).
        pattern: pre-tokenizer name (``"gpt2"``, ``"cl100k"``, ``"o200k"``, ``"none"``).
        cancel: called between steps; returning True stops with :class:`Cancelled`.

    Returns:
        list of :class:`TrainStep`, one per merge learned.

    Raises:
        InputError: the text is too long, ``n_merges`` is negative, or the
            pattern name is unknown.
        Cancelled: ``cancel()`` returned True.

    >>> [s.merged for s in replay_training("aaab", n_merges=2, pattern="none")]
    [b'aa', b'ab']
    """
    if len(text) > MAX_TRAIN_REPLAY_CHARS:
        raise InputError(
            f"text of {len(text):,} characters is too long for the training replay "
            f"(at most {MAX_TRAIN_REPLAY_CHARS:,})"
        )
    if n_merges < 0:
        raise InputError("the number of merges cannot be negative")
    pat_str = pattern_string(pattern)
    chunks = [text] if pat_str is None or not text else compile_splitter(pat_str).findall(text)
    words = [tuple(bytes([b]) for b in c.encode("utf-8")) for c in chunks if c]
    steps: list[TrainStep] = []
    for rank in range(n_merges):
        if cancel is not None and cancel():
            raise Cancelled("training replay cancelled")
        counts: dict[tuple[bytes, bytes], int] = {}
        for w in words:
            for p in zip(w, w[1:]):
                counts[p] = counts.get(p, 0) + 1
        if not counts:
            break
        table = sorted(((a, b, c) for (a, b), c in counts.items()), key=lambda t: (-t[2], t[0], t[1]))
        a, b, _ = table[0]
        new_words = [_merge_word(w, a, b) for w in words]
        steps.append(TrainStep(rank, tuple(table), table[0], tuple(words), tuple(new_words)))
        words = new_words
    return steps
