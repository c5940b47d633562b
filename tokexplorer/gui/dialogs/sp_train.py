"""Dialog: train a SentencePiece model on the corpus with the options users need.

Options: model type, vocab size, character coverage (0.98–1.0 only), byte
fallback, split digits, normalization rule, removing extra whitespace,
user-defined symbols, max_sentence_length and whether longer lines may be
skipped. While the user edits, the request is checked against the corpus in a
worker (:func:`~tokexplorer.core.backends.check_sentencepiece_training`): the
smallest vocab SentencePiece accepts (every kept character needs a piece), an
estimate of the largest, lines over the limit, an empty corpus. Train runs the
training use case (:func:`tokexplorer.core.training.train_iter`) in a worker;
SentencePiece's own "vocab too large" limit (vocabulary too large for the
corpus) is offered as a one-click fix.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLayout,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.backends.sentencepiece import (
    SPTrainingCheck,
    VocabTooLargeError,
    check_sentencepiece_training,
    too_large_note,
)
from tokexplorer.core.training import TrainingOutcome, TrainingRequest, train_iter
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.number_fields import whole_number_field
from tokexplorer.gui.widgets.sp_options import (
    ALL_NORMALIZATION_RULES,
    USER_SYMBOLS_LABEL,
    USER_SYMBOLS_NOTE,
    USER_SYMBOLS_TIP,
    SentencePieceOptionsForm,
    option_note,
    parse_special_tokens,
)
from tokexplorer.gui.workers import LatestRequest, Worker, guarded, user_message

#: SentencePiece model types offered, in order.
MODEL_TYPES: tuple[str, ...] = ("bpe", "unigram", "char", "word")
#: Milliseconds of quiet after an edit before the options are checked again.
CHECK_DELAY_MS = 300


class SPTrainDialog(QDialog):
    """Train a SentencePiece model on ``texts``.

    Args:
        texts: the corpus (one str per file).
        parent: optional parent widget.
        sample_note: the streamed corpus's ``Corpus.sample_note`` when ``texts`` is its
            sample, else ``""``: the title and a refused vocab size say so.

    Signals:
        trained(object): the new :class:`SentencePieceTokenizer`.
        checked(object): the latest :class:`SPTrainingCheck`, or the one-line
            error (str) that stopped the check.

    Attributes:
        model_combo, vocab_spin, symbols_edit: model type, vocab size (pieces)
            and user-defined symbols; symbols_note: what those are, wrapped under the field.
        sp_form: the :class:`SentencePieceOptionsForm` of the other options.
        problems_label: the check's findings (red when training would fail).
        fix_button: "Use N" after SentencePiece reported its limit.
        train_button: starts training.
        last_check: the latest check result (as :attr:`checked` carries it), or None.
    """

    trained = Signal(object)
    checked = Signal(object)

    def __init__(self, texts: Sequence[str], parent: QWidget | None = None, *, sample_note: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle(
            f"Train SentencePiece on the corpus {sample_note} (the corpus is streamed)"
            if sample_note
            else "Train SentencePiece on the corpus"
        )
        self.texts = list(texts)
        self.sample_note = sample_note
        self.last_check: SPTrainingCheck | str | None = None
        self._check_job = LatestRequest(self)
        self._train_worker: Worker | None = None
        self._limit = 0  # SentencePiece's own largest vocab, from its last refusal
        self._limit_for: tuple = ()  # the options it was given for (_limit_key)
        self._refusal = ""  # why the last training was refused, shown until an option changes
        self._checking = True  # an edit's check is not in yet

        self.problems_label = QLabel("checking…")
        self.problems_label.setWordWrap(True)
        self.fix_button = QPushButton("")
        self.fix_button.hide()
        self.fix_button.clicked.connect(self._apply_limit)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.train_button = buttons.addButton("Train", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.start_training)
        buttons.rejected.connect(self.reject)

        lay = QVBoxLayout(self)
        # never smaller than what its rows need, wrapped texts whole: _fit_minimum, not Qt's
        # SetMinimumSize (that counts a wrapped text as one line and cut the split-digits note)
        lay.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)
        lay.addLayout(self._build_form())
        lay.addWidget(self.problems_label)
        lay.addWidget(self.fix_button)
        lay.addWidget(buttons)

        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(CHECK_DELAY_MS)
        self._debounce.timeout.connect(self.run_check)
        for sig in (
            self.model_combo.currentIndexChanged,
            self.vocab_spin.valueChanged,
            self.symbols_edit.textChanged,
            self.sp_form.changed,
        ):
            sig.connect(self._on_edited)
        self.run_check()

    def _fit_minimum(self) -> None:
        """Make the minimum size what the rows need with every wrapped text whole at the width
        the dialog has (or at its narrowest), so neither its default nor its minimum size cuts one."""
        lay = self.layout()
        need = lay.totalMinimumSize()
        width = max(self.width(), need.width())
        self.setMinimumSize(need.width(), max(need.height(), lay.totalHeightForWidth(width)))

    def event(self, event: QEvent) -> bool:
        """Refit the minimum size when a row changes (a longer finding, the fix button shown)."""
        handled = super().event(event)
        if event.type() == QEvent.Type.LayoutRequest:
            self._fit_minimum()
        return handled

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._fit_minimum()  # narrower: the wrapped texts take more lines

    def _on_edited(self, *_args: object) -> None:
        """An option changed: the last check and the last refusal (with its fix) no
        longer apply; say so at once, check soon."""
        self._refusal = ""
        self._checking = True
        self.fix_button.hide()
        self.problems_label.setText("checking…")
        self.problems_label.setStyleSheet("QLabel { color: palette(mid); }")
        self._debounce.start()

    def _build_form(self) -> QFormLayout:
        self.model_combo = QComboBox()
        for m in MODEL_TYPES:
            self.model_combo.addItem(m, m)
        self.vocab_spin = whole_number_field(1000)  # a size SentencePiece cannot use: refused with a message
        self.sp_form = SentencePieceOptionsForm(rules=ALL_NORMALIZATION_RULES, line_options=True, parent=self)
        self.symbols_edit = QLineEdit()
        self.symbols_edit.setPlaceholderText("none")  # what they are: wrapped under the field
        self.symbols_note = option_note(USER_SYMBOLS_NOTE)
        self.symbols_note.setIndent(0)
        self.symbols_edit.setToolTip(USER_SYMBOLS_TIP)

        form = QFormLayout()
        form.addRow("Model type:", self.model_combo)
        form.addRow("Vocab size:", self.vocab_spin)
        self.sp_form.add_rows(form)
        form.addRow(USER_SYMBOLS_LABEL, self.symbols_edit)
        form.addRow("", self.symbols_note)
        self.sp_form.add_line_rows(form)
        return form

    def request(self) -> TrainingRequest:
        """The training request the current options describe (on :attr:`texts`)."""
        model_type = self.model_combo.currentData()
        return TrainingRequest(
            algorithm=f"sp-{model_type}",
            vocab_size=int(self.vocab_spin.value()),
            texts=self.texts,
            special_tokens=parse_special_tokens(self.symbols_edit.text()),
            sentencepiece=self.sp_form.options(model_type=model_type),
            skip_long_lines=self.sp_form.skip_long_lines,
        )

    def run_check(self) -> Worker:
        """Check the current options against the corpus in a worker (the latest check wins)."""
        request = self.request()
        options = request.sentencepiece.as_kwargs()
        del options["split_digits"]  # no check depends on it

        def work(cancel):
            return check_sentencepiece_training(
                request.texts,
                vocab_size=request.vocab_size,
                user_defined_symbols=request.specials,
                skip_long_lines=request.skip_long_lines,
                **options,
            )

        return self._check_job.start(
            work,
            on_result=self._on_check,
            on_error=lambda exc: self._on_check(user_message(exc)),
        )

    def _on_check(self, check: SPTrainingCheck | str) -> None:
        self.last_check = check
        self._checking = False
        self._show_findings()
        self.checked.emit(check)

    def _show_findings(self) -> None:
        """The refusal of the last training when there is one (SentencePiece's own
        answer), else the check's problems, with the corpus facts under them."""
        check = self.last_check
        if isinstance(check, str):
            self._say([self._refusal or check], bad=True)
            return
        if check is None or self._checking:
            self._say([self._refusal], bad=True)
            return
        if self._known_limit():
            est = f"; at most {self._limit:,} (SentencePiece's answer for these options)"
        elif check.max_vocab_estimate is not None:
            est = f"; at most about {check.max_vocab_estimate:,}"
        else:
            est = ""
        info = (
            f"{check.n_lines:,} lines, {check.n_chars:,} distinct characters; "
            f"vocab needs at least {check.min_vocab_size:,}{est}"
        )
        problems = [self._refusal] if self._refusal else list(check.problems)
        self._say(problems or [info], bad=bool(problems), info=info)

    def _say(self, lines: list[str], *, bad: bool, info: str = "") -> None:
        text = "\n".join(("⚠ " if bad else "") + m for m in lines)
        if bad and info:
            text += "\n" + info
        self.problems_label.setText(text)
        color = theme.ERROR_TEXT.name() if bad else "palette(text)"
        self.problems_label.setStyleSheet(f"QLabel {{ color: {color}; }}")

    def _limit_key(self) -> tuple:
        """The options SentencePiece's limit depends on: all but the vocab size."""
        r = self.request()
        return (r.algorithm, r.special_tokens, r.sentencepiece, r.skip_long_lines)

    def _known_limit(self) -> bool:
        """True when SentencePiece's own limit (:attr:`_limit`) was given for the options set now."""
        return bool(self._limit) and self._limit_for == self._limit_key()

    def _apply_limit(self) -> None:
        if self._limit:
            self.vocab_spin.setValue(self._limit)
            self.fix_button.hide()

    def start_training(self) -> Worker:
        """Train with the current options in a worker; success emits :attr:`trained`
        and closes the dialog, a refusal is shown in the dialog."""
        request = self.request()
        worker = Worker(lambda cancel: train_iter(request, cancel=cancel))
        worker.signals.returned.connect(guarded(self, self._on_trained))
        worker.signals.errored.connect(guarded(self, self._on_train_error))
        worker.signals.finished.connect(guarded(self, lambda: self.train_button.setEnabled(True)))
        self.train_button.setEnabled(False)
        self._say(["training…"], bad=False)
        self._train_worker = worker
        worker.start()
        return worker

    def reject(self) -> None:
        """Close the dialog; a check or training still running is cancelled
        (a large corpus trains in a child process, which is ended)."""
        self._check_job.cancel()
        if self._train_worker is not None and not self._train_worker.done:
            self._train_worker.cancel()
        super().reject()

    def _on_train_error(self, exc: BaseException) -> None:
        """Show why training was refused; it stays beside a check that ends later
        (Train clicked before the check of the last edit was in) until an option changes."""
        if isinstance(exc, VocabTooLargeError):
            self._refusal = too_large_note(exc.requested, exc.max_vocab_size, sample=self.sample_note)
            self._limit, self._limit_for = exc.max_vocab_size, self._limit_key()
        else:
            self._refusal = user_message(exc)
        self._show_findings()
        if isinstance(exc, VocabTooLargeError):
            if self._limit:
                self.fix_button.setText(f"Use vocab size {self._limit:,}")
                self.fix_button.show()

    def _on_trained(self, outcome: TrainingOutcome) -> None:
        self.trained.emit(outcome.tokenizer)
        self.accept()
