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

from bisect import bisect_right
from dataclasses import dataclass
from typing import Literal

import regex

from tokexplorer.core.errors import InputError
from tokexplorer.core.text.display import is_mark, label_glyph, token_display
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


# ---------------------------------------------------------------------------
# Part of a grapheme cluster: whole code points, but not the whole cluster
# ---------------------------------------------------------------------------

_GRAPHEME = regex.compile(r"\X", regex.DOTALL)
_PICTOGRAPHIC = regex.compile(r"\p{Extended_Pictographic}")


def _role(cluster: str, k: int) -> str:
    """The role of code point ``k`` of ``cluster`` ("skin-tone modifier U+1F3FD")."""
    ch = cluster[k]
    cp = ord(ch)
    code = f"U+{cp:04X}"
    if 0x1F3FB <= cp <= 0x1F3FF:
        return f"skin-tone modifier {code}"
    if 0x1F1E6 <= cp <= 0x1F1FF:
        return f"regional indicator {code} ({chr(ord('A') + cp - 0x1F1E6)})"
    if cp == 0x200D:
        return f"zero width joiner {code}"
    if 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF:
        n = cp - 0xFE00 + 1 if cp <= 0xFE0F else cp - 0xE0100 + 17
        return f"variation selector-{n} {code}"
    if 0xE0020 <= cp <= 0xE007F:
        return f"tag {code}"
    if ch in "\r\n":
        return f"{'carriage return' if ch == chr(13) else 'line feed'} {code} of CRLF"
    if is_mark(ch):
        return f"combining mark {code} {label_glyph(ch)}"
    if 0x1100 <= cp <= 0x11FF or 0xA960 <= cp <= 0xA97F or 0xD7B0 <= cp <= 0xD7FF:
        return f"Hangul jamo {code} {ch}"
    if k > 0 and cluster[k - 1] == "\u200d":
        return f"ZWJ-sequence member {code} {ch}"
    if k == 0:
        kind = "emoji" if _PICTOGRAPHIC.match(ch) else "letter" if ch.isalpha() else "character"
        return f"base {kind} {code} {label_glyph(ch) or ''}".rstrip()
    return f"part {code} {label_glyph(ch)}".rstrip()


def _cluster_spans(text: str) -> list[tuple[int, int]]:
    """Grapheme clusters of ``text`` longer than one code point, as code point spans."""
    if text.isascii() and "\r\n" not in text:
        return []
    return [m.span() for m in _GRAPHEME.finditer(text) if m.end() - m.start() > 1]


def grapheme_part_tokens(tokenization: Tokenization) -> list[int]:
    """Indices of the tokens that hold whole code points but only part of a
    grapheme cluster (``regex`` ``\\X``): a skin-tone modifier without its emoji,
    one regional indicator of a flag, a member of a ZWJ sequence, a base letter
    without its combining mark, a variation selector, half of a CRLF.

    Tokens holding part of a UTF-8 character (``partial``) are not listed (that is
    the other, finer level), nor special tokens; none when the spans are
    approximate (``exact_offsets=False``).

    >>> from tokexplorer.core.tokens import build_tokens
    >>> s = "\\U0001F44B\\U0001F3FD"  # 👋🏽
    >>> toks = build_tokens(s, [1, 2], ["\\U0001F44B".encode(), "\\U0001F3FD".encode()])
    >>> grapheme_part_tokens(Tokenization("demo", s, toks))
    [0, 1]
    """
    if not tokenization.exact_offsets:
        return []
    spans = _cluster_spans(tokenization.text)
    if not spans:
        return []
    inside: set[int] = set()  # code point offsets strictly inside a cluster
    for a, b in spans:
        inside.update(range(a + 1, b))
    return [
        i
        for i, t in enumerate(tokenization.tokens)
        if not t.partial
        and not t.special
        and t.char_end > t.char_start
        and (t.char_start in inside or t.char_end in inside)
    ]


def grapheme_parts(tokenization: Tokenization) -> dict[int, str]:
    """What part of which grapheme cluster each token of :func:`grapheme_part_tokens` holds.

    Returns:
        token index → one line naming each code point the token holds of a cut
        cluster by its role, then the cluster: ``"skin-tone modifier U+1F3FD of
        grapheme 👋🏽"``, ``"base letter U+0065 e of grapheme é"``; two cut clusters
        are joined with ``"; "``.

    >>> from tokexplorer.core.tokens import build_tokens
    >>> s = "\\U0001F44B\\U0001F3FD"
    >>> toks = build_tokens(s, [1, 2], ["\\U0001F44B".encode(), "\\U0001F3FD".encode()])
    >>> grapheme_parts(Tokenization("demo", s, toks))
    {0: 'base emoji U+1F44B 👋 of grapheme 👋🏽', 1: 'skin-tone modifier U+1F3FD of grapheme 👋🏽'}
    """
    flagged = grapheme_part_tokens(tokenization)
    if not flagged:
        return {}
    text = tokenization.text
    spans = _cluster_spans(text)
    starts = [a for a, _ in spans]
    out: dict[int, str] = {}
    for i in flagged:
        t = tokenization.tokens[i]
        lines = []
        j = max(0, bisect_right(starts, t.char_start) - 1)
        while j < len(spans) and spans[j][0] < t.char_end:
            a, b = spans[j]
            if b > t.char_start and not (t.char_start <= a and b <= t.char_end):
                cluster = text[a:b]
                roles = " + ".join(_role(cluster, k - a) for k in range(max(a, t.char_start), min(b, t.char_end)))
                shown = token_display(cluster.encode("utf-8", "surrogatepass"))
                lines.append(f"{roles} of grapheme {shown}")
            j += 1
        out[i] = "; ".join(lines)
    return out


def is_grapheme_fragment(data: bytes) -> bool:
    """True when ``data`` (a token alone, e.g. a merged token) is whole UTF-8 but
    can only be part of a grapheme cluster: it starts with a code point that
    extends the one before it (a combining mark, variation selector, skin-tone
    modifier, ZWJ, tag), ends with a ZWJ, or holds an odd number of regional
    indicators (half a flag). False for partial UTF-8 (the other level).

    >>> [is_grapheme_fragment(s.encode()) for s in ("\\U0001F3FD", "\\U0001F1EB", "\\U0001F469\\u200d", "ab")]
    [True, True, True, False]
    """
    try:
        s = data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    if not s:
        return False
    first = ord(s[0])
    if is_mark(s[0]) or first == 0x200D or 0x1F3FB <= first <= 0x1F3FF or 0xE0020 <= first <= 0xE007F:
        return True
    if s[-1] == "\u200d":
        return True
    return sum(1 for ch in s if 0x1F1E6 <= ord(ch) <= 0x1F1FF) % 2 == 1
