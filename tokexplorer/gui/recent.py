"""File ▸ Open recent: the corpora and models opened lately, kept with ``QSettings``.

Two lists, newest first, at most :data:`MAX_RECENT` entries each: corpora (the
files or folders opened together, one entry) and models. Opening something again
moves it to the top; an entry whose files are gone is dropped from the menu.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QMenu, QWidget

from tokexplorer.gui.settings import settings

#: At most this many entries per list.
MAX_RECENT = 10

_CORPORA = "recent/corpora"
_MODELS = "recent/models"
_SEPARATOR = "\n"  # between the paths of one corpus entry (a path never holds a newline)


def _read(key: str) -> list[str]:
    value = settings().value(key)
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str) and v]
    return []


def _push(key: str, entry: str) -> None:
    entries = [e for e in _read(key) if e != entry]
    settings().setValue(key, [entry, *entries][:MAX_RECENT])


def add_corpus(paths: list[str]) -> None:
    """Put the corpus opened from ``paths`` (files and folders) at the top of the list."""
    if paths:
        _push(_CORPORA, _SEPARATOR.join(os.path.abspath(p) for p in paths))


def add_model(path: str) -> None:
    """Put the model file ``path`` at the top of the list."""
    _push(_MODELS, os.path.abspath(path))


def recent_corpora() -> list[list[str]]:
    """The recent corpora whose paths all still exist, newest first (each a list of paths)."""
    out = []
    for entry in _read(_CORPORA):
        paths = entry.split(_SEPARATOR)
        if all(os.path.exists(p) for p in paths):
            out.append(paths)
    return out


def recent_models() -> list[str]:
    """The recent model files that still exist, newest first."""
    return [p for p in _read(_MODELS) if os.path.exists(p)]


def clear() -> None:
    """Forget both lists."""
    s = settings()
    s.remove(_CORPORA)
    s.remove(_MODELS)


def corpus_label(paths: list[str]) -> str:
    """The menu text of a corpus entry: ``"en_1mb.txt — /data"`` or ``"a.txt and 2 more — /data"``.

    >>> corpus_label(["/data/a.txt", "/data/b.txt", "/data/c.txt"])
    'a.txt and 2 more — /data'
    """
    first = paths[0].rstrip("/\\")
    name = os.path.basename(first) or first
    more = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
    return f"{name}{more} — {os.path.dirname(first)}"


class RecentMenu(QMenu):
    """The "Open &recent" menu, rebuilt from the settings each time it opens.

    Args:
        parent: the parent widget (the main window).

    Signals:
        corpus_chosen(list): a recent corpus was chosen (its paths).
        model_chosen(str): a recent model file was chosen (its path).
    """

    corpus_chosen = Signal(list)
    model_chosen = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Open &recent", parent)
        self.aboutToShow.connect(self.rebuild)
        self.rebuild()

    def rebuild(self) -> None:
        """Fill the menu from the remembered lists ("No recent files" when both are empty)."""
        self.clear()
        corpora, models = recent_corpora(), recent_models()
        if corpora:
            self.addSection("Corpora")
            for paths in corpora:
                self._entry(corpus_label(paths), "\n".join(paths), lambda p=paths: self.corpus_chosen.emit(p))
        if models:
            self.addSection("Models")
            for path in models:
                label = f"{os.path.basename(path)} — {os.path.dirname(path)}"
                self._entry(label, path, lambda p=path: self.model_chosen.emit(p))
        if not corpora and not models:
            self.addAction("No recent files").setEnabled(False)
            return
        self.addSeparator()
        self.addAction("Clear recent files", self._clear)

    def _entry(self, label: str, tip: str, slot: Callable[[], None]) -> None:
        act = self.addAction(label)
        act.setToolTip(tip)
        act.triggered.connect(lambda _checked=False: slot())

    def _clear(self) -> None:
        clear()
        self.rebuild()
