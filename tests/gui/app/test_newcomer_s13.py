"""What a newcomer met (session 13): tofu with nothing said, an error column squeezed to a
word a line, the refused folder's problems counted with the corpus kept, and two byte counts
that did not say which is which."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from tokexplorer.gui import app, font_check, symbols
from tokexplorer.gui.widgets.token_column import ERROR_MIN_CHARS, TokenColumn

WAIT = 20_000


def test_the_missing_scripts_are_said_in_one_line_with_examples(capsys, monkeypatch):
    """No font for Han and Hiragana (monkeypatched: the test machine may have one): one line
    on stderr naming the scripts in words, an example of each with its code point, the package."""
    monkeypatch.setattr(font_check, "has_glyph", lambda ch: ch not in "你好の")
    monkeypatch.setattr(font_check, "said_scripts", set())
    status = app.say_missing_fonts("Hi 你好, の 👋 café")
    assert capsys.readouterr().err == (
        "tokexplorer: no installed font shows Han, Hiragana (e.g. 你 U+4F60, の U+306E): install fonts-noto-cjk\n"
    )
    assert status == (
        "⚠ some characters show as boxes: no installed font has Han, Hiragana (e.g. 你 U+4F60, の U+306E); "
        "install fonts-noto-cjk"
    )
    assert app.say_missing_fonts("你好 again") is None  # said once a run
    assert capsys.readouterr().err == ""


def test_missing_scripts_sorts_emoji_and_symbols(qapp, monkeypatch):
    monkeypatch.setattr(font_check, "has_glyph", lambda ch: False)
    missing = font_check.missing_scripts("a\u3002\u0c24\U0001f44b\u200d ")  # 。 Telugu 👋 ZWJ space
    assert missing == {"symbols": ["\u3002"], "Telugu": ["\u0c24"], "emoji": ["\U0001f44b"]}
    assert font_check.missing_line(missing) == (
        "tokexplorer: no installed font shows Telugu, emoji, symbols "
        "(e.g. \u0c24 U+0C24, \U0001f44b U+1F44B, \u3002 U+3002): install fonts-noto-core fonts-noto-color-emoji"
    )


def test_qt_notices_name_the_script_in_words(capsys, monkeypatch):
    monkeypatch.setattr(font_check, "said_scripts", set())
    monkeypatch.setattr(app, "font_notice", None)
    context = app.QMessageLogContext()
    for font in ("DejaVu Sans", "Noto Sans Mono"):
        app.qt_message(app.QtMsgType.QtWarningMsg, context, f'OpenType support missing for "{font}", script 17')
    app.qt_message(app.QtMsgType.QtWarningMsg, context, 'OpenType support missing for "X", script 16')
    err = capsys.readouterr().err.splitlines()
    assert [line.split(" (Qt:")[0] for line in err] == [
        "tokexplorer: no installed font shapes Telugu",
        "tokexplorer: no installed font shapes Tamil",
    ]
    assert "script 17" not in err[0].split(" (Qt:")[0]


def test_symbols_without_a_font_get_their_plain_stand_in(qtbot, monkeypatch):
    monkeypatch.setattr(symbols, "has_glyph", lambda ch: ch != "\u24d8")
    symbols.check()
    try:
        assert symbols.plain("\u24d8 note \u26a0 x") == "(i) note \u26a0 x"
        label = QLabel("\u24d8 streamed")
        qtbot.addWidget(label)
        symbols.plain_widgets(label)
        assert label.text() == "(i) streamed"
    finally:
        monkeypatch.undo()
        symbols.check()


def test_an_error_column_keeps_a_readable_width(qtbot):
    col = TokenColumn(None)
    qtbot.addWidget(col)
    col.show_result("text contains the special token '<|endoftext|>'; choose Special tokens")
    least = ERROR_MIN_CHARS * col.error_label.fontMetrics().averageCharWidth()
    assert col.error_label.minimumWidth() == least
    assert col.minimumSizeHint().width() >= least
    col.resize(60, 400)
    assert col.error_label.width() >= least or col.minimumSizeHint().width() >= least


def test_a_refused_folder_is_listed_apart_with_its_name(qtbot, window, tmp_path):
    kept = tmp_path / "corpus"
    kept.mkdir()
    (kept / "a.txt").write_text("hello world\n", encoding="utf-8")
    (kept / "image.bin").write_bytes(b"\x00\xff\x01\x02")
    binonly = tmp_path / "binonly"
    binonly.mkdir()
    (binonly / "image.bin").write_bytes(b"\x00\xff\x01\x02")
    (binonly / "empty.txt").write_bytes(b"")
    fl = window.corpus_pane.file_list
    with qtbot.waitSignal(window.state.corpus_changed, timeout=WAIT):
        window.open_paths([str(kept)])
    qtbot.waitUntil(lambda: fl.problem_messages() != [], timeout=WAIT)
    assert fl.problem_messages()[0].startswith("image.bin: looks like a binary file")
    with qtbot.waitSignal(fl.load_failed, timeout=WAIT) as blocker:
        window.open_paths([str(binonly)])
    problems = fl.problem_messages()
    binary = "looks like a binary file (not UTF-8, NUL byte at offset 0)"
    assert [p.split(";")[0] for p in problems] == [
        f"corpus/image.bin: {binary}",
        blocker.args[0].split(";")[0],
        f"    binonly/image.bin: {binary}",
    ]
    assert blocker.args[0].startswith("nothing loaded from binonly")
    assert fl.problems_box.label.text().startswith("Problems: 1 · 1 opening that loaded nothing (below)")
    assert fl.totals_label.text() == "1 file · 12 bytes on disk · 12 characters · 1 line"
