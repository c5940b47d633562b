"""The merge table's slow work off the GUI thread: the filter of a large table, the search index.

:class:`MergeFiltering`, owned by the merge pane, applies what the filter controls
say to the :class:`~tokexplorer.gui.models.merge_model.MergeTableModel`:

* a filter of a small table (up to :data:`SYNC_FILTER_RECORDS` records, its search
  index built) or no filter at all is applied at once;
* a larger table's filter has its mask (:func:`~tokexplorer.gui.models.merge_filter.filter_mask`)
  computed in a worker: the table keeps the rows of the filter before, the count
  label says "filtering…", and a newer filter cancels the older one (its result
  never lands). A regex over 200,000 merges held the GUI thread 120 ms when it ran there.

It also runs the index worker started when a model is shown: the filter's search
index, the token columns' sort keys (:func:`~tokexplorer.gui.models.merge_order.token_sort_keys`,
so that sorting by Left, Right or Merged token is one ``numpy.argsort``) and the
merge trees' index.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from tokexplorer.core.analysis import MergeIndex
from tokexplorer.gui import theme
from tokexplorer.gui.models.merge_filter import MergeFilter, SearchIndex, build_search_index, filter_mask
from tokexplorer.gui.models.merge_model import MergeTableModel
from tokexplorer.gui.models.merge_order import token_sort_keys
from tokexplorer.gui.widgets.merge_filter_controls import MergeFilterControls
from tokexplorer.gui.workers import CancelFlag, LatestRequest, Worker, user_message

#: Tables up to this many records (merges and tokens no merge builds) are filtered on the GUI
#: thread, at once: a regex over 40,000 token texts takes about 20 ms; a larger table's filter
#: runs in a worker.
SYNC_FILTER_RECORDS = 40_000
#: A table whose search index is not in yet (its worker just started) is filtered at once up to
#: this many records, its index built there (about 3 µs a record); a larger one in a worker.
SYNC_INDEX_RECORDS = 8_000

#: What a filter worker returns: the model generation it filtered, the filter, its mask, and
#: the search index when the worker had to build it (None when the model had one).
FilterResult = tuple[int, MergeFilter, bytearray, SearchIndex | None]


class MergeFiltering(QObject):
    """Applies the filter controls to the merge table model, in a worker for a large table.

    Args:
        model: the merge table model.
        controls: the filter controls it reads and whose count label it writes.
        parent: Qt parent (the pane: its lifetime bounds the workers' callbacks).

    Attributes:
        job: the :class:`LatestRequest` of the filter workers.
        index_worker: the worker building the search index, sort keys and merge trees' index
            of the model shown (None before the first model).
        sync_records, sync_index_records: tables up to this many records are filtered at once
            (:data:`SYNC_FILTER_RECORDS`, :data:`SYNC_INDEX_RECORDS` before the search index is in;
            0: every active filter in a worker).

    Signals:
        applied(): the model shows the rows of the filter just read from the controls.
        merge_index(object): the index worker built the shown model's :class:`MergeIndex`.
    """

    applied = Signal()
    merge_index = Signal(object)

    def __init__(self, model: MergeTableModel, controls: MergeFilterControls, parent: QObject) -> None:
        super().__init__(parent)
        self._model = model
        self._controls = controls
        self.job = LatestRequest(parent)
        self.index_worker: Worker | None = None
        self._waiting = False  # a filter's mask is being computed
        self.sync_records, self.sync_index_records = SYNC_FILTER_RECORDS, SYNC_INDEX_RECORDS

    @property
    def pending(self) -> bool:
        """True while a filter is computed in a worker (the table shows the rows of the one before)."""
        return self._waiting

    def apply(self) -> bool:
        """Apply what the controls say: True when the model shows it now; False when it was
        refused (the reason in the count label, the filter shown kept) or its worker started
        (:attr:`applied` is emitted when the rows are in)."""
        condition = self._controls.read_filter()
        model = self._model
        if condition is None:
            self._drop()
            return False
        if not condition.active and not model.filter_active:
            self._drop()
            self._controls.show_count(model, condition)
            return True
        small = len(model.tokens) <= (self.sync_records if model.has_search_index else self.sync_index_records)
        if not condition.active or small:
            self._drop()
            mask = filter_mask(model.tokens, condition, index=model.search_index) if condition.active else None
            model.show_filter(condition, mask)
            self._shown(condition)
            return True
        self._start(condition)
        return False

    def _start(self, condition: MergeFilter) -> None:
        model = self._model
        tokens, generation = model.tokens, model.generation
        built = model.search_index() if model.has_search_index else None
        merges, vocab, whole, glyphs = model.merges, model.vocab, model.unbuilt, theme.control_pictures()
        made: list[SearchIndex] = []  # the search index the worker had to build

        def index() -> SearchIndex:
            if built is not None:
                return built
            if not made:
                made.append(build_search_index(merges, vocab, control_pictures=glyphs, unbuilt=whole))
            return made[0]

        def work(cancel: CancelFlag) -> FilterResult:
            mask = filter_mask(tokens, condition, index=index, cancel=cancel)
            return generation, condition, mask, made[0] if made else None

        self._controls.show_filtering(model)
        self._waiting = True
        self.job.start(work, on_result=self._on_mask, on_error=self._on_error)

    def _drop(self) -> None:
        """Cancel the filter being computed, if any: its mask never lands."""
        self.job.cancel()
        self._waiting = False

    def _on_mask(self, result: FilterResult) -> None:
        generation, condition, mask, index = result
        self._waiting = False
        model = self._model
        if generation != model.generation:  # other merges since: filter them instead
            self.apply()
            return
        if index is not None:
            model.set_search_index(index, generation)
        model.show_filter(condition, mask)
        self._shown(condition)

    def _on_error(self, exc: BaseException) -> None:
        self._waiting = False
        self._controls.count_label.setText(f"filter failed: {user_message(exc)}")

    def _shown(self, condition: MergeFilter) -> None:
        self._controls.show_count(self._model, condition)
        self.applied.emit()

    # -- the index worker ---------------------------------------------------------

    def start_index(self) -> None:
        """Build the shown model's search index, token sort keys and merge trees' index in a worker
        (nothing when its search index is in already)."""
        model = self._model
        if model.has_search_index:
            return
        merges, vocab, generation = model.merges, model.vocab, model.generation
        glyphs, whole = theme.control_pictures(), model.unbuilt  # read here, in the GUI thread
        tokens = model.tokens

        def work(cancel: CancelFlag) -> tuple[int, SearchIndex, dict, MergeIndex]:
            search = build_search_index(merges, vocab, control_pictures=glyphs, unbuilt=whole)
            return generation, search, token_sort_keys(merges, tokens, vocab), MergeIndex(merges, vocab)

        worker = Worker(work)
        worker.signals.returned.connect(self._on_index)
        self.index_worker = worker
        worker.start()

    def _on_index(self, result: tuple[int, SearchIndex, dict, MergeIndex]) -> None:
        generation, index, keys, merge_index = result
        model = self._model
        model.set_search_index(index, generation)
        model.set_sort_keys(keys, generation)
        if generation == model.generation:
            self.merge_index.emit(merge_index)
