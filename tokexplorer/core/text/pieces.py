"""A token or vocabulary piece as every view shows it: :func:`piece_parts` and
:func:`piece_display`, the one rule of the merge table, the merge trees, the replays, the
Compare tab's tokens drawn one by one, the byte inspector's spellings and the WordPiece and
Unigram tables, so two different tokens never look the same in one pane and alike in another.
"""

from __future__ import annotations

import regex

from tokexplorer.core.text.display import SPACE_MARKER, VISIBLE_SPACE, DisplayPart, token_parts
from tokexplorer.core.text.lookalikes import is_lookalike, letter_lookalikes

_MARK = regex.compile(r"\p{M}")
_UNDERSCORE = DisplayPart("control", "<U+005F>", b"_")
_MARKER = DisplayPart("text", SPACE_MARKER, SPACE_MARKER.encode())


def piece_parts(
    piece: str | bytes, *, prefix: str = "", visible_spaces: bool = False, control_pictures: bool = True
) -> tuple[DisplayPart, ...]:
    """How a token or vocabulary piece is shown, in runs (:func:`piece_display` is their text).

    The escape rule of :func:`~tokexplorer.core.text.display.token_parts` with its markers kept as
    themselves and apart from the rest: a leading ``prefix`` (WordPiece's continuing-subword
    prefix ``"##"``) and, in a piece (a ``str``: how a vocabulary spells it), every ``▁``
    (SentencePiece's space marker). A token's bytes hold no marker: a ``▁`` there is the
    character of the text, a look-alike of ``_`` written ``<U+2581>``. A variation selector, joiner
    or combining mark right after a marker has no base there, so it is escaped instead of being
    drawn on the marker (``##`` + U+FE0F would draw an emoji-style ``#``, ``##`` + U+20E3 a keycap).

    Tokens of different code points must look different, so a look-alike is written
    ``<U+XXXX>`` (:func:`~tokexplorer.core.text.lookalikes.is_lookalike`: ``│`` beside ``|``,
    ``’`` beside ``'``, a no-break space; and a letter of another script in a run that reads as
    ASCII, :func:`~tokexplorer.core.text.lookalikes.letter_lookalikes`: a Cyrillic ``а``), and
    in a piece made only of underscores and markers each underscore is ``<U+005F>`` (``_`` and
    the marker ``▁`` look the same; an underscore among letters, ``__init__``, stays as it is).
    :func:`~tokexplorer.core.text.lookalikes.code_point_list` spells out every code point (a tooltip).

    Args:
        piece: the piece as the vocabulary spells it (any code points, lone surrogates
            included), or a token's bytes (any bytes: one that is no whole character is ``\\xNN``).
        prefix: the marker that opens a piece continuing a word (``""``: none; a token's
            bytes have none).
        visible_spaces: show U+0020 as ``␣``.
        control_pictures: see :func:`~tokexplorer.core.text.display.token_display`.

    Returns:
        tuple of :class:`~tokexplorer.core.text.display.DisplayPart` (``"control"``: an escape).

    >>> [(p.kind, p.text) for p in piece_parts("\u2581\u2502a")]
    [('text', '▁'), ('control', '<U+2502>'), ('text', 'a')]
    >>> [p.text for p in piece_parts(b"_") + piece_parts(b"\\xe2\\x96\\x81")]
    ['_', '<U+2581>']
    """
    raw = isinstance(piece, (bytes, bytearray))
    text = bytes(piece).decode("utf-8", "surrogateescape") if raw else piece
    errors = "surrogateescape" if raw else "surrogatepass"
    head = prefix if not raw and prefix and len(text) > len(prefix) and text.startswith(prefix) else ""
    body = text[len(head) :]
    underscores_only = not raw and "_" in body and set(body) <= {"_", SPACE_MARKER}
    parts = [DisplayPart("text", head, head.encode())] if head else []
    for k, run in enumerate([body] if raw else body.split(SPACE_MARKER)):
        if k:
            parts.append(_MARKER)
        if underscores_only:
            parts.extend(_UNDERSCORE for _ in run)
        else:
            parts.extend(token_parts(run.encode("utf-8", errors), visible_spaces=visible_spaces,
                                     control_pictures=control_pictures, lookalikes=True))  # fmt: skip
    return tuple(parts)


def _as_is(data: bytes) -> str | None:
    """The text of token bytes :func:`piece_parts` shows as they are (whole printable characters,
    no mark, no look-alike), or None: the fast path of :func:`piece_display` (most tokens)."""
    if data.isascii():
        text = data.decode("ascii")
        return text if text.isprintable() else None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not text.isprintable() or _MARK.search(text) or any(map(is_lookalike, text)) or letter_lookalikes(text):
        return None
    return text


def piece_display(
    piece: str | bytes, *, prefix: str = "", visible_spaces: bool = False, control_pictures: bool = True
) -> str:
    """The text of :func:`piece_parts` (the same arguments): a token or piece as shown.

    >>> piece_display("##\ufe0f", prefix="##"), piece_display("##\u20e3", prefix="##")
    ('##<U+FE0F>', '##◌⃣')
    >>> piece_display("\u200d"), piece_display("\u2581\u0301"), piece_display("##")
    ('<U+200D>', '▁◌́', '##')
    >>> [piece_display(p) for p in ("\u2581|", "\u2581\u2502", "\u2581", "_", "\u2581__init__", "\u2019s")]
    ['▁|', '▁<U+2502>', '▁', '<U+005F>', '▁__init__', '<U+2019>s']
    >>> [piece_display(p) for p in ("\u2581\u0430", " \u0430", "\u00a0", "\u200b", "\u0441\u043b\u043e\u0432\u043e")]
    ['▁<U+0430>', ' <U+0430>', '<U+00A0>', '<U+200B>', 'слово']
    >>> piece_display(" \\xe4\\xbd".encode("latin-1"), visible_spaces=True)
    '␣\\\\xE4\\\\xBD'
    """
    if isinstance(piece, bytes) and (text := _as_is(piece)) is not None:
        return text.replace(" ", VISIBLE_SPACE) if visible_spaces else text  # most tokens: nothing to escape
    parts = piece_parts(piece, prefix=prefix, visible_spaces=visible_spaces, control_pictures=control_pictures)
    return "".join(p.text for p in parts)
