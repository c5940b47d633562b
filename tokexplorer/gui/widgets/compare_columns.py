"""The columns of the compare pane, side by side, and the reading aids that link them.

One :class:`~tokexplorer.gui.widgets.token_column.TokenColumn` per tokenizer in a
horizontal splitter, all of the same width until the user drags a handle. The
columns are linked by byte offset: hovering a token outlines the tokens over the
same bytes in every other column (and shows the token in the byte inspector), a
click keeps that outline, scrolling one column scrolls the others to the same
byte, diff marks flag the tokens some other column does not have, and the merge
selected in the merge table is marked where it fires in the columns of that BPE.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import shiboken6
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QFrame, QScrollArea, QSplitter, QWidget

from tokexplorer.core.analysis import diff_marks, part_spans
from tokexplorer.core.backends import BPETokenizer, HuggingFaceTokenizer, Tokenizer
from tokexplorer.gui.state import AppState, is_tiktoken_choice
from tokexplorer.gui.widgets.hf_stages import HFColumnPanel
from tokexplorer.gui.widgets.token_column import TokenColumn

UPDATING_AFTER_MS = 250
"""A column still without the result of a new text this long after it was asked for
shows that its tokens are the text before's (quicker results never flicker)."""


class SidewaysScroll(QScrollArea):
    """A frameless scroll area holding ``columns``: as wide as it is given, scrolled sideways
    when the columns' minimum widths add up to more (so they never widen the window);
    never scrolled up and down (each column scrolls its own tokens).

    Args:
        columns: the widget scrolled (the :class:`CompareColumns`).
        parent: Qt parent widget.
    """

    def __init__(self, columns: QWidget, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(columns)
        self._target: QWidget | None = None
        bar = self.horizontalScrollBar()
        bar.rangeChanged.connect(self._follow)
        bar.actionTriggered.connect(self._stop_following)

    def bring_into_view(self, widget: QWidget) -> None:
        """Scroll sideways until ``widget`` (a new column) is in view, and keep it there while
        the columns are still being laid out (their widths change as their results arrive),
        until the user scrolls or the widget is gone."""
        self._target = widget
        self._follow()

    def _follow(self, *_args: object) -> None:
        QTimer.singleShot(0, self._scroll_to_target)  # once the columns inside are placed too

    def _scroll_to_target(self) -> None:
        target = self._target
        if target is None:
            return
        if not shiboken6.isValid(target) or not self.widget().isAncestorOf(target):
            self._target = None  # the columns were rebuilt
            return
        self.ensureWidgetVisible(target, 0, 0)

    def _stop_following(self, *_args: object) -> None:
        self._target = None


class CompareColumns(QSplitter):
    """A horizontal splitter of token columns linked by byte offset.

    Args:
        state: the shared :class:`AppState` (hover and double-click requests go
            there; the merge-fire marks come from it).
        parent: optional parent widget.

    Signals:
        remove_requested(int): the ✕ button of column ``index`` was clicked.
        column_added(object): a :meth:`rebuild` gave a column to a tokenizer the columns did
            not show before (the last such :class:`TokenColumn`), once laid out; the pane
            holding the columns scrolls it into view.

    Attributes:
        columns: the :class:`TokenColumn` widgets, one per tokenizer, in order.
        sync_scrolling: scrolling one column scrolls the others (default True).
        pinned: byte range ``(start, end)`` of the clicked token, outlined in every
            column, or None.
    """

    remove_requested = Signal(int)
    column_added = Signal(object)

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal, parent)
        self.state = state
        self.columns: list[TokenColumn] = []
        self.sync_scrolling = True
        self.pinned: tuple[int, int] | None = None
        self._error_column: TokenColumn | None = None
        self._show_whitespace = False
        self._show_ids = False
        self._user_sized = False
        self._syncing = False
        self._fire_spans: list[tuple[int, int]] = []
        self._stages_open: set[int] = set()  # id() of the Hugging Face tokenizers whose stages are shown
        self._waiting: set[int] = set()  # columns still showing the tokens of the text before
        self._updating = QTimer(self)
        self._updating.setSingleShot(True)
        self._updating.setInterval(UPDATING_AFTER_MS)
        self._updating.timeout.connect(self._mark_updating)
        self.setChildrenCollapsible(False)
        self.splitterMoved.connect(self._on_handle_moved)
        state.merge_fires.connect(self._on_merge_fires)
        state.corpus_changed.connect(self._retell_trained)

    def expect_results(self, indices: Sequence[int]) -> None:
        """Columns ``indices`` are tokenized anew: those still without their new result
        :data:`UPDATING_AFTER_MS` from now say so (:meth:`TokenColumn.mark_updating`)."""
        self._waiting = set(indices)
        self._updating.start()

    def result_shown(self, index: int) -> None:
        """Column ``index`` shows its new result."""
        self._waiting.discard(index)

    def _mark_updating(self) -> None:
        for i in sorted(self._waiting):
            if i < len(self.columns):
                self.columns[i].mark_updating()

    def _retell_trained(self, *_args: object) -> None:
        """Another corpus is open: each column says anew whether its model was trained on it."""
        for col in self.columns:
            if col.tokenizer is not None:
                note, stale = self.state.trained_note(col.tokenizer)
                col.set_trained_note(note, stale=stale)

    # ------------------------------------------------------------------ columns

    def rebuild(
        self, tokenizers: Sequence[Tokenizer], *, tiktoken_error: str | None = None, tiktoken_name: str = ""
    ) -> None:
        """Replace the columns by one per tokenizer (empty until results are shown).

        Args:
            tokenizers: the tokenizers, in column order.
            tiktoken_error: shown in the column of the tiktoken choice (a column of
                its own when there is none), or None.
            tiktoken_name: the encoding that failed to load (its column's header names it).
        """
        before = {id(col.tokenizer) for col in self.columns}
        for col in self.columns:  # emptied first: taking one out resizes the others, which lay out their tokens again
            col.view.set_tokenization(None)
        for col in self.columns:
            col.setParent(None)
            col.deleteLater()
        if self._error_column is not None:
            self._error_column.setParent(None)
            self._error_column.deleteLater()
            self._error_column = None
        self.columns = []
        for tok in tokenizers:
            col = TokenColumn(tok, self)
            col.view.set_show_whitespace(self._show_whitespace)
            col.view.set_show_ids(self._show_ids)
            col.view.token_hovered.connect(partial(self._on_token_hovered, col))
            col.view.token_clicked.connect(partial(self.select_token, col))
            col.view.token_double_clicked.connect(partial(self._on_token_double_clicked, col))
            col.view.scrolled.connect(partial(self._on_scrolled, col))
            col.remove_requested.connect(partial(self._on_remove, col))
            note, stale = self.state.trained_note(tok)
            col.set_trained_note(note, stale=stale)
            if isinstance(tok, HuggingFaceTokenizer):
                self._add_hf_panel(col, tok)
            self.addWidget(col)
            self.columns.append(col)
        if tiktoken_error is not None:
            target = self.tiktoken_choice_column()
            if target is None:
                target = TokenColumn(None, self)
                self.addWidget(target)
                self._error_column = target
            target.header.setText(f"tiktoken {tiktoken_name}".rstrip())
            target.show_result(tiktoken_error)
        self._user_sized = False
        self.equalize()
        QTimer.singleShot(0, self.equalize)
        new = [col for col in self.columns if before and id(col.tokenizer) not in before]
        if new:
            QTimer.singleShot(0, lambda col=new[-1]: col in self.columns and self.column_added.emit(col))

    def tiktoken_choice_column(self) -> TokenColumn | None:
        """The column of the tiktoken choice (:func:`~tokexplorer.gui.state.is_tiktoken_choice`), if any."""
        return next((c for c in self.columns if is_tiktoken_choice(c.tokenizer)), None)

    def _add_hf_panel(self, col: TokenColumn, tok: HuggingFaceTokenizer) -> None:
        """The add-special-tokens switch and the pipeline stages of a Hugging Face column."""
        panel = HFColumnPanel(tok, lambda: self.state.special_policy, col)
        panel.stages_box.setChecked(id(tok) in self._stages_open)
        panel.stages_box.toggled.connect(partial(self._on_stages_toggled, id(tok)))
        # the switch changes the tokens everywhere (columns, inspector, statistics)
        panel.switched.connect(lambda _on: self.state.set_tokenizers(list(self.state.tokenizers)))
        col.set_panel(panel)

    def _on_stages_toggled(self, key: int, on: bool) -> None:
        if on:
            self._stages_open.add(key)
        else:
            self._stages_open.discard(key)

    def equalize(self) -> None:
        """Give every column the same width (until the user drags a handle)."""
        if self._user_sized:
            return
        n = self.count()
        if n:
            w = max(n, self.width())
            self.setSizes([w // n] * n)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self.equalize()

    def _on_handle_moved(self, _pos: int, _index: int) -> None:
        self._user_sized = True

    def _on_remove(self, col: TokenColumn) -> None:
        if col in self.columns:
            self.remove_requested.emit(self.columns.index(col))

    # ------------------------------------------------------------------ reading aids

    def set_show_whitespace(self, on: bool) -> None:
        """Draw whitespace as visible glyphs in every column (and in later ones)."""
        self._show_whitespace = on
        for col in self.columns:
            col.view.set_show_whitespace(on)

    def set_show_ids(self, on: bool) -> None:
        """Draw each token as its id in every column (and in later ones)."""
        self._show_ids = on
        for col in self.columns:
            col.view.set_show_ids(on)

    def update_diff_marks(self, on: bool) -> None:
        """Mark (``on``) or unmark the tokens whose byte range is not a token of some
        other column (see :func:`tokexplorer.core.analysis.compare.diff_marks`)."""
        cols = [c for c in self.columns if c.tokenization is not None]
        if not on or len(cols) < 2:
            for c in self.columns:
                c.view.set_diff_marks(None)
            return
        marks = diff_marks([[(t.byte_start, t.byte_end) for t in c.tokenization.tokens] for c in cols])
        for c, m in zip(cols, marks):
            c.view.set_diff_marks(m)

    def _on_merge_fires(self, spans: list[tuple[int, int]] | None) -> None:
        """Mark where the merge selected in the merge table fires, in the columns
        of that BPE (``spans``: byte ranges of the whole sample text)."""
        self._fire_spans = [(int(a), int(b)) for a, b in (spans or [])]
        self.apply_fire_marks()

    def apply_fire_marks(self) -> None:
        """Mark the last merge-fire spans in the columns of ``state.bpe`` (the shown part of the sample text)."""
        text = self.state.sample_text
        for col in self.columns:
            tok = col.tokenizer
            same_bpe = isinstance(tok, BPETokenizer) and tok.bpe is self.state.bpe
            if not same_bpe or col.tokenization is None or not self._fire_spans:
                col.view.mark_spans([])
                continue
            col.view.mark_spans(
                part_spans(self._fire_spans, text, part_start=col.part_start, part_text=col.tokenization.text)
            )

    # ------------------------------------------------------------------ hover, selection, scrolling

    def _on_token_hovered(self, src: TokenColumn, index: int) -> None:
        if src not in self.columns:
            return
        tz = src.tokenization
        if index < 0 or tz is None or index >= len(tz.tokens):
            rng = self.pinned or (-1, -1)
            for col in self.columns:
                if col is not src or self.pinned:
                    col.view.highlight_bytes(*rng)
            self.state.token_hovered.emit(src.name, -1, -1)
            return
        tok = tz.tokens[index]
        for col in self.columns:
            if col is not src:
                col.view.highlight_bytes(tok.byte_start, tok.byte_end)
        self.state.token_hovered.emit(src.name, tok.byte_start, tok.byte_end)
        self.state.inspect_requested.emit(tz.text, tok.byte_start, tok.byte_end)

    def _on_token_double_clicked(self, src: TokenColumn, index: int) -> None:
        """Ask for the merge tree of a token in its own model (shown by the merge table pane)."""
        tz = src.tokenization
        if tz is None or not 0 <= index < len(tz.tokens):
            return
        self.state.token_tree_requested.emit(bytes(tz.tokens[index].bytes), src.name)

    def select_token(self, src: TokenColumn, index: int) -> None:
        """Select token ``index`` of column ``src``: its byte range stays outlined in
        every column (:attr:`pinned`); an index out of range clears the selection."""
        tz = src.tokenization
        if index < 0 or tz is None or index >= len(tz.tokens):
            self.pinned = None
            for col in self.columns:
                col.view.highlight_bytes(-1, -1)
            return
        tok = tz.tokens[index]
        self.pinned = (tok.byte_start, max(tok.byte_end, tok.byte_start + 1))
        for col in self.columns:
            col.view.highlight_bytes(*self.pinned)

    def _on_scrolled(self, src: TokenColumn) -> None:
        if self._syncing or not self.sync_scrolling or src not in self.columns:
            return
        offset = src.view.first_visible_byte()
        if offset < 0:
            return
        self._syncing = True
        try:
            for col in self.columns:
                if col is not src:
                    col.view.scroll_to_byte(offset)
        finally:
            self._syncing = False
