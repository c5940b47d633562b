"""The corpus pane: open training files, check how they were decoded, train.

The user opens files or a folder (buttons, the File menu, or drag and drop);
each file is listed with its size, encoding (guessed or not, BOM), line
endings, characters and lines. A file whose encoding was guessed or is wrong
can be re-read with another encoding. Files that were refused (binary, empty,
undecodable) are listed under *Problems*, never dropped silently.

The training controls train our byte-level BPE or a SentencePiece model on the
corpus in a :class:`~tokexplorer.gui.workers.Worker`, with a progress bar and
Cancel. A trained BPE becomes ``AppState.bpe`` (the merge table) and the
``"bpe"`` compare column; a SentencePiece model replaces the
``"sentencepiece"`` column.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QMimeData, QPoint, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.errors import TokexplorerError
from tokexplorer.core.text import PATTERN_NAMES
from tokexplorer.core.types import Progress
from tokexplorer.gui.models.corpus_model import (
    COL_ENCODING,
    COL_FILE,
    CorpusTableModel,
    encoding_label,
    is_utf8,
)
from tokexplorer.gui.models.merge_model import RawRole
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.sp_options import coverage_spin
from tokexplorer.gui.workers import Worker, guarded, user_message

#: Encodings offered for re-reading a file: (label, Python codec name).
ENCODING_CHOICES: tuple[tuple[str, str], ...] = (
    ("UTF-8", "utf-8"),
    ("GBK", "gbk"),
    ("GB18030", "gb18030"),
    ("Big5", "big5"),
    ("Shift_JIS", "shift_jis"),
    ("UTF-16", "utf-16"),
    ("Latin-1", "latin-1"),
    ("cp1252", "cp1252"),
)

#: Training algorithms: (label, key). Keys: ``"bpe"`` (ours), ``"sp-bpe"``, ``"sp-unigram"``.
ALGORITHMS: tuple[tuple[str, str], ...] = (
    ("byte-level BPE (ours)", "bpe"),
    ("SentencePiece BPE", "sp-bpe"),
    ("SentencePiece unigram", "sp-unigram"),
)

DEFAULT_VOCAB_SIZE = 4096
DEFAULT_SPECIAL_TOKENS = "<|endoftext|>"


def parse_special_tokens(text: str) -> list[str]:
    """Split the special-tokens field on commas and whitespace, keeping order, no duplicates.

    >>> parse_special_tokens("<|endoftext|>, <|pad|>  <|endoftext|>")
    ['<|endoftext|>', '<|pad|>']
    """
    return list(dict.fromkeys(t for t in re.split(r"[,\s]+", text) if t))


def paths_from_mime(mime: QMimeData) -> list[str]:
    """Local file and folder paths dropped or pasted as URLs (others are ignored)."""
    if not mime.hasUrls():
        return []
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile() and u.toLocalFile()]


@dataclass
class TrainingResult:
    """What :attr:`CorpusPane.training_finished` carries.

    Attributes:
        algorithm: ``"bpe"``, ``"sp-bpe"`` or ``"sp-unigram"``.
        model: the ``BPE`` (ours) or the SentencePiece :class:`Tokenizer`.
        tokenizer: the :class:`Tokenizer` put into the compare columns.
        report: the ``TrainReport`` (our BPE) or None.
        message: the one-line summary shown to the user.
        vocab_size: the vocabulary size asked for (after any automatic fit).
    """

    algorithm: str
    model: Any
    tokenizer: Any
    report: Any = None
    message: str = ""
    vocab_size: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class _SPOutcome:
    """What a SentencePiece training worker returns (a model, or the size limit it hit)."""

    tokenizer: Any
    vocab_size: int
    note: str = ""
    max_vocab_size: int = 0


class CorpusPane(QWidget):
    """Corpus files, their encodings and problems, and the training controls.

    Args:
        state: the shared application state (``corpus``, ``bpe``, tokenizers).
        parent: Qt parent widget.

    Signals:
        corpus_loaded(object): a corpus was loaded and is now ``state.corpus``.
        load_failed(str): opening files failed entirely (one-line reason).
        file_reread(int): the file at this row was re-read with another encoding.
        training_started(str): training began (the algorithm key).
        training_progress(object): a :class:`Progress` of the running training.
        training_finished(object): a :class:`TrainingResult`.
        training_cancelled(): the user cancelled training.
        training_failed(str): training failed (one-line reason).

    Attributes:
        last_worker: the most recent training :class:`Worker` (or None).
        load_worker: the most recent corpus-reading :class:`Worker` (or None).
        model: the :class:`CorpusTableModel` of the file table.
    """

    corpus_loaded = Signal(object)
    load_failed = Signal(str)
    file_reread = Signal(int)
    training_started = Signal(str)
    training_progress = Signal(object)
    training_finished = Signal(object)
    training_cancelled = Signal()
    training_failed = Signal(str)

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.corpus: Any = None
        self.last_worker: Worker | None = None
        self.load_worker: Worker | None = None
        self.reread_worker: Worker | None = None
        self._load_errors: list[str] = []
        self._training_algo = ""
        self._training_vocab = 0
        self._training_auto_fit = False
        self.setAcceptDrops(True)
        self._build_ui()
        self._update_training_controls()
        self._set_idle()

    # ================================================================= UI
    def _build_ui(self) -> None:
        # -- files
        self.open_files_button = QPushButton("Open files…")
        self.open_files_button.clicked.connect(self.open_files_dialog)
        self.open_folder_button = QPushButton("Open folder…")
        self.open_folder_button.clicked.connect(self.open_folder_dialog)
        self.encoding_combo = QComboBox()
        for label, codec in ENCODING_CHOICES:
            self.encoding_combo.addItem(label, codec)
        self.encoding_combo.setToolTip("Encoding used to re-read the selected file")
        self.reread_button = QPushButton("Re-read as")
        self.reread_button.setToolTip(
            "Re-read the selected file with the chosen encoding"
        )
        self.reread_button.clicked.connect(self._reread_selected)
        self.load_status = QLabel("Drop text files or folders here, or open them.")

        top = QHBoxLayout()
        top.addWidget(self.open_files_button)
        top.addWidget(self.open_folder_button)
        top.addSpacing(16)
        top.addWidget(self.reread_button)
        top.addWidget(self.encoding_combo)
        top.addStretch(1)
        top.addWidget(self.load_status)

        self.model = CorpusTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(RawRole)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(
            -1, Qt.SortOrder.AscendingOrder
        )  # files in the order read until a header is clicked
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.setColumnWidth(COL_FILE, 220)
        self.table.setColumnWidth(COL_ENCODING, 170)
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._table_menu)
        self.table.selectionModel().selectionChanged.connect(self._on_file_selected)

        self.totals_label = QLabel()
        self.problems_label = QLabel("Problems: none")
        self.problems = QListWidget()
        self.problems.setMaximumHeight(90)
        self.problems.setAlternatingRowColors(True)

        files_box = QWidget()
        fl = QVBoxLayout(files_box)
        fl.setContentsMargins(0, 0, 0, 0)
        fl.addLayout(top)
        fl.addWidget(self.table, 1)
        fl.addWidget(self.totals_label)
        fl.addWidget(self.problems_label)
        fl.addWidget(self.problems)

        # -- training
        self.algorithm_combo = QComboBox()
        for label, key in ALGORITHMS:
            self.algorithm_combo.addItem(label, key)
        self.algorithm_combo.currentIndexChanged.connect(self._update_training_controls)
        self.vocab_spin = QSpinBox()
        self.vocab_spin.setRange(256, 1_000_000)
        self.vocab_spin.setValue(DEFAULT_VOCAB_SIZE)
        self.vocab_spin.setGroupSeparatorShown(True)
        self.vocab_spin.setToolTip(
            "Number of token ids: 256 bytes + merges + special tokens (byte-level BPE)"
        )
        self.pattern_combo = QComboBox()
        for name in PATTERN_NAMES:
            self.pattern_combo.addItem(name, name)
        self.pattern_combo.setToolTip(
            "Pre-tokenizer: the split pattern applied before merging (merges never cross a chunk)"
        )
        self.specials_edit = QLineEdit(DEFAULT_SPECIAL_TOKENS)
        self.specials_edit.setToolTip(
            "Special tokens, separated by commas or spaces; they get the ids after the merges"
        )

        self.sp_box = QGroupBox("SentencePiece options")
        self.coverage_spin = coverage_spin()
        self.byte_fallback_check = QCheckBox(
            "byte fallback (unknown characters as <0xNN> byte pieces)"
        )
        self.normalization_combo = QComboBox()
        self.normalization_combo.addItem("nmt_nfkc (default)", "nmt_nfkc")
        self.normalization_combo.addItem("identity (keep text as is)", "identity")
        self.remove_ws_check = QCheckBox("remove extra whitespaces")
        self.remove_ws_check.setChecked(True)
        spf = QFormLayout(self.sp_box)
        spf.addRow("Character coverage:", self.coverage_spin)
        spf.addRow("Normalization:", self.normalization_combo)
        spf.addRow(self.byte_fallback_check)
        spf.addRow(self.remove_ws_check)

        form = QFormLayout()
        form.addRow("Algorithm:", self.algorithm_combo)
        form.addRow("Vocab size:", self.vocab_spin)
        form.addRow("Pre-tokenizer:", self.pattern_combo)
        form.addRow("Special tokens:", self.specials_edit)

        self.train_button = QPushButton("Train")
        self.train_button.clicked.connect(self.start_training)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel_training)
        self.progress = QProgressBar()
        self.progress.setTextVisible(True)
        self.train_message = QLabel()
        self.train_message.setWordWrap(True)
        self.train_message.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
        )

        buttons = QHBoxLayout()
        buttons.addWidget(self.train_button)
        buttons.addWidget(self.cancel_button)
        buttons.addStretch(1)

        train_box = QGroupBox("Train a tokenizer on this corpus")
        tl = QVBoxLayout(train_box)
        tl.addLayout(form)
        tl.addWidget(self.sp_box)
        tl.addLayout(buttons)
        tl.addWidget(self.progress)
        tl.addWidget(self.train_message)
        tl.addStretch(1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(files_box)
        splitter.addWidget(train_box)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)
        self._update_totals()

    # ================================================================= files
    def open_files_dialog(self) -> None:
        """Ask for text files and load them as the corpus."""
        paths, _ = QFileDialog.getOpenFileNames(
            self,
            "Open training text files",
            "",
            "Text files (*.txt *.md *.csv *.json *.jsonl *.py *.html);;All files (*)",
        )
        if paths:
            self.load_paths(paths)

    def open_folder_dialog(self) -> None:
        """Ask for a folder and load its text files as the corpus."""
        path = QFileDialog.getExistingDirectory(self, "Open a folder of text files")
        if path:
            self.load_paths([path])

    def load_paths(self, paths: Iterable[str]) -> Worker | None:
        """Read files and folders as the new corpus, in a worker.

        Args:
            paths: file and folder paths (folders are read recursively by the core).

        Returns:
            The reading :class:`Worker` (also :attr:`load_worker`), or None when
            ``paths`` is empty. On success :attr:`corpus_loaded` is emitted.
        """
        paths = [str(p) for p in paths if str(p)]
        if not paths:
            return None
        from tokexplorer.core.io import read_corpus

        if self.load_worker is not None and not self.load_worker.done:
            self.load_worker.cancel()
        worker = Worker(lambda cancel: read_corpus(paths, cancel=cancel))
        # Only the latest request counts: a superseded read delivers nothing.
        worker.signals.progress.connect(
            guarded(
                self,
                lambda p, w=worker: (
                    self._on_load_progress(p) if w is self.load_worker else None
                ),
            )
        )
        worker.signals.returned.connect(
            guarded(
                self,
                lambda c, w=worker: (
                    self.set_corpus(c) if w is self.load_worker else None
                ),
            )
        )
        worker.signals.errored.connect(
            guarded(
                self,
                lambda exc, w=worker: (
                    self._on_load_error(user_message(exc)) if w is self.load_worker else None
                ),
            )
        )
        worker.signals.cancelled.connect(
            guarded(self, lambda: self.load_status.setText("reading cancelled"))
        )
        self.load_worker = worker
        shown = os.path.basename(paths[0].rstrip("/\\")) or paths[0]
        more = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
        self.load_status.setText(f"reading {shown}{more}…")
        self.state.status.emit(f"reading {shown}{more}…")
        worker.start()
        return worker

    def set_corpus(self, corpus: Any) -> None:
        """Show ``corpus`` (a ``tokexplorer.core.io.corpus.Corpus``) and make it ``state.corpus``."""
        self.corpus = corpus
        self.model.set_corpus(corpus)
        self.table.resizeColumnsToContents()
        self._load_errors = []
        self._refresh_problems()
        self._update_totals()
        n = len(corpus.files) if corpus is not None else 0
        n_err = len(getattr(corpus, "errors", []) or []) if corpus is not None else 0
        msg = f"{n} file{'s' if n != 1 else ''} loaded"
        if n_err:
            msg += f", {n_err} refused (see Problems)"
        self.load_status.setText(msg)
        self.state.status.emit(msg)
        self.state.set_corpus(corpus)
        self.corpus_loaded.emit(corpus)

    def reread_file(self, row: int, encoding: str) -> Worker | None:
        """Re-read the file at model ``row`` with ``encoding`` (a Python codec name), in a worker.

        Returns:
            The :class:`Worker`; :attr:`file_reread` is emitted with ``row`` when done.
        """
        if self.corpus is None or not (0 <= row < self.model.rowCount()):
            return None
        f = self.model.file_at(row)
        path = str(f.path)
        if not os.path.isfile(path):
            self._report_error(
                f"{os.path.basename(path)} is not a file on disk; it cannot be re-read"
            )
            return None
        from tokexplorer.core.io import read_text_file

        worker = Worker(lambda cancel: read_text_file(path, encoding=encoding))
        worker.signals.returned.connect(
            guarded(self, lambda new, row=row: self._on_reread(row, new))
        )
        worker.signals.errored.connect(
            guarded(
                self,
                lambda exc, p=path, e=encoding: self._report_error(
                    f"{os.path.basename(p)} as {e}: {user_message(exc)}", problem=True
                ),
            )
        )
        self.reread_worker = worker
        worker.start()
        return worker

    def _on_reread(self, row: int, new_file: Any) -> None:
        if self.corpus is None or row >= self.model.rowCount():
            return
        self.model.replace_file(row, new_file)
        files = self.model.files
        self.corpus = self._corpus_with_files(self.corpus, files)
        self._update_totals()
        self._refresh_problems()
        msg = f"{os.path.basename(str(new_file.path))} re-read as {encoding_label(new_file)}"
        self.load_status.setText(msg)
        self.state.status.emit(msg)
        self.state.set_corpus(self.corpus)
        self.file_reread.emit(row)

    @staticmethod
    def _corpus_with_files(corpus: Any, files: list[Any]) -> Any:
        import dataclasses

        if dataclasses.is_dataclass(corpus):
            try:
                return dataclasses.replace(corpus, files=tuple(files))
            except (TypeError, ValueError):
                pass
        corpus.files = files
        return corpus

    def _selected_row(self) -> int:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return -1
        return self.proxy.mapToSource(rows[0]).row()

    def _reread_selected(self) -> None:
        row = self._selected_row()
        if row < 0:
            self._report_error("select a file in the table first")
            return
        self.reread_file(row, self.encoding_combo.currentData())

    def _on_file_selected(self, *args: Any) -> None:
        row = self._selected_row()
        self.reread_button.setEnabled(row >= 0)
        if row < 0:
            return
        f = self.model.file_at(row)
        codec = str(getattr(f, "encoding", "") or "").lower().replace("_", "-")
        for i, (_label, c) in enumerate(ENCODING_CHOICES):
            if c.replace("_", "-") == codec:
                self.encoding_combo.setCurrentIndex(i)
                break

    def _table_menu(self, pos: QPoint) -> None:
        index = self.table.indexAt(pos)
        if not index.isValid():
            return
        row = self.proxy.mapToSource(index).row()
        f = self.model.file_at(row)
        menu = QMenu(self)
        sub = menu.addMenu("Re-read as")
        for label, codec in ENCODING_CHOICES:
            act = QAction(label, sub)
            act.triggered.connect(
                lambda _checked=False, r=row, c=codec: self.reread_file(r, c)
            )
            sub.addAction(act)
        sub.setEnabled(os.path.isfile(str(f.path)))
        if not is_utf8(f) or getattr(f, "encoding_guessed", False):
            menu.addSeparator()
            menu.addAction(
                "This file's encoding was guessed or is not UTF-8"
            ).setEnabled(False)
        menu.exec(self.table.viewport().mapToGlobal(pos))

    def _on_load_progress(self, p: Progress) -> None:
        if p.total:
            self.load_status.setText(
                f"{p.phase}: {p.done:,} of {p.total:,} {p.message}".rstrip()
            )
        else:
            self.load_status.setText(f"{p.phase}… {p.message}".rstrip())

    def _on_load_error(self, message: str) -> None:
        self._load_errors.append(message)
        self._refresh_problems()
        self.load_status.setText("nothing loaded")
        self.state.error.emit(message)
        self.load_failed.emit(message)

    def _refresh_problems(self) -> None:
        errors = (
            list(getattr(self.corpus, "errors", []) or [])
            if self.corpus is not None
            else []
        )
        errors += self._load_errors
        self.problems.clear()
        self.problems.addItems([str(e) for e in errors])
        text = f"Problems: {len(errors)}" if errors else "Problems: none"
        lossy = [f for f in getattr(self.corpus, "files", ()) if getattr(f, "lossy", False)]
        if lossy:
            n = len(lossy)
            text += (
                f" · {n} file{'s' if n != 1 else ''} read with U+FFFD where bytes could not be "
                "decoded (highlighted; see the notes)"
            )
        self.problems_label.setText(text)

    def problem_messages(self) -> list[str]:
        """The messages listed under Problems (refused files, failed re-reads)."""
        return [self.problems.item(i).text() for i in range(self.problems.count())]

    def _update_totals(self) -> None:
        files = self.model.files
        n_bytes = sum(int(f.size_bytes) for f in files)
        n_chars = sum(int(f.n_chars) for f in files)
        n_lines = sum(int(f.n_lines) for f in files)
        self.totals_label.setText(
            f"{len(files):,} file{'s' if len(files) != 1 else ''} · {n_bytes:,} bytes · "
            f"{n_chars:,} character{'s' if n_chars != 1 else ''} · {n_lines:,} line{'s' if n_lines != 1 else ''}"
        )

    # drag and drop ----------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if paths_from_mime(event.mimeData()):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        paths = paths_from_mime(event.mimeData())
        if paths:
            event.acceptProposedAction()
            self.load_paths(paths)
        else:
            event.ignore()

    # ================================================================= training
    def algorithm(self) -> str:
        """The selected algorithm key: ``"bpe"``, ``"sp-bpe"`` or ``"sp-unigram"``."""
        return self.algorithm_combo.currentData()

    def set_algorithm(self, key: str) -> None:
        """Select an algorithm by key (see :data:`ALGORITHMS`)."""
        i = self.algorithm_combo.findData(key)
        if i < 0:
            raise ValueError(f"unknown algorithm {key!r}")
        self.algorithm_combo.setCurrentIndex(i)

    def is_training(self) -> bool:
        """True while a training worker runs."""
        return self._training_algo != ""

    def _update_training_controls(self, *args: Any) -> None:
        sp = self.algorithm() != "bpe"
        self.sp_box.setEnabled(sp)
        self.pattern_combo.setEnabled(not sp)
        self.specials_edit.setEnabled(not sp)
        self.vocab_spin.setMinimum(8 if sp else 256)

    def _set_idle(self) -> None:
        self.train_button.setEnabled(True)
        self.cancel_button.setEnabled(False)
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.progress.setFormat("idle")
        self._training_algo = ""

    def _set_busy(self, algo: str) -> None:
        self.train_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.progress.setRange(0, 0)
        self.progress.setFormat("starting…")
        self._training_algo = algo

    def _texts(self) -> list[str]:
        if self.corpus is None:
            return []
        return [f.text for f in self.corpus.files if f.text]

    def _confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question (tests replace this method)."""
        answer = QMessageBox.question(
            self,
            title,
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def start_training(
        self,
        *,
        vocab_size: int | None = None,
        algorithm: str | None = None,
        auto_fit: bool = False,
        confirm: bool = True,
        allow_damaged: bool = False,
    ) -> Worker | None:
        """Validate the settings and train on the corpus in a worker.

        Args:
            vocab_size: overrides the vocab size box (the box keeps its value).
            algorithm: overrides the algorithm combo (``"bpe"``, ``"sp-bpe"``, ``"sp-unigram"``).
            auto_fit: for SentencePiece, retry with the largest size it suggests
                when the corpus is too small, without asking.
            confirm: ask before training on lossily decoded text (U+FFFD);
                when False such text is refused.
            allow_damaged: train on lossily decoded text without asking (the
                startup models on a corpus with a few undecodable bytes).

        Returns:
            The training :class:`Worker` (also :attr:`last_worker`), or None when
            the settings were refused (the reason is shown and put on ``state.error``).
        """
        if self.is_training():
            self._report_error("training is already running; cancel it first")
            return None
        algo = algorithm or self.algorithm()
        vocab = int(vocab_size if vocab_size is not None else self.vocab_spin.value())
        texts = self._texts()
        if not texts:
            self._report_error(
                "nothing to train on: the corpus is empty; open some text files first"
            )
            return None
        lossy = [f for f in self.corpus.files if getattr(f, "lossy", False)]
        if lossy and not allow_damaged:
            names = ", ".join(os.path.basename(str(f.path)) for f in lossy[:3])
            more = f" and {len(lossy) - 3} more" if len(lossy) > 3 else ""
            question = (
                f"{names}{more} could not be decoded exactly: the text holds U+FFFD replacement "
                "characters (�) where bytes were lost. Re-read them with the right encoding, "
                "or train on the damaged text anyway?"
            )
            if not confirm or not self._confirm("Train on damaged text?", question):
                self._report_error(
                    "training refused: the corpus holds lossily decoded text (U+FFFD)"
                )
                return None

        if algo == "bpe":
            from tokexplorer.core.bpe import train_bpe_iter, validate_vocab_size

            specials = parse_special_tokens(self.specials_edit.text())
            pattern = self.pattern_combo.currentData()
            try:
                validate_vocab_size(vocab, len(specials))
            except TokexplorerError as exc:
                self._report_error(str(exc))
                return None

            def work(cancel):
                return train_bpe_iter(
                    texts,
                    vocab_size=vocab,
                    pattern=pattern,
                    special_tokens=specials,
                    cancel=cancel,
                )

        else:
            from tokexplorer.core.backends import (
                VocabTooLargeError,
                VocabTooSmallError,
                train_sentencepiece,
            )

            options = {
                "model_type": "bpe" if algo == "sp-bpe" else "unigram",
                "character_coverage": float(self.coverage_spin.value()),
                "byte_fallback": self.byte_fallback_check.isChecked(),
                "normalization_rule_name": self.normalization_combo.currentData(),
                "remove_extra_whitespaces": self.remove_ws_check.isChecked(),
            }

            def work(cancel):
                try:
                    return _SPOutcome(
                        train_sentencepiece(texts, vocab_size=vocab, cancel=cancel, **options), vocab
                    )
                except VocabTooLargeError as exc:
                    if not auto_fit:
                        return _SPOutcome(
                            None, vocab, max_vocab_size=exc.max_vocab_size
                        )
                    if cancel():
                        raise
                    tok = train_sentencepiece(
                        texts, vocab_size=exc.max_vocab_size, cancel=cancel, **options
                    )
                    note = (
                        f"vocab {vocab:,} is too large for this corpus; "
                        f"trained with {exc.max_vocab_size:,}, the most SentencePiece allows"
                    )
                    return _SPOutcome(tok, exc.max_vocab_size, note=note)
                except VocabTooSmallError as exc:
                    if not auto_fit or cancel():
                        raise
                    # a corpus with many distinct characters (Chinese) needs a piece each
                    tok = train_sentencepiece(texts, vocab_size=exc.min_vocab_size, cancel=cancel, **options)
                    note = (
                        f"vocab {vocab:,} is too small for this corpus; trained with "
                        f"{exc.min_vocab_size:,}, the least SentencePiece accepts"
                    )
                    return _SPOutcome(tok, exc.min_vocab_size, note=note)

        self._training_vocab = vocab
        self._training_auto_fit = auto_fit
        worker = Worker(work)
        worker.signals.progress.connect(self._on_train_progress)
        worker.signals.returned.connect(
            guarded(
                self, lambda result, a=algo, v=vocab: self._on_trained(a, v, result)
            )
        )
        worker.signals.errored.connect(self._on_train_error)
        worker.signals.cancelled.connect(self._on_train_cancelled)
        self.last_worker = worker
        self._set_busy(algo)
        label = {k: lbl for lbl, k in ALGORITHMS}[algo]
        self.train_message.setText(f"training {label}, vocab {vocab:,}…")
        self.state.status.emit(f"training {label}, vocab {vocab:,}…")
        self.training_started.emit(algo)
        worker.start()
        return worker

    def cancel_training(self) -> None:
        """Ask the running training to stop (the UI returns to idle when it has)."""
        if self.last_worker is not None and not self.last_worker.done:
            self.last_worker.cancel()
            self.cancel_button.setEnabled(False)
            self.progress.setFormat("cancelling…")

    def _on_train_progress(self, p: Progress) -> None:
        if self._training_algo == "":
            return
        if p.total:
            total = min(int(p.total), 2**31 - 1)
            if self.progress.maximum() != total:
                self.progress.setRange(0, total)
            self.progress.setValue(min(int(p.done), total))
            unit = " merges" if p.phase == "merging" else ""
            self.progress.setFormat(f"{p.phase}: {p.done:,} of {p.total:,}{unit}")
        else:
            self.progress.setRange(0, 0)
            self.progress.setFormat(f"{p.phase}…")
        if p.phase == "merging" and isinstance(p.detail, list):
            self.state.training_merges.emit(p.detail)
        self.training_progress.emit(p)

    def _on_trained(self, algo: str, vocab: int, result: Any) -> None:
        self._set_idle()
        try:
            if algo == "bpe":
                from tokexplorer.core.backends import BPETokenizer

                bpe, report = result
                msgs = list(getattr(report, "messages", []) or [])
                message = (
                    "; ".join(msgs)
                    if msgs
                    else (
                        f"learned {report.learned_merges} of {report.requested_merges} requested merges; "
                        f"vocab {report.vocab_size}"
                    )
                )
                tok = BPETokenizer(bpe)
                out = TrainingResult(algo, bpe, tok, report, message, vocab)
                self.state.set_bpe(bpe)
                self.state.replace_tokenizer("bpe", tok)
            else:
                outcome: _SPOutcome = result
                if outcome.tokenizer is None:
                    self._offer_sp_limit(algo, vocab, outcome.max_vocab_size)
                    return
                tok = outcome.tokenizer
                parts = [f"trained {tok.description}"]
                if outcome.note:
                    parts.insert(0, outcome.note)
                parts += list(getattr(tok, "train_notes", ()) or ())
                message = "; ".join(parts)
                out = TrainingResult(
                    algo, tok, tok, None, message, outcome.vocab_size, notes=parts
                )
                self.state.replace_tokenizer("sentencepiece", tok)
        except TokexplorerError as exc:
            self._report_error(str(exc))
            self.training_failed.emit(str(exc))
            return
        self.progress.setRange(0, 1)
        self.progress.setValue(1)
        self.progress.setFormat("done")
        self.train_message.setText(message)
        self.state.status.emit(message)
        self.training_finished.emit(out)

    def _offer_sp_limit(self, algo: str, vocab: int, limit: int) -> None:
        """SentencePiece found too few pieces (vocabulary too large for the corpus): offer to train with its maximum."""
        note = f"vocab {vocab:,} is too large for this corpus; SentencePiece can make at most {limit:,} pieces"
        if limit > 0 and self._confirm(
            "Vocabulary too large", f"{note}. Train with {limit:,}?"
        ):
            self.state.status.emit(f"{note}: training with {limit:,}")
            if self.start_training(vocab_size=limit, algorithm=algo) is not None:
                self.train_message.setText(f"{note}: training with {limit:,}…")
                return
        self.progress.setFormat("not trained")
        self._report_error(note)
        self.training_failed.emit(note)

    def _on_train_error(self, exc: BaseException) -> None:
        message = user_message(exc)
        self._set_idle()
        self.progress.setFormat("failed")
        self._report_error(f"training failed: {message}")
        self.training_failed.emit(message)

    def _on_train_cancelled(self) -> None:
        self._set_idle()
        self.progress.setFormat("cancelled")
        self.train_message.setText("training cancelled")
        self.state.status.emit("training cancelled")
        self.training_cancelled.emit()

    # ================================================================= messages
    def _report_error(self, message: str, *, problem: bool = False) -> None:
        self.train_message.setText(message)
        if problem:
            self._load_errors.append(message)
            self._refresh_problems()
        self.state.error.emit(message)


__all__ = [
    "ALGORITHMS",
    "ENCODING_CHOICES",
    "CorpusPane",
    "TrainingResult",
    "parse_special_tokens",
    "paths_from_mime",
]
