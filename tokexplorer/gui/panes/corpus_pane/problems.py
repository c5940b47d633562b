"""The Corpus tab's problem messages in the window's terms.

The core's reading messages end with how to read a refused file, named as settings;
the Problems list, status bar and dialogs name the window's own control instead
(File ▸ Open raw bytes…; :mod:`tokexplorer.gui.terms`). And a folder that gives
nothing to read says what it held, every file counted.

:class:`ProblemsBox`, under the file table, lists them and every file's notes whole
(encodings guessed, byte order marks, U+FFFD, line endings: the table's Notes column
has room for a few characters of them), each wrapped at the list's width; its heading
takes two lines whatever it says, so the pane never moves when they change.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QVBoxLayout, QWidget

from tokexplorer.gui.plural import plural
from tokexplorer.gui.terms import WINDOW_READ_ANYWAY, in_window_terms
from tokexplorer.gui.widgets.elided_label import ElidedLabel

__all__ = ["WINDOW_READ_ANYWAY", "ProblemsBox", "in_window_terms", "nothing_loaded"]

#: Height (pixels) of the list of problems and notes: fixed, it scrolls.
LIST_HEIGHT = 120


def nothing_loaded(
    what: str, *, n_empty: int, n_refused: int, kept: str, left_out: str = "", reason: str = "", instead: bool = False
) -> str:
    """The message of a read that gave no text while the corpus ``kept`` (its name) stays.

    Args:
        what: what was opened (``"n7bad"``, ``"a.txt and 2 more"``).
        n_empty: files read that hold no text; n_refused: files refused (listed under Problems).
        left_out: what the walk left out (the tokenizer model files a folder held), said
            when no file was read.
        reason: the one refused file's problem, said after "1 file is refused".
        instead: ``kept`` was not shown before: it is shown instead (the built-in sample
            at startup), not kept.

    >>> nothing_loaded("n7bad", n_empty=1, n_refused=1, kept="big30.txt")[:100]
    'nothing loaded from n7bad: of its 2 files, 1 file is refused (see Problems) and 1 file holds no text'
    >>> nothing_loaded("ls", n_empty=0, n_refused=1, kept="sample.txt (built-in)", reason="ls: binary", instead=True)
    'nothing loaded from ls: 1 file is refused (ls: binary); sample.txt (built-in) is the corpus instead'
    """
    n = n_empty + n_refused
    if not n:
        why = left_out or "no files in it"
    else:
        parts = [f"{plural(n_refused, 'file')} {'is' if n_refused == 1 else 'are'} refused (see Problems)"] * bool(
            n_refused
        ) + [f"{plural(n_empty, 'file')} {'holds' if n_empty == 1 else 'hold'} no text"] * bool(n_empty)
        why = f"of its {plural(n, 'file')}, " + " and ".join(parts) if n > 1 else parts[0]
        if reason and n == n_refused == 1:
            why = f"1 file is refused ({reason})"
    if instead:
        return f"nothing loaded from {what}: {why}; {kept} is the corpus instead"
    return f"nothing loaded from {what}: {why}; the corpus shown ({kept}) is kept"


class ProblemsBox(QWidget):
    """The problems of reading the corpus, then its files' notes, each whole.

    Signals:
        file_clicked(int): a note was clicked; the row of its file in the table's model.

    Attributes:
        label: the heading (an :class:`ElidedLabel` of two lines: "Problems: 1 · notes on 2
            files (below)"; its tooltip holds all of it).
        list: the ``QListWidget`` (wrapped items, no horizontal scrolling, fixed height).
    """

    file_clicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = ElidedLabel("Problems: none", lines=2)
        self.list = QListWidget()
        self.list.setFixedHeight(LIST_HEIGHT)
        self.list.setAlternatingRowColors(True)
        self.list.setWordWrap(True)  # each message wrapped at the list's width, never cut at the right
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.itemClicked.connect(self._clicked)
        self._n_problems = 0
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label)
        lay.addWidget(self.list)

    def show_problems(
        self,
        problems: Sequence[str],
        notes: Sequence[tuple[int, str, Sequence[str]]],
        lossy: Sequence[str],
        corpus_notes: Sequence[str] = (),
        apart: Sequence[tuple[str, Sequence[str]]] = (),
    ) -> None:
        """Show ``problems`` (messages), then ``corpus_notes`` (what the opening left out:
        ``note: skipped 2 tokenizer model files in data/: …``), then per file ``(row, label,
        notes)`` its notes as ``note: label: note`` (a note naming its file already keeps
        that name once); ``lossy``: the labels of the files loaded with U+FFFD, named in the heading;
        ``apart``: loads that replaced nothing, each ``(what it said, its refused files)``, listed
        after the problems, not counted with them (they are not the corpus shown's)."""
        self.list.clear()
        self.list.addItems(list(problems))
        for said, refused in apart:
            self.list.addItem(said)
            self.list.addItems([f"    {r}" for r in refused])
        self._n_problems = self.list.count()
        self.list.addItems([f"note: {n}" for n in corpus_notes])
        noted = 0
        for row, label, file_notes in notes:
            for note in file_notes:
                item = QListWidgetItem(f"note: {note if note.startswith(f'{label}: ') else f'{label}: {note}'}")
                item.setData(Qt.ItemDataRole.UserRole, row)
                item.setToolTip("Click to select the file in the table")
                self.list.addItem(item)
            noted += bool(file_notes)
        text = f"Problems: {len(problems)}" if problems else "Problems: none"
        if apart:
            text += f" · {plural(len(apart), 'opening')} that loaded nothing (below)"
        if corpus_notes:
            text += f" · {plural(len(corpus_notes), 'note')} on what was opened (below)"
        if noted:
            text += f" · notes on {plural(noted, 'file')} (below)"
        if lossy:  # loaded files, not problems: named here
            n = len(lossy)
            names = ", ".join(lossy[:3]) + (f" and {n - 3} more" if n > 3 else "")
            text += (
                f" · loaded with U+FFFD where bytes could not be decoded: {names} "
                f"(highlighted in the table; see {'its' if n == 1 else 'their'} notes)"
            )
        self.label.setText(text)

    def problem_messages(self) -> list[str]:
        """The problems listed (without the notes)."""
        return [self.list.item(i).text() for i in range(self._n_problems)]

    def note_messages(self) -> list[str]:
        """The notes listed (``note: a.txt: ...``)."""
        return [self.list.item(i).text() for i in range(self._n_problems, self.list.count())]

    def _clicked(self, item: QListWidgetItem) -> None:
        row = item.data(Qt.ItemDataRole.UserRole)
        if isinstance(row, int):
            self.file_clicked.emit(row)
