"""Byte spans from the ``tokenizers`` library's offsets, and the notes of a result.

The library reports each token's offsets in characters of the user's text.
:func:`token_span` turns them into the token's own byte span (several byte-level
tokens of one character share that character's offsets); :func:`tiles` says
whether the tokens spell the text exactly; :func:`token_notes` says what the
post-processor added and which tokens are unknown.

>>> token_span("你".encode(), b"\\xe4\\xbd", 0, 0, 3), token_span("你".encode(), b"\\xa0", 2, 0, 3)
((0, 2), (2, 3))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from tokexplorer.core.backends.base import unknown_tokens_notes
from tokexplorer.core.backends.library_calls import library_call
from tokexplorer.core.types import Token

__all__ = [
    "char_to_byte_offsets", "first_line", "guarded", "lost_note", "normalized_alignment", "tiles", "token_notes",
    "token_span", "valid_utf8",
]  # fmt: skip

_T = TypeVar("_T")


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (its type name when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def guarded(what: str, fn: Callable[[], _T]) -> _T:
    """Run one call into the ``tokenizers`` library (:func:`~tokexplorer.core.backends.library_calls.library_call`,
    the reason given by :func:`first_line`).

    Raises:
        TokexplorerError: ``"tokenizers failed while WHAT: REASON"``.
    """
    return library_call("tokenizers", what, fn, describe=first_line)


def char_to_byte_offsets(text: str) -> list[int]:
    """UTF-8 byte offset of each code point of ``text``, plus the end (``len(text) + 1`` entries).

    >>> char_to_byte_offsets("a\u00e9b")
    [0, 1, 3, 4]
    """
    out = [0] * (len(text) + 1)
    off = 0
    for i, ch in enumerate(text):
        out[i] = off
        o = ord(ch)
        off += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    out[len(text)] = off
    return out


def valid_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def token_span(src: bytes, tb: bytes, cursor: int, bs: int, be: int) -> tuple[int, int]:
    """The byte span of a token whose bytes are ``tb`` and whose library span is ``[bs, be)``.

    The tokens follow each other: where ``tb`` is the text's bytes at ``cursor``
    (the end of the token before) and those bytes hold the start of the library
    span (white space the library's offsets trim off, as ByteLevel's
    ``trim_offsets`` and Metaspace do: ``Ġ`` of ``"a  a"`` at ``(2, 2)``) or lie
    inside it (byte-level tokens sharing one character's offsets, each holding
    part of its bytes), the token gets exactly those bytes. A token of spaces
    found no other way spans the spaces the text holds from there (``▁`` that a
    Metaspace prefix inserts gets the offsets of the character after it: it
    spans none and takes nothing from that character's token). Where ``tb``
    starts the library span, it gets ``[bs, bs + len(tb))``; otherwise (the
    normalizer rewrote the text) the library span as it is.

    >>> token_span(b"a  a", b" ", 1, 2, 2)
    (1, 2)
    >>> token_span(b"\\t\\tx", b" ", 0, 0, 1), token_span(b"\\t\\tx", b"\\t", 0, 0, 1)
    ((0, 0), (0, 1))
    """
    n = len(tb)
    a, b = cursor, cursor + n
    if n and src[a:b] == tb and (a <= bs < b or bs == be == b or bs <= a and b <= be):
        return a, b
    if n and tb == b" " * n:
        start = max(bs, cursor)
        held = src[start:be]  # empty when the library span ends before the cursor
        return start, start + min(len(held) - len(held.lstrip(b" ")), n)
    if n and bs + n <= len(src) and src[bs : bs + n] == tb:
        return bs, bs + n
    return bs, be


def tiles(tokens: Sequence[Token], src: bytes) -> bool:
    """True when the tokens with text are contiguous over ``src`` and each holds exactly its bytes."""
    pos = 0
    for t in tokens:
        if t.byte_start == t.byte_end and not t.bytes:
            continue
        if t.byte_start != pos or src[t.byte_start : t.byte_end] != t.bytes:
            return False
        pos = t.byte_end
    return pos == len(src)


def added_notes(added: Sequence[str], held_back: bool) -> list[str]:
    """The note on the post-processor's tokens (``added``: their pieces), or, none
    added and ``held_back``, on those it would have added."""
    if added:
        shown = ", ".join(repr(p) for p in added[:4]) + (f" and {len(added) - 4} more" if len(added) > 4 else "")
        return [f"the post-processor added {shown} (add special tokens: on)"]
    if held_back:
        return ["add special tokens: off (the post-processor's tokens are left out)"]
    return []


def token_notes(tokens: Sequence[Token], held_back: bool) -> list[str]:
    """Notes on what the post-processor added (or, ``held_back``, would have added)
    and on unknown tokens."""
    added = [t.piece for t in tokens if t.special and t.byte_start == t.byte_end and not t.bytes]
    notes = added_notes(added, held_back)
    notes.extend(unknown_tokens_notes([t.bytes.decode("utf-8", "replace") for t in tokens if t.unknown]))
    return notes


def normalized_alignment(text: str, normalizer: Any) -> list[tuple[str, int, int]]:
    """Each character the library's ``normalizer`` makes of ``text``, with the span of
    ``text`` (in characters, half-open) the library aligns it to: its own record of
    what the normalizer rewrote (NFKC's ``é`` of ``e`` + U+0301 is aligned to the
    ``e``, NFD's ``e`` and U+0301 of ``é`` both to the ``é``, a removed character to
    nothing).

    Raises:
        TokexplorerError: the library failed.

    >>> from tokenizers import normalizers
    >>> normalized_alignment("cafe\\u0301", normalizers.NFKC())[-1]
    ('é', 3, 4)
    >>> normalized_alignment(" a\\x00b", normalizers.BertNormalizer())
    [(' ', 0, 1), ('a', 1, 2), ('b', 3, 4)]
    """
    from tokenizers import PreTokenizedString, Regex

    def run() -> list[tuple[str, int, int]]:
        pts = PreTokenizedString(text)
        pts.normalize(normalizer.normalize)
        every = Regex(r"[\s\S]")
        pts.split(lambda _i, piece: piece.split(every, "isolated"))
        return [(c, a, b) for c, (a, b), _ in pts.get_splits(offset_referential="original", offset_type="char")]

    return guarded("aligning the normalized text", run)


def lost_note(text: str, enc: Any, normalizer: Any = None) -> str | None:
    """A note on the characters of ``text`` that no token of the library's ``Encoding``
    covers and that the normalizer did not rewrite away: the model has no token for them
    and they are lost (an empty vocab drops everything); None when every other character
    is in a token.

    A character the normalizer removed or merged into another (NFKC's U+0301 in ``é``,
    a control character BERT's normalizer drops) is not lost: only characters that
    the library's alignment (:func:`normalized_alignment`) ties to a character of the
    normalized text that is not white space (a pre-tokenizer may drop that by design)
    and that no token's offsets cover are; white space of the text never is. (Where a model
    without byte fallback drops a character inside a word, the library gives the tokens after
    it offsets shifted back by it: the count is right, the characters named may be their
    neighbours.)

    Args:
        text: the text encoded (already cleaned).
        enc: the library's ``Encoding`` of ``text``.
        normalizer: the tokenizer's ``normalizer``, or None.

    Raises:
        TokexplorerError: the library failed while aligning the normalized text.

    >>> from tokenizers import Tokenizer, models
    >>> lib = Tokenizer(models.BPE(vocab={}, merges=[]))
    >>> lost_note("hi", lib.encode("hi"))
    "2 characters of the text are in no token (the model has none for them; they are lost): 'h', 'i'"
    """
    covered = bytearray(len(text) + 1)
    for (a, b), seq in zip(enc.offsets, enc.sequence_ids):
        if seq is not None and b > a:
            covered[a:b] = b"\x01" * (min(b, len(text)) - a)
    if normalizer is None:
        lost = [c for c, on in zip(text, covered) if not on and not c.isspace()]
    elif all(on or c.isspace() for c, on in zip(text, covered)):
        return None  # nothing uncovered: the alignment is not needed
    else:
        kept = bytearray(len(text) + 1)
        for c, a, b in normalized_alignment(text, normalizer):
            if not c.isspace() and b > a:
                kept[a:b] = b"\x01" * (min(b, len(text)) - a)
        lost = [c for c, on, k in zip(text, covered, kept) if k and not on and not c.isspace()]
    if not lost:
        return None
    shown = ", ".join(repr(c) for c in dict.fromkeys(lost[:200]))
    shown = shown if len(shown) <= 80 else shown[:80] + "…"
    n = f"{len(lost):,} characters of the text are" if len(lost) != 1 else "1 character of the text is"
    return f"{n} in no token (the model has none for them; they are lost): {shown}"
