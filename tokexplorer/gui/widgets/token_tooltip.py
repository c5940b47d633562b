"""What the tooltip of one token in a token view says: id, bytes, text, piece, cut, spans."""

from __future__ import annotations

from collections.abc import Callable

from tokexplorer.core.text import describe_partial_token, utf8
from tokexplorer.core.text import grapheme_parts as core_grapheme_parts
from tokexplorer.core.types import Tokenization
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import piece_tip, shown_piece


def hex_bytes(data: bytes, *, limit: int = 48) -> str:
    """Bytes as upper-case hex pairs separated by spaces (``"F0 9F 98 80"``).

    Args:
        data: the bytes.
        limit: at most this many bytes are written; more are summarised.
    """
    if len(data) <= limit:
        return data.hex(" ").upper()
    return data[:limit].hex(" ").upper() + f" … ({len(data):,} bytes)"


def token_tooltip(
    tz: Tokenization,
    index: int,
    analysis: Callable[[], utf8.Utf8Analysis],
    grapheme_parts: Callable[[], dict[int, str]] | None = None,
) -> str:
    """Plain-text description of token ``index`` of ``tz`` (a valid index).

    Lines: ``"token 3 · id 57352 · partial UTF-8"``, ``"bytes F0 9D"``, ``"text
    \\xF0\\x9D"`` (the window's one display rule, ``glyphs.shown_piece``: ``\\xNN`` escapes,
    look-alikes as ``<U+XXXX>``), the SentencePiece piece
    when there is one, for a piece inside a normalized character the original
    character(s) it was made from (``"part of what the normalizer made of '…'
    (U+2026); the span is all of it"``), for a partial token the part of the
    character it holds (``"bytes 1–2 of 4 of U+1D538 𝔸"``), for a token holding
    part of a grapheme cluster the part by its role (``"skin-tone modifier
    U+1F3FD of grapheme 👋🏽"``), when its text writes a code point ``<U+XXXX>`` (a look-alike,
    an invisible one) its code points one a line (``glyphs.piece_tip``: ``"U+2502 BOX DRAWINGS
    LIGHT VERTICAL"``), and its byte and character spans.

    Args:
        tz: the tokenization.
        index: the token's index.
        analysis: returns ``utf8.analyze(tz.text)`` (called only for a partial
            token with exact offsets, so a view can build it once, when needed).
        grapheme_parts: returns ``core.text.grapheme_parts(tz)`` (cached by the
            view); default: computed here.
    """
    tok = tz.tokens[index]
    kind = []
    if tok.special:
        kind.append("special token")
    if tok.unknown:
        kind.append("unknown piece")
    if tok.partial:
        kind.append("partial UTF-8")
    if tok.inside_normalized:
        kind.append("inside a normalized character")
    part = (grapheme_parts or (lambda: core_grapheme_parts(tz)))().get(index)
    if part is not None:
        kind.append("part of a grapheme")
    head = f"token {index} · id {tok.id}" + "".join(f" · {k}" for k in kind)
    glyphs = theme.control_pictures()
    lines = [head, f"bytes {hex_bytes(tok.bytes)}", f"text {shown_piece(tok.bytes)}"]
    if tok.piece is not None:
        lines.append(f"piece {shown_piece(tok.piece)}")
    if tok.inside_normalized:
        whole = tz.text[tok.char_start : tok.char_end]
        points = " ".join(f"U+{ord(c):04X}" for c in whole)
        lines.append(f"part of what the normalizer made of {whole!r} ({points}); the span is all of it")
    if tok.partial and tz.exact_offsets:
        lines.append(describe_partial_token(tok.bytes, tok.byte_start, analysis(), control_pictures=glyphs))
    if part is not None:
        lines.append(part)
    points = piece_tip(tok.bytes, when_escaped=True)  # a look-alike's code points, whatever the font
    if points:
        lines.append(points)
    lines.append(f"byte span [{tok.byte_start}, {tok.byte_end}) · characters [{tok.char_start}, {tok.char_end})")
    return "\n".join(lines)
