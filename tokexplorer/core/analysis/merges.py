"""Questions asked of a BPE's merge list: how was a token built, where does a merge
fire, which script is a token in, how do two merge lists differ.

* :class:`MergeIndex` indexes a merge list once (token id -> the merge that
  made it, pair of token bytes -> rank) and answers :meth:`MergeIndex.tree`:
  the merge tree of a token down to its bytes.
* :func:`fire_index` encodes a text and records every merge that fires in
  every chunk (:class:`FireIndex`): per-merge firing counts and, for one
  merge, the byte spans where it fires and the chunks it occurs in.
* :func:`token_script` and :func:`is_partial_utf8` classify a token's bytes
  for the merge table's filters.
* :func:`merge_diff` compares two merge lists (merges only in one, merges in
  both with their ranks, the first rank where they diverge).
* :func:`load_bpe_spec` loads any BPE-like SPEC (our models and tiktoken ranks)
  as our :class:`~tokexplorer.core.bpe.model.BPE`, for ``tokexplorer merges``.

Merges are compared by their parts' *bytes*, never by ids: two models number
their tokens differently (in cl100k the single bytes are not ids 0–255).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import regex

from tokexplorer.core.backends import bpe_from_tiktoken
from tokexplorer.core.bpe import BPE, merge_sites
from tokexplorer.core.errors import Cancelled, InputError
from tokexplorer.core.types import MergeRecord

__all__ = [
    "MergeNode",
    "MergeIndex",
    "FireIndex",
    "FireSites",
    "fire_index",
    "SCRIPTS",
    "token_script",
    "is_partial_utf8",
    "MergeDiff",
    "merge_diff",
    "load_bpe_spec",
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

    def producer(self, token_id: int) -> MergeRecord | None:
        """The (lowest-rank) merge that makes ``token_id``, or None for a byte."""
        return self._by_new_id.get(token_id)

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
    order are numbered 0, 1, 2, ... (the same numbering the recovery gives),
    without recovering anything.

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


# ----------------------------------------------------------------- firing
@dataclass(frozen=True, slots=True)
class FireSites:
    """Where one merge fires in a text.

    Attributes:
        rank: the merge's rank.
        spans: half-open byte spans ``(start, end)`` in the UTF-8 text of each
            token the merge made, in text order.
        chunks: ``(chunk, count)``: the chunks it fires in and how often in
            total, most frequent first (ties: first seen first).
    """

    rank: int
    spans: tuple[tuple[int, int], ...]
    chunks: tuple[tuple[str, int], ...]

    @property
    def count(self) -> int:
        """How often the merge fires in the text (= ``len(spans)``)."""
        return len(self.spans)


@dataclass(slots=True)
class FireIndex:
    """Every merge that fires when a text is encoded.

    Attributes:
        counts: per merge rank, how often it fires (list of int, ``len ==
            number of merges``).
        chunks: the unique chunks of the text, in first-seen order.
        chunk_starts: per occurrence ``(chunk index, byte offset in the text)``.
        sites: per unique chunk, ``(rank, start, end)`` byte spans inside the
            chunk of each merge that fires there.
        unmatched: merges that fired but match no merge record (pieces joined
            to a token no record names with those parts; 0 for consistent models).
    """

    counts: list[int]
    chunks: list[str]
    chunk_starts: list[tuple[int, int]]
    sites: list[list[tuple[int, int, int]]]
    unmatched: int = 0
    _by_rank: dict[int, list[int]] = field(default_factory=dict)

    def where(self, rank: int) -> FireSites:
        """Where the merge of ``rank`` fires: byte spans and chunks with counts."""
        if not self._by_rank:
            for ci, s in enumerate(self.sites):
                for r, _, _ in s:
                    lst = self._by_rank.setdefault(r, [])
                    if not lst or lst[-1] != ci:
                        lst.append(ci)
        wanted = set(self._by_rank.get(rank, ()))
        spans: list[tuple[int, int]] = []
        per_chunk: dict[int, int] = {}
        for ci, off in self.chunk_starts:
            if ci not in wanted:
                continue
            for r, s, e in self.sites[ci]:
                if r == rank:
                    spans.append((off + s, off + e))
                    per_chunk[ci] = per_chunk.get(ci, 0) + 1
        order = sorted(per_chunk, key=lambda ci: (-per_chunk[ci], ci))
        return FireSites(rank, tuple(spans), tuple((self.chunks[ci], per_chunk[ci]) for ci in order))


def fire_index(
    bpe: object,
    text: str,
    *,
    index: MergeIndex | None = None,
    cancel: Callable[[], bool] | None = None,
) -> FireIndex:
    """Encode ``text`` (special tokens as plain text) and record every merge that fires.

    Args:
        bpe: a :class:`~tokexplorer.core.bpe.model.BPE` (uses ``chunks``,
            ``mergeable_ranks``, ``merges``, ``vocab``).
        text: the text (for the GUI: the compare pane's sample text).
        index: a prepared :class:`MergeIndex` of the same model (built when None).
        cancel: checked every 256 unique chunks; True raises :class:`Cancelled`.

    Returns:
        a :class:`FireIndex`.

    >>> from tokexplorer.core.bpe import train_bpe
    >>> bpe, _ = train_bpe("abab abab", vocab_size=258, pattern="none")
    >>> fire_index(bpe, "abab").counts
    [2, 1]
    """
    idx = index if index is not None else MergeIndex(bpe.merges, bpe.vocab)  # type: ignore[attr-defined]
    ranks = bpe.mergeable_ranks  # type: ignore[attr-defined]
    counts = [0] * len(idx)
    chunks: list[str] = []
    seen: dict[str, int] = {}
    starts: list[tuple[int, int]] = []
    sites: list[list[tuple[int, int, int]]] = []
    unmatched = 0
    off = 0
    for chunk in bpe.chunks(text):  # type: ignore[attr-defined]
        ci = seen.get(chunk)
        data = chunk.encode("utf-8")
        if ci is None:
            ci = seen[chunk] = len(chunks)
            chunks.append(chunk)
            s_list: list[tuple[int, int, int]] = []
            for s, m, e in merge_sites(ranks, data):
                r = idx.rank_of_pair(data[s:m], data[m:e])
                if r is None:
                    unmatched += 1
                    continue
                s_list.append((r, s, e))
            sites.append(s_list)
            if cancel is not None and ci % 256 == 0 and cancel():
                raise Cancelled("cancelled")
        for r, _, _ in sites[ci]:
            counts[r] += 1
        starts.append((ci, off))
        off += len(data)
    return FireIndex(counts, chunks, starts, sites, unmatched)


# ----------------------------------------------------------------- scripts
#: The script classes of :func:`token_script`, in the order the filter lists them.
SCRIPTS: tuple[str, ...] = (
    "Latin", "Han", "Kana", "Hangul", "Cyrillic", "Greek", "Arabic", "Hebrew",
    "Devanagari", "Thai", "Other letters", "Emoji", "Digits", "Punctuation",
    "Whitespace", "Other", "Bytes only",
)  # fmt: skip

_LETTER_SCRIPTS = (
    ("Latin", r"\p{Latin}"),
    ("Han", r"\p{Han}"),
    ("Kana", r"[\p{Hiragana}\p{Katakana}]"),
    ("Hangul", r"\p{Hangul}"),
    ("Cyrillic", r"\p{Cyrillic}"),
    ("Greek", r"\p{Greek}"),
    ("Arabic", r"\p{Arabic}"),
    ("Hebrew", r"\p{Hebrew}"),
    ("Devanagari", r"\p{Devanagari}"),
    ("Thai", r"\p{Thai}"),
    ("Other letters", r"\p{L}"),
)
_SCRIPT_RE = regex.compile(
    "|".join(f"(?P<g{i}>{pat})" for i, (_, pat) in enumerate(_LETTER_SCRIPTS))
    + r"|(?P<emoji>\p{Extended_Pictographic}|\p{Regional_Indicator})"
    + r"|(?P<digit>\p{N})|(?P<punct>[\p{P}\p{S}])|(?P<space>\s)"
)
_GROUP_NAME = {f"g{i}": name for i, (name, _) in enumerate(_LETTER_SCRIPTS)} | {
    "emoji": "Emoji",
    "digit": "Digits",
    "punct": "Punctuation",
    "space": "Whitespace",
}
_CLASS_ORDER = {name: i for i, name in enumerate(SCRIPTS)}


def _whole_chars(data: bytes) -> str:
    """The characters of ``data`` that are whole UTF-8 characters (partial bytes dropped)."""
    return data.decode("utf-8", "ignore")


def is_partial_utf8(data: bytes) -> bool:
    """True when ``data`` is not valid UTF-8 on its own (it holds part of a character).

    >>> is_partial_utf8("你".encode()[:2]), is_partial_utf8("你".encode())
    (True, False)
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def token_script(data: bytes) -> str:
    """The script class of a token (one of :data:`SCRIPTS`) for the merge table's filter.

    The first class found wins in this order: a letter's script (Latin, Han,
    Kana, ...), emoji, digits, punctuation and symbols, whitespace, other
    characters. A token with no whole character (``E4 BD``) is ``"Bytes only"``.
    Partial bytes around whole characters are ignored (``" 你\\xE5"`` is Han).

    >>> token_script(b" the"), token_script("你好".encode()), token_script(b"\\xe4\\xbd")
    ('Latin', 'Han', 'Bytes only')
    >>> token_script("👍".encode()), token_script(b"  "), token_script(b"42")
    ('Emoji', 'Whitespace', 'Digits')
    """
    text = _whole_chars(data)
    if not text:
        return "Bytes only"
    best = None
    for m in _SCRIPT_RE.finditer(text):
        name = _GROUP_NAME[m.lastgroup or ""]
        if best is None or _CLASS_ORDER[name] < _CLASS_ORDER[best]:
            best = name
            if _CLASS_ORDER[name] <= _CLASS_ORDER["Other letters"]:
                break
    if best is None:
        cat = unicodedata.category(text[0])
        best = "Whitespace" if cat.startswith("Z") else "Other"
    return best


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
def load_bpe_spec(spec: str) -> object:
    """Load a SPEC as our :class:`~tokexplorer.core.bpe.model.BPE` (with a merge list).

    ``bpe:PATH`` and ``bpe:tiktoken:NAME`` load as usual; ``tiktoken:NAME`` and
    ``tiktoken-file:PATH`` are loaded into our engine from their ranks (the
    merges are recovered from the ranks, their counts are None).

    Raises:
        InputError: bad spec, missing file, or ``sp:`` (SentencePiece models
            have no merge list to show).
        ModelFormatError: a corrupt model file.
        BackendUnavailableError: a tiktoken encoding needs a download that failed.
    """
    from tokexplorer.core.backends import load_tokenizer, model_path, parse_spec
    from tokexplorer.core.bpe import BPE

    kind, arg = parse_spec(spec)
    if kind == "sp":
        raise InputError("SentencePiece models have no BPE merge list; use a bpe: or tiktoken: spec")
    if kind in ("tiktoken", "bpe-tiktoken"):
        return bpe_from_tiktoken(arg)
    if kind == "tiktoken-file":
        from tokexplorer.core.io import read_tiktoken_file

        path = model_path(arg)
        return BPE.from_mergeable_ranks(read_tiktoken_file(path), pat_str=None, name=path.name)
    tok = load_tokenizer(spec)
    return tok.bpe  # type: ignore[attr-defined]


def merges_json(merges: Sequence[MergeRecord], vocab: Mapping[int, bytes]) -> list[dict]:
    """The merge records as JSON objects (``tokexplorer merges --json``).

    Returns:
        ``[{"rank": int, "left": hex, "right": hex, "merged": hex, "count": int | None}, ...]``
        in rank order; hex is lower case without spaces.
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
    return out
