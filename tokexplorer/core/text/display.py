"""Rendering token bytes for display: readable text, control glyphs, GPT-2 visible bytes.

:func:`token_display` (and :func:`token_parts`, the same split into runs) shows
token bytes readably without ever inventing U+FFFD: whole characters as
themselves, bytes that are no whole character as ``\\xNN``, controls as glyphs.
How C0 controls and DEL look is the caller's choice, an explicit keyword:
``control_pictures=True`` (the default) gives the Unicode Control Pictures
(``␊``, ``␉``), ``False`` the stand-ins of :data:`PLAIN_CONTROL_GLYPHS` for a
display whose fonts lack them. :data:`GPT2_BYTE_TO_UNICODE` is GPT-2's
visible-byte table.

>>> token_display(b"a\\n\\xf0"), token_display(b"a\\n\\xf0", control_pictures=False)
('a␊\\\\xF0', 'a↵\\\\xF0')
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Literal

from tokexplorer.core.errors import InputError

#: Glyph shown for each C0 control and DEL: the Unicode "Control Pictures"
#: block (U+2400–U+2421), e.g. NUL → ␀, TAB → ␉, LF → ␊, CR → ␍.
CONTROL_PICTURES: dict[int, str] = {c: chr(0x2400 + c) for c in range(0x20)} | {0x7F: "\u2421"}

#: Stand-ins for the Control Pictures on a display whose fonts have none of
#: them (many Linux desktops: DejaVu and Noto lack U+2400–U+2421): TAB → →,
#: LF → ↵, CR → ←, the other C0 controls and DEL as ``<U+XXXX>``.
PLAIN_CONTROL_GLYPHS: dict[int, str] = {c: f"<U+{c:04X}>" for c in CONTROL_PICTURES} | {
    0x09: "\u2192",
    0x0A: "\u21b5",
    0x0D: "\u2190",
}

#: Glyph used for a space when ``visible_spaces=True`` (U+2423 OPEN BOX).
VISIBLE_SPACE = "\u2423"


def control_glyph(cp: int, *, control_pictures: bool = True) -> str:
    """The glyph shown for C0 control or DEL ``cp``.

    Args:
        cp: U+0000–U+001F or U+007F.
        control_pictures: True: its Control Picture (:data:`CONTROL_PICTURES`);
            False: its stand-in (:data:`PLAIN_CONTROL_GLYPHS`).

    Raises:
        KeyError: ``cp`` is not a C0 control or DEL.

    >>> control_glyph(0x0D), control_glyph(0x0D, control_pictures=False)
    ('␍', '←')
    """
    return (CONTROL_PICTURES if control_pictures else PLAIN_CONTROL_GLYPHS)[cp]


def label_glyph(ch: str) -> str:
    """How one code point is written inside a label: itself when visible, a
    combining mark on a dotted circle, ``""`` for an invisible one (controls,
    format characters, separators other than the space).

    >>> label_glyph("a"), label_glyph("\\u0301"), label_glyph("\\u200d")
    ('a', '◌́', '')
    """
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me"):
        return "\u25cc" + ch  # combining mark on a dotted circle
    if cat[0] in "CZ" and ch != " ":
        return ""
    return ch


@dataclass(frozen=True, slots=True)
class DisplayPart:
    """One run of a token's display (lets a view style escapes differently).

    Attributes:
        kind: ``"text"`` (characters shown as themselves), ``"control"`` (a
            control or invisible character shown as a picture or ``<U+XXXX>``)
            or ``"byte"`` (a byte that is not a whole UTF-8 character, shown as
            ``\\xNN``).
        text: what to show.
        data: the bytes this part stands for.
    """

    kind: Literal["text", "control", "byte"]
    text: str
    data: bytes


def token_parts(
    token_bytes: bytes, *, visible_spaces: bool = False, control_pictures: bool = True
) -> tuple[DisplayPart, ...]:
    """Split a token's bytes into displayable parts (see :func:`token_display`).

    Args:
        token_bytes: any bytes (need not be valid UTF-8).
        visible_spaces: show U+0020 as ``␣``.
        control_pictures: show C0 controls and DEL as Control Pictures (True)
            or as :data:`PLAIN_CONTROL_GLYPHS` (False).

    Returns:
        tuple of :class:`DisplayPart` whose ``data`` concatenate to ``token_bytes``.

    >>> [(p.kind, p.text) for p in token_parts(b"ab\\t\\xff")]
    [('text', 'ab'), ('control', '␉'), ('byte', '\\\\xFF')]
    """
    glyphs = CONTROL_PICTURES if control_pictures else PLAIN_CONTROL_GLYPHS
    text = bytes(token_bytes).decode("utf-8", "surrogateescape")
    parts: list[DisplayPart] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            s = "".join(run)
            parts.append(DisplayPart("text", s, s.encode("utf-8")))
            run.clear()

    for i, ch in enumerate(text):
        cp = ord(ch)
        if cp == 0x200D and 0 < i < len(text) - 1 and label_glyph(text[i - 1]) and label_glyph(text[i + 1]):
            run.append(ch)  # a joiner inside an emoji or conjunct: keep it so it renders
        elif 0xDC80 <= cp <= 0xDCFF:
            flush()
            parts.append(DisplayPart("byte", f"\\x{cp - 0xDC00:02X}", bytes([cp - 0xDC00])))
        elif cp in glyphs:
            flush()
            parts.append(DisplayPart("control", glyphs[cp], ch.encode("utf-8")))
        elif ch == " " and visible_spaces:
            flush()
            parts.append(DisplayPart("control", VISIBLE_SPACE, b" "))
        elif 0x80 <= cp <= 0x9F or unicodedata.category(ch) == "Cf":
            # C1 controls and format characters (U+FEFF, bidi controls, a ZWJ
            # at a token edge...) are invisible on their own.
            flush()
            parts.append(DisplayPart("control", f"<U+{cp:04X}>", ch.encode("utf-8")))
        else:
            run.append(ch)
    flush()
    return tuple(parts)


def token_display(token_bytes: bytes, *, visible_spaces: bool = False, control_pictures: bool = True) -> str:
    """Readable text for a token's bytes, without ever inventing U+FFFD.

    Valid UTF-8 characters are shown as themselves; bytes that are not a whole
    character (a partial token, invalid bytes) as ``\\xNN`` (upper-case hex);
    C0 controls and DEL as Control Pictures (``\\x00`` → ``␀``, ``\\t`` → ``␉``,
    ``\\r\\n`` → ``␍␊``), or with ``control_pictures=False`` as the stand-ins of
    :data:`PLAIN_CONTROL_GLYPHS` (``\\t`` → ``→``, ``\\n`` → ``↵``, ``\\x00`` →
    ``<U+0000>``); C1 controls and invisible format characters as
    ``<U+FEFF>``. A real U+FFFD in the bytes (``EF BF BD``) is shown as ``�``.
    Literal backslashes are not escaped; use :func:`token_parts` to tell an
    escape from text.

    Args:
        token_bytes: the token's bytes.
        visible_spaces: show U+0020 as ``␣``.
        control_pictures: see above (the GUI passes False when no installed
            font has the Control Pictures).

    Returns:
        str for display only (it is not the decoded text).

    >>> token_display(b" \\xcf")
    ' \\\\xCF'
    >>> token_display(b"ab\\x00cd\\r\\n")
    'ab␀cd␍␊'
    >>> token_display(b"a b\\x00", visible_spaces=True, control_pictures=False)
    'a␣b<U+0000>'
    """
    parts = token_parts(token_bytes, visible_spaces=visible_spaces, control_pictures=control_pictures)
    return "".join(p.text for p in parts)


# ---------------------------------------------------------------------------
# GPT-2 visible bytes
# ---------------------------------------------------------------------------


def _gpt2_table() -> dict[int, str]:
    """GPT-2's byte → visible character table.

    Idea from ``bytes_to_unicode`` in OpenAI's GPT-2 ``encoder.py``: bytes that
    are printable Latin-1 characters (``!``–``~``, ``¡``–``¬``, ``®``–``ÿ``) stand
    for themselves; the other 68 bytes, in increasing order, take U+0100,
    U+0101, ... so every byte has a visible, non-space character.
    """
    keep = set(range(0x21, 0x7F)) | set(range(0xA1, 0xAD)) | set(range(0xAE, 0x100))
    table: dict[int, str] = {}
    extra = 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


#: GPT-2 visible-byte table: byte value (0–255) → one printable character
#: (``0x20`` → ``'Ġ'``, ``0x0A`` → ``'Ċ'``, ``0xAD`` → ``'Ń'``).
GPT2_BYTE_TO_UNICODE: dict[int, str] = _gpt2_table()

#: Inverse of :data:`GPT2_BYTE_TO_UNICODE`: character → byte value.
GPT2_UNICODE_TO_BYTE: dict[str, int] = {c: b for b, c in GPT2_BYTE_TO_UNICODE.items()}


def to_gpt2_visible(data: bytes) -> str:
    """Spell bytes with GPT-2's visible-byte characters (one character per byte).

    >>> to_gpt2_visible("正".encode("utf-8"))
    'æŃ£'
    """
    return "".join(GPT2_BYTE_TO_UNICODE[b] for b in data)


def from_gpt2_visible(s: str) -> bytes:
    """Bytes spelled by a GPT-2 visible-byte string (inverse of :func:`to_gpt2_visible`).

    Raises:
        InputError: ``s`` holds a character outside the table.

    >>> from_gpt2_visible("ä½ł").decode("utf-8")
    '你'
    """
    try:
        return bytes(GPT2_UNICODE_TO_BYTE[c] for c in s)
    except KeyError as exc:
        ch = exc.args[0]
        raise InputError(
            f"character U+{ord(ch):04X} is not in GPT-2's visible-byte table"
        ) from None
