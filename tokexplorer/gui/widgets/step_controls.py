"""Step controls of a replay: first, back, play, step, last, a slider and a speed box."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSlider, QWidget

from tokexplorer.gui.widgets.number_fields import whole_number_field

#: What the label says while the speed box holds 0 (any speed can be typed; 0 cannot play).
NO_SPEED = "speed 0: type 1 or more steps/s to play"


class StepControls(QWidget):
    """First / back / play / next / last buttons, a slider and a speed box.

    Args:
        parent: Qt parent widget.
        unit: what one step is, in the label beside the slider (``"merge 3 of 10"``:
            the training replay's steps are its merges); ``"step"`` by default.

    Signals:
        step_changed(int): the step shown changed (0-based).
    """

    step_changed = Signal(int)

    def __init__(self, parent: QWidget | None = None, *, unit: str = "step") -> None:
        super().__init__(parent)
        self.unit = unit
        self.first_btn = QPushButton("⏮")
        self.back_btn = QPushButton("◀ Back")
        self.play_btn = QPushButton("▶ Play")
        self.play_btn.setCheckable(True)
        self.next_btn = QPushButton("Step ▶")
        self.last_btn = QPushButton("⏭")
        for b, tip in (
            (self.first_btn, "First step"),
            (self.back_btn, "One step back"),
            (self.play_btn, "Play the steps at the chosen speed"),
            (self.next_btn, "One step forward"),
            (self.last_btn, "Last step"),
        ):
            b.setToolTip(tip)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(0, 0)
        # any speed can be typed (nothing snaps back); 0 is refused by Play with NO_SPEED
        self.speed = whole_number_field(2, suffix=" steps/s", tip="Steps shown per second while playing")
        self.label = QLabel()
        self.label.setMinimumWidth(110)
        self._n = 0
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        for w in (self.first_btn, self.back_btn, self.play_btn, self.next_btn, self.last_btn):
            lay.addWidget(w)
        lay.addWidget(self.slider, 1)
        lay.addWidget(self.label)
        lay.addWidget(QLabel("Speed:"))
        lay.addWidget(self.speed)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self._tick)
        self.first_btn.clicked.connect(lambda: self.set_step(0))
        self.back_btn.clicked.connect(lambda: self.set_step(self.step - 1))
        self.next_btn.clicked.connect(lambda: self.set_step(self.step + 1))
        self.last_btn.clicked.connect(lambda: self.set_step(self.count - 1))
        self.play_btn.toggled.connect(self._on_play)
        self.speed.valueChanged.connect(self._on_speed)
        self.slider.valueChanged.connect(self._on_slider)
        self._update_label()

    @property
    def step(self) -> int:
        return self.slider.value()

    @property
    def count(self) -> int:
        """Number of steps."""
        return self._n

    def set_count(self, n: int) -> None:
        """Number of steps (resets to step 0)."""
        self._n = n
        self.play_btn.setChecked(False)
        self.slider.blockSignals(True)
        self.slider.setRange(0, max(0, n - 1))
        self.slider.setValue(0)
        self.slider.blockSignals(False)
        self._update_label()
        self.step_changed.emit(0)

    def set_step(self, i: int) -> None:
        """Show step ``i`` (clamped to the range)."""
        i = min(max(i, 0), max(0, self._n - 1))
        if i == self.slider.value():
            self._update_label()
            self.step_changed.emit(i)
        else:
            self.slider.setValue(i)

    def _on_slider(self, i: int) -> None:
        self._update_label()
        self.step_changed.emit(i)

    def _update_label(self) -> None:
        self.label.setText(f"{self.unit} {self.step + 1 if self._n else 0} of {self._n}")

    def _on_speed(self, speed: int) -> None:
        if speed:
            self._timer.setInterval(int(1000 / speed))
            self._update_label()
        else:
            self.play_btn.setChecked(False)
            self.label.setText(NO_SPEED)

    def _on_play(self, on: bool) -> None:
        if on and not self.speed.value():
            self.play_btn.setChecked(False)
            self.label.setText(NO_SPEED)
        elif on:
            if self.step >= self._n - 1:
                self.set_step(0)
            self._timer.start(int(1000 / self.speed.value()))
            self.play_btn.setText("⏸ Pause")
        else:
            self._timer.stop()
            self.play_btn.setText("▶ Play")

    def _tick(self) -> None:
        if self.step >= self._n - 1:
            self.play_btn.setChecked(False)
            return
        self.set_step(self.step + 1)
