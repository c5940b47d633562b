"""ElidedLabel: the whole text kept, as much shown as fits, "…" where it is cut, a tooltip then."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from tokexplorer.gui.widgets.elided_label import ElidedLabel, elided_lines, never_widens

TEXT = "tokenizer.model (tiktoken) · llama3 pattern · 128,256 tokens · Llama 3 ranks (recognised by SHA-256)"


_BOXES: list[QWidget] = []  # the windows of the labels shown, kept while a test reads them


def _shown(qtbot, label: ElidedLabel, width: int) -> ElidedLabel:
    box = QWidget()
    _BOXES[:] = [box]
    qtbot.addWidget(box)
    lay = QVBoxLayout(box)
    lay.setContentsMargins(0, 0, 0, 0)
    lay.addWidget(label)
    box.resize(width, 80)
    box.show()
    qtbot.waitExposed(box)
    return label


def test_a_long_text_is_cut_over_its_lines_and_kept_whole(qtbot):
    label = _shown(qtbot, ElidedLabel(TEXT, lines=2), 200)
    assert label.text() == TEXT
    lines = label.shown_lines()
    assert len(lines) == 2 and lines[0] == "tokenizer.model (tiktoken) ·" and lines[1].endswith("…")
    fm = label.fontMetrics()
    assert all(fm.horizontalAdvance(line) <= label.contentsRect().width() for line in lines)
    assert label.is_cut() and label.toolTip() == TEXT
    assert label.minimumSizeHint().width() < 80  # a few characters, whatever the text
    assert label.sizeHint().width() == fm.horizontalAdvance(TEXT)
    assert label.height() == 2 * fm.lineSpacing()


def test_a_text_that_fits_is_shown_whole_without_a_tooltip(qtbot):
    label = _shown(qtbot, ElidedLabel("8 files loaded"), 300)
    assert label.shown_lines() == ["8 files loaded"] and not label.is_cut() and label.toolTip() == ""
    label.set_tip("what the files are")
    assert label.toolTip() == "what the files are"
    label.setText(TEXT * 2)
    assert label.is_cut() and label.toolTip() == f"what the files are\n\n{TEXT * 2}"


def test_elided_lines_of_one_long_word(qtbot):
    font = QLabel().font()
    word = "a_corpus_file_whose_name_is_much_longer_than_a_line.txt"
    (only,) = elided_lines(word, font, 120, 1)
    assert only.endswith("…") and only[:-1] == word[: len(only) - 1]
    assert elided_lines(word, font, 120, 2) == [only]  # a word is never wrapped inside


def test_a_long_word_is_cut_not_wrapped_inside(qtbot):
    """The newcomer's header read "multilingual.tiktoke" / "n (tiktoken)"."""
    font = QLabel().font()
    text = "multilingual.tiktoken (tiktoken) · whisper pattern · 51,865 tokens"
    width = QFontMetrics(font).horizontalAdvance("multilingual.tikt")
    first, second = elided_lines(text, font, width, 2)
    assert first.endswith("…") and "multilingual.tiktoken".startswith(first[:-1])
    assert second.startswith("(tiktoken)") and second.endswith("…")
    label = _shown(qtbot, ElidedLabel(text, lines=2), width)
    assert label.is_cut() and label.toolTip() == text
    wide = QFontMetrics(font).horizontalAdvance("multilingual.tiktoken (tiktoken) ·") + 4
    assert elided_lines(text, font, wide, 2)[0] == "multilingual.tiktoken (tiktoken) ·"


def test_never_widens_lets_a_wrapped_label_take_the_width_given(qtbot):
    box = QWidget()
    qtbot.addWidget(box)
    label = never_widens(QLabel("/a/very/long/path/without/spaces/" * 6, box))
    assert label.wordWrap()
    QVBoxLayout(box).addWidget(label)
    assert box.minimumSizeHint().width() < 100
