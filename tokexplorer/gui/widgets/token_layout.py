"""Laying out one tokenization as token boxes over its text, line by line.

The text is cut into grapheme clusters (``regex`` ``\\X``); each cluster is one
:class:`Item`, drawn once, and every token covers a range of items in *item
units* (a float: a token holding part of a cluster covers a share of it
proportional to its bytes). Lines wrap at token boundaries, preferably between
words (:func:`inside_word`): a token boundary inside a word only when the word
does not fit on a line, inside a token only when the token is wider than the
view. When offsets are approximate or ids are shown, each token is drawn by
itself instead, token after token: its id, or its bytes decoded by the core's
escape rule (never a vocabulary spelling such as GPT-2's ``Ġ``). Tokens that leave the spaces
between words out (WordPiece: ``LayoutOptions.word_starts``) get a space of no token before
each word start but the first, as the WordPiece decoder joins them.

:func:`lay_out` returns a :class:`TokenLayout`: the items with their positions,
the items of every line, and the boxes (line, x0, x1) of every token. Widths
come from a :class:`TokenMetrics` of the view's font.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

import regex
import unicodedata2
from PySide6.QtGui import QFont, QFontMetricsF

from tokexplorer.core.text import control_glyph, is_lookalike, is_mark, letter_lookalikes, token_display
from tokexplorer.core.types import Token, Tokenization
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import shown_parts

_GRAPHEME = regex.compile(r"\X", regex.DOTALL)

PAD_X = 4.0
"""Left and right margin, pixels."""
PAD_Y = 4.0
"""Top margin, pixels."""
BOX_PAD = 3.0
"""Vertical padding inside a token box, pixels."""
MARK_H = 3.0
"""Height of the cut marker band under a line, pixels."""
LINE_GAP = 3.0
"""Space between two lines, pixels."""

Segment = tuple[int, float, float]
"""One box of a token on one line: (line, x0, x1) for a token's boxes, (token, x0, x1) on a line."""


def inside_word(before: str, after: str) -> bool:
    """True when a line break between two clusters would split a word: both
    sides are letters or digits of a script written with spaces (CJK and
    other wide characters may break anywhere)."""
    a, b = before[-1:], after[:1]
    return (
        a.isalnum()
        and b.isalnum()
        and unicodedata2.east_asian_width(a) not in ("W", "F")
        and unicodedata2.east_asian_width(b) not in ("W", "F")
    )


def _utf8_len(ch: str) -> int:
    o = ord(ch)
    return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4


@dataclass(slots=True)
class Item:
    """One drawn unit: a grapheme cluster of the text (or of a piece)."""

    text: str  # the cluster as it is in the text
    shown: str  # what is drawn
    byte_start: int
    byte_end: int
    width: float = 0.0
    newline: bool = False
    x: float = 0.0
    line: int = 0
    # (x offset inside the item, kind) of token boundaries that fall inside it
    cuts: tuple[tuple[float, str], ...] = ()
    owner: int = -1  # token whose bytes start this item (text colour)


class TokenMetrics:
    """Font metrics of a token view: box and line heights, cached text widths.

    Args:
        font: the view's font (bold text, for special tokens, uses its bold twin).
    """

    def __init__(self, font: QFont) -> None:
        self.fm = QFontMetricsF(font)
        bold = QFont(font)
        bold.setBold(True)
        self.bold_font = bold
        self.bold_fm = QFontMetricsF(bold)
        self.box_h = self.fm.height() + 2 * BOX_PAD
        self.line_h = self.box_h + MARK_H + LINE_GAP
        self.space_w = self.fm.horizontalAdvance(" ")
        self._width_cache: dict[str, float] = {}

    def advance(self, s: str) -> float:
        """Width of ``s`` in the normal font, pixels."""
        w = self._width_cache.get(s)
        if w is None:
            w = self._width_cache[s] = self.fm.horizontalAdvance(s)
        return w

    def line_top(self, line: int) -> float:
        """y of the top of line ``line`` in content coordinates."""
        return PAD_Y + line * self.line_h


@dataclass(slots=True)
class TokenLayout:
    """A laid-out tokenization.

    Attributes:
        items: the drawn items, in order, with their line and x.
        line_items: per line, the half-open range of its items.
        line_tokens: per line, ``(token index, x0, x1)`` of the token boxes on it.
        token_segments: per shown token, ``(line, x0, x1)`` of its boxes.
        n_shown: how many tokens are laid out (all unless the text is huge).
    """

    items: list[Item] = field(default_factory=list)
    line_items: list[tuple[int, int]] = field(default_factory=list)
    line_tokens: list[list[Segment]] = field(default_factory=list)
    token_segments: list[list[Segment]] = field(default_factory=list)
    n_shown: int = 0


WordStarts = tuple[bool, ...] | None
"""One bool per token, True where it starts a word, for a tokenizer whose tokens leave out the
spaces between words (:func:`~tokexplorer.core.backends.word_boundaries.word_starts`); None
for one whose tokens carry their own spaces."""


@dataclass(frozen=True, slots=True)
class LayoutOptions:
    """What a layout shows: whitespace glyphs, ids instead of text, a character limit, and
    (``word_starts``) a space, of no token, before each token drawn by itself that starts a
    word but the first (WordPiece: as its decoder joins the pieces)."""

    show_whitespace: bool = False
    show_ids: bool = False
    max_chars: int = 100_000
    word_starts: WordStarts = None


#: What a line-end character (CR or LF) is drawn as without whitespace glyphs: room for a box.
LINE_END_BLANK = "  "


def shown_text(cluster: str, metrics: TokenMetrics, *, show_whitespace: bool) -> str:
    """What is drawn for one grapheme cluster: whitespace as blank space (or ␣ → ↵),
    everything else by the core's one escape rule (``token_display``: controls as
    Control Pictures, invisible code points as ``<U+FE0F>``, a lone combining mark
    on ``◌``), and a cluster the font draws with no width as ``◌``."""
    if cluster in (" ", "\n", "\t", "\r\n", "\r"):
        if not show_whitespace:
            # a line end gets two spaces a character, so a CR or LF token of its own is a box
            # one can see and point at, not a sliver (CR LF: two tokens of two spaces each)
            return {" ": " ", "\t": "    ", "\n": LINE_END_BLANK, "\r": LINE_END_BLANK}.get(cluster, 2 * LINE_END_BLANK)
        # ␍, or ← where the fonts lack Control Pictures
        cr = control_glyph(0x0D, control_pictures=theme.control_pictures())
        return {" ": "␣", "\n": "↵", "\t": "→", "\r\n": cr + "↵", "\r": cr}[cluster]
    if cluster.isprintable() and not is_mark(cluster[0]):
        s = cluster  # the common case: visible characters, marks on their base
    elif show_whitespace and cluster in ("\u00a0", "\u3000"):
        return "⍽"
    else:
        s = token_display(cluster.encode("utf-8", "surrogatepass"), control_pictures=theme.control_pictures())
    if metrics.advance(s) < 1.0:
        return "◌"  # a cluster the font draws with no width stays visible
    return s


_Built = tuple[list[Item], list[tuple[float, float]], list[bool], int]
"""Items, each shown token's (u0, u1) range in item units, break points, tokens shown."""


def _spelled_letters(text: str, toks: Sequence[Token]) -> set[int]:
    """The offsets in ``text`` of the letters written ``<U+XXXX>`` because the token holding
    them reads as ASCII (``core.text.letter_lookalikes``: a Cyrillic ``а`` beside Latin letters)."""
    out: set[int] = set()
    if text.isascii():
        return out
    for t in toks:
        run = text[t.char_start : t.char_end]
        if not run.isascii():
            out.update(t.char_start + i for i in letter_lookalikes(run))
    return out


def _spelled(ch: str, letter: bool) -> bool:
    """True when the code point ``ch``, a cluster of its own, is drawn ``<U+XXXX>`` in the text: a
    look-alike (``core.text.is_lookalike``) or a letter of :func:`_spelled_letters`. White space
    (``str.isspace``: a no-break space, the ideographic space of CJK text) is the text's own and
    stays as it is, as the whitespace glyphs show it (``⍽`` when they are on); the invisible code
    points that are not white space (U+200B, U+2060...) are spelled."""
    return letter or (not ch.isspace() and is_lookalike(ch))


def _text_items(tz: Tokenization, metrics: TokenMetrics, opts: LayoutOptions) -> _Built:
    """Items of the text itself (exact offsets): tokens cover ranges of its clusters."""
    toks = tz.tokens
    items: list[Item] = []
    ranges: list[tuple[float, float]] = []
    limit = min(len(tz.text), opts.max_chars)
    n_shown = len(toks)
    if limit < len(tz.text):
        n_shown = 0
        while n_shown < len(toks) and toks[n_shown].char_end <= limit:
            n_shown += 1
        limit = toks[n_shown - 1].char_end if n_shown else 0
    total = 0
    spelled = _spelled_letters(tz.text, toks[:n_shown])
    for m in _GRAPHEME.finditer(tz.text, 0, limit):
        s = m.group()
        e = total + sum(_utf8_len(c) for c in s)
        if len(s) == 1 and s >= "\x80" and _spelled(s, m.start() in spelled):
            shown = f"<U+{ord(s):04X}>"  # a look-alike, as every view writes it (glyphs.shown_piece)
        else:
            shown = shown_text(s, metrics, show_whitespace=opts.show_whitespace)
        items.append(Item(s, shown, total, e, newline=s.endswith(("\n", "\r"))))
        total = e
    starts = [it.byte_start for it in items]
    n_items = len(items)

    def unit(byte: int) -> float:
        if byte >= total:
            return float(n_items)
        i = bisect_right(starts, byte) - 1
        it = items[i]
        return i + (byte - it.byte_start) / (it.byte_end - it.byte_start)

    breaks = [False] * (n_items + 1)
    for t in toks[:n_shown]:
        u0, u1 = unit(t.byte_start), unit(t.byte_end)
        ranges.append((u0, u1))
        if u0 == int(u0):
            breaks[int(u0)] = True
    _mark_cuts(items, toks[:n_shown])
    return items, ranges, breaks, n_shown


def _byte_labels(t: Token, metrics: TokenMetrics, opts: LayoutOptions) -> list[tuple[str, str]]:
    """``(text, shown)`` of the items of one token drawn by itself: its id, or its
    bytes by the window's one display rule (``glyphs.shown_parts``: partial UTF-8 as
    ``\\xNN``, invisible code points and look-alikes as ``<U+XXXX>``), whitespace as in the text;
    a token with no bytes (one a post-processor added) by its piece."""
    if opts.show_ids:
        return [(str(t.id), str(t.id))]
    if not t.bytes:
        label = t.piece or "∅"
        return [(s, shown_text(s, metrics, show_whitespace=opts.show_whitespace)) for s in _GRAPHEME.findall(label)]
    out: list[tuple[str, str]] = []
    for p in shown_parts(t.bytes):  # the window's one display rule: look-alikes as <U+XXXX>
        text = p.data.decode("utf-8", "surrogateescape")
        if p.kind == "text" or text in ("\n", "\t", "\r"):
            shown = ((s, shown_text(s, metrics, show_whitespace=opts.show_whitespace)) for s in _GRAPHEME.findall(text))
            out.extend(shown)
        else:
            out.append((text, p.text))
    return out


def _piece_items(tz: Tokenization, metrics: TokenMetrics, opts: LayoutOptions) -> _Built:
    """Items of each token drawn by itself (its bytes decoded, or its id), token after token;
    with ``opts.word_starts`` (text, not ids), a space of no token before each token but the
    first that starts a word (``␣`` with whitespace glyphs), as the WordPiece decoder puts it."""
    items: list[Item] = []
    ranges: list[tuple[float, float]] = []
    n_shown = 0
    breaks = [True]
    gap = shown_text(" ", metrics, show_whitespace=opts.show_whitespace)
    for ti, t in enumerate(tz.tokens):
        if len(items) >= opts.max_chars:
            break
        if opts.word_starts is not None and not opts.show_ids and ti and opts.word_starts[ti]:
            # the break stays before the token, so a line ends with the space and never starts with it
            breaks[-1] = False
            items.append(Item(" ", gap, t.byte_start, t.byte_start))
            breaks.append(True)
        u0 = len(items)
        labels = _byte_labels(t, metrics, opts)
        for k, (text, shown) in enumerate(labels):
            # a line break of the text ends the line here too (ids: after a token ending with one)
            if opts.show_ids:
                ends = k == len(labels) - 1 and t.bytes.endswith((b"\n", b"\r"))
            else:
                ends = text.endswith(("\n", "\r"))
            items.append(Item(text, shown, t.byte_start, t.byte_end, newline=ends, owner=n_shown))
        ranges.append((float(u0), float(len(items))))
        breaks.extend([False] * (len(items) - u0 - 1) + [True])
        n_shown += 1
    return items, ranges, breaks, n_shown


def _mark_cuts(items: list[Item], toks: tuple[Token, ...]) -> None:
    """Record token boundaries inside items (for the cut markers) and item owners."""
    starts = [it.byte_start for it in items]
    j = 0
    for ti, t in enumerate(toks):
        # owner: the token whose bytes begin each item
        while j < len(items) and items[j].byte_start < t.byte_end:
            if items[j].byte_start >= t.byte_start:
                items[j].owner = ti
            j += 1
        b = t.byte_end
        i = bisect_right(starts, b) - 1
        if 0 <= i < len(items) and items[i].byte_start < b < items[i].byte_end:
            it = items[i]
            off = it.byte_start
            kind = "grapheme"
            for ch in it.text:
                n = _utf8_len(ch)
                if off < b < off + n:
                    kind = "code point"
                    break
                off += n
            it.cuts = it.cuts + (((b - it.byte_start) / (it.byte_end - it.byte_start), kind),)


def _break_lines(items: list[Item], breaks: list[bool], avail: float) -> list[tuple[int, int]]:
    """Wrap the items into lines of at most ``avail`` pixels: at a token boundary
    between words if there is one, else at any token boundary, else anywhere."""
    lines: list[tuple[int, int]] = []
    n = len(items)
    line_start = 0
    x = 0.0
    last_break = -1  # the last token boundary on the line
    last_word_break = -1  # the last token boundary that is not inside a word
    i = 0
    while i < n:
        it = items[i]
        if i > line_start and breaks[i]:
            last_break = i
            if not inside_word(items[i - 1].text, it.text):
                last_word_break = i
        if x + it.width > avail and i > line_start:
            if last_word_break > line_start:
                brk = last_word_break
            elif last_break > line_start:
                brk = last_break
            else:
                brk = i
            lines.append((line_start, brk))
            line_start, x, last_break, last_word_break, i = brk, 0.0, -1, -1, brk
            continue
        x += it.width
        i += 1
        if it.newline:
            lines.append((line_start, i))
            line_start, x, last_break, last_word_break = i, 0.0, -1, -1
    if line_start < n or not lines:
        lines.append((line_start, n))
    return lines


def _token_boxes(items: list[Item], u0: float, u1: float) -> list[Segment]:
    """The ``(line, x0, x1)`` boxes of a token covering item units [u0, u1)."""
    n = len(items)
    segs: list[Segment] = []
    if u1 <= u0:  # an empty token: a thin box where it sits
        i0 = min(int(u0), n - 1) if n else -1
        if i0 >= 0:
            it = items[i0]
            x0 = it.x + (u0 - i0) * it.width if u0 < n else it.x + it.width
            segs.append((it.line, x0, x0 + 3.0))
        return segs
    i = int(u0)
    last = min(int(u1 - 1e-9), n - 1) if u1 > int(u0) else i
    while i <= last:
        it = items[i]
        x0 = it.x + (u0 - i) * it.width if u0 > i else it.x
        ln = it.line
        j = i
        while j + 1 <= last and items[j + 1].line == ln:
            j += 1
        end = items[j]
        x1 = end.x + (u1 - j) * end.width if u1 < j + 1 else end.x + end.width
        segs.append((ln, x0, x1))
        i = j + 1
    return segs


def lay_out(
    tz: Tokenization,
    styles: list[theme.TokenStyle],
    *,
    metrics: TokenMetrics,
    width: float,
    options: LayoutOptions,
) -> TokenLayout:
    """Lay ``tz`` out in lines of at most ``width`` pixels.

    Args:
        tz: the tokenization.
        styles: one style per token (bold text is wider).
        metrics: the view's font metrics.
        width: the width available for the items, pixels (margins excluded).
        options: whitespace glyphs, ids, character limit, word starts.
    """
    if tz.exact_offsets and not options.show_ids:
        items, ranges, breaks, n_shown = _text_items(tz, metrics, options)
    else:
        items, ranges, breaks, n_shown = _piece_items(tz, metrics, options)
    min_piece = max(8.0, metrics.space_w * 1.5)  # each token's share of a cut glyph
    for it in items:
        if it.owner >= 0 and styles[it.owner].bold:
            it.width = max(metrics.bold_fm.horizontalAdvance(it.shown), metrics.space_w * 0.5)
        else:
            it.width = max(metrics.advance(it.shown), metrics.space_w * 0.5)
        if it.cuts:
            it.width = max(it.width, min_piece * (len(it.cuts) + 1))
    # ids are numbers: without a gap between tokens "12 345" would read "12345"
    gap = metrics.space_w if options.show_ids else 0.0
    ends = {int(u1) - 1 for _u0, u1 in ranges} if gap else set()
    for i in ends:
        items[i].width += gap  # lines are broken with the gaps counted
    lines = _break_lines(items, breaks, width)
    for i in ends:
        items[i].width -= gap  # the gap belongs to no token box
    for ln, (a, b) in enumerate(lines):
        x = PAD_X
        for i in range(a, b):
            it = items[i]
            it.x = x
            it.line = ln
            x += it.width + (gap if i in ends else 0.0)
    line_tokens: list[list[Segment]] = [[] for _ in lines]
    segs_all: list[list[Segment]] = []
    for ti, (u0, u1) in enumerate(ranges):
        segs = _token_boxes(items, u0, u1)
        for ln, x0, x1 in segs:
            line_tokens[ln].append((ti, x0, x1))
        segs_all.append(segs)
    return TokenLayout(items, lines, line_tokens, segs_all, n_shown)
