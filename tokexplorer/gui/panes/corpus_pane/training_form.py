"""The training controls of the corpus pane: what to train (algorithm, vocab
size, pre-tokenizer, special tokens, WordPiece's lowercasing and accent
stripping, SentencePiece options) and how the run
goes (Train, Cancel, a progress bar and a one-line message).

The form only shows things and describes the request; the pane runs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.backends import SentencePieceOptions
from tokexplorer.core.text import PATTERN_NAMES
from tokexplorer.core.training import TrainingRequest
from tokexplorer.core.types import DEFAULT_PATTERN, Progress, TrainReport
from tokexplorer.core.wordpiece import BERT_PATTERN, BERT_SPECIAL_TOKENS, WORDPIECE_PATTERNS
from tokexplorer.gui.widgets.number_fields import whole_number_field
from tokexplorer.gui.widgets.sp_options import (
    USER_SYMBOLS_LABEL,
    USER_SYMBOLS_PLACEHOLDER,
    USER_SYMBOLS_TIP,
    SentencePieceOptionsForm,
    parse_special_tokens,
)

if TYPE_CHECKING:
    from tokexplorer.core.backends import Tokenizer
    from tokexplorer.core.bpe import BPE
    from tokexplorer.core.wordpiece import WordPiece

@dataclass
class TrainingResult:
    """What :attr:`CorpusPane.training_finished` carries.

    Attributes:
        algorithm: ``"bpe"``, ``"sp-bpe"``, ``"sp-unigram"`` or ``"wordpiece"``.
        model: the ``BPE`` (ours), the ``WordPiece`` (ours) or the SentencePiece :class:`Tokenizer`.
        tokenizer: the :class:`Tokenizer` put into the compare columns.
        report: the ``TrainReport`` (our BPE and WordPiece) or None.
        message: the one-line summary shown to the user.
        vocab_size: the vocabulary size asked for (after any automatic fit).
        notes: SentencePiece only: the parts of ``message`` (a fitted size,
            what was trained, SentencePiece's warnings).
    """

    algorithm: str
    model: BPE | WordPiece | Tokenizer
    tokenizer: Tokenizer
    report: TrainReport | None = None
    message: str = ""
    vocab_size: int = 0
    notes: list[str] = field(default_factory=list)


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
PROGRESS_WIDEST = "pre-tokenizing 1,000,000 / 1,000,000 characters"
#: No special tokens unless asked for, as on the command line (``train`` without
#: ``--special``): a token nobody asked for changes the ids and the number of merges.
DEFAULT_SPECIAL_TOKENS = ""
#: The special tokens field's text for WordPiece (BERT's).
WORDPIECE_SPECIAL_TOKENS = " ".join(BERT_SPECIAL_TOKENS)

SPECIALS_LABEL = "Special tokens:"
SPECIALS_TIP = "Special tokens, separated by commas or spaces; they get the ids after the merges"
SPECIALS_PLACEHOLDER = "none (e.g. <|endoftext|>)"

#: The kinds of pre-tokenizer and special-token settings: ``"bpe"`` for byte-level BPE,
#: ``"wordpiece"`` for WordPiece, ``"sentencepiece"`` for the SentencePiece algorithms (no
#: pre-tokenizer; its special tokens are SentencePiece's user-defined symbols, as ``--special``).
SETTINGS_KINDS: tuple[str, ...] = ("bpe", "wordpiece", "sentencepiece")


def settings_kind(algorithm: str) -> str:
    """Whose pre-tokenizer and special tokens the form shows for ``algorithm``: ``"wordpiece"``,
    ``"sentencepiece"`` for ``"sp-..."``, else ``"bpe"`` (see :data:`SETTINGS_KINDS`)."""
    if algorithm.startswith("sp-"):
        return "sentencepiece"
    return "wordpiece" if algorithm == "wordpiece" else "bpe"


def default_settings(kind: str) -> tuple[str, str]:
    """``(pre-tokenizer, special tokens field text)`` of ``kind`` (see :data:`SETTINGS_KINDS`)
    before the user changes them: ``("gpt2", "")`` for ``"bpe"``, ``("bert", BERT's five)``
    for ``"wordpiece"``."""
    if kind == "wordpiece":
        return BERT_PATTERN, WORDPIECE_SPECIAL_TOKENS
    if kind == "sentencepiece":
        return "none", ""
    return DEFAULT_PATTERN, DEFAULT_SPECIAL_TOKENS


def pattern_names(kind: str) -> tuple[str, ...]:
    """The pre-tokenizers offered for ``kind`` (see :data:`SETTINGS_KINDS`; SentencePiece: none)."""
    if kind == "sentencepiece":
        return ("none",)
    return tuple(WORDPIECE_PATTERNS) if kind == "wordpiece" else tuple(PATTERN_NAMES)


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
            WordPiece; WordPiece's pre-tokenizers add ``bert``, its default). Each
            kind (:data:`SETTINGS_KINDS`) keeps its own pre-tokenizer and special
            tokens: switching the algorithm shows those of the new kind, as last
            set for it (its defaults at first), so no value of one leaks into the other.
        vocab_hint: under the vocab size, what the corpus needs at least (WordPiece; set by the pane).
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
        self._kind = "bpe"  # whose pre-tokenizer and special tokens are shown
        self._kept = {kind: default_settings(kind) for kind in SETTINGS_KINDS}  # the other kind's
        # any size can be typed: one the algorithm cannot use is refused on Train with a message
        self.vocab_spin = whole_number_field(
            DEFAULT_VOCAB_SIZE, tip="Number of token ids: 256 bytes + merges + special tokens (byte-level BPE)"
        )
        self.pattern_combo = QComboBox()
        for name in pattern_names("bpe"):
            self.pattern_combo.addItem(name, name)
        self.pattern_combo.setCurrentIndex(self.pattern_combo.findData(DEFAULT_PATTERN))
        self.pattern_combo.setToolTip(
            "Pre-tokenizer: the split pattern applied before merging (merges never cross a chunk)"
        )
        self.specials_edit = QLineEdit(DEFAULT_SPECIAL_TOKENS)
        self.specials_edit.setPlaceholderText(SPECIALS_PLACEHOLDER)
        self.specials_edit.setToolTip(SPECIALS_TIP)
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
        self.vocab_hint = QLabel()  # WordPiece: the least size the corpus's characters need (the pane says it)
        self.vocab_hint.setWordWrap(True)
        self.vocab_hint.setVisible(False)
        form.addRow("", self.vocab_hint)
        form.addRow("Pre-tokenizer:", self.pattern_combo)
        self.specials_label = QLabel(SPECIALS_LABEL)
        form.addRow(self.specials_label, self.specials_edit)
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
        # wide enough for its longest text (PROGRESS_WIDEST), so none is cut
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

    def kind_settings(self, kind: str) -> tuple[str, str]:
        """``(pre-tokenizer, special tokens field text)`` of ``kind`` (see :data:`SETTINGS_KINDS`):
        what the form shows when it is the current kind, else what it keeps for it."""
        if kind == self._kind:
            return self.pattern_combo.currentData(), self.specials_edit.text()
        return self._kept[kind]

    def set_kind_settings(self, kind: str, *, pattern: str | None = None, specials: str | None = None) -> None:
        """Set ``kind``'s pre-tokenizer and/or special tokens field text (shown now when
        ``kind`` is the current one, else when its algorithm is chosen).

        Raises:
            ValueError: ``kind`` is not one of :data:`SETTINGS_KINDS`, or ``pattern`` is
                not one of :func:`pattern_names` of it.
        """
        if kind not in SETTINGS_KINDS:
            raise ValueError(f"unknown settings kind {kind!r}")
        if pattern is not None and pattern not in pattern_names(kind):
            raise ValueError(f"{pattern!r} is not a pre-tokenizer of {kind}")
        old_pattern, old_specials = self.kind_settings(kind)
        new = (old_pattern if pattern is None else pattern, old_specials if specials is None else specials)
        if kind == self._kind:
            self.pattern_combo.setCurrentIndex(self.pattern_combo.findData(new[0]))
            self.specials_edit.setText(new[1])
        else:
            self._kept[kind] = new

    def _show_kind(self, kind: str) -> None:
        """Keep the shown kind's settings and show ``kind``'s (its pre-tokenizers offered)."""
        if kind == self._kind:
            return
        self._kept[self._kind] = self.kind_settings(self._kind)
        pattern, specials = self._kept[kind]
        self._kind = kind
        self.pattern_combo.clear()
        for name in pattern_names(kind):
            self.pattern_combo.addItem(name, name)
        self.pattern_combo.setCurrentIndex(self.pattern_combo.findData(pattern))
        self.specials_edit.setText(specials)

    def _update_controls(self, *args: Any) -> None:
        algorithm = self.algorithm()
        sp, wordpiece = algorithm.startswith("sp-"), algorithm == "wordpiece"
        self.sp_box.setEnabled(sp)
        self.pattern_combo.setEnabled(not sp)
        # SentencePiece's special tokens are its user-defined symbols (named as in its dialog)
        self.specials_label.setText(USER_SYMBOLS_LABEL if sp else SPECIALS_LABEL)
        self.specials_edit.setToolTip(USER_SYMBOLS_TIP if sp else SPECIALS_TIP)
        self.specials_edit.setPlaceholderText(USER_SYMBOLS_PLACEHOLDER if sp else SPECIALS_PLACEHOLDER)
        self.lowercase_check.setEnabled(wordpiece)
        self.accents_check.setEnabled(wordpiece)
        self._show_kind(settings_kind(algorithm))

    def request(
        self,
        texts: Sequence[str],
        *,
        algorithm: str,
        vocab_size: int,
        fit_vocab: bool = False,
        defaults: bool = False,
    ) -> TrainingRequest:
        """The request to train ``algorithm`` with ``vocab_size`` on ``texts``: the
        pre-tokenizer and special tokens of ``algorithm``'s kind (:func:`settings_kind`,
        whichever algorithm is shown) for byte-level BPE and WordPiece (with
        its lowercasing and accent stripping), the SentencePiece options for the
        others (not validated here).

        ``defaults``: use ``algorithm``'s own defaults instead of the form's settings
        (the startup models): pre-tokenizer and special tokens of :func:`default_settings`,
        no lowercasing or accent stripping, SentencePiece's default trainer options."""
        kind = settings_kind(algorithm)
        pattern, specials = default_settings(kind) if defaults else self.kind_settings(kind)
        if algorithm == "wordpiece":
            return TrainingRequest(
                algorithm="wordpiece",
                vocab_size=vocab_size,
                texts=texts,
                pattern=pattern,
                special_tokens=parse_special_tokens(specials),
                lowercase=not defaults and self.lowercase_check.isChecked(),
                strip_accents=not defaults and self.accents_check.isChecked(),
            )
        if algorithm == "bpe":
            return TrainingRequest(
                algorithm="bpe",
                vocab_size=vocab_size,
                texts=texts,
                pattern=pattern,
                special_tokens=parse_special_tokens(specials),
            )
        model_type = algorithm.split("-", 1)[1]
        return TrainingRequest(
            algorithm=algorithm,
            vocab_size=vocab_size,
            texts=texts,
            special_tokens=parse_special_tokens(specials),  # user_defined_symbols, as train --special
            sentencepiece=(
                SentencePieceOptions(model_type=model_type) if defaults else self.sp_form.options(model_type=model_type)
            ),
            fit_vocab=fit_vocab,
            skip_long_lines=not defaults and self.sp_form.skip_long_lines,
        )

    # ================================================================= the run
    def set_idle(self) -> None:
        """Train enabled, Cancel disabled, the progress bar empty and "idle"."""
        self.train_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("idle")

    def set_refused(self) -> None:
        """Train was refused (or not started): the progress bar empty and "not trained"."""
        self.set_idle()
        self.progress.setFormat("not trained")

    def set_asking(self) -> None:
        """A question about the training is up: the progress bar empty and "waiting for your answer"."""
        self.set_idle()
        self.progress.setFormat("waiting for your answer")

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
            self.progress.setFormat(f"{p.phase} {p.done:,} / {p.total:,}" + (f" {p.unit}" if p.unit else ""))
        else:
            self.progress.setRange(0, 0)
            self.progress.setFormat(f"{p.phase}…")
