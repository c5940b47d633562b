"""Longest match first, step by step: replay WordPiece encoding of one word.

Type a text, pick one of its pre-tokenized words, and step through every
look-up :meth:`WordPiece.match_steps <tokexplorer.core.wordpiece.model.WordPiece.match_steps>`
makes: the longest rest of the word is tried first (``##`` before a piece that
continues the word), then ever shorter ones, until the vocabulary has one; that
piece is taken and the search goes on after it. When no piece is found at
some position, or the word is longer than ``max_input_chars_per_word``, the
whole word becomes ``[UNK]``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.wordpiece import MatchStep, WordPiece
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import piece_font, shown_piece
from tokexplorer.gui.widgets.step_controls import StepControls

#: The text the replay starts with.
DEFAULT_WORDPIECE_TEXT = "Tokenizers are playing unaffordable games"
_NONE_TEXT = "Train a WordPiece in the Corpus tab to replay its longest-match-first encoding."


def describe(wp: WordPiece, word: str, steps: list[MatchStep], upto: int) -> str:
    """One line: the pieces taken after look-up ``upto`` (0-based), and the outcome
    when that was the last look-up.

    >>> wp = WordPiece(["[UNK]", "play", "##ing"])
    >>> word = "playing"
    >>> describe(wp, word, wp.match_steps(word), 3)
    'pieces so far: play ##ing · done: play ##ing'
    """
    taken = [shown_piece(s.candidate) for s in steps[: upto + 1] if s.found]
    text = "pieces so far: " + (" ".join(taken) if taken else "none")
    if upto < len(steps) - 1:
        return text
    if steps and not steps[-1].found:
        return f"{text} · no piece for '{shown_piece(steps[-1].candidate)}': the word becomes {wp.unk_token}"
    return text + " · done: " + " ".join(shown_piece(wp.vocab[i]) for i in wp.encode_word(word))


class WordPieceReplay(QWidget):
    """The longest-match-first replay of one word of a typed text.

    Attributes:
        text_edit: the text; word_combo: its pre-tokenized words.
        table: one row per look-up (piece tried, characters, found?).
        controls: the :class:`StepControls`; result: the pieces so far.
        name: how the model is named (its column's name: ``"cli.wordpiece (WordPiece)"``).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.wordpiece: WordPiece | None = None
        self.name = ""
        self.steps: list[MatchStep] = []
        self.text_edit = QLineEdit(DEFAULT_WORDPIECE_TEXT)
        self.word_combo = QComboBox()
        self.word_combo.setMinimumWidth(160)
        self.info = QLabel(_NONE_TEXT)
        self.info.setWordWrap(True)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Look-up", "Characters", "In the vocabulary?", "Then"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.controls = StepControls()
        self.result = QLabel()
        self.result.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        top = QHBoxLayout()
        top.addWidget(QLabel("Text:"))
        top.addWidget(self.text_edit, 1)
        top.addWidget(QLabel("Word:"))
        top.addWidget(self.word_combo)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.info)
        layout.addWidget(self.controls)
        layout.addWidget(self.result)
        layout.addWidget(self.table, 1)
        self.text_edit.textChanged.connect(self._fill_words)
        self.word_combo.currentIndexChanged.connect(self._replay_word)
        self.controls.step_changed.connect(self._show_step)

    def set_wordpiece(self, wp: WordPiece | None, *, name: str | None = None) -> None:
        """Replay this model (None: say how to get one), named ``name`` (default: its own name)."""
        self.wordpiece = wp
        self.name = name or (wp.name if wp is not None else "")
        self._fill_words()

    def set_name(self, name: str) -> None:
        """Name the model anew (it was saved or its column renamed); the replay stays as it is."""
        if name != self.name:
            self.name = name
            self._say_what()

    def _fill_words(self, *_args: object) -> None:
        self.word_combo.blockSignals(True)
        self.word_combo.clear()
        if self.wordpiece is not None:
            for w in self.wordpiece.words(self.text_edit.text()):
                self.word_combo.addItem(w.text)
        self.word_combo.blockSignals(False)
        # the first word with more than one piece or [UNK] is the interesting one
        if self.wordpiece is not None:
            for i in range(self.word_combo.count()):
                if len(self.wordpiece.match_steps(self.word_combo.itemText(i))) > 1:
                    self.word_combo.setCurrentIndex(i)
                    break
        self._replay_word()

    def _replay_word(self, *_args: object) -> None:
        wp, word = self.wordpiece, self.word_combo.currentText()
        self.steps = wp.match_steps(word) if wp is not None and word else []
        self.table.setRowCount(len(self.steps))
        for r, s in enumerate(self.steps):
            then = f"take it, go on at character {s.end}" if s.found else "try one character shorter"
            if s.found and s.end == len(word):
                then = "take it: the word is covered"
            if not s.found and s.end == s.start + 1:
                then = f"nothing left to try: {wp.unk_token}" if wp is not None else ""
            cells = (shown_piece(s.candidate), f"{s.start}–{s.end}", "yes" if s.found else "no", then)
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 0:
                    item.setFont(piece_font())
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.controls.set_count(len(self.steps))
        self.controls.set_step(len(self.steps) - 1)
        self._show_step(self.controls.step)
        self._say_what()

    def _say_what(self) -> None:
        wp, word = self.wordpiece, self.word_combo.currentText()
        if wp is None:
            self.info.setText(_NONE_TEXT)
        elif word and not self.steps:
            self.info.setText(
                f"{word!r} is longer than {wp.max_input_chars_per_word} characters: {wp.unk_token} without a look-up"
            )
        else:
            chars = "character" if len(word) == 1 else "characters"
            looks = "look-up" if len(self.steps) == 1 else "look-ups"
            self.info.setText(f"{self.name}: longest match first over {len(word)} {chars}, {len(self.steps)} {looks}")

    def _show_step(self, i: int) -> None:
        wp = self.wordpiece
        for r in range(self.table.rowCount()):
            fill = theme.REPLAY_CHOSEN_FILL if r == i else None
            for c in range(self.table.columnCount()):
                item = self.table.item(r, c)
                if item is not None:
                    item.setBackground(fill if fill is not None else Qt.GlobalColor.transparent)
        if wp is not None and self.steps and 0 <= i < len(self.steps):
            self.result.setText(describe(wp, self.word_combo.currentText(), self.steps, i))
            self.table.scrollToItem(self.table.item(i, 0))
        else:
            self.result.setText("")
