"""The merge table's filter, without Qt: search columns and the mask of merges that pass.

:class:`~tokexplorer.gui.models.merge_model.MergeTableModel` shows the merges
whose entry in :func:`filter_mask` is 1. The mask is computed over whole columns
(one list pass per condition) rather than row by row; the text columns it
searches are prepared once per merge list by :func:`build_search_index`, which
the merge pane runs in a worker.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import regex

from tokexplorer.core.analysis import is_partial_utf8, token_script
from tokexplorer.core.text import is_grapheme_fragment, token_display
from tokexplorer.core.types import MergeRecord

#: Filter modes of :class:`MergeFilter`.
FILTER_MODES: tuple[str, ...] = ("text", "regex", "hex")
PARTIAL_LEVELS: tuple[tuple[str, str], ...] = (
    ("", "any token"),
    ("utf8", "partial UTF-8"),
    ("grapheme", "part of a grapheme"),
)
"""The merge filter's partial levels (key, label): all tokens, part of a UTF-8
character, whole code points but part of a grapheme cluster."""

_ESCAPE = regex.compile(r"\\x[0-9a-f]{2}")
_MARK = regex.compile(r"\p{M}")


def _upper_escape(m: regex.Match[str]) -> str:
    return "\\x" + m.group()[2:].upper()


def plain_text(raw: bytes, *, control_pictures: bool = True) -> str:
    """Readable text of a token's bytes, equal to :func:`token_display` (with the
    same ``control_pictures``), with a fast path (about ten times faster) for tokens
    whose characters are all printable: whole characters as themselves, other
    bytes as ``\\xNN``.

    >>> plain_text("你".encode()[:2] + b"a")
    '\\\\xE4\\\\xBDa'
    """
    s = raw.decode("utf-8", "backslashreplace")
    if not s.isprintable() or ("\\" in s and b"\\" in raw) or _MARK.search(s):
        # controls, format characters, literal backslashes, combining marks and
        # variation selectors (escaped when no visible character carries them)
        return token_display(raw, control_pictures=control_pictures)
    return _ESCAPE.sub(_upper_escape, s) if "\\x" in s else s


def parse_hex(text: str) -> bytes:
    """Parse a hex filter such as ``"e4 bd"``, ``"E4BD"`` or ``"0xe4 0xbd"``.

    Raises:
        ValueError: the text is not an even number of hex digits.

    >>> parse_hex("0xE4 0xbd")
    b'\\xe4\\xbd'
    """
    cleaned = text.replace("0x", "").replace("0X", "").replace(",", " ")
    cleaned = "".join(cleaned.split())
    if len(cleaned) % 2:
        raise ValueError(f"odd number of hex digits in {text.strip()!r}")
    try:
        return bytes.fromhex(cleaned)
    except ValueError:
        raise ValueError(f"not hex: {text.strip()!r}") from None


@dataclass(frozen=True, slots=True)
class SearchIndex:
    """Per-merge search columns, indexed by rank-order position.

    Attributes:
        text: ``"merged\\0left\\0right"`` display texts, case-folded.
        merged: the merged token's display text (not case-folded), for regexes.
        script: the merged token's script class (:func:`token_script`).
        partial: 1 where the merged token is not valid UTF-8 on its own.
        grapheme: 1 where the merged token is whole UTF-8 but can only be part of
            a grapheme cluster (``core.text.is_grapheme_fragment``: a lone
            skin-tone modifier, variation selector or combining mark, half a flag...).
    """

    text: list[str]
    merged: list[str]
    script: list[str]
    partial: bytearray
    grapheme: bytearray


def build_search_index(
    merges: Sequence[MergeRecord], vocab: Mapping[int, bytes], *, control_pictures: bool = True
) -> SearchIndex:
    """Prepare the filter columns of a merge list (rank order; ids resolved through ``vocab``).

    About 0.6 s for 200,000 merges: run it in a worker. ``control_pictures``: see
    :func:`plain_text`.
    """
    shown: dict[int, str] = {}

    def text_of(tid: int) -> str:
        s = shown.get(tid)
        if s is None:
            raw = vocab.get(tid)
            s = shown[tid] = plain_text(raw, control_pictures=control_pictures) if raw is not None else ""
        return s

    merged = [text_of(m.new_id) for m in merges]
    text = [f"{mt}\0{text_of(m.left)}\0{text_of(m.right)}".casefold() for mt, m in zip(merged, merges)]
    script = [token_script(m.merged) for m in merges]
    partial = bytearray(1 if is_partial_utf8(m.merged) else 0 for m in merges)
    grapheme = bytearray(1 if not p and is_grapheme_fragment(m.merged) else 0 for p, m in zip(partial, merges))
    return SearchIndex(text, merged, script, partial, grapheme)


@dataclass(frozen=True, slots=True)
class MergeFilter:
    """The conditions of the merge table's filter; a merge must pass all of them.

    Attributes:
        needle: in ``"text"`` mode, text looked for case-insensitively in the
            Merged, Left and Right token text (``␣`` and ``·`` stand for a
            space); in ``"regex"`` mode, a regular expression (``regex`` module
            syntax, ``\\p{Han}`` works) searched in the merged token's text; in
            ``"hex"`` mode, bytes such as ``e4 bd`` looked for inside the merged
            token's bytes. Empty: no condition.
        mode: one of :data:`FILTER_MODES`.
        script: keep merged tokens of this script class (see
            :data:`tokexplorer.core.analysis.merges.SCRIPTS`), or None.
        partial: one of :data:`PARTIAL_LEVELS`: ``"utf8"`` keeps only merged
            tokens that hold part of a UTF-8 character, ``"grapheme"`` only those
            that are whole UTF-8 but part of a grapheme cluster, ``""`` all.
    """

    needle: str = ""
    mode: str = "text"
    script: str | None = None
    partial: str = ""

    @property
    def active(self) -> bool:
        """True when any condition is set."""
        return bool(self.needle) or self.script is not None or bool(self.partial)


def filter_mask(
    merges: Sequence[MergeRecord], condition: MergeFilter, *, index: Callable[[], SearchIndex]
) -> bytearray:
    """One byte per merge (rank order): 1 where the merge passes ``condition``.

    Args:
        merges: the merge list.
        condition: the filter.
        index: returns the :class:`SearchIndex` of ``merges``; called only when a
            condition needs it (a hex needle alone does not).

    Raises:
        ValueError: bad regex or bad hex (one-line message).
    """
    mask = _needle_mask(merges, condition, index) if condition.needle else None
    if condition.script is not None:
        m2 = bytearray(s == condition.script for s in index().script)
        mask = m2 if mask is None else bytearray(a & b for a, b in zip(mask, m2))
    if condition.partial:
        m3 = index().partial if condition.partial == "utf8" else index().grapheme
        mask = bytearray(m3) if mask is None else bytearray(a & b for a, b in zip(mask, m3))
    return mask if mask is not None else bytearray(b"\x01") * len(merges)


def _needle_mask(
    merges: Sequence[MergeRecord], condition: MergeFilter, index: Callable[[], SearchIndex]
) -> bytearray:
    needle = condition.needle
    if condition.mode == "hex":
        wanted = parse_hex(needle)
        return bytearray(wanted in m.merged for m in merges)
    if condition.mode == "regex":
        try:
            pat = regex.compile(needle)
        except regex.error as exc:
            raise ValueError(f"bad regex: {exc}") from None
        search = pat.search
        return bytearray(search(s) is not None for s in index().merged)
    low = needle.replace("␣", " ").replace("·", " ").casefold()
    return bytearray(low in s for s in index().text)
