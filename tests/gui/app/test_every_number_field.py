"""No number field of the window puts back a value when it loses focus: every spin box takes
what the number fields take (widgets/number_fields), the code using it refuses what it cannot use."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractSpinBox

from tokexplorer.gui.widgets.number_fields import DECIMAL_MAX, WHOLE_MAX


def test_every_spin_box_of_the_window_takes_any_number(window):
    spins = window.findChildren(QAbstractSpinBox)
    # vocab sizes, max_sentence_length, coverage, jump, merges, speeds, n-best, alpha, draws, part
    assert len(spins) >= 10
    narrow = [(s.toolTip() or type(s.parent()).__name__, s.minimum(), s.maximum()) for s in spins
              if (s.minimum(), s.maximum()) not in ((0, WHOLE_MAX), (0.0, DECIMAL_MAX))]  # fmt: skip
    assert narrow == []
