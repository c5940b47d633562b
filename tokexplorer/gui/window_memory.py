"""The main window's memory: what it restores when it opens and saves when it closes.

:class:`WindowMemory` adds File ▸ Open recent and File ▸ Reopen last corpus at start
to the window's menu, records corpora and models as they are opened, and models as
they are saved or exported, restores the
layout, the training settings and the compare choices when the window is built,
and saves them when it closes (see :mod:`tokexplorer.gui.settings` for where).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from tokexplorer.gui import recent, settings
from tokexplorer.gui.startup import BUILTIN_SAMPLE_NAME

if TYPE_CHECKING:
    from tokexplorer.core.io import Corpus
    from tokexplorer.gui.main_window import MainWindow
    from tokexplorer.gui.panes.corpus_pane import TrainingResult


class WindowMemory(QObject):
    """Restores and saves a :class:`~tokexplorer.gui.main_window.MainWindow`'s state.

    Args:
        window: the window; its File menu gets the recent menu and the reopen toggle.

    Attributes:
        recent_menu: the :class:`~tokexplorer.gui.recent.RecentMenu`.
        reopen_action: the checkable "Reopen last corpus at start".
        layout_restored: True when a window geometry was remembered and restored.
        tab_restored: True when a remembered tab was selected (the startup then
            leaves the current tab alone).
        tiktoken: the remembered tiktoken encoding of the compare pane, or None.
    """

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.recent_menu = recent.RecentMenu(window)
        self.recent_menu.corpus_chosen.connect(window.open_paths)
        self.recent_menu.model_chosen.connect(window.open_model)
        self.reopen_action = QAction("Reopen last corpus at start", window)
        self.reopen_action.setCheckable(True)
        self.reopen_action.setChecked(settings.reopen_last_corpus())
        self.reopen_action.setToolTip("When on, the corpus open when you quit is read again the next time")
        self.reopen_action.toggled.connect(settings.set_reopen_last_corpus)
        window.file_menu.insertMenu(window.open_raw_action, self.recent_menu)
        window.file_menu.insertAction(window.open_raw_action, self.reopen_action)
        window.corpus_pane.corpus_loaded.connect(self._on_corpus_loaded)
        # every model opened (File ▸ Open tokenizer…, the command line, a compare column)
        # and every model saved or exported (File menu, the question on quit) is a recent model
        window.state.model_file_opened.connect(recent.add_model)
        window.saving.saved.connect(self._on_model_saved)
        window.corpus_pane.training_started.connect(self._on_training_started)
        window.corpus_pane.training_finished.connect(self._on_training_finished)
        self._user_training = False  # the training under way was asked for with the form's settings

        self.layout_restored = settings.restore_layout(window, window.tabs)
        self.tab_restored = settings.remembered_tab() is not None
        settings.restore_training_form(window.corpus_pane.form)
        self.tiktoken = settings.restore_compare_choices(window.compare_pane)
        self._use_chosen(settings.chosen_encodings())
        window.corpus_pane.file_list.file_reread.connect(self._on_file_reread)

    def startup_paths(self, paths: list[str]) -> list[str]:
        """The paths to open at start: ``paths`` when given, else the last corpus when
        reopening is on and its files still exist, else none (the built-in sample)."""
        if paths or not self.reopen_action.isChecked():
            return list(paths)
        return settings.last_corpus()

    def save(self) -> None:
        """Save the layout, the training settings and the compare choices. After a Train
        refused for its settings (a vocab size too small...), the training settings are left
        as the last training that ran saved them: only settings that trained are remembered."""
        w = self._window
        settings.save_layout(w, w.tabs)
        if not w.corpus_pane.settings_refused:
            settings.save_training_form(w.corpus_pane.form)
        settings.save_compare_choices(w.compare_pane)

    def _on_model_saved(self, _model: object, paths: list[str]) -> None:
        # the first file written is the one that opens the model again (a .tiktoken
        # beside its sidecar, the vocab.json of a vocab.json + merges.txt pair)
        if paths:
            recent.add_model(paths[0])

    def _on_training_started(self, _algorithm: str) -> None:
        # the startup's default models are trained with their own settings, not the form's
        self._user_training = not self._window.startup.training_defaults

    def _on_training_finished(self, result: TrainingResult) -> None:
        # remembered once they trained, with the size that trained (SentencePiece's fitted one)
        if self._user_training:
            settings.save_training_form(self._window.corpus_pane.form, vocab_size=result.vocab_size)
        self._user_training = False

    def _on_corpus_loaded(self, corpus: Corpus | None) -> None:
        paths = self._window.corpus_pane.file_list.requested_paths
        if corpus is None or corpus.is_empty or not paths:
            return
        if corpus.files and corpus.files[0].name == BUILTIN_SAMPLE_NAME:
            return
        recent.add_corpus(paths)
        settings.set_last_corpus(paths)  # another corpus than the last: its chosen encodings go
        self._use_chosen(settings.chosen_encodings())

    def _use_chosen(self, chosen: dict[str, str]) -> None:
        """Read the files of ``chosen`` (absolute path -> codec) with their codecs from now on, and say so."""
        from tokexplorer.core.io import FileEncodings

        file_list = self._window.corpus_pane.file_list
        file_list.file_encodings = FileEncodings(None, tuple(chosen.items())) if chosen else None
        file_list.model.chosen = dict(chosen)

    def _on_file_reread(self, row: int) -> None:
        """Remember the codec the user chose for the file at ``row`` with the last corpus."""
        file_list = self._window.corpus_pane.file_list
        f = file_list.model.file_at(row)
        chosen = {**file_list.model.chosen, os.path.abspath(f.path): f.encoding}
        settings.set_chosen_encodings(chosen)
        self._use_chosen(chosen)
        file_list.model.replace_file(row, f)  # its Encoding cell says "chosen by you" now
