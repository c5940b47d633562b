"""Dialog: train a SentencePiece model on the corpus with the options users need.

Options: model type, vocab size, character coverage (0.98–1.0 only), byte
fallback, split digits, normalization rule, removing extra whitespace,
user-defined symbols, max_sentence_length and whether longer lines may be
skipped. While the user edits, the request is checked against the corpus in a
worker (:func:`~tokexplorer.core.backends.sentencepiece.check_sentencepiece_training`):
the smallest vocab SentencePiece accepts (vocabulary smaller than the alphabet), an estimate of the largest,
lines over the limit, an empty corpus. Train runs in a worker; SentencePiece's
own "vocab too large" limit (vocabulary too large for the corpus) is offered as a one-click fix.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.gui import theme
from tokexplorer.gui.widgets.sp_options import coverage_spin
from tokexplorer.gui.workers import Worker, guarded, user_message

NORMALIZATION_RULES = ("nmt_nfkc", "nfkc", "nmt_nfkc_cf", "nfkc_cf", "identity")


def parse_symbols(text: str) -> list[str]:
    """User-defined symbols from a comma-separated field (blanks dropped, order kept).

    >>> parse_symbols("<sep>, <cls> ,,x")
    ['<sep>', '<cls>', 'x']
    """
    return list(dict.fromkeys(s.strip() for s in text.split(",") if s.strip()))


class SPTrainDialog(QDialog):
    """Train a SentencePiece model on ``texts``.

    Args:
        texts: the corpus (one str per file).
        parent: optional parent widget.

    Signals:
        trained(object): the new :class:`SentencePieceTokenizer`.
        checked(object): the latest :class:`SPTrainingCheck` (or an error str).

    Attributes:
        model_combo, vocab_spin, coverage_spin, byte_fallback_box, split_digits_box,
        normalization_combo, remove_ws_box, symbols_edit, max_len_spin,
        skip_long_box: the option widgets.
        problems_label: the check's findings (red when training would fail).
        fix_button: "Use N" after SentencePiece reported its limit.
        train_button: starts training.
        last_check: the latest check result, or None.
    """

    trained = Signal(object)
    checked = Signal(object)

    def __init__(self, texts: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Train SentencePiece on the corpus")
        self.texts = list(texts)
        self.last_check: Any = None
        self._check_gen = 0
        self._worker: Worker | None = None
        self._train_worker: Worker | None = None
        self._limit: int | None = None

        self.model_combo = QComboBox()
        for m in ("bpe", "unigram", "char", "word"):
            self.model_combo.addItem(m, m)
        self.vocab_spin = QSpinBox()
        self.vocab_spin.setRange(1, 1_000_000)
        self.vocab_spin.setValue(1000)
        self.vocab_spin.setGroupSeparatorShown(True)
        self.coverage_spin = coverage_spin()
        self.byte_fallback_box = QCheckBox(
            "byte fallback (unknown characters as <0xNN> pieces)"
        )
        self.split_digits_box = QCheckBox("split digits (one piece per digit)")
        self.normalization_combo = QComboBox()
        for r in NORMALIZATION_RULES:
            self.normalization_combo.addItem(r, r)
        self.remove_ws_box = QCheckBox("remove extra whitespaces")
        self.remove_ws_box.setChecked(True)
        self.symbols_edit = QLineEdit()
        self.symbols_edit.setPlaceholderText("e.g. <sep>, <cls> (always kept whole)")
        self.max_len_spin = QSpinBox()
        self.max_len_spin.setRange(1, 100_000_000)
        self.max_len_spin.setValue(4192)
        self.max_len_spin.setSuffix(" bytes")
        self.skip_long_box = QCheckBox("let SentencePiece skip longer lines")

        form = QFormLayout()
        form.addRow("Model type:", self.model_combo)
        form.addRow("Vocab size:", self.vocab_spin)
        form.addRow("Character coverage:", self.coverage_spin)
        form.addRow("Normalization:", self.normalization_combo)
        form.addRow(self.remove_ws_box)
        form.addRow(self.byte_fallback_box)
        form.addRow(self.split_digits_box)
        form.addRow("User-defined symbols:", self.symbols_edit)
        form.addRow("max_sentence_length:", self.max_len_spin)
        form.addRow(self.skip_long_box)

        self.problems_label = QLabel("checking…")
        self.problems_label.setWordWrap(True)
        self.fix_button = QPushButton("")
        self.fix_button.hide()
        self.fix_button.clicked.connect(self._apply_limit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.train_button = buttons.addButton(
            "Train", QDialogButtonBox.ButtonRole.AcceptRole
        )
        buttons.accepted.connect(self.start_training)
        buttons.rejected.connect(self.reject)

        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.problems_label)
        lay.addWidget(self.fix_button)
        lay.addWidget(buttons)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(300)
        self._debounce.timeout.connect(self.run_check)
        for sig in (
            self.model_combo.currentIndexChanged,
            self.vocab_spin.valueChanged,
            self.coverage_spin.valueChanged,
            self.byte_fallback_box.toggled,
            self.normalization_combo.currentIndexChanged,
            self.remove_ws_box.toggled,
            self.symbols_edit.textChanged,
            self.max_len_spin.valueChanged,
            self.skip_long_box.toggled,
        ):
            sig.connect(self._debounce.start)
        self.run_check()

    def options(self) -> dict[str, Any]:
        """The keyword arguments for ``train_sentencepiece`` (vocab_size included)."""
        return {
            "vocab_size": int(self.vocab_spin.value()),
            "model_type": self.model_combo.currentData(),
            "character_coverage": float(self.coverage_spin.value()),
            "byte_fallback": self.byte_fallback_box.isChecked(),
            "split_digits": self.split_digits_box.isChecked(),
            "normalization_rule_name": self.normalization_combo.currentData(),
            "remove_extra_whitespaces": self.remove_ws_box.isChecked(),
            "user_defined_symbols": parse_symbols(self.symbols_edit.text()),
            "max_sentence_length": int(self.max_len_spin.value()),
            "skip_long_lines": self.skip_long_box.isChecked(),
        }

    def run_check(self) -> Worker:
        """Check the current options against the corpus in a worker."""
        from tokexplorer.core.backends import (
            check_sentencepiece_training,
        )

        self._check_gen += 1
        gen = self._check_gen
        opts = self.options()
        opts.pop("split_digits")
        texts = self.texts

        def work(cancel):
            return gen, check_sentencepiece_training(texts, **opts)

        worker = Worker(work)
        worker.signals.returned.connect(self._on_check)
        worker.signals.errored.connect(
            guarded(self, lambda exc, g=gen: self._on_check((g, user_message(exc))))
        )
        self._worker = worker
        worker.start()
        return worker

    def _on_check(self, result: Any) -> None:
        gen, check = result
        if gen != self._check_gen:
            return
        self.last_check = check
        if isinstance(check, str):
            self._say([check], bad=True)
        else:
            est = (
                f"; at most about {check.max_vocab_estimate:,}"
                if check.max_vocab_estimate is not None
                else ""
            )
            info = (
                f"{check.n_lines:,} lines, {check.n_chars:,} distinct characters; "
                f"vocab needs at least {check.min_vocab_size:,}{est}"
            )
            self._say(
                list(check.problems) or [info], bad=bool(check.problems), info=info
            )
        self.checked.emit(check)

    def _say(self, lines: list[str], *, bad: bool, info: str = "") -> None:
        text = "\n".join(("⚠ " if bad else "") + m for m in lines)
        if bad and info:
            text += "\n" + info
        self.problems_label.setText(text)
        color = theme.ERROR_TEXT.name() if bad else "palette(text)"
        self.problems_label.setStyleSheet(f"QLabel {{ color: {color}; }}")

    def _apply_limit(self) -> None:
        if self._limit:
            self.vocab_spin.setValue(self._limit)
            self.fix_button.hide()

    def start_training(self) -> Worker:
        """Train with the current options in a worker; success emits :attr:`trained`
        and closes the dialog, a refusal is shown in the dialog."""
        from tokexplorer.core.backends import (
            VocabTooLargeError,
            train_sentencepiece,
        )

        opts = self.options()
        texts = self.texts

        def work(cancel):
            try:
                return train_sentencepiece(texts, cancel=cancel, **opts)
            except VocabTooLargeError as exc:
                return exc

        worker = Worker(work)
        worker.signals.returned.connect(self._on_trained)
        worker.signals.errored.connect(
            guarded(self, lambda exc: self._say([user_message(exc)], bad=True))
        )
        worker.signals.finished.connect(
            guarded(self, lambda: self.train_button.setEnabled(True))
        )
        self.train_button.setEnabled(False)
        self._say(["training…"], bad=False)
        self._train_worker = worker
        worker.start()
        return worker

    def reject(self) -> None:
        """Close the dialog; a check or training still running is cancelled
        (a large corpus trains in a child process, which is ended)."""
        for w in (self._worker, self._train_worker):
            if w is not None and not w.done:
                w.cancel()
        super().reject()

    def _on_trained(self, result: Any) -> None:
        if isinstance(result, Exception):
            self._limit = getattr(result, "max_vocab_size", None)
            self._say([str(result)], bad=True)
            if self._limit:
                self.fix_button.setText(f"Use vocab size {self._limit:,}")
                self.fix_button.show()
            return
        self.trained.emit(result)
        self.accept()
