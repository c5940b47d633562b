"""The merge table's filter, without Qt: search columns and the mask of merges that pass.

:class:`~tokexplorer.gui.models.merge_model.MergeTableModel` shows the merges
whose entry in :func:`filter_mask` is 1. The mask is computed over whole columns
(one list pass per condition) rather than row by row; the text columns it
searches are prepared once per merge list by :func:`build_search_index`, which
the merge pane runs in a worker.

Besides the merges, the table can hold rows for the tokens no merge builds
(``BPE.unbuilt_tokens``, as in Llama 3's ranks): records after the merges, which
have no parts and are flagged :data:`WHOLE_CHUNK_FLAG` (across the Left and Right cells).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import regex

from tokexplorer.core.analysis import is_partial_utf8, token_script
from tokexplorer.core.errors import Cancelled
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

#: The flag of a token no merge builds, shown across its Left and Right cells (and what the
#: text filter matches for it).
WHOLE_CHUNK_FLAG = "whole chunk only"

_ESCAPE = regex.compile(r"\\x[0-9a-f]{2}")
_CODE_POINT = regex.compile(r"<U\+(10[0-9A-F]{4}|0?[0-9A-F]{4,5})>", regex.IGNORECASE)
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


def reads_as_hex(text: str) -> bool:
    """True when ``text`` is a hex filter :func:`parse_hex` accepts (at least one byte):
    what the merge table suggests searching as hex when a text search finds nothing.

    >>> reads_as_hex("e4 bd"), reads_as_hex("the"), reads_as_hex("abc")
    (True, False, False)
    """
    try:
        return bool(parse_hex(text))
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class SearchIndex:
    """Per-record search columns: the merges in rank order, then the tokens no merge builds.

    The texts are :func:`plain_text`: the characters as they are, look-alikes too (the cells write
    ``│`` as ``<U+2502>``; a search for ``│`` or for ``<U+2502>`` finds it).

    Attributes:
        text: ``"merged\\0left\\0right"`` display texts, case-folded
            (``"token\\0whole chunk only\\0"`` for a token no merge builds).
        merged: the merged token's display text (not case-folded), for regexes.
        script: the merged token's script class (:func:`token_script`).
        partial: 1 where the merged token is not valid UTF-8 on its own.
        grapheme: 1 where the merged token is whole UTF-8 but can only be part of
            a grapheme cluster (``core.text.is_grapheme_fragment``: a lone
            skin-tone modifier, variation selector or combining mark, half a flag...).
        whole: 1 where the record is a token no merge builds (whole chunk only).
    """

    text: list[str]
    merged: list[str]
    script: list[str]
    partial: bytearray
    grapheme: bytearray
    whole: bytearray


def build_search_index(
    merges: Sequence[MergeRecord],
    vocab: Mapping[int, bytes],
    *,
    control_pictures: bool = True,
    unbuilt: Sequence[int] = (),
) -> SearchIndex:
    """Prepare the filter columns of a merge list (rank order; ids resolved through ``vocab``)
    followed by the tokens ``unbuilt`` (ids of tokens no merge builds, in table order).

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
    whole = [text_of(i) for i in unbuilt]
    text += [f"{wt}\0{WHOLE_CHUNK_FLAG}\0".casefold() for wt in whole]
    raw = [m.merged for m in merges] + [vocab[i] for i in unbuilt]
    script = [token_script(b) for b in raw]
    partial = bytearray(1 if is_partial_utf8(b) else 0 for b in raw)
    grapheme = bytearray(1 if not p and is_grapheme_fragment(b) else 0 for p, b in zip(partial, raw))
    flags = bytearray(len(merges)) + bytearray(b"\x01") * len(unbuilt)
    return SearchIndex(text, merged + whole, script, partial, grapheme, flags)


@dataclass(frozen=True, slots=True)
class MergeFilter:
    """The conditions of the merge table's filter; a merge must pass all of them.

    Attributes:
        needle: in ``"text"`` mode, text looked for case-insensitively in the
            Merged, Left and Right token text (``␣`` and ``·`` stand for a
            space, ``<U+2502>`` for the character the cells write so:
            :func:`text_needle`); in ``"regex"`` mode, a regular expression (``regex`` module
            syntax, ``\\p{Han}`` works) searched in the merged token's text; in
            ``"hex"`` mode, bytes such as ``e4 bd`` looked for inside the merged
            token's bytes. Empty: no condition.
        mode: one of :data:`FILTER_MODES`.
        script: keep merged tokens of this script class (see
            :data:`tokexplorer.core.analysis.merges.SCRIPTS`), or None.
        partial: one of :data:`PARTIAL_LEVELS`: ``"utf8"`` keeps only merged
            tokens that hold part of a UTF-8 character, ``"grapheme"`` only those
            that are whole UTF-8 but part of a grapheme cluster, ``""`` all.
        whole_chunk_only: keep only the tokens no merge builds (emitted only
            for a whole chunk).
    """

    needle: str = ""
    mode: str = "text"
    script: str | None = None
    partial: str = ""
    whole_chunk_only: bool = False

    @property
    def active(self) -> bool:
        """True when any condition is set."""
        return bool(self.needle) or self.script is not None or bool(self.partial) or self.whole_chunk_only


#: Records a filter tests between two looks at its cancel flag (a worker's filter gives way
#: to a newer one within a few milliseconds).
CANCEL_CHUNK = 16_384


def check_filter(condition: MergeFilter) -> None:
    """Refuse a filter that cannot be applied, before any record is tested (cheap: the
    regex is compiled, the hex parsed).

    Raises:
        ValueError: unknown mode or partial level, bad regex or bad hex (one-line message).
    """
    if condition.mode not in FILTER_MODES:
        raise ValueError(f"unknown filter mode {condition.mode!r}")
    if condition.partial not in dict(PARTIAL_LEVELS):
        raise ValueError(f"unknown partial level {condition.partial!r}")
    if condition.needle and condition.mode == "hex":
        parse_hex(condition.needle)
    elif condition.needle and condition.mode == "regex":
        _compile(condition.needle)


def filter_mask(
    tokens: Sequence[bytes],
    condition: MergeFilter,
    *,
    index: Callable[[], SearchIndex],
    cancel: Callable[[], bool] | None = None,
) -> bytearray:
    """One byte per record (the merges in rank order, then the tokens no merge
    builds): 1 where the record passes ``condition``.

    Args:
        tokens: each record's token bytes (a merge's merged token).
        condition: the filter.
        index: returns the :class:`SearchIndex` of the records; called only when a
            condition needs it (a hex needle alone does not).
        cancel: a worker's cancel flag, looked at every :data:`CANCEL_CHUNK` records.

    Raises:
        ValueError: bad regex or bad hex (one-line message).
        Cancelled: ``cancel()`` became True.
    """
    mask = _needle_mask(tokens, condition, index, cancel) if condition.needle else None
    script = condition.script
    for on, column in (
        (script is not None, lambda: bytearray(s == script for part in _chunks(index().script, cancel) for s in part)),
        (condition.partial == "utf8", lambda: index().partial),
        (condition.partial == "grapheme", lambda: index().grapheme),
        (condition.whole_chunk_only, lambda: index().whole),
    ):
        if on:
            m2 = column()
            mask = bytearray(m2) if mask is None else bytearray(a & b for a, b in zip(mask, m2))
    return mask if mask is not None else bytearray(b"\x01") * len(tokens)


def _chunks(values: Sequence[str] | Sequence[bytes], cancel: Callable[[], bool] | None) -> Iterator[Sequence]:
    """``values`` in slices of :data:`CANCEL_CHUNK`, raising Cancelled between two once ``cancel()`` says so."""
    for start in range(0, len(values), CANCEL_CHUNK):
        if cancel is not None and cancel():
            raise Cancelled("the filter was superseded")
        yield values[start : start + CANCEL_CHUNK]


def _compile(needle: str) -> regex.Pattern[str]:
    try:
        return regex.compile(needle)
    except regex.error as exc:
        raise ValueError(f"bad regex: {exc}") from None


def _needle_mask(
    tokens: Sequence[bytes],
    condition: MergeFilter,
    index: Callable[[], SearchIndex],
    cancel: Callable[[], bool] | None,
) -> bytearray:
    needle = condition.needle
    if condition.mode == "hex":
        wanted = parse_hex(needle)
        return bytearray(wanted in b for part in _chunks(tokens, cancel) for b in part)
    if condition.mode == "regex":
        search = _compile(needle).search
        return bytearray(search(s) is not None for part in _chunks(index().merged, cancel) for s in part)
    low = text_needle(needle)
    return bytearray(low in s for part in _chunks(index().text, cancel) for s in part)


def text_needle(needle: str) -> str:
    """What a text filter looks for in the case-folded search texts: ``␣`` and ``·``
    as a space, a code point written as the cells write a look-alike (``<U+2502>``,
    any case) as that character.

    >>> text_needle("␣<U+2502>"), text_needle("<u+2019>S"), text_needle("<U+D800x>")
    (' │', '’s', '<u+d800x>')
    """
    needle = _CODE_POINT.sub(lambda m: chr(int(m.group(1), 16)), needle)
    return needle.replace("␣", " ").replace("·", " ").casefold()
