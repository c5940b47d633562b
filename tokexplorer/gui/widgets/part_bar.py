"""The byte inspector's part bar: which part of a long text or file is shown, and a way to the others."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from tokexplorer.core.analysis import PartReport
from tokexplorer.gui.widgets.number_fields import whole_number_field


def part_range(pr: PartReport) -> str:
    """What a part covers: ``"characters 2,005–4,005 of 2,000,000"`` or ``"bytes 4,096–8,192 of 1,200,000"``."""
    unit = "bytes" if pr.report.raw else "characters"
    return f"{unit} {pr.start:,}–{pr.end:,} of {pr.n_total:,}"


class PartBar(QWidget):
    """``◀  Part [ 3 ] of 294  ▶   bytes 8,192–12,287 of 1,200,000`` (hidden while the input is shown whole).

    Signals:
        part_chosen(int): the user asked for this part (0-based).

    Attributes:
        spin: the part number box (1-based, as the user reads it).
        prev_button, next_button, last_button: one part back, one on, the last part.
        range_label: what the part covers.
    """

    part_chosen = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prev_button = QPushButton("◀", self)
        self.next_button = QPushButton("▶", self)
        self.last_button = QPushButton("Last", self)
        # any number can be typed (nothing snaps back): a part that does not exist is said in range_label
        self.spin = whole_number_field(1, tip="The part to show (press Enter)")
        self.spin.setParent(self)
        self.spin.setKeyboardTracking(False)
        self._part, self._n_parts = 0, 1
        self._range_text = ""
        self.of_label = QLabel(self)
        self.range_label = QLabel(self)
        self.prev_button.setToolTip("The previous part")
        self.next_button.setToolTip("The next part")
        self.last_button.setToolTip("The last part")
        self.prev_button.clicked.connect(lambda: self.part_chosen.emit(self._part - 1))
        self.next_button.clicked.connect(lambda: self.part_chosen.emit(self._part + 1))
        self.last_button.clicked.connect(lambda: self.part_chosen.emit(self._n_parts - 1))
        self.spin.valueChanged.connect(self._on_typed)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.prev_button)
        lay.addWidget(QLabel("Part", self))
        lay.addWidget(self.spin)
        lay.addWidget(self.of_label)
        lay.addWidget(self.next_button)
        lay.addWidget(self.last_button)
        lay.addSpacing(8)
        lay.addWidget(self.range_label, 1)
        self.hide()

    def show_part(self, part: int, n_parts: int, text: str) -> None:
        """Show part ``part`` (0-based) of ``n_parts`` with ``text`` saying what it covers;
        hidden when ``n_parts == 1``."""
        self._part, self._n_parts, self._range_text = part, max(1, n_parts), text
        self.spin.blockSignals(True)
        self.spin.setValue(part + 1)
        self.spin.blockSignals(False)
        self.of_label.setText(f"of {n_parts:,}")
        self.range_label.setText(text)
        self.prev_button.setEnabled(part > 0)
        self.next_button.setEnabled(part < n_parts - 1)
        self.last_button.setEnabled(part < n_parts - 1)
        self.setVisible(n_parts > 1)

    def _on_typed(self, number: int) -> None:
        """A part number typed: that part asked for, or (kept in the box) why there is none."""
        if 1 <= number <= self._n_parts:
            self.range_label.setText(self._range_text)
            self.part_chosen.emit(number - 1)
        else:
            self.range_label.setText(f"there is no part {number:,}: type 1 to {self._n_parts:,}")
