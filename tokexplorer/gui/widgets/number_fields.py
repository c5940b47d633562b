"""Number fields that keep what the user typed.

A :class:`~PySide6.QtWidgets.QSpinBox` whose range is narrower than what a user may type puts
its previous value back when it loses focus (pressing Train does that), so a typed ``100``
in a box starting at 256 trains at the old size without a word. The fields made here take
any whole number from 0 up to :data:`WHOLE_MAX`; the code using the value refuses one the
setting cannot use with the one-line message the command line gives
(``vocab_size 100 is too small; use at least 256``), and the field still shows it.
"""

from __future__ import annotations

from PySide6.QtWidgets import QSpinBox

#: The largest value a whole-number field takes (Qt's int; any larger number cannot be typed).
WHOLE_MAX = 2**31 - 1


def whole_number_field(value: int, *, tip: str = "", suffix: str = "") -> QSpinBox:
    """A spin box holding ``value`` that accepts every whole number from 0 to :data:`WHOLE_MAX`,
    shown with thousands separators (``8,000``) and ``suffix`` (``" bytes"``), ``tip`` as its
    tooltip. Whoever reads it checks the value (nothing is clamped or put back on focus out).

    Raises:
        ValueError: ``value`` is outside 0..:data:`WHOLE_MAX`.
    """
    if not 0 <= value <= WHOLE_MAX:
        raise ValueError(f"{value} is outside 0..{WHOLE_MAX}")
    spin = QSpinBox()
    spin.setRange(0, WHOLE_MAX)
    spin.setValue(value)
    spin.setGroupSeparatorShown(True)
    if suffix:
        spin.setSuffix(suffix)
    if tip:
        spin.setToolTip(tip)
    return spin
