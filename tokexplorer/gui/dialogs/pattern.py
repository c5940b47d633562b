"""Dialog: the split pattern of a rank file that does not say its own.

A rank file that is not a published one (see
:mod:`tokexplorer.core.backends.rank_files`) is never given a pattern silently:
opening one asks here. The user picks a known pattern (gpt2, cl100k, o200k,
llama3, qwen, whisper) or types a regular expression, which is checked as they
type (:func:`~tokexplorer.core.backends.rank_files.resolve_pattern`).
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.backends import RANK_PATTERNS, resolve_pattern
from tokexplorer.core.errors import InputError
from tokexplorer.gui import theme

#: What each named pattern is, for the choices.
PATTERN_HINTS: dict[str, str] = {
    "gpt2": "GPT-2, r50k_base, p50k_base",
    "cl100k": "cl100k_base (GPT-3.5, GPT-4)",
    "o200k": "o200k_base (GPT-4o), Llama 4",
    "llama3": "Llama 3",
    "qwen": "Qwen (one digit per chunk)",
    "whisper": "Whisper (GPT-2's original pattern)",
}

#: The last choice: a regular expression typed by the user.
CUSTOM = "custom regular expression"


class PatternDialog(QDialog):
    """Ask for the split pattern of the rank file ``file_name``.

    Args:
        file_name: the file's name, for the question.
        parent: optional parent widget.

    Attributes:
        choice: QComboBox of the named patterns, then :data:`CUSTOM`.
        regex_edit: QLineEdit for the custom regular expression.
        problem: QLabel saying why OK is disabled ("" when it is not).
    """

    def __init__(self, file_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Split pattern of a rank file")
        question = QLabel(
            f"{file_name} is a rank file that is not a published one, and rank files do not say "
            "how text is split before merging. Which split pattern should it use?"
        )
        question.setWordWrap(True)
        self.choice = QComboBox()
        for name in RANK_PATTERNS:
            self.choice.addItem(f"{name} — {PATTERN_HINTS.get(name, '')}", name)
        self.choice.addItem(CUSTOM, CUSTOM)
        self.regex_edit = QLineEdit()
        self.regex_edit.setPlaceholderText(r"e.g. \p{L}+|\p{N}|\s+|[^\s\p{L}\p{N}]+")
        self.problem = QLabel("")
        self.problem.setStyleSheet(f"QLabel {{ color: {theme.ERROR_TEXT.name()}; }}")
        self.problem.setWordWrap(True)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form = QFormLayout()
        form.addRow("Pattern", self.choice)
        form.addRow("Regular expression", self.regex_edit)
        layout = QVBoxLayout(self)
        layout.addWidget(question)
        layout.addLayout(form)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.choice.currentIndexChanged.connect(self._update)
        self.regex_edit.textChanged.connect(self._update)
        self._update()

    def pattern(self) -> str:
        """The chosen pattern: a name of ``RANK_PATTERNS`` or the regular expression typed."""
        name = self.choice.currentData()
        return self.regex_edit.text() if name == CUSTOM else name

    def _update(self) -> None:
        custom = self.choice.currentData() == CUSTOM
        self.regex_edit.setEnabled(custom)
        why = ""
        if custom:
            text = self.regex_edit.text()
            if not text:
                why = "type a regular expression"
            else:
                try:
                    resolve_pattern(text)
                except InputError as exc:
                    why = str(exc)
        self.problem.setText(why)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not why)
