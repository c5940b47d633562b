"""The merge table pane: interrogate every merge of the current BPE model.

Shows ``AppState.bpe`` (updated on ``bpe_changed``) in a sortable table: rank, left, right,
merged token, byte length, pair count and how often the merge fires on the sample text. Above
the table: a filter (text, regex or hex bytes), a script filter, "partial UTF-8 only", the token
display (text, hex bytes, GPT-2 visible bytes) and "jump to rank". Beside it, for the selected merge:

* **Merge tree**: how the merged token was built, down to its bytes;
* **Where it fires**: the sample text with every place the merge applies
  highlighted, and the chunks it occurs in with counts (the spans are also
  sent as ``AppState.merge_fires`` for other panes);
* **Training plot**: corpus tokens, bytes per token and token length against
  rank; clicking a point selects that merge.

Slow work (recovering tiktoken merges, the search index and sort keys, a large
table's filter, encoding the sample to count firings) runs in workers; the table
stays responsive.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QSignalBlocker, Qt, QTimer
from PySide6.QtWidgets import (
    QAbstractItemView,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import FireIndex, MergeIndex, fire_index
from tokexplorer.core.backends import BPETokenizer, Tokenizer
from tokexplorer.core.bpe import BPE
from tokexplorer.core.text import to_gpt2_visible
from tokexplorer.core.types import MergeRecord
from tokexplorer.gui.models.merge_columns import COL_FIRES, COL_RANK, FIRES_TIP
from tokexplorer.gui.models.merge_model import MergeTableModel
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.elided_label import never_widens
from tokexplorer.gui.widgets.fire_sites import FireSitesView
from tokexplorer.gui.widgets.merge_filter_controls import MergeFilterControls
from tokexplorer.gui.widgets.merge_filtering import MergeFiltering
from tokexplorer.gui.widgets.merge_follow import ShownMerge
from tokexplorer.gui.widgets.merge_source import ModelTitle, model_of, no_tree_message, source_tokenizer
from tokexplorer.gui.widgets.merge_table_view import MergeTableView, model_title
from tokexplorer.gui.widgets.merge_tree import MergeTreePanel, default_label
from tokexplorer.gui.widgets.training_plot import TrainingPlot
from tokexplorer.gui.workers import CancelFlag, LatestRequest, pause_while_hidden, user_message

_NO_MODEL = "No BPE model yet: train one in the Corpus tab or open a model file."
#: How the merge tree writes token bytes in each display mode.
_TREE_LABELS: dict[str, Callable[[bytes], str]] = {
    "text": default_label,
    "hex": lambda b: b.hex(" ").upper(),
    "gpt2": to_gpt2_visible,
}


class MergesPane(QWidget):
    """Merge table of the current BPE model with filters, merge tree, firing sites and plots.

    Args:
        state: the shared application state; the pane follows ``state.bpe``
            and ``state.sample_text``.
        parent: Qt parent widget.

    Attributes:
        model: the :class:`MergeTableModel` (sorts and filters itself).
        proxy: the same object as :attr:`model` (kept for callers of v0).
        view: the :class:`MergeTableView`.
        title: the :class:`ModelTitle` (title_label, back_button): the shown model, which may be
            a Compare column's (a token of it double-clicked) instead of ``state.bpe``.
        filter_controls: the :class:`MergeFilterControls`: filter_edit, regex_check, hex_check,
            script_combo, partial_combo, whole_check, count_label, display_combo, jump_spin.
        tree_panel: the :class:`MergeTreePanel` ("Merge tree" tab); tree and
            tree_label are its :class:`MergeTreeWidget` and caption.
        fire_sites: the :class:`FireSitesView` ("Where it fires" tab); fires_text,
            fires_table and fires_label are its text, chunk table and caption.
        plot: the :class:`TrainingPlot`.
        details: the QTabWidget holding the three detail views.
        merges_job, fire_job: recovering a tiktoken model's merges and counting
            where each merge fires in the sample text (latest request wins).
        filtering: the :class:`MergeFiltering` applying the filter controls (a large table's
            filter in a worker) and building the search index, sort keys and merge trees'
            index in its ``index_worker``.
        shown: the :class:`ShownMerge`: the record the side views show, selected again when a
            filter's rows are in, its ``note`` above them saying when the filter hides it.
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.model = MergeTableModel(self)
        self.proxy = self.model
        self._bpe: BPE | None = None
        self._titled: BPE | None = None  # the model whose merges and title are shown
        self._index: MergeIndex | None = None
        self._fires: FireIndex | None = None
        self._fires_text = self._fires_source = ""  # the Compare text counted in, and what it is
        self._live_merges: list[MergeRecord] | None = None
        self._source: Tokenizer | None = None  # the Compare column whose model is shown instead of state.bpe
        self._pending_tree: bytes | None = None  # a token whose tree is drawn once that model's merges are in
        self.merges_job, self.fire_job = LatestRequest(self), LatestRequest(self)
        pause_while_hidden(self, [self.fire_job])

        self.title = ModelTitle(_NO_MODEL)
        self.title_label, self.back_button = self.title.label, self.title.back_button
        never_widens(self.title_label)  # a long model name wraps; it never widens the window
        c = MergeFilterControls()
        self.filter_edit, self.regex_check, self.hex_check = c.filter_edit, c.regex_check, c.hex_check
        self.script_combo, self.partial_combo, self.whole_check = c.script_combo, c.partial_combo, c.whole_check
        self.count_label, self.display_combo, self.jump_spin = c.count_label, c.display_combo, c.jump_spin
        self.filter_controls = c
        self.filtering = MergeFiltering(self.model, c, self)
        self.view = MergeTableView(self.model)
        self.shown = ShownMerge(self.model, self.view)
        self.tree_panel = MergeTreePanel()
        self.tree, self.tree_label = self.tree_panel.tree, self.tree_panel.caption
        self.fire_sites = FireSitesView()
        self.fires_text, self.fires_table, self.fires_label = (f := self.fire_sites).text, f.table, f.label
        self.plot = TrainingPlot()
        self.details = QTabWidget()
        self.details.addTab(self.tree_panel, "Merge tree")
        self.details.addTab(self.fire_sites, "Where it fires")
        self.details.addTab(self.plot, "Training plot")
        self.splitter = self._build_splitter()

        layout = QVBoxLayout(self)
        layout.addWidget(self.title)
        layout.addLayout(c.filter_row)
        layout.addLayout(c.display_row)
        layout.addWidget(self.splitter, 1)

        # Debounce typing (the filter: one pass over prepared columns, in a worker for a large table),
        # sample-text edits, and the live training plot (redrawn at most every 300 ms).
        self._filter_timer = self._single_shot(120, self.apply_filter)
        self._fire_timer = self._single_shot(300, self._count_fires)
        self._live_timer = self._single_shot(300, self._draw_live_plot)
        self._connect_controls()
        self._connect_state()
        self.set_bpe(state.bpe)

    def _build_splitter(self) -> QSplitter:
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.view)
        splitter.addWidget(self.shown.beside(self.details))
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([3000, 2000])  # the table gets 60% at any window width
        return splitter

    def _single_shot(self, msec: int, slot: Callable[[], object]) -> QTimer:
        timer = QTimer(self)
        timer.setSingleShot(True)
        timer.setInterval(msec)
        timer.timeout.connect(slot)
        return timer

    def _connect_controls(self) -> None:
        self.filter_edit.textChanged.connect(self._filter_timer.start)
        self.filter_edit.returnPressed.connect(self.apply_filter)
        self.hex_check.toggled.connect(self._on_mode_check)
        self.regex_check.toggled.connect(self._on_mode_check)
        self.script_combo.currentIndexChanged.connect(lambda _i: self.apply_filter())
        self.partial_combo.currentIndexChanged.connect(lambda _i: self.apply_filter())
        self.whole_check.toggled.connect(lambda _on: self.apply_filter())
        self.count_label.linkActivated.connect(lambda link: self.filter_controls.set_mode(link.lstrip("#")))
        self.display_combo.currentIndexChanged.connect(self._on_display_mode)
        self.jump_spin.valueChanged.connect(lambda v: self.jump_to_rank(v))
        # Enter on the number already shown jumps too (valueChanged stays silent then)
        self.jump_spin.lineEdit().returnPressed.connect(lambda: self.jump_to_rank(self.jump_spin.value()))
        self.view.selectionModel().selectionChanged.connect(self._on_selection)
        self.model.modelReset.connect(self._update_count)
        self.model.layoutChanged.connect(self._update_count)
        self.filtering.applied.connect(self.shown.follow)
        self.filtering.merge_index.connect(self._on_merge_index)
        self.plot.merge_clicked.connect(lambda r: self.jump_to_rank(r) or self.plot.set_marker(self.shown.rank))
        self.title.back_clicked.connect(lambda: self.set_bpe(self.state.bpe))

    def _connect_state(self) -> None:
        state = self.state
        state.bpe_changed.connect(self.set_bpe)
        state.tokenizers_changed.connect(self._rename)  # the title names the model as its column does
        state.sample_text_changed.connect(self._recount)
        state.sample_source_changed.connect(self._name_fires_text)
        state.merge_requested.connect(self.jump_to_rank)
        state.training_merges.connect(self._on_training_merges)
        state.token_tree_requested.connect(self.show_tree_of_bytes)
        state.corpus_changed.connect(lambda _c: self._update_plot())

    # -- public ------------------------------------------------------------------

    @property
    def bpe(self) -> BPE | None:
        """The BPE shown (None before one is set)."""
        return self._bpe

    def set_bpe(self, bpe: BPE | None) -> None:
        """Show the merges of ``bpe`` or none (None): the Corpus tab's BPE
        (``state.bpe``), followed on ``bpe_changed``.

        A model loaded from tiktoken ranks has its merges recovered in a worker
        first (about half a second for cl100k); the table shows them when ready.
        """
        self._source = None
        self._pending_tree = None
        self._load(bpe)

    def _load(self, bpe: BPE | None) -> None:
        self._bpe = bpe
        self._titled = None
        self._index = None
        self._fires = None
        self.shown.set_merge(None)
        self.merges_job.cancel()
        self.fire_job.cancel()
        self.tree.set_tree(None)
        self.fire_sites.clear()
        if bpe is None:
            self.model.clear()
            self.title.show_title(_NO_MODEL)
            self._after_model()
            return
        if bpe.known_merges is None:  # tiktoken ranks: recover the merges off-thread
            self.model.clear()
            self.title.show_title(f"{self._title_name(bpe)}: recovering the merges from the ranks…")
            self.merges_job.start(
                lambda cancel, b=bpe: (b.merges, b)[1], on_result=self._show_merges, on_error=self._on_worker_error
            )
            return
        self._show_merges(bpe)

    def apply_filter(self) -> None:
        """Apply the filter controls now (typing is debounced); a large table's filter is computed
        in a worker and shown when it is done (``filtering.applied``; till then the rows before)."""
        self._filter_timer.stop()
        self.filtering.apply()

    def shown_count(self) -> int:
        """Number of merges shown after filtering."""
        return self.model.rowCount()

    def jump_to_rank(self, rank: int) -> bool:
        """Select and scroll to the merge of ``rank``; False (with a status
        message) when it does not exist or the filter hides it."""
        row = self.model.row_of_rank(rank)
        if row < 0:
            why = "is hidden by the filter" if 0 <= rank < len(self.model.merges) else "does not exist"
            self.state.status.emit(f"merge #{rank} {why}")
            return False
        already = self.shown.rank == rank
        ix = self.view.select_row(row)
        self.view.scrollTo(ix, QAbstractItemView.ScrollHint.PositionAtCenter)
        if already:  # no selection change: say the merge again instead of leaving an old message
            self._on_selection()
        return True

    def selected_rank(self) -> int | None:
        """Rank of the merge the side views show (None when none): the selected row's, or one the
        filter hides (``shown.note`` says so)."""
        return self.shown.rank

    def merge_index(self) -> MergeIndex | None:
        """The :class:`MergeIndex` of the shown model (built on first use)."""
        if self._index is None and self._bpe is not None and self.model.merges:
            self._index = MergeIndex(self.model.merges, self.model.vocab)
        return self._index

    def show_token_tree(self, token_id: int) -> bool:
        """Draw the merge tree of ``token_id`` in the Merge tree tab."""
        idx = self.merge_index()
        if idx is None:
            self.tree.set_tree(None, message="No BPE model")
            return False
        try:
            root = idx.tree(token_id)
        except Exception as exc:  # noqa: BLE001 - an InputError: a one-line message
            self.tree_panel.show_message(str(exc))
            return False
        self.tree_panel.show_tree(token_id, root)
        return True

    def show_tree_of_bytes(self, data: bytes, source: str = "") -> bool:
        """Draw the merge tree of the token whose bytes are ``data`` and show the tab. ``source``:
        its tokenizer's name (``""``: the shown model's); another model with merges or ranks is
        shown first, saying so (False until its tree is drawn); one without says it has no tree."""
        tok = source_tokenizer(self.state.tokenizers, source)
        if tok is not None and tok is not self._source and not (isinstance(tok, BPETokenizer) and tok.bpe is self._bpe):
            return self._show_tree_of(tok, bytes(data))
        if self._bpe is None:
            return False
        tid = self._bpe.mergeable_ranks.get(bytes(data))
        self.details.setCurrentIndex(0)
        if tid is None:
            name = self.state.name_of(self._bpe)
            self.tree_panel.show_message(f"{bytes(data).hex(' ').upper()} is not a token of {name}")
            return False
        # the table selects the merge that builds the token (none for a single byte); one the filter
        # hides is shown all the same, the note saying so
        merge = next((m for m in self.model.merges if m.new_id == tid), None)
        if merge is not None and self.model.row_of_rank(merge.rank) >= 0:
            self.jump_to_rank(merge.rank)
        else:
            self.view.clearSelection()
            if merge is not None:
                self._show_merge(merge)
            else:  # a single byte, or a token no merge builds
                self._show_token(tid)
        return self.show_token_tree(tid)

    def fire_sites_text(self) -> str:
        """The Compare text the firing counts were computed on."""
        return self._fires_text

    # -- internals ---------------------------------------------------------------

    def _show_merges(self, bpe: BPE) -> None:
        self.model.set_merges(bpe.merges, bpe.vocab, unbuilt=bpe.unbuilt_tokens, refilter=False)
        self._titled = bpe
        self._rename()
        self._after_model()
        self.filtering.start_index()
        self.filtering.apply()  # the filter of the controls, in a worker for a large table
        self._recount()
        pending, self._pending_tree = self._pending_tree, None
        if pending is not None:
            self.show_tree_of_bytes(pending)

    def _title_name(self, bpe: BPE) -> str:
        return self._source.name if self._source else self.state.name_of(bpe)

    def _rename(self) -> None:
        bpe = self._titled
        if bpe is None:  # not shown yet (merges still recovered from ranks)
            return
        current = self.state.name_of(self.state.bpe) if self.state.bpe is not None else "none"
        self.title.show_title(model_title(bpe, name=self._title_name(bpe)), instead_of=self._source and current)

    def _show_tree_of(self, tok: Tokenizer, data: bytes) -> bool:
        """Switch the table to ``tok``'s model, ``data``'s tree drawn when its merges
        are in, or say why ``tok`` has no merge tree (False: nothing drawn yet)."""
        self.details.setCurrentIndex(0)
        why = no_tree_message(tok)
        if why is not None:
            self.tree_panel.show_message(why)
            return False
        self._source = None if isinstance(tok, BPETokenizer) and tok.bpe is self.state.bpe else tok
        self._pending_tree = data
        self._bpe = self._titled = None
        self.model.clear()
        self.title.show_title(f"{tok.name}: loading its merges for the merge table…")
        self.state.status.emit(f"merge table: showing the merges of {tok.name}, the model of that token")
        self.merges_job.start(lambda cancel, t=tok: model_of(t), on_result=self._load, on_error=self._on_worker_error)
        return False

    def _after_model(self) -> None:
        self.whole_check.setChecked(self.whole_check.isChecked() and bool(self.model.unbuilt))  # never hidden on
        self.whole_check.setVisible(bool(self.model.unbuilt))
        self.view.horizontalHeader().setSortIndicator(COL_RANK, Qt.SortOrder.AscendingOrder)
        self._update_count()
        self._update_plot()
        self.view.fit_columns()

    def _corpus_bytes(self) -> int | None:
        corpus = self.state.corpus
        return corpus.n_bytes if corpus is not None else None

    def _on_training_merges(self, merges: list[MergeRecord]) -> None:
        self._live_merges = merges
        if not self._live_timer.isActive():
            self._live_timer.start()

    def _draw_live_plot(self) -> None:
        """Plot the merges a running training has learned so far."""
        if self._live_merges is not None:
            self.plot.show_training(self._live_merges, self._corpus_bytes())

    def _update_plot(self) -> None:
        self._live_merges = None
        self._live_timer.stop()
        self.plot.set_merges(self.model.merges, self._corpus_bytes())

    def _on_merge_index(self, merge_index: MergeIndex) -> None:
        if self._index is None:  # not built on the GUI thread at a click
            self._index = merge_index

    def _count_fires(self) -> None:
        bpe = self._bpe
        if bpe is None or not self.model.merges:
            return
        text, source = self.state.sample_text, self.state.sample_label()
        merges, vocab = self.model.merges, self.model.vocab
        index = self._index

        def work(cancel: CancelFlag) -> tuple[str, MergeIndex, FireIndex, str]:
            idx = index if index is not None else MergeIndex(merges, vocab)
            return text, idx, fire_index(bpe, text, index=idx, cancel=cancel), source

        self.fire_job.start(work, on_result=self._on_fires, on_error=self._on_worker_error)

    def _recount(self, *_args: object) -> None:
        """Drop the counts (cancel their job), say "counting…" and count anew after a pause in typing."""
        self.fire_job.cancel()
        self._fires = None
        self.model.set_fire_counts(None, counting=self._bpe is not None and bool(self.model.merges))
        if self.shown.rank is not None:
            self.fire_sites.show_counting()
        self._fire_timer.start()

    def _on_fires(self, result: tuple[str, MergeIndex, FireIndex, str]) -> None:
        self._fires_text, self._index, self._fires, self._fires_source = result
        self.model.set_fire_counts(self._fires.counts)
        self.model.set_title_tip(COL_FIRES, FIRES_TIP.format(text=self._fires_source))
        self.view.fit_columns(tokens=False)
        if self.shown.rank is not None:
            self._show_fires(self.shown.rank)

    def _name_fires_text(self) -> None:
        """The Compare text was named anew (same text): the Fires header's tooltip says so."""
        if self._fires is not None and self._fires_text == self.state.sample_text:
            self._fires_source = self.state.sample_label()
            self.model.set_title_tip(COL_FIRES, FIRES_TIP.format(text=self._fires_source))

    def _on_worker_error(self, exc: BaseException) -> None:
        if self.model.fires_counting:  # a count failed: blank, no longer "counting…"; said why below
            self.model.set_fire_counts(None)
        self.state.status.emit(f"merge table: {user_message(exc)}")

    def _on_mode_check(self, on: bool) -> None:
        sender = self.sender()
        if on:  # regex and hex exclude each other
            other = self.regex_check if sender is self.hex_check else self.hex_check
            with QSignalBlocker(other):
                other.setChecked(False)
        self.apply_filter()

    def _on_display_mode(self, _i: int) -> None:
        mode = self.display_combo.currentData()
        self.model.set_display_mode(mode)
        self.view.fit_columns()  # hex bytes are wider than text
        self.tree.set_label(_TREE_LABELS.get(mode, default_label))
        self.view.viewport().update()

    def _update_count(self, *_args: object) -> None:
        self.count_label.setText(self.model.count_text())

    def _on_selection(self, *_args: object) -> None:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return
        merge = self.model.merge_at(rows[0].row())
        if merge is None:  # a token no merge builds: its tree says so, it fires as no merge
            tid, raw = self.model.token_at(rows[0].row())
            self._show_token(tid)
            self.show_token_tree(tid)
            self.state.status.emit(f"token {tid} ({raw.hex(' ').upper()}): no merge builds it; emitted only whole")
            return
        self._show_merge(merge)

    def _show_token(self, tid: int) -> None:
        """The side views show token ``tid``, built by no merge: it fires as none, no plot marker."""
        self.shown.set_token(tid)
        self.fire_sites.clear()
        self.plot.set_marker(None)

    def _show_merge(self, merge: MergeRecord) -> None:
        """Show ``merge`` in the side views (tree, marker, firing sites) and the status bar."""
        self.shown.set_merge(merge.rank)
        with QSignalBlocker(self.jump_spin):
            self.jump_spin.setValue(merge.rank)
        raw = merge.merged
        self.show_token_tree(merge.new_id)
        self.plot.set_marker(merge.rank)
        self._show_fires(merge.rank)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = ""
        if text:
            self.state.inspect_requested.emit(text, 0, len(raw))
        self.state.status.emit(
            f"merge #{merge.rank}: {self.model.visible_text(merge.left)} + "
            f"{self.model.visible_text(merge.right)} → token {merge.new_id} ({raw.hex(' ').upper()})"
        )

    def _show_fires(self, rank: int) -> None:
        if self._fires is None:
            self.fire_sites.show_counting()
            return
        spans = self.fire_sites.show_sites(
            self._fires, rank, merges=self.model.merges, text=self._fires_text, source=self._fires_source
        )
        # the Compare columns mark these spans in the columns of state.bpe: none for another model
        self.state.merge_fires.emit(spans if self._bpe is self.state.bpe else [])


__all__ = ["MergesPane", "model_title"]
