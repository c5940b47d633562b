"""Qt table model over the files of a training corpus.

One row per :class:`tokexplorer.core.io.corpus.CorpusFile`: File, Size, Encoding,
Line endings, Characters, Lines, Notes. Sizes are shown by the one size rule
(:func:`tokexplorer.core.io.sizes.format_size`: ``"1.5 KiB"``) with the exact byte
count in the tooltip and in ``RawRole``.
"""

from __future__ import annotations

import codecs
import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QModelIndex, QObject, Qt
from PySide6.QtGui import QBrush

from tokexplorer.core.io import file_label, format_size, label_message
from tokexplorer.core.text import codec_name
from tokexplorer.gui import theme
from tokexplorer.gui.models.table_model import RawRole, TitledTableModel
from tokexplorer.gui.terms import in_window_terms

if TYPE_CHECKING:
    from tokexplorer.core.io import Corpus, CorpusFile

#: Column titles, in order ("Line endings" over two lines: the column is as narrow as "CRLF").
CORPUS_COLUMNS: tuple[str, ...] = (
    "File",
    "Size",
    "Encoding",
    "Line\nendings",
    "Characters",
    "Lines",
    "Notes",
)
COL_FILE, COL_SIZE, COL_ENCODING, COL_EOL, COL_CHARS, COL_LINES, COL_NOTES = range(7)

#: Encodings offered for re-reading a file: (label, Python codec name); the labels are the core's
#: one naming of codecs (``codec_name``), which the Encoding column and every note use too.
ENCODING_CHOICES: tuple[tuple[str, str], ...] = tuple(
    (codec_name(c), c) for c in ("utf-8", "gbk", "gb18030", "big5", "shift_jis", "utf-16", "latin-1", "cp1252")
)


def encoding_shown(file: CorpusFile, chosen: bool = False) -> str:
    """The Encoding column's text: :attr:`CorpusFile.encoding_label` (``"gbk (guessed)"``,
    ``"cp1252"``, ``"UTF-8 with BOM"``), the codec named as the notes name it; ``chosen``: the
    user chose it (Re-read as), ``"cp1252 (chosen by you)"``."""
    return f"{file.encoding_label} (chosen by you)" if chosen else file.encoding_label


def codec_key(codec: str) -> str:
    """One spelling of a codec (``"latin_1"``, ``"ISO-8859-1"``: ``"iso8859-1"``); the name as given when unknown."""
    try:
        return codecs.lookup(codec).name
    except LookupError:
        return codec


#: The Encoding column's tooltip of a file whose encoding the user chose.
CHOSEN_TIP = "Chosen with Re-read as, and remembered with this corpus: it is read so again when it reopens"


#: Codec names (lower case, ``_`` as ``-``) that decode UTF-8, ASCII included.
_UTF8_CODECS = frozenset({"utf-8", "utf8", "utf-8-sig", "ascii"})


def is_utf8(file: CorpusFile) -> bool:
    """True when the file was decoded as UTF-8 (with or without BOM) or ASCII."""
    return file.encoding.lower().replace("_", "-") in _UTF8_CODECS


class CorpusTableModel(TitledTableModel):
    """The corpus files as a table: File, Size, Encoding, Line endings,
    Characters, Lines, Notes.

    Args:
        parent: Qt parent object.

    A file is named by its path below the folder it was opened from (``x/a.txt``:
    :func:`~tokexplorer.core.io.labels.file_label`), in the File column and in its notes;
    the File tooltip gives the whole path.

    ``RawRole`` gives raw values for sorting (ints for sizes and counts).
    Rows whose encoding was guessed, is not UTF-8, or whose text was decoded
    lossily (U+FFFD) are tinted so the user notices them.
    """

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(CORPUS_COLUMNS, parent=parent)
        self._files: list[CorpusFile] = []
        self.roots: tuple[str, ...] = ()  # what the files were opened from (names them)
        self.chosen: dict[str, str] = {}  # absolute path -> the codec the user chose for it (Re-read as)
        self._warn = QBrush(theme.UNSURE_ENCODING_BG)
        self._bad = QBrush(theme.LOSSY_FILE_BG)

    def set_files(self, files: list[CorpusFile]) -> None:
        """Show ``files`` (``CorpusFile`` objects)."""
        self.beginResetModel()
        self._files = list(files)
        self.endResetModel()

    def set_corpus(self, corpus: Corpus | None) -> None:
        """Show the files of ``corpus`` (a ``Corpus``) or nothing (None), named below its roots."""
        self.roots = corpus.roots if corpus is not None else ()
        self.set_files(list(corpus.files) if corpus is not None else [])

    def label(self, file: CorpusFile) -> str:
        """How the table names ``file``: its path below the folder it was opened from."""
        return file_label(file.path, self.roots)

    def notes_of(self, file: CorpusFile) -> list[str]:
        """``file``'s notes, naming it by :meth:`label`, their advice in the window's terms
        (:func:`~tokexplorer.gui.terms.in_window_terms`)."""
        return [in_window_terms(label_message(n, file.path, self.roots)) for n in file.notes]

    def append_file(self, file: CorpusFile) -> None:
        """Add ``file`` as the last row (a streamed read shows each file once it is read)."""
        n = len(self._files)
        self.beginInsertRows(QModelIndex(), n, n)
        self._files.append(file)
        self.endInsertRows()

    def replace_file(self, row: int, file: CorpusFile) -> None:
        """Replace the file at ``row`` (e.g. after re-reading it with another encoding)."""
        self._files[row] = file
        self.dataChanged.emit(self.index(row, 0), self.index(row, len(CORPUS_COLUMNS) - 1))

    def is_chosen(self, file: CorpusFile) -> bool:
        """True when ``file`` was read with the codec the user chose for it (:attr:`chosen`)."""
        codec = self.chosen.get(os.path.abspath(file.path)) if self.chosen else None
        return codec is not None and not file.encoding_guessed and codec_key(codec) == codec_key(file.encoding)

    def file_at(self, row: int) -> CorpusFile:
        """The ``CorpusFile`` at ``row``."""
        return self._files[row]

    @property
    def files(self) -> list[CorpusFile]:
        """The files shown, in row order (a copy)."""
        return list(self._files)

    def row_count(self) -> int:
        return len(self._files)

    def cell_data(self, row: int, col: int, role: int) -> Any:
        f = self._files[row]
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_FILE:
                return self.label(f)
            if col == COL_SIZE:
                return format_size(f.size_bytes)
            if col == COL_ENCODING:
                return encoding_shown(f, self.is_chosen(f))
            if col == COL_EOL:
                return str(f.line_ending)
            if col == COL_CHARS:
                return f"{f.n_chars:,}"
            if col == COL_LINES:
                return f"{f.n_lines:,}"
            return "; ".join(self.notes_of(f))
        if role == RawRole:
            return self._raw(f, col)
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_FILE:
                return str(f.path)
            if col == COL_SIZE:
                return f"{f.size_bytes:,} bytes"
            if col == COL_ENCODING:
                if self.is_chosen(f):
                    return CHOSEN_TIP
                if f.encoding_guessed or not is_utf8(f):
                    return "Not UTF-8 or guessed: right-click to re-read the file with another encoding"
                return None
            if col == COL_NOTES:
                return "\n".join(self.notes_of(f)) if f.notes else None
            return None
        if role == Qt.ItemDataRole.TextAlignmentRole and col in (
            COL_SIZE,
            COL_CHARS,
            COL_LINES,
        ):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.BackgroundRole:
            if f.lossy:
                return self._bad
            if f.encoding_guessed or not is_utf8(f):
                return self._warn
        return None

    def _raw(self, f: CorpusFile, col: int) -> str | int:
        if col == COL_FILE:
            return str(f.path)
        if col == COL_SIZE:
            return int(f.size_bytes)
        if col == COL_ENCODING:
            return encoding_shown(f, self.is_chosen(f))
        if col == COL_EOL:
            return str(f.line_ending)
        if col == COL_CHARS:
            return int(f.n_chars)
        if col == COL_LINES:
            return int(f.n_lines)
        return "; ".join(self.notes_of(f))
