"""Columns as wide as their header and their widest cell, over the rows of the whole table.

Qt's ``resizeColumnsToContents`` measures the rows near the screen only, so a long
piece or a large count further down is cut with "…". :func:`fit_columns` measures
the display text of every row (of a sample spread over the table when it is long).
:class:`ColumnShare` keeps those widths at any window width, the table's main text
column taking what is left (every table view of the window uses it).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QHeaderView, QTableView

#: Room around a cell's text, in pixels (the style's margins and a little air).
CELL_PADDING = 14

#: Tables with more rows than this are measured on a sample of about this many rows:
#: the first and last ones and rows spread evenly between.
MEASURED_ROWS = 6_000

#: In each column, only the texts with the most characters are measured in pixels.
MEASURED_TEXTS = 40

#: A text column that gives up width to the main one asks for at most this many pixels
#: (a longer text is cut with "…"; the main column is never capped).
TEXT_COLUMN_MAX = 300


def sample_rows(n: int, *, limit: int = MEASURED_ROWS) -> list[int]:
    """The rows :func:`fit_columns` reads of a table of ``n`` rows: all of them up to
    ``limit``, else the first and last ``limit // 3`` and ``limit // 3`` spread between.

    >>> sample_rows(5), len(sample_rows(100_000)), sample_rows(100_000)[-1]
    ([0, 1, 2, 3, 4], 6000, 99999)
    """
    if n <= limit:
        return list(range(n))
    third = limit // 3
    step = (n - 2 * third) / third
    middle = {third + int(i * step) for i in range(third)}
    return sorted(set(range(third)) | middle | set(range(n - third, n)))


def longest_texts(texts: set[str], n: int = MEASURED_TEXTS) -> set[str]:
    """The texts of ``texts`` worth measuring in pixels: the ``n`` with the most characters and
    the ``n`` with the most UTF-8 bytes (a CJK character or an emoji is one character drawn two
    cells wide, so ``你好世界`` is as wide as ``\\xE4\\xB8`` while shorter by characters).

    >>> sorted(longest_texts({"ab", "abc", "你好"}, 1))
    ['abc', '你好']
    """
    by_chars = sorted(texts, key=len, reverse=True)[:n]
    by_bytes = sorted(texts, key=lambda t: len(t.encode("utf-8", "surrogatepass")), reverse=True)[:n]
    return set(by_chars) | set(by_bytes)


def wanted_widths(view: QTableView, *, skip: tuple[int, ...] = (), limit: int = MEASURED_ROWS) -> dict[int, int]:
    """Each column of ``view`` (except those in ``skip``) by index: the width in pixels of its
    header (sort arrow included) or its widest display text over :func:`sample_rows` (of at most
    about ``limit`` rows) plus :data:`CELL_PADDING`, whichever is larger, in the cell's font (the
    model's ``FontRole``) when it gives one, as the column's delegate draws it (its
    ``displayText``: the merge table's spaces as ``␣``); :func:`longest_texts` are measured."""
    model, header = view.model(), view.horizontalHeader()
    rows = sample_rows(model.rowCount(), limit=limit)
    display, font_role = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.FontRole
    out: dict[int, int] = {}
    for col in range(model.columnCount()):
        if col in skip:
            continue
        texts = {str(model.data(model.index(r, col), display) or "") for r in rows}
        font = model.data(model.index(rows[0], col), font_role) if rows else None
        fm = QFontMetrics(font) if isinstance(font, QFont) else view.fontMetrics()
        delegate, locale = view.itemDelegateForColumn(col) or view.itemDelegate(), view.locale()
        widest = max(
            (fm.horizontalAdvance(delegate.displayText(t, locale)) for t in longest_texts(texts) if t), default=0
        )
        out[col] = max(header.sectionSizeHint(col), widest + CELL_PADDING if widest else 0)
    return out


def fit_columns(view: QTableView, *, skip: tuple[int, ...] = ()) -> None:
    """Make each column of ``view`` (except those in ``skip``) as wide as
    :func:`wanted_widths` says."""
    for col, width in wanted_widths(view, skip=skip).items():
        view.setColumnWidth(col, width)


def even_caps(wanted: dict[int, int], least: dict[int, int], room: int) -> dict[int, int]:
    """Widths (pixels, by column) for columns asking ``wanted`` in ``room`` pixels when they do
    not all fit: every column gets ``min(wanted, cap)`` with one cap for all, so the columns that
    ask less keep their width; never less than ``least`` (a header). The widths fill ``room``
    exactly unless the ``least`` widths alone exceed it (then each is its ``least``).

    >>> even_caps({1: 80, 2: 90, 3: 500}, {1: 40, 2: 40, 3: 90}, 400)
    {1: 80, 2: 90, 3: 230}
    >>> even_caps({1: 300, 2: 300, 3: 500}, {1: 40, 2: 40, 3: 90}, 400)
    {1: 133, 2: 133, 3: 134}
    """

    def fill(cap: int) -> dict[int, int]:
        return {c: max(least[c], min(w, cap)) for c, w in wanted.items()}

    lo, hi = 0, max(wanted.values(), default=0)
    while lo < hi:  # the largest cap whose widths fit in room
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if sum(fill(mid).values()) <= room else (lo, mid - 1)
    out = fill(lo)
    spare = room - sum(out.values())
    for c in sorted(wanted, key=lambda c: out[c] - wanted[c]):  # the pixels a cap cannot share
        if spare > 0 and out[c] < wanted[c]:
            out[c] += 1
            spare -= 1
    return out


class ColumnShare(QObject):
    """Sensible column widths for ``view`` at any width: each column as wide as its header and
    widest text (:func:`wanted_widths`, or what :meth:`set_wanted` is told), and ``stretch``, the
    main text column, taking the width left over. When the columns do not all fit, the
    ``squeeze`` columns (other text columns) give up width first, in proportion, down to their
    header, so the main column keeps its own width as long as it can (never squeezed to a
    sliver while a piece column sits at its full width). The number columns keep theirs; when
    even the text columns' headers do not fit (the view scrolls sideways anyway) the text
    columns keep their widths too, each at most :data:`TEXT_COLUMN_MAX`.

    With ``even=True`` (tables whose main text is made of the other text columns', like a merged
    token of its Left and Right parts) the main column does not go first: when the text columns
    do not all fit, they are given the same cap (:func:`even_caps`), so a short Left or Right
    part stays whole and only the widest texts of any text column are cut.

    Args:
        view: the table view; its columns are re-shared whenever its viewport is resized.
        stretch: the main text column (index).
        squeeze: text columns that give up width first (indices).
        even: share a narrow width evenly between the main and ``squeeze`` columns (above).

    Attributes:
        wanted: the width each column asks for, by column index (pixels).
    """

    def __init__(self, view: QTableView, *, stretch: int, squeeze: tuple[int, ...] = (), even: bool = False) -> None:
        super().__init__(view)
        self.view, self.stretch, self.squeeze, self.even = view, stretch, squeeze, even
        self.wanted: dict[int, int] = {}
        header = view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self._viewport = view.viewport()
        self._viewport.installEventFilter(self)

    def refit(self) -> None:
        """Measure every column again (:func:`wanted_widths`) and share the width."""
        self.set_wanted(wanted_widths(self.view))

    def set_wanted(self, wanted: dict[int, int]) -> None:
        """Take ``wanted`` (pixels by column index; other columns keep theirs) and share the width."""
        self.wanted.update(wanted)
        self.share()

    def widths(self, room: int) -> dict[int, int]:
        """The width of each column in a view ``room`` pixels wide (inside its frame), by index."""
        header = self.view.horizontalHeader()
        want = {c: w for c, w in self.wanted.items() if c != self.stretch}
        soft = {c: min(want[c], TEXT_COLUMN_MAX) for c in self.squeeze if c in want}
        floor = header.sectionSizeHint(self.stretch)
        main = max(self.wanted.get(self.stretch, floor), floor)
        text_room = room - sum(w for c, w in want.items() if c not in soft)
        floors = sum(min(header.sectionSizeHint(c), w) for c, w in soft.items())
        if text_room < floors + floor:  # squeezed to their headers, it would still scroll sideways
            return want | soft | {self.stretch: min(main, max(TEXT_COLUMN_MAX, floor))}
        if self.even and sum(soft.values()) + main > text_room:  # one cap for every text column
            least = {c: min(header.sectionSizeHint(c), w) for c, w in soft.items()} | {self.stretch: floor}
            return want | even_caps(soft | {self.stretch: main}, least, text_room)
        if sum(soft.values()) + main > text_room:  # the squeezed columns give up width first
            main = min(main, text_room - floors)
            # each its header, and what is left over them shared in proportion to what each lacks
            least = {c: min(header.sectionSizeHint(c), w) for c, w in soft.items()}
            spare, lack = text_room - main - sum(least.values()), sum(soft.values()) - sum(least.values())
            soft = {c: least[c] + (w - least[c]) * spare // max(lack, 1) for c, w in soft.items()}
        return want | soft | {self.stretch: max(main, text_room - sum(soft.values()))}

    def share(self) -> None:
        """Set the widths for the view's width now (the main column takes the rest)."""
        for col, width in self.widths(self._viewport.width()).items():
            self.view.setColumnWidth(col, width)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt override
        if event.type() == QEvent.Type.Resize and watched is self._viewport and self.wanted:
            self.share()
        return False
