"""The corpus's file list: opening files and folders, re-reading a file with
another encoding, and the files that were refused.

Reading runs in a worker (the latest request wins) through
:func:`~tokexplorer.core.io.stream_corpus`: a corpus of at least
:attr:`CorpusFileList.stream_bytes` is streamed (no text held; each file's row
appears as soon as it is read, with a progress bar and Cancel). Each file is a
row of a :class:`~tokexplorer.gui.models.corpus_model.CorpusTableModel`,
refused files and failed re-reads are listed under *Problems*.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, QSortFilterProxyModel, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.io.labels import file_label, label_message, label_problem, parent_folders
from tokexplorer.core.io.sizes import format_size
from tokexplorer.core.io.streaming import STREAM_BYTES
from tokexplorer.core.types import Progress, run_to_end
from tokexplorer.gui import file_dialogs
from tokexplorer.gui.models.corpus_model import (
    COL_ENCODING,
    COL_FILE,
    COL_NOTES,
    ENCODING_CHOICES,
    CorpusTableModel,
    is_utf8,
)
from tokexplorer.gui.models.table_model import RawRole
from tokexplorer.gui.panes.corpus_pane.problems import ProblemsBox, in_window_terms, nothing_loaded
from tokexplorer.gui.plural import plural
from tokexplorer.gui.state import AppState, corpus_name
from tokexplorer.gui.widgets.elided_label import ElidedLabel
from tokexplorer.gui.widgets.table_fit import ColumnShare
from tokexplorer.gui.workers import LatestRequest, Worker, guarded, user_message

if TYPE_CHECKING:
    from tokexplorer.core.io import Corpus, CorpusFile, FileEncodings

#: Seconds between two progress updates of a read (fewer relayouts of the list).
PROGRESS_SECONDS = 0.1


def _stream_one(path: str, encoding: str) -> CorpusFile:
    """One file read again with ``encoding`` without holding its text (see
    :func:`~tokexplorer.core.io.stream_corpus`).

    Raises:
        CorpusError: it cannot be read that way (the reason in one line).
    """
    from tokexplorer.core.errors import CorpusError
    from tokexplorer.core.io import stream_corpus

    corpus = run_to_end(stream_corpus([path], encoding=encoding, stream_bytes=0))
    if not corpus.files:
        raise CorpusError(corpus.errors[0])
    return corpus.files[0]


class CorpusFileList(QWidget):
    """The files of the corpus, their encodings and problems.

    Args:
        state: the shared application state (``corpus``, status and errors).
        parent: Qt parent widget.

    Signals:
        corpus_loaded(object): a corpus was loaded and is now ``state.corpus``.
        load_failed(str): opening files failed entirely (one-line reason).
        file_reread(int): the file at this row was re-read with another encoding.
        error_reported(str): a one-line error for the user that is not a load
            failure (a re-read that failed, no file selected).

    Attributes:
        corpus: the :class:`~tokexplorer.core.io.Corpus` shown, or None.
        model: the :class:`CorpusTableModel` of the file table.
        stream_bytes: corpora at least this large (bytes on disk) are streamed
            (:data:`~tokexplorer.core.io.streaming.STREAM_BYTES`; tests set it lower).
        fallback: the corpus shown instead when a read gives no text and none with text is
            shown (the built-in sample while the window starts), or None.
    """

    corpus_loaded = Signal(object)
    load_failed = Signal(str)
    file_reread = Signal(int)
    error_reported = Signal(str)

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.corpus: Corpus | None = None
        self.requested_paths: list[str] = []  # the paths of the last load_paths (recent files)
        self.file_encodings: FileEncodings | None = None  # codecs chosen by file, for the next loads
        self.reread_worker: Worker | None = None
        self.stream_bytes = STREAM_BYTES
        self.fallback: Corpus | None = None
        self._load_job = LatestRequest(self)
        self._streamed_rows: list[CorpusFile] = []  # rows shown while a streamed read runs
        self._shown_progress = 0.0  # time.monotonic() of the last progress shown
        self._load_errors: list[str] = []
        self._refused: list[tuple[str, list[str]]] = []  # loads that kept the corpus: (said, files)
        self._reading_roots: tuple[str, ...] = ()  # the paths of the read under way (name its files)
        self._build_ui()
        self._update_totals()

    def _build_ui(self) -> None:
        self.open_files_button = QPushButton("Open files…")
        self.open_files_button.clicked.connect(self.open_files_dialog)
        self.open_folder_button = QPushButton("Open folder…")
        self.open_folder_button.clicked.connect(self.open_folder_dialog)
        self.encoding_combo = QComboBox()
        for label, codec in ENCODING_CHOICES:
            self.encoding_combo.addItem(label, codec)
        self.encoding_combo.setToolTip("Encoding used to re-read the selected file")
        self.reread_button = QPushButton("Re-read as")
        self.reread_button.setToolTip("Re-read the selected file with the chosen encoding")
        self.reread_button.clicked.connect(self._reread_selected)
        # a long name read or message is cut with "…" (all of it in the tooltip): the row never widens
        # two lines before it is cut (the whole text is its tooltip then)
        self.load_status = ElidedLabel("Drop text files or folders here, or open them.", lines=2)
        self.load_status.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.load_progress = QProgressBar()
        self.load_progress.setRange(0, 1000)
        self.load_progress.setFixedWidth(160)  # a size that never changes: no new layout per update
        self.load_progress.setVisible(False)
        self.cancel_load_button = QPushButton("Cancel")
        self.cancel_load_button.setToolTip("Stop reading the files (the corpus shown before is kept)")
        self.cancel_load_button.clicked.connect(self.cancel_loading)
        self.cancel_load_button.setVisible(False)

        top = QHBoxLayout()
        top.addWidget(self.open_files_button)
        top.addWidget(self.open_folder_button)
        top.addSpacing(16)
        top.addWidget(self.reread_button)
        top.addWidget(self.encoding_combo)
        top.addWidget(self.load_status, 1)
        top.addWidget(self.load_progress)
        top.addWidget(self.cancel_load_button)

        self.totals_label = QLabel()
        self.problems_box = ProblemsBox()  # every problem and note whole; its heading never moves the pane
        self.problems_box.file_clicked.connect(self._select_file)
        self.problems_label, self.problems = self.problems_box.label, self.problems_box.list

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(top)
        layout.addWidget(self._build_table(), 1)
        layout.addWidget(self.totals_label)
        layout.addWidget(self.problems_box)

    def _build_table(self) -> QTableView:
        self.model = CorpusTableModel(self)
        self.proxy = QSortFilterProxyModel(self)
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(RawRole)
        self.table = QTableView()
        self.table.setModel(self.proxy)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(-1, Qt.SortOrder.AscendingOrder)  # files in the order read until a header is clicked
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setWordWrap(False)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        # the file's name takes the width left over; a long note gives up width first
        self.columns = ColumnShare(self.table, stretch=COL_FILE, squeeze=(COL_NOTES, COL_ENCODING))
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._table_menu)
        self.table.selectionModel().selectionChanged.connect(self._on_file_selected)
        return self.table

    # ================================================================= opening
    def open_files_dialog(self) -> None:
        """Ask for text files and load them as the corpus."""
        paths = file_dialogs.open_files(
            self,
            "Open training text files",
            "Text files (*.txt *.md *.csv *.json *.jsonl *.py *.html);;All files (*)",
        )
        if paths:
            self.load_paths(paths)

    def open_folder_dialog(self) -> None:
        """Ask for a folder and load its text files as the corpus."""
        path = file_dialogs.open_folder(self, "Open a folder of text files")
        if path:
            self.load_paths([path])

    def load_paths(self, paths: Iterable[str], *, notes: Sequence[str] = ()) -> Worker | None:
        """Read files and folders as the new corpus, in a worker.

        A read still running is cancelled: only the latest request delivers.

        Args:
            paths: file and folder paths (folders are read recursively by the core).
            notes: added to the corpus's notes (what sorting the paths noted).

        Returns:
            The reading :class:`Worker`, or None when ``paths`` is empty. On
            success :attr:`corpus_loaded` is emitted. When nothing with text
            was read (an empty folder, only refused or empty files) while a
            corpus with text is shown, that corpus is kept and
            :attr:`load_failed` says why (the refusals go under Problems).
        """
        paths = [str(p) for p in paths if str(p)]
        if not paths:
            return None
        self.requested_paths = paths
        from tokexplorer.core.io import stream_corpus

        shown = os.path.basename(paths[0].rstrip("/\\")) or paths[0]
        more = f" and {len(paths) - 1} more" if len(paths) > 1 else ""
        self.load_status.setText(f"reading {shown}{more}…")
        self.state.status.emit(f"reading {shown}{more}…")
        self._streamed_rows = []
        self._reading_roots = tuple(paths)
        self.load_progress.setValue(0)
        self.load_progress.setVisible(True)
        self.cancel_load_button.setVisible(True)
        limit, chosen = self.stream_bytes, self.file_encodings
        return self._load_job.start(
            lambda cancel: stream_corpus(paths, encoding=chosen, cancel=cancel, stream_bytes=limit, in_child=True),
            on_result=lambda corpus, what=f"{shown}{more}", extra=tuple(notes): self._on_read(
                dataclasses.replace(corpus, notes=corpus.notes + extra) if extra else corpus, what
            ),
            on_error=lambda exc: self._on_load_error(user_message(exc)),
            on_progress=self._on_load_progress,
            on_yielded=self._on_file_streamed,
            on_cancelled=self._on_load_cancelled,
            on_finished=self._loading_ended,
        )

    def cancel_loading(self) -> None:
        """Stop the read under way; the corpus shown before it stays."""
        if self._load_job.busy:
            self._load_job.cancel()
            self._on_load_cancelled()
            self._loading_ended()

    def _loading_ended(self) -> None:
        self.load_progress.setVisible(False)
        self.cancel_load_button.setVisible(False)

    def _on_load_cancelled(self) -> None:
        self.model.set_corpus(self.corpus)
        self._streamed_rows = []
        self._update_totals()
        kept = f"; the corpus ({plural(len(self.corpus.files), 'file')}) is kept" if self.corpus is not None else ""
        self.load_status.setText("reading cancelled")
        self.state.status.emit(f"reading cancelled{kept}")

    def _on_file_streamed(self, f: CorpusFile) -> None:
        """A file of a streamed read is done: its row shows now (the table holds only this read's files)."""
        if not self._streamed_rows:
            self.model.roots = self._reading_roots
            self.model.set_files([])
        self._streamed_rows.append(f)
        self.model.append_file(f)
        self._update_totals(self._streamed_rows)

    def set_corpus(self, corpus: Corpus | None) -> None:
        """Show ``corpus`` and make it ``state.corpus``."""
        self.corpus = corpus
        if corpus is None or self._streamed_rows != list(corpus.files):  # else its rows are shown already
            self.model.set_corpus(corpus)
        self._streamed_rows = []
        self.columns.refit()
        self._load_errors = []
        self._refused = []
        self._refresh_problems()
        self._update_totals()
        n = len(corpus.files) if corpus is not None else 0
        n_err = len(corpus.errors) if corpus is not None else 0
        msg = f"{n} file{'s' if n != 1 else ''} loaded"
        if n_err:
            msg += f", {n_err} refused (see Problems)"
        for n in corpus.notes if corpus is not None else ():
            msg += f"; {in_window_terms(n)}"  # the tokenizer model files a folder held, left out
        self.load_status.setText(msg)
        self.state.status.emit(msg)
        self.state.set_corpus(corpus)
        self.corpus_loaded.emit(corpus)

    def _on_read(self, corpus: Corpus, what: str) -> None:
        """Show the corpus read from ``what``, unless it has no text and would replace one that has."""
        self._loading_ended()
        current, fallback = self.corpus, None
        if corpus.is_empty and (current is None or current.is_empty) and self.fallback is not None:
            current = fallback = self.fallback
            self.set_corpus(fallback)  # said below to be the corpus instead
        if not corpus.is_empty or current is None or current.is_empty:
            self.set_corpus(corpus)
            return
        refused = [label_problem(e, parent_folders(corpus.roots)) for e in corpus.errors]  # binonly/image.bin
        if self._streamed_rows:  # the rows of the streamed read go; the corpus kept shows again
            self._streamed_rows = []
            self.model.set_corpus(current)
            self._update_totals()
        kept = corpus_name(current)
        left_out = "; ".join(n for n in corpus.notes if n.startswith("skipped "))
        message = nothing_loaded(
            what, n_empty=len(corpus.files), n_refused=len(corpus.errors), kept=kept, left_out=left_out,
            reason=refused[0] if fallback is not None and len(refused) == 1 else "", instead=fallback is not None,
        )  # fmt: skip
        self._refused.append((message, refused))  # apart from the problems of the corpus kept
        self._refresh_problems()  # listed there, said in the status bar: no dialog over the list
        self.load_status.setText(f"{kept} {'instead' if fallback is not None else 'kept'}")
        self.state.status.emit(f"⚠ {in_window_terms(message)}")
        self.load_failed.emit(message)

    def _on_load_progress(self, p: Progress) -> None:
        now = time.monotonic()
        if now - self._shown_progress < PROGRESS_SECONDS and p.done < (p.total or 0):
            return  # at most ten updates a second: each one lays the row out again
        self._shown_progress = now
        if p.total:
            self.load_progress.setValue(int(1000 * p.done / p.total))
        what = file_label(p.message, self._reading_roots)  # the file being read, below the folder opened
        if p.total and p.total >= self.stream_bytes:
            self.load_status.setText(
                f"streaming {what}: {format_size(p.done)} of {format_size(p.total)} ({100 * p.done // p.total}%)"
            )
        elif p.total:
            amount = f"{p.done:,} of {p.total:,} {p.unit}".rstrip()
            if p.unit == "bytes":
                amount = f"{format_size(p.done)} of {format_size(p.total)}"
            self.load_status.setText(f"{p.phase}: {amount} {what}".rstrip())
        else:
            self.load_status.setText(f"{p.phase}… {what}".rstrip())

    def _on_load_error(self, message: str) -> None:
        self._loading_ended()
        self._load_errors.append(message)
        self._refresh_problems()
        self.load_status.setText("nothing loaded" if self.corpus is None else f"{corpus_name(self.corpus)} kept")
        self.state.error.emit(in_window_terms(message))
        self.load_failed.emit(message)

    # ================================================================= re-reading
    def reread_file(self, row: int, encoding: str) -> Worker | None:
        """Re-read the file at model ``row`` with ``encoding`` (a Python codec name), in a worker.

        Returns:
            The :class:`Worker` (:attr:`file_reread` is emitted with ``row`` when
            done), or None when there is no such row or the file is not on disk.
        """
        if self.corpus is None or not (0 <= row < self.model.rowCount()):
            return None
        path = str(self.model.file_at(row).path)
        label = self.model.label(self.model.file_at(row))
        if not os.path.isfile(path):
            self._report_error(f"{label} is not a file on disk; it cannot be re-read")
            return None
        from tokexplorer.core.io import read_text_file

        if self.corpus.streamed:  # the file's text is not held this time either
            worker = Worker(lambda cancel: _stream_one(path, encoding))
        else:
            worker = Worker(lambda cancel: read_text_file(path, encoding=encoding))
        worker.signals.returned.connect(guarded(self, lambda new, row=row: self._on_reread(row, new)))
        worker.signals.errored.connect(
            guarded(
                self,
                lambda exc, p=path, e=encoding: self._report_error(
                    f"{label} as {e}: {label_message(user_message(exc), p, self.model.roots)}", problem=True
                ),
            )
        )
        self.reread_worker = worker
        worker.start()
        return worker

    def _on_reread(self, row: int, new_file: CorpusFile) -> None:
        if self.corpus is None or row >= self.model.rowCount():
            return
        self.model.replace_file(row, new_file)
        self.corpus = dataclasses.replace(self.corpus, files=tuple(self.model.files))
        self._update_totals()
        self._refresh_problems()
        msg = f"{self.model.label(new_file)} re-read as {new_file.encoding_label}"
        self.load_status.setText(msg)
        self.state.status.emit(msg)
        self.state.set_corpus(self.corpus)
        self.file_reread.emit(row)

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
        codec = self.model.file_at(row).encoding.lower().replace("_", "-")
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
            act.triggered.connect(lambda _checked=False, r=row, c=codec: self.reread_file(r, c))
            sub.addAction(act)
        sub.setEnabled(os.path.isfile(str(f.path)))
        if not is_utf8(f) or f.encoding_guessed:
            menu.addSeparator()
            menu.addAction("This file's encoding was guessed or is not UTF-8").setEnabled(False)
        menu.exec(self.table.viewport().mapToGlobal(pos))

    # ================================================================= problems and totals
    def _report_error(self, message: str, *, problem: bool = False) -> None:
        if problem:
            self._load_errors.append(message)
            self._refresh_problems()
        self.error_reported.emit(message)

    def _refresh_problems(self) -> None:
        roots = () if self.corpus is None else parent_folders(self.corpus.roots) if self._refused else self.corpus.roots
        errors = [label_problem(e, roots) for e in self.corpus.errors] if self.corpus is not None else []
        errors += self._load_errors
        notes = [(row, self.model.label(f), self.model.notes_of(f)) for row, f in enumerate(self.model.files)]
        lossy_names = [file_label(f.path, self.corpus.roots) for f in self.corpus.lossy_files] if self.corpus else []
        opened = [in_window_terms(n) for n in self.corpus.notes] if self.corpus is not None else ()
        apart = [(in_window_terms(m), [in_window_terms(e) for e in es]) for m, es in self._refused]
        self.problems_box.show_problems([in_window_terms(e) for e in errors], notes, lossy_names, opened, apart)

    def _select_file(self, row: int) -> None:
        """Select the file of ``row`` (a note clicked in the list under the table)."""
        if 0 <= row < self.model.rowCount():
            index = self.proxy.mapFromSource(self.model.index(row, COL_FILE))
            self.table.selectRow(index.row())
            self.table.scrollTo(index)

    def problem_messages(self) -> list[str]:
        """The messages listed under Problems (refused files, failed re-reads), without the notes."""
        return self.problems_box.problem_messages()

    def note_messages(self) -> list[str]:
        """The files' notes as the list under the table holds them (``note: a.txt: ...``)."""
        return self.problems_box.note_messages()

    def _update_totals(self, files: list[CorpusFile] | None = None) -> None:
        files = self.model.files if files is None else files
        n_bytes = sum(f.size_bytes for f in files)
        n_chars = sum(f.n_chars for f in files)
        n_lines = sum(f.n_lines for f in files)
        self.totals_label.setText(
            f"{plural(len(files), 'file')} · {n_bytes:,} bytes on disk · "
            f"{plural(n_chars, 'character')} · {plural(n_lines, 'line')}"
        )
