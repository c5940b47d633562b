"""The merge table's side views and its filter kept in step: which record they show, and a note
when the filter hides it.

The merge tree, "Where it fires" and the training plot's marker show one record of the table
(a merge, or a token no merge builds): the one last clicked, jumped to or asked for. A filter
never changes what they show; when its rows are in (``MergeFiltering.applied``, later than the
typing for a table filtered in a worker), :meth:`ShownMerge.follow` makes the table agree:

* the shown record is among the filtered rows: it is selected again and scrolled to;
* it is filtered out: no row is selected, the list is shown from its top, and the note above
  the side views says so (``merge #18 «␣the» — not among the 213 filtered rows; clear the
  filter to see it in the table``); clicking a row shows that one, clearing the filter selects
  the shown record again.

A lookup is one scan of the model's row list (:meth:`MergeTableModel.row_of_record`), about a
millisecond for 200,000 rows.
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QLabel, QVBoxLayout, QWidget

from tokexplorer.gui import theme
from tokexplorer.gui.models.merge_model import MergeTableModel
from tokexplorer.gui.plural import plural
from tokexplorer.gui.widgets.glyphs import shown_piece
from tokexplorer.gui.widgets.merge_table_view import MergeTableView

_NOTE_STYLE = (
    f"QLabel {{ background: {theme.WARNING_BG.name()}; color: {theme.WARNING_TEXT.name()};"
    " padding: 3px 6px; border-radius: 3px; }"
)


def off_list_note(what: str, n_rows: int) -> str:
    """The note for a shown record the filter hides: ``what`` names it (``"merge #18 «␣the»"``),
    ``n_rows`` is how many rows the filter lists.

    >>> off_list_note("merge #18 «␣the»", 213)
    'merge #18 «␣the» — not among the 213 filtered rows; clear the filter to see it in the table'
    >>> off_list_note("token 300 «ab»", 0)
    'token 300 «ab» — the filter lists no rows; clear the filter to see it in the table'
    """
    where = f"not among the {plural(n_rows, 'filtered row')}" if n_rows else "the filter lists no rows"
    if n_rows == 1:
        where = "not the one filtered row"
    return f"{what} — {where}; clear the filter to see it in the table"


class ShownMerge:
    """Which record the merge table's side views show, and the table's selection kept in step.

    Args:
        model: the merge table model.
        view: its view.

    Attributes:
        note: the QLabel above the side views (hidden unless the filter hides the shown record).
        rank: rank of the merge shown (None: none, or a token no merge builds).
        token: id of the token no merge builds that is shown (None otherwise).
    """

    def __init__(self, model: MergeTableModel, view: MergeTableView) -> None:
        self._model, self._view = model, view
        self.rank: int | None = None
        self.token: int | None = None
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet(_NOTE_STYLE)
        self.note.hide()

    def beside(self, details: QWidget) -> QWidget:
        """A widget holding :attr:`note` above ``details`` (the side views' tabs)."""
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.note)
        layout.addWidget(details, 1)
        return box

    def set_merge(self, rank: int | None) -> None:
        """The side views now show the merge of ``rank`` (None: nothing); the note says whether it is listed."""
        self.rank, self.token = rank, None
        self._say(self.row())

    def set_token(self, token_id: int) -> None:
        """The side views now show token ``token_id``, one no merge builds: a row of its own when the
        model lists such tokens (``model.unbuilt``), none for a single byte."""
        self.rank, self.token = None, token_id if token_id in self._model.unbuilt else None
        self._say(self.row())

    def row(self) -> int:
        """View row of the shown record; -1 when the filter hides it or nothing is shown."""
        model = self._model
        if self.rank is not None:
            return model.row_of_rank(self.rank)
        if self.token is not None:
            return model.row_of_record(len(model.merges) + model.unbuilt.index(self.token))
        return -1

    def follow(self) -> None:
        """The filter's rows are in: select and scroll to the shown record, or, when it is filtered
        out (or none is shown), show the list from its top and say so in :attr:`note`."""
        row = self.row()
        if row < 0:
            self._view.clearSelection()
            self._view.scrollToTop()
        else:
            ix = self._view.select_row(row, notify=False)
            self._view.viewport().update()
            self._view.scrollTo(ix, QAbstractItemView.ScrollHint.EnsureVisible)
        self._say(row)

    def _say(self, row: int) -> None:
        what = self._what() if row < 0 else None
        if what is None:
            self.note.hide()
            self.note.clear()
            return
        self.note.setText(off_list_note(what, self._model.rowCount()))
        self.note.show()

    def _what(self) -> str | None:
        """The shown record named as the note says it (None: nothing shown)."""
        model = self._model
        if self.rank is not None:
            merge = next((m for m in _near(model, self.rank) if m.rank == self.rank), None)
            raw = merge.merged if merge is not None else b""
            return f"merge #{self.rank} «{shown_piece(raw, visible_spaces=True)}»"
        if self.token is not None:
            raw = model.token_bytes(self.token)
            return f"token {self.token} «{shown_piece(raw, visible_spaces=True)}»"
        return None


def _near(model: MergeTableModel, rank: int) -> list:
    """The merge records where the one of ``rank`` is (at its index in rank order), else all of them."""
    merges = model.merges
    return [merges[rank]] if 0 <= rank < len(merges) and merges[rank].rank == rank else merges
