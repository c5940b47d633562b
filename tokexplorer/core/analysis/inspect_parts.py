"""Long texts and large files in the byte inspector, one *part* at a time.

The inspector lays out every byte with per-byte, per-code-point and per-token
records; for a 2,000,000-character text or a 1.2 MB binary that is hundreds of
megabytes nobody looks at. So a long input is shown one part at a time, and only
the part shown is analysed (:func:`inspect_part`).

* A text longer than :data:`PART_CHARS` characters is cut into the blocks of
  :func:`~tokexplorer.core.analysis.blocks.text_blocks` (cut where no tokenizer
  joins across, so a part's tokens are the whole text's tokens there), the same
  parts the compare pane shows.
* Raw bytes longer than :data:`RAW_PART_BYTES` are cut every
  :data:`RAW_PART_BYTES` bytes, moved back to the start of a UTF-8 sequence when
  the cut would fall inside one (:func:`raw_part_span`). Raw data has no line
  structure a tokenizer respects, so the tokens at a part's edges are those of the
  part alone (said in a note).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tokexplorer.core.analysis.blocks import text_blocks
from tokexplorer.core.analysis.compare import WINDOW_CHARS
from tokexplorer.core.analysis.inspector import inspect_bytes, inspect_text
from tokexplorer.core.analysis.inspector_report import InspectReport
from tokexplorer.core.backends import CancelCheck, Tokenizer
from tokexplorer.core.errors import InputError
from tokexplorer.core.types import SpecialPolicy

__all__ = ["PART_CHARS", "RAW_PART_BYTES", "PartReport", "inspect_part", "raw_part_span", "text_parts"]

PART_CHARS = WINDOW_CHARS
"""Texts longer than this (characters) are inspected one part of about this size at a time."""

RAW_PART_BYTES = 4096
"""Raw bytes are inspected in parts of at most this many bytes."""


@dataclass(frozen=True)
class PartReport:
    """One part of a long input, inspected.

    Attributes:
        report: the :class:`InspectReport` of the part alone (offsets relative to the part).
        part: index of the part (0-based).
        n_parts: how many parts the input has (1: it is shown whole).
        start, end: the part's range in the input: characters for a text, bytes for raw data.
        byte_start: the byte offset of the part's first byte in the input's UTF-8 bytes.
        n_total: the input's length (characters for a text, bytes for raw data).
        parts: the text's part ranges (characters), to pass back to the next call;
            empty for raw data (its parts are computed, not listed).
        highlight: the byte range asked to be highlighted, relative to the part
            (``(-1, -1)``: none).
        notes: remarks for the user (tokens at the edges of a raw part).
    """

    report: InspectReport
    part: int
    n_parts: int
    start: int
    end: int
    byte_start: int
    n_total: int
    parts: tuple[tuple[int, int], ...] = ()
    highlight: tuple[int, int] = (-1, -1)
    notes: tuple[str, ...] = ()


def text_parts(text: str) -> tuple[tuple[int, int], ...]:
    """The parts of ``text``: half-open character ranges covering it.

    >>> text_parts("short")
    ((0, 5),)
    >>> text_parts("word\\nWord " * 1000)[:2]
    ((0, 2005), (2005, 4005))
    """
    if len(text) <= PART_CHARS:
        return ((0, len(text)),)
    return tuple(text_blocks(text, block_chars=PART_CHARS))


def _raw_cut(data: bytes, offset: int) -> int:
    """``offset`` moved back (at most 3 bytes) off continuation bytes (0x80–0xBF)."""
    cut = offset
    while cut > max(0, offset - 3) and 0x80 <= data[cut] <= 0xBF:
        cut -= 1
    return cut if cut < offset and data[cut] >= 0xC0 else offset


def raw_part_span(data: bytes, part: int) -> tuple[int, int]:
    """The byte range of raw part ``part`` of ``data``.

    Cuts fall every :data:`RAW_PART_BYTES` bytes, moved back to the lead byte of a
    UTF-8 sequence they would split (when there is one within 3 bytes).

    Raises:
        InputError: ``part`` is not a part of ``data``.

    >>> data = b"a" * 4095 + "\\u00e9".encode() + b"b"
    >>> raw_part_span(data, 0), raw_part_span(data, 1)
    ((0, 4095), (4095, 4098))
    """
    n_parts = max(1, -(-len(data) // RAW_PART_BYTES))
    if not 0 <= part < n_parts:
        raise InputError(f"part {part} is outside 0 to {n_parts - 1}")
    start = 0 if part == 0 else _raw_cut(data, part * RAW_PART_BYTES)
    end = len(data) if part == n_parts - 1 else _raw_cut(data, (part + 1) * RAW_PART_BYTES)
    return start, end


def _part_of_byte(text: str, parts: Sequence[tuple[int, int]], byte_offset: int) -> int:
    """Index of the part holding byte ``byte_offset`` of ``text``'s UTF-8 encoding."""
    char = len(text.encode("utf-8", "surrogatepass")[:byte_offset].decode("utf-8", "ignore"))
    for i, (_, end) in enumerate(parts):
        if char < end:
            return i
    return len(parts) - 1


def inspect_part(
    source: str | bytes,
    tokenizers: Sequence[Tokenizer] = (),
    *,
    part: int = 0,
    parts: Sequence[tuple[int, int]] = (),
    highlight: tuple[int, int] = (-1, -1),
    policy: SpecialPolicy = "plain",
    cancel: CancelCheck | None = None,
    control_pictures: bool = True,
) -> PartReport:
    """Inspect one part of a text or of raw bytes.

    Args:
        source: the whole text (str) or raw data (bytes).
        tokenizers: one track each (see :func:`~tokexplorer.core.analysis.inspector.inspect_text`).
        part: which part to inspect (clamped to the parts there are).
        parts: the text's parts from an earlier :class:`PartReport` of the same text
            (computed when empty; ignored for raw data).
        highlight: a byte range of the whole input to highlight (``start < 0``: none);
            the part holding its first byte is inspected instead of ``part``.
        policy, cancel, control_pictures: as for ``inspect_text``.

    Returns:
        :class:`PartReport`; its offsets are relative to the part.

    >>> r = inspect_part("word\\nWord " * 1000, part=4)
    >>> r.n_parts, r.start, r.end, r.byte_start, len(r.report.analysis.data)
    (5, 8005, 10000, 8005, 1995)
    >>> r = inspect_part(bytes(range(256)) * 20, part=1)
    >>> r.n_parts, r.start, r.end
    (2, 4096, 5120)
    """
    opts = {"policy": policy, "cancel": cancel, "control_pictures": control_pictures}
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        n_parts = max(1, -(-len(data) // RAW_PART_BYTES))
        if highlight[0] >= 0:
            part = min(highlight[0] // RAW_PART_BYTES, n_parts - 1)
        part = max(0, min(part, n_parts - 1))
        start, end = raw_part_span(data, part)
        report = inspect_bytes(data[start:end], tokenizers, **opts)
        notes = ()
        if n_parts > 1 and tokenizers:
            notes = ("tokens at the edges of a part are those of the part alone",)
        shifted = (highlight[0] - start, highlight[1] - start) if highlight[0] >= 0 else (-1, -1)
        return PartReport(report, part, n_parts, start, end, start, len(data), (), shifted, notes)
    text = source
    spans = tuple(parts) or text_parts(text)
    if highlight[0] >= 0:
        part = _part_of_byte(text, spans, highlight[0])
    part = max(0, min(part, len(spans) - 1))
    start, end = spans[part]
    byte_start = len(text[:start].encode("utf-8", "surrogatepass")) if start else 0
    report = inspect_text(text[start:end], tokenizers, **opts)
    shifted = (highlight[0] - byte_start, highlight[1] - byte_start) if highlight[0] >= 0 else (-1, -1)
    return PartReport(report, part, len(spans), start, end, byte_start, len(text), spans, shifted)
