"""A custom-painted view of one tokenization: coloured token boxes over the text.

The text is cut into grapheme clusters (``regex`` ``\\X``); each cluster is drawn
once, and every token is a box over the clusters (or the parts of a cluster) its
bytes cover. A token that holds only some bytes of a character is therefore never
drawn as ``"�"``: the character is drawn once over the boxes of all the tokens that
share it, each box taking a share of the glyph's width proportional to its bytes,
and a striped underline marks the cut (red: the boundary falls inside a code point;
orange: inside a grapheme cluster, between code points).

Lines wrap at token boundaries, preferably between words (a token boundary
inside a word only when the word does not fit on a line, inside a token only
when the token is wider than the view). Only the visible lines are painted, so
texts with thousands of tokens scroll smoothly; very long texts are shown up to
:attr:`TokenView.max_chars` characters with a note.

When the tokenizer's offsets are approximate (``Tokenization.exact_offsets`` is
False, e.g. a SentencePiece normalizer rewrote the text) each token is drawn as
its own piece text instead; with :meth:`TokenView.set_show_ids` each token is
drawn as its id.

Diff marks (:meth:`TokenView.set_diff_marks`) draw a bar along the top of the
tokens whose byte range is not a token in some other column.
"""

from __future__ import annotations

import html
import unicodedata
from bisect import bisect_right
from dataclasses import dataclass

import regex
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from tokexplorer.core.text import analyze, control_glyph, describe_partial_token, token_display
from tokexplorer.core.types import Token, Tokenization
from tokexplorer.gui import theme

_GRAPHEME = regex.compile(r"\X", regex.DOTALL)

_PAD_X = 4.0  # left/right margin, pixels
_PAD_Y = 4.0  # top margin
_BOX_PAD = 3.0  # vertical padding inside a token box
_MARK_H = 3.0  # height of the cut marker band under a line
_LINE_GAP = 3.0
_DIFF_H = 3.0  # height of the diff mark bar along the top of a token box


def _inside_word(before: str, after: str) -> bool:
    """True when a line break between two clusters would split a word: both
    sides are letters or digits of a script written with spaces (CJK and
    other wide characters may break anywhere)."""
    a, b = before[-1:], after[:1]
    return (
        a.isalnum()
        and b.isalnum()
        and unicodedata.east_asian_width(a) not in ("W", "F")
        and unicodedata.east_asian_width(b) not in ("W", "F")
    )


def _utf8_len(ch: str) -> int:
    o = ord(ch)
    return 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4


def hex_bytes(data: bytes, *, limit: int = 48) -> str:
    """Bytes as upper-case hex pairs separated by spaces (``"F0 9F 98 80"``).

    Args:
        data: the bytes.
        limit: at most this many bytes are written; more are summarised.
    """
    if len(data) <= limit:
        return data.hex(" ").upper()
    return data[:limit].hex(" ").upper() + f" … ({len(data):,} bytes)"


@dataclass(slots=True)
class _Item:
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


class TokenView(QAbstractScrollArea):
    """Shows one :class:`Tokenization` as coloured token boxes over its text.

    Args:
        parent: optional parent widget.

    Signals:
        token_hovered(int): index of the token under the mouse, -1 when none.
        token_clicked(int): index of the token clicked, -1 for a click beside the tokens.
        scrolled(): the view scrolled (value of the vertical scroll bar changed).

    Attributes:
        max_chars: at most this many characters of the text are laid out; the rest
            is summarised in a final note (keeps the GUI responsive on huge inputs).
    """

    token_hovered = Signal(int)
    token_clicked = Signal(int)
    token_double_clicked = Signal(int)
    scrolled = Signal()

    max_chars = 100_000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.viewport().setMouseTracking(True)
        self._tokenization: Tokenization | None = None
        self._show_whitespace = False
        self._items: list[_Item] = []
        self._token_segments: list[list[tuple[int, float, float]]] = []  # per token
        self._line_tokens: list[list[tuple[int, float, float]]] = []  # per line
        self._line_items: list[tuple[int, int]] = []  # per line: item range
        self._styles: list[theme.TokenStyle] = []
        self._starts: list[int] = []  # token byte starts, for range queries
        self._n_shown = 0  # tokens laid out
        self._hover = -1
        self._highlight: tuple[int, int] | None = None
        self._highlighted: set[int] = set()
        self._mark_spans: list[tuple[int, int]] = []
        self._marked: set[int] = set()
        self._analysis = None  # analyze() of the text, built on first tooltip
        self._laid_out_width = -1.0
        self._width_cache: dict[str, float] = {}
        self._message = ""
        self._show_ids = False
        self._diff: list[bool] = []
        self._update_metrics()
        self.verticalScrollBar().valueChanged.connect(lambda _v: self.scrolled.emit())

    # ------------------------------------------------------------------ public API

    @property
    def tokenization(self) -> Tokenization | None:
        """The tokenization shown, or None."""
        return self._tokenization

    def set_tokenization(self, tokenization: Tokenization | None) -> None:
        """Show ``tokenization`` (None clears the view); keeps the byte highlight."""
        self._tokenization = tokenization
        self._analysis = None
        self._diff = []
        self._hover = -1
        toks = tokenization.tokens if tokenization is not None else ()
        self._starts = [t.byte_start for t in toks]
        fills = theme.token_colors([t.id for t in toks])
        self._styles = [theme.token_style(t, c) for t, c in zip(toks, fills)]
        self._relayout()
        if self._highlight is not None:
            self.highlight_bytes(*self._highlight)
        self._marked = set()
        if self._mark_spans:
            self.mark_spans(self._mark_spans)

    @property
    def show_ids(self) -> bool:
        """True when each token is drawn as its id instead of its text."""
        return self._show_ids

    def set_show_ids(self, on: bool) -> None:
        """Draw each token as its id number (True) or as its text (False)."""
        if bool(on) != self._show_ids:
            self._show_ids = bool(on)
            self._relayout()

    def set_diff_marks(self, marks: list[bool] | None) -> None:
        """Mark tokens (one bool per token; None or [] clears the marks)."""
        self._diff = list(marks or [])
        self.viewport().update()

    def diff_marked(self) -> list[int]:
        """Indices of the tokens carrying a diff mark."""
        return [i for i, m in enumerate(self._diff) if m]

    def first_visible_byte(self) -> int:
        """Byte offset of the first token on the top visible line, or -1."""
        idx = self._first_visible_token()
        tz = self._tokenization
        if idx < 0 or tz is None:
            return -1
        return tz.tokens[idx].byte_start

    def scroll_to_byte(self, offset: int) -> None:
        """Scroll so that the line holding the token at byte ``offset`` is on top."""
        toks = self._tokens_in(offset, offset + 1) if offset >= 0 else []
        if toks:
            self._scroll_to_token(toks[0])

    @property
    def show_whitespace(self) -> bool:
        """True when spaces, tabs and newlines are drawn as ␣, → and ↵."""
        return self._show_whitespace

    def set_show_whitespace(self, on: bool) -> None:
        """Draw whitespace as visible glyphs (␣ → ↵) or as blank space."""
        if bool(on) != self._show_whitespace:
            self._show_whitespace = bool(on)
            self._relayout()

    def highlight_bytes(self, start: int, end: int) -> None:
        """Outline every token overlapping the byte range [start, end).

        ``start < 0`` or ``end <= start`` clears the highlight. The first highlighted
        token is scrolled into view when it is not visible.
        """
        old = self._highlighted
        if start < 0 or end <= start or self._tokenization is None:
            self._highlight = None if start < 0 or end <= start else (start, end)
            self._highlighted = set()
        else:
            self._highlight = (start, end)
            self._highlighted = set(self._tokens_in(start, end))
        if self._highlighted:
            self._ensure_visible(min(self._highlighted))
        if old != self._highlighted:
            self.viewport().update()

    def mark_spans(self, spans: list[tuple[int, int]]) -> None:
        """Mark every token overlapping one of the byte ranges ``spans`` (half-open,
        relative to the shown text) with a bar above it; ``[]`` clears the marks.

        Used to show where a merge selected in the merge table fires.
        """
        self._mark_spans = [(a, b) for a, b in spans if b > a]
        marked: set[int] = set()
        if self._tokenization is not None:
            for a, b in self._mark_spans:
                marked.update(self._tokens_in(a, b))
        if marked != self._marked:
            self._marked = marked
            self.viewport().update()

    def marked_tokens(self) -> list[int]:
        """Indices of the tokens marked by :meth:`mark_spans`, sorted."""
        return sorted(self._marked)

    @property
    def highlighted_range(self) -> tuple[int, int] | None:
        """The byte range last passed to :meth:`highlight_bytes`, or None."""
        return self._highlight

    def highlighted_tokens(self) -> list[int]:
        """Indices of the tokens currently outlined by :meth:`highlight_bytes`, sorted."""
        return sorted(self._highlighted)

    @property
    def hovered_index(self) -> int:
        """Index of the token under the mouse, or -1."""
        return self._hover

    @property
    def shown_token_count(self) -> int:
        """How many tokens are laid out (all of them unless the text is huge)."""
        return self._n_shown

    def token_rects(self, index: int) -> list[QRectF]:
        """The boxes of token ``index`` in viewport coordinates (one per line it spans)."""
        if not 0 <= index < len(self._token_segments):
            return []
        dy = self.verticalScrollBar().value()
        return [
            QRectF(x0, self._line_top(line) - dy, max(x1 - x0, 1.0), self._box_h)
            for line, x0, x1 in self._token_segments[index]
        ]

    def token_at(self, pos: QPoint | QPointF) -> int:
        """Index of the token at viewport position ``pos``, or -1."""
        y = pos.y() + self.verticalScrollBar().value() - _PAD_Y
        if y < 0:
            return -1
        line = int(y // self._line_h)
        if line >= len(self._line_tokens) or y - line * self._line_h > self._box_h:
            return -1
        x = pos.x()
        for idx, x0, x1 in self._line_tokens[line]:
            if x0 <= x < max(x1, x0 + 1.0):
                return idx
        return -1

    def tooltip_text(self, index: int) -> str:
        """Plain-text description of token ``index``: id, bytes, text, cut.

        Lines: ``"token 3 · id 57352 · partial UTF-8"``, ``"bytes F0 9D"``, ``"text
        '\\xf0\\x9d'"`` (readable, with ``\\xNN`` escapes), the SentencePiece piece
        when there is one, and for a partial token the part of the character it
        holds (``"bytes 1–2 of 4 of U+1D538 𝔸"``).
        """
        tz = self._tokenization
        if tz is None or not 0 <= index < len(tz.tokens):
            return ""

        tok = tz.tokens[index]
        kind = []
        if tok.special:
            kind.append("special token")
        if tok.unknown:
            kind.append("unknown piece")
        if tok.partial:
            kind.append("partial UTF-8")
        head = f"token {index} · id {tok.id}" + "".join(f" · {k}" for k in kind)
        glyphs = theme.control_pictures()
        lines = [head, f"bytes {hex_bytes(tok.bytes)}", f"text {token_display(tok.bytes, control_pictures=glyphs)}"]
        if tok.piece is not None:
            lines.append(f"piece {tok.piece}")
        if tok.partial and tz.exact_offsets:
            if self._analysis is None:
                self._analysis = analyze(tz.text)
            lines.append(describe_partial_token(tok.bytes, tok.byte_start, self._analysis, control_pictures=glyphs))
        lines.append(
            f"byte span [{tok.byte_start}, {tok.byte_end}) · characters [{tok.char_start}, {tok.char_end})"
        )
        return "\n".join(lines)

    def set_message(self, text: str) -> None:
        """Show a one-line grey message in place of the tokens (e.g. "no text")."""
        self._message = text
        self.viewport().update()

    # ------------------------------------------------------------------ layout

    def _update_metrics(self) -> None:
        self._fm = QFontMetricsF(self.font())
        bold = QFont(self.font())
        bold.setBold(True)
        self._bold_font = bold
        self._bold_fm = QFontMetricsF(bold)
        self._box_h = self._fm.height() + 2 * _BOX_PAD
        self._line_h = self._box_h + _MARK_H + _LINE_GAP
        self._space_w = self._fm.horizontalAdvance(" ")
        self._width_cache.clear()

    def _line_top(self, line: int) -> float:
        return _PAD_Y + line * self._line_h

    def _avail_width(self) -> float:
        return max(40.0, self.viewport().width() - 2 * _PAD_X)

    def _shown(self, cluster: str) -> str:
        if cluster in (" ", "\n", "\t", "\r\n", "\r"):
            if not self._show_whitespace:
                return " " if cluster != "\t" else "    "
            # ␍, or ← where the fonts lack Control Pictures
            cr = control_glyph(0x0D, control_pictures=theme.control_pictures())
            return {" ": "␣", "\n": "↵", "\t": "→", "\r\n": cr + "↵", "\r": cr}[cluster]
        out = []
        for ch in cluster:
            o = ord(ch)
            if o < 0x20:
                out.append(chr(0x2400 + o))  # control pictures: ␀ ␁ ...
            elif o == 0x7F:
                out.append("␡")
            elif self._show_whitespace and ch in "\u00a0\u3000":
                out.append("⍽")
            else:
                out.append(ch)
        s = "".join(out)
        if unicodedata.category(s[0]) in ("Cf", "Mn", "Me") and self._advance(s) < 1.0:
            return "◌"  # an invisible cluster (U+FEFF, a lone ZWJ...) stays visible
        return s

    def _advance(self, s: str) -> float:
        w = self._width_cache.get(s)
        if w is None:
            w = self._width_cache[s] = self._fm.horizontalAdvance(s)
        return w

    def _build_items(self) -> tuple[list[_Item], list[tuple[float, float]], list[bool]]:
        """Items, each shown token's (u0, u1) range in item units, and break points."""
        tz = self._tokenization
        assert tz is not None
        toks = tz.tokens
        items: list[_Item] = []
        ranges: list[tuple[float, float]] = []
        if tz.exact_offsets and not self._show_ids:
            limit = min(len(tz.text), self.max_chars)
            n_shown = len(toks)
            if limit < len(tz.text):
                n_shown = 0
                while n_shown < len(toks) and toks[n_shown].char_end <= limit:
                    n_shown += 1
                limit = toks[n_shown - 1].char_end if n_shown else 0
            total = 0
            for m in _GRAPHEME.finditer(tz.text, 0, limit):
                s = m.group()
                e = total + sum(_utf8_len(c) for c in s)
                items.append(_Item(s, self._shown(s), total, e, newline=s.endswith(("\n", "\r"))))
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
            self._mark_cuts(items, toks[:n_shown])
        else:
            n_shown = 0
            breaks = [True]
            for t in toks:
                if len(items) >= self.max_chars:
                    break
                label = t.piece if t.piece is not None else t.bytes.decode("utf-8", "replace")
                if self._show_ids:
                    label = str(t.id)
                elif t.partial and t.piece is None:
                    label = token_display(t.bytes, control_pictures=theme.control_pictures())
                u0 = len(items)
                for m in _GRAPHEME.finditer(label or "∅"):
                    s = m.group()
                    items.append(
                        _Item(s, self._shown(s), t.byte_start, t.byte_end, newline=False, owner=n_shown)
                    )
                ranges.append((float(u0), float(len(items))))
                breaks.extend([False] * (len(items) - u0 - 1) + [True])
                n_shown += 1
        self._n_shown = n_shown
        return items, ranges, breaks

    def _mark_cuts(self, items: list[_Item], toks: tuple[Token, ...]) -> None:
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

    def _relayout(self) -> None:
        self._hover = -1
        self._items = []
        self._token_segments = []
        self._line_tokens = []
        self._line_items = []
        self._n_shown = 0
        self._laid_out_width = self._avail_width()
        if self._tokenization is not None:
            self._layout()
        self._update_scrollbar()
        self.viewport().update()

    def _layout(self) -> None:
        items, ranges, breaks = self._build_items()
        min_piece = max(8.0, self._space_w * 1.5)  # each token's share of a cut glyph
        styles = self._styles
        for it in items:
            if it.owner >= 0 and styles[it.owner].bold:
                it.width = max(self._bold_fm.horizontalAdvance(it.shown), self._space_w * 0.5)
            else:
                it.width = max(self._advance(it.shown), self._space_w * 0.5)
            if it.cuts:
                it.width = max(it.width, min_piece * (len(it.cuts) + 1))
        avail = self._laid_out_width
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
                if not _inside_word(items[i - 1].text, it.text):
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
        for ln, (a, b) in enumerate(lines):
            x = _PAD_X
            for it in items[a:b]:
                it.x = x
                it.line = ln
                x += it.width
        self._items = items
        self._line_items = lines
        self._line_tokens = [[] for _ in lines]
        segs_all: list[list[tuple[int, float, float]]] = []
        for ti, (u0, u1) in enumerate(ranges):
            segs: list[tuple[int, float, float]] = []
            if u1 <= u0:  # an empty token: a thin box where it sits
                i0 = min(int(u0), n - 1) if n else -1
                if i0 >= 0:
                    it = items[i0]
                    x0 = it.x + (u0 - i0) * it.width if u0 < n else it.x + it.width
                    segs.append((it.line, x0, x0 + 3.0))
            else:
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
            for ln, x0, x1 in segs:
                self._line_tokens[ln].append((ti, x0, x1))
            segs_all.append(segs)
        self._token_segments = segs_all

    def _content_height(self) -> float:
        extra = self._line_h if self._n_shown < self._n_total() else 0.0
        return 2 * _PAD_Y + len(self._line_items) * self._line_h + extra

    def _n_total(self) -> int:
        return len(self._tokenization.tokens) if self._tokenization is not None else 0

    def _update_scrollbar(self) -> None:
        sb = self.verticalScrollBar()
        h = self.viewport().height()
        sb.setRange(0, max(0, int(self._content_height() - h + 0.5)))
        sb.setPageStep(max(1, h))
        sb.setSingleStep(max(1, int(self._line_h)))

    def _tokens_in(self, start: int, end: int) -> list[int]:
        toks = self._tokenization.tokens if self._tokenization is not None else ()
        i = max(0, bisect_right(self._starts, start) - 1)
        out = []
        while i < len(toks) and toks[i].byte_start < end:
            t = toks[i]
            if t.byte_end > start or (t.byte_start == t.byte_end and start <= t.byte_start):
                out.append(i)
            i += 1
        return out

    def _ensure_visible(self, index: int) -> None:
        if not 0 <= index < len(self._token_segments) or not self._token_segments[index]:
            return
        line = self._token_segments[index][0][0]
        top = self._line_top(line)
        sb = self.verticalScrollBar()
        h = self.viewport().height()
        if top < sb.value() or top + self._line_h > sb.value() + h:
            sb.setValue(int(max(0.0, top - h / 3)))

    # ------------------------------------------------------------------ events

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if abs(self._avail_width() - self._laid_out_width) >= 1.0:
            first = self._first_visible_token()
            self._relayout()
            if first >= 0:
                self._scroll_to_token(first)
        else:
            self._update_scrollbar()

    def changeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._update_metrics()
            self._relayout()

    def _first_visible_token(self) -> int:
        line = int(max(0.0, self.verticalScrollBar().value() - _PAD_Y) // self._line_h)
        if 0 <= line < len(self._line_tokens) and self._line_tokens[line]:
            return self._line_tokens[line][0][0]
        return -1

    def _scroll_to_token(self, index: int) -> None:
        if 0 <= index < len(self._token_segments) and self._token_segments[index]:
            self.verticalScrollBar().setValue(int(self._line_top(self._token_segments[index][0][0]) - _PAD_Y))

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt override
        self.viewport().update()

    def mousePressEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            self.token_clicked.emit(self.token_at(event.position()))
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802 - Qt override
        if event.button() == Qt.MouseButton.LeftButton:
            i = self.token_at(event.position())
            if i >= 0:
                self.token_double_clicked.emit(i)
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802 - Qt override
        self._set_hover(self.token_at(event.position()))
        super().mouseMoveEvent(event)

    def viewportEvent(self, event: QEvent) -> bool:  # noqa: N802 - Qt override
        et = event.type()
        if et == QEvent.Type.Leave:
            self._set_hover(-1)
        elif et == QEvent.Type.ToolTip:
            idx = self.token_at(event.pos())
            if idx >= 0:
                body = html.escape(self.tooltip_text(idx)).replace("\n", "<br>")
                QToolTip.showText(event.globalPos(), f"<p style='white-space:pre'>{body}</p>", self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def _set_hover(self, idx: int) -> None:
        if idx != self._hover:
            self._hover = idx
            self.viewport().update()
            self.token_hovered.emit(idx)

    # ------------------------------------------------------------------ painting

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        p = QPainter(self.viewport())
        try:
            self._paint(p, event.rect())
        finally:
            p.end()

    def _paint(self, p: QPainter, clip) -> None:
        pal = self.palette()
        p.fillRect(clip, pal.base())
        if self._message or self._tokenization is None:
            p.setPen(pal.placeholderText().color())
            p.drawText(QPointF(_PAD_X, _PAD_Y + self._fm.ascent()), self._message)
            return
        dy = self.verticalScrollBar().value()
        top_line = max(0, int((clip.top() + dy - _PAD_Y) // self._line_h))
        bottom_line = min(len(self._line_items) - 1, int((clip.bottom() + dy - _PAD_Y) // self._line_h))
        normal_font = self.font()
        ascent = self._fm.ascent()
        for ln in range(top_line, bottom_line + 1):
            y = self._line_top(ln) - dy
            for ti, x0, x1 in self._line_tokens[ln]:
                self._paint_box(p, self._styles[ti], QRectF(x0, y, max(x1 - x0, 1.0), self._box_h))
            a, b = self._line_items[ln]
            base = y + _BOX_PAD + ascent
            for it in self._items[a:b]:
                st = self._styles[it.owner] if it.owner >= 0 else None
                bold = st is not None and st.bold
                p.setFont(self._bold_font if bold else normal_font)
                if it.shown.strip():
                    ws = it.text.isspace() or it.shown == "◌"
                    col = st.text if st is not None else pal.text().color()
                    if ws and st is not None and not st.bold:
                        col = QColor(col)
                        col.setAlpha(110)
                    p.setPen(col)
                    pad = (it.width - self._advance(it.shown)) / 2 if it.cuts else 0.0
                    p.drawText(QPointF(it.x + pad, base), it.shown)
                if it.cuts:
                    self._paint_cut(p, it, y)
            p.setFont(normal_font)
        if self._diff:
            for ln in range(top_line, bottom_line + 1):
                y = self._line_top(ln) - dy
                for ti, x0, x1 in self._line_tokens[ln]:
                    if ti < len(self._diff) and self._diff[ti]:
                        p.fillRect(QRectF(x0 + 0.5, y, max(x1 - x0 - 1.0, 2.0), _DIFF_H), theme.DIFF_MARK)
        if self._marked:
            for ti in self._marked:
                for r in self.token_rects(ti):
                    p.fillRect(QRectF(r.x() + 0.5, r.y(), max(r.width() - 1.0, 2.0), 3.0), theme.FIRE_MARK)
        # outlines last, so neighbours never cover them
        for ti in sorted(self._highlighted | ({self._hover} if self._hover >= 0 else set())):
            color = theme.HOVER_OUTLINE if ti == self._hover else theme.HIGHLIGHT_OUTLINE
            p.setPen(QPen(color, 2.0))
            p.setBrush(Qt.BrushStyle.NoBrush)
            for r in self.token_rects(ti):
                p.drawRect(r.adjusted(1, 1, -1, -1))
        if self._n_shown < self._n_total():
            y = self._line_top(len(self._line_items)) - dy
            p.setPen(pal.placeholderText().color())
            p.drawText(
                QPointF(_PAD_X, y + _BOX_PAD + ascent),
                f"… {self._n_total() - self._n_shown:,} more tokens not shown",
            )

    def _paint_box(self, p: QPainter, st: theme.TokenStyle, r: QRectF) -> None:
        inner = r.adjusted(0.5, 0, -0.5, 0)
        p.fillRect(inner, st.background)
        if st.hatch is not None:
            p.fillRect(inner, QBrush(st.hatch, st.hatch_style))
        if st.border is not None:
            pen = QPen(st.border, 1.0)
            if st.dashed:
                pen.setStyle(Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(inner.adjusted(0.5, 0.5, -0.5, -0.5))

    def _paint_cut(self, p: QPainter, it: _Item, y: float) -> None:
        """Striped underline under a cluster shared by several tokens, ticks at the cuts."""
        band_y = y + self._box_h
        worst = theme.CUT_CODE_POINT if any(k == "code point" for _, k in it.cuts) else theme.CUT_GRAPHEME
        x = it.x
        stripe = 3.0
        end = it.x + it.width
        while x < end:  # dashes: coloured, gap, coloured...
            p.fillRect(QRectF(x, band_y, min(stripe, end - x), _MARK_H), worst)
            x += 2 * stripe
        for frac, kind in it.cuts:
            cx = it.x + frac * it.width
            col = theme.CUT_CODE_POINT if kind == "code point" else theme.CUT_GRAPHEME
            p.setPen(QPen(col, 2.0))
            p.drawLine(QPointF(cx, band_y - _BOX_PAD), QPointF(cx, band_y + _MARK_H))
