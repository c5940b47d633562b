"""The window the app tests drive: the real ``MainWindow`` with error dialogs off
(messages still reach ``window.last_error`` and the status bar), closed by qtbot."""

from __future__ import annotations

import pytest

from tokexplorer.gui.main_window import MainWindow


@pytest.fixture
def window(qtbot) -> MainWindow:
    """A new ``MainWindow`` with ``show_error_dialogs`` off, registered with qtbot."""
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    return w
