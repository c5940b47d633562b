"""UTF-8 checks of a file's bytes: strict decoding a piece at a time (:func:`decode_utf8`,
:func:`utf8_error`), and whether bytes that are not all valid UTF-8 should still be read
as UTF-8: a few bad bytes (:func:`mostly_utf8`) or UTF-8 that turns into another
encoding (:func:`mixed_utf8`). :mod:`tokexplorer.core.io.corpus` applies them.
"""

from __future__ import annotations

import codecs

import regex

__all__ = ["MIXED_MIN_CHARS", "PIECE", "decode_utf8", "mixed_utf8", "mostly_utf8", "utf8_error"]


#: Bytes (or characters) that one whole-file operation of the reading handles per
#: call (decoding, counting line breaks): each call holds Python's interpreter
#: lock, and a window whose worker thread reads a file waits for that lock between
#: its events; 1 MiB takes a few milliseconds.
PIECE = 1 << 20


def decode_utf8(data: bytes, *, skip: int = 0) -> tuple[str | None, str]:
    """Strict UTF-8 decoding of ``data``, :data:`PIECE` bytes per call.

    Args:
        data: the bytes.
        skip: bytes before ``data`` in the file (a BOM), added to the offset in the message.

    Returns:
        ``(text, "")``, or ``(None, why)`` when ``data`` is not valid UTF-8
        (``why`` as :func:`utf8_error` says it, naming the first bad byte).

    >>> decode_utf8("né".encode()), decode_utf8(b"ok\\xff", skip=3)
    (('né', ''), (None, 'not valid UTF-8 at byte 5 (invalid start byte)'))
    """
    decoder = codecs.getincrementaldecoder("utf-8")()
    parts: list[str] = []
    n = len(data)
    try:
        for start in range(0, n, PIECE):
            parts.append(decoder.decode(data[start : start + PIECE], final=start + PIECE >= n))
    except UnicodeDecodeError:
        try:  # the whole text's first error, with its offset in the file (a rare path)
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, f"not valid UTF-8 at byte {exc.start + skip} ({exc.reason})"
    return "".join(parts), ""


def utf8_error(data: bytes, *, skip: int = 0) -> str:
    """Why strict UTF-8 decoding of ``data`` fails, or ``""`` when it does not
    (:func:`decode_utf8`'s message).

    Args:
        data: the bytes.
        skip: bytes before ``data`` in the file (a BOM), added to the offset.

    >>> utf8_error(b"ok\\xff")
    'not valid UTF-8 at byte 2 (invalid start byte)'
    """
    return decode_utf8(data, skip=skip)[1]


def mostly_utf8(data: bytes) -> tuple[int, bool]:
    """Whether ``data`` should still be read as UTF-8 despite undecodable bytes.

    UTF-8 it is when its well-formed non-ASCII characters outnumber the
    undecodable bytes ten to one, or when its only fault is a character cut off
    at the end and it holds at least one well-formed non-ASCII character, or
    when every undecodable stretch is a character cut short (a lead byte and at
    least one of its continuation bytes, then no more: a piece of UTF-8 cut
    mid-character and joined to the next) and there are no more such stretches
    than well-formed non-ASCII characters. A legacy single-byte text (Latin-1,
    cp1252) has no well-formed multi-byte sequences (its accented letters are
    lone lead bytes), and a multi-byte legacy one (GBK, Shift-JIS) is mostly
    undecodable as UTF-8, so neither passes.

    Returns:
        ``(undecodable bytes, cut at the end)``; ``(0, False)`` when the data
        should not be read as UTF-8.

    >>> mostly_utf8("caf\u00e9 na\u00efve ".encode() * 5 + b"\\xff"), mostly_utf8(b"caf\\xe9")
    ((1, False), (0, False))
    >>> mostly_utf8(b"hello \\xe4\\xbd\\xa0\\xe5\\xa5 world\\n"), mostly_utf8(b"d\\xe9j\\xe0 vu \\xc3\\xa9")
    ((2, False), (0, False))
    """
    text = data.decode("utf-8", "surrogateescape")
    # every undecodable byte became one lone surrogate, which "ignore" drops
    # (counted in C: a list of them could be as large as the file)
    n_bad = len(text) - len(text.encode("utf-8", "ignore").decode("utf-8"))
    if not n_bad:
        return 0, False
    n_good = len(text) - len(text.encode("ascii", "ignore")) - n_bad
    # cut at the end: all the bad bytes are the last ones and start a character
    # that the data ends before completing
    cut = False
    if n_bad <= 3 and all("\udc80" <= c <= "\udcff" for c in text[-n_bad:]):
        try:
            data[-n_bad:].decode("utf-8")
        except UnicodeDecodeError as exc:
            cut = exc.reason == "unexpected end of data"
    if n_good >= 10 * n_bad or (cut and n_good >= 1):
        return n_bad, cut
    if n_good >= 1 and _cut_short_only(text, n_good):
        return n_bad, False
    return 0, False


# a run of undecodable bytes (surrogateescape's U+DC80-U+DCFF), and one made of characters
# cut short: the lead byte of 3 or 4 bytes, then one or more of its continuation bytes
# (fewer than it needs; a 2-byte lead alone is what a Latin-1 accented letter looks like)
_BAD_RUN = regex.compile("[\udc80-\udcff]+")
_CUT_SHORT = regex.compile("(?:[\udce0-\udcef][\udc80-\udcbf]|[\udcf0-\udcf4][\udc80-\udcbf]{1,2})+")


def _cut_short_only(text: str, most: int) -> bool:
    """Whether every run of undecodable bytes of ``text`` (decoded with surrogateescape) is
    one character cut short of at least two bytes (``_CUT_SHORT``), and there are at most
    ``most`` runs."""
    runs = 0
    for m in _BAD_RUN.finditer(text):
        runs += 1
        if runs > most or _CUT_SHORT.fullmatch(m.group()) is None:
            return False
    return runs > 0


#: Fewest well-formed non-ASCII UTF-8 characters before a file's first undecodable byte for
#: the file to count as UTF-8 that turns into another encoding (:func:`mixed_utf8`); a legacy
#: file spells a run this long in UTF-8 by chance only in its first characters, if ever.
MIXED_MIN_CHARS = 16


def mixed_utf8(data: bytes) -> int:
    """The undecodable bytes of ``data`` when it is UTF-8 up to its first undecodable byte,
    at least :data:`MIXED_MIN_CHARS` non-ASCII characters of it (a file that mixes
    encodings: UTF-8, then GBK or Latin-1 after 1 MB); 0 otherwise (UTF-8, or no such run).

    >>> mixed_utf8("naïve café ".encode() * 8 + "café".encode("latin-1") * 10)
    10
    >>> mixed_utf8("café ".encode() + "café".encode("latin-1") * 10)
    0
    """
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        head = data[: exc.start].decode("utf-8")
    else:
        return 0
    if len(head) - len(head.encode("ascii", "ignore")) < MIXED_MIN_CHARS:
        return 0
    text = data.decode("utf-8", "surrogateescape")
    return len(text) - len(text.encode("utf-8", "ignore").decode("utf-8"))
