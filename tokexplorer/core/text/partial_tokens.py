"""Tokens that cut through characters: where the cuts are, and what a token holds.

A token boundary may fall inside a code point's UTF-8 bytes (byte-level BPE
does this with rare characters) or between two code points of one grapheme
cluster (👋 + skin tone, inside a ZWJ sequence). :func:`cuts` lists such
boundaries, and :func:`describe_partial_token` says what part of which
character a token holds ("bytes 1–2 of 4 of U+1D538 𝔸").

>>> a = analyze("\\u00e9")
>>> describe_partial_token(b"\\xc3", 0, a)
'byte 1 of 2 of U+00E9 é'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tokexplorer.core.errors import InputError
from tokexplorer.core.text.display import label_glyph, token_display
from tokexplorer.core.text.utf8 import CodePointInfo, Utf8Analysis, analyze
from tokexplorer.core.types import Tokenization

CutKind = Literal["code point", "grapheme"]


@dataclass(frozen=True, slots=True)
class Cut:
    """A token boundary that splits a code point or a grapheme cluster.

    Attributes:
        byte_offset: the boundary's byte offset in the UTF-8 text.
        kind: ``"code point"`` (the boundary is inside one character's bytes) or
            ``"grapheme"`` (between two code points of one grapheme cluster,
            e.g. 👋 + skin tone, inside a ZWJ sequence, between the two regional
            indicators of a flag).
        index: index of the code point (kind ``"code point"``) or of the
            grapheme cluster (kind ``"grapheme"``) that is cut.
        left_token: index of the token ending at the boundary.
        right_token: index of the token starting at the boundary.
    """

    byte_offset: int
    kind: CutKind
    index: int
    left_token: int
    right_token: int


def cuts(text: str | Utf8Analysis, tokenization: Tokenization) -> list[Cut]:
    """List the token boundaries that cut through a character or a grapheme cluster.

    Args:
        text: the tokenized text (``tokenization.text``) or its analysis.
        tokenization: the tokens; their ``byte_start`` offsets are the
            boundaries. With ``exact_offsets=False`` (SentencePiece normalizers)
            the spans, hence the cuts, are approximate.

    Returns:
        list of :class:`Cut` in byte order; a boundary inside a code point is
        reported as kind ``"code point"`` only (it also cuts the grapheme).

    >>> from tokexplorer.core.tokens import build_tokens
    >>> s = "\\U0001D538"
    >>> toks = build_tokens(s, [1, 2], [b"\\xf0\\x9d", b"\\x94\\xb8"])
    >>> cuts(s, Tokenization("demo", s, toks))[0].kind
    'code point'
    """
    a = text if isinstance(text, Utf8Analysis) else analyze(text)
    n = len(a.data)
    out: list[Cut] = []
    prev: int | None = None  # index of the last token with at least one byte
    last_boundary = -1
    for ti, tok in enumerate(tokenization.tokens):
        if tok.byte_end <= tok.byte_start:
            continue
        b = tok.byte_start
        if prev is not None and 0 < b < n and b != last_boundary:
            info = a.bytes[b]
            if info.position != 1:
                out.append(Cut(b, "code point", info.cp_index, prev, ti))
            elif not a.is_grapheme_boundary(b):
                out.append(Cut(b, "grapheme", info.grapheme_index, prev, ti))
            last_boundary = b
        prev = ti
    return out


def _char_for_label(cp: CodePointInfo) -> str:
    g = label_glyph(cp.char)
    return f"U+{cp.value:04X} {g}" if g else f"U+{cp.value:04X} {cp.name}"


def _whole_part(s: str, control_pictures: bool) -> str:
    if s and set(s) == {" "}:
        return "space" if len(s) == 1 else f"{len(s)} spaces"
    return f'"{token_display(s.encode("utf-8", "surrogateescape"), control_pictures=control_pictures)}"'


def describe_partial_token(
    token_bytes: bytes, byte_start: int, analysis: Utf8Analysis, *, control_pictures: bool = True
) -> str:
    """Say which parts of which characters a token's bytes hold.

    Args:
        token_bytes: the token's bytes.
        byte_start: byte offset of the token in ``analysis.data``.
        analysis: the analysis of the tokenized text.
        control_pictures: how controls inside quoted whole characters look (see
            :func:`~tokexplorer.core.text.display.token_display`).

    Returns:
        one line joining the parts with ``" + "``: whole characters as quoted
        text (spaces as ``"space"``), partial characters as ``"bytes 1–2 of 4 of
        U+1D538 𝔸"`` or ``"byte 1 of 2 of U+03D5 ϕ"`` (invisible characters by
        name), invalid bytes as ``"invalid byte 80"``. Never contains U+FFFD
        unless the text itself does.

    Raises:
        InputError: the bytes are not ``analysis.data[byte_start:...]``.

    >>> a = analyze("let \\u03d5")
    >>> describe_partial_token(b" \\xcf", 3, a)
    'space + byte 1 of 2 of U+03D5 ϕ'
    >>> describe_partial_token(b"t\\n", 0, analyze("t\\n"), control_pictures=False)
    '"t↵"'
    """
    end = byte_start + len(token_bytes)
    if byte_start < 0 or end > len(analysis.data) or analysis.data[byte_start:end] != token_bytes:
        raise InputError(
            f"token bytes {token_bytes.hex(' ').upper()} are not the text's bytes at offset {byte_start}"
        )
    parts: list[str] = []
    whole = ""
    off = byte_start
    while off < end:
        info = analysis.bytes[off]
        cp = analysis.code_points[info.cp_index]
        if cp.invalid:
            if whole:
                parts.append(_whole_part(whole, control_pictures))
                whole = ""
            parts.append(f"invalid byte {info.value:02X}")
            off += 1
            continue
        lo = max(cp.byte_start, byte_start)
        hi = min(cp.byte_end, end)
        if lo == cp.byte_start and hi == cp.byte_end:
            whole += cp.char
        else:
            if whole:
                parts.append(_whole_part(whole, control_pictures))
                whole = ""
            a, b = lo - cp.byte_start + 1, hi - cp.byte_start
            which = f"byte {a}" if a == b else f"bytes {a}\u2013{b}"
            parts.append(f"{which} of {cp.n_bytes} of {_char_for_label(cp)}")
        off = hi
    if whole:
        parts.append(_whole_part(whole, control_pictures))
    return " + ".join(parts)
