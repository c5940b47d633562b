"""A line saying the text shown is a sample of the corpus, not all of it (a streamed corpus)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QWidget

from tokexplorer.gui import symbols
from tokexplorer.gui.state import AppState


class SampleNote(QLabel):
    """Shows ``state.sample_note`` (``"sample: first 200,000 characters of 1.0 GiB,
    280 files"``) while the compare text is that sample; hidden otherwise.

    Args:
        state: the shared application state (its :attr:`AppState.sample_note`).
        parent: Qt parent widget.
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setToolTip(
            "The corpus is streamed (too large to hold in memory): this tab shows its first characters. "
            "Statistics and training read every file."
        )
        self._show(state.sample_note)
        state.sample_note_changed.connect(self._show)

    def _show(self, note: str) -> None:
        self.setText(symbols.plain(f"ⓘ this text is a {note} (the corpus is streamed)") if note else "")
        self.setVisible(bool(note))
