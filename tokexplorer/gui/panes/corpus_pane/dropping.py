"""The local files and folders a drag and drop (or a paste of URLs) carries onto the window."""

from __future__ import annotations

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QDragEnterEvent, QDropEvent

__all__ = ["accept_paths", "paths_from_mime"]


def paths_from_mime(mime: QMimeData) -> list[str]:
    """Local file and folder paths dropped or pasted as URLs (others are ignored)."""
    if not mime.hasUrls():
        return []
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile() and u.toLocalFile()]


def accept_paths(event: QDragEnterEvent | QDropEvent) -> list[str]:
    """The local paths a drag or drop carries (:func:`paths_from_mime`): the event
    is accepted when there are some, ignored when there are none."""
    paths = paths_from_mime(event.mimeData())
    if paths:
        event.acceptProposedAction()
    else:
        event.ignore()
    return paths
