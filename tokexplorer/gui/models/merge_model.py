"""Qt table model over the learned BPE merges (the merge table).

One row per :class:`~tokexplorer.core.types.MergeRecord`, in rank order until the
user sorts. Tokens are shown with :func:`tokexplorer.core.utf8.token_display`
(readable text; bytes that are only part of a UTF-8 character as ``\\xNN``), and
the display strings are computed once per token id and cached, so
:meth:`MergeTableModel.data` is O(1) even for hundreds of thousands of merges.

Sorting is done here, in Python, over the raw values (one ``sorted`` call,
then ``layoutChanged``), because letting ``QSortFilterProxyModel`` sort would
call :meth:`~MergeTableModel.data` O(n log n) times across the Python/C++
boundary. :class:`MergeFilterProxy` forwards ``sort`` to this model and only
filters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)
from PySide6.QtGui import QFontDatabase

from tokexplorer.core.types import MergeRecord
from tokexplorer.core.utf8 import token_display

#: Item data role returning the raw value of a cell: ``int`` for Rank, Bytes
#: and Count (``-1`` when the count is unknown), the token id (``int``) for Left
#: and Right, and the merged token's ``bytes`` for Merged token.
RawRole = int(Qt.ItemDataRole.UserRole) + 1

#: Column titles, in order.
MERGE_COLUMNS: tuple[str, ...] = (
    "Rank",
    "Left",
    "Right",
    "Merged token",
    "Bytes",
    "Count",
)
COL_RANK, COL_LEFT, COL_RIGHT, COL_MERGED, COL_BYTES, COL_COUNT = range(6)

_HEADER_TIPS = (
    "Merge rank: 0 is the first merge learned and the first applied when encoding",
    "Left token of the merged pair",
    "Right token of the merged pair",
    "The new token (left + right); bytes that are part of a UTF-8 character are shown as \\xNN",
    "Length of the merged token in bytes",
    "How often the pair occurred in the pre-tokenized corpus when it was merged",
)

_Index = QModelIndex | QPersistentModelIndex


class MergeTableModel(QAbstractTableModel):
    """Table of BPE merges: Rank, Left, Right, Merged token, Bytes, Count.

    Args:
        parent: Qt parent object.

    Call :meth:`set_merges` to show a model's merges. ``data(index,
    Qt.DisplayRole)`` gives display text, ``RawRole`` the raw value for sorting,
    ``Qt.ToolTipRole`` the token ids and hex bytes.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._merges: list[MergeRecord] = []
        self._vocab: Mapping[int, bytes] = {}
        self._order: list[int] = []  # view row -> index into _merges
        self._display: dict[int, str] = {}  # token id -> display text (lazy cache)
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        #: Bumped on every :meth:`set_merges`; lets filters know their cache is stale.
        self.generation = 0

    # -- data --------------------------------------------------------------------

    def set_merges(
        self, merges: Sequence[MergeRecord], vocab: Mapping[int, bytes]
    ) -> None:
        """Show ``merges`` (rank order) whose token ids are resolved through ``vocab``.

        Args:
            merges: the merge records, as in ``BPE.merges``.
            vocab: token id -> bytes, as in ``BPE.vocab``.
        """
        self.beginResetModel()
        self._merges = list(merges)
        self._vocab = vocab
        self._order = list(range(len(self._merges)))
        self._display = {}
        self.generation += 1
        self.endResetModel()

    def clear(self) -> None:
        """Show no merges."""
        self.set_merges([], {})

    def merge_at(self, row: int) -> MergeRecord:
        """The merge record shown at view ``row`` (after sorting)."""
        return self._merges[self._order[row]]

    def record_index(self, row: int) -> int:
        """Index into the original (rank-ordered) merge list of view ``row``."""
        return self._order[row]

    @property
    def merges(self) -> list[MergeRecord]:
        """The merge records in rank order (list of MergeRecord)."""
        return self._merges

    def token_text(self, token_id: int) -> str:
        """Display text of one token id (cached); ``"<id N?>"`` when not in the vocab."""
        text = self._display.get(token_id)
        if text is None:
            raw = self._vocab.get(token_id)
            text = token_display(raw) if raw is not None else f"<id {token_id}?>"
            self._display[token_id] = text
        return text

    def token_bytes(self, token_id: int) -> bytes:
        """Bytes of one token id (``b""`` when not in the vocab)."""
        return self._vocab.get(token_id, b"")

    # -- Qt model interface ------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self._order)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(MERGE_COLUMNS)

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(
            MERGE_COLUMNS
        ):
            if role == Qt.ItemDataRole.DisplayRole:
                return MERGE_COLUMNS[section]
            if role == Qt.ItemDataRole.ToolTipRole:
                return _HEADER_TIPS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        if not (0 <= row < len(self._order)) or not (0 <= col < len(MERGE_COLUMNS)):
            return None
        m = self._merges[self._order[row]]
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
            return "" if m.count is None else f"{m.count:,}"
        if role == RawRole:
            return self._raw(m, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_LEFT:
                return self._token_tip(m.left, self.token_bytes(m.left))
            if col == COL_RIGHT:
                return self._token_tip(m.right, self.token_bytes(m.right))
            if col == COL_MERGED:
                return self._token_tip(m.new_id, m.merged)
            if col == COL_COUNT and m.count is None:
                return "count unknown (merges recovered from ranks)"
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            if col in (COL_RANK, COL_BYTES, COL_COUNT):
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == Qt.ItemDataRole.FontRole and col in (
            COL_LEFT,
            COL_RIGHT,
            COL_MERGED,
        ):
            return self._mono
        return None

    @staticmethod
    def _raw(m: MergeRecord, col: int) -> Any:
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
        return -1 if m.count is None else m.count

    @staticmethod
    def _token_tip(token_id: int, raw: bytes) -> str:
        hex_bytes = raw.hex(" ").upper() if raw else "(none)"
        return f"token id {token_id} · {len(raw)} bytes: {hex_bytes}"

    def sort(
        self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder
    ) -> None:
        """Sort rows by ``column``'s raw value (numbers numerically, tokens by bytes).

        Ties keep rank order. Emits ``layoutAboutToBeChanged``/``layoutChanged``.
        """
        if not (0 <= column < len(MERGE_COLUMNS)):
            return
        merges = self._merges
        if column in (COL_LEFT, COL_RIGHT):
            vocab = self._vocab

            def key(i: int) -> Any:
                m = merges[i]
                return vocab.get(m.left if column == COL_LEFT else m.right, b"")

        else:

            def key(i: int) -> Any:
                return self._raw(merges[i], column)

        self.layoutAboutToBeChanged.emit()
        old = self._order
        new = sorted(
            range(len(merges)), key=key, reverse=order == Qt.SortOrder.DescendingOrder
        )
        # Keep persistent indexes (selection, current row) on the same records.
        pos_of = {rec: row for row, rec in enumerate(new)}
        from_list = self.persistentIndexList()
        to_list = [
            self.index(pos_of[old[ix.row()]], ix.column())
            if ix.isValid() and ix.row() < len(old)
            else QModelIndex()
            for ix in from_list
        ]
        self._order = new
        if from_list:
            self.changePersistentIndexList(from_list, to_list)
        self.layoutChanged.emit()

    # -- filtering support -------------------------------------------------------

    def match_mask(self, needle: str, *, hex_bytes: bytes | None = None) -> bytearray:
        """Which merges match a filter, indexed by rank-order position.

        Args:
            needle: text to look for, case-insensitively, in the Left, Right and
                Merged token display text; ignored when ``hex_bytes`` is given.
            hex_bytes: bytes to look for inside the merged token's bytes (hex mode).

        Returns:
            A bytearray with 1 for each matching merge (``len == len(merges)``).
        """
        merges = self._merges
        if hex_bytes is not None:
            return bytearray(1 if hex_bytes in m.merged else 0 for m in merges)
        needle = needle.casefold()
        lowered: dict[int, str] = {}

        def low(token_id: int) -> str:
            s = lowered.get(token_id)
            if s is None:
                s = lowered[token_id] = self.token_text(token_id).casefold()
            return s

        return bytearray(
            1
            if (
                needle in low(m.new_id)
                or needle in low(m.left)
                or needle in low(m.right)
            )
            else 0
            for m in merges
        )


def parse_hex(text: str) -> bytes:
    """Parse a hex filter such as ``"e4 bd"``, ``"E4BD"`` or ``"0xe4 0xbd"``.

    Raises:
        ValueError: the text is not an even number of hex digits.
    """
    cleaned = text.replace("0x", "").replace("0X", "").replace(",", " ")
    cleaned = "".join(cleaned.split())
    if len(cleaned) % 2:
        raise ValueError(f"odd number of hex digits in {text.strip()!r}")
    return bytes.fromhex(cleaned)


class MergeFilterProxy(QSortFilterProxyModel):
    """Filters a :class:`MergeTableModel` by token text or by hex bytes.

    Sorting is forwarded to the source model (see the module docstring); this
    proxy keeps the source order and only hides rows. The match mask is computed
    once per filter change in one Python pass and reused by ``filterAcceptsRow``.

    Args:
        parent: Qt parent object.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setSortRole(RawRole)
        self._needle = ""
        self._hex: bytes | None = None
        self._mask: bytearray | None = None
        self._mask_gen = -1

    @property
    def filter_text(self) -> str:
        return self._needle

    @property
    def hex_bytes(self) -> bytes | None:
        return self._hex

    def set_filter(self, text: str, *, hex_bytes: bytes | None = None) -> None:
        """Show only merges whose Left/Right/Merged text contains ``text``
        (case-insensitive), or, when ``hex_bytes`` is given, whose merged bytes
        contain ``hex_bytes``. Empty text and no bytes: show all."""
        self.beginFilterChange()
        self._needle = text
        self._hex = hex_bytes if hex_bytes else None
        self._mask = None
        self._mask_gen = -1
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def _active(self) -> bool:
        return bool(self._needle) or self._hex is not None

    def filterAcceptsRow(self, source_row: int, source_parent: _Index) -> bool:
        if not self._active():
            return True
        src = self.sourceModel()
        if not isinstance(src, MergeTableModel):
            return True
        if self._mask is None or self._mask_gen != src.generation:
            self._mask = src.match_mask(self._needle, hex_bytes=self._hex)
            self._mask_gen = src.generation
        rec = src.record_index(source_row)
        return rec < len(self._mask) and bool(self._mask[rec])

    def sort(
        self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder
    ) -> None:
        src = self.sourceModel()
        if isinstance(src, MergeTableModel):
            src.sort(column, order)
        else:
            super().sort(column, order)
