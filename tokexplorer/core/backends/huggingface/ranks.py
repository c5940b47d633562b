"""A byte-level BPE ``tokenizer.json`` (or GPT-2 ``vocab.json`` + ``merges.txt``) as
tiktoken-style ranks, when the ranks give exactly the library's ids, or exactly why not.

The library merges the adjacent pair that comes first in the file's merge list;
tiktoken and our engine merge the adjacent pair whose joined token has the lowest
rank (its id). The two agree when the file's ids grow with its merge list and,
for every token, rank-order merging of the token's own bytes ends with the
file's merge for it (:func:`~tokexplorer.core.bpe.recovery.recover_merges`).
Around the model, the library's pipeline must be one the ranks can carry: no
normalizer, a ``ByteLevel`` pre-tokenizer without a prefix space, alone (GPT-2's
split pattern, or the whole text with ``use_regex`` off) or after one
``Split(pattern, "Isolated")`` of the gpt2, cl100k or o200k pattern, no BPE
dropout, continuing-subword prefix or end-of-word suffix, and added tokens that
are all special and plain (no ``lstrip``, ``rstrip``, ``single_word``). A
post-processor that adds tokens (a BOS) is not in the ranks: a note says the ids
are the library's without them (``add_special_tokens=False``).

>>> from tokenizers import Tokenizer, models, normalizers, pre_tokenizers
>>> lib = Tokenizer(models.BPE({"a": 0, "b": 1, "ab": 2}, [("a", "b")]))
>>> lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
>>> lib.normalizer = normalizers.NFKC()
>>> byte_level_ranks(HuggingFaceTokenizer(lib))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tokexplorer.core.errors.InputError: Hugging Face BPE cannot be written as ranks: its normalizer (NFKC) rewrites ...
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from tokexplorer.core.backends.huggingface.config import component_types
from tokexplorer.core.backends.huggingface.tokenizer import HuggingFaceTokenizer
from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import InputError
from tokexplorer.core.text import GPT2_UNICODE_TO_BYTE, PATTERNS

__all__ = ["HFRanks", "byte_level_ranks"]

#: What every refusal ends with: what the user can do instead.
_KEEP = "use the file itself with the tokenizers library"


@dataclass(frozen=True, slots=True)
class HFRanks:
    """A byte-level BPE of the tokenizers library in tiktoken's terms.

    Attributes:
        mergeable_ranks: token bytes -> rank (= the file's id), all 256 single bytes included.
        pat_str: the split pattern (one of :data:`~tokexplorer.core.text.PATTERNS`), None for the whole text.
        special_tokens: special token text -> id (the file's added tokens).
        notes: what the ranks leave out (one line each): the post-processor's tokens.
    """

    mergeable_ranks: dict[bytes, int]
    pat_str: str | None
    special_tokens: dict[str, int]
    notes: tuple[str, ...] = ()

    def bpe(self, name: str) -> BPE:
        """These ranks loaded into our engine, named ``name``."""
        return BPE.from_mergeable_ranks(
            self.mergeable_ranks, pat_str=self.pat_str, special_tokens=self.special_tokens, name=name
        )


def _pattern(pre: Any) -> str | None:
    """The split pattern of a pre-tokenizer JSON the ranks can carry.

    Raises:
        InputError: any other pre-tokenizer (the reason, without the tokenizer's name).
    """
    from tokexplorer.core.io.exports import oniguruma_pattern

    parts = pre.get("pretokenizers") if isinstance(pre, dict) and pre.get("type") == "Sequence" else [pre]
    if not isinstance(parts, list) or not parts or not isinstance(parts[-1], dict):
        raise InputError(f"its pre-tokenizer ({_shown(pre)}) is not byte-level; the ranks need ByteLevel")
    last = parts[-1]
    if last.get("type") != "ByteLevel":
        raise InputError(f"its pre-tokenizer ({_shown(pre)}) does not end with ByteLevel; the ranks need it")
    if last.get("add_prefix_space"):
        raise InputError("its ByteLevel pre-tokenizer adds a space before the text (add_prefix_space), "
                         "which ranks cannot say: every first word would get another id")  # fmt: skip
    use_regex = last.get("use_regex", True)
    if len(parts) == 1:
        return PATTERNS["gpt2"] if use_regex else None
    split = parts[0]
    regex = split.get("pattern", {}).get("Regex") if isinstance(split, dict) else None
    if len(parts) != 2 or use_regex or split.get("type") != "Split" or not isinstance(regex, str):
        raise InputError(f"its pre-tokenizer ({_shown(pre)}) is not one Split then ByteLevel; ranks cannot carry it")
    if split.get("behavior") != "Isolated" or split.get("invert"):
        raise InputError(f"its Split pre-tokenizer keeps pieces as {split.get('behavior')}"
                         f"{' inverted' if split.get('invert') else ''}; ranks split as Isolated only")  # fmt: skip
    for pat in PATTERNS.values():
        if pat is not None and regex in (pat, oniguruma_pattern(pat)):
            return pat
    raise InputError(f"its Split pattern {regex[:40]!r}… is not the gpt2, cl100k or o200k pattern, so tiktoken's "
                     "regex engine may cut the text otherwise than the library's (Oniguruma)")  # fmt: skip


def _shown(node: Any) -> str:
    """``"Split+ByteLevel"``: a component's types for a message."""
    return "+".join(t for t in component_types(node) if t != "Sequence") or "none"


def _check_model(model: dict[str, Any]) -> None:
    """Refuse BPE settings the ranks cannot carry.

    Raises:
        InputError: dropout, a continuing-subword prefix or an end-of-word suffix.
    """
    if model.get("dropout"):
        raise InputError(f"its BPE has dropout {model['dropout']} (random merges); ranks always merge")
    for key in ("continuing_subword_prefix", "end_of_word_suffix"):
        if model.get(key):
            raise InputError(f"its BPE marks pieces with {key} {model[key]!r}; ranks have no such marks")


def _specials(data: dict[str, Any]) -> dict[str, int]:
    """The added tokens as special tokens.

    Raises:
        InputError: an added token that is not special or matches with lstrip, rstrip or single_word.
    """
    out: dict[str, int] = {}
    for added in data.get("added_tokens") or []:
        content = str(added.get("content"))
        if not added.get("special"):
            raise InputError(f"its added token {content!r} is not special: the library cuts it out of any text "
                             "before the BPE, and ranks have only special tokens")  # fmt: skip
        rule = next((k for k in ("lstrip", "rstrip", "single_word") if added.get(k)), None)
        if rule is not None:
            raise InputError(f"its special token {content!r} matches with {rule}; ranks match special tokens exactly")
        out[content] = int(added["id"])
    return out


def _ranks(model: dict[str, Any], specials: dict[str, int]) -> dict[bytes, int]:
    """The model's vocabulary (the special tokens' ids and an empty token left out) as token bytes -> id.

    Raises:
        InputError: a token not spelled in GPT-2's byte alphabet, a missing single byte,
            two tokens of one byte string, ids that do not grow with the merge list, or a
            special token that a merge builds.
    """
    special_ids = set(specials.values())
    ranks: dict[bytes, int] = {}
    for piece, i in model["vocab"].items():
        if i in special_ids or not piece:
            continue  # (an empty token, Whisper's 50256: no piece is empty, neither emits it)
        if not all(ch in GPT2_UNICODE_TO_BYTE for ch in piece):
            raise InputError(f"its token {piece!r} (id {i}) is not spelled in GPT-2's byte alphabet")
        b = bytes(GPT2_UNICODE_TO_BYTE[ch] for ch in piece)
        if b in ranks:
            raise InputError(f"two of its tokens ({ranks[b]} and {i}) spell the bytes {b!r}; ranks allow one id")
        ranks[b] = int(i)
    missing = next((b for b in range(256) if bytes([b]) not in ranks), None)
    if missing is not None:
        raise InputError(f"it has no token for byte {missing:02X}; ranks need all 256")
    last = -1
    for rank, pair in enumerate(_pairs(model)):
        merged = model["vocab"].get("".join(pair))
        if merged is None:
            raise InputError(f"its merge {rank} ({' '.join(pair)!r}) builds a token not in its vocabulary")
        if merged in special_ids:
            raise InputError(f"its merge {rank} builds the special token {''.join(pair)!r}")
        if merged <= last:
            raise InputError(f"its ids do not grow with its merge list (merge {rank}, {' '.join(pair)!r}, builds "
                             "an id lower than the merge before it), so rank order is not merge order")  # fmt: skip
        last = merged
    return ranks


def _pairs(model: dict[str, Any]) -> list[tuple[str, str]]:
    """``model.merges`` as (left, right) pairs (``"a b"`` strings or ``["a", "b"]`` lists)."""
    out = []
    for item in model.get("merges") or []:
        left, right = item.split(" ", 1) if isinstance(item, str) else item
        out.append((left, right))
    return out


def _same_merges(bpe: BPE, model: dict[str, Any], ignore_merges: bool) -> None:
    """Check that rank-order merging builds every token from the file's own merge.

    Raises:
        InputError: a token built from other parts, or one no merge of the file builds
            that rank-order merging builds (or, without ``ignore_merges``, the other way round).
    """
    by_bytes = {b: i for i, b in bpe.vocab.items()}
    stored = {}
    for left, right in _pairs(model):
        lb, rb = (bytes(GPT2_UNICODE_TO_BYTE[ch] for ch in s) for s in (left, right))
        stored[by_bytes[lb + rb]] = (by_bytes[lb], by_bytes[rb])
    for m in bpe.merges:
        if stored.get(m.new_id) != (m.left, m.right):
            raise InputError(f"rank-order merging builds token {m.new_id} ({m.merged!r}) otherwise than its merges "
                             "do, so ids would differ")  # fmt: skip
    unbuilt = [i for i in bpe.unbuilt_tokens if i in stored]
    if unbuilt:
        raise InputError(f"rank-order merging never builds its token {unbuilt[0]}, which its merges build, "
                         "so ids would differ")  # fmt: skip
    if not ignore_merges and bpe.unbuilt_tokens:
        first = bpe.unbuilt_tokens[0]
        raise InputError(f"its token {first} ({bpe.vocab[first]!r}) is built by no merge: ranks emit it for a "
                         "piece that is that token, the library (ignore_merges off) never does")  # fmt: skip


def byte_level_ranks(tok: HuggingFaceTokenizer) -> HFRanks:
    """``tok`` as ranks that give exactly the library's ids (see the module docstring).

    Reads the tokenizer's JSON and recovers the merges from the ranks (about a second
    for 50,000 tokens).

    Raises:
        InputError: ``"NAME cannot be written as ranks: WHY; use the file itself with the
            tokenizers library"``: a model that is not a byte-level BPE, or a pipeline or
            setting the ranks cannot carry.
    """
    data = json.loads(tok.tokenizer.to_str())
    model = data["model"]
    try:
        if model.get("type", "BPE") != "BPE":
            raise InputError(f"it is a {model.get('type')} model, not a BPE")
        if data.get("normalizer") is not None:
            shown = _shown(data["normalizer"])
            raise InputError(f"its normalizer ({shown}) rewrites the text before the BPE and ranks carry no "
                             f"normalizer, so ids would differ wherever {shown} changes the text")  # fmt: skip
        pat_str = _pattern(data.get("pre_tokenizer"))
        _check_model(model)
        specials = _specials(data)
        bpe = BPE.from_mergeable_ranks(_ranks(model, specials), pat_str=pat_str, special_tokens=specials)
        _same_merges(bpe, model, bool(model.get("ignore_merges")))
    except InputError as exc:
        raise InputError(f"{tok.name} cannot be written as ranks: {exc}; {_KEEP}") from None
    notes: tuple[str, ...] = ()
    if tok.post_processor_adds():
        empty = tok.encoding("")
        added = [p for p, s in zip(empty.tokens, empty.sequence_ids) if s is None]
        notes = (f"the post-processor adds {', '.join(added)} to each text; ranks do not: "
                 "the ids are the library's with add_special_tokens=False",)  # fmt: skip
    return HFRanks(bpe.mergeable_ranks, pat_str, specials, notes)
