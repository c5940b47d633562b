"""One word under a Unigram model: its lattice with the Viterbi path, its n best
segmentations with their scores, and segmentations sampled with alpha.

The n-best list and the samples are SentencePiece's own (``nbest_encode``,
``encode(enable_sampling=True, alpha=...)``); each row's probability is that
of the path in the lattice: ``exp(score) / Σ exp(score of every path)`` for the
n best (the model's own posterior), ``exp(α·score) / Σ exp(α·score)`` for a
sample (what the sampler draws it with). The work runs in a worker; the newest
request wins.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import MAX_NBEST, MAX_SEGMENTATIONS, Lattice, Segmentation, lattice, nbest, sample
from tokexplorer.core.backends import SentencePieceTokenizer
from tokexplorer.core.errors import InputError
from tokexplorer.gui.widgets.glyphs import piece_font, shown_piece
from tokexplorer.gui.widgets.lattice_view import LatticeView
from tokexplorer.gui.widgets.number_fields import decimal_field, whole_number_field
from tokexplorer.gui.widgets.table_fit import ColumnShare
from tokexplorer.gui.widgets.wrapping import FlowLayout, wrapped
from tokexplorer.gui.workers import LatestRequest, user_message

DEFAULT_WORD = "tokenization"
DEFAULT_ALPHA = 0.1
#: Between the pieces of a segmentation in the tables.
PIECE_SEPARATOR = " | "


@dataclass(frozen=True)
class WordAnalysis:
    """What the widget shows for one text: the lattice (or why not), n-best, samples."""

    lattice: Lattice | None
    lattice_error: str
    nbest: list[Segmentation]
    samples: list[Segmentation]
    alpha: float


def analyse_word(tok: SentencePieceTokenizer, text: str, *, n: int, alpha: float, count: int) -> WordAnalysis:
    """The lattice, the ``n`` best and ``count`` samples with ``alpha`` of ``text``.

    Raises:
        InputError: not a Unigram model, or a bad count or alpha.
    """
    try:
        lat, why = lattice(tok, text), ""
    except InputError as exc:
        lat, why = None, str(exc)
    return WordAnalysis(lat, why, nbest(tok, text, n), sample(tok, text, alpha=alpha, count=count), alpha)


def _fill(table: QTableWidget, segs: list[Segmentation], probs: list[str]) -> None:
    """Write ``segs`` with their probabilities ``probs`` into ``table`` (made by :func:`_table`)."""
    table.setRowCount(len(segs))
    for r, (s, prob) in enumerate(zip(segs, probs)):
        pieces = PIECE_SEPARATOR.join(shown_piece(p) for p in s.pieces)
        for c, text in enumerate((str(r + 1), pieces, f"{s.score:.3f}", prob)):
            item = QTableWidgetItem(text)
            if c == 1:
                item.setFont(piece_font())
            table.setItem(r, c, item)
    table.findChild(ColumnShare).refit()


def _table(last: str) -> QTableWidget:
    """An n-best or samples table: the pieces take the width left over (a :class:`ColumnShare`);
    the number columns' titles on two lines (``last``: "P" and what it is, in brackets), so they
    are whole beside a piece column in half of a window 1,000 pixels wide."""
    t = QTableWidget(0, 4)
    t.setHorizontalHeaderLabels(["#", "Pieces", "Score\n(Σ log p)", last])
    t.verticalHeader().setVisible(False)
    t.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    ColumnShare(t, stretch=1).refit()
    return t


class UnigramWord(QWidget):
    """The lattice, n-best list and samples of a typed word.

    Signals:
        sampled_column_requested(float): show a column sampling with this alpha in Compare.
        error(str): a one-line error.

    Attributes:
        text_edit, lattice_view, nbest_spin, nbest_table, alpha_spin, count_spin,
        resample_button, samples_table, compare_button, info: the parts.
        analysis: the :class:`WordAnalysis` shown last, or None.
    """

    sampled_column_requested = Signal(float)
    error = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tokenizer: SentencePieceTokenizer | None = None
        self.analysis: WordAnalysis | None = None
        self.job = LatestRequest(self)
        self.text_edit = QLineEdit(DEFAULT_WORD)
        self.info = QLabel()
        self.info.setWordWrap(True)
        self.lattice_view = LatticeView()
        scroll = QScrollArea()
        scroll.setWidget(self.lattice_view)
        scroll.setWidgetResizable(False)
        scroll.setMinimumHeight(240)
        # any number can be typed (nothing snaps back): one SentencePiece cannot use is refused
        # with a message under the lattice, the tables emptied
        self.nbest_spin = whole_number_field(5, tip=f"How many segmentations: 1 to {MAX_NBEST:,}")
        self.nbest_table = _table("P\n(posterior)")
        self.alpha_spin = decimal_field(
            DEFAULT_ALPHA, decimals=3, step=0.05,
            tip="SentencePiece's alpha (above 0): a path is drawn with probability ∝ exp(alpha × score)",
        )  # fmt: skip
        self.count_spin = whole_number_field(8, tip=f"How many draws: 1 to {MAX_SEGMENTATIONS:,}")
        self.resample_button = QPushButton("Draw again")
        self.compare_button = QPushButton("Sampled column in Compare")
        self.compare_button.setToolTip("Add a Compare column that encodes with a sampled segmentation at this alpha")
        self.samples_table = _table("P\n(at alpha)")
        self._layout(scroll)
        self.text_edit.textChanged.connect(self.refresh)
        self.nbest_spin.valueChanged.connect(self.refresh)
        self.alpha_spin.valueChanged.connect(self.refresh)
        self.count_spin.valueChanged.connect(self.refresh)
        self.resample_button.clicked.connect(self.refresh)
        self.compare_button.clicked.connect(lambda: self.sampled_column_requested.emit(self.alpha_spin.value()))

    def _layout(self, scroll: QScrollArea) -> None:
        top = QHBoxLayout()
        top.addWidget(QLabel("Word or phrase:"))
        top.addWidget(self.text_edit, 1)
        # short titles, the rest in wrapped lines and rows that wrap: the two boxes side by side
        # fit a window 1,000 pixels wide
        best = QGroupBox("n best segmentations")
        bl = QVBoxLayout(best)
        bl.addWidget(wrapped("SentencePiece's n-best, with its scores"))
        row = FlowLayout()
        for w in (QLabel("n:"), self.nbest_spin):
            row.addWidget(w)
        bl.addLayout(row)
        bl.addWidget(self.nbest_table)
        sampled = QGroupBox("Sampled segmentations")
        sl = QVBoxLayout(sampled)
        sl.addWidget(wrapped("Subword regularization: each segmentation drawn at random"))
        row = FlowLayout()
        for w in (QLabel("alpha:"), self.alpha_spin, QLabel("draws:"), self.count_spin, self.resample_button,
                  self.compare_button):  # fmt: skip
            row.addWidget(w)
        sl.addLayout(row)
        sl.addWidget(self.samples_table)
        lists = QHBoxLayout()  # half each: the sampled box's longer rows never narrow the n-best one
        lists.addWidget(best, 1)
        lists.addWidget(sampled, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(wrapped("Lattice: every piece that matches, with its log probability; the best path on top"))
        layout.addWidget(scroll)
        layout.addWidget(self.info)
        layout.addLayout(lists, 1)

    def set_tokenizer(self, tok: SentencePieceTokenizer | None) -> None:
        """Explain words under ``tok`` (None: nothing to show)."""
        self.tokenizer = tok
        self.compare_button.setEnabled(tok is not None)
        self.refresh()

    def refresh(self, *_args: object) -> None:
        """Recompute for the current text and settings (in a worker)."""
        tok, text = self.tokenizer, self.text_edit.text()
        if tok is None or not text.strip():
            self.job.cancel()
            self.analysis = None
            self.lattice_view.set_lattice(None, "No Unigram model." if tok is None else "Type a word.")
            self.nbest_table.setRowCount(0)
            self.samples_table.setRowCount(0)
            self.info.setText("")
            return
        n, alpha, count = self.nbest_spin.value(), self.alpha_spin.value(), self.count_spin.value()
        self.job.start(
            lambda cancel: analyse_word(tok, text, n=n, alpha=alpha, count=count),
            on_result=self._show,
            on_error=self._refused,
        )

    def _refused(self, exc: BaseException) -> None:
        """A count or alpha SentencePiece cannot use: its message under the lattice and in the
        status bar, the tables emptied (they no longer answer the fields)."""
        message = user_message(exc)
        self.analysis = None
        self.nbest_table.setRowCount(0)
        self.samples_table.setRowCount(0)
        self.info.setText(message)
        self.error.emit(message)

    def _show(self, a: WordAnalysis) -> None:
        self.analysis = a
        lat = a.lattice
        self.lattice_view.set_lattice(lat, a.lattice_error)
        if lat is None:
            post = [""] * len(a.nbest)
            drawn = [""] * len(a.samples)
            self.info.setText(a.lattice_error)
        else:
            post = [f"{lat.probability(s.score, 1.0):.3g}" for s in a.nbest]
            drawn = [f"{lat.probability(s.score, a.alpha):.3g}" for s in a.samples]
            self.info.setText(
                f"{len(lat.nodes)} nodes over {len(lat.normalized)} characters; best path "
                f"{' '.join(shown_piece(n.piece) for n in lat.best)} (score {lat.best_score:.3f})"
            )
        _fill(self.nbest_table, a.nbest, post)
        _fill(self.samples_table, a.samples, drawn)
