"""Qt table model over the learned BPE merges (the merge table).

One row per :class:`~tokexplorer.core.types.MergeRecord`. Columns: Rank, Left,
Right, Merged token, Bytes, Count (the pair count when the merge was chosen)
and Fires (how often the merge fires when the current sample text is encoded).
A vocabulary with tokens no merge builds (``BPE.unbuilt_tokens``, as in Llama
3's ranks) gets one more row per such token, in token-id order among the
merges: no rank and no parts, its Left and Right cells reading "whole chunk"
and "only" (:data:`~tokexplorer.gui.models.merge_filter.WHOLE_CHUNK_FLAG`: such a
token is emitted only when a whole chunk is that token).

Built for large vocabularies (cl100k's 100,000 merges, o200k's 199,997):

* Display strings are computed once per token id and display mode (text, hex
  bytes, GPT-2 visible bytes), when a row is first drawn, so :meth:`MergeTableModel.data`
  is O(1) (text mode: the window's one display rule, look-alikes as ``<U+XXXX>``).
* Sorting and filtering happen here over whole columns, never row by row through a
  ``QSortFilterProxyModel`` (a Python ``filterAcceptsRow`` per row costs more than
  100 ms at 200,000 rows). A sort is one stable ``numpy.argsort`` of the column's
  integer keys (:mod:`~tokexplorer.gui.models.merge_order`);
  :meth:`MergeTableModel.show_filter` installs a filter computed in a worker.
* The filter's search columns (case-folded text, script class, partial UTF-8
  flag) are prepared once per model by
  :func:`~tokexplorer.gui.models.merge_filter.build_search_index`, which the
  merge pane runs in a worker right after a model is shown; a filter applied
  before that builds it on the spot. The filter itself is Qt-free and lives in
  :mod:`tokexplorer.gui.models.merge_filter`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QFont, QFontDatabase

from tokexplorer.core.text import to_gpt2_visible
from tokexplorer.core.types import MergeRecord
from tokexplorer.gui import theme
from tokexplorer.gui.models.merge_columns import (
    COL_BYTES,
    COL_COUNT,
    COL_FIRES,
    COL_LEFT,
    COL_MERGED,
    COL_RANK,
    COL_RIGHT,
    COUNTING,
    DISPLAY_MODES,
    HEADER_TIPS,
    MERGE_COLUMNS,
    WHOLE_TIP,
)
from tokexplorer.gui.models.merge_filter import (
    WHOLE_CHUNK_FLAG,
    MergeFilter,
    SearchIndex,
    build_search_index,
    check_filter,
    filter_mask,
)
from tokexplorer.gui.models.merge_order import largest_numbers, rows_of_records, shown_rows, sort_key, stable_order
from tokexplorer.gui.models.table_model import RawRole, TitledTableModel
from tokexplorer.gui.widgets.glyphs import piece_tip, shown_piece

# RawRole (the one of table_model) gives here: ``int`` for Rank, Bytes, Count and
# Fires (``-1`` when unknown or, for Rank, for a token no merge builds), the token
# id (``int``, ``-1`` for no part) for Left and Right, and the merged token's
# ``bytes`` for Merged token.


class MergeTableModel(TitledTableModel):
    """Table of BPE merges with its own sorting and filtering.

    Args:
        parent: Qt parent object.

    Call :meth:`set_merges` to show a model's merges, :meth:`set_filter` to
    filter, :meth:`sort` (the view's header does it) to sort,
    :meth:`set_display_mode` to show tokens as text, hex bytes or GPT-2
    visible bytes, :meth:`set_fire_counts` to fill the Fires column.
    ``data(index, Qt.DisplayRole)`` gives display text, ``RawRole`` the raw
    value, ``Qt.ToolTipRole`` the token ids and hex bytes.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(MERGE_COLUMNS, title_tips=HEADER_TIPS, parent=parent)
        self._merges: list[MergeRecord] = []
        self._unbuilt: list[int] = []  # records after the merges: ids of tokens no merge builds
        self._tokens: list[bytes] = []  # each record's token bytes
        self._vocab: Mapping[int, bytes] = {}
        self._base: list[int] = []  # all records in table order (token-id order)
        self._order = np.zeros(0, dtype=np.intp)  # all records, sorted
        self._keys: dict[int, np.ndarray] = {}  # column -> sort key of each record (merge_order.sort_key)
        self._sorted: tuple[int, Qt.SortOrder, np.ndarray] | None = None  # the sort of _order: column, order, key
        self._rows: list[int] = []  # view row -> index into _merges (sorted, filtered)
        self._mask: bytearray | None = None  # None: no filter
        self._display: dict[int, str] = {}
        self._mode = "text"
        self._fires: list[int] | None = None
        self._largest: tuple[int | None, int | None, int | None] = (None, None, None)
        self._counting = False  # Fires unknown because they are being counted (cells say COUNTING)
        self._search: SearchIndex | None = None
        self._filter = MergeFilter()
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        #: Version of the merge list, bumped on every :meth:`set_merges`: a search
        #: index built (in a worker) for another version is refused.
        self.generation = 0

    # -- data --------------------------------------------------------------------

    def set_merges(
        self, merges: Sequence[MergeRecord], vocab: Mapping[int, bytes], *, unbuilt: Sequence[int] = (), refilter=True
    ) -> None:
        """Show ``merges`` (rank order) whose token ids are resolved through ``vocab``,
        and a row for each token id of ``unbuilt`` (tokens no merge builds), placed
        by token id among the merges.

        The filter is kept and re-applied (``refilter=False``: dropped, every row shown, for a
        caller that filters in a worker); the sort order goes back to rank order.
        """
        self.beginResetModel()
        self._merges = list(merges)
        self._unbuilt = list(unbuilt)
        self._vocab = vocab
        self._tokens = [m.merged for m in self._merges] + [vocab[i] for i in self._unbuilt]
        n = len(self._merges)
        self._base = list(range(n + len(self._unbuilt)))
        if self._unbuilt:
            ids = [m.new_id for m in self._merges] + self._unbuilt
            self._base.sort(key=ids.__getitem__)
        self._order = np.asarray(self._base, dtype=np.intp)
        self._keys, self._sorted = {}, None
        self._largest = largest_numbers(self._merges, self._tokens)
        self._display = {}
        self._fires = None
        self._counting = False
        self._search = None
        self.generation += 1
        self._filter = self._filter if refilter else MergeFilter()
        self._mask = self._mask_for(self._filter)
        self._apply_rows()
        self.endResetModel()

    def clear(self) -> None:
        """Show no merges."""
        self.set_merges([], {})

    def set_search_index(self, index: SearchIndex, generation: int) -> None:
        """Install a search index built (in a worker) for model ``generation``;
        ignored when the merges changed since."""
        if generation == self.generation and len(index.text) == len(self._tokens):
            self._search = index

    @property
    def has_search_index(self) -> bool:
        return self._search is not None

    def set_sort_keys(self, keys: Mapping[int, np.ndarray], generation: int) -> None:
        """Install sort keys built (in a worker, :func:`~tokexplorer.gui.models.merge_order.token_sort_keys`)
        for model ``generation``: column -> int64 array, one per record; ignored when the merges changed since."""
        if generation == self.generation:
            self._keys.update((col, key) for col, key in keys.items() if len(key) == len(self._tokens))

    @property
    def tokens(self) -> list[bytes]:
        """Each record's token bytes, merges then tokens no merge builds (replaced, never changed: workers read it)."""
        return self._tokens

    def search_index(self) -> SearchIndex:
        """The search index (built now when the worker has not delivered it yet)."""
        if self._search is None:
            self._search = build_search_index(
                self._merges, self._vocab, control_pictures=theme.control_pictures(), unbuilt=self._unbuilt
            )
        return self._search

    def set_fire_counts(self, counts: Sequence[int] | None, *, counting: bool = False) -> None:
        """Fill the Fires column (one count per merge, rank order) or empty it (None): blank,
        or, with ``counting``, :data:`COUNTING` in every merge's cell until the counts come."""
        if counts is not None and len(counts) != len(self._merges):
            return
        self._fires = list(counts) if counts is not None else None
        self._keys.pop(COL_FIRES, None)
        self._counting = counts is None and counting
        if self._rows:
            self.dataChanged.emit(self.index(0, COL_FIRES), self.index(len(self._rows) - 1, COL_FIRES))

    @property
    def largest_numbers(self) -> tuple[int | None, int | None, int | None]:
        """``(largest rank, longest token in bytes, largest pair count)`` of the rows shown
        by :meth:`set_merges`, each None when no row has one (measured once per model)."""
        return self._largest

    @property
    def fire_counts(self) -> list[int] | None:
        return self._fires

    @property
    def fires_counting(self) -> bool:
        """True while the Fires cells say :data:`COUNTING`."""
        return self._counting

    def merge_at(self, row: int) -> MergeRecord | None:
        """The merge record shown at view ``row`` (after sorting and filtering);
        None when the row is a token no merge builds."""
        rec = self._rows[row]
        return self._merges[rec] if rec < len(self._merges) else None

    def token_at(self, row: int) -> tuple[int, bytes]:
        """``(token id, token bytes)`` of the token made at view ``row`` (the merged
        token, or the token no merge builds)."""
        rec = self._rows[row]
        n = len(self._merges)
        return (self._merges[rec].new_id if rec < n else self._unbuilt[rec - n]), self._tokens[rec]

    def count_text(self) -> str:
        """``"N merges (M shown)"``, with ``" + U whole-chunk tokens"`` after N when
        the vocabulary has tokens no merge builds."""
        u = len(self._unbuilt)
        whole = f" + {u:,} whole-chunk token{'s' * (u != 1)}" if u else ""
        return f"{len(self._merges):,} merges{whole} ({len(self._rows):,} shown)"

    def row_of_record(self, record: int) -> int:
        """View row showing record ``record`` (index into :attr:`merges`), -1 when hidden."""
        try:
            return self._rows.index(record)
        except ValueError:
            return -1

    def row_of_rank(self, rank: int) -> int:
        """View row of the merge of rank ``rank``, -1 when it is filtered out or absent."""
        merges = self._merges
        rec = rank if 0 <= rank < len(merges) and merges[rank].rank == rank else -1
        if rec < 0:
            rec = next((i for i, m in enumerate(merges) if m.rank == rank), -1)
        return -1 if rec < 0 else self.row_of_record(rec)

    @property
    def merges(self) -> list[MergeRecord]:
        """The merge records in rank order (list of MergeRecord)."""
        return self._merges

    @property
    def unbuilt(self) -> list[int]:
        """Ids of the tokens no merge builds that have rows (list of int, id order)."""
        return self._unbuilt

    @property
    def vocab(self) -> Mapping[int, bytes]:
        return self._vocab

    # -- display -----------------------------------------------------------------

    @property
    def display_mode(self) -> str:
        """``"text"``, ``"hex"`` or ``"gpt2"`` (see :data:`DISPLAY_MODES`)."""
        return self._mode

    def set_display_mode(self, mode: str) -> None:
        """Show the token columns as readable text, hex bytes or GPT-2 visible bytes.

        Raises:
            ValueError: unknown mode.
        """
        if mode not in DISPLAY_MODES:
            raise ValueError(f"unknown display mode {mode!r}")
        if mode == self._mode:
            return
        self._mode = mode
        self._display = {}
        if self._rows:
            self.dataChanged.emit(self.index(0, COL_LEFT), self.index(len(self._rows) - 1, COL_MERGED))

    def render_bytes(self, raw: bytes) -> str:
        """Bytes in the current display mode (text mode: the window's one display rule,
        :func:`~tokexplorer.gui.widgets.glyphs.shown_piece`: look-alikes as ``<U+XXXX>``)."""
        if self._mode == "hex":
            return raw.hex(" ").upper()
        if self._mode == "gpt2":
            return to_gpt2_visible(raw)
        return shown_piece(raw)

    def token_text(self, token_id: int) -> str:
        """Display text of one token id (cached); ``"<id N?>"`` when not in the vocab."""
        text = self._display.get(token_id)
        if text is None:
            raw = self._vocab.get(token_id)
            text = self.render_bytes(raw) if raw is not None else f"<id {token_id}?>"
            self._display[token_id] = text
        return text

    def token_bytes(self, token_id: int) -> bytes:
        """Bytes of one token id (``b""`` when not in the vocab)."""
        return self._vocab.get(token_id, b"")

    # -- Qt model interface ------------------------------------------------------

    def row_count(self) -> int:
        return len(self._rows)

    def cell_data(self, row: int, col: int, role: int) -> Any:
        rec = self._rows[row]
        if rec >= len(self._merges):
            return self._whole_cell(rec, col, role)
        m = self._merges[rec]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_RANK:
                return str(m.rank)
            if col == COL_LEFT:
                return self.token_text(m.left)
            if col == COL_RIGHT:
                return self.token_text(m.right)
            if col == COL_MERGED:
                return self.token_text(m.new_id)
            if col == COL_BYTES:
                return str(len(m.merged))
            if col == COL_COUNT:
                return "" if m.count is None else f"{m.count:,}"
            return (COUNTING if self._counting else "") if self._fires is None else f"{self._fires[rec]:,}"
        if role == RawRole:
            return self._raw(rec, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_LEFT:
                return self._token_tip(m.left, self.token_bytes(m.left))
            if col == COL_RIGHT:
                return self._token_tip(m.right, self.token_bytes(m.right))
            if col == COL_MERGED:
                return self._token_tip(m.new_id, m.merged)
            if col == COL_COUNT and m.count is None:
                return "count unknown (merges recovered from ranks)"
            if col == COL_FIRES and self._fires is None:
                return "counting: the Compare text is being encoded" if self._counting else "not counted"
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col in (COL_RANK, COL_BYTES, COL_COUNT, COL_FIRES):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == Qt.ItemDataRole.FontRole and col in (COL_LEFT, COL_RIGHT, COL_MERGED):
            return self._mono
        return None

    def _whole_cell(self, rec: int, col: int, role: int) -> Any:
        """A cell of the row of a token no merge builds: no rank, no parts, no counts."""
        tid, raw = self._unbuilt[rec - len(self._merges)], self._tokens[rec]
        if role == Qt.ItemDataRole.DisplayRole:
            left, right = WHOLE_CHUNK_FLAG.rsplit(" ", 1)  # "whole chunk" | "only": the flag across the parts
            texts = {COL_LEFT: left, COL_RIGHT: right, COL_MERGED: self.token_text(tid), COL_BYTES: str(len(raw))}
            return texts.get(col, "")
        if role == RawRole:
            return self._raw(rec, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            points = piece_tip(raw, when_escaped=True)
            tip = WHOLE_TIP.format(id=tid, n=len(raw), hex=raw.hex(" ").upper() or "(none)")
            return tip + (points and "\n" + points)
        if role == Qt.ItemDataRole.TextAlignmentRole and col == COL_BYTES:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and col == COL_MERGED:
            return self._mono
        if role == Qt.ItemDataRole.FontRole and col in (COL_LEFT, COL_RIGHT):
            italic = QFont(self._mono)
            italic.setItalic(True)
            return italic
        return None

    def is_whole_chunk_row(self, row: int) -> bool:
        """True when view ``row`` is a token no merge builds (not a merge)."""
        return self._rows[row] >= len(self._merges)

    def _raw(self, rec: int, col: int) -> Any:
        if rec >= len(self._merges):
            raw = self._tokens[rec]
            return {COL_MERGED: raw, COL_BYTES: len(raw)}.get(col, -1)
        m = self._merges[rec]
        if col == COL_RANK:
            return m.rank
        if col == COL_LEFT:
            return m.left
        if col == COL_RIGHT:
            return m.right
        if col == COL_MERGED:
            return m.merged
        if col == COL_BYTES:
            return len(m.merged)
        if col == COL_COUNT:
            return -1 if m.count is None else m.count
        return -1 if self._fires is None else self._fires[rec]

    def visible_text(self, token_id: int) -> str:
        """:meth:`token_text` with its spaces made visible in text mode (``␣t``, as the cells draw them)."""
        shown = self.token_text(token_id)
        return shown.replace(" ", "␣") if self._mode == "text" else shown

    def _token_tip(self, token_id: int, raw: bytes) -> str:
        """The whole token as shown (text mode: spaces as ␣; a narrow cell cuts it), then its id
        and bytes, then, when the token holds a look-alike or an invisible code point, its code
        points (:func:`~tokexplorer.gui.widgets.glyphs.piece_tip`)."""
        shown = self.visible_text(token_id)
        hex_bytes = raw.hex(" ").upper() if raw else "(none)"
        points = piece_tip(raw, when_escaped=True)  # the code points of a token with a look-alike
        points = f"\n{points}" if points else ""
        return f"{shown}\ntoken id {token_id} · {len(raw)} bytes: {hex_bytes}{points}"

    # -- sorting -----------------------------------------------------------------

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort rows by ``column``'s raw value (numbers numerically, tokens by bytes).

        Ties keep rank order both ways; the sort already shown is not done again. Emits
        ``layoutAboutToBeChanged``/``layoutChanged``, persistent indexes kept on their records.
        """
        if not (0 <= column < len(MERGE_COLUMNS)):
            return
        key = self._keys.get(column)
        if key is None:
            key = sort_key(column, self._merges, self._tokens, self._vocab, base=self._base, fires=self._fires)
            self._keys[column] = key
        if self._sorted is not None and self._sorted[:2] == (column, order) and self._sorted[2] is key:
            return  # sorted so already (QTableView.sortByColumn sorts twice)
        self._sorted = (column, order, key)
        new_order = stable_order(key, descending=order == Qt.SortOrder.DescendingOrder)
        self.layoutAboutToBeChanged.emit()
        old_rows = self._rows
        self._order = new_order
        self._apply_rows()
        from_list = self.persistentIndexList()
        if from_list:
            row_of = rows_of_records(self._rows, len(self._tokens))
            to_list = [
                self.index(int(row_of[old_rows[ix.row()]]), ix.column())
                if ix.isValid() and ix.row() < len(old_rows) and row_of[old_rows[ix.row()]] >= 0
                else QModelIndex()
                for ix in from_list
            ]
            self.changePersistentIndexList(from_list, to_list)
        self.layoutChanged.emit()

    # -- filtering ---------------------------------------------------------------

    @property
    def filter_active(self) -> bool:
        return self._filter.active

    def set_filter(
        self,
        needle: str = "",
        *,
        mode: str = "text",
        script: str | None = None,
        partial: str = "",
        whole_chunk_only: bool = False,
    ) -> None:
        """Show only the merges that pass every given condition (see
        :class:`~tokexplorer.gui.models.merge_filter.MergeFilter` for what each means).

        Args:
            needle: text, regex or hex bytes to look for, by ``mode``; empty: no condition.
            mode: ``"text"``, ``"regex"`` or ``"hex"``.
            script: keep merged tokens of this script class, or None.
            partial: ``"utf8"``: keep only merged tokens that hold part of a UTF-8
                character; ``"grapheme"``: only whole-UTF-8 tokens that are part of
                a grapheme cluster; ``""``: no condition (see ``PARTIAL_LEVELS``).
            whole_chunk_only: keep only the tokens no merge builds.

        Raises:
            ValueError: bad regex, bad hex or unknown mode (one-line message);
                the current filter is kept.
        """
        new = MergeFilter(needle, mode, script, partial, bool(whole_chunk_only))
        check_filter(new)
        self.show_filter(new, self._mask_for(new))

    def show_filter(self, condition: MergeFilter, mask: bytes | bytearray | None) -> None:
        """Show the rows of ``condition`` whose mask (:func:`filter_mask` of this model's
        records, computed in a worker, say; None for an inactive filter) is ``mask``.

        Raises:
            ValueError: ``mask`` is not one byte per record (the rows shown are kept).
        """
        if mask is not None and len(mask) != len(self._tokens):
            raise ValueError(f"a filter mask of {len(mask)} records for a table of {len(self._tokens)}")
        self._filter = condition
        self.beginResetModel()
        self._mask = mask if condition.active else None
        self._apply_rows()
        self.endResetModel()

    def _mask_for(self, condition: MergeFilter) -> bytearray | None:
        if not condition.active:
            return None
        return filter_mask(self._tokens, condition, index=self.search_index)

    def _apply_rows(self) -> None:
        self._rows = shown_rows(self._order, self._mask)
