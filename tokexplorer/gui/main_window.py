"""The main window: the panes in tabs, menus, drag and drop, status bar.

The window owns the shared :class:`~tokexplorer.gui.state.AppState` and hands
it to every pane; the panes never talk to each other directly. The work done
when the window opens (the sample corpus, the default models) is
:class:`~tokexplorer.gui.startup.Startup`'s, reached as ``window.startup``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
)
from PySide6.QtWidgets import (
    QApplication,
    QMainWindow,
    QMessageBox,
    QTabWidget,
)

from tokexplorer.core.backends import BPETokenizer, Tokenizer, WordPieceTokenizer
from tokexplorer.core.errors import TokexplorerError
from tokexplorer.core.io import file_label
from tokexplorer.core.text import line_ending_summary
from tokexplorer.gui import file_dialogs, settings, symbols
from tokexplorer.gui.panes.bytes_pane import BytesPane
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.panes.corpus_pane import CorpusPane, accept_paths
from tokexplorer.gui.panes.granularity_pane import GranularityPane
from tokexplorer.gui.panes.merge_diff_pane import MergeDiffPane
from tokexplorer.gui.panes.merges_pane import MergesPane
from tokexplorer.gui.panes.replay_pane import ReplayPane
from tokexplorer.gui.panes.stats_pane import StatsPane
from tokexplorer.gui.panes.unigram_pane import UnigramPane
from tokexplorer.gui.panes.wordpiece_pane import WordPiecePane
from tokexplorer.gui.saving import SaveGuard
from tokexplorer.gui.startup import BUILTIN_SAMPLE_NAME, DEFAULT_TIKTOKEN, Startup, preload_tiktoken
from tokexplorer.gui.state import AppState
from tokexplorer.gui.terms import in_window_terms
from tokexplorer.gui.widgets.compare_source import BUILTIN_SOURCE, COMPARE_MAX_CHARS, STREAMED_SOURCE, file_sample
from tokexplorer.gui.widgets.status_line import StatusLine
from tokexplorer.gui.window_memory import WindowMemory
from tokexplorer.gui.workers import Worker, file_message, guarded, size_pool

if TYPE_CHECKING:
    from tokexplorer.core.io import Corpus, PathSort
    from tokexplorer.gui.dialogs.pattern import PatternDialog

TAB_CORPUS, TAB_MERGES, TAB_COMPARE, TAB_BYTES = range(4)
TAB_REPLAY, TAB_MERGE_DIFF = 4, 5


#: The keys of the standard shortcuts the menus use, for a platform that has none for one
#: (Windows and the offscreen platform have no standard Quit key).
STANDARD_FALLBACKS: dict[QKeySequence.StandardKey, str] = {
    QKeySequence.StandardKey.Open: "Ctrl+O",
    QKeySequence.StandardKey.Save: "Ctrl+S",
    QKeySequence.StandardKey.Quit: "Ctrl+Q",
}


def shortcut_sequence(shortcut: QKeySequence.StandardKey | str) -> QKeySequence:
    """The key sequence of a menu shortcut: a platform's standard key, or where the
    platform has none (Quit on Windows) the key of :data:`STANDARD_FALLBACKS`."""
    seq = QKeySequence(shortcut)
    if seq.isEmpty() and isinstance(shortcut, QKeySequence.StandardKey):
        return QKeySequence(STANDARD_FALLBACKS[shortcut])
    return seq


class MainWindow(QMainWindow):
    """tokexplorer's main window.

    Args:
        state: the shared state; a new :class:`AppState` when None.

    Attributes:
        state: the :class:`AppState`.
        tabs: the QTabWidget holding the panes.
        corpus_pane, merges_pane, compare_pane, bytes_pane, replay_pane,
            merge_diff_pane, stats_pane, wordpiece_pane, unigram_pane, granularity_pane: the
            panes, in tab order.
        memory: the :class:`~tokexplorer.gui.window_memory.WindowMemory` (recent files,
            layout and settings restored at start, saved on close).
        startup: the :class:`~tokexplorer.gui.startup.Startup` work
            (``window.startup.run(paths)``; ``window.startup.done`` when finished).
        saving: the :class:`~tokexplorer.gui.saving.SaveGuard`: trained models not
            saved yet, saving and exporting them, the question before losing them.
        view_menu, tab_actions: the View menu and its one action per tab, in tab order
            (Ctrl+1 … Ctrl+9, Ctrl+0).
        last_error: the last error shown to the user ("" when none).
        pattern_dialog: the open :class:`~tokexplorer.gui.dialogs.pattern.PatternDialog`, or None.
        show_error_dialogs: show ``state.error`` messages in a dialog too (tests
            turn this off; the status bar always shows them).
    """

    def __init__(self, state: AppState | None = None) -> None:
        super().__init__()
        size_pool()  # the panes' held jobs each sleep in a pool thread: never let them fill it
        # the default tiktoken encoding is built while the window is built, before it is shown
        remembered = settings.remembered_tiktoken() or DEFAULT_TIKTOKEN
        self.tiktoken_preload: tuple[str, Future] | None = (remembered, preload_tiktoken(remembered))
        self.state = state if state is not None else AppState(self)
        self.setWindowTitle("tokexplorer")
        self.setAcceptDrops(True)
        self.last_error = ""
        self.show_error_dialogs = True
        self._dialog: QMessageBox | None = None
        self.model_worker: Worker | None = None
        self.pattern_dialog: PatternDialog | None = None

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
        self.setStatusBar(StatusLine(self, tabs=self.tabs))  # cut with "…" (whole in its tooltip); per tab
        self.statusBar().showMessage("Ready")
        self._compare_said = ""  # the status line's "Compare shows …", dropped once it is not true
        self.state.sample_source_changed.connect(lambda: self.statusBar().drop(self._compare_said))
        self.state.status.connect(self._show_status)
        self.state.error.connect(self._show_error)
        self.corpus_pane.corpus_loaded.connect(self._show_corpus_in_compare)  # before startup's own slot
        self.startup = Startup(self)
        self.saving = SaveGuard(self)
        self.stats_pane = StatsPane(self.state)
        self.tabs.addTab(self.stats_pane, "Statistics")
        self.wordpiece_pane = WordPiecePane(self.state)
        self.tabs.addTab(self.wordpiece_pane, "WordPiece")
        self.unigram_pane = UnigramPane(self.state)
        self.tabs.addTab(self.unigram_pane, "Unigram")
        self.granularity_pane = GranularityPane(self.state)
        self.tabs.addTab(self.granularity_pane, "Granularity")
        self._add_tab_actions()
        self._hold_minimum_size()
        self.memory = WindowMemory(self)
        # a token double-clicked in the compare pane or the inspector: show its merge tree
        self.state.token_tree_requested.connect(lambda _b, _name: self.tabs.setCurrentWidget(self.merges_pane))

    # ================================================================= menus
    def _build_menus(self) -> None:
        file_menu = self.file_menu = self.menuBar().addMenu("&File")
        self.open_files_action = self._action(
            "&Open files…",
            self.corpus_pane.open_files_dialog,
            QKeySequence.StandardKey.Open,
        )
        self.open_folder_action = self._action("Open &folder…", self.corpus_pane.open_folder_dialog, "Ctrl+Shift+O")
        self.open_model_action = self._action("Open &tokenizer…", self.open_model_dialog, "Ctrl+M")
        self.open_model_folder_action = self._action(
            "Open tokenizer fo&lder…", self.open_model_folder_dialog, "Ctrl+Shift+M"
        )
        self.save_bpe_action = self._action("&Save BPE model…", self.save_bpe_dialog, QKeySequence.StandardKey.Save)
        self.quit_action = self._action("&Quit", self.close, QKeySequence.StandardKey.Quit)
        for act in (self.open_files_action, self.open_folder_action):
            file_menu.addAction(act)
        self.open_raw_action = self._action("Open &raw bytes…", self.open_raw_bytes_dialog, "Ctrl+Shift+R")
        file_menu.addAction(self.open_raw_action)
        file_menu.addSeparator()
        file_menu.addAction(self.open_model_action)
        file_menu.addAction(self.open_model_folder_action)
        file_menu.addAction(self.save_bpe_action)
        self.save_sp_action = self._action(
            "Save S&entencePiece model…", lambda: self.saving.save_sentencepiece_dialog()
        )
        self.export_action = self._action(
            "&Export tokenizer…", lambda: self.saving.open_export_dialog(), "Ctrl+Shift+E"
        )
        self.save_wp_action = self._action("Save &WordPiece…", lambda: self.saving.save_wordpiece_dialog())
        file_menu.addActions([self.save_sp_action, self.save_wp_action, self.export_action])
        file_menu.addSeparator()
        file_menu.addAction(self.quit_action)

        view_menu = self.view_menu = self.menuBar().addMenu("&View")
        self._view_separator = view_menu.addSeparator()  # the tabs go above it (_add_tab_actions)
        self.statusbar_action = QAction("Status bar", self)
        self.statusbar_action.setCheckable(True)
        self.statusbar_action.setChecked(True)
        self.statusbar_action.toggled.connect(lambda on: self.statusBar().setVisible(on))
        view_menu.addAction(self.statusbar_action)

        train_menu = self.menuBar().addMenu("&Train")
        train_menu.addAction(self._action("&Train on corpus", self.train, "Ctrl+T"))
        train_menu.addAction(self._action("Train from &counts…", self.train_from_counts_dialog))
        train_menu.addAction(self._action("&Cancel training", self.corpus_pane.cancel_training, "Ctrl+."))

    def _add_tab_actions(self) -> None:
        """View ▸ one entry per tab, in tab order: Ctrl+1 … Ctrl+9, then Ctrl+0 for the tenth."""
        self.tab_actions: list[QAction] = []
        for i in range(self.tabs.count()):
            key = f"Ctrl+{(i + 1) % 10}" if i < 10 else None
            act = self._action(self.tabs.tabText(i), lambda i=i: self.tabs.setCurrentIndex(i), key)
            self.view_menu.insertAction(self._view_separator, act)
            self.tab_actions.append(act)

    def _hold_minimum_size(self) -> None:
        """Fix the panes' minimum size once, as built (at most 90% of the screen): nothing a
        pane shows later (a long name, more columns) can make the window resize itself; the
        panes elide such text and scroll their columns instead."""
        hint, room = self.tabs.minimumSizeHint(), self.screen().availableGeometry().size() * 0.9
        self.tabs.setMinimumSize(min(hint.width(), room.width()), min(hint.height(), room.height()))

    def _action(
        self,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence.StandardKey | str | None = None,
    ) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(shortcut_sequence(shortcut))
        act.triggered.connect(lambda _checked=False: slot())
        return act

    # ================================================================= public
    def open_paths(self, paths: list[str], *, show: bool = True, notes: Sequence[str] = ()) -> None:
        """Load files and folders as the corpus (in a worker; see :class:`CorpusPane`);
        ``show``: make the corpus tab current; ``notes``: added to the corpus's notes."""
        if paths:
            if show:
                self.tabs.setCurrentWidget(self.corpus_pane)
            self.corpus_pane.load_paths(paths, notes=notes)

    def start(self, paths: list[str]) -> None:
        """The window's start on the command line's ``paths``: the tokenizers among them open
        (:meth:`open_given`), then :meth:`Startup.run` reads the others as the corpus (none:
        the last corpus, or the built-in sample), with the notes of their folders."""
        found = self.open_given(paths)
        notes = [found.notes[p] for p in found.corpus if p in found.notes]
        self.startup.run(self.memory.startup_paths(list(found.corpus)), notes=notes)

    def open_given(self, paths: list[str]) -> PathSort:
        """Open the tokenizers among ``paths`` (the command line's, a drop's), sorted by the core's
        rule (:func:`~tokexplorer.core.io.folder_roles.sort_paths`); return the sort, whose ``corpus``
        the caller reads. A model folder's unread model card says so as it opens (at startup under
        the training controls too: :meth:`Startup.add_note`)."""
        from tokexplorer.core.io import sort_paths

        found = sort_paths(paths)
        for p in found.tokenizers:
            note = in_window_terms(found.notes.get(p, ""))
            if note and not self.startup.finished:
                self.startup.add_note(note)
            self.open_model(p, notes=[note] if note else [])
        return found

    def train(self) -> Worker | None:
        """Train with the corpus pane's settings (see :meth:`CorpusPane.start_training`)."""
        self.tabs.setCurrentWidget(self.corpus_pane)
        return self.corpus_pane.start_training()

    def train_from_counts_dialog(self) -> Worker | None:
        """Ask for a word-count table (``tokexplorer count``) and train a byte-level
        BPE from it with the corpus pane's vocab size (see :meth:`CorpusPane.train_from_counts`)."""
        path = file_dialogs.open_file(self, "Train from a word-count table", "Word counts (*.counts);;All files (*)")
        if not path:
            return None
        self.tabs.setCurrentWidget(self.corpus_pane)
        return self.corpus_pane.train_from_counts(path)

    def _show_corpus_in_compare(self, corpus: Corpus | None) -> None:
        """Opening files shows the largest one in the compare pane and the byte
        inspector (at most :data:`COMPARE_MAX_CHARS` characters of it); the Compare
        tab says which file it is and offers the others. A streamed corpus shows its
        sample, and both panes say so."""
        if corpus is not None and corpus.streamed:
            self.state.set_sample_text("".join(corpus.sample), source=STREAMED_SOURCE)
            self.state.set_sample_note(corpus.sample_note)
            self.state.status.emit(f"Compare shows the corpus {corpus.sample_note}")
            return
        files = [f for f in corpus.files if f.text] if corpus is not None else []
        if corpus is None or not files:
            return
        if files[0].name == BUILTIN_SAMPLE_NAME:
            if self.state.sample_text == files[0].text:  # said, not replaced
                self.state.set_sample_text(files[0].text, source=BUILTIN_SOURCE)
            return
        # the largest file that decoded cleanly: the most representative text
        clean = [f for f in files if not f.lossy] or files
        first = max(clean, key=lambda f: f.n_chars)
        text, source = file_sample(corpus, corpus.files.index(first))
        self.state.set_sample_text(text, source=source)
        more = (
            f" (its first {COMPARE_MAX_CHARS:,} of {len(first.text):,} characters)"
            if len(first.text) > COMPARE_MAX_CHARS
            else ""
        )
        prev = self.statusBar().currentMessage()
        crs = line_ending_summary(text)
        eol = f" ({crs} line endings, kept as they are)" if crs else ""
        msg = f"Compare shows {file_label(first.path, corpus.roots)}{more}{eol}"
        self.state.status.emit(f"{prev} · {msg}" if prev and prev != "Ready" else msg)
        self._compare_said = msg

    # ================================================================= raw bytes
    def open_raw_bytes_dialog(self) -> None:
        """Ask for any file and show its bytes exactly as stored in the byte inspector."""
        path = file_dialogs.open_file(self, "Open a file as raw bytes")
        if path:
            self.open_raw_bytes(path)

    def open_raw_bytes(self, path: str) -> None:
        """Show ``path``'s bytes in the byte inspector (raw-bytes mode, invalid UTF-8 flagged)."""
        self.state.raw_bytes_requested.emit(str(path))
        self.tabs.setCurrentWidget(self.bytes_pane)

    # ================================================================= models
    def open_model_dialog(self) -> None:
        """Ask for a tokenizer file and open it (see :meth:`open_model`)."""
        path = file_dialogs.open_file(
            self,
            "Open a tokenizer (any format: told by its content)",
            "All files (*);;JSON (tokenizer.json, tekken.json, vocab.json, .wordpiece) (*.json *.wordpiece);;"
            "Model and rank files (*.model *.model.* *.tiktoken *.bpe);;Text (vocab.txt, merges.txt) (*.txt)",
        )
        if path:
            self.open_model(path)

    def open_model_folder_dialog(self) -> None:
        """Ask for a model folder (as downloaded) and open its tokenizer (see :meth:`open_model`)."""
        path = file_dialogs.open_folder(self, "Open the tokenizer of a model folder")
        if path:
            self.open_model(path)

    def open_model(self, path: str, pattern: str | None = None, *, notes: Sequence[str] = ()) -> Worker:
        """Load a tokenizer file or model folder in a worker, recognised by its
        content (:func:`~tokexplorer.core.backends.spec.load_tokenizer` on the bare path).

        A BPE model becomes ``state.bpe`` (merge table) and the ``"bpe"`` column,
        a WordPiece ``state.wordpiece`` (WordPiece tab) and the ``"wordpiece"``
        column; the others are added as compare columns. A rank file that needs a split
        pattern opens :class:`~tokexplorer.gui.dialogs.pattern.PatternDialog`
        (``self.pattern_dialog``), and is loaded again with the pattern chosen.

        Args:
            path: the file or folder.
            pattern: the split pattern of a rank file (a name or a regular expression), or None.
            notes: said after the model's own notes once it is shown.
        """
        from tokexplorer.core.backends import load_tokenizer

        worker = Worker(lambda cancel: load_tokenizer(os.path.abspath(path), pattern=pattern))
        worker.signals.returned.connect(guarded(self, lambda tok, p=path: self._on_model_loaded(p, tok, notes)))
        worker.signals.errored.connect(guarded(self, lambda exc, p=path: self._on_model_failed(p, exc)))
        self.model_worker = worker
        self.state.status.emit(f"opening {os.path.basename(path)}…")
        worker.start()
        return worker

    def _on_model_failed(self, path: str, exc: BaseException) -> None:
        from tokexplorer.core.backends import PatternNeededError

        if not isinstance(exc, PatternNeededError):
            self.state.error.emit(file_message(path, exc))
            return
        from tokexplorer.gui.dialogs.pattern import PatternDialog

        dialog = PatternDialog(os.path.basename(path), self)
        dialog.accepted.connect(lambda: self.open_model(path, dialog.pattern()))
        dialog.finished.connect(lambda _r: setattr(self, "pattern_dialog", None))
        self.pattern_dialog = dialog
        self.state.status.emit(f"{os.path.basename(path)}: choose its split pattern")
        dialog.open()

    def _on_model_loaded(self, path: str, tok: Tokenizer, notes: Sequence[str] = ()) -> None:
        if isinstance(tok, BPETokenizer) and not self.saving.confirm_replace("bpe", by=os.path.basename(path)):
            self.state.status.emit(f"{os.path.basename(path)} not opened: the BPE it would replace is kept")
            return
        self.state.model_file_opened.emit(path)
        # no default model is trained over it (the startup's of that family stops first)
        self.startup.user_model_opened(tok.family, lambda: self._show_model(path, tok, notes))

    def _show_model(self, path: str, tok: Tokenizer, notes: Sequence[str] = ()) -> None:
        if isinstance(tok, BPETokenizer):
            self.state.replace_tokenizer("bpe", tok)  # first: the merge table's title names its column
            self.state.set_bpe(tok.bpe)
        elif isinstance(tok, WordPieceTokenizer):
            self.state.replace_tokenizer("wordpiece", tok)
            self.state.set_wordpiece(tok.wordpiece)
        else:
            self.state.set_tokenizers(list(self.state.tokenizers) + [tok])
        said = "".join(f" · {n}" for n in [*tok.load_notes, *notes])
        self.state.status.emit(f"opened {os.path.basename(path)}: {tok.description}{said}")

    def save_bpe_dialog(self) -> None:
        """Ask where to save the current BPE model and save it."""
        if self.state.bpe is None:
            self.state.error.emit("no BPE model to save: train one first (Corpus tab)")
            return
        name = self.saving.file_name(self.state.bpe, ".bpe")
        path, _ = file_dialogs.save_file(self, "Save BPE model", name, "tokexplorer BPE (*.bpe);;All files (*)")
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
        self.saving.mark_saved(self.state.bpe, [path])  # File ▸ Open recent lists it (WindowMemory)
        return True

    def event(self, event: QEvent) -> bool:
        """A modal dialog that closed (a file dialog, a question) hands the keyboard back to
        the window, as a window manager would; without one (Xvfb, kiosks) no window had it
        and the shortcuts (Ctrl+Q, Ctrl+M...) did nothing until a click."""
        if event.type() == QEvent.Type.WindowUnblocked and self.isVisible():
            active = QApplication.activeWindow()
            if active is None or not active.isVisible():
                self.activateWindow()
        return super().event(event)

    # ================================================================= messages
    def _show_status(self, message: str) -> None:
        self.statusBar().showMessage(symbols.plain(message))

    def _show_error(self, message: str) -> None:
        self.last_error = message
        self.statusBar().showMessage(symbols.plain(f"⚠ {message}"))
        if not self.show_error_dialogs or self._shown_inline(message):
            return
        if self._dialog is not None and self._dialog.isVisible():
            self._dialog.setText(message)
            return
        box = QMessageBox(QMessageBox.Icon.Warning, "tokexplorer", message, QMessageBox.StandardButton.Ok, self)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        box.finished.connect(lambda _r: setattr(self, "_dialog", None))
        self._dialog = box
        box.open()

    def _shown_inline(self, message: str) -> bool:
        """Whether the tab in view says ``message`` by its control (``inline_message()``): no dialog then."""
        inline = getattr(self.tabs.currentWidget(), "inline_message", None)
        return callable(inline) and inline() == message

    # ================================================================= drag and drop
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        accept_paths(event)

    def dropEvent(self, event: QDropEvent) -> None:
        paths = accept_paths(event)
        if not paths:
            return
        found = self.open_given(paths)
        if found.corpus:
            self.open_paths(list(found.corpus), notes=[found.notes[p] for p in found.corpus if p in found.notes])

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.saving.confirm_quit():  # a trained model is unsaved and the user cancelled
            event.ignore()
            return
        self.memory.save()
        self.corpus_pane.cancel_training()
        super().closeEvent(event)
