"""Train step by step: replay BPE training on a small typed text.

Type a small text (the classic "the cat in the hat") and replay training on it
(:func:`tokexplorer.core.bpe.replay_training`, in a worker): at each step the
pair counts, the pair chosen, and the text re-segmented.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.bpe import TrainStep, replay_training
from tokexplorer.core.text import PATTERN_NAMES
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.number_fields import whole_number_field
from tokexplorer.gui.widgets.pieces_view import (
    PiecesView,
    clear_step,
    piece_cell,
    pieces_table,
    scrolled,
    show,
    step_label,
    titled,
)
from tokexplorer.gui.widgets.step_controls import StepControls
from tokexplorer.gui.widgets.wrapping import wrapped
from tokexplorer.gui.workers import LatestRequest, Worker, user_message

#: The text the replay starts with.
DEFAULT_TRAIN_TEXT = "the cat in the hat"
#: Rows shown in the pair-count table.
MAX_PAIR_ROWS = 500
#: Widest a piece column of the pair-count table gets, in pixels (a longer piece is cut
#: with "…", whole in its tooltip), so the Count column is always in view.
PIECE_COLUMN_MAX = 200
#: What the pair-count table says while it has no rows (before the first replay).
NO_PAIRS_YET = (
    "Press Replay training: each pair of adjacent pieces in the text appears here with how "
    "often it occurs, most frequent first; the pair merged at the step shown is in bold."
)


class TrainReplay(QWidget):
    """The training replay: text, pre-tokenizer and merge count, step controls, pair counts, pieces.

    Args:
        parent: Qt parent widget.

    Signals:
        replayed(): a replay finished and is shown.
        status(str): a line for the status bar (why a replay failed).

    Attributes:
        text_edit, pattern_combo, merges_spin, button: the inputs and "Replay training".
        controls: the :class:`StepControls`.
        label: what happens at the step shown.
        table: the pair counts before the step's merge (every column in view: the
            splitter gives it the width its columns need, up to half); with no rows its
            columns share its width and ``empty_label`` says what will appear.
        empty_label: the QLabel over the empty table (:data:`NO_PAIRS_YET`).
        split: the QSplitter of the pair counts and the pieces.
        pieces: the :class:`PiecesView` of the text re-segmented after it.
        steps: the current replay (list of :class:`TrainStep`).
        job: the replay's worker job (latest request wins).
    """

    replayed = Signal()
    status = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps: list[TrainStep] = []
        self.job = LatestRequest(self)
        self.text_edit = QPlainTextEdit(DEFAULT_TRAIN_TEXT)
        self.text_edit.setMaximumHeight(70)
        self.controls = StepControls(unit="merge")  # one step, one merge: "merge 3 of 10"
        self.label = step_label("Type a small text and press Replay training.")
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Training text:"))
        layout.addWidget(self.text_edit)
        layout.addLayout(self._build_options())
        layout.addWidget(self.controls)
        layout.addWidget(self.label)
        layout.addWidget(self._build_split(), 1)
        self.button.clicked.connect(self.replay)
        self.controls.step_changed.connect(self._show_step)

    def _build_options(self) -> QHBoxLayout:
        self.pattern_combo = QComboBox()
        for name in PATTERN_NAMES:
            self.pattern_combo.addItem(name, name)
        # any number can be typed (nothing snaps back): the replay stops when no pair is left
        self.merges_spin = whole_number_field(10, tip="How many merges to learn (it stops early when no pair is left)")
        self.button = QPushButton("Replay training")
        row = QHBoxLayout()
        row.addWidget(QLabel("Pre-tokenizer:"))
        row.addWidget(self.pattern_combo)
        row.addWidget(QLabel("Merges:"))
        row.addWidget(self.merges_spin)
        row.addWidget(self.button)
        row.addStretch(1)
        return row

    def _build_split(self) -> QSplitter:
        self.pieces = PiecesView()
        self.table = pieces_table(["Left", "Right", "Count"])
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.empty_label = wrapped(NO_PAIRS_YET)
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty_label.setStyleSheet("QLabel { color: palette(placeholder-text); }")
        over = QVBoxLayout(self.table.viewport())
        over.setContentsMargins(8, 8, 8, 8)
        over.addWidget(self.empty_label)
        self._set_empty(True)
        counts = titled("Pair counts before this merge:", self.table)
        segmented = titled("The text re-segmented after this merge (new token in green):", scrolled(self.pieces))
        split = self.split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(counts)
        split.addWidget(segmented)
        split.setStretchFactor(1, 2)
        return split

    def _set_empty(self, empty: bool) -> None:
        """With no rows, the columns share the table's width under the message; with rows,
        the piece columns are sized by :meth:`_fit_counts` and Count fits its numbers."""
        mode = QHeaderView.ResizeMode
        header = self.table.horizontalHeader()
        for col, filled in ((0, mode.Interactive), (1, mode.Interactive), (2, mode.ResizeToContents)):
            header.setSectionResizeMode(col, mode.Stretch if empty else filled)
        self.empty_label.setVisible(empty)

    def _fit_counts(self) -> None:
        """Columns as wide as their cells (a piece column at most :data:`PIECE_COLUMN_MAX`),
        and the splitter widened to show all of them, the count included (at most half)."""
        t = self.table
        t.resizeColumnsToContents()
        for col in (0, 1):
            t.setColumnWidth(col, min(t.columnWidth(col), PIECE_COLUMN_MAX))
        bar = t.verticalScrollBar().sizeHint().width()
        need = sum(t.columnWidth(c) for c in range(t.columnCount())) + bar + 2 * t.frameWidth() + 4
        need += t.parentWidget().width() - t.width() if t.parentWidget() is not None else 0
        sizes = self.split.sizes()
        total = sum(sizes)
        want = min(need, total // 2)
        if total and sizes[0] < want:
            self.split.setSizes([want, total - want])

    def replay(self) -> Worker:
        """Replay training on the typed text in a worker; shows step 1 when done.

        A newer replay drops this one's result; so does a change of the text
        before the result arrives.
        """
        text = self.text_edit.toPlainText()
        n = self.merges_spin.value()
        pattern = self.pattern_combo.currentData()
        self.label.setText("Replaying…")
        return self.job.start(
            lambda cancel: (text, n, replay_training(text, n_merges=n, pattern=pattern, cancel=cancel)),
            on_result=self._on_steps,
            on_error=self._on_error,
        )

    def _on_error(self, exc: BaseException) -> None:
        message = user_message(exc)
        self.label.setText(message)
        self.status.emit(f"training replay: {message}")

    def _on_steps(self, result: tuple[str, int, list[TrainStep]]) -> None:
        text, asked, steps = result
        if text != self.text_edit.toPlainText():
            return  # the text changed meanwhile
        self.steps = steps
        if not asked:
            self.label.setText("Merges is 0: nothing to replay; type how many merges to learn (1 or more).")
        elif not steps:
            self.label.setText("Nothing to merge: the text has no pair of adjacent bytes.")
        self.controls.set_count(len(steps))
        self.replayed.emit()

    def _show_step(self, i: int) -> None:
        if not self.steps:
            clear_step(self.pieces, self.table)
            self._set_empty(True)
            return
        self._set_empty(False)
        st = self.steps[i]
        a, b, c = st.chosen
        n_before = sum(len(w) for w in st.before)
        n_after = sum(len(w) for w in st.after)
        # the step counts from 1 as the controls do; the rank from 0 as the merge table's
        self.label.setText(
            f"Merge {i + 1} of {len(self.steps)} (rank {st.rank}): "
            f"the most frequent pair «{show(a)}» + «{show(b)}» ({c}×) "
            f"becomes the token «{show(a + b)}». Tokens in the text: {n_before} → {n_after}."
        )
        rows = st.pair_counts[:MAX_PAIR_ROWS]
        self.table.setRowCount(len(rows))
        for r, (left, right, count) in enumerate(rows):
            chosen = (left, right) == (a, b)
            fill = theme.REPLAY_CHOSEN_FILL if chosen else None
            for col, piece in ((0, left), (1, right)):
                cell = piece_cell(show(piece), bold=chosen, fill=fill)
                cell.setToolTip(show(piece))
                self.table.setItem(r, col, cell)
            self.table.setItem(r, 2, piece_cell(f"{count:,}", right=True, bold=chosen, fill=fill))
        self._fit_counts()
        merged = a + b
        marks = {(gi, pi): "new" for gi, w in enumerate(st.after) for pi, p in enumerate(w) if p == merged}
        self.pieces.set_pieces([list(w) for w in st.after], marks)
