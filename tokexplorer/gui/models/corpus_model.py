"""Qt table model over the files of a training corpus.

One row per :class:`tokexplorer.core.io.corpus.CorpusFile`: File, Size, Encoding,
Line endings, Characters, Lines, Notes. Sizes are shown human-readable
(``"1.5 KiB"``) with the exact byte count in the tooltip and in ``RawRole``.
"""

from __future__ import annotations

import os
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from tokexplorer.gui.models.merge_model import RawRole

#: Column titles, in order.
CORPUS_COLUMNS: tuple[str, ...] = (
    "File",
    "Size",
    "Encoding",
    "Line endings",
    "Characters",
    "Lines",
    "Notes",
)
COL_FILE, COL_SIZE, COL_ENCODING, COL_EOL, COL_CHARS, COL_LINES, COL_NOTES = range(7)

_Index = QModelIndex | QPersistentModelIndex

_PRETTY_ENCODINGS = {
    "utf-8": "UTF-8",
    "utf8": "UTF-8",
    "utf-8-sig": "UTF-8",
    "utf-16": "UTF-16",
    "utf-16-le": "UTF-16-LE",
    "utf-16le": "UTF-16-LE",
    "utf-16-be": "UTF-16-BE",
    "utf-16be": "UTF-16-BE",
    "utf-32": "UTF-32",
    "gbk": "GBK",
    "gb2312": "GB2312",
    "gb18030": "GB18030",
    "big5": "Big5",
    "shift_jis": "Shift_JIS",
    "shift-jis": "Shift_JIS",
    "sjis": "Shift_JIS",
    "cp932": "cp932",
    "latin-1": "Latin-1",
    "latin1": "Latin-1",
    "iso-8859-1": "Latin-1",
    "iso8859-1": "Latin-1",
    "cp1252": "cp1252",
    "windows-1252": "cp1252",
    "ascii": "ASCII",
}


def pretty_encoding(name: str | None) -> str:
    """Display name of a codec name: ``"utf-8"`` -> ``"UTF-8"``, ``"gbk"`` -> ``"GBK"``."""
    if not name:
        return "?"
    return _PRETTY_ENCODINGS.get(name.lower().replace("_", "-"), name)


def encoding_label(file: Any) -> str:
    """The Encoding cell: e.g. ``"UTF-8"``, ``"UTF-8 with BOM"``, ``"gbk (guessed)"``.

    Uses ``CorpusFile.encoding_label`` (the core's wording, also used by the CLI)
    when the file has one.
    """
    label = getattr(file, "encoding_label", None)
    if isinstance(label, str) and label:
        return label
    text = pretty_encoding(getattr(file, "encoding", None))
    if getattr(file, "bom", False):
        text += " with BOM"
    if getattr(file, "encoding_guessed", False):
        text += " (guessed)"
    return text


def human_size(n_bytes: int) -> str:
    """Human-readable byte count: ``"532 B"``, ``"1.5 KiB"``, ``"3.2 MiB"``."""
    if n_bytes < 1024:
        return f"{n_bytes} B"
    value = float(n_bytes)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024.0
        if round(value, 1) < 1024 or unit == "TiB":  # 1,048,533 B is "1.0 MiB", not "1024.0 KiB"
            return f"{value:.1f} {unit}"
    return f"{n_bytes} B"  # pragma: no cover


def is_utf8(file: Any) -> bool:
    """True when the file was decoded as UTF-8 (with or without BOM)."""
    return pretty_encoding(getattr(file, "encoding", None)) in ("UTF-8", "ASCII")


class CorpusTableModel(QAbstractTableModel):
    """The corpus files as a table: File, Size, Encoding, Line endings,
    Characters, Lines, Notes.

    Args:
        parent: Qt parent object.

    ``RawRole`` gives raw values for sorting (ints for sizes and counts).
    Rows whose encoding was guessed, is not UTF-8, or whose text was decoded
    lossily (U+FFFD) are tinted so the user notices them.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._files: list[Any] = []
        self._warn = QBrush(QColor("#fff3cd"))
        self._bad = QBrush(QColor("#f8d7da"))

    def set_files(self, files: list[Any]) -> None:
        """Show ``files`` (``CorpusFile`` objects)."""
        self.beginResetModel()
        self._files = list(files)
        self.endResetModel()

    def set_corpus(self, corpus: Any) -> None:
        """Show the files of ``corpus`` (a ``Corpus``) or nothing (None)."""
        self.set_files(list(corpus.files) if corpus is not None else [])

    def replace_file(self, row: int, file: Any) -> None:
        """Replace the file at ``row`` (e.g. after re-reading it with another encoding)."""
        self._files[row] = file
        self.dataChanged.emit(
            self.index(row, 0), self.index(row, len(CORPUS_COLUMNS) - 1)
        )

    def file_at(self, row: int) -> Any:
        """The ``CorpusFile`` at ``row``."""
        return self._files[row]

    @property
    def files(self) -> list[Any]:
        return list(self._files)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 - Qt signature
        return 0 if parent.isValid() else len(self._files)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(CORPUS_COLUMNS)

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        horizontal = orientation == Qt.Orientation.Horizontal
        if (
            role == Qt.ItemDataRole.DisplayRole
            and horizontal
            and 0 <= section < len(CORPUS_COLUMNS)
        ):
            return CORPUS_COLUMNS[section]
        return None

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        if not (0 <= row < len(self._files)) or not (0 <= col < len(CORPUS_COLUMNS)):
            return None
        f = self._files[row]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_FILE:
                return os.path.basename(str(f.path)) or str(f.path)
            if col == COL_SIZE:
                return human_size(f.size_bytes)
            if col == COL_ENCODING:
                return encoding_label(f)
            if col == COL_EOL:
                return str(f.line_ending)
            if col == COL_CHARS:
                return f"{f.n_chars:,}"
            if col == COL_LINES:
                return f"{f.n_lines:,}"
            return "; ".join(self._notes(f))
        if role == RawRole:
            return self._raw(f, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_FILE:
                return str(f.path)
            if col == COL_SIZE:
                return f"{f.size_bytes:,} bytes"
            if col == COL_ENCODING:
                if getattr(f, "encoding_guessed", False) or not is_utf8(f):
                    return "Not UTF-8 or guessed: right-click to re-read the file with another encoding"
                return None
            if col == COL_NOTES:
                notes = self._notes(f)
                return "\n".join(notes) if notes else None
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (
            COL_SIZE,
            COL_CHARS,
            COL_LINES,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole:
            if getattr(f, "lossy", False):
                return self._bad
            if getattr(f, "encoding_guessed", False) or not is_utf8(f):
                return self._warn
        return None

    @staticmethod
    def _notes(f: Any) -> list[str]:
        notes = getattr(f, "notes", None) or []
        if isinstance(notes, str):
            notes = [notes]
        return [str(n) for n in notes]

    def _raw(self, f: Any, col: int) -> Any:
        if col == COL_FILE:
            return str(f.path)
        if col == COL_SIZE:
            return int(f.size_bytes)
        if col == COL_ENCODING:
            return encoding_label(f)
        if col == COL_EOL:
            return str(f.line_ending)
        if col == COL_CHARS:
            return int(f.n_chars)
        if col == COL_LINES:
            return int(f.n_lines)
        return "; ".join(self._notes(f))
