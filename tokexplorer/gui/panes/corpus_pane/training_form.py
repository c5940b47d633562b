"""The training controls of the corpus pane: what to train (algorithm, vocab
size, pre-tokenizer, special tokens, WordPiece's lowercasing and accent
stripping, SentencePiece options) and how the run
goes (Train, Cancel, a progress bar and a one-line message).

The form only shows things and describes the request; the pane runs it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.text import PATTERN_NAMES
from tokexplorer.core.training import TrainingRequest
from tokexplorer.core.types import DEFAULT_PATTERN, Progress
from tokexplorer.core.wordpiece import BERT_PATTERN, BERT_SPECIAL_TOKENS, WORDPIECE_PATTERNS
from tokexplorer.gui.widgets.sp_options import SentencePieceOptionsForm

#: Training algorithms: (label, key). Keys: ``"bpe"`` (ours), ``"sp-bpe"``, ``"sp-unigram"``,
#: ``"wordpiece"`` (ours).
ALGORITHMS: tuple[tuple[str, str], ...] = (
    ("byte-level BPE (ours)", "bpe"),
    ("SentencePiece BPE", "sp-bpe"),
    ("SentencePiece unigram", "sp-unigram"),
    ("WordPiece (ours)", "wordpiece"),
)

DEFAULT_VOCAB_SIZE = 4096

#: The widest text the progress bar shows (it is made wide enough for it).
PROGRESS_WIDEST = "counting 1,000,000 / 1,000,000"
#: No special tokens unless asked for, as on the command line (``train`` without
#: ``--special``): a token nobody asked for changes the ids and the number of merges.
DEFAULT_SPECIAL_TOKENS = ""
#: The special tokens field's text for WordPiece (BERT's).
WORDPIECE_SPECIAL_TOKENS = " ".join(BERT_SPECIAL_TOKENS)


def parse_special_tokens(text: str) -> list[str]:
    """Split the special-tokens field on commas and whitespace, keeping order, no duplicates.

    >>> parse_special_tokens("<|endoftext|>, <|pad|>  <|endoftext|>")
    ['<|endoftext|>', '<|pad|>']
    """
    return list(dict.fromkeys(t for t in re.split(r"[,\s]+", text) if t))


def algorithm_label(key: str) -> str:
    """The label of an algorithm key (see :data:`ALGORITHMS`)."""
    return {k: label for label, k in ALGORITHMS}[key]


class TrainingForm(QGroupBox):
    """"Train a tokenizer on this corpus": the settings, Train/Cancel, progress.

    Args:
        parent: Qt parent widget.

    Attributes:
        algorithm_combo, vocab_spin, pattern_combo, specials_edit: the settings
            (the pre-tokenizer and special tokens apply to byte-level BPE and
            WordPiece; WordPiece's pre-tokenizers add ``bert``, its default).
        lowercase_check, accents_check: WordPiece's normalizer options.
        sp_form: the :class:`SentencePieceOptionsForm`; ``sp_box`` holds it.
        train_button, cancel_button, progress, train_message: the run.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Train a tokenizer on this corpus", parent)
        self.algorithm_combo = QComboBox()
        for label, key in ALGORITHMS:
            self.algorithm_combo.addItem(label, key)
        self.algorithm_combo.currentIndexChanged.connect(self._update_controls)
        self.vocab_spin = QSpinBox()
        self.vocab_spin.setRange(256, 1_000_000)
        self.vocab_spin.setValue(DEFAULT_VOCAB_SIZE)
        self.vocab_spin.setGroupSeparatorShown(True)
        self.vocab_spin.setToolTip("Number of token ids: 256 bytes + merges + special tokens (byte-level BPE)")
        self.pattern_combo = QComboBox()
        self._fill_patterns(PATTERN_NAMES, DEFAULT_PATTERN)
        self.pattern_combo.setToolTip(
            "Pre-tokenizer: the split pattern applied before merging (merges never cross a chunk)"
        )
        self.specials_edit = QLineEdit(DEFAULT_SPECIAL_TOKENS)
        self.specials_edit.setPlaceholderText("none (e.g. <|endoftext|>)")
        self.specials_edit.setToolTip(
            "Special tokens, separated by commas or spaces; they get the ids after the merges"
        )
        self.lowercase_check = QCheckBox("lower-case")
        self.accents_check = QCheckBox("strip accents")
        self.lowercase_check.setToolTip("WordPiece: lower-case the text before pre-tokenizing (BERT uncased)")
        self.accents_check.setToolTip("WordPiece: drop accents first (NFD, then no non-spacing marks)")
        # the line options too: a message about long lines names controls found right here
        self.sp_form = SentencePieceOptionsForm(line_options=True, parent=self)
        self.sp_box = QGroupBox("SentencePiece options")
        sp_rows = QFormLayout(self.sp_box)
        self.sp_form.add_rows(sp_rows)
        self.sp_form.add_line_rows(sp_rows)

        form = QFormLayout()
        form.addRow("Algorithm:", self.algorithm_combo)
        form.addRow("Vocab size:", self.vocab_spin)
        form.addRow("Pre-tokenizer:", self.pattern_combo)
        form.addRow("Special tokens:", self.specials_edit)
        normalizer = QHBoxLayout()
        normalizer.addWidget(self.lowercase_check)
        normalizer.addWidget(self.accents_check)
        normalizer.addStretch(1)
        form.addRow("WordPiece:", normalizer)

        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.sp_box)
        self._build_run(layout)
        layout.addStretch(1)
        self._update_controls()
        self.set_idle()

    def _build_run(self, layout: QVBoxLayout) -> None:
        self.train_button = QPushButton("Train")
        self.cancel_button = QPushButton("Cancel")
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        # wide enough for its longest text ("counting 1,000,000 / 1,000,000"), so none is cut
        longest = self.progress.fontMetrics().horizontalAdvance(PROGRESS_WIDEST)
        self.progress.setMinimumWidth(longest + 48)
        self.train_message = QLabel()
        self.train_message.setWordWrap(True)
        self.train_message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        buttons = QHBoxLayout()
        buttons.addWidget(self.train_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.train_message)

    # ================================================================= settings
    def algorithm(self) -> str:
        """The selected algorithm key: ``"bpe"``, ``"sp-bpe"``, ``"sp-unigram"`` or ``"wordpiece"``."""
        return self.algorithm_combo.currentData()

    def set_algorithm(self, key: str) -> None:
        """Select an algorithm by key (see :data:`ALGORITHMS`); ValueError for an unknown key."""
        i = self.algorithm_combo.findData(key)
        if i < 0:
            raise ValueError(f"unknown algorithm {key!r}")
        self.algorithm_combo.setCurrentIndex(i)

    def _fill_patterns(self, names: Sequence[str], default: str) -> None:
        """Offer these pre-tokenizers with ``default`` chosen (unchanged when they are offered already)."""
        if [self.pattern_combo.itemData(i) for i in range(self.pattern_combo.count())] == list(names):
            return
        self.pattern_combo.clear()
        for name in names:
            self.pattern_combo.addItem(name, name)
        self.pattern_combo.setCurrentIndex(list(names).index(default))

    def _update_controls(self, *args: Any) -> None:
        algorithm = self.algorithm()
        sp, wordpiece = algorithm.startswith("sp-"), algorithm == "wordpiece"
        self.sp_box.setEnabled(sp)
        self.pattern_combo.setEnabled(not sp)
        self.specials_edit.setEnabled(not sp)
        self.lowercase_check.setEnabled(wordpiece)
        self.accents_check.setEnabled(wordpiece)
        if wordpiece:
            self._fill_patterns(WORDPIECE_PATTERNS, BERT_PATTERN)
        else:
            self._fill_patterns(PATTERN_NAMES, DEFAULT_PATTERN)
        # the default special tokens follow the algorithm (the user's own stay)
        swap = {DEFAULT_SPECIAL_TOKENS: WORDPIECE_SPECIAL_TOKENS, WORDPIECE_SPECIAL_TOKENS: DEFAULT_SPECIAL_TOKENS}
        shown = self.specials_edit.text()
        if shown in swap and (shown == WORDPIECE_SPECIAL_TOKENS) != wordpiece:
            self.specials_edit.setText(swap[shown])
        self.vocab_spin.setMinimum(256 if algorithm == "bpe" else 8)

    def request(
        self,
        texts: Sequence[str],
        *,
        algorithm: str,
        vocab_size: int,
        fit_vocab: bool = False,
    ) -> TrainingRequest:
        """The request to train ``algorithm`` with ``vocab_size`` on ``texts``: the
        pre-tokenizer and special tokens for byte-level BPE and WordPiece (with
        its lowercasing and accent stripping), the SentencePiece options for the
        others (not validated here)."""
        if algorithm == "wordpiece":
            return TrainingRequest(
                algorithm="wordpiece",
                vocab_size=vocab_size,
                texts=texts,
                pattern=self.pattern_combo.currentData(),
                special_tokens=parse_special_tokens(self.specials_edit.text()),
                lowercase=self.lowercase_check.isChecked(),
                strip_accents=self.accents_check.isChecked(),
            )
        if algorithm == "bpe":
            return TrainingRequest(
                algorithm="bpe",
                vocab_size=vocab_size,
                texts=texts,
                pattern=self.pattern_combo.currentData(),
                special_tokens=parse_special_tokens(self.specials_edit.text()),
            )
        return TrainingRequest(
            algorithm=algorithm,
            vocab_size=vocab_size,
            texts=texts,
            sentencepiece=self.sp_form.options(model_type=algorithm.split("-", 1)[1]),
            fit_vocab=fit_vocab,
            skip_long_lines=self.sp_form.skip_long_lines,
        )

    # ================================================================= the run
    def set_idle(self) -> None:
        """Train enabled, Cancel disabled, the progress bar empty and "idle"."""
        self.train_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("idle")

    def set_busy(self) -> None:
        """Train disabled, Cancel enabled, the progress bar busy and "starting…"."""
        self.train_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 0)
        self.progress.setFormat("starting…")

    def set_cancelling(self) -> None:
        """Cancel was asked for: Cancel disabled, the progress bar says "cancelling…"."""
        self.cancel_button.setEnabled(False)
        self.progress.setFormat("cancelling…")

    def set_done(self, seconds: float) -> None:
        """The progress bar full and "done in 2.4 s" (``seconds``: how long the training took)."""
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        self.progress.setFormat(f"done in {seconds:.1f} s")

    def show_progress(self, p: Progress) -> None:
        """Show a training :class:`Progress`: done of total (merges while merging), else the phase."""
        if p.total:
            total = min(int(p.total), 2**31 - 1)
            if self.progress.maximum() != total:
                self.progress.setRange(0, total)
            self.progress.setValue(min(int(p.done), total))
            self.progress.setFormat(f"{p.phase} {p.done:,} / {p.total:,}")
        else:
            self.progress.setRange(0, 0)
            self.progress.setFormat(f"{p.phase}…")
