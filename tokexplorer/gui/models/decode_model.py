"""The decode box's table: one row per decoded id (model/view, so 100,000 ids cost no
more to show than 100: Qt asks only for the rows on screen)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QObject, Qt

from tokexplorer.core.analysis.decoding import DecodedToken
from tokexplorer.core.text import emitted_display
from tokexplorer.gui import theme
from tokexplorer.gui.models.table_model import TitledTableModel
from tokexplorer.gui.plural import plural
from tokexplorer.gui.widgets.glyphs import piece_tip, shown_piece

#: The columns, in order.
DECODE_COLUMNS = ("#", "id", "bytes", "spelling", "decoder emits", "held back")

_TIPS = (
    "Position of the id in the list (0-based)",
    "The token id",
    "The token's bytes in hex",
    "The token as its family spells it (Hugging Face token string, SentencePiece piece, tiktoken bytes)",
    "What an incremental UTF-8 decoder emits after this id",
    "Bytes the streaming decoder holds back after this id: the start of a character whose other bytes come later",
)


def held_text(held: int) -> str:
    """The "held back" cell: the bytes the streaming decoder keeps after an id, waiting for
    the rest of a character (``"2 bytes of an unfinished character"``; ``""`` for none).

    >>> held_text(2), held_text(0)
    ('2 bytes of an unfinished character', '')
    """
    return f"{plural(held, 'byte')} of an unfinished character" if held else ""


def shown(s: str, *, control_pictures: bool | None = None) -> str:
    """An emitted string made visible in a table cell: the one rule of emitted text
    (:func:`~tokexplorer.core.text.display.emitted_display`: spaces as ``␣``, controls as
    glyphs, look-alikes as ``<U+XXXX>``); empty → ``∅``. ``control_pictures``: None for
    the window's choice (:func:`tokexplorer.gui.theme.control_pictures`).

    >>> shown(""), shown(" a\\nb\\t", control_pictures=False)
    ('∅ (waiting for more bytes)', '␣a↵b→')
    """
    if s == "":
        return "\u2205 (waiting for more bytes)"
    if control_pictures is None:
        control_pictures = theme.control_pictures()
    return emitted_display(s, control_pictures=control_pictures)


class DecodeRowsModel(TitledTableModel):
    """Rows of :class:`~tokexplorer.core.analysis.DecodedToken`, texts made on demand."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(DECODE_COLUMNS, title_tips=_TIPS, parent=parent)
        self._tokens: tuple[DecodedToken, ...] = ()

    def set_tokens(self, tokens: Sequence[DecodedToken]) -> None:
        """Show these tokens (one model reset)."""
        self.beginResetModel()
        self._tokens = tuple(tokens)
        self.endResetModel()

    def row_count(self) -> int:
        return len(self._tokens)

    def cell_text(self, row: int, col: int) -> str:
        """The display text of one cell (both in range)."""
        t = self._tokens[row]
        if col == 0:
            return str(t.index)
        if col == 1:
            return str(t.id)
        if col == 2:
            return t.bytes.hex(" ").upper() or "(none)"
        if col == 3:
            return shown_piece(t.spelling)  # the window's one display rule: look-alikes as <U+XXXX>
        if col == 4:
            return shown(t.emitted)
        return held_text(t.held)

    def cell_data(self, row: int, col: int, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return self.cell_text(row, col)
        if role == Qt.ItemDataRole.ToolTipRole and col == 3 and self._tokens[row].spelling:
            return piece_tip(self._tokens[row].spelling)
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (0, 1):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None
