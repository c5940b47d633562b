"""UTF-8 analysis: byte roles, code points and ill-formed bytes.

This module explains how a text is laid out in UTF-8 (RFC 3629; the Unicode
Standard, chapter 3, table 3-7 "Well-Formed UTF-8 Byte Sequences") so the byte
inspector can show it:

* every byte gets a *role*: ``"ascii"`` (00–7F), ``"lead"`` (first byte of a
  2–4 byte sequence: C2–F4), ``"continuation"`` (80–BF after a lead byte) or
  ``"invalid"`` (only in raw bytes, see :func:`analyze_bytes`);
* every code point gets its Unicode name (or a code point label such as
  ``"<control-0000> NULL"`` when it has none, :mod:`~tokexplorer.core.text.char_names`);
* every byte and code point knows its grapheme cluster
  (:mod:`~tokexplorer.core.text.graphemes`);
* :func:`find_utf8_issues` says why bytes are not well-formed UTF-8, and
  :func:`incremental_decode` decodes UTF-8 arriving in chunks.

Where tokens cut characters is in :mod:`~tokexplorer.core.text.partial_tokens`,
how bytes are shown in :mod:`~tokexplorer.core.text.display`.

Byte offsets count bytes of the UTF-8 data; character offsets count Python
``str`` code points. All spans are half-open.

>>> a = analyze("h\\U0001F642")
>>> [b.role for b in a.bytes]
['ascii', 'lead', 'continuation', 'continuation', 'continuation']
>>> a.code_points[1].label
'U+1F642 SLIGHTLY SMILING FACE'
"""

from __future__ import annotations

import codecs
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from tokexplorer.core.errors import InputError
from tokexplorer.core.text.char_names import char_name
from tokexplorer.core.text.clean import clean_text
from tokexplorer.core.text.graphemes import GraphemeInfo, grapheme_spans
from tokexplorer.core.text.utf8_issues import Utf8Issue, find_utf8_issues, utf8_len

ByteRole = Literal["ascii", "lead", "continuation", "invalid"]

#: Extra remarks appended to a code point's label.
_REMARKS: dict[int, str] = {
    0xFEFF: "byte order mark",
    0xFFFD: "replacement character: a decoder could not read some bytes",
}


# ---------------------------------------------------------------------------
# Result types
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ByteInfo:
    """One byte of the UTF-8 data.

    Attributes:
        offset: byte offset in the data.
        value: the byte value (0–255).
        role: ``"ascii"``, ``"lead"``, ``"continuation"`` or ``"invalid"``.
        seq_len: length n (1–4) of the UTF-8 sequence the byte belongs to; for an
            invalid byte, the length of the ill-formed stretch it is part of.
        position: 1-based position k of the byte in that sequence (lead byte = 1).
        cp_index: index of the code point the byte belongs to (in raw-bytes
            analysis an invalid byte is its own code point: the
            ``surrogateescape`` surrogate U+DC80–U+DCFF standing for it).
        grapheme_index: index of the grapheme cluster the byte belongs to.
        reason: why the byte is invalid (empty for valid bytes).
    """

    offset: int
    value: int
    role: ByteRole
    seq_len: int
    position: int
    cp_index: int
    grapheme_index: int
    reason: str = ""

    def __repr__(self) -> str:
        return f"ByteInfo({self.offset}: {self.value:02X} {self.role} {self.position}/{self.seq_len})"

    @property
    def label(self) -> str:
        """Short description, see :func:`describe_byte`."""
        return describe_byte(self)


@dataclass(frozen=True, slots=True)
class CodePointInfo:
    """One code point of the text.

    Attributes:
        index: code point index in the text (the Python ``str`` index).
        char: the code point as a one-character str.
        value: its value (int).
        name: :func:`char_name` of it; for a byte that is not valid UTF-8 (raw
            analysis) ``"<invalid byte C0>"``.
        byte_start: first byte of its UTF-8 encoding (inclusive).
        byte_end: end of its UTF-8 encoding (exclusive).
        grapheme_index: index of the grapheme cluster holding it.
        invalid: True when this entry stands for an undecodable byte
            (``surrogateescape`` surrogate) rather than a real character.
    """

    index: int
    char: str
    value: int
    name: str
    byte_start: int
    byte_end: int
    grapheme_index: int
    invalid: bool = False

    def __repr__(self) -> str:
        return f"CodePointInfo({self.index}: U+{self.value:04X} [{self.byte_start}:{self.byte_end}])"

    @property
    def n_bytes(self) -> int:
        """Length of its UTF-8 encoding in bytes (1–4)."""
        return self.byte_end - self.byte_start

    @property
    def label(self) -> str:
        """``"U+1F642 SLIGHTLY SMILING FACE"``; U+FEFF also says "(byte order mark)"."""
        if self.invalid:
            return self.name
        remark = _REMARKS.get(self.value)
        base = f"U+{self.value:04X} {self.name}"
        return f"{base} ({remark})" if remark else base


@dataclass(frozen=True, slots=True)
class Utf8Analysis:
    """The UTF-8 layout of a text (see :func:`analyze` and :func:`analyze_bytes`).

    Attributes:
        text: the analysed text. From :func:`analyze`: the input after
            :func:`~tokexplorer.core.text.clean.clean_text`. From
            :func:`analyze_bytes`: the data decoded with ``surrogateescape``
            (each undecodable byte is one surrogate U+DC80–U+DCFF), so
            ``text.encode("utf-8", "surrogateescape") == data``.
        data: the UTF-8 bytes (``len(data) == len(bytes)``).
        bytes: one :class:`ByteInfo` per byte.
        code_points: one :class:`CodePointInfo` per code point of ``text``.
        graphemes: the grapheme clusters of ``text``, in order.
        issues: ill-formed stretches (raw bytes only; empty for :func:`analyze`).
        notes: remarks for the user (surrogates replaced by ``clean_text``...).
    """

    text: str
    data: bytes
    bytes: tuple[ByteInfo, ...]
    code_points: tuple[CodePointInfo, ...]
    graphemes: tuple[GraphemeInfo, ...]
    issues: tuple[Utf8Issue, ...] = ()
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return (
            f"Utf8Analysis({len(self.data)} bytes, {len(self.code_points)} code points, "
            f"{len(self.graphemes)} graphemes, {len(self.issues)} issues)"
        )

    @property
    def valid(self) -> bool:
        """True when the data is well-formed UTF-8."""
        return not self.issues

    def code_point_at(self, byte_offset: int) -> CodePointInfo:
        """The code point whose bytes include ``byte_offset``.

        Raises:
            InputError: the offset is outside the data.
        """
        return self.code_points[self._byte(byte_offset).cp_index]

    def grapheme_at(self, byte_offset: int) -> GraphemeInfo:
        """The grapheme cluster whose bytes include ``byte_offset``.

        Raises:
            InputError: the offset is outside the data.
        """
        return self.graphemes[self._byte(byte_offset).grapheme_index]

    def is_char_boundary(self, byte_offset: int) -> bool:
        """True when ``byte_offset`` (0..len(data)) lies between two code points."""
        if byte_offset in (0, len(self.data)):
            return True
        return 0 < byte_offset < len(self.data) and self.bytes[byte_offset].position == 1

    def is_grapheme_boundary(self, byte_offset: int) -> bool:
        """True when ``byte_offset`` (0..len(data)) lies between two grapheme clusters."""
        if byte_offset in (0, len(self.data)):
            return True
        if not 0 < byte_offset < len(self.data):
            return False
        return (
            self.bytes[byte_offset].grapheme_index
            != self.bytes[byte_offset - 1].grapheme_index
        )

    def _byte(self, byte_offset: int) -> ByteInfo:
        if not 0 <= byte_offset < len(self.data):
            raise InputError(
                f"byte offset {byte_offset} is outside the data (0 to {len(self.data) - 1})"
            )
        return self.bytes[byte_offset]


# ---------------------------------------------------------------------------
# Analysis
# ---------------------------------------------------------------------------


def _build(
    text: str,
    data: bytes,
    invalid_reasons: dict[int, tuple[str, int, int]],
    issues: tuple[Utf8Issue, ...],
    notes: tuple[str, ...],
) -> Utf8Analysis:
    """Lay out ``text`` (whose encoding is ``data``) byte by byte.

    ``invalid_reasons`` maps the offset of each invalid byte to
    (reason, stretch length, position in stretch); such bytes appear in ``text``
    as ``surrogateescape`` surrogates.
    """
    # grapheme index of every code point
    cp_grapheme = [0] * len(text)
    clusters = grapheme_spans(text)
    for gi, (_, s, e) in enumerate(clusters):
        cp_grapheme[s:e] = [gi] * (e - s)

    byte_infos: list[ByteInfo] = []
    cps: list[CodePointInfo] = []
    char_byte_start = [0] * (len(text) + 1)
    off = 0
    for i, ch in enumerate(text):
        cp = ord(ch)
        gi = cp_grapheme[i]
        char_byte_start[i] = off
        if 0xDC80 <= cp <= 0xDCFF:  # only analyze_bytes' text holds these
            reason, length, pos = invalid_reasons.get(off, ("not valid UTF-8", 1, 1))
            value = cp - 0xDC00
            byte_infos.append(ByteInfo(off, value, "invalid", length, pos, i, gi, reason))
            cps.append(
                CodePointInfo(i, ch, cp, f"<invalid byte {value:02X}>", off, off + 1, gi, True)
            )
            off += 1
            continue
        n = utf8_len(cp)
        if n == 1:
            byte_infos.append(ByteInfo(off, cp, "ascii", 1, 1, i, gi))
        else:
            for k in range(n):
                role: ByteRole = "lead" if k == 0 else "continuation"
                byte_infos.append(ByteInfo(off + k, data[off + k], role, n, k + 1, i, gi))
        cps.append(CodePointInfo(i, ch, cp, char_name(cp), off, off + n, gi))
        off += n
    char_byte_start[len(text)] = off
    if off != len(data):  # pragma: no cover - guarded by the callers
        raise InputError(f"text and data disagree: {off} bytes laid out, data has {len(data)}")
    graphemes = tuple(
        GraphemeInfo(gi, g, s, e, char_byte_start[s], char_byte_start[e])
        for gi, (g, s, e) in enumerate(clusters)
    )
    return Utf8Analysis(text, data, tuple(byte_infos), tuple(cps), graphemes, issues, notes)


def analyze(text: str) -> Utf8Analysis:
    """Analyse the UTF-8 encoding of ``text`` byte by byte.

    Args:
        text: any str; lone surrogates are first replaced by
            :func:`~tokexplorer.core.text.clean.clean_text` (its notes are kept in
            :attr:`Utf8Analysis.notes`), so the analysis matches what every
            tokenizer sees.

    Returns:
        :class:`Utf8Analysis` with one entry per byte, per code point and per
        grapheme cluster. Cost O(len(text)) time and memory: about 6 µs and a
        few hundred bytes per UTF-8 byte, so a view of a large text should
        analyse the visible part only.

    >>> a = analyze("\\U0001F469\\u200d\\U0001F52C")
    >>> len(a.data), len(a.code_points), len(a.graphemes)
    (11, 3, 1)
    """
    cleaned = clean_text(text)
    data = cleaned.text.encode("utf-8")
    return _build(cleaned.text, data, {}, (), cleaned.notes)


def analyze_bytes(data: bytes) -> Utf8Analysis:
    """Analyse raw bytes that may not be valid UTF-8.

    The bytes are decoded with ``errors="surrogateescape"``: every byte Python's
    UTF-8 decoder rejects becomes one surrogate U+DC80–U+DCFF, so
    ``result.text.encode("utf-8", "surrogateescape") == data`` exactly. Those
    bytes get role ``"invalid"`` and the reason from :func:`find_utf8_issues`.

    Args:
        data: any bytes (bytes-like objects are copied to bytes).

    Returns:
        :class:`Utf8Analysis`; :attr:`~Utf8Analysis.issues` lists overlong forms
        (``C0 AF``), encoded surrogates (``ED A0 80``), truncated sequences,
        lone continuation bytes and bytes never used in UTF-8, with offsets.

    Raises:
        InputError: ``data`` is not bytes-like.

    >>> a = analyze_bytes(b"\\x80")
    >>> a.bytes[0].label
    '80: continuation byte without a lead byte'
    """
    if isinstance(data, str) or not isinstance(data, (bytes, bytearray, memoryview)):
        raise InputError(f"analyze_bytes needs bytes, not {type(data).__name__}")
    data = bytes(data)
    text = data.decode("utf-8", "surrogateescape")
    issues = find_utf8_issues(data)
    reasons: dict[int, tuple[str, int, int]] = {}
    for iss in issues:
        for k in range(iss.length):
            reasons[iss.offset + k] = (iss.reason, iss.length, k + 1)
    return _build(text, data, reasons, tuple(issues), invalid_bytes_notes(issues))


def invalid_bytes_notes(issues: Sequence[Utf8Issue]) -> tuple[str, ...]:
    """The note of :func:`analyze_bytes` on data with the ill-formed stretches ``issues``
    (none when there are none).

    >>> invalid_bytes_notes(find_utf8_issues(b"a\\xff" * 1500))
    ('not valid UTF-8: 1,500 bytes in 1,500 places, first at byte 1',)
    """
    if not issues:
        return ()
    n_bad = sum(i.length for i in issues)
    return (
        f"not valid UTF-8: {n_bad:,} byte{'s' if n_bad != 1 else ''} in "
        f"{len(issues):,} place{'s' if len(issues) != 1 else ''}, first at byte {issues[0].offset}",
    )


def describe_byte(info: ByteInfo) -> str:
    """A short label for one byte in its sequence.

    Args:
        info: a :class:`ByteInfo` from :func:`analyze` or :func:`analyze_bytes`.

    Returns:
        ``"1/1 (ASCII)"``, ``"1/4 (lead F0)"``, ``"2/4"``... (position/length of
        the UTF-8 sequence), or for an invalid byte ``"<hex>: <reason>"``, e.g.
        ``"80: continuation byte without a lead byte"``.

    >>> [describe_byte(b) for b in analyze("a\\u00e9").bytes]
    ['1/1 (ASCII)', '1/2 (lead C3)', '2/2']
    """
    if info.role == "invalid":
        return f"{info.value:02X}: {info.reason}"
    if info.role == "ascii":
        return "1/1 (ASCII)"
    if info.role == "lead":
        return f"1/{info.seq_len} (lead {info.value:02X})"
    return f"{info.position}/{info.seq_len}"


def incremental_decode(chunks: Iterable[bytes], *, errors: str = "replace") -> list[str]:
    """Decode UTF-8 arriving in chunks, as a streaming view must.

    Uses ``codecs.getincrementaldecoder("utf-8")``, which holds back the bytes of
    a character until it is complete, so a token that ends inside a character
    yields ``""`` instead of U+FFFD.

    Args:
        chunks: byte strings in order (e.g. the bytes of each token).
        errors: codec error handler for bytes that can never become a
            character (``"replace"``, ``"strict"``, ``"surrogateescape"``...).

    Returns:
        one str per chunk; when the data ends inside a character, one more
        str with what the final flush returned (U+FFFD under ``"replace"``).

    Raises:
        InputError: ``errors="strict"`` and the bytes are not valid UTF-8.

    >>> incremental_decode([b"\\xf0", b"\\x9f", b"\\x9a", b"\\x80"])
    ['', '', '', '🚀']
    """
    dec = codecs.getincrementaldecoder("utf-8")(errors)
    out: list[str] = []
    try:
        for c in chunks:
            out.append(dec.decode(bytes(c)))
        tail = dec.decode(b"", final=True)
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 in chunk {len(out)} ({exc.reason})") from None
    if tail:
        out.append(tail)
    return out


def _one_byte_replaced(exc: UnicodeError) -> tuple[str, int]:
    """Codec error handler: one U+FFFD for the first bad byte, then go on after it."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return "\ufffd", exc.start + 1


codecs.register_error("tokexplorer.each-byte", _one_byte_replaced)


def decode_each_bad_byte(data: bytes) -> str:
    """Decode UTF-8, giving one U+FFFD for *every* byte that does not start a whole,
    well-formed character (SentencePiece's rule for its byte-fallback pieces), where
    Python's ``errors="replace"`` gives one U+FFFD per maximal ill-formed part.

    >>> decode_each_bad_byte(b"\\xe9\\xbe"), b"\\xe9\\xbe".decode("utf-8", "replace")
    ('��', '�')
    >>> decode_each_bad_byte(b"\\xe9\\xbe\\x98\\xf0\\x9fA")
    '龘��A'
    """
    return bytes(data).decode("utf-8", "tokexplorer.each-byte")
