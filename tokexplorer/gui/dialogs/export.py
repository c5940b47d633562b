"""Dialog: File ▸ Export tokenizer… — the current byte-level BPE written in another library's format.

The formats are the ones ``tokexplorer export`` writes, with the same core functions
(:mod:`tokexplorer.core.io.exports`):

* ``tiktoken``: a ``.tiktoken`` rank file and its JSON sidecar ``PATH.json``
  (the split pattern and the special tokens, what ``tiktoken.Encoding`` needs
  besides the ranks);
* ``tokenizer.json``: Hugging Face ``tokenizers``' single file;
* ``gpt2``: ``vocab.json`` + ``merges.txt`` written into a folder.

``check_export`` (:mod:`tokexplorer.core.io.export_check`) says which formats a model cannot be written in, and why
(the dialog shows those formats disabled with the reason), and what to know
about the others. Checking (a model loaded from ranks recovers its merges
first, about a second for 128,000 tokens) and writing run in workers.
"""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QRadioButton,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import InputError
from tokexplorer.core.io import ExportCheck, check_export
from tokexplorer.core.text import pattern_label
from tokexplorer.gui import file_dialogs, theme
from tokexplorer.gui.workers import LatestRequest, Worker, guarded, user_message

#: ``(format key, label)`` of each export format, in the order shown.
EXPORT_FORMATS: tuple[tuple[str, str], ...] = (
    ("tiktoken", ".tiktoken rank file + JSON sidecar (split pattern, special tokens)"),
    ("tokenizer.json", "Hugging Face tokenizer.json"),
    ("gpt2", "GPT-2 vocab.json + merges.txt (into a folder)"),
)


def run_export(
    bpe: BPE, fmt: str, path: str | os.PathLike, *, name: str | None = None, source: str | None = None
) -> list[Path]:
    """Write ``bpe`` in format ``fmt`` (a key of :data:`EXPORT_FORMATS`) at ``path``.

    ``path`` is the ``.tiktoken`` file (its sidecar is ``path.json``), the
    ``tokenizer.json`` file, or, for ``gpt2``, the folder; a folder that does not exist is
    created, parents too (:func:`~tokexplorer.core.io.output_folders.make_folder`). ``name`` (the name the
    window shows) and ``source`` (the file the model came from, None: trained here and
    never saved) go into the ``.tiktoken`` sidecar
    (:func:`~tokexplorer.core.io.exports.write_tiktoken_export`).

    Returns:
        the paths written.

    Raises:
        InputError: unknown format, a file where the folder should be (or a folder where
            the file should be), a folder that cannot be created, or a model the format
            cannot hold.
        OSError: a file cannot be written.
    """
    from tokexplorer.core.io import (
        make_folder,
        needed_folder,
        write_gpt2_export,
        write_tiktoken_export,
        write_tokenizer_json,
    )

    p = Path(path)
    if fmt not in dict(EXPORT_FORMATS):
        raise InputError(f"unknown export format {fmt!r}")
    missing = needed_folder(p, folder=fmt == "gpt2")
    if missing is not None:
        make_folder(missing)
    if fmt == "gpt2":
        return write_gpt2_export(bpe, p)
    if fmt == "tiktoken":
        return write_tiktoken_export(bpe, p, name=name, source=source)
    if fmt == "tokenizer.json":
        return [write_tokenizer_json(bpe, p)]
    raise InputError(f"unknown export format {fmt!r}")


def suggested_path(bpe: BPE, fmt: str, folder: str, *, stem: str | None = None) -> str:
    """Where the dialog proposes to write ``fmt`` in ``folder`` (the folder itself for ``gpt2``):
    ``stem`` (default: the model's name made a file name) and the format's suffix.

    >>> suggested_path(BPE([], name="my model"), "tiktoken", "/out")
    '/out/my_model.tiktoken'
    >>> suggested_path(BPE([], name="my model"), "tiktoken", "/out", stem="gui")
    '/out/gui.tiktoken'
    """
    if fmt == "gpt2":
        return folder
    stem = stem or "".join(c if c.isalnum() or c in "-_." else "_" for c in bpe.name).strip("._") or "tokenizer"
    name = f"{stem}.tiktoken" if fmt == "tiktoken" else "tokenizer.json"
    return os.path.join(folder, name)


class ExportDialog(QDialog):
    """Export ``bpe`` as ``.tiktoken`` (+ sidecar), ``tokenizer.json`` or ``vocab.json`` + ``merges.txt``.

    Args:
        bpe: the byte-level BPE to write.
        parent: the window.
        folder: where paths are proposed at first (default: the home folder).
        name: how the dialog names the model (default: its own name; the window gives the
            name its column shows, ``"gui.bpe (BPE)"`` once saved).
        stem: the file name proposed, without suffix (default: made from ``name``).
        source: the file the model was opened from or saved to (None: trained here, never
            saved); the ``.tiktoken`` sidecar records it with ``name``.

    Signals:
        exported(str, object): the format key and the list of paths written.

    Attributes:
        buttons: format key -> its QRadioButton (disabled when the model cannot be written in it).
        reasons: format key -> the QLabel under it (why it is disabled, or notes).
        path_edit: where to write; browse_button picks it with a file dialog.
        message: what happened (checking, writing, the one-line error).
        export_button: writes in a worker; the dialog closes when done.
        check: the :class:`ExportCheck` once known (None while checking).
        created: the note of the folder the last export created (``""``: it was there).
    """

    exported = Signal(str, object)

    def __init__(
        self,
        bpe: BPE,
        parent: QWidget | None = None,
        *,
        folder: str | None = None,
        name: str | None = None,
        stem: str | None = None,
        source: str | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export tokenizer")
        self.bpe = bpe
        self.name = name or bpe.name
        self.source = source
        self._stem = stem
        self.check: ExportCheck | None = None
        self._folder = folder or file_dialogs.last_folder()
        self._job = LatestRequest(self)
        self.write_worker: Worker | None = None
        self.created = ""  # the note of a folder the export creates ("created folder out (it did not exist)")
        title = QLabel(
            f"Export {self.name}: vocab {bpe.vocab_text}, {pattern_label(bpe.pat_str)}. "
            "Another library loading the files gives our ids."
        )
        title.setWordWrap(True)
        self.message = QLabel("checking which formats this model can be written in…")
        self.message.setWordWrap(True)
        box = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.export_button = box.addButton("Export", QDialogButtonBox.ButtonRole.AcceptRole)
        self.export_button.setEnabled(False)
        box.accepted.connect(self.start_export)
        box.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(title)
        lay.addLayout(self._build_formats())
        lay.addLayout(self._build_path_row())
        lay.addWidget(self.message)
        lay.addWidget(box)
        self.resize(640, self.sizeHint().height())
        self._job.start(lambda cancel, b=bpe: check_export(b), on_result=self._on_check, on_error=self._on_check_error)

    def _build_formats(self) -> QVBoxLayout:
        self.group = QButtonGroup(self)
        self.buttons: dict[str, QRadioButton] = {}
        self.reasons: dict[str, QLabel] = {}
        column = QVBoxLayout()
        for i, (key, label) in enumerate(EXPORT_FORMATS):
            button = QRadioButton(label)
            button.setEnabled(False)
            reason = QLabel("")
            reason.setWordWrap(True)
            reason.setIndent(24)
            self.group.addButton(button, i)
            self.buttons[key], self.reasons[key] = button, reason
            column.addWidget(button)
            column.addWidget(reason)
            button.toggled.connect(lambda on, k=key: on and self._on_format(k))
        return column

    def _build_path_row(self) -> QHBoxLayout:
        self.path_edit = QLineEdit()
        self.path_edit.textChanged.connect(lambda _t: self._update_button())
        self.browse_button = QPushButton("Browse…")
        self.browse_button.clicked.connect(self.browse)
        row = QHBoxLayout()
        row.addWidget(QLabel("Write to:"))
        row.addWidget(self.path_edit, 1)
        row.addWidget(self.browse_button)
        return row

    # -- public ------------------------------------------------------------------

    def format(self) -> str | None:
        """The chosen format key (None while none can be chosen)."""
        return next((k for k, b in self.buttons.items() if b.isChecked()), None)

    def set_format(self, fmt: str) -> None:
        """Choose format ``fmt`` (ignored when it is disabled)."""
        if self.buttons[fmt].isEnabled():
            self.buttons[fmt].setChecked(True)

    def browse(self) -> None:
        """Ask where to write the chosen format (a file, or a folder for ``gpt2``)."""
        fmt = self.format()
        if fmt is None:
            return
        if fmt == "gpt2":
            path = QFileDialog.getExistingDirectory(self, "Folder for vocab.json and merges.txt", self._folder)
            file_dialogs.remember_folder(path)
        else:
            filt = "tiktoken ranks (*.tiktoken)" if fmt == "tiktoken" else "tokenizer.json (*.json)"
            path, _ = QFileDialog.getSaveFileName(self, "Export as", self.path_edit.text(), f"{filt};;All files (*)")
            file_dialogs.remember_folder(path)
        if path:
            self.path_edit.setText(path)

    def start_export(self) -> Worker | None:
        """Write the chosen format at the chosen path in a worker; :attr:`exported`
        is emitted and the dialog closes when done, an error is shown in the dialog."""
        fmt, path = self.format(), self.path_edit.text().strip()
        if fmt is None or not path:
            return None
        from tokexplorer.core.io import created_note, needed_folder

        try:
            missing = needed_folder(path, folder=fmt == "gpt2")  # a few stat calls
        except InputError as exc:
            self._say(f"not exported: {user_message(exc)}", bad=True)
            return None
        self.created = "" if missing is None else created_note(missing)
        bpe, name, source = self.bpe, self.name, self.source
        worker = Worker(lambda cancel: run_export(bpe, fmt, path, name=name, source=source))
        worker.signals.returned.connect(guarded(self, lambda paths: self._on_written(fmt, paths)))
        worker.signals.errored.connect(guarded(self, self._on_write_error))
        self.write_worker = worker
        self.export_button.setEnabled(False)
        self._say(f"writing {os.path.basename(path.rstrip(os.sep)) or path}…", bad=False)
        worker.start()
        return worker

    # -- internals ---------------------------------------------------------------

    def _on_check(self, check: ExportCheck) -> None:
        self.check = check
        for key, button in self.buttons.items():
            why = check.blocked.get(key)
            button.setEnabled(why is None)
            self.reasons[key].setText(f"unavailable: {why}" if why else "; ".join(check.notes.get(key, [])))
            self.reasons[key].setStyleSheet(f"color: {theme.ERROR_TEXT.name()};" if why else "")
            button.setToolTip(why or "")
        first = next((k for k, _ in EXPORT_FORMATS if k not in check.blocked), None)
        if first is None:
            self._say(f"{self.name} cannot be exported in any of these formats", bad=True)
            return
        self._say("", bad=False)
        self.buttons[first].setChecked(True)
        self.layout().activate()  # room for the reasons, wrapped at the dialog's width
        self.resize(self.width(), max(self.height(), self.layout().totalHeightForWidth(self.width())))

    def _on_check_error(self, exc: BaseException) -> None:
        self._say(f"cannot check the model: {user_message(exc)}", bad=True)

    def _on_format(self, fmt: str) -> None:
        current = self.path_edit.text().strip()
        folder = current if os.path.isdir(current) else os.path.dirname(current) if current else self._folder
        self.path_edit.setText(suggested_path(self.bpe, fmt, folder or self._folder, stem=self._stem))
        self._update_button()

    def _update_button(self) -> None:
        busy = self.write_worker is not None and not self.write_worker.done
        self.export_button.setEnabled(self.format() is not None and bool(self.path_edit.text().strip()) and not busy)

    def _on_written(self, fmt: str, paths: list[Path]) -> None:
        self.exported.emit(fmt, [str(p) for p in paths])
        self.accept()

    def _on_write_error(self, exc: BaseException) -> None:
        self._say(f"not exported: {user_message(exc)}", bad=True)
        self.write_worker = None
        self._update_button()

    def _say(self, text: str, *, bad: bool) -> None:
        self.message.setText(text)
        self.message.setStyleSheet(f"color: {theme.ERROR_TEXT.name()};" if bad else "")
