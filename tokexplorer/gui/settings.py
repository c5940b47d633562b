"""What the window remembers between runs, kept with ``QSettings``.

The settings are one ini file on every system: ``~/.config/tokexplorer/tokexplorer.ini``
on Linux and macOS (``$XDG_CONFIG_HOME`` instead of ``~/.config`` when set),
``%APPDATA%\\tokexplorer\\tokexplorer.ini`` on Windows. Tests,
benchmarks and ``--screenshot`` point ``QSettings`` at a temporary folder instead
(``QSettings.setPath`` for the ini format), never at the user's.

Remembered: the window's geometry and layout, every splitter of every tab, the
current tab (:func:`save_layout` / :func:`restore_layout`); the training settings
(:func:`save_training_form` / :func:`restore_training_form`); the compare pane's
reading aids and tiktoken encoding (:func:`save_compare_choices` /
:func:`restore_compare_choices`); the last corpus and whether to reopen it
(:func:`last_corpus`, :func:`set_last_corpus`, :func:`reopen_last_corpus`,
:func:`set_reopen_last_corpus`). Recent files and models are
:mod:`tokexplorer.gui.recent`'s.

Every value read back is checked: a setting of the wrong type or out of range
(an older version, a hand-edited file) is ignored and the default is kept.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QRect, QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QCheckBox, QSplitter, QTabWidget

from tokexplorer.gui.panes.corpus_pane.training_form import SETTINGS_KINDS, pattern_names

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMainWindow

    from tokexplorer.gui.panes.compare_pane import ComparePane
    from tokexplorer.gui.panes.corpus_pane.training_form import TrainingForm

ORGANIZATION = "tokexplorer"
APPLICATION = "tokexplorer"

_GEOMETRY = "window/geometry"
_RECT = "window/rect"
_WINDOW_STATE = "window/state"
_TAB = "window/tab"
_SPLITTERS = "splitters"
_LAST_CORPUS = "corpus/last"
_REOPEN = "corpus/reopen_last"
_CHOSEN = "corpus/chosen_encodings"
_TRAINING = "training"
_COMPARE = "compare"


def settings() -> QSettings:
    """The application's settings: an ini file named after :data:`ORGANIZATION` and
    :data:`APPLICATION` in the user's settings folder (or where ``QSettings.setPath``
    for the ini format points)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, ORGANIZATION, APPLICATION)


def _bytes(value: object) -> QByteArray | None:
    return value if isinstance(value, QByteArray) and not value.isEmpty() else None


def _int(value: object) -> int | None:
    """An int from a setting (ini files give strings back), or None."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        return int(value)
    return None


def _bool(value: object, default: bool) -> bool:
    """A bool from a setting (``"true"``/``"false"`` in ini files), else ``default``."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return default


def _str_list(value: object) -> list[str]:
    """A list of strings from a setting (one string comes back alone from ini files)."""
    if isinstance(value, str):
        return [value] if value else []
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str) and v]
    return []


def _splitters(tabs: QTabWidget) -> list[tuple[str, QSplitter]]:
    """Every splitter of every tab, keyed by the tab's pane class and its order in it."""
    out = []
    for i in range(tabs.count()):
        pane = tabs.widget(i)
        for k, split in enumerate(pane.findChildren(QSplitter)):
            out.append((f"{_SPLITTERS}/{type(pane).__name__}_{k}", split))
    return out


# ----------------------------------------------------------------------------- layout


def save_layout(window: QMainWindow, tabs: QTabWidget) -> None:
    """Remember ``window``'s geometry and state, the sizes of every splitter in
    ``tabs`` and the current tab."""
    s = settings()
    s.setValue(_GEOMETRY, window.saveGeometry())
    if window.isMaximized() or window.isFullScreen():
        s.remove(_RECT)  # saveGeometry() keeps the state and the normal geometry
    else:
        s.setValue(_RECT, window.geometry())
    s.setValue(_WINDOW_STATE, window.saveState())
    s.setValue(_TAB, tabs.currentIndex())
    for key, split in _splitters(tabs):
        s.setValue(key, split.saveState())


def restore_layout(window: QMainWindow, tabs: QTabWidget) -> bool:
    """Give ``window`` and the splitters of ``tabs`` their remembered geometry and
    sizes and select the remembered tab; True when a geometry was remembered."""
    s = settings()
    geometry = _bytes(s.value(_GEOMETRY))
    if geometry is not None:
        window.restoreGeometry(geometry)
        _put_back(window, s.value(_RECT))
    state = _bytes(s.value(_WINDOW_STATE))
    if state is not None:
        window.restoreState(state)
    for key, split in _splitters(tabs):
        sizes = _bytes(s.value(key))
        if sizes is not None:
            split.restoreState(sizes)
    tab = _int(s.value(_TAB))
    if tab is not None and 0 <= tab < tabs.count():
        tabs.setCurrentIndex(tab)
    return geometry is not None


def _put_back(window: QMainWindow, rect: object) -> None:
    """Give a normal (not maximized or full-screen) ``window`` exactly its saved geometry
    ``rect`` (the window without its frame, in pixels) when that lies on a screen.

    ``restoreGeometry`` moves a window whose top is less than a title bar's height
    below the screen's top down to that height, as if a window manager's frame were
    there; without one (Xvfb, some kiosks) every start would put the window lower.
    """
    if not isinstance(rect, QRect) or rect.isEmpty() or window.isMaximized() or window.isFullScreen():
        return
    if any(screen.availableGeometry().contains(rect) for screen in QGuiApplication.screens()):
        window.setGeometry(rect)


def remembered_tab() -> int | None:
    """The tab index remembered by :func:`save_layout`, or None."""
    return _int(settings().value(_TAB))


# ----------------------------------------------------------------------------- last corpus


def set_last_corpus(paths: list[str]) -> None:
    """Remember ``paths`` (files and folders, made absolute) as the last corpus opened; the
    encodings chosen for the files of another corpus are forgotten (:func:`chosen_encodings`)."""
    s, now = settings(), [os.path.abspath(p) for p in paths]
    if _str_list(s.value(_LAST_CORPUS)) != now:
        s.remove(_CHOSEN)
    s.setValue(_LAST_CORPUS, now)


def last_corpus() -> list[str]:
    """The last corpus's paths that still exist (empty when none is remembered)."""
    return [p for p in _str_list(settings().value(_LAST_CORPUS)) if os.path.exists(p)]


def set_chosen_encodings(chosen: dict[str, str]) -> None:
    """Remember the codecs the user chose for files of the last corpus (Re-read as), by
    absolute path; an empty ``chosen`` forgets them."""
    settings().setValue(_CHOSEN, [f"{codec}={path}" for path, codec in sorted(chosen.items())])


def chosen_encodings() -> dict[str, str]:
    """The codecs chosen for files of the last corpus (absolute path -> codec), those still on disk."""
    out = {}
    for item in _str_list(settings().value(_CHOSEN)):
        codec, _, path = item.partition("=")
        if codec and path and os.path.exists(path):
            out[path] = codec
    return out


def reopen_last_corpus() -> bool:
    """True (the default) when the last corpus is reopened at start."""
    return _bool(settings().value(_REOPEN), True)


def set_reopen_last_corpus(on: bool) -> None:
    """Turn reopening the last corpus at start on or off."""
    settings().setValue(_REOPEN, bool(on))


# ----------------------------------------------------------------------------- training


def save_training_form(form: TrainingForm, *, vocab_size: int | None = None) -> None:
    """Remember the training settings: algorithm and vocab size (``vocab_size`` when given:
    the size that trained, else the field's), and each kind's
    (:data:`~tokexplorer.gui.panes.corpus_pane.training_form.SETTINGS_KINDS`: byte-level
    BPE, WordPiece) own pre-tokenizer and special tokens."""
    s = settings()
    s.setValue(f"{_TRAINING}/algorithm", form.algorithm())
    s.setValue(f"{_TRAINING}/vocab_size", form.vocab_spin.value() if vocab_size is None else vocab_size)
    for kind in SETTINGS_KINDS:
        pattern, specials = form.kind_settings(kind)
        s.setValue(f"{_TRAINING}/{kind}/pattern", pattern)
        s.setValue(f"{_TRAINING}/{kind}/special_tokens", specials)
    # an older version kept one pre-tokenizer and one special tokens field for every algorithm
    s.remove(f"{_TRAINING}/pattern")
    s.remove(f"{_TRAINING}/special_tokens")


def restore_training_form(form: TrainingForm) -> None:
    """Put the remembered training settings into ``form``: the algorithm first, then the
    vocab size as it was (a whole number the field holds; one the algorithm cannot use is
    refused on Train with a message, not changed here), and each kind's pre-tokenizer (when it
    is one of that kind's) and special tokens into that kind only; other values are ignored."""
    s = settings()
    algorithm = s.value(f"{_TRAINING}/algorithm")
    if isinstance(algorithm, str) and form.algorithm_combo.findData(algorithm) >= 0:
        form.set_algorithm(algorithm)
    vocab = _int(s.value(f"{_TRAINING}/vocab_size"))
    if vocab is not None and form.vocab_spin.minimum() <= vocab <= form.vocab_spin.maximum():
        form.vocab_spin.setValue(vocab)
    for kind in SETTINGS_KINDS:
        pattern = s.value(f"{_TRAINING}/{kind}/pattern")
        specials = s.value(f"{_TRAINING}/{kind}/special_tokens")
        form.set_kind_settings(
            kind,
            pattern=pattern if isinstance(pattern, str) and pattern in pattern_names(kind) else None,
            specials=specials if isinstance(specials, str) else None,
        )


# ----------------------------------------------------------------------------- compare


def save_compare_choices(pane: ComparePane) -> None:
    """Remember the compare pane's choices: whitespace, ids, mark differences,
    sync scrolling and the tiktoken encoding of its first tiktoken column."""
    s = settings()
    for key, box in _compare_boxes(pane):
        s.setValue(f"{_COMPARE}/{key}", box.isChecked())
    s.setValue(f"{_COMPARE}/tiktoken", pane.tiktoken_combo.currentText())


def remembered_tiktoken() -> str | None:
    """The tiktoken encoding the Compare tab showed last time, as remembered (not checked
    against the encodings offered: :func:`restore_compare_choices` does that)."""
    name = settings().value(f"{_COMPARE}/tiktoken")
    return name if isinstance(name, str) and name else None


def restore_compare_choices(pane: ComparePane) -> str | None:
    """Set the compare pane's remembered check boxes; returns the remembered tiktoken
    encoding when it is one the pane offers (the caller loads it), else None."""
    s = settings()
    for key, box in _compare_boxes(pane):
        box.setChecked(_bool(s.value(f"{_COMPARE}/{key}"), box.isChecked()))
    name = s.value(f"{_COMPARE}/tiktoken")
    if isinstance(name, str) and pane.tiktoken_combo.findText(name) >= 0:
        return name
    return None


def _compare_boxes(pane: ComparePane) -> list[tuple[str, QCheckBox]]:
    return [
        ("whitespace", pane.whitespace_box),
        ("ids", pane.ids_box),
        ("diff", pane.diff_box),
        ("sync", pane.sync_box),
    ]
