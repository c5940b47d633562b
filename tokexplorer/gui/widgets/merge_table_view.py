"""The merge table's view: a QTableView set up for :class:`MergeTableModel`.

Rows of fixed height (200,000 rows scroll without measuring each), columns as
wide as their header and largest number, the token columns as their widest token (of a sample
of the rows), the merged token taking what is left and the Left and Right tokens giving up width
first in a narrow window (:class:`~tokexplorer.gui.widgets.table_fit.ColumnShare`), single-row selection,
sorting by the header, and token columns drawn with spaces as ``␣``; and
:func:`model_title`, the line above the table.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel, QLocale, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from tokexplorer.core.bpe import BPE
from tokexplorer.core.text import pattern_label
from tokexplorer.gui.models.merge_filter import PARTIAL_LEVELS
from tokexplorer.gui.models.merge_model import (
    COL_BYTES,
    COL_COUNT,
    COL_FIRES,
    COL_LEFT,
    COL_MERGED,
    COL_RANK,
    COL_RIGHT,
    COUNTING,
    MergeTableModel,
)
from tokexplorer.gui.widgets.glyphs import piece_font
from tokexplorer.gui.widgets.table_fit import ColumnShare, longest_texts, wanted_widths


def model_title(bpe: BPE, *, name: str | None = None) -> str:
    """The line above the table: the model's name (``name``, else ``bpe.name``), pre-tokenizer,
    vocabulary (ranked and special tokens, as :attr:`BPE.vocab_text` says them everywhere)."""
    unknown_counts = bool(bpe.merges) and bpe.merges[0].count is None
    n_unbuilt = len(bpe.unbuilt_tokens)
    return (
        f"{name or bpe.name} · {pattern_label(bpe.pat_str)} · vocab {bpe.vocab_text}"
        " · merges in rank order (lower rank merges first)"
        + (" · pair counts unknown (merges recovered from the ranks)" if unknown_counts else "")
        + (f" · {n_unbuilt:,} token{'s' * (n_unbuilt != 1)} no merge builds (only emitted whole)" if n_unbuilt else "")
    )


#: Shown in place of a space in the token columns (text mode).
VISIBLE_SPACE = "␣"

#: Room around a cell's text, in pixels (the style's margins and a little air).
CELL_PADDING = 14

#: The token columns are as wide as their widest token among about this many rows (the first,
#: the last and rows spread between): measuring 6,000 rows of 32,000 merges took 75 ms of the
#: GUI thread when a training ended, 600 take 8 ms, and a longer token is cut with "…".
TOKEN_ROWS_MEASURED = 600


#: Bytes drawn as several characters in a token column: C0 controls and DEL (``<U+0000>``, 8).
_CONTROL_BYTES = bytes([*range(0x20), 0x7F])
_HIGH_BYTES = bytes(range(0x80, 0x100))


#: Merge tables up to this many merges have Left and Right measured over every merge
#: (:meth:`MergeTableView._widest_parts`); a larger one (32,000 merges, cl100k) over its sample only,
#: as that scan then holds the GUI thread for 25 ms (32,000 merges) to 130 ms (200,000).
WHOLE_SCAN_MERGES = 16_000


def cells_bound(raw: bytes) -> int:
    """At most how many characters a token of bytes ``raw`` is drawn as in text mode (a cheap
    bound, nothing decoded): a printable ASCII byte is one, a control eight (``<U+0000>``), a byte
    from 0x80 up four (``\\xE4``; a whole character is fewer).

    >>> cells_bound(b"the"), cells_bound(b"\\xe4\\xb8"), cells_bound(b"a\\x00")
    (3, 8, 9)
    """
    controls = len(raw) - len(raw.translate(None, _CONTROL_BYTES))
    high = len(raw) - len(raw.translate(None, _HIGH_BYTES))
    return len(raw) + 7 * controls + 3 * high


def wide_part_texts(model: MergeTableModel, col: int, cells: int) -> set[str]:
    """The display texts of the Left (``col`` = COL_LEFT) or Right parts of every merge of
    ``model`` that may be drawn wider than ``cells`` characters (:func:`cells_bound`): the
    candidates for the column's widest token beyond a sample of its rows (a part holding some
    bytes of a character, ``\\xE4\\xB8``, is four characters a byte)."""
    vocab, seen, out = model.vocab, set(), set()
    for m in model.merges:
        tid = m.left if col == COL_LEFT else m.right
        if tid not in seen:
            seen.add(tid)
            if cells_bound(vocab.get(tid, b"")) > cells:
                out.add(model.token_text(tid))
    return out


def widest_numbers(model: MergeTableModel) -> dict[int, str]:
    """The display text of the largest value of each number column (Rank, Bytes,
    Count, Fires) of ``model``'s rows, ``""`` for a column with no value."""
    rank, longest, count = model.largest_numbers
    fires = model.fire_counts
    return {
        COL_RANK: "" if rank is None else str(rank),
        COL_BYTES: "" if longest is None else str(longest),
        COL_COUNT: "" if count is None else f"{count:,}",
        COL_FIRES: f"{max(fires):,}" if fires else COUNTING if model.fires_counting else "",
    }


class VisibleSpaceDelegate(QStyledItemDelegate):
    """Draws token text with spaces as ``␣`` in text mode (hex and GPT-2 modes
    already have no bare spaces to hide), so a merge of two spaces is not an
    empty cell."""

    def __init__(self, model: MergeTableModel, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._model = model

    def displayText(self, value: Any, locale: QLocale) -> str:  # noqa: N802 - Qt override
        text = super().displayText(value, locale)
        if self._model.display_mode == "text":
            return text.replace(" ", VISIBLE_SPACE)
        return text

    def initStyleOption(  # noqa: N802 - Qt override
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        super().initStyleOption(option, index)
        if index.column() in (COL_LEFT, COL_RIGHT) and self._model.is_whole_chunk_row(index.row()):
            option.text = index.data()  # the flag is words, not a token: its spaces stay spaces


class MergeTableView(QTableView):
    """The table of merges, sorted by rank at start.

    Args:
        model: the merge table model it shows.
        parent: Qt parent widget.

    Attributes:
        delegate: the :class:`VisibleSpaceDelegate` of the Left, Right and
            Merged token columns.
        columns: the :class:`~tokexplorer.gui.widgets.table_fit.ColumnShare` sizing the columns.
    """

    def __init__(self, model: MergeTableModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(model)
        self._merge_model = model
        self.setSortingEnabled(True)
        self.horizontalHeader().setSortIndicator(COL_RANK, Qt.SortOrder.AscendingOrder)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setWordWrap(False)
        self.setAlternatingRowColors(True)
        self.delegate = VisibleSpaceDelegate(model, self)
        for col in (COL_LEFT, COL_RIGHT, COL_MERGED):
            self.setItemDelegateForColumn(col, self.delegate)
        vh = self.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 6)
        vh.setVisible(False)
        # the merged token takes the width left over (no blank band after Fires)
        # in a narrow window Left, Right and the merged token share one cap (a short part stays whole)
        self.columns = ColumnShare(self, stretch=COL_MERGED, squeeze=(COL_LEFT, COL_RIGHT), even=True)
        self._fit_when_shown: bool | None = None  # a fit asked while hidden (its ``tokens``)
        self.fit_columns()

    def fit_columns(self, *, tokens: bool = True) -> None:
        """Size every column to hold its header (sort arrow included) and, for the
        number columns, their largest value (:func:`widest_numbers`), for the token
        columns (unless ``tokens`` is False: only the numbers changed) their widest
        token of :data:`TOKEN_ROWS_MEASURED` rows, Left and Right (text mode) also over every
        merge's part :func:`wide_part_texts` finds (15,744 merges: 17 ms, 10 ms before); call it when the
        merges, the display mode or the fire counts change. While the table is hidden
        (another tab), the fit waits till it is shown: measuring 600 rows of a new
        model took 80-150 ms on the GUI thread at the end of every training."""
        if not self.isVisible():
            self._fit_when_shown = bool(self._fit_when_shown) or tokens
            return
        self._fit_when_shown = None
        hh = self.horizontalHeader()
        fm = self.fontMetrics()
        wanted = {col: max(hh.sectionSizeHint(col), fm.horizontalAdvance(text) + CELL_PADDING)
                  for col, text in widest_numbers(self._merge_model).items()}  # fmt: skip
        if tokens:
            numbers = tuple(wanted)
            wanted |= wanted_widths(self, skip=numbers, limit=TOKEN_ROWS_MEASURED)
            if self._merge_model.display_mode == "text" and len(self._merge_model.merges) <= WHOLE_SCAN_MERGES:
                wanted |= self._widest_parts(wanted)
        self.columns.set_wanted(wanted)

    def _widest_parts(self, wanted: dict[int, int]) -> dict[int, int]:
        """Left and Right as wide as their widest part over all the merges, not only the
        sampled rows: the parts that may be wider than the sample's widest
        (:func:`wide_part_texts`) are measured too."""
        fm, out = QFontMetrics(piece_font()), {}  # the model's font of the token columns
        cell = max(fm.horizontalAdvance("x"), 1)
        for col in (COL_LEFT, COL_RIGHT):
            texts = wide_part_texts(self._merge_model, col, (wanted[col] - CELL_PADDING) // cell)
            shown = (self.delegate.displayText(t, self.locale()) for t in longest_texts(texts))
            widest = max((fm.horizontalAdvance(t) + CELL_PADDING for t in shown), default=0)
            out[col] = max(wanted[col], widest)
        return out

    def showEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._fit_when_shown is not None:
            self.fit_columns(tokens=self._fit_when_shown)

    def select_row(self, row: int, *, notify: bool = True) -> QModelIndex:
        """Make ``row`` the current, only selected row; returns its Rank cell.

        ``notify=False`` changes the selection without emitting the selection
        model's signals (re-selecting the same merge after a filter).
        """
        ix = self.model().index(row, COL_RANK)
        selection = self.selectionModel()
        if not notify:
            selection.blockSignals(True)
        selection.setCurrentIndex(
            ix,
            QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
        )
        if not notify:
            selection.blockSignals(False)
        return ix


def partial_level_combo() -> QComboBox:
    """The merge filter's choice of partial level (``PARTIAL_LEVELS``); its
    ``currentData()`` is the level's key (``""``, ``"utf8"``, ``"grapheme"``)."""
    combo = QComboBox()
    for key, label in PARTIAL_LEVELS:
        combo.addItem(label, key)
    combo.setToolTip(
        "partial UTF-8: merged tokens holding only part of a character (\\xNN bytes); "
        "part of a grapheme: whole code points that cannot stand alone (a skin-tone "
        "modifier, a variation selector, a combining mark, one regional indicator of a flag)"
    )
    return combo
