"""Where a merge fires: the Compare text with the merge's places highlighted, and its chunks.

:class:`FireSitesView` is the merge table's "Where it fires" tab. It shows one
merge of a :class:`~tokexplorer.core.analysis.merges.FireIndex`: a caption with
how often the merge fires in the Compare text (named by its source) or why it
fires nowhere there (:func:`~tokexplorer.core.analysis.firing.why_no_fire`), the
text with every place it applies highlighted, and a table of the chunks it
occurs in with counts.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import FireIndex, NoFire, why_no_fire
from tokexplorer.core.types import MergeRecord
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import shown_piece

#: Most highlighted spans and listed chunks.
MAX_FIRE_SPANS = 5000
MAX_FIRE_CHUNKS = 500

_SELECT_A_MERGE = "Select a merge to see where it fires in the Compare text."


def byte_to_utf16(text: str) -> list[int]:
    """For each byte offset of ``text``'s UTF-8 (``0..len``), the UTF-16 offset of
    the character holding it (Qt text positions count UTF-16 units).

    >>> byte_to_utf16("a你😀")
    [0, 1, 1, 1, 2, 2, 2, 2, 4]
    """
    out: list[int] = []
    pos = 0
    for ch in text:
        n = len(ch.encode("utf-8"))
        out.extend([pos] * n)
        pos += 2 if ord(ch) > 0xFFFF else 1
    out.append(pos)
    return out


def _shown(data: bytes) -> str:
    """Bytes as every token display writes them (visible spaces, control pictures)."""
    return shown_piece(data, visible_spaces=True)


def _no_fire_reason(why: NoFire, rank: int, token: bytes, merges: Sequence[MergeRecord]) -> str:
    """Why merge ``rank`` (making ``token``) fires nowhere, in words: its bytes do not
    occur, occur only across chunk boundaries, or another merge takes part of them."""
    hexed = token.hex(" ").upper()
    if not why.in_text:
        return f"its bytes {hexed} do not occur in this text"
    times = "once" if why.in_text == 1 else f"{why.in_text:,} times"
    if not why.in_chunks:
        each = "" if why.in_text == 1 else " each time"
        return f"its bytes {hexed} occur {times},{each} across a chunk boundary (the split pattern cuts them apart)"
    inside = "" if why.in_chunks == why.in_text else f" ({why.in_chunks:,} inside chunks)"
    if why.taker is None or why.taker >= len(merges):
        return f"its bytes {hexed} occur {times}{inside}, but merging joins them from other parts"
    taker, chunk = _shown(merges[why.taker].merged), _shown(why.chunk.encode("utf-8"))
    who = f"a lower-ranked merge, #{why.taker} «{taker}»," if why.taker < rank else f"merge #{why.taker} «{taker}»"
    return f"its bytes {hexed} occur {times}{inside}, but {who} takes part of them first (e.g. in the chunk «{chunk}»)"


class FireSitesView(QWidget):
    """Caption, highlighted sample text and chunk table of one merge's firing sites.

    Args:
        parent: Qt parent widget.

    Attributes:
        label: the caption (how often the merge fires, or what to do).
        text: the read-only sample text with the places highlighted.
        table: the chunks the merge fires in ("Chunk", "Fires").
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(_SELECT_A_MERGE)
        self.label.setWordWrap(True)
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.table = QTableWidget(0, 2)
        self.table.setHorizontalHeaderLabels(["Chunk", "Fires"])
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setToolTip("Click a chunk to see where it first occurs in the text")
        self.table.cellClicked.connect(lambda row, _col: self.go_to_chunk(row))
        self._fires: FireIndex | None = None
        self._shown_text = ""
        self._rows: list[tuple[str, int]] = []
        self._target: tuple[int, int] | None = None  # UTF-16 range to bring into view when shown
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.text)
        split.addWidget(self.table)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.label)
        layout.addWidget(split, 1)

    def clear(self) -> None:
        """Show nothing and ask for a merge."""
        self.text.setPlainText("")
        self._shown_text, self._fires, self._rows, self._target = "", None, [], None
        self.table.setRowCount(0)
        self.label.setText(_SELECT_A_MERGE)

    def show_counting(self) -> None:
        """Say that the firing sites are being counted."""
        self.label.setText("Counting where each merge fires in the Compare text…")

    def show_sites(
        self, fires: FireIndex, rank: int, *, merges: Sequence[MergeRecord], text: str, source: str
    ) -> list[tuple[int, int]]:
        """Show where the merge of ``rank`` fires, or why it fires nowhere.

        Args:
            fires: the firing index of ``text``.
            rank: the merge's rank.
            merges: the model's merges (by rank), to name this merge and one that
                takes its bytes first.
            text: the Compare text ``fires`` was computed on.
            source: what that text is (``AppState.sample_label()``: ``"emoji.txt
                (corpus file 2 of 2)"``, ``"the built-in sample text"``).

        Returns:
            the merge's half-open byte spans in ``text`` (all of them, not only
            the :data:`MAX_FIRE_SPANS` highlighted).
        """
        sites = fires.where(rank)
        token = merges[rank].merged if rank < len(merges) else b""
        shown = _shown(token) if token else str(rank)
        head = f"merge #{rank} «{shown}» fires {sites.count:,} times in the Compare text ({source})"
        if sites.count:
            self.label.setText(f"{head}, in {len(sites.chunks):,} different chunks")
        else:
            self.label.setText(f"{head}: {_no_fire_reason(why_no_fire(fires, text, token), rank, token, merges)}")
        if self._shown_text != text:
            self.text.setPlainText(text)
            self._shown_text = text
        self._fires = fires
        self._highlight(text, sites.spans)
        self._fill_chunks(sites.chunks[:MAX_FIRE_CHUNKS])
        return list(sites.spans)

    def go_to_chunk(self, row: int) -> None:
        """Select the first occurrence in the text of the chunk in table row ``row`` and bring it into view."""
        if self._fires is None or not 0 <= row < len(self._rows):
            return
        chunk = self._rows[row][0]
        ci = self._fires.chunks.index(chunk)
        start = next(off for c, off in self._fires.chunk_starts if c == ci)
        u16 = byte_to_utf16(self._shown_text)
        self._bring_into_view(u16[start], u16[start + len(chunk.encode("utf-8"))])

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._target is not None:  # chosen while the tab was hidden: scroll now
            self._bring_into_view(*self._target)

    def _bring_into_view(self, start: int, end: int) -> None:
        """Select UTF-16 range [start, end) of the text and scroll it to the middle of the view."""
        cur = QTextCursor(self.text.document())
        cur.setPosition(start)
        cur.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        self.text.setTextCursor(cur)
        if self.text.isVisible():
            self.text.centerCursor()  # not at the bottom edge, where ensureCursorVisible leaves it
            self._target = None
        else:
            self._target = (start, end)

    def _highlight(self, text: str, spans: Sequence[tuple[int, int]]) -> None:
        selections = []
        if spans:
            u16 = byte_to_utf16(text)
            fmt = QTextCharFormat()
            fmt.setBackground(theme.FIRE_HIGHLIGHT)
            doc = self.text.document()
            for s, e in spans[:MAX_FIRE_SPANS]:
                cur = QTextCursor(doc)
                cur.setPosition(u16[s])
                end = u16[e] if u16[e] > u16[s] else u16[s] + 1
                cur.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
                sel = QTextEdit.ExtraSelection()
                sel.cursor = cur
                sel.format = fmt
                selections.append(sel)
        self.text.setExtraSelections(selections)
        if spans:
            self._bring_into_view(u16[spans[0][0]], u16[spans[0][0]])

    def _fill_chunks(self, rows: Sequence[tuple[str, int]]) -> None:
        self._rows = list(rows)
        self.table.setRowCount(0)
        self.table.setRowCount(len(rows))
        for r, (chunk, count) in enumerate(rows):
            item = QTableWidgetItem(_shown(chunk.encode("utf-8")))
            item.setToolTip(chunk.encode("utf-8").hex(" ").upper())
            self.table.setItem(r, 0, item)
            c = QTableWidgetItem(f"{count:,}")
            c.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.table.setItem(r, 1, c)
