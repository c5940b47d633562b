"""UTF-8 analysis: byte roles, code points, grapheme clusters, cuts and display.

This module explains how a text is laid out in UTF-8 (RFC 3629; the Unicode
Standard, chapter 3, table 3-7 "Well-Formed UTF-8 Byte Sequences") so the byte
inspector can show it:

* every byte gets a *role*: ``"ascii"`` (00–7F), ``"lead"`` (first byte of a
  2–4 byte sequence: C2–F4), ``"continuation"`` (80–BF after a lead byte) or
  ``"invalid"`` (only in raw bytes, see :func:`analyze_bytes`);
* every code point gets its Unicode name (or a code point label such as
  ``"<control-0000> NULL"`` when it has none);
* grapheme clusters (user-perceived characters) come from the :mod:`regex`
  module's ``\\X`` (Unicode Standard Annex #29, extended grapheme clusters);
* :func:`cuts` lists token boundaries that fall inside a code point or inside a
  grapheme cluster, and :func:`describe_partial_token` says what part of which
  character a token holds ("bytes 1–2 of 4 of U+1D538 𝔸");
* :func:`token_display` renders token bytes readably without ever inventing
  U+FFFD, and :data:`GPT2_BYTE_TO_UNICODE` is GPT-2's visible-byte table.

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
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

import regex

from tokexplorer.core.errors import InputError
from tokexplorer.core.text.clean import clean_text
from tokexplorer.core.types import Tokenization

ByteRole = Literal["ascii", "lead", "continuation", "invalid"]
CutKind = Literal["code point", "grapheme"]

# ---------------------------------------------------------------------------
# Names of code points
# ---------------------------------------------------------------------------

#: Names of the C0 control characters U+0000–U+001F and of U+007F, from the
#: Unicode name aliases (NameAliases.txt, type "control"); unicodedata.name()
#: has no name for them.
C0_CONTROL_NAMES: tuple[str, ...] = (
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT",
    "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE", "BELL",
    "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION",
    "FORM FEED", "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN",
    "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
    "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK",
    "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE",
    "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE",
    "INFORMATION SEPARATOR TWO", "INFORMATION SEPARATOR ONE",
)  # fmt: skip

#: A few C1 controls users meet in real text (aliases from NameAliases.txt).
_C1_CONTROL_NAMES: dict[int, str] = {
    0x7F: "DELETE",
    0x85: "NEXT LINE",
    0x9B: "CONTROL SEQUENCE INTRODUCER",
}

#: Extra remarks appended to a code point's label.
_REMARKS: dict[int, str] = {
    0xFEFF: "byte order mark",
    0xFFFD: "replacement character: a decoder could not read some bytes",
}


def char_name(cp: int) -> str:
    """The Unicode name of a code point, or a code point label when it has none.

    Args:
        cp: a code point value (int, 0–0x10FFFF).

    Returns:
        ``unicodedata.name`` when defined; otherwise a label in the style of the
        Unicode Standard §4.8 "Code Point Labels": ``"<control-0000> NULL"`` (C0
        controls named from NameAliases.txt), ``"<control-0085> NEXT LINE"``,
        ``"<surrogate-D800>"``, ``"<private-use-E000>"``,
        ``"<noncharacter-FFFE>"`` or ``"<reserved-0378>"`` (unassigned in the
        Python build's Unicode version).

    Raises:
        InputError: ``cp`` is outside 0–0x10FFFF.

    >>> char_name(0x200D)
    'ZERO WIDTH JOINER'
    >>> char_name(0)
    '<control-0000> NULL'
    """
    if not 0 <= cp <= 0x10FFFF:
        raise InputError(f"{cp:#x} is not a Unicode code point (0 to 0x10FFFF)")
    name = unicodedata.name(chr(cp), "")
    if name:
        return name
    if cp < 0x20:
        return f"<control-{cp:04X}> {C0_CONTROL_NAMES[cp]}"
    if 0x7F <= cp <= 0x9F:
        alias = _C1_CONTROL_NAMES.get(cp)
        return f"<control-{cp:04X}> {alias}" if alias else f"<control-{cp:04X}>"
    if 0xD800 <= cp <= 0xDFFF:
        return f"<surrogate-{cp:04X}>"
    if (0xFDD0 <= cp <= 0xFDEF) or (cp & 0xFFFE) == 0xFFFE:
        return f"<noncharacter-{cp:04X}>"
    if unicodedata.category(chr(cp)) == "Co":
        return f"<private-use-{cp:04X}>"
    return f"<reserved-{cp:04X}>"


def _glyph(ch: str) -> str:
    """How one code point is written inside a label: itself when visible, else ''."""
    cat = unicodedata.category(ch)
    if cat in ("Mn", "Me"):
        return "\u25cc" + ch  # combining mark on a dotted circle
    if cat[0] in "CZ" and ch != " ":
        return ""
    return ch


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
class GraphemeInfo:
    """One grapheme cluster (``regex`` ``\\X``, UAX #29 extended grapheme cluster).

    Attributes:
        index: grapheme index in the text.
        text: the cluster's code points.
        char_start: first code point index (inclusive).
        char_end: end code point index (exclusive).
        byte_start: first byte (inclusive).
        byte_end: end byte (exclusive).
    """

    index: int
    text: str
    char_start: int
    char_end: int
    byte_start: int
    byte_end: int

    def __repr__(self) -> str:
        return f"GraphemeInfo({self.index}: {self.text!r} [{self.byte_start}:{self.byte_end}])"

    @property
    def n_code_points(self) -> int:
        """Number of code points in the cluster."""
        return self.char_end - self.char_start


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

_GRAPHEME = regex.compile(r"\X")


def _utf8_len(cp: int) -> int:
    return 1 if cp < 0x80 else 2 if cp < 0x800 else 3 if cp < 0x10000 else 4


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
    clusters: list[tuple[str, int, int]] = []
    for gi, m in enumerate(_GRAPHEME.finditer(text)):
        s, e = m.span()
        cp_grapheme[s:e] = [gi] * (e - s)
        clusters.append((m.group(), s, e))

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
        n = _utf8_len(cp)
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


def _is_cont(b: int) -> bool:
    return 0x80 <= b <= 0xBF


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
        b = data[i]
        if b < 0x80:
            i += 1
            continue
        if b <= 0xBF:
            issues.append(Utf8Issue(i, 1, "continuation byte without a lead byte"))
            i += 1
            continue
        if b >= 0xF5:
            why = "it would start a value above U+10FFFF" if b <= 0xF7 else "not a UTF-8 byte"
            issues.append(Utf8Issue(i, 1, f"byte {b:02X} never appears in UTF-8 ({why})"))
            i += 1
            continue
        want = 2 if b < 0xE0 else 3 if b < 0xF0 else 4
        # how many continuation bytes follow (at most want - 1)
        k = 1
        while k < want and i + k < n and _is_cont(data[i + k]):
            k += 1
        if b in (0xC0, 0xC1) or (b == 0xE0 and k > 1 and data[i + 1] < 0xA0) or (
            b == 0xF0 and k > 1 and data[i + 1] < 0x90
        ):
            if k < want:
                if k == 1:
                    reason = f"byte {b:02X} never appears in UTF-8 (it can only start an overlong form)"
                else:
                    reason = f"{b:02X} {data[i + 1]:02X} can only start an overlong form"
                issues.append(Utf8Issue(i, 1, reason))
                # Python rejects the lead alone; the continuations are lone ones
                i += 1
                continue
            value = _value(data[i : i + want])
            shortest = _utf8_len(value)
            issues.append(
                Utf8Issue(
                    i, want,
                    f"overlong encoding of U+{value:04X} ({want} bytes; "
                    f"{shortest} {'is' if shortest == 1 else 'are'} the shortest form)",
                )
            )
            i += want
            continue
        if (b == 0xED and k > 1 and data[i + 1] >= 0xA0) or (
            b == 0xF4 and k > 1 and data[i + 1] >= 0x90
        ):
            if k < want:
                what = "a surrogate" if b == 0xED else "a value above U+10FFFF"
                issues.append(
                    Utf8Issue(i, 1, f"{b:02X} {data[i + 1]:02X} can only start {what}")
                )
                i += 1
                continue
            value = _value(data[i : i + want])
            if b == 0xED:
                reason = f"encoded surrogate U+{value:04X} (UTF-8 never encodes surrogates)"
            else:
                reason = f"encodes U+{value:X}, above the last code point U+10FFFF"
            issues.append(Utf8Issue(i, want, reason))
            i += want
            continue
        if k < want:
            where = "the data ends" if i + k >= n else f"byte {i + k} is not a continuation byte"
            issues.append(
                Utf8Issue(
                    i, k,
                    f"truncated sequence: lead byte {b:02X} starts a {want}-byte character "
                    f"but {where} after {k} byte{'s' if k > 1 else ''}",
                )
            )
            i += k
            continue
        i += want
    return issues


def _value(seq: bytes) -> int:
    """Code point value of a complete (possibly overlong) UTF-8 sequence."""
    first_mask = {2: 0x1F, 3: 0x0F, 4: 0x07}[len(seq)]
    v = seq[0] & first_mask
    for c in seq[1:]:
        v = (v << 6) | (c & 0x3F)
    return v


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
    notes = ()
    if issues:
        n_bad = sum(i.length for i in issues)
        notes = (
            f"not valid UTF-8: {n_bad} byte{'s' if n_bad != 1 else ''} in "
            f"{len(issues)} place{'s' if len(issues) != 1 else ''}, first at byte {issues[0].offset}",
        )
    return _build(text, data, reasons, tuple(issues), notes)


def describe_byte(info: ByteInfo) -> str:
    """A short label for one byte in its sequence.

    Args:
        info: a :class:`ByteInfo` from :func:`analyze` or :func:`analyze_bytes`.

    Returns:
        ``"1/1 (ASCII)"``, ``"1/4 (lead F0)"``, ``"2/4"``... (position/length of
        the UTF-8 sequence), or for an invalid byte ``"<hex>: <reason>"``, e.g.
        ``"80: continuation byte without a lead byte"``.
    """
    if info.role == "invalid":
        return f"{info.value:02X}: {info.reason}"
    if info.role == "ascii":
        return "1/1 (ASCII)"
    if info.role == "lead":
        return f"1/{info.seq_len} (lead {info.value:02X})"
    return f"{info.position}/{info.seq_len}"


# ---------------------------------------------------------------------------
# Cuts and partial tokens
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Cut:
    """A token boundary that splits a code point or a grapheme cluster.

    Attributes:
        byte_offset: the boundary's byte offset in the UTF-8 text.
        kind: ``"code point"`` (the boundary is inside one character's bytes) or
            ``"grapheme"`` (between two code points of one grapheme cluster,
            e.g. 👋 + skin tone, inside a ZWJ sequence, between the two regional
            indicators of a flag).
        index: index of the code point (kind ``"code point"``) or of the
            grapheme cluster (kind ``"grapheme"``) that is cut.
        left_token: index of the token ending at the boundary.
        right_token: index of the token starting at the boundary.
    """

    byte_offset: int
    kind: CutKind
    index: int
    left_token: int
    right_token: int


def cuts(text: str | Utf8Analysis, tokenization: Tokenization) -> list[Cut]:
    """List the token boundaries that cut through a character or a grapheme cluster.

    Args:
        text: the tokenized text (``tokenization.text``) or its analysis.
        tokenization: the tokens; their ``byte_start`` offsets are the
            boundaries. With ``exact_offsets=False`` (SentencePiece normalizers)
            the spans, hence the cuts, are approximate.

    Returns:
        list of :class:`Cut` in byte order; a boundary inside a code point is
        reported as kind ``"code point"`` only (it also cuts the grapheme).

    >>> from tokexplorer.core.tokens import build_tokens
    >>> s = "\\U0001D538"
    >>> toks = build_tokens(s, [1, 2], [b"\\xf0\\x9d", b"\\x94\\xb8"])
    >>> cuts(s, Tokenization("demo", s, toks))[0].kind
    'code point'
    """
    a = text if isinstance(text, Utf8Analysis) else analyze(text)
    n = len(a.data)
    out: list[Cut] = []
    prev: int | None = None  # index of the last token with at least one byte
    last_boundary = -1
    for ti, tok in enumerate(tokenization.tokens):
        if tok.byte_end <= tok.byte_start:
            continue
        b = tok.byte_start
        if prev is not None and 0 < b < n and b != last_boundary:
            info = a.bytes[b]
            if info.position != 1:
                out.append(Cut(b, "code point", info.cp_index, prev, ti))
            elif not a.is_grapheme_boundary(b):
                out.append(Cut(b, "grapheme", info.grapheme_index, prev, ti))
            last_boundary = b
        prev = ti
    return out


def _char_for_label(cp: CodePointInfo) -> str:
    g = _glyph(cp.char)
    return f"U+{cp.value:04X} {g}" if g else f"U+{cp.value:04X} {cp.name}"


def _whole_part(s: str) -> str:
    if s and set(s) == {" "}:
        return "space" if len(s) == 1 else f"{len(s)} spaces"
    return f'"{token_display(s.encode("utf-8", "surrogateescape"))}"'


def describe_partial_token(token_bytes: bytes, byte_start: int, analysis: Utf8Analysis) -> str:
    """Say which parts of which characters a token's bytes hold.

    Args:
        token_bytes: the token's bytes.
        byte_start: byte offset of the token in ``analysis.data``.
        analysis: the analysis of the tokenized text.

    Returns:
        one line joining the parts with ``" + "``: whole characters as quoted
        text (spaces as ``"space"``), partial characters as ``"bytes 1–2 of 4 of
        U+1D538 𝔸"`` or ``"byte 1 of 2 of U+03D5 ϕ"`` (invisible characters by
        name), invalid bytes as ``"invalid byte 80"``. Never contains U+FFFD
        unless the text itself does.

    Raises:
        InputError: the bytes are not ``analysis.data[byte_start:...]``.

    >>> a = analyze("let \\u03d5")
    >>> describe_partial_token(b" \\xcf", 3, a)
    'space + byte 1 of 2 of U+03D5 ϕ'
    """
    end = byte_start + len(token_bytes)
    if byte_start < 0 or end > len(analysis.data) or analysis.data[byte_start:end] != token_bytes:
        raise InputError(
            f"token bytes {token_bytes.hex(' ').upper()} are not the text's bytes at offset {byte_start}"
        )
    parts: list[str] = []
    whole = ""
    off = byte_start
    while off < end:
        info = analysis.bytes[off]
        cp = analysis.code_points[info.cp_index]
        if cp.invalid:
            if whole:
                parts.append(_whole_part(whole))
                whole = ""
            parts.append(f"invalid byte {info.value:02X}")
            off += 1
            continue
        lo = max(cp.byte_start, byte_start)
        hi = min(cp.byte_end, end)
        if lo == cp.byte_start and hi == cp.byte_end:
            whole += cp.char
        else:
            if whole:
                parts.append(_whole_part(whole))
                whole = ""
            a, b = lo - cp.byte_start + 1, hi - cp.byte_start
            which = f"byte {a}" if a == b else f"bytes {a}\u2013{b}"
            parts.append(f"{which} of {cp.n_bytes} of {_char_for_label(cp)}")
        off = hi
    if whole:
        parts.append(_whole_part(whole))
    return " + ".join(parts)


# ---------------------------------------------------------------------------
# Display of token bytes
# ---------------------------------------------------------------------------

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

_control_glyphs: dict[int, str] = CONTROL_PICTURES


def use_control_pictures(on: bool) -> None:
    """Choose how :func:`token_parts` and :func:`token_display` show C0
    controls and DEL: as :data:`CONTROL_PICTURES` (the default) or, for a
    display whose fonts lack them, as :data:`PLAIN_CONTROL_GLYPHS`. The GUI
    decides once at start-up; the command line keeps the default."""
    global _control_glyphs
    _control_glyphs = CONTROL_PICTURES if on else PLAIN_CONTROL_GLYPHS


def control_glyph(cp: int) -> str:
    """The glyph now shown for C0 control or DEL ``cp`` (see :func:`use_control_pictures`).

    Raises:
        KeyError: ``cp`` is not a C0 control or DEL.
    """
    return _control_glyphs[cp]


#: Glyph used for a space when ``visible_spaces=True`` (U+2423 OPEN BOX).
VISIBLE_SPACE = "\u2423"


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


def token_parts(token_bytes: bytes, *, visible_spaces: bool = False) -> tuple[DisplayPart, ...]:
    """Split a token's bytes into displayable parts (see :func:`token_display`).

    Args:
        token_bytes: any bytes (need not be valid UTF-8).
        visible_spaces: show U+0020 as ``␣``.

    Returns:
        tuple of :class:`DisplayPart` whose ``data`` concatenate to ``token_bytes``.
    """
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
        if cp == 0x200D and 0 < i < len(text) - 1 and _glyph(text[i - 1]) and _glyph(text[i + 1]):
            run.append(ch)  # a joiner inside an emoji or conjunct: keep it so it renders
        elif 0xDC80 <= cp <= 0xDCFF:
            flush()
            parts.append(DisplayPart("byte", f"\\x{cp - 0xDC00:02X}", bytes([cp - 0xDC00])))
        elif cp in CONTROL_PICTURES:
            flush()
            parts.append(DisplayPart("control", _control_glyphs[cp], ch.encode("utf-8")))
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


def token_display(token_bytes: bytes, *, visible_spaces: bool = False) -> str:
    """Readable text for a token's bytes, without ever inventing U+FFFD.

    Valid UTF-8 characters are shown as themselves; bytes that are not a whole
    character (a partial token, invalid bytes) as ``\\xNN`` (upper-case hex);
    C0 controls and DEL as Control Pictures (``\\x00`` → ``␀``, ``\\t`` → ``␉``,
    ``\\r\\n`` → ``␍␊``); C1 controls and invisible format characters as
    ``<U+FEFF>``. A real U+FFFD in the bytes (``EF BF BD``) is shown as ``�``.
    Literal backslashes are not escaped; use :func:`token_parts` to tell an
    escape from text.

    Args:
        token_bytes: the token's bytes.
        visible_spaces: show U+0020 as ``␣``.

    Returns:
        str for display only (it is not the decoded text).

    >>> token_display(b" \\xcf")
    ' \\\\xCF'
    >>> token_display(b"ab\\x00cd\\r\\n")
    'ab␀cd␍␊'
    """
    return "".join(p.text for p in token_parts(token_bytes, visible_spaces=visible_spaces))


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


__all__: Sequence[str] = (
    "ByteInfo", "CodePointInfo", "GraphemeInfo", "Utf8Issue", "Utf8Analysis", "Cut",
    "DisplayPart", "analyze", "analyze_bytes", "find_utf8_issues", "describe_byte",
    "char_name", "cuts", "describe_partial_token", "token_parts", "token_display",
    "incremental_decode", "GPT2_BYTE_TO_UNICODE", "GPT2_UNICODE_TO_BYTE",
    "to_gpt2_visible", "from_gpt2_visible", "CONTROL_PICTURES", "PLAIN_CONTROL_GLYPHS",
    "use_control_pictures", "control_glyph", "C0_CONTROL_NAMES",
)  # fmt: skip
