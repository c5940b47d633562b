"""The main window: the panes in tabs, menus, drag and drop, status bar.

The window owns the shared :class:`~tokexplorer.gui.state.AppState` and hands
it to every pane; the panes never talk to each other directly. The work done
when the window opens (the sample corpus, the default models) is
:class:`~tokexplorer.gui.startup.Startup`'s, reached as ``window.startup``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QTabWidget,
)

from tokexplorer.core.backends import BPETokenizer, Tokenizer
from tokexplorer.core.errors import TokexplorerError
from tokexplorer.gui.panes.bytes_pane import BytesPane
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.panes.corpus_pane import CorpusPane, accept_paths
from tokexplorer.gui.panes.merge_diff_pane import MergeDiffPane
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.panes.replay_pane import ReplayPane
from tokexplorer.gui.panes.stats_pane import StatsPane
from tokexplorer.gui.startup import BUILTIN_SAMPLE_NAME, Startup
from tokexplorer.gui.state import AppState
from tokexplorer.gui.window_memory import WindowMemory
from tokexplorer.gui.workers import Worker, guarded, user_message

if TYPE_CHECKING:
    from tokexplorer.core.io import Corpus

#: Opening files shows at most this many characters of the first one in the compare pane.
COMPARE_MAX_CHARS = 2_000_000

TAB_CORPUS, TAB_MERGES, TAB_COMPARE, TAB_BYTES = range(4)
TAB_REPLAY, TAB_MERGE_DIFF = 4, 5


class MainWindow(QMainWindow):
    """tokexplorer's main window.

    Args:
        state: the shared state; a new :class:`AppState` when None.

    Attributes:
        state: the :class:`AppState`.
        tabs: the QTabWidget holding the panes.
        corpus_pane, merges_pane, compare_pane, bytes_pane, replay_pane,
            merge_diff_pane, stats_pane: the panes, in tab order.
        memory: the :class:`~tokexplorer.gui.window_memory.WindowMemory` (recent files,
            layout and settings restored at start, saved on close).
        startup: the :class:`~tokexplorer.gui.startup.Startup` work
            (``window.startup.run(paths)``; ``window.startup.done`` when finished).
        last_error: the last error shown to the user ("" when none).
        show_error_dialogs: show ``state.error`` messages in a dialog too (tests
            turn this off; the status bar always shows them).
    """

    def __init__(self, state: AppState | None = None) -> None:
        super().__init__()
        self.state = state if state is not None else AppState(self)
        self.setWindowTitle("tokexplorer")
        self.setAcceptDrops(True)
        self.last_error = ""
        self.show_error_dialogs = True
        self._dialog: QMessageBox | None = None
        self.model_worker: Worker | None = None

        self.corpus_pane = CorpusPane(self.state)
        self.merges_pane = MergesPane(self.state)
        self.compare_pane = ComparePane(self.state)
        self.bytes_pane = BytesPane(self.state)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.corpus_pane, "Corpus")
        self.tabs.addTab(self.merges_pane, "Merge table")
        self.tabs.addTab(self.compare_pane, "Compare")
        self.tabs.addTab(self.bytes_pane, "Byte inspector")
        self.replay_pane = ReplayPane(self.state)
        self.merge_diff_pane = MergeDiffPane(self.state)
        self.tabs.addTab(self.replay_pane, "Replay")
        self.tabs.addTab(self.merge_diff_pane, "Merge diff")
        self.setCentralWidget(self.tabs)

        self._build_menus()
        self.statusBar().showMessage("Ready")
        self.state.status.connect(self._show_status)
        self.state.error.connect(self._show_error)
        self.corpus_pane.corpus_loaded.connect(self._show_corpus_in_compare)  # before startup's own slot
        self.startup = Startup(self)
        self.stats_pane = StatsPane(self.state)
        self.tabs.addTab(self.stats_pane, "Statistics")
        self.memory = WindowMemory(self)
        # a token double-clicked in the compare pane or the inspector: show its merge tree
        self.state.token_tree_requested.connect(
            lambda _b: self.tabs.setCurrentWidget(self.merges_pane)
        )

    # ================================================================= menus
    def _build_menus(self) -> None:
        file_menu = self.file_menu = self.menuBar().addMenu("&File")
        self.open_files_action = self._action(
            "&Open files…",
            self.corpus_pane.open_files_dialog,
            QKeySequence.StandardKey.Open,
        )
        self.open_folder_action = self._action(
            "Open &folder…", self.corpus_pane.open_folder_dialog, "Ctrl+Shift+O"
        )
        self.open_model_action = self._action(
            "Open &model…", self.open_model_dialog, "Ctrl+M"
        )
        self.save_bpe_action = self._action(
            "&Save BPE model…", self.save_bpe_dialog, QKeySequence.StandardKey.Save
        )
        self.quit_action = self._action(
            "&Quit", self.close, QKeySequence.StandardKey.Quit
        )
        for act in (self.open_files_action, self.open_folder_action):
            file_menu.addAction(act)
        self.open_raw_action = self._action(
            "Open &raw bytes…", self.open_raw_bytes_dialog, "Ctrl+Shift+R"
        )
        file_menu.addAction(self.open_raw_action)
        file_menu.addSeparator()
        file_menu.addAction(self.open_model_action)
        file_menu.addAction(self.save_bpe_action)
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        view_menu = self.menuBar().addMenu("&View")
        for i, name in enumerate(
            (
                "Corpus",
                "Merge table",
                "Compare",
                "Byte inspector",
                "Replay",
                "Merge diff",
            )
        ):
            act = self._action(
                name,
                lambda _checked=False, i=i: self.tabs.setCurrentIndex(i),
                f"Ctrl+{i + 1}",
            )
            view_menu.addAction(act)
        view_menu.addSeparator()
        self.statusbar_action = QAction("Status bar", self)
        self.statusbar_action.setCheckable(True)
        self.statusbar_action.setChecked(True)
        self.statusbar_action.toggled.connect(
            lambda on: self.statusBar().setVisible(on)
        )
        view_menu.addAction(self.statusbar_action)

        train_menu = self.menuBar().addMenu("&Train")
        train_menu.addAction(self._action("&Train on corpus", self.train, "Ctrl+T"))
        train_menu.addAction(
            self._action("&Cancel training", self.corpus_pane.cancel_training, "Ctrl+.")
        )

    def _action(
        self,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence.StandardKey | str | None = None,
    ) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        act.triggered.connect(lambda _checked=False: slot())
        return act

    # ================================================================= public
    def open_paths(self, paths: list[str], *, show: bool = True) -> None:
        """Load files and folders as the corpus (in a worker; see :class:`CorpusPane`);
        ``show``: make the corpus tab current."""
        if paths:
            if show:
                self.tabs.setCurrentWidget(self.corpus_pane)
            self.corpus_pane.load_paths(paths)

    def train(self) -> Worker | None:
        """Train with the corpus pane's settings (see :meth:`CorpusPane.start_training`)."""
        self.tabs.setCurrentWidget(self.corpus_pane)
        return self.corpus_pane.start_training()

    def _show_corpus_in_compare(self, corpus: Corpus | None) -> None:
        """Opening files shows the largest one in the compare pane and the byte
        inspector (at most :data:`COMPARE_MAX_CHARS` characters of it)."""
        files = [f for f in corpus.files if f.text] if corpus is not None else []
        if not files or files[0].name == BUILTIN_SAMPLE_NAME:
            return
        # the largest file that decoded cleanly: the most representative text
        clean = [f for f in files if not f.lossy] or files
        first = max(clean, key=lambda f: f.n_chars)
        text = first.text[:COMPARE_MAX_CHARS]
        self.state.set_sample_text(text)
        more = (
            f" (its first {COMPARE_MAX_CHARS:,} of {len(first.text):,} characters)"
            if len(first.text) > COMPARE_MAX_CHARS
            else ""
        )
        prev = self.statusBar().currentMessage()
        msg = f"Compare shows {first.name}{more}"
        self.state.status.emit(f"{prev} · {msg}" if prev and prev != "Ready" else msg)

    # ================================================================= raw bytes
    def open_raw_bytes_dialog(self) -> None:
        """Ask for any file and show its bytes exactly as stored in the byte inspector."""
        path, _ = QFileDialog.getOpenFileName(self, "Open a file as raw bytes")
        if path:
            self.open_raw_bytes(path)

    def open_raw_bytes(self, path: str) -> None:
        """Show ``path``'s bytes in the byte inspector (raw-bytes mode, invalid UTF-8 flagged)."""
        self.state.raw_bytes_requested.emit(str(path))
        self.tabs.setCurrentWidget(self.bytes_pane)

    # ================================================================= models
    def open_model_dialog(self) -> None:
        """Ask for a model file and open it (see :meth:`open_model`)."""
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Open a tokenizer model",
            "",
            "Tokenizer models (*.bpe *.txt *.model *.tiktoken);;"
            "tokexplorer BPE (*.bpe *.txt);;SentencePiece (*.model);;tiktoken ranks (*.tiktoken);;All files (*)",
        )
        if path:
            self.open_model(path)

    def open_model(self, path: str) -> Worker:
        """Load a model file in a worker: ``.model`` (SentencePiece), ``.tiktoken``
        (tiktoken ranks), anything else our BPE format.

        A BPE model becomes ``state.bpe`` (merge table) and the ``"bpe"`` column;
        the others are added as compare columns.
        """
        from tokexplorer.core.backends import load_tokenizer

        lower = path.lower()
        if lower.endswith(".model"):
            spec = f"sp:{path}"
        elif lower.endswith(".tiktoken"):
            spec = f"tiktoken-file:{path}"
        else:
            spec = f"bpe:{path}"
        worker = Worker(lambda cancel: load_tokenizer(spec))
        worker.signals.returned.connect(
            guarded(self, lambda tok, p=path: self._on_model_loaded(p, tok))
        )
        worker.signals.errored.connect(
            guarded(
                self,
                lambda exc, p=path: self.state.error.emit(
                    f"{os.path.basename(p)}: {user_message(exc)}"
                ),
            )
        )
        self.model_worker = worker
        self.state.status.emit(f"opening {os.path.basename(path)}…")
        worker.start()
        return worker

    def _on_model_loaded(self, path: str, tok: Tokenizer) -> None:
        self.memory.remember_model(path)
        if isinstance(tok, BPETokenizer):
            self.state.set_bpe(tok.bpe)
            self.state.replace_tokenizer("bpe", tok)
        else:
            self.state.set_tokenizers(list(self.state.tokenizers) + [tok])
        self.state.status.emit(f"opened {os.path.basename(path)}: {tok.description}")

    def save_bpe_dialog(self) -> None:
        """Ask where to save the current BPE model and save it."""
        if self.state.bpe is None:
            self.state.error.emit("no BPE model to save: train one first (Corpus tab)")
            return
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Save BPE model",
            "model.bpe",
            "tokexplorer BPE (*.bpe);;All files (*)",
        )
        if path:
            self.save_bpe(path)

    def save_bpe(self, path: str) -> bool:
        """Save ``state.bpe`` to ``path`` (atomic write); True on success."""
        from tokexplorer.core.io import save_bpe

        if self.state.bpe is None:
            self.state.error.emit("no BPE model to save: train one first (Corpus tab)")
            return False
        try:
            save_bpe(self.state.bpe, path)
        except (TokexplorerError, OSError) as exc:
            self.state.error.emit(f"could not save {os.path.basename(path)}: {exc}")
            return False
        self.memory.remember_model(path)
        self.state.status.emit(f"saved BPE model to {path}")
        return True

    # ================================================================= messages
    def _show_status(self, message: str) -> None:
        self.statusBar().showMessage(message)

    def _show_error(self, message: str) -> None:
        self.last_error = message
        self.statusBar().showMessage(f"⚠ {message}")
        if not self.show_error_dialogs:
            return
        if self._dialog is not None and self._dialog.isVisible():
            self._dialog.setText(message)
            return
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "tokexplorer",
            message,
            QMessageBox.StandardButton.Ok,
            self,
        )
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        box.finished.connect(lambda _r: setattr(self, "_dialog", None))
        self._dialog = box
        box.open()

    # ================================================================= drag and drop
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        accept_paths(event)

    def dropEvent(self, event: QDropEvent) -> None:
        paths = accept_paths(event)
        if not paths:
            return
        models = [
            p for p in paths if p.lower().endswith((".model", ".tiktoken", ".bpe"))
        ]
        for p in models:
            self.open_model(p)
        texts = [p for p in paths if p not in models]
        if texts:
            self.open_paths(texts)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.memory.save()
        self.corpus_pane.cancel_training()
        super().closeEvent(event)
