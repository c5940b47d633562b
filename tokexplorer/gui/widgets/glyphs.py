"""Glyphs that make invisible code points visible (controls, joiners, spaces, raw bytes).

Used wherever a single code point is drawn on its own: the byte inspector's
code point and grapheme tracks and its code point table; :func:`shown_piece` (and
:func:`shown_parts`, :func:`piece_tip`) wherever a token, a vocabulary piece or a token's
spelling is shown: the one display rule of every pane.
"""

from __future__ import annotations

from functools import cache, lru_cache

import numpy as np
import regex
import unicodedata2
from PySide6.QtCore import QPointF
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics, QImage, QPainter

from tokexplorer.core.text import DisplayPart, char_notation, code_point_list, piece_display, piece_parts, span_display
from tokexplorer.gui import theme

#: Short names for invisible code points, used when the font has no Control
#: Pictures glyph (DejaVu and Noto have none for U+2400–U+2421).
_ABBREV: dict[int, str] = {
    0x00: "NUL", 0x01: "SOH", 0x02: "STX", 0x03: "ETX", 0x04: "EOT", 0x05: "ENQ", 0x06: "ACK",
    0x07: "BEL", 0x08: "BS", 0x09: "TAB", 0x0A: "LF", 0x0B: "VT", 0x0C: "FF", 0x0D: "CR",
    0x0E: "SO", 0x0F: "SI", 0x10: "DLE", 0x11: "DC1", 0x12: "DC2", 0x13: "DC3", 0x14: "DC4",
    0x15: "NAK", 0x16: "SYN", 0x17: "ETB", 0x18: "CAN", 0x19: "EM", 0x1A: "SUB", 0x1B: "ESC",
    0x1C: "FS", 0x1D: "GS", 0x1E: "RS", 0x1F: "US", 0x7F: "DEL", 0x85: "NEL", 0xA0: "NBSP",
    0xAD: "SHY", 0x200B: "ZWSP", 0x200C: "ZWNJ", 0x200D: "ZWJ", 0x2028: "LSEP", 0x2029: "PSEP",
    0xFEFF: "BOM",
}  # fmt: skip

#: Preferred one-character glyphs (checked against the font before use).
_PREFERRED: dict[int, str] = {0x0A: "\u21b5", 0x09: "\u2192", 0x20: "\u2423"}


def piece_font() -> QFont:
    """The font of pieces and tokens in tables: the system's fixed-width font, where every
    character gets its own width (in a proportional font ``▁I`` and ``▁|`` look the same)."""
    return QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)


#: A grapheme cluster drawn as an emoji: an emoji-presentation character, one made emoji by
#: U+FE0F, a keycap or a flag (two regional indicators), with what follows it in the cluster.
_EMOJI_CLUSTER = regex.compile(
    r"(?:\p{Emoji_Presentation}|\p{Extended_Pictographic}\ufe0f|[0-9#*]\ufe0f?\u20e3|\p{Regional_Indicator}{2})\X*"
)
#: The ideograph and the emoji whose drawn heights :func:`emoji_scale` compares.
_MEASURED = ("\u6c38", "\U0001f600")  # 永, 😀


@lru_cache(maxsize=4096)
def is_emoji(text: str) -> bool:
    """True when ``text`` (a cluster or a piece) is drawn as emoji only.

    >>> flag = "\U0001f3f3\ufe0f\u200d\U0001f308"
    >>> [is_emoji(t) for t in ("\U0001f642", flag, "1\ufe0f\u20e3", "\u2764", "a\U0001f642")]
    [True, True, True, False, False]
    """
    return bool(text) and all(_EMOJI_CLUSTER.fullmatch(c) for c in regex.findall(r"\X", text))


def _ink_height(font: QFont, text: str) -> int:
    """The height in pixels of what ``font`` draws for ``text`` (its ink, faint edge pixels left out)."""
    px = QFontMetrics(font).height()
    img = QImage(px * 4, px * 3, QImage.Format.Format_RGB32)
    img.fill(QColor("white"))
    painter = QPainter(img)
    painter.setFont(font)
    painter.setPen(QColor("black"))
    painter.drawText(QPointF(px, px * 2), text)
    painter.end()
    pixels = np.frombuffer(img.constBits(), np.uint8).reshape(img.height(), img.bytesPerLine())
    shade = pixels[:, : img.width() * 4].reshape(img.height(), img.width(), 4)[:, :, :3].astype(np.int32).sum(axis=2)
    rows = np.flatnonzero((shade < 600).any(axis=1))
    return int(rows[-1] - rows[0] + 1) if len(rows) else 0


@cache
def emoji_scale(pixel_size: int) -> float:
    """How much larger than the text's size an emoji is drawn so that it stands as tall as a CJK
    ideograph at ``pixel_size`` (measured once per size with the installed fonts: Noto Color
    Emoji draws about 12% shorter than Noto Sans CJK at 16 pixels); 1.0 when the fonts draw
    them alike or either is missing, at most 1.3. Needs a QGuiApplication.
    """
    font = QFont()
    font.setPixelSize(pixel_size)
    ideograph, emoji = (_ink_height(font, t) for t in _MEASURED)
    return min(max(ideograph / emoji, 1.0), 1.3) if ideograph and emoji else 1.0


def emoji_font(font: QFont) -> QFont:
    """``font`` enlarged by :func:`emoji_scale`: an emoji drawn alone (a grapheme or a piece in
    its box) with it is as tall as an ideograph drawn with ``font``."""
    px = font.pixelSize() if font.pixelSize() > 0 else round(QFontMetrics(font).height() * 0.85)
    out = QFont(font)
    out.setPixelSize(max(1, round(px * emoji_scale(px))))
    return out


#: Code points a token's tooltip lists at most (:func:`piece_tip`; cl100k has tokens of 128 spaces).
TIP_CODE_POINTS = 24


def shown_piece(piece: str | bytes, *, visible_spaces: bool = False) -> str:
    """A token or vocabulary piece as every view shows it: the one display function of the
    window (``core.text.piece_display``), so two tokens told apart in one pane are told apart
    in all. A piece (``str``) keeps SentencePiece's ``▁`` and a leading WordPiece ``##`` as they
    are and apart from what follows, so U+200D alone is ``<U+200D>`` and ``##`` + U+FE0F is
    ``##<U+FE0F>`` (a ``##`` of another family's piece is treated the same: a mark never sits on
    it); a token's bytes (``bytes``) are shown with bytes that are no whole character as
    ``\\xNN``. Look-alikes are written ``<U+XXXX>`` in both (``│``, ``’``, a no-break space, a
    Cyrillic ``а`` among ASCII letters). ``visible_spaces``: U+0020 as ``␣``."""
    return piece_display(piece, prefix="##", visible_spaces=visible_spaces, control_pictures=theme.control_pictures())


def shown_parts(piece: str | bytes) -> tuple[DisplayPart, ...]:
    """:func:`shown_piece` in runs (``core.text.piece_parts``), for a view that styles escapes."""
    return piece_parts(piece, prefix="##", control_pictures=theme.control_pictures())


def _plain_ascii(piece: str | bytes) -> bool:
    """True for printable ASCII that :func:`shown_piece` leaves as it is (a ``str`` of underscores
    and markers only is not: its underscores are written ``<U+005F>``)."""
    text = piece.decode("latin-1") if isinstance(piece, bytes) else piece
    return text.isascii() and text.isprintable() and (isinstance(piece, bytes) or "_" not in text)


def piece_tip(piece: str | bytes, *, when_escaped: bool = False) -> str:
    """Every code point of a token or piece, one a line (``core.text.code_point_list``, at most
    :data:`TIP_CODE_POINTS`): what tells ``▁|`` from ``▁│`` whatever the font. With
    ``when_escaped`` (a tooltip that says more, a token's), ``""`` unless :func:`shown_piece`
    writes one of its code points ``<U+XXXX>`` (a look-alike, an invisible one)."""
    if when_escaped and (_plain_ascii(piece) or all(p.kind != "control" for p in shown_parts(piece))):
        return ""
    return code_point_list(piece, limit=TIP_CODE_POINTS)


def visible_char(ch: str, font: QFont | None = None) -> str:
    """A glyph that shows an invisible code point without a missing-glyph box.

    Args:
        ch: one code point.
        font: the font that will draw it; glyphs it lacks
            (``QFontMetrics.inFontUcs4``) are replaced by short names.

    Returns:
        ``"↵"`` for LF, ``"→"`` for TAB, ``"␣"`` for a space (when the font has
        them, else ``"LF"``, ``"TAB"``, ``"SP"``); ``"CR"``, ``"NUL"``, ``"ZWJ"``,
        ``"BOM"``... for the common controls and format characters; a surrogate
        (raw-bytes mode) as ``"\\xNN"``; other invisible code points (variation
        selectors, bidi controls, private use, unassigned, other spaces) as
        ``"<U+FE0F>"`` and a combining mark on ``◌``, as in token displays
        (:func:`~tokexplorer.core.text.char_notation`); anything else as itself.
    """
    o = ord(ch)
    fm = QFontMetrics(font) if font is not None else None
    if o in _PREFERRED:
        g = _PREFERRED[o]
        if fm is None or fm.inFontUcs4(ord(g)):
            return g
        return _ABBREV.get(o, "SP")
    if 0xDC80 <= o <= 0xDCFF:
        return f"\\x{o - 0xDC00:02X}"
    if o in _ABBREV:
        return _ABBREV[o]
    if unicodedata2.category(ch) == "Zs":
        return f"<U+{o:04X}>"  # a space other than U+0020 (no-break, em, ideographic...)
    # the one escape rule of every token display: <U+FE0F>, <U+202E>, <U+E000>, ◌́
    return char_notation(ch)


@lru_cache(maxsize=4096)  # every paint asks again for each cluster it draws
def grapheme_text(cluster: str) -> str | None:
    """What the graphemes track draws for ``cluster`` when it starts with a visible character: the
    one escape rule (``core.text.span_display``), so an emoji's joiners and tags are kept and it
    renders as one glyph (🏳️‍🌈) while a joiner that joins nothing (``a`` + ZWJ) is ``<U+200D>``;
    None for a cluster of a control, space or raw byte (drawn code point by code point)."""
    if not cluster or unicodedata2.category(cluster[0])[0] in "CZ" or 0xDC80 <= ord(cluster[0]) <= 0xDCFF:
        return None
    return span_display(cluster, 0, len(cluster), control_pictures=theme.control_pictures())
