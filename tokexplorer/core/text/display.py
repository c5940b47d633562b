"""Rendering token bytes for display: readable text, control glyphs, GPT-2 visible bytes (a
token or piece as every view shows it, look-alikes spelled out: :mod:`tokexplorer.core.text.pieces`).

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
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import regex

from tokexplorer.core.errors import InputError
from tokexplorer.core.text.graphemes import grapheme_spans
from tokexplorer.core.text.lookalikes import is_lookalike, letter_lookalikes

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


#: Code points that are invisible or unreliable on their own, written
#: ``<U+XXXX>`` (the one escape rule, :func:`char_notation`): controls, format
#: characters (ZWJ/ZWNJ, bidi controls, U+FEFF, soft hyphen, tags), private use,
#: unassigned code points and surrogates, the line and paragraph separators, and
#: the default-ignorable code points (variation selectors, U+034F, U+3164...).
#: Categories come from the ``regex`` module's Unicode database, which is newer
#: than Python's ``unicodedata`` (so a recent emoji is not "unassigned").
_INVISIBLE = regex.compile(r"[\p{Cc}\p{Cf}\p{Co}\p{Cn}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]")
_MARK = regex.compile(r"\p{M}")
#: A dotted circle: the base a combining mark is shown on when it has none.
DOTTED_CIRCLE = "\u25cc"


def is_invisible(ch: str) -> bool:
    """True for a code point written ``<U+XXXX>`` when shown on its own (see
    :func:`char_notation`).

    >>> [is_invisible(c) for c in ("a", "\\u200d", "\\ufe0f", "\\ue000", "\\u0378", "\\u0301")]
    [False, True, True, True, True, False]
    """
    return ch != " " and _INVISIBLE.match(ch) is not None


def is_mark(ch: str) -> bool:
    """True for a combining mark (categories Mn, Mc, Me), variation selectors included.

    >>> is_mark("\\u0301"), is_mark("\\ufe0f"), is_mark("e")
    (True, True, False)
    """
    return _MARK.match(ch) is not None


def char_notation(ch: str, *, control_pictures: bool = True) -> str:
    """How one code point is written when it stands alone: the one escape rule of
    every token display, tooltip and table.

    C0 controls and DEL get their glyph (:func:`control_glyph`); the invisible
    code points of :func:`is_invisible` (variation selectors, ZWJ/ZWNJ, bidi
    controls and other format characters, private use, unassigned, surrogates,
    U+2028/U+2029, C1 controls) are written ``<U+XXXX>``; a combining mark
    without its base sits on a dotted circle (``◌́``); anything else is itself.

    >>> [char_notation(c) for c in ("a", "\\t", "\\ufe0f", "\\u202e", "\\u0301", "\\U000f0000")]
    ['a', '␉', '<U+FE0F>', '<U+202E>', '◌́', '<U+F0000>']
    """
    cp = ord(ch)
    if cp < 0x20 or cp == 0x7F:
        return control_glyph(cp, control_pictures=control_pictures)
    if is_invisible(ch):
        return f"<U+{cp:04X}>"
    if is_mark(ch):
        return DOTTED_CIRCLE + ch
    return ch


def label_glyph(ch: str) -> str:
    """How one code point is written inside a label: itself when visible, a
    combining mark on a dotted circle, ``""`` for an invisible one (controls,
    format characters, separators other than the space, see :func:`is_invisible`).

    >>> label_glyph("a"), label_glyph("\\u0301"), label_glyph("\\u200d")
    ('a', '◌́', '')
    """
    if is_invisible(ch) or (unicodedata.category(ch)[0] == "Z" and ch != " "):
        return ""
    if is_mark(ch):
        return DOTTED_CIRCLE + ch
    return ch


@dataclass(frozen=True, slots=True)
class DisplayPart:
    """One run of a token's display (lets a view style escapes differently).

    Attributes:
        kind: ``"text"`` (characters shown as themselves), ``"control"`` (a
            control or invisible character shown as a picture or ``<U+XXXX>``,
            or a combining mark without its base shown on ``◌``) or ``"byte"``
            (a byte that is not a whole UTF-8 character, shown as ``\\xNN``).
        text: what to show.
        data: the bytes this part stands for.
    """

    kind: Literal["text", "control", "byte"]
    text: str
    data: bytes


#: The emoji tag characters (U+E0020–U+E007E) and the cancel tag that ends a tag sequence (U+E007F).
_TAGS = range(0xE0020, 0xE0080)
_CANCEL_TAG = "\U000e007f"


def kept_inside(text: str) -> set[int]:
    """The indices of the invisible code points of ``text`` that are drawn as themselves because
    they hold a grapheme cluster together (``regex`` ``\\X``) that ``text`` holds whole: a ZWJ
    with a visible base before it in its cluster and more of the cluster after it (an emoji
    ZWJ sequence 🏳️‍🌈, even after a variation selector; a conjunct क्‍ष; a ZWJ after a virama
    before a letter, ශ්‍රී, though ``\\X`` cuts the cluster there), and the tags of a
    complete emoji tag sequence (🏴 + tags + U+E007F, the flag of England). A ZWJ that joins
    nothing (``a`` + ZWJ + ``b``: two clusters) or ends the text (a token cut after it), and the
    tags of a sequence cut short, are not kept: they are escaped as ``<U+200D>``.

    >>> flag = "\U0001f3f3\ufe0f\u200d\U0001f308"
    >>> sorted(kept_inside(flag)), kept_inside("a\u200db"), kept_inside(flag[2:]), kept_inside(flag[:3])
    ([2], set(), set(), set())
    """
    kept: set[int] = set()
    if "\u200d" not in text and (not text or max(text) < "\U000e0020"):
        return kept  # no joiner, no tag: nothing to look at (most tokens)
    for cluster, start, end in grapheme_spans(text):
        if len(cluster) < 2 or label_glyph(cluster[0]) == "":
            continue
        tagged = cluster.endswith(_CANCEL_TAG)
        for k, ch in enumerate(cluster[1:], 1):
            if ch == "\u200d" and (k < len(cluster) - 1 or _virama_join(text, start + k, end)):
                kept.add(start + k)
            elif tagged and ord(ch) in _TAGS:
                kept.add(start + k)
    return kept


def _virama_join(text: str, i: int, end: int) -> bool:
    """True when the ZWJ ending a cluster at ``text[i]`` follows a virama and a letter follows
    it: a Brahmic half form or ligature (Sinhala ශ්‍රී), which ``\\X`` keeps as two clusters
    outside the scripts of its conjunct rule (GB9c)."""
    return end < len(text) and unicodedata.combining(text[i - 1]) == 9 and text[end].isalpha()


def token_parts(
    token_bytes: bytes, *, visible_spaces: bool = False, control_pictures: bool = True, lookalikes: bool = False
) -> tuple[DisplayPart, ...]:
    """Split a token's bytes into displayable parts (see :func:`token_display`).

    Args:
        token_bytes: any bytes (need not be valid UTF-8).
        visible_spaces: show U+0020 as ``␣``.
        control_pictures: show C0 controls and DEL as Control Pictures (True)
            or as :data:`PLAIN_CONTROL_GLYPHS` (False).
        lookalikes: write each look-alike (:func:`~tokexplorer.core.text.lookalikes.is_lookalike`, and the letters
            of :func:`~tokexplorer.core.text.lookalikes.letter_lookalikes`) as ``<U+XXXX>`` too (a ``"control"``
            part), as tokens and pieces are shown (:func:`~tokexplorer.core.text.pieces.piece_parts`).

    Returns:
        tuple of :class:`DisplayPart` whose ``data`` concatenate to ``token_bytes``.

    >>> [(p.kind, p.text) for p in token_parts(b"ab\\t\\xff")]
    [('text', 'ab'), ('control', '␉'), ('byte', '\\\\xFF')]
    >>> [(p.kind, p.text) for p in token_parts(b"\\x80" + "\\ufe0f".encode())]
    [('byte', '\\\\x80'), ('control', '<U+FE0F>')]
    """
    text = bytes(token_bytes).decode("utf-8", "surrogateescape")
    letters = set(letter_lookalikes(text)) if lookalikes else None
    return _text_parts(text, kept_inside(text), anchored=False, visible_spaces=visible_spaces,
                       control_pictures=control_pictures, lookalikes=letters)  # fmt: skip


def _text_parts(
    text: str,
    inside: set[int],
    *,
    anchored: bool,
    visible_spaces: bool,
    control_pictures: bool,
    lookalikes: set[int] | None = None,
) -> tuple[DisplayPart, ...]:
    """:func:`token_parts` of ``text`` (bytes that are no character as surrogates U+DC80–U+DCFF),
    keeping the code points at ``inside`` (:func:`kept_inside`); ``anchored``: a visible
    character a mark can sit on comes right before ``text``; ``lookalikes``: None, or write the
    look-alikes as ``<U+XXXX>``: those of :func:`is_lookalike` and the letters at these indices
    (:func:`letter_lookalikes`)."""
    parts: list[DisplayPart] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            s = "".join(run)
            parts.append(DisplayPart("text", s, s.encode("utf-8")))
            run.clear()

    def escape(kind: Literal["control", "byte"], shown: str, data: bytes) -> None:
        flush()
        parts.append(DisplayPart(kind, shown, data))

    for i, ch in enumerate(text):
        cp = ord(ch)
        if cp < 0x80:
            if cp < 0x20 or cp == 0x7F:
                escape("control", control_glyph(cp, control_pictures=control_pictures), ch.encode())
            elif ch == " " and visible_spaces:
                escape("control", VISIBLE_SPACE, b" ")
            else:
                run.append(ch)
            anchored = ch != " " and run != []
        elif 0xDC80 <= cp <= 0xDCFF:
            escape("byte", f"\\x{cp - 0xDC00:02X}", bytes([cp - 0xDC00]))
            anchored = False
        elif i in inside:
            run.append(ch)  # a joiner or tag inside a whole emoji sequence or conjunct: kept so it renders
        elif anchored and is_mark(ch):
            run.append(ch)  # a combining mark or variation selector on its base
        elif is_invisible(ch) or is_mark(ch):
            escape("control", char_notation(ch), ch.encode("utf-8", "surrogatepass"))
            anchored = False
        elif lookalikes is not None and (i in lookalikes or is_lookalike(ch)):
            escape("control", f"<U+{cp:04X}>", ch.encode("utf-8"))
            anchored = False  # a mark after it would sit on the ">" of the notation
        else:
            run.append(ch)
            anchored = unicodedata.category(ch)[0] != "Z"
    flush()
    return tuple(parts)


def span_display(
    text: str, start: int, end: int, *, visible_spaces: bool = False, control_pictures: bool = True,
    lookalikes: bool = False,
) -> str:
    """``text[start:end]`` (code point offsets) shown by the rule of :func:`token_display`, its
    grapheme clusters judged in the whole ``text``: a span of a longer text shown beside the
    rest (the normalizer view's unchanged runs) keeps a ZWJ of an emoji sequence it shares with
    its neighbours and a mark whose base comes just before it, where a token on its own would
    escape them.

    >>> flag = "\U0001f3f3\ufe0f\u200d\U0001f308"
    >>> span_display(flag, 2, 4), token_display(flag[2:].encode()), span_display("a\u200db", 0, 3)
    ('\u200d🌈', '<U+200D>🌈', 'a<U+200D>b')
    """
    return spans_display(text, [(start, end)], visible_spaces=visible_spaces, control_pictures=control_pictures,
                         lookalikes=lookalikes)[0]  # fmt: skip


def spans_display(
    text: str, spans: Sequence[tuple[int, int]], *, visible_spaces: bool = False, control_pictures: bool = True,
    lookalikes: bool = False,
) -> list[str]:
    """:func:`span_display` of each ``(start, end)`` of ``spans`` (code point offsets), the
    clusters of ``text`` found once for all of them (many runs of a long text: one pass).

    >>> spans_display("a\u200db \U0001f3f3\ufe0f\u200d\U0001f308", [(0, 3), (6, 8)])
    ['a<U+200D>b', '\u200d🌈']
    """
    kept = sorted(kept_inside(text))
    out = []
    for start, end in spans:
        inside = {i - start for i in kept[bisect_left(kept, start) : bisect_left(kept, end)]}
        before = text[start - 1] if 0 < start <= len(text) else " "
        anchored = before != " " and label_glyph(before) != "" and unicodedata.category(before)[0] != "Z"
        parts = _text_parts(text[start:end], inside, anchored=anchored, visible_spaces=visible_spaces,
                            control_pictures=control_pictures, lookalikes=set() if lookalikes else None)  # fmt: skip
        out.append("".join(p.text for p in parts))
    return out


def emitted_display(text: str, *, control_pictures: bool = True) -> str:
    """Decoded text as every view shows what a decoder emits: by the rule of
    :func:`token_display` on the whole text (a character's marks and joiners judged in it),
    spaces as ``␣``, look-alikes (a no-break space, ``’``) as ``<U+XXXX>``, so that an emitted
    space or control is never a blank.

    >>> emitted_display(" "), emitted_display("a\\u00a0b\\n", control_pictures=False)
    ('␣', 'a<U+00A0>b↵')
    """
    return span_display(text, 0, len(text), visible_spaces=True, control_pictures=control_pictures, lookalikes=True)


def token_display(
    token_bytes: bytes, *, visible_spaces: bool = False, control_pictures: bool = True, lookalikes: bool = False
) -> str:
    """Readable text for a token's bytes, without ever inventing U+FFFD.

    Valid UTF-8 characters are shown as themselves; bytes that are not a whole
    character (a partial token, invalid bytes) as ``\\xNN`` (upper-case hex);
    C0 controls and DEL as Control Pictures (``\\x00`` → ``␀``, ``\\t`` → ``␉``,
    ``\\r\\n`` → ``␍␊``), or with ``control_pictures=False`` as the stand-ins of
    :data:`PLAIN_CONTROL_GLYPHS` (``\\t`` → ``→``, ``\\n`` → ``↵``, ``\\x00`` →
    ``<U+0000>``); invisible code points (:func:`is_invisible`: variation
    selectors, ZWJ/ZWNJ, bidi controls and other format characters, C1 controls,
    private use, unassigned) as ``<U+FEFF>``, and a combining mark or variation
    selector with no visible character before it in the token as ``◌́`` or
    ``<U+FE0F>`` (:func:`char_notation`). A ZWJ between two visible characters
    (an emoji sequence) and a mark on its base are kept, so they render. A real
    U+FFFD in the bytes (``EF BF BD``) is shown as ``�``. Literal backslashes are
    not escaped; use :func:`token_parts` to tell an escape from text.

    Args:
        token_bytes: the token's bytes.
        visible_spaces: show U+0020 as ``␣``.
        control_pictures: see above (the GUI passes False when no installed
            font has the Control Pictures).
        lookalikes: write look-alikes as ``<U+XXXX>`` too (:func:`token_parts`).

    Returns:
        str for display only (it is not the decoded text).

    >>> token_display(b" \\xcf")
    ' \\\\xCF'
    >>> token_display(b"ab\\x00cd\\r\\n")
    'ab␀cd␍␊'
    >>> token_display(b"a b\\x00", visible_spaces=True, control_pictures=False)
    'a␣b<U+0000>'
    >>> token_display("\\ufe0f".encode()), token_display("\\u2764\\ufe0f".encode()), token_display(b"\\xcc\\x81")
    ('<U+FE0F>', '❤️', '◌́')
    """
    parts = token_parts(token_bytes, visible_spaces=visible_spaces, control_pictures=control_pictures,
                        lookalikes=lookalikes)  # fmt: skip
    return "".join(p.text for p in parts)


def bytes_spelling(data: bytes) -> str:
    """The spelling of a token of a family whose vocabulary is bytes (tiktoken,
    the byte-level BPE trained here): the bytes as a Python bytes literal, as
    tiktoken's ``decode_single_token_bytes`` gives them (printable ASCII as
    itself, every other byte as ``\\xNN``).

    >>> print(bytes_spelling(" \\u4f60".encode()), bytes_spelling(b"ok"))
    b' \\xe4\\xbd\\xa0' b'ok'
    """
    return repr(bytes(data))


#: SentencePiece's space marker (U+2581 LOWER ONE EIGHTH BLOCK) in its pieces.
SPACE_MARKER = "\u2581"


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
        raise InputError(f"character U+{ord(ch):04X} is not in GPT-2's visible-byte table") from None
