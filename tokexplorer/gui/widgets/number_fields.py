"""Number fields that keep what the user typed.

A :class:`~PySide6.QtWidgets.QSpinBox` whose range is narrower than what a user may type puts
its previous value back when it loses focus (pressing Train does that), so a typed ``100``
in a box starting at 256 trains at the old size without a word. The fields made here take
any whole number from 0 up to :data:`WHOLE_MAX` (any decimal from 0 up to :data:`DECIMAL_MAX`);
the code using the value refuses one the setting cannot use with a one-line message (the
command line's, ``vocab_size 100 is too small; use at least 256``, where it has one), and the
field still shows it. Every number field of the window is made here.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QAbstractSpinBox, QDoubleSpinBox, QSpinBox

#: The largest value a whole-number field takes (Qt's int; any larger number cannot be typed).
WHOLE_MAX = 2**31 - 1
#: The largest value a decimal field takes.
DECIMAL_MAX = 1e9
#: A field is as wide as this number needs (or its value, if longer), not as its largest one.
TYPICAL_NUMBER = 9_999_999


def _hint(spin: QAbstractSpinBox, hint: QSize, widest: str, typical: str) -> QSize:
    """``hint`` narrowed by the width ``widest`` (the largest value's text) takes over ``typical``."""
    fm = spin.fontMetrics()
    extra = fm.horizontalAdvance(widest) - fm.horizontalAdvance(max(typical, spin.text(), key=len))
    return QSize(hint.width() - max(0, extra), hint.height())


class WholeNumberBox(QSpinBox):
    """A :class:`QSpinBox` as wide as :data:`TYPICAL_NUMBER` (or its text) needs, though it takes
    numbers up to :data:`WHOLE_MAX` (Qt sizes a spin box for its largest value)."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return _hint(self, super().sizeHint(), self.textFromValue(self.maximum()) + self.suffix(),
                     self.textFromValue(TYPICAL_NUMBER) + self.suffix())  # fmt: skip

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return _hint(self, super().minimumSizeHint(), self.textFromValue(self.maximum()) + self.suffix(),
                     self.textFromValue(TYPICAL_NUMBER) + self.suffix())  # fmt: skip


class DecimalBox(QDoubleSpinBox):
    """A :class:`QDoubleSpinBox` as wide as ``1,000`` with its decimals needs (or its text),
    though it takes numbers up to :data:`DECIMAL_MAX`."""

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return _hint(self, super().sizeHint(), self.textFromValue(self.maximum()), self.textFromValue(1000.0))

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return _hint(self, super().minimumSizeHint(), self.textFromValue(self.maximum()), self.textFromValue(1000.0))


def whole_number_field(value: int, *, tip: str = "", suffix: str = "") -> QSpinBox:
    """A spin box holding ``value`` that accepts every whole number from 0 to :data:`WHOLE_MAX`,
    shown with thousands separators (``8,000``) and ``suffix`` (``" bytes"``), ``tip`` as its
    tooltip. Whoever reads it checks the value (nothing is clamped or put back on focus out).

    Raises:
        ValueError: ``value`` is outside 0..:data:`WHOLE_MAX`.
    """
    if not 0 <= value <= WHOLE_MAX:
        raise ValueError(f"{value} is outside 0..{WHOLE_MAX}")
    spin = WholeNumberBox()
    spin.setRange(0, WHOLE_MAX)
    spin.setValue(value)
    spin.setGroupSeparatorShown(True)
    if suffix:
        spin.setSuffix(suffix)
    if tip:
        spin.setToolTip(tip)
    return spin


def decimal_field(value: float, *, decimals: int, step: float, tip: str = "") -> QDoubleSpinBox:
    """A spin box holding ``value`` with ``decimals`` digits after the point, stepping by
    ``step``, that accepts every number from 0 to :data:`DECIMAL_MAX`; ``tip`` is its tooltip.
    Whoever reads it checks the value (nothing is clamped or put back on focus out).

    Raises:
        ValueError: ``value`` is outside 0..:data:`DECIMAL_MAX`.
    """
    if not 0 <= value <= DECIMAL_MAX:
        raise ValueError(f"{value} is outside 0..{DECIMAL_MAX:g}")
    spin = DecimalBox()
    spin.setDecimals(decimals)
    spin.setRange(0.0, DECIMAL_MAX)
    spin.setSingleStep(step)
    spin.setValue(value)
    if tip:
        spin.setToolTip(tip)
    return spin
