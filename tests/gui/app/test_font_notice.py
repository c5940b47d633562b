"""Qt's "OpenType support missing" notices (one per font tried for a script no font
it tried shapes, dozens for one Telugu word) become one line saying what to do."""

from __future__ import annotations

from PySide6.QtCore import QMessageLogContext, QtMsgType

from tokexplorer.gui import app


def test_font_notices_are_said_once_with_what_to_do(capsys, monkeypatch):
    monkeypatch.setattr(app.font_check, "said_scripts", set())  # the process-wide once per script
    context = QMessageLogContext()
    for font in ("DejaVu Sans", "Noto Sans Mono", "Noto Color Emoji"):
        app.qt_message(QtMsgType.QtWarningMsg, context, f'OpenType support missing for "{font}", script 17')
    app.qt_message(QtMsgType.QtWarningMsg, context, "some other warning")
    err = capsys.readouterr().err.splitlines()
    assert err == [
        app.FONT_HINT.format(
            script="Telugu", message='OpenType support missing for "DejaVu Sans", script 17', package="fonts-noto-core"
        ),
        "some other warning",
    ]
    assert "fonts-noto-core" in err[0]


def test_the_font_hint_reaches_the_status_bar_once(qtbot, monkeypatch):
    """stderr is out of sight when the app starts from a desktop menu: the window's status
    bar says it too (queued: the notice may come while a view paints)."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QStatusBar

    monkeypatch.setattr(app.font_check, "said_scripts", set())
    notice = app.FontNotice()
    monkeypatch.setattr(app, "font_notice", notice)
    bar = QStatusBar()
    qtbot.addWidget(bar)
    notice.said.connect(bar.showMessage, Qt.ConnectionType.QueuedConnection)
    context = QMessageLogContext()
    with qtbot.waitSignal(notice.said, timeout=1000):
        for font in ("DejaVu Sans", "Noto Sans Mono"):
            app.qt_message(QtMsgType.QtWarningMsg, context, f'OpenType support missing for "{font}", script 17')
    qtbot.waitUntil(lambda: bar.currentMessage() != "", timeout=1000)
    assert bar.currentMessage() == (
        "⚠ some characters may show as boxes or unjoined: no installed font shapes Telugu; install fonts-noto-core"
    )
