"""The Compare pane's line-ending control: keep CRLF/CR as they are, or normalize to LF.

Shown only while the sample text has CRLF or a lone CR (or was just normalized
from such a text). It says how many there are and gives, for every compare
tokenizer, the token count with the line endings as they are and with LF
(``core.analysis.line_ending_counts``, counted in a worker, latest request
wins). "Normalize to LF" replaces the text; "Keep as is" brings the original
back as long as the normalized text was not edited.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QWidget

from tokexplorer.core.analysis import LineEndingCount, line_ending_counts
from tokexplorer.core.text import line_ending_summary, normalize_line_endings
from tokexplorer.gui.state import AppState
from tokexplorer.gui.workers import LatestRequest, user_message

KEEP, TO_LF = 0, 1
"""Indexes of the choices in :attr:`LineEndingBar.combo`."""


def counts_line(counts: list[LineEndingCount]) -> str:
    """``"tiktoken cl100k_base: 5 tokens as is, 4 with LF · ..."`` (a failed count says why)."""
    parts = []
    for c in counts:
        if c.as_is is None or c.lf is None:
            parts.append(f"{c.name}: not counted ({c.error})")
        else:
            parts.append(f"{c.name}: {c.as_is:,} tokens as is, {c.lf:,} with LF")
    return " · ".join(parts)


class LineEndingBar(QWidget):
    """Keep as is / normalize to LF, with the token counts of both.

    Args:
        state: the shared :class:`AppState` (sample text, tokenizers, policy).
        parent: optional parent widget.

    Signals:
        text_replaced(object): the user chose the other line endings; the text to show
            (a ``str``, passed as it is: no copy through Qt).
        counted(): :attr:`counts_label` shows the counts of the current text.

    Attributes:
        combo: QComboBox "Keep as is" / "Normalize to LF".
        summary_label: QLabel, e.g. ``"Line endings: 3 CRLF"``.
        counts_label: QLabel with the counts of every tokenizer (see :func:`counts_line`).
    """

    text_replaced = Signal(object)
    counted = Signal()

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self._original: str | None = None  # the text with CR, while it is shown normalized
        self._job = LatestRequest(self)
        self.combo = QComboBox(self)
        self.combo.addItems(["Keep as is", "Normalize to LF"])
        self.combo.setToolTip(
            "The text has CRLF or CR line endings; the tokenizers see them as they are "
            "unless you normalize them to LF here (the editor shows CR as ␍)"
        )
        self.combo.activated.connect(self._on_choice)
        self.summary_label = QLabel(self)
        self.counts_label = QLabel(self)
        self.counts_label.setWordWrap(True)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.summary_label)
        lay.addWidget(self.combo)
        lay.addWidget(self.counts_label, 1)
        state.sample_text_changed.connect(self._update)
        state.tokenizers_changed.connect(lambda: self._update(state.sample_text))
        state.special_policy_changed.connect(lambda _p: self._update(state.sample_text))
        self._update(state.sample_text)

    @property
    def busy(self) -> bool:
        """True while the counts are being computed."""
        return self._job.busy

    def _with_cr(self, text: str) -> str | None:
        """The text whose line endings are in question, or None when there is none."""
        if "\r" in text:
            self._original = None
            return text
        if self._original is not None and normalize_line_endings(self._original) == text:
            return self._original
        self._original = None
        return None

    def _update(self, text: str) -> None:
        original = self._with_cr(text)
        self.setVisible(original is not None)
        if original is None:
            self._job.cancel()
            return
        self.combo.setCurrentIndex(TO_LF if self._original is not None else KEEP)
        state = "normalized to LF" if self._original is not None else "kept as is"
        self.summary_label.setText(f"Line endings: {line_ending_summary(original)} ({state})")
        self.counts_label.setText("counting…")
        tokenizers, policy = list(self.state.tokenizers), self.state.special_policy
        self._job.start(
            lambda cancel: line_ending_counts(tokenizers, original, special=policy, cancel=cancel),
            on_result=self._show_counts,
            on_error=lambda exc: self.counts_label.setText(f"not counted: {user_message(exc)}"),
            on_finished=self.counted.emit,
        )

    def _show_counts(self, counts: list[LineEndingCount]) -> None:
        self.counts_label.setText(counts_line(counts) or "no tokenizer to count with")

    def _on_choice(self, index: int) -> None:
        text = self.state.sample_text
        if index == TO_LF and "\r" in text:
            self._original = text
            self.text_replaced.emit(normalize_line_endings(text))
        elif index == KEEP and self._original is not None:
            original, self._original = self._original, None
            if normalize_line_endings(original) == text:
                self.text_replaced.emit(original)
