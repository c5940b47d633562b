"""A custom-painted byte axis: bytes, code points, grapheme clusters and tokens.

Every byte of the UTF-8 text is a fixed-width cell on one horizontal axis that wraps into rows
of 16–32 bytes (as many as fit). Each row shows, top to bottom:

* **bytes**: the byte in hex, coloured by its role (ASCII, lead byte of an n-byte sequence,
  continuation byte k of n, invalid);
* **code points**: one box per code point over its bytes (``U+XXXX`` and the character; the
  Unicode name in the tooltip, or in the box when it is wide enough);
* **graphemes**: one box per grapheme cluster;
* one track per tokenizer: token boxes in the token's id colour with the id (tokens sharing one span
  share one box), and cut markers where a boundary falls inside a code point (red) or grapheme (orange).

Hovering a token in Compare highlights its bytes. In a resizable QScrollArea, height follows width.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from PySide6.QtCore import QEvent, QPointF, QRect, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QMouseEvent, QPainter, QPaintEvent, QPen, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from tokexplorer.core.text import CodePointInfo, GraphemeInfo, describe_partial_token, utf8
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import emoji_font, grapheme_text, is_emoji, shown_piece, visible_char
from tokexplorer.gui.widgets.row_labels import distinct_elisions, label_width
from tokexplorer.gui.widgets.token_boxes import box_labels, shared_line
from tokexplorer.gui.widgets.track_paint import TokenTrack, paint_index

CELL_W = 30.0
"""Width of one byte cell, pixels."""
MIN_PER_ROW = 16
MAX_PER_ROW = 32
LABEL_W = 120.0
"""Least width of the track-name column at the left, pixels (wider for longer names, up to LABEL_MAX_W)."""
LABEL_MAX_W = 260.0
_ROW_GAP = 10.0
_Item = TypeVar("_Item", CodePointInfo, GraphemeInfo)


@dataclass(frozen=True, slots=True)
class _Window:
    """The part of the axis a paint event covers: wrapped rows and bytes [b0, b1)."""

    first_row: int
    last_row: int
    b0: int
    b1: int


class ByteView(QWidget):
    """Paints the byte axis of one text (see the module docstring).

    Args:
        parent: optional parent widget.

    Attributes:
        max_bytes: at most this many bytes are drawn (the rest is summarised).
        offset_base: byte offset of the first byte shown in the whole input (a part of
            a long text or file starts later); row labels and byte tooltips add it.
        label_w: width of the row-label column, pixels: the longest label, from LABEL_W to
            LABEL_MAX_W (longer ones cut so that they stay distinct; see ``row_labels``).
    """

    max_bytes = 16_384

    #: bytes of a token double-clicked in a tokenizer row and that row's tokenizer name (ask for its merge tree)
    token_double_clicked = Signal(bytes, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMouseTracking(True)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self._analysis: utf8.Utf8Analysis | None = None
        self._tracks: list[TokenTrack] = []
        self._labels: list[list[str | None]] = []  # per track: the label of each token box
        self._highlight: tuple[int, int] | None = None
        self._fills, self._ends = paint_index([])
        self.offset_base = 0
        self.label_w = LABEL_W  # wider for longer row labels (_fit_names)
        self._names: list[str] = []  # the row labels, full and as drawn (cut to label_w)
        self._shown_names: list[str] = []
        self._update_metrics()

    # ------------------------------------------------------------------ public API

    def set_data(self, analysis: utf8.Utf8Analysis | None, tracks: list[TokenTrack]) -> None:
        """Show ``analysis`` (a ``tokexplorer.core.text.utf8.Utf8Analysis``) with token tracks."""
        self._analysis = analysis
        self._tracks = list(tracks)
        self._fills, self._ends = paint_index([tr.tokenization for tr in self._tracks])  # once per text
        self._labels = [box_labels(tr.tokenization.tokens) if tr.tokenization else [] for tr in self._tracks]
        self._fit_names()
        self.update()

    def set_highlight(self, start: int, end: int) -> None:
        """Highlight bytes [start, end) on every track; ``end <= start`` clears it."""
        self._highlight = (start, end) if 0 <= start < end else None
        self.update()

    @property
    def highlight(self) -> tuple[int, int] | None:
        """The highlighted byte range, or None."""
        return self._highlight

    @property
    def bytes_per_row(self) -> int:
        """Bytes in one wrapped row (16–32, as many as fit the width)."""
        fit = int((self.width() - self.label_w - 8) // CELL_W)
        return max(MIN_PER_ROW, min(MAX_PER_ROW, fit))

    @property
    def n_tracks(self) -> int:
        """Tracks in each row: bytes, code points, graphemes and one per tokenizer."""
        return 3 + len(self._tracks)

    def byte_rect(self, offset: int) -> QRectF:
        """The cell of byte ``offset`` on the bytes track, in widget coordinates."""
        n = self.bytes_per_row
        row, col = divmod(offset, n)
        return QRectF(self.label_w + col * CELL_W, self._row_top(row), CELL_W, self._track_h)

    def row_of_byte(self, offset: int) -> int:
        """Index of the wrapped row holding byte ``offset``."""
        return offset // self.bytes_per_row

    def row_top(self, row: int) -> float:
        """y of the top of wrapped row ``row``."""
        return self._row_top(row)

    # ------------------------------------------------------------------ geometry

    def _update_metrics(self) -> None:
        self._fm = QFontMetricsF(self.font())
        small = QFont(self.font())
        small.setPointSizeF(max(6.0, small.pointSizeF() * 0.85))
        self._small = small
        self._small_fm = QFontMetricsF(small)
        self._glyphs: dict[str, str] = {}
        self._track_h = self._fm.height() + 8
        # grapheme clusters get the row's full height: emoji and CJK stay legible
        big = QFont(self.font())
        big.setPixelSize(max(8, int(self._track_h) - 5))
        self._big, self._big_emoji = big, emoji_font(big)  # an emoji as tall as an ideograph
        self._big_fm = QFontMetricsF(big)
        self._fit_names()

    def _fit_names(self) -> None:
        """The row labels and the column's width: the longest label up to LABEL_MAX_W, the
        others cut so that different names stay different (the whole name in the tooltip)."""
        self._names = ["bytes", "code points", "graphemes"] + [
            t.name if t.exact else f"\u2248 {t.name}" for t in self._tracks
        ]
        self.label_w = label_width(self._names, self._small_fm, least=LABEL_W, most=LABEL_MAX_W)
        self._shown_names = distinct_elisions(self._names, self._small_fm, self.label_w - 6)
        self._update_height()

    def _n_bytes(self) -> int:
        return min(len(self._analysis.data), self.max_bytes) if self._analysis is not None else 0

    def _n_rows(self) -> int:
        n = self._n_bytes()
        return max(1, -(-n // self.bytes_per_row))

    def _row_h(self) -> float:
        return self.n_tracks * self._track_h + _ROW_GAP

    def _row_top(self, row: int) -> float:
        return 4.0 + row * self._row_h()

    def _content_height(self) -> int:
        extra = self._track_h if self._analysis is not None and len(self._analysis.data) > self.max_bytes else 0
        return int(8 + self._n_rows() * self._row_h() + extra)

    def _update_height(self) -> None:
        self.setMinimumHeight(self._content_height())
        self.setMinimumWidth(int(self.label_w + MIN_PER_ROW * CELL_W + 8))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(int(self.label_w + MAX_PER_ROW * CELL_W + 8), self._content_height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._update_height()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt override
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._update_metrics()

    def _spans(self, start: int, end: int) -> Iterator[tuple[int, float, float, bool, bool]]:
        """Yield (row, x0, x1, clipped_left, clipped_right) pieces of a byte span."""
        n = self.bytes_per_row
        limit = self._n_bytes()
        end = min(end, limit)
        b = start
        while b < end:
            row = b // n
            row_end = min(end, (row + 1) * n)
            x0 = self.label_w + (b - row * n) * CELL_W
            x1 = self.label_w + (row_end - row * n) * CELL_W
            yield row, x0, x1, b != start, row_end != end
            b = row_end

    # ------------------------------------------------------------------ tooltips

    def _hit(self, x: float, y: float) -> tuple[int, int] | None:
        """(track, byte offset) under a point, or None."""
        if self._analysis is None or x < self.label_w:
            return None
        row = int((y - 4.0) // self._row_h())
        if row < 0:
            return None
        within = y - self._row_top(row)
        track = int(within // self._track_h)
        if track >= self.n_tracks:
            return None
        col = int((x - self.label_w) // CELL_W)
        if col >= self.bytes_per_row:
            return None
        off = row * self.bytes_per_row + col
        if off >= self._n_bytes():
            return None
        return track, off

    def tooltip_at(self, x: float, y: float) -> str:
        """The tooltip text for a point (byte, code point, grapheme or token)."""
        if x < self.label_w and self._analysis is not None:  # a row label: the whole name when it is cut
            k = int((y - 4.0) % self._row_h() // self._track_h)
            return self._names[k] if k < len(self._names) and self._shown_names[k] != self._names[k] else ""
        hit = self._hit(x, y)
        if hit is None:
            return ""
        track, off = hit
        a = self._analysis
        info = a.bytes[off]
        if track == 0:
            return f"byte {off + self.offset_base}: {info.value:02X} · {utf8.describe_byte(info)}"
        if track == 1:
            cp = a.code_points[info.cp_index]
            return f"code point {cp.index}: {cp.label}\nbytes {a.data[cp.byte_start:cp.byte_end].hex(' ').upper()}"
        if track == 2:
            g = a.graphemes[info.grapheme_index]
            labels = " + ".join(f"U+{ord(c):04X}" for c in g.text)
            return f"grapheme {g.index}: {g.text}\n{labels}\nbytes [{g.byte_start}, {g.byte_end})"
        tr = self._tracks[track - 3]
        if tr.tokenization is None:
            return tr.error or ""
        for i, t in enumerate(tr.tokenization.tokens):
            if t.byte_start <= off < t.byte_end:
                text = f"{tr.name} token {i}: id {t.id}\nbytes {t.bytes.hex(' ').upper()}"
                if i < len(tr.spellings) and tr.spellings[i]:
                    text += f"  ·  spelled {shown_piece(tr.spellings[i])}"
                text += shared_line(tr.tokenization.tokens, i, off)
                if i < len(tr.descriptions):
                    if t.partial or t.unknown or not tr.exact or i in tr.grapheme_parts:
                        text += "\n" + tr.descriptions[i]
                elif t.partial and a.data[t.byte_start : t.byte_end] == t.bytes:
                    glyphs = theme.control_pictures()
                    text += "\n" + describe_partial_token(t.bytes, t.byte_start, a, control_pictures=glyphs)
                if not tr.exact:
                    text += "\n\u2248 approximate span: the normalizer changed the text"
                return text
        return ""

    def token_at(self, x: float, y: float) -> tuple[bytes, str] | None:
        """Bytes of the token under a point in a tokenizer row and the row's tokenizer name, or None."""
        hit = self._hit(x, y)
        if hit is None or hit[0] < 3:
            return None
        track, off = hit
        tr = self._tracks[track - 3]
        if tr.tokenization is None:
            return None
        for t in tr.tokenization.tokens:
            if t.byte_start <= off < t.byte_end:
                return bytes(t.bytes), tr.name
        return None

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt override
        """Double-clicking a token asks for its merge tree (``token_double_clicked``)."""
        pos = event.position()
        tok = self.token_at(pos.x(), pos.y())
        if tok is not None:
            self.token_double_clicked.emit(*tok)
        super().mouseDoubleClickEvent(event)

    def event(self, event: QEvent) -> bool:  # noqa: D401 - Qt override
        if event.type() == QEvent.Type.ToolTip:
            text = self.tooltip_at(event.pos().x(), event.pos().y())
            if text:
                QToolTip.showText(event.globalPos(), text, self)
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().event(event)

    # ------------------------------------------------------------------ painting

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        try:
            self._paint(p, event.rect())
        finally:
            p.end()

    def _paint(self, p: QPainter, clip: QRect) -> None:
        pal = self.palette()
        p.fillRect(clip, pal.base())
        if self._analysis is None:
            return
        a = self._analysis
        n = self.bytes_per_row
        rows = self._n_rows()
        row_h = self._row_h()
        first = max(0, int((clip.top() - 4.0) // row_h))
        last = min(rows - 1, int((clip.bottom() - 4.0) // row_h))
        if first > last:
            return
        win = _Window(first, last, first * n, min(self._n_bytes(), (last + 1) * n))
        self._paint_labels(p, win)
        self._paint_bytes(p, win)
        self._paint_code_points(p, win)
        self._paint_graphemes(p, win)
        for k, tr in enumerate(self._tracks):
            self._paint_track(p, win, k, tr)
        if self._highlight is not None:
            hs, he = self._highlight
            p.setPen(QPen(theme.HIGHLIGHT_OUTLINE, 2.0))
            p.setBrush(Qt.BrushStyle.NoBrush)
            for row, x0, x1, _l, _r in self._spans(hs, he):
                if first <= row <= last:
                    top = self._row_top(row)
                    p.drawRect(QRectF(x0, top, x1 - x0, self.n_tracks * self._track_h).adjusted(1, 1, -1, -1))
        if len(a.data) > self.max_bytes and last == rows - 1:
            p.setPen(pal.placeholderText().color())
            p.drawText(
                QPointF(self.label_w, self._row_top(rows) + self._fm.ascent()),
                f"… {len(a.data) - self.max_bytes:,} more bytes not shown",
            )

    def _paint_labels(self, p: QPainter, win: _Window) -> None:
        """Track names at the left of every visible row, and the row's first byte offset."""
        pal = self.palette()
        names = self._shown_names
        th = self._track_h
        n = self.bytes_per_row
        for row in range(win.first_row, win.last_row + 1):
            top = self._row_top(row)
            p.setFont(self._small)
            p.setPen(pal.placeholderText().color())
            for k, name in enumerate(names):
                r = QRectF(2, top + k * th, self.label_w - 6, th)
                p.drawText(r, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, name)
            p.setPen(pal.placeholderText().color())
            p.drawText(QPointF(2, top + th * 0.5 + self._small_fm.ascent() / 2), f"{row * n + self.offset_base}")

    def _paint_bytes(self, p: QPainter, win: _Window) -> None:
        """The bytes track: each byte in hex on its role's colour, k/n of a sequence."""
        pal = self.palette()
        a = self._analysis
        p.setFont(self.font())
        for off in range(win.b0, win.b1):
            info = a.bytes[off]
            r = self.byte_rect(off)
            p.fillRect(r.adjusted(0.5, 0.5, -0.5, -0.5), theme.BYTE_ROLE_COLORS[info.role])
            p.setPen(pal.text().color())
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, f"{info.value:02X}")
            if info.role in ("lead", "continuation"):
                p.setPen(pal.placeholderText().color())
                p.setFont(self._small)
                p.drawText(r.adjusted(0, 0, -1, 0), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignBottom,
                           f"{info.position}")
                p.setFont(self.font())

    def _paint_code_points(self, p: QPainter, win: _Window) -> None:
        """The code points track: ``U+XXXX`` and the glyph (and the name when it fits)."""
        text_col = self.palette().text().color()
        border = QPen(theme.BOX_BORDER, 1.0)
        for cp, r in self._boxes(win, 1, self._analysis.code_points, lambda b: b.cp_index):
            w = r.width()
            if cp.invalid:
                self._box(p, r, theme.BYTE_ROLE_COLORS["invalid"], border)
                p.setPen(theme.ERROR_TEXT)
                p.setFont(self._small)
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, "bad")
                p.setFont(self.font())
                continue
            self._box(p, r, theme.CODE_POINT_BG, border)
            glyph = self._glyph(cp.char)
            full = f"U+{cp.value:04X} {glyph}"
            if w > self._fm.horizontalAdvance(full + " " + cp.name) + 6:
                full = f"{full} {cp.name}"
            label = full if self._fm.horizontalAdvance(full) + 4 <= w else glyph
            p.setPen(text_col)
            p.drawText(r, Qt.AlignmentFlag.AlignCenter, self._fm.elidedText(label, Qt.TextElideMode.ElideRight, w - 2))

    def _paint_graphemes(self, p: QPainter, win: _Window) -> None:
        """The graphemes track: each cluster drawn whole, large when it fits."""
        text_col = self.palette().text().color()
        border = QPen(theme.BOX_BORDER, 1.0)
        for g, r in self._boxes(win, 2, self._analysis.graphemes, lambda b: b.grapheme_index):
            shown = grapheme_text(g.text)
            if shown is None:
                shown = "".join(self._glyph(c) for c in g.text)
            self._box(p, r, theme.GRAPHEME_BG, border)
            p.setPen(text_col)
            if self._big_fm.horizontalAdvance(shown) <= r.width() - 2:
                p.setFont(self._big_emoji if is_emoji(shown) else self._big)
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, shown)
                p.setFont(self.font())
            else:
                elided = self._fm.elidedText(shown, Qt.TextElideMode.ElideRight, r.width() - 2)
                p.drawText(r, Qt.AlignmentFlag.AlignCenter, elided)

    def _boxes(
        self, win: _Window, track: int, items: Sequence[_Item], index_of: Callable[[utf8.ByteInfo], int]
    ) -> Iterator[tuple[_Item, QRectF]]:
        """Each code point or grapheme of ``items`` over the window's bytes (``index_of``
        a byte gives its item's index) with one box of track ``track`` per row it spans."""
        if win.b0 >= win.b1:
            return
        first, last = index_of(self._analysis.bytes[win.b0]), index_of(self._analysis.bytes[win.b1 - 1])
        for item in items[first : last + 1]:
            for row, x0, x1, _l, _r in self._spans(item.byte_start, item.byte_end):
                yield item, QRectF(x0, self._row_top(row) + track * self._track_h, x1 - x0, self._track_h)

    def _paint_track(self, p: QPainter, win: _Window, k: int, tr: TokenTrack) -> None:
        """Tokenizer track ``k``: token boxes with their ids and the cut markers (or the error)."""
        th = self._track_h
        n = self.bytes_per_row
        y_off = (3 + k) * th
        if tr.tokenization is None:
            p.setPen(theme.ERROR_TEXT)
            for row in range(win.first_row, win.last_row + 1):
                r = QRectF(self.label_w + 2, self._row_top(row) + y_off, n * CELL_W - 4, th)
                p.drawText(r, Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft,
                           self._fm.elidedText("⚠ " + (tr.error or ""), Qt.TextElideMode.ElideRight, r.width()))
            return
        toks = tr.tokenization.tokens
        fills, ends, labels = self._fills[k], self._ends[k], self._labels[k]
        # skip the tokens ending before the window, stop after it (out of order: all)
        first = bisect.bisect_right(ends, win.b0) if ends is not None else 0
        for i in range(first, len(toks)):
            t, fill, label = toks[i], fills[i], labels[i]
            if t.byte_start >= win.b1 and ends is not None:
                break
            if label is None or t.byte_end <= win.b0 or t.byte_start >= win.b1:
                continue
            st = theme.token_style(t, fill, grapheme_part=i in tr.grapheme_parts)
            for row, x0, x1, _l, _r in self._spans(t.byte_start, t.byte_end):
                r = QRectF(x0, self._row_top(row) + y_off, x1 - x0, th)
                p.fillRect(r.adjusted(0.5, 0.5, -0.5, -0.5), st.background)
                if st.hatch is not None:
                    p.fillRect(r, QBrush(st.hatch, st.hatch_style))
                pen = QPen(st.border or theme.BOX_BORDER, 1.0)
                pen.setStyle(st.pen_style)
                p.setPen(pen)
                p.setBrush(Qt.BrushStyle.NoBrush)
                p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5))
                p.setPen(st.text)
                p.setFont(self._small)
                p.drawText(r, Qt.AlignmentFlag.AlignCenter,
                           self._small_fm.elidedText(label, Qt.TextElideMode.ElideRight, x1 - x0 - 2))
        for off, kind in tr.cuts:
            if not win.b0 <= off < win.b1 or off % n == 0:
                continue
            col = theme.CUT_CODE_POINT if kind == "code point" else theme.CUT_GRAPHEME
            row = off // n
            x = self.label_w + (off - row * n) * CELL_W
            top = self._row_top(row)
            p.setPen(QPen(col, 3.0))
            p.drawLine(QPointF(x, top + y_off), QPointF(x, top + y_off + th))
            p.setPen(QPen(col, 1.0, Qt.PenStyle.DotLine))
            p.drawLine(QPointF(x, top), QPointF(x, top + y_off))
        p.setFont(self.font())

    def _glyph(self, ch: str) -> str:
        """:func:`visible_char` for the widget's font (cached per code point)."""
        g = self._glyphs.get(ch)
        if g is None:
            g = self._glyphs[ch] = visible_char(ch, self.font())
        return g

    def _box(self, p: QPainter, r: QRectF, fill: QColor, pen: QPen) -> None:
        p.fillRect(r.adjusted(0.5, 0.5, -0.5, -0.5), fill)
        p.setPen(pen)
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRect(r.adjusted(0.5, 0.5, -0.5, -0.5))
