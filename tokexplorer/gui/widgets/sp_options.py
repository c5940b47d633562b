"""Widgets for SentencePiece training options, shared by the corpus pane and
the SentencePiece training dialog."""

from __future__ import annotations

from PySide6.QtWidgets import QDoubleSpinBox


def coverage_spin() -> QDoubleSpinBox:
    """A ``character_coverage`` field limited to what SentencePiece accepts (0.98–1.0, vocabulary smaller than the alphabet)."""
    spin = QDoubleSpinBox()
    spin.setDecimals(4)
    spin.setRange(0.98, 1.0)
    spin.setSingleStep(0.0005)
    spin.setValue(1.0)
    spin.setToolTip("character_coverage: share of characters the model must cover (0.98–1.0)")
    return spin
