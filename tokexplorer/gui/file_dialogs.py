"""File dialogs that open in the last folder used.

Every file dialog of the window (opening a corpus, a tokenizer, raw bytes, a word-count
table; saving and exporting models, statistics) starts in the folder of the last file or
folder chosen in any of them, remembered with ``QSettings`` (``files/last_folder``) from one
run to the next; the current working directory (where the app was started) until one is
chosen, or when that folder is gone.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QFileDialog, QWidget

_KEY = "files/last_folder"


def _settings() -> QSettings:
    """The application's ini file, the one :func:`tokexplorer.gui.settings.settings` opens
    (not imported from there: that module reads the panes' forms, and panes use this one)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "tokexplorer", "tokexplorer")


def last_folder() -> str:
    """The folder the dialogs start in: the last one used, else the current working directory
    (else the home folder, when the working directory is gone)."""
    folder = _settings().value(_KEY)
    if isinstance(folder, str) and folder and os.path.isdir(folder):
        return folder
    try:
        return os.getcwd()
    except OSError:  # the working directory was deleted
        return os.path.expanduser("~")


def remember_folder(path: str) -> None:
    """Remember the folder of ``path`` (a file, or a folder itself) as the last one used."""
    if path:
        p = os.path.abspath(path)
        _settings().setValue(_KEY, p if os.path.isdir(p) else os.path.dirname(p))


def start_path(name: str = "") -> str:
    """Where a dialog starts: ``name`` (a file name proposed) in :func:`last_folder`."""
    return os.path.join(last_folder(), name) if name else last_folder()


def open_file(parent: QWidget | None, caption: str, filters: str = "") -> str:
    """Ask for one existing file; the path, or ``""`` when cancelled."""
    path, _ = QFileDialog.getOpenFileName(parent, caption, start_path(), filters)
    remember_folder(path)
    return path


def open_files(parent: QWidget | None, caption: str, filters: str = "") -> list[str]:
    """Ask for existing files; their paths (empty when cancelled)."""
    paths, _ = QFileDialog.getOpenFileNames(parent, caption, start_path(), filters)
    if paths:
        remember_folder(paths[0])
    return list(paths)


def open_folder(parent: QWidget | None, caption: str) -> str:
    """Ask for a folder; its path, or ``""`` when cancelled."""
    path = QFileDialog.getExistingDirectory(parent, caption, start_path())
    remember_folder(path)
    return path


def save_file(parent: QWidget | None, caption: str, name: str, filters: str = "") -> tuple[str, str]:
    """Ask where to save, proposing the file ``name`` in the last folder used.

    Returns:
        ``(path, chosen filter)``; path is ``""`` when cancelled.
    """
    path, chosen = QFileDialog.getSaveFileName(parent, caption, start_path(name), filters)
    remember_folder(path)
    return path, chosen
