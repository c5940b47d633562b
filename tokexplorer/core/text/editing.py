"""Editing a text byte for byte in a widget that cannot hold every character.

A text editor's document changes some characters: Qt's ``QTextDocument`` turns
CR, CRLF and U+2029 into its own paragraph break (read back as LF), shows U+2028
as a line break no one can tell from LF, and drops U+FDD0, U+FDD1 and lone
surrogates. An editor that wants the user's exact text keeps the real text next
to the widget and shows, for each such character, one visible glyph
(:data:`EDITOR_GLYPHS`): the widget's text (:func:`editor_text`) has exactly one
code point per code point of the real text, so an edit of the widget's text is
mapped back onto the real text by position (:func:`apply_edit`): characters the
edit did not touch keep their real value, a CRLF stays a CRLF, and what was
typed is taken as typed.

:func:`line_ending_counts` and :func:`normalize_line_endings` serve an explicit
"keep as is / normalize to LF" choice.

>>> real = "a\\r\\nb"
>>> shown = editor_text(real)
>>> shown
'a␍\\nb'
>>> apply_edit(real, shown, "a␍\\nbc")
'a\\r\\nbc'
"""

from __future__ import annotations

#: What an editor shows for each character its document cannot hold (or would
#: show as a line break): one code point each, so positions map 1:1.
#: CR ``␍`` (or ``←`` without Control Pictures, see :func:`editor_text`), U+2028
#: LINE SEPARATOR ``↲``, U+2029 PARAGRAPH SEPARATOR ``¶``, the noncharacters
#: U+FDD0/U+FDD1 (Qt's frame markers) ``◇``, and a lone surrogate ``◆``.
EDITOR_GLYPHS: dict[str, str] = {
    "\r": "\u240d",
    "\u2028": "\u21b2",
    "\u2029": "\u00b6",
    "\ufdd0": "\u25c7",
    "\ufdd1": "\u25c7",
}

_PLAIN_CR = "\u2190"  # ← when the fonts lack the Control Pictures
_SURROGATE_GLYPH = "\u25c6"
_SUBSTITUTED = frozenset(EDITOR_GLYPHS)


def _needs_glyph(ch: str) -> bool:
    return ch in _SUBSTITUTED or "\ud800" <= ch <= "\udfff"


def editor_text(real: str, *, control_pictures: bool = True) -> str:
    """The text an editor widget shows for ``real``: the same code points, except
    that each character the widget cannot hold is replaced by its glyph from
    :data:`EDITOR_GLYPHS` (``len(editor_text(s)) == len(s)``).

    Args:
        real: the user's text.
        control_pictures: CR as ``␍`` (True) or ``←`` (False, for fonts without
            the Control Pictures).

    >>> editor_text("x\\ry\\u2028z\\u2029"), editor_text("a\\r\\n", control_pictures=False)
    ('x␍y↲z¶', 'a←\\n')
    """
    if not any(_needs_glyph(ch) for ch in _fast_candidates(real)):
        return real
    cr = EDITOR_GLYPHS["\r"] if control_pictures else _PLAIN_CR
    return "".join(
        (cr if ch == "\r" else EDITOR_GLYPHS.get(ch, _SURROGATE_GLYPH)) if _needs_glyph(ch) else ch for ch in real
    )


def _fast_candidates(text: str) -> str:
    """``text`` when it may hold a character that needs a glyph, else ``""``
    (a C-speed check, so that most texts skip the per-character pass)."""
    if "\r" in text or "\u2028" in text or "\u2029" in text or "\ufdd0" in text or "\ufdd1" in text:
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text  # a lone surrogate
    return ""


def glyph_positions(real: str) -> list[int]:
    """Code point indices of the characters of ``real`` shown as a glyph by
    :func:`editor_text`, in order.

    >>> glyph_positions("a\\r\\nb\\u2028")
    [1, 4]
    """
    if not _fast_candidates(real):
        return []
    return [i for i, ch in enumerate(real) if _needs_glyph(ch)]


def _common_prefix(a: str, b: str) -> int:
    n = min(len(a), len(b))
    lo, step = 0, 4096
    while lo < n and a[lo : lo + step] == b[lo : lo + step]:
        lo += step
    hi = min(lo + step, n)
    while lo < hi and a[lo] == b[lo]:
        lo += 1
    return lo


def _common_suffix(a: str, b: str, limit: int) -> int:
    k, step = 0, 4096
    while k < limit:
        m = min(step, limit - k)
        if a[len(a) - k - m : len(a) - k] != b[len(b) - k - m : len(b) - k]:
            break
        k += m
    while k < limit and a[len(a) - k - 1] == b[len(b) - k - 1]:
        k += 1
    return k


def apply_edit(
    real: str,
    old_shown: str,
    new_shown: str,
    *,
    inserted: str | None = None,
    at: int | None = None,
    control_pictures: bool = True,
) -> str:
    """Map an edit of the editor's text back onto the real text.

    The edit is the one region where ``old_shown`` and ``new_shown`` differ
    (their common prefix and suffix are kept); the kept parts take their
    characters from ``real`` (so a CR shown as ``␍`` stays a CR), the changed
    region is taken from ``new_shown`` as typed, or from ``inserted`` when the
    editor knows the real text it inserted there (a paste).

    Args:
        real: the real text before the edit.
        old_shown: the editor's text before the edit, ``editor_text(real)``.
        new_shown: the editor's text after the edit, with the widget's paragraph
            breaks read as ``"\\n"``.
        inserted: the real text of the inserted region, used when
            ``editor_text(inserted)`` is exactly what was inserted.
        at: the code point index where the edit starts, when the editor knows it:
            the kept prefix ends there at the latest (deleting one of two equal
            glyphs, ``␍`` for CR next to a typed ``␍``, then removes the right one).
        control_pictures: as for :func:`editor_text` (how the editor shows CR).

    Returns:
        the real text after the edit.

    Raises:
        ValueError: ``old_shown`` is not as long as ``real`` (not its editor text).

    >>> apply_edit("a\\rb\\xa0c", "a␍b\\xa0c", "a␍b\\xa0cd")
    'a\\rb\\xa0cd'
    >>> apply_edit("x", "x", "x\\r\\ny", inserted="\\r\\ny")  # pasted "\\r\\ny", shown as "␍\\ny"
    'x\\r\\ny'
    >>> apply_edit("a\\r␍", "a␍␍", "a␍", at=1)  # the CR deleted, the typed ␍ kept
    'a␍'
    """
    if len(old_shown) != len(real):
        raise ValueError(f"the editor text has {len(old_shown)} code points, the real text {len(real)}")
    p = _common_prefix(old_shown, new_shown)
    if at is not None:
        p = min(p, max(at, 0))
    s = _common_suffix(old_shown, new_shown, min(len(old_shown), len(new_shown)) - p)
    typed = new_shown[p : len(new_shown) - s]
    if (
        inserted is not None
        and len(inserted) == len(typed)
        and editor_text(inserted, control_pictures=control_pictures) == typed
    ):
        typed = inserted
    return real[:p] + typed + real[len(real) - s :]


def normalize_line_endings(text: str) -> str:
    """``text`` with CRLF and lone CR turned into LF (nothing else changes).

    >>> normalize_line_endings("a\\r\\nb\\rc\\n")
    'a\\nb\\nc\\n'
    """
    return text.replace("\r\n", "\n").replace("\r", "\n")


def line_ending_summary(text: str) -> str:
    """How many CRLF and lone CR ``text`` holds, for a status line; ``""`` for none.

    >>> line_ending_summary("a\\r\\nb\\r\\nc\\rd"), line_ending_summary("a\\nb")
    ('2 CRLF, 1 CR', '')
    """
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    return ", ".join(f"{n:,} {kind}" for kind, n in (("CRLF", crlf), ("CR", cr)) if n)


__all__ = [
    "EDITOR_GLYPHS",
    "apply_edit",
    "editor_text",
    "glyph_positions",
    "line_ending_summary",
    "normalize_line_endings",
]
