"""A SentencePiece Unigram model explained: piece log probabilities, the
segmentation lattice, the n best segmentations and sampled ones.

A Unigram model (Kudo 2018) gives every piece a log probability (its score in
the model file). A text, once normalized (spaces as ``▁``, the dummy prefix
``▁`` first), can be cut into pieces in many ways: the *lattice* holds every
piece that matches at every position; a segmentation's score is the sum of its
pieces' scores. Encoding takes the best path (Viterbi); the n best
segmentations come next in order; *subword regularization* samples a path with
probability proportional to ``exp(alpha * score)``: alpha near 0 makes every
path alike, larger alpha keeps to the best.

The n-best lists, the samples and the piece scores are ``sentencepiece``'s own
(``nbest_encode`` with its scores, ``encode(enable_sampling=True, alpha=...)``,
``get_score``). Samples cannot be repeated: sentencepiece 0.2's
``set_random_generator_seed`` does not make them reproducible (the same seed
gives other draws in another process), so no seed is offered. The lattice is
rebuilt here from the pieces as SentencePiece builds it (an unknown character
gets the unknown piece with the lowest score minus 10), and its best path is
checked against SentencePiece's encoding in the tests.

>>> from tokexplorer.core.backends.sentencepiece import train_sentencepiece
>>> tok = train_sentencepiece(["low lower lowest newest widest"] * 20, vocab_size=18, model_type="unigram")
>>> [(s.pieces, round(s.score, 3)) for s in nbest(tok, "lowest", 3)]
[(('▁low', 'est'), -4.062), (('▁lowe', 's', 't'), -7.947), (('▁low', 'e', 's', 't'), -9.828)]
>>> [n.piece for n in lattice(tok, "lowest").best]
['▁low', 'est']
>>> {"".join(s.pieces) for s in sample(tok, "lowest", alpha=0.5, count=20)}
{'▁lowest'}
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from tokexplorer.core.backends import SentencePieceTokenizer, Tokenizer
from tokexplorer.core.backends.sentencepiece.proto import _fields, parse_pieces
from tokexplorer.core.errors import InputError

__all__ = [
    "MAX_LATTICE_CHARS", "UNK_PENALTY", "Lattice", "LatticeNode", "PieceScore", "Segmentation",
    "lattice", "nbest", "piece_scores", "require_unigram", "sample",
]  # fmt: skip

#: The longest normalized text (code points) :func:`lattice` builds a lattice for.
MAX_LATTICE_CHARS = 200
#: What SentencePiece subtracts from the lowest piece score for an unknown character.
UNK_PENALTY = 10.0
#: The most segmentations :func:`sample` gives at once.
MAX_SEGMENTATIONS = 1000
#: The most segmentations :func:`nbest` gives: SentencePiece's own limit (``kMaxNBestSize``;
#: asked for more, it fails with an internal error).
MAX_NBEST = 512


@dataclass(frozen=True, slots=True)
class PieceScore:
    """One piece of the vocabulary.

    Attributes:
        id: its id; piece: its spelling (``▁`` for a space).
        score: its log probability (natural log; 0 for control and user-defined pieces).
        kind: ``"normal"``, ``"unknown"``, ``"control"``, ``"user-defined"`` or ``"byte"``.
    """

    id: int
    piece: str
    score: float
    kind: str

    @property
    def probability(self) -> float:
        """``exp(score)``, for a normal piece the model's probability of it."""
        return math.exp(self.score)


@dataclass(frozen=True, slots=True)
class LatticeNode:
    """One piece matching the normalized text at ``[start, end)`` (code points).

    Attributes:
        start, end: its characters in :attr:`Lattice.normalized`.
        piece, id, score: the piece (for an unknown character: the character),
            its id and its log probability.
        best: on the best (Viterbi) path.
    """

    start: int
    end: int
    piece: str
    id: int
    score: float
    best: bool


@dataclass(frozen=True, slots=True)
class Lattice:
    """The segmentation lattice of one text.

    Attributes:
        normalized: the text as the model sees it (``▁`` for spaces, dummy prefix included).
        nodes: every node, ordered by start, then end.
        best: the nodes of the best path, in order.
        best_score: the sum of their scores.
        unk_id: the unknown piece's id.
    """

    normalized: str
    nodes: tuple[LatticeNode, ...]
    best: tuple[LatticeNode, ...]
    best_score: float
    unk_id: int

    @property
    def encoding(self) -> list[tuple[str, int]]:
        """The best path as SentencePiece's encoding gives it, ``(piece, id)`` in
        order: a run of unknown characters is one unknown piece there."""
        out: list[tuple[str, int]] = []
        for n in self.best:
            if n.id == self.unk_id and out and out[-1][1] == self.unk_id:
                out[-1] = (out[-1][0] + n.piece, n.id)
            else:
                out.append((n.piece, n.id))
        return out

    def log_partition(self, alpha: float) -> float:
        """``log Σ exp(alpha * score(path))`` over every path of the lattice (the
        normalizer of sampling with ``alpha``)."""
        n = len(self.normalized)
        forward = [-math.inf] * (n + 1)
        forward[0] = 0.0
        for node in self.nodes:  # ordered by start: every node into `start` is done
            if forward[node.start] > -math.inf:
                forward[node.end] = _logaddexp(forward[node.end], forward[node.start] + alpha * node.score)
        return forward[n]

    def probability(self, score: float, alpha: float) -> float:
        """The probability that sampling with ``alpha`` picks a path of this ``score``."""
        return math.exp(alpha * score - self.log_partition(alpha))


@dataclass(frozen=True, slots=True)
class Segmentation:
    """One way to cut a text into pieces.

    Attributes:
        pieces, ids: the pieces in order and their ids.
        score: the path's score in SentencePiece's lattice: the sum of its pieces'
            log probabilities (``get_score``), an unknown piece scoring the lowest piece
            score minus 10 for each of its characters and a user-defined one 0; equal
            (to float32 rounding) to SentencePiece's n-best score, which it leaves 0 for
            ``n = 1`` and does not give for a sample.
    """

    pieces: tuple[str, ...]
    ids: tuple[int, ...]
    score: float

    def to_json(self) -> dict:
        """``{"pieces", "ids", "score"}``."""
        return {"pieces": list(self.pieces), "ids": list(self.ids), "score": self.score}


def _logaddexp(a: float, b: float) -> float:
    if a == -math.inf:
        return b
    hi, lo = (a, b) if a > b else (b, a)
    return hi + math.log1p(math.exp(lo - hi))


def require_unigram(tokenizer: Tokenizer) -> SentencePieceTokenizer:
    """The tokenizer as a SentencePiece Unigram model.

    Raises:
        InputError: it is not a SentencePiece model, or its model type is not unigram.
    """
    if not isinstance(tokenizer, SentencePieceTokenizer):
        raise InputError(f"{tokenizer.name} is not a SentencePiece model: n-best and sampling need a Unigram model")
    if tokenizer.info.model_type != "unigram":
        raise InputError(
            f"{tokenizer.name} is a SentencePiece {tokenizer.info.model_type} model: "
            "n-best and sampling need a Unigram model"
        )
    return tokenizer


def _kind(tok: SentencePieceTokenizer, i: int) -> str:
    sp = tok.processor
    if sp.is_unknown(i):
        return "unknown"
    if sp.is_control(i):
        return "control"
    if sp.is_byte(i):
        return "byte"
    if i in tok.user_defined_symbols.values():
        return "user-defined"
    return "normal"


def piece_scores(tokenizer: Tokenizer) -> list[PieceScore]:
    """Every piece of a Unigram model with its log probability, in id order.

    Raises:
        InputError: not a SentencePiece Unigram model.
    """
    tok = require_unigram(tokenizer)
    sp = tok.processor
    return [PieceScore(i, sp.id_to_piece(i), float(sp.get_score(i)), _kind(tok, i)) for i in range(sp.get_piece_size())]


def _unk_score(tok: SentencePieceTokenizer) -> float:
    """What SentencePiece's lattice gives an unknown character: the lowest score of a normal
    piece (0 at most) minus :data:`UNK_PENALTY`."""
    sp = tok.processor
    skip = (sp.is_control, sp.is_unknown, sp.is_unused, sp.is_byte)
    normal = (float(sp.get_score(i)) for i in range(sp.get_piece_size()) if not any(f(i) for f in skip))
    return min([0.0, *normal]) - UNK_PENALTY


def _segmentation(tok: SentencePieceTokenizer, ids: list[int], pieces: list[str]) -> Segmentation:
    """The segmentation with its lattice path score (see :class:`Segmentation`; a sample's
    ``get_score`` sum gave an unknown piece 0 and probabilities above 1)."""
    sp, unk, user = tok.processor, _unk_score(tok), set(tok.user_defined_symbols.values())
    score = sum(
        0.0 if i in user else unk * len(p) if sp.is_unknown(i) else float(sp.get_score(i)) for i, p in zip(ids, pieces)
    )
    return Segmentation(tuple(pieces), tuple(ids), score)


def _check_count(n: int, what: str, limit: int = MAX_SEGMENTATIONS) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= limit:
        raise InputError(f"{what} must be an integer from 1 to {limit}, not {n!r}")


def nbest(tokenizer: Tokenizer, text: str, n: int) -> list[Segmentation]:
    """SentencePiece's ``n`` best segmentations of ``text``, best first, with its scores.

    Raises:
        InputError: not a Unigram model, or ``n`` outside 1..512 (:data:`MAX_NBEST`).
    """
    tok = require_unigram(tokenizer)
    _check_count(n, "the n-best count", MAX_NBEST)
    raw = tok.processor.nbest_encode(text, nbest_size=n, out_type="serialized_proto")
    out: list[Segmentation] = []
    for field, _wire, value in _fields(raw):
        if field != 1:
            continue
        pieces = parse_pieces(value)
        out.append(_segmentation(tok, [p.id for p in pieces], [p.piece for p in pieces]))
    return out


def sample(
    tokenizer: Tokenizer, text: str, *, alpha: float, count: int = 1, nbest_size: int = -1
) -> list[Segmentation]:
    """Sampled segmentations of ``text`` (SentencePiece's subword regularization).

    Args:
        tokenizer: a SentencePiece Unigram model.
        text: any str.
        alpha: the smoothing: a path is drawn with probability ``∝ exp(alpha * score)``
            (from 0 exclusive; SentencePiece's ``alpha``).
        count: how many to draw (each a new draw; they are not repeatable).
        nbest_size: ``-1`` samples from the whole lattice; ``k > 1`` from the
            k best segmentations.

    Raises:
        InputError: not a Unigram model, ``alpha`` not a positive number, ``count`` outside 1..1000.
    """
    tok = require_unigram(tokenizer)
    _check_count(count, "the sample count")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float)) or not alpha > 0 or math.isinf(alpha):
        raise InputError(f"alpha must be a positive number, not {alpha!r}")
    sp, out = tok.processor, []
    for _ in range(count):
        raw = sp.encode(text, out_type="serialized_proto", enable_sampling=True, alpha=float(alpha),
                        nbest_size=nbest_size)  # fmt: skip
        pieces = parse_pieces(raw)
        out.append(_segmentation(tok, [p.id for p in pieces], [p.piece for p in pieces]))
    return out


def lattice(tokenizer: Tokenizer, text: str) -> Lattice:
    """The segmentation lattice of ``text`` with its best path marked.

    Raises:
        InputError: not a Unigram model, or the normalized text is longer than
            :data:`MAX_LATTICE_CHARS` code points (the lattice is for a word or a phrase).
    """
    tok = require_unigram(tokenizer)
    got = tok.normalize_with_offsets(text)
    normalized = got[0] if got is not None else "".join(p[0] for p in tok.pieces(text))
    if len(normalized) > MAX_LATTICE_CHARS:
        raise InputError(
            f"the text is {len(normalized):,} characters once normalized; the lattice is drawn for at most "
            f"{MAX_LATTICE_CHARS} (a word or a phrase)"
        )
    sp = tok.processor
    table: dict[str, int] = {}
    min_score = 0.0
    for i in range(sp.get_piece_size()):
        if sp.is_control(i) or sp.is_unknown(i) or sp.is_unused(i) or sp.is_byte(i):
            continue
        table[sp.id_to_piece(i)] = i
        min_score = min(min_score, float(sp.get_score(i)))
    longest = max(map(len, table), default=1)
    unk_id, unk_score = sp.unk_id(), min_score - UNK_PENALTY
    user_ids = set(tok.user_defined_symbols.values())
    raw: list[tuple[int, int, str, int, float]] = []
    for s in range(len(normalized)):
        single = False
        for e in range(s + 1, min(len(normalized), s + longest) + 1):
            i = table.get(normalized[s:e])
            if i is not None:
                raw.append((s, e, normalized[s:e], i, 0.0 if i in user_ids else float(sp.get_score(i))))
                single = single or e == s + 1
        if not single:
            raw.append((s, s + 1, normalized[s], unk_id, unk_score))
    best_path = _viterbi(raw, len(normalized))
    nodes = tuple(LatticeNode(*r, best=k in best_path) for k, r in enumerate(raw))
    best = tuple(nodes[k] for k in sorted(best_path, key=lambda k: raw[k][0]))
    return Lattice(normalized, nodes, best, sum(n.score for n in best), unk_id)


def _viterbi(raw: list[tuple[int, int, str, int, float]], n: int) -> set[int]:
    """The indexes of the nodes on the best path (raw is ordered by start)."""
    best = [-math.inf] * (n + 1)
    back: list[int] = [-1] * (n + 1)
    best[0] = 0.0
    for k, (s, e, _p, _i, score) in enumerate(raw):
        if best[s] > -math.inf and best[s] + score > best[e]:
            best[e], back[e] = best[s] + score, k
    path: set[int] = set()
    pos = n
    while pos > 0 and back[pos] >= 0:
        path.add(back[pos])
        pos = raw[back[pos]][0]
    return path
