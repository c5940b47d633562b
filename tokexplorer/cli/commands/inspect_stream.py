"""``inspect`` without tokenizers, written as it is worked out: the text is analysed in
blocks cut after a line feed (always a grapheme boundary, so each block's bytes, code
points and clusters are the whole text's, shifted), and each block's rows go out at once.
A reader gone (``| head -1``) stops the command at the first block, not after the
analysis of a whole large file (:func:`~tokexplorer.cli.output.write_out`).

The tables are the ones :func:`~tokexplorer.cli.commands.inspect.inspect_text` writes
for the whole analysis, byte for byte: their column widths come from the whole text
before any row is made (a number column from its largest value, the role column from
the roles the text holds, the graphemes' text column from every cluster, measured once
the blocks are analysed).

>>> from tokexplorer.core.text import analyze
>>> from tokexplorer.cli.commands.inspect import inspect_text
>>> text = "a\\u00e9\\n" * 3 + "\\U0001F469\\u200d\\U0001F52C x\\n"
>>> pieces = []
>>> write_inspect(text, None, pieces.append, block=4)
>>> "".join(pieces) == inspect_text(analyze(text)), len(pieces) > 3
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import regex

from tokexplorer.cli.output import columns

if TYPE_CHECKING:
    from tokexplorer.core.text import Utf8Analysis
    from tokexplorer.core.text.utf8_issues import Utf8Issue

__all__ = ["BLOCK", "write_inspect"]

#: Characters (or bytes, for raw data) a block holds at least, up to its next line feed.
BLOCK = 1 << 14

_CONTROL = regex.compile(r"[\x00-\x1f\x7f]")
_PRINTABLE_ASCII = regex.compile(r"[\x20-\x7e]")
_MULTIBYTE = regex.compile(r"[^\x00-\x7f\udc80-\udcff]")
_GRAPHEME = regex.compile(r"\X")


@dataclass(frozen=True, slots=True)
class _Block:
    """One block's analysis and where it starts in the whole text."""

    analysis: Utf8Analysis
    byte: int
    cp: int
    grapheme: int


def _cuts(n: int, find: Callable[[int], int], block: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` of each block of ``n`` items: at least ``block`` long, ending after
    the line feed ``find(i)`` finds at or after ``i`` (-1: none left, the block runs to the end)."""
    start = 0
    while start < n:
        lf = find(start + block - 1)
        stop = n if lf < 0 else lf + 1
        yield start, stop
        start = stop


def _blocks(text: str, data: bytes | None, block: int) -> Iterator[_Block]:
    """The analysis of each block (of ``data`` when given, raw bytes, else of ``text``)."""
    from tokexplorer.core.text import analyze, analyze_bytes

    byte = cp = grapheme = 0
    pieces: Iterator[Utf8Analysis]
    if data is None:
        pieces = (analyze(text[a:b]) for a, b in _cuts(len(text), lambda i: text.find("\n", i), block))
    else:
        raw = data
        pieces = (analyze_bytes(raw[a:b]) for a, b in _cuts(len(raw), lambda i: raw.find(b"\n", i), block))
    for a in pieces:
        yield _Block(a, byte, cp, grapheme)
        byte, cp, grapheme = byte + len(a.data), cp + len(a.code_points), grapheme + len(a.graphemes)


def _line(cells: Sequence[str], widths: Sequence[int], right: Sequence[bool]) -> str:
    """One row as :func:`~tokexplorer.cli.output.table` lays it out."""
    out = [" " * (w - columns(c)) + c if ra else c + " " * (w - columns(c)) for c, w, ra in zip(cells, widths, right)]
    return "  ".join(out).rstrip() + "\n"


def _role_width(text: str, issues: Sequence[Utf8Issue]) -> int:
    """The role column's width: its longest role among those the text holds."""
    roles = ["role"]
    if _PRINTABLE_ASCII.search(text):
        roles.append("ascii")
    if _CONTROL.search(text):
        roles.append("ascii (control)")
    if _MULTIBYTE.search(text):
        roles.append("continuation 4/4")  # every role of a sequence is this long ("lead 1/2" shorter)
    reasons = {i.reason for i in issues}
    if reasons:
        roles.append(f"invalid [{len(reasons)}]")
    return max(map(len, roles))


def _max_utf8_len(text: str) -> int:
    """The most UTF-8 bytes one code point of ``text`` takes (an undecodable byte: 1)."""
    if _MULTIBYTE.search(text) is None:
        return 1
    rest = regex.sub(r"[\udc80-\udcff]", "", text)
    top = ord(max(rest))
    return 1 + (top > 0x7F) + (top > 0x7FF) + (top > 0xFFFF)


def _span(start: int, end: int) -> str:
    return f"[{start}, {end})"


def _bytes_rows(
    blocks: Iterator[_Block], kept: list[_Block], widths: list[int], issues: Sequence[Utf8Issue],
    out: Callable[[str], None],
) -> None:
    """The bytes table's rows, block by block (each block kept for the later tables), then
    the reason of each numbered invalid byte: the whole data's (``issues``; a reason names
    offsets in the data, which a block's own analysis counts from the block's start)."""
    from tokexplorer.cli.commands.inspect import role_cell

    right = [True, False, False, True, True]
    reasons: dict[str, int] = {}
    reason_at = {i.offset + k: i.reason for i in issues for k in range(i.length)}
    for blk in blocks:
        kept.append(blk)
        rows = [
            _line([str(b.offset + blk.byte), f"{b.value:02X}",
                   role_cell(replace(b, reason=reason_at.get(b.offset + blk.byte, b.reason)) if b.reason else b,
                             reasons),
                   str(b.cp_index + blk.cp), str(b.grapheme_index + blk.grapheme)], widths, right)
            for b in blk.analysis.bytes
        ]  # fmt: skip
        out("".join(rows))
    out("".join(f"  [{k}] {reason}\n" for reason, k in reasons.items()))


def _code_point_rows(kept: Sequence[_Block], widths: list[int], out: Callable[[str], None]) -> None:
    right = [True, False, False, False, False]
    for blk in kept:
        a = blk.analysis
        out("".join(
            _line([str(c.index + blk.cp), f"U+{c.value:04X}", a.data[c.byte_start : c.byte_end].hex(" ").upper(),
                   _span(c.byte_start + blk.byte, c.byte_end + blk.byte), c.name], widths, right)
            for c in a.code_points
        ))  # fmt: skip


def _grapheme_rows(kept: Sequence[_Block], n_graphemes: int, out: Callable[[str], None]) -> None:
    """The graphemes table: its text column measured over every cluster first."""
    from tokexplorer.core.text import token_display

    shown = [
        [token_display(g.text.encode("utf-8", "surrogateescape"), visible_spaces=True) for g in blk.analysis.graphemes]
        for blk in kept
    ]
    head = ["index", "text", "code points", "bytes"]
    widths = [max(5, len(str(n_graphemes - 1))), max([4, *(columns(t) for part in shown for t in part)]), 11, 0]
    right = [True, False, True, False]
    out(_line(head, widths, right))
    for blk, texts in zip(kept, shown):
        out("".join(
            _line([str(g.index + blk.grapheme), t, str(g.char_end - g.char_start),
                   _span(g.byte_start + blk.byte, g.byte_end + blk.byte)], widths, right)
            for g, t in zip(blk.analysis.graphemes, texts)
        ))  # fmt: skip


def write_inspect(
    text: str, data: bytes | None, out: Callable[[str], None], *, issues: Sequence[Utf8Issue] = (), block: int = BLOCK
) -> None:
    """Write ``inspect``'s tables of ``text`` (cleaned, as :func:`~tokexplorer.core.text.analyze`
    cleans it: pass the cleaned text) or, with ``data``, of raw bytes (``text`` then is
    their ``surrogateescape`` decoding), block by block through ``out``.

    Args:
        text: the text analysed (see above).
        data: the raw bytes, or None for a text.
        out: where each piece goes (:func:`~tokexplorer.cli.output.write_out`).
        issues: the ill-formed stretches of ``data``
            (:func:`~tokexplorer.core.text.utf8_issues.find_utf8_issues`).
        block: the least length of a block (:data:`BLOCK`).
    """
    n_bytes = len(data) if data is not None else len(text.encode("utf-8"))
    n_cps, n_graphemes = len(text), sum(1 for _ in _GRAPHEME.finditer(text))
    out(f"{n_bytes:,} bytes, {n_cps:,} code points, {n_graphemes:,} graphemes\n\nbytes\n")
    widths = [max(6, len(str(n_bytes - 1))), 3, _role_width(text, issues), max(10, len(str(n_cps - 1))),
              max(8, len(str(n_graphemes - 1)))]  # fmt: skip
    out(_line(["offset", "hex", "role", "code point", "grapheme"], widths, [True, False, False, True, True]))
    kept: list[_Block] = []
    _bytes_rows(_blocks(text, data, block), kept, widths, issues, out)
    out("\ncode points\n")
    last = len(text[-1:].encode("utf-8", "surrogateescape"))
    cp_widths = [max(5, len(str(n_cps - 1))), 10, max(5, 3 * _max_utf8_len(text) - 1),
                 max(5, len(_span(n_bytes - last, n_bytes)) if text else 0), 0]  # fmt: skip
    out(_line(["index", "code point", "utf-8", "bytes", "name"], cp_widths, [True, False, False, False, False]))
    _code_point_rows(kept, cp_widths, out)
    out("\ngraphemes\n")
    _grapheme_rows(kept, n_graphemes, out)
