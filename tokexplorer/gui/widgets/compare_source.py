"""Which text the Compare tab shows, and the choice of corpus file to show there.

:func:`file_sample` cuts a corpus file to the Compare text (its first
:data:`COMPARE_MAX_CHARS` characters) and says where it comes from
(``AppState.sample_source``); :class:`CompareSourceBar` is the line above the
Compare editor: what the text is, and a combo of the corpus files to show instead.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSizePolicy, QWidget

from tokexplorer.core.io import Corpus, file_label
from tokexplorer.gui.state import AppState

COMPARE_MAX_CHARS = 2_000_000
"""The most characters of a corpus file shown in Compare (a longer file: its first ones)."""

#: What the Compare text is when it is the built-in sample (the corpus at startup).
BUILTIN_SOURCE = "the built-in sample text"
#: What the Compare text is when the corpus is streamed (its first characters, said in a note).
STREAMED_SOURCE = "a sample of the streamed corpus"


def file_source(corpus: Corpus, index: int) -> str:
    """Where the Compare text of ``corpus.files[index]`` comes from, as the Compare tab says
    it (``"Compare text: …"``): ``"doc.txt (the corpus file)"``, ``"emoji.txt (corpus file 1
    of 2)"``, or ``"the first 2,000,000 of N characters of big.txt (corpus file 1 of 2)"`` for a
    file longer than :data:`COMPARE_MAX_CHARS`; the file named below the folder opened
    (:func:`~tokexplorer.core.io.labels.file_label`). Raises IndexError for an index out of range."""
    f = corpus.files[index]
    n = len(corpus.files)
    label = file_label(f.path, corpus.roots)
    where = f"{label} (the corpus file)" if n == 1 else f"{label} (corpus file {index + 1} of {n})"
    if len(f.text) > COMPARE_MAX_CHARS:
        where = f"the first {COMPARE_MAX_CHARS:,} of {len(f.text):,} characters of {where}"
    return where


def file_sample(corpus: Corpus, index: int) -> tuple[str, str]:
    """``(text, source)``: the first :data:`COMPARE_MAX_CHARS` characters of
    ``corpus.files[index]`` and :func:`file_source`. Raises IndexError for an index out of range."""
    return corpus.files[index].text[:COMPARE_MAX_CHARS], file_source(corpus, index)


class CompareSourceBar(QWidget):
    """``Compare text: <what it is>`` and a combo to show another corpus file.

    Args:
        state: the shared :class:`AppState`; the bar follows ``corpus_changed`` and
            ``sample_source_changed`` and sets the sample text when a file is chosen.
        parent: optional parent widget.

    Attributes:
        label: QLabel ``"Compare text: emoji.txt (corpus file 1 of 2)"``.
        file_combo: QComboBox of the corpus files that have text (item data: the
            file's index in ``corpus.files``); hidden when the corpus has fewer than two.
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.label = QLabel(self)
        self.label.setWordWrap(True)  # never cut: a long name takes a second line
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.file_combo = QComboBox(self)
        self.file_combo.setToolTip("Show another corpus file in Compare (its first 2,000,000 characters)")
        # as wide as about 30 characters whatever the names: a long one is cut (whole in its tooltip)
        self.file_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.file_combo.setMinimumContentsLength(30)
        self.file_combo.activated.connect(self._on_chosen)
        self._choose = QLabel("Show corpus file:", self)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label, 1)
        lay.addWidget(self._choose)
        lay.addWidget(self.file_combo)
        state.corpus_changed.connect(self._fill)
        state.sample_source_changed.connect(self._update_label)
        self._fill(state.corpus)

    def _fill(self, corpus: Corpus | None) -> None:
        self.file_combo.clear()
        files = corpus.files if corpus is not None else []
        for i, f in enumerate(files):
            if f.text:
                self.file_combo.addItem(f"{file_label(f.path, corpus.roots)} ({f.n_chars:,} characters)", i)
                self.file_combo.setItemData(self.file_combo.count() - 1, str(f.path), Qt.ItemDataRole.ToolTipRole)
        many = self.file_combo.count() > 1
        self.file_combo.setVisible(many)
        self._choose.setVisible(many)
        self._update_label()

    def _update_label(self) -> None:
        what = self.state.sample_label()
        self.label.setText(f"Compare text: {what}")
        self.label.setToolTip(f"The text the columns tokenize and the merge table counts firings in: {what}")
        corpus = self.state.corpus
        for row in range(self.file_combo.count()):
            i = self.file_combo.itemData(row)
            if corpus is not None and file_source(corpus, i) == self.state.sample_source:
                self.file_combo.setCurrentIndex(row)
                break

    def _on_chosen(self, row: int) -> None:
        corpus = self.state.corpus
        if corpus is None or row < 0:
            return
        text, source = file_sample(corpus, self.file_combo.itemData(row))
        self.state.set_sample_text(text, source=source)
