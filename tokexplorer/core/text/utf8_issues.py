"""Why bytes are not well-formed UTF-8: the ill-formed stretches, with their reasons.

Each stretch is what Python's UTF-8 decoder rejects (the Unicode Standard,
chapter 3, table 3-7 "Well-Formed UTF-8 Byte Sequences"), grouped so that one
mistake gives one issue: an overlong form ``C0 AF``, an encoded surrogate
``ED A0 80`` or a value above U+10FFFF is reported once with its value.

>>> [str(i) for i in find_utf8_issues(b"ok\\xc0\\xaf")]
['byte 2: overlong encoding of U+002F (2 bytes; 1 is the shortest form)']
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Utf8Issue:
    """A stretch of bytes that is not well-formed UTF-8.

    Attributes:
        offset: byte offset of the first bad byte.
        length: number of bytes in the stretch (1–4).
        reason: one line, e.g. ``"overlong encoding of U+002F (2 bytes; 1 is the shortest form)"``.
    """

    offset: int
    length: int
    reason: str

    def __str__(self) -> str:
        return f"byte {self.offset}: {self.reason}"


def utf8_len(cp: int) -> int:
    """Length in bytes (1–4) of the UTF-8 encoding of code point ``cp``.

    >>> [utf8_len(ord(c)) for c in "aé€🙂"]
    [1, 2, 3, 4]
    """
    return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


def find_utf8_issues(data: bytes) -> list[Utf8Issue]:
    """List the ill-formed stretches of ``data`` (Unicode Standard table 3-7).

    Each stretch is what Python's UTF-8 decoder rejects (the invalid bytes are
    the ones ``surrogateescape`` turns into surrogates), grouped so that one
    mistake gives one issue: an overlong form ``C0 AF``, an encoded surrogate
    ``ED A0 80`` or a value above U+10FFFF is reported once with its value.

    Args:
        data: any bytes.

    Returns:
        list of :class:`Utf8Issue` in byte order (empty for valid UTF-8).

    >>> [str(i) for i in find_utf8_issues(b"a\\x80")]
    ['byte 1: continuation byte without a lead byte']
    """
    issues: list[Utf8Issue] = []
    n = len(data)
    i = 0
    while i < n:
        if data[i] < 0x80:
            i += 1
            continue
        issue, step = _check_sequence(data, i)
        if issue is not None:
            issues.append(issue)
        i += step
    return issues


def _is_cont(b: int) -> bool:
    return 0x80 <= b <= 0xBF


def _check_sequence(data: bytes, i: int) -> tuple[Utf8Issue | None, int]:
    """Check the sequence that starts with the non-ASCII byte ``data[i]``.

    Returns:
        ``(issue or None, number of bytes to move on)``.
    """
    b = data[i]
    n = len(data)
    if b <= 0xBF:
        return Utf8Issue(i, 1, "continuation byte without a lead byte"), 1
    if b >= 0xF5:
        why = "it would start a value above U+10FFFF" if b <= 0xF7 else "not a UTF-8 byte"
        return Utf8Issue(i, 1, f"byte {b:02X} never appears in UTF-8 ({why})"), 1
    want = 2 if b < 0xE0 else 3 if b < 0xF0 else 4
    # how many continuation bytes follow (at most want - 1)
    k = 1
    while k < want and i + k < n and _is_cont(data[i + k]):
        k += 1
    if b in (0xC0, 0xC1) or (b == 0xE0 and k > 1 and data[i + 1] < 0xA0) or (
        b == 0xF0 and k > 1 and data[i + 1] < 0x90
    ):
        return _overlong(data, i, k, want)
    if (b == 0xED and k > 1 and data[i + 1] >= 0xA0) or (b == 0xF4 and k > 1 and data[i + 1] >= 0x90):
        return _out_of_range(data, i, k, want)
    if k < want:
        where = "the data ends" if i + k >= n else f"byte {i + k} is not a continuation byte"
        reason = (
            f"truncated sequence: lead byte {b:02X} starts a {want}-byte character "
            f"but {where} after {k} byte{'s' if k > 1 else ''}"
        )
        return Utf8Issue(i, k, reason), k
    return None, want


def _overlong(data: bytes, i: int, k: int, want: int) -> tuple[Utf8Issue, int]:
    """An overlong form starting at ``i`` (``k`` of its ``want`` bytes present)."""
    b = data[i]
    if k < want:
        if k == 1:
            reason = f"byte {b:02X} never appears in UTF-8 (it can only start an overlong form)"
        else:
            reason = f"{b:02X} {data[i + 1]:02X} can only start an overlong form"
        # Python rejects the lead alone; the continuations are lone ones
        return Utf8Issue(i, 1, reason), 1
    value = _value(data[i : i + want])
    shortest = utf8_len(value)
    reason = (
        f"overlong encoding of U+{value:04X} ({want} bytes; "
        f"{shortest} {'is' if shortest == 1 else 'are'} the shortest form)"
    )
    return Utf8Issue(i, want, reason), want


def _out_of_range(data: bytes, i: int, k: int, want: int) -> tuple[Utf8Issue, int]:
    """An encoded surrogate (lead ED) or a value above U+10FFFF (lead F4) at ``i``."""
    b = data[i]
    if k < want:
        what = "a surrogate" if b == 0xED else "a value above U+10FFFF"
        return Utf8Issue(i, 1, f"{b:02X} {data[i + 1]:02X} can only start {what}"), 1
    value = _value(data[i : i + want])
    if b == 0xED:
        reason = f"encoded surrogate U+{value:04X} (UTF-8 never encodes surrogates)"
    else:
        reason = f"encodes U+{value:X}, above the last code point U+10FFFF"
    return Utf8Issue(i, want, reason), want


def _value(seq: bytes) -> int:
    """Code point value of a complete (possibly overlong) UTF-8 sequence."""
    first_mask = {2: 0x1F, 3: 0x0F, 4: 0x07}[len(seq)]
    v = seq[0] & first_mask
    for c in seq[1:]:
        v = (v << 6) | (c & 0x3F)
    return v
