"""A custom-painted view of one tokenization: coloured token boxes over the text.

Each grapheme cluster of the text is drawn once, and every token is a box over
the clusters (or the parts of a cluster) its bytes cover (the layout is
:mod:`tokexplorer.gui.widgets.token_layout`). A token that holds only some bytes
of a character is therefore never drawn as ``"�"``: the character is drawn once
over the boxes of all the tokens that share it, and a striped underline marks the
cut (red: the boundary falls inside a code point; orange: inside a grapheme
cluster, between code points). Only the visible lines are painted, so texts with
thousands of tokens scroll smoothly; very long texts are shown up to
:attr:`TokenView.max_chars` characters with a note. With approximate offsets, or
with :meth:`TokenView.set_show_ids`, each token is drawn as its piece text or id.

Diff marks (:meth:`TokenView.set_diff_marks`) draw a bar along the top of the
tokens whose byte range is not a token in some other column.
"""

from __future__ import annotations

import html
from bisect import bisect_left

from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QPainter, QPen
from PySide6.QtWidgets import QAbstractScrollArea, QToolTip, QWidget

from tokexplorer.core.text import grapheme_part_tokens, grapheme_parts, utf8
from tokexplorer.core.types import Tokenization
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.token_layout import (
    BOX_PAD,
    MARK_H,
    PAD_X,
    PAD_Y,
    Item,
    LayoutOptions,
    TokenLayout,
    TokenMetrics,
    WordStarts,
    lay_out,
)
from tokexplorer.gui.widgets.token_tooltip import token_tooltip

_DIFF_H = 3.0  # height of the diff mark bar along the top of a token box


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
        self._word_starts: WordStarts = None
        self._show_whitespace = False
        self._lay = TokenLayout()  # items, lines and token boxes of the text shown
        self._styles: list[theme.TokenStyle] = []
        self._starts: list[int] = []  # token byte starts, for range queries
        self._hover = -1
        self._highlight: tuple[int, int] | None = None
        self._highlighted: set[int] = set()
        self._mark_spans: list[tuple[int, int]] = []
        self._marked: set[int] = set()
        self._analysis: utf8.Utf8Analysis | None = None  # of the text, built on the first tooltip
        self._grapheme_parts: dict[int, str] | None = None  # of the tokenization, built on the first tooltip
        self._laid_out_width = -1.0
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

    def set_tokenization(self, tokenization: Tokenization | None, *, word_starts: WordStarts = None) -> None:
        """Show ``tokenization`` (None clears the view), keep the byte highlight; ``word_starts``: see LayoutOptions."""
        self._tokenization, self._word_starts = tokenization, word_starts
        self._analysis = None
        self._grapheme_parts: dict[int, str] | None = None
        self._diff = []
        self._hover = -1
        toks = tokenization.tokens if tokenization is not None else ()
        self._starts = [t.byte_start for t in toks]
        fills = theme.token_colors([t.id for t in toks])
        parts = set(grapheme_part_tokens(tokenization)) if tokenization is not None else set()
        self._styles = [theme.token_style(t, c, grapheme_part=i in parts) for i, (t, c) in enumerate(zip(toks, fills))]
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
        return self._lay.n_shown

    def token_rects(self, index: int) -> list[QRectF]:
        """The boxes of token ``index`` in viewport coordinates (one per line it spans)."""
        if not 0 <= index < len(self._lay.token_segments):
            return []
        dy = self.verticalScrollBar().value()
        return [
            QRectF(x0, self._metrics.line_top(line) - dy, max(x1 - x0, 1.0), self._metrics.box_h)
            for line, x0, x1 in self._lay.token_segments[index]
        ]

    def token_at(self, pos: QPoint | QPointF) -> int:
        """Index of the token at viewport position ``pos``, or -1."""
        y = pos.y() + self.verticalScrollBar().value() - PAD_Y
        if y < 0:
            return -1
        line = int(y // self._metrics.line_h)
        if line >= len(self._lay.line_tokens) or y - line * self._metrics.line_h > self._metrics.box_h:
            return -1
        x = pos.x()
        for idx, x0, x1 in self._lay.line_tokens[line]:
            if x0 <= x < max(x1, x0 + 1.0):
                return idx
        return -1

    def tooltip_text(self, index: int) -> str:
        """Plain-text description of token ``index``: id, bytes, text, cut.

        Lines: ``"token 3 · id 57352 · partial UTF-8"``, ``"bytes F0 9D"``, ``"text
        '\\xf0\\x9d'"`` (readable, with ``\\xNN`` escapes), the SentencePiece piece
        when there is one, for a partial token the part of the character it
        holds (``"bytes 1–2 of 4 of U+1D538 𝔸"``), for a part of a grapheme
        cluster its role (``"combining mark U+0301 ◌́ of grapheme é"``).
        """
        tz = self._tokenization
        if tz is None or not 0 <= index < len(tz.tokens):
            return ""
        return token_tooltip(tz, index, self._text_analysis, self._parts_of_graphemes)

    def _parts_of_graphemes(self) -> dict[int, str]:
        """``grapheme_parts()`` of the tokenization shown, built on the first call after a change."""
        if self._grapheme_parts is None:
            self._grapheme_parts = grapheme_parts(self._tokenization)
        return self._grapheme_parts

    def _text_analysis(self) -> utf8.Utf8Analysis:
        """``utf8.analyze()`` of the text shown, built on the first call after a change."""
        if self._analysis is None:
            self._analysis = utf8.analyze(self._tokenization.text)
        return self._analysis

    def set_message(self, text: str) -> None:
        """Show a one-line grey message in place of the tokens (e.g. "no text")."""
        self._message = text
        self.viewport().update()

    # ------------------------------------------------------------------ layout

    def _update_metrics(self) -> None:
        self._metrics = TokenMetrics(self.font())

    def _avail_width(self) -> float:
        return max(40.0, self.viewport().width() - 2 * PAD_X)

    def _relayout(self) -> None:
        self._hover = -1
        self._laid_out_width = self._avail_width()
        if self._tokenization is not None:
            ws, ids, starts = self._show_whitespace, self._show_ids, self._word_starts
            options = LayoutOptions(show_whitespace=ws, show_ids=ids, max_chars=self.max_chars, word_starts=starts)
            self._lay = lay_out(
                self._tokenization, self._styles, metrics=self._metrics, width=self._laid_out_width, options=options
            )
        else:
            self._lay = TokenLayout()
        self._update_scrollbar()
        self.viewport().update()

    def _content_height(self) -> float:
        extra = self._metrics.line_h if self._lay.n_shown < self._n_total() else 0.0
        return 2 * PAD_Y + len(self._lay.line_items) * self._metrics.line_h + extra

    def _n_total(self) -> int:
        return len(self._tokenization.tokens) if self._tokenization is not None else 0

    def _update_scrollbar(self) -> None:
        sb = self.verticalScrollBar()
        h = self.viewport().height()
        sb.setRange(0, max(0, int(self._content_height() - h + 0.5)))
        sb.setPageStep(max(1, h))
        sb.setSingleStep(max(1, int(self._metrics.line_h)))

    def _tokens_in(self, start: int, end: int) -> list[int]:
        toks = self._tokenization.tokens if self._tokenization is not None else ()
        # pieces made from one expanded character share its span (SentencePiece), so
        # step back over every earlier token still reaching past start
        i = bisect_left(self._starts, start)
        while i > 0 and toks[i - 1].byte_end > start:
            i -= 1
        out = []
        while i < len(toks) and toks[i].byte_start < end:
            t = toks[i]
            if t.byte_end > start or (t.byte_start == t.byte_end and start <= t.byte_start):
                out.append(i)
            i += 1
        return out

    def _ensure_visible(self, index: int) -> None:
        if not 0 <= index < len(self._lay.token_segments) or not self._lay.token_segments[index]:
            return
        line = self._lay.token_segments[index][0][0]
        top = self._metrics.line_top(line)
        sb = self.verticalScrollBar()
        h = self.viewport().height()
        if top < sb.value() or top + self._metrics.line_h > sb.value() + h:
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
        line = int(max(0.0, self.verticalScrollBar().value() - PAD_Y) // self._metrics.line_h)
        if 0 <= line < len(self._lay.line_tokens) and self._lay.line_tokens[line]:
            return self._lay.line_tokens[line][0][0]
        return -1

    def _scroll_to_token(self, index: int) -> None:
        if 0 <= index < len(self._lay.token_segments) and self._lay.token_segments[index]:
            top = self._metrics.line_top(self._lay.token_segments[index][0][0])
            self.verticalScrollBar().setValue(int(top - PAD_Y))

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
            p.drawText(QPointF(PAD_X, PAD_Y + self._metrics.fm.ascent()), self._message)
            return
        dy = self.verticalScrollBar().value()
        top_line = max(0, int((clip.top() + dy - PAD_Y) // self._metrics.line_h))
        bottom_line = min(len(self._lay.line_items) - 1, int((clip.bottom() + dy - PAD_Y) // self._metrics.line_h))
        normal_font = self.font()
        ascent = self._metrics.fm.ascent()
        for ln in range(top_line, bottom_line + 1):
            y = self._metrics.line_top(ln) - dy
            for ti, x0, x1 in self._lay.line_tokens[ln]:
                self._paint_box(p, self._styles[ti], QRectF(x0, y, max(x1 - x0, 1.0), self._metrics.box_h))
            a, b = self._lay.line_items[ln]
            base = y + BOX_PAD + ascent
            for it in self._lay.items[a:b]:
                st = self._styles[it.owner] if it.owner >= 0 else None
                bold = st is not None and st.bold
                p.setFont(self._metrics.bold_font if bold else normal_font)
                if it.shown.strip():
                    ws = it.text.isspace() or it.shown == "◌"
                    col = st.text if st is not None else pal.text().color()
                    if ws and st is not None and not st.bold:
                        col = QColor(col)
                        col.setAlpha(110)
                    p.setPen(col)
                    pad = (it.width - self._metrics.advance(it.shown)) / 2 if it.cuts else 0.0
                    p.drawText(QPointF(it.x + pad, base), it.shown)
                if it.cuts:
                    self._paint_cut(p, it, y)
            p.setFont(normal_font)
        if self._diff:
            for ln in range(top_line, bottom_line + 1):
                y = self._metrics.line_top(ln) - dy
                for ti, x0, x1 in self._lay.line_tokens[ln]:
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
        if self._lay.n_shown < self._n_total():
            y = self._metrics.line_top(len(self._lay.line_items)) - dy
            p.setPen(pal.placeholderText().color())
            p.drawText(
                QPointF(PAD_X, y + BOX_PAD + ascent),
                f"… {self._n_total() - self._lay.n_shown:,} more tokens not shown",
            )

    def _paint_box(self, p: QPainter, st: theme.TokenStyle, r: QRectF) -> None:
        inner = r.adjusted(0.5, 0, -0.5, 0)
        p.fillRect(inner, st.background)
        if st.hatch is not None:
            p.fillRect(inner, QBrush(st.hatch, st.hatch_style))
        if st.border is not None:
            pen = QPen(st.border, 1.0)
            pen.setStyle(st.pen_style)
            p.setPen(pen)
            p.setBrush(Qt.BrushStyle.NoBrush)
            p.drawRect(inner.adjusted(0.5, 0.5, -0.5, -0.5))

    def _paint_cut(self, p: QPainter, it: Item, y: float) -> None:
        """Striped underline under a cluster shared by several tokens, ticks at the cuts."""
        band_y = y + self._metrics.box_h
        worst = theme.CUT_CODE_POINT if any(k == "code point" for _, k in it.cuts) else theme.CUT_GRAPHEME
        x = it.x
        stripe = 3.0
        end = it.x + it.width
        while x < end:  # dashes: coloured, gap, coloured...
            p.fillRect(QRectF(x, band_y, min(stripe, end - x), MARK_H), worst)
            x += 2 * stripe
        for frac, kind in it.cuts:
            cx = it.x + frac * it.width
            col = theme.CUT_CODE_POINT if kind == "code point" else theme.CUT_GRAPHEME
            p.setPen(QPen(col, 2.0))
            p.drawLine(QPointF(cx, band_y - BOX_PAD), QPointF(cx, band_y + MARK_H))
