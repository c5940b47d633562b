"""GUI tests never read or write the user's settings: each test gets its own
temporary settings folder (``QSettings.setPath`` for the ini format the app uses)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings


@pytest.fixture(autouse=True)
def settings_dir(tmp_path):
    """A fresh, empty settings folder for the test (the folder's path)."""
    folder = tmp_path / "settings"
    folder.mkdir()
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    return folder


@pytest.fixture(autouse=True)
def no_leftover_workers():
    """After each test, stop the work it left (a closed window's hidden panes hold paused
    jobs, each asleep in a pool thread): the next tests get the worker pool to themselves."""
    yield
    from tokexplorer.gui.workers import cancel_all_and_wait

    cancel_all_and_wait()
