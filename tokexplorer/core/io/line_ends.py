"""Line ends of a decoded text: which kinds it uses and how many lines it has
(:func:`line_ending_of`, :func:`count_lines`), counted from
:func:`line_breaks`, a piece at a time.

LF, CRLF and CR each end one line, as the corpus tab, ``stats`` and
SentencePiece's line checks count them.
"""

from __future__ import annotations

from collections.abc import Iterator

from tokexplorer.core.io.utf8_checks import PIECE

__all__ = ["count_lines", "ending_kind", "line_breaks", "line_count", "line_ending_of", "lf_lines"]


def line_ending_of(text: str) -> str:
    """Classify the line endings of ``text``.

    Returns:
        ``"LF"``, ``"CRLF"`` or ``"CR"`` when only that kind occurs, ``"mixed"``
        when several do, ``"none"`` when the text has no line break.

    >>> line_ending_of("a\\r\\nb\\r\\n"), line_ending_of("a\\nb\\r\\n"), line_ending_of("ab")
    ('CRLF', 'mixed', 'none')
    """
    return ending_kind(*line_breaks(text))


def ending_kind(lf: int, crlf: int, cr: int) -> str:
    """:func:`line_ending_of` from :func:`line_breaks`' counts.

    >>> ending_kind(0, 2, 0), ending_kind(1, 0, 1), ending_kind(0, 0, 0)
    ('CRLF', 'mixed', 'none')
    """
    kinds = [k for k, n in (("LF", lf), ("CRLF", crlf), ("CR", cr)) if n]
    if not kinds:
        return "none"
    return kinds[0] if len(kinds) == 1 else "mixed"


def line_breaks(text: str) -> tuple[int, int, int]:
    """The line ends of ``text``: ``(LF alone, CRLF, CR alone)`` counts, counted
    :data:`~tokexplorer.core.io.utf8_checks.PIECE` characters per call (a window
    reading a large file waits less for the interpreter lock).

    >>> line_breaks("a\\nb\\r\\nc\\rd\\r"), line_breaks("x\\r" + "\\n" * 3)
    ((1, 1, 2), (2, 1, 0))
    """
    lf = cr = crlf = 0
    n = len(text)
    for start in range(0, n, PIECE):
        end = min(start + PIECE, n)
        lf += text.count("\n", start, end)
        here = text.count("\r", start, end)
        if here:  # (most texts have no CR: one count per piece)
            cr += here
            crlf += text.count("\r\n", start, end)
        if start and text[start] == "\n" and text[start - 1] == "\r":  # a CRLF across two pieces
            crlf += 1
    return lf - crlf, crlf, cr - crlf


def count_lines(text: str) -> int:
    """Number of lines in ``text``: LF, CRLF and CR each end one line.

    >>> count_lines(""), count_lines("a"), count_lines("a\\n"), count_lines("a\\r\\nb")
    (0, 1, 1, 2)
    """
    return line_count(text, line_breaks(text))


def line_count(text: str, breaks: tuple[int, int, int]) -> int:
    """:func:`count_lines` from :func:`line_breaks`' counts of ``text``.

    >>> line_count("a\\nb", (1, 0, 0)), line_count("", (0, 0, 0))
    (2, 0)
    """
    if not text:
        return 0
    return sum(breaks) + (0 if text[-1] in "\r\n" else 1)


def lf_lines(text: str) -> Iterator[str]:
    """The pieces of ``text`` between ``"\\n"`` characters, exactly as
    ``text.split("\\n")`` gives them (SentencePiece's lines), split about
    :data:`~tokexplorer.core.io.utf8_checks.PIECE` characters per call: a worker
    thread of the window holds the interpreter lock for one short call at a time.

    >>> list(lf_lines("a\\n\\nb\\r\\n")), list(lf_lines(""))
    (['a', '', 'b\\r', ''], [''])
    """
    n = len(text)
    start = 0
    while start + PIECE < n:
        cut = text.find("\n", start + PIECE)
        if cut < 0:
            break
        yield from text[start:cut].split("\n")
        start = cut + 1
    yield from text[start:].split("\n")
