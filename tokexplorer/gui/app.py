"""Start the desktop app: ``main()`` builds the QApplication and the main window.

``tokexplorer [FILE ...] [--screenshot PNG]`` (see :mod:`tokexplorer.cli`) calls
:func:`main`. With ``screenshot=PNG`` the app waits until its startup work is
done (corpus loaded, default tokenizers loaded and trained), saves an image of
the window and exits, which is how the documentation screenshots are made.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile

from PySide6.QtCore import QMessageLogContext, QObject, QSettings, Qt, QTimer, QtMsgType, Signal, qInstallMessageHandler
from PySide6.QtWidgets import QApplication, QStatusBar

from tokexplorer.gui import font_check, settings, symbols, theme, workers
from tokexplorer.gui.main_window import MainWindow
from tokexplorer.gui.state import AppState

#: Window size at startup, in pixels.
WINDOW_SIZE = (1280, 800)
#: Screenshot mode: take the picture anyway after this many milliseconds
#: if the startup work has not finished (a stuck download, a slow machine).
SCREENSHOT_DEADLINE_MS = 120_000
#: Screenshot mode: let the panes paint for this long after startup, in milliseconds.
SCREENSHOT_SETTLE_MS = 400


#: How often (seconds) a thread holding the interpreter lock offers it to a waiting one.
SWITCH_INTERVAL_S = 0.001

_OFFSCREEN_NOISE = ("This plugin does not support propagateSizeHints()",)

#: How Qt starts its notice that a font it tried for a script lacks that script's shaping
#: tables; it prints one per font and script (dozens for one Telugu word on a desktop
#: with no Telugu font), ending in Qt's number of the script ("script 17").
FONT_NOTICE = "OpenType support missing for "
#: What the window says instead, once per script: what it means and what the user can do.
FONT_HINT = (
    "tokexplorer: no installed font shapes {script} (Qt: {message}); if its characters show as "
    "boxes or unjoined, install a font for it (Debian: {package})"
)
#: What the window's status bar says once :data:`FONT_HINT` was said (stderr is out of sight
#: when the app starts from a desktop menu).
FONT_STATUS = (
    "{warning} some characters may show as boxes or unjoined: no installed font shapes {script}; install {package}"
)
#: How long the compare text stays unchanged before its characters are checked for fonts (ms).
FONT_CHECK_DELAY_MS = 300
_QT_SCRIPT = re.compile(r"script (\d+)\s*$")


class FontNotice(QObject):
    """Carries the font hints from Qt's message handler (any thread, maybe mid-paint) and
    from the check of the shown text to the window, queued: ``said`` is emitted once per
    script, the first time it is found without a font."""

    said = Signal(str)


#: The one notice object (made by :func:`configure_application`; None before).
font_notice: FontNotice | None = None


def font_hint(message: str) -> tuple[str, str] | None:
    """The stderr line and the status bar text for Qt's notice ``message``, or None when its
    script was said already (:data:`tokexplorer.gui.font_check.said_scripts`)."""
    m = _QT_SCRIPT.search(message)
    script = font_check.qt_script_name(int(m.group(1))) if m else "a script of this text"
    if script in font_check.said_scripts:
        return None
    font_check.said_scripts.add(script)
    package = font_check.PACKAGES.get(script, font_check.DEFAULT_PACKAGE)
    status = FONT_STATUS.format(warning=symbols.plain("\u26a0"), script=script, package=package)
    return FONT_HINT.format(script=script, message=message, package=package), status


def qt_message(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
    """Qt's messages on stderr, but :data:`FONT_NOTICE` said once per script as :data:`FONT_HINT`
    and the offscreen platform's notice about window hints it ignores dropped."""
    if message.startswith(FONT_NOTICE):
        hint = font_hint(message)
        if hint is not None:
            print(hint[0], file=sys.stderr)
            if font_notice is not None:
                font_notice.said.emit(hint[1])
        return
    if message in _OFFSCREEN_NOISE and os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        return
    print(message, file=sys.stderr)


def say_missing_fonts(text: str) -> str | None:
    """Say on stderr, in one line, the scripts of ``text`` no installed font draws that were
    not said before (:func:`tokexplorer.gui.font_check.missing_line`); returns the status
    bar's warning for them, or None when there is nothing new to say."""
    missing = {s: c for s, c in font_check.missing_scripts(text).items() if s not in font_check.said_scripts}
    if not missing:
        return None
    font_check.said_scripts.update(missing)
    print(font_check.missing_line(missing), file=sys.stderr)
    return font_check.missing_status(missing, symbols.plain("\u26a0"))


class TextFontWatch(QObject):
    """Checks the compare text for characters no installed font draws, once it has not
    changed for :data:`FONT_CHECK_DELAY_MS` (at start: the built-in sample or the first
    file), and puts :func:`say_missing_fonts`' warning in ``bar``."""

    def __init__(self, state: AppState, bar: QStatusBar) -> None:
        super().__init__(bar)
        self._state, self._bar = state, bar
        self._timer = QTimer(self, singleShot=True, interval=FONT_CHECK_DELAY_MS)
        self._timer.timeout.connect(self.check)
        state.sample_text_changed.connect(lambda _text: self._timer.start())

    def check(self) -> None:
        """Check the compare text now."""
        status = say_missing_fonts(self._state.sample_text)
        if status:
            self._bar.showMessage(status)


def configure_application(app: QApplication) -> None:
    """Name the application (and so where its settings live, see :mod:`tokexplorer.gui.settings`),
    make the one font-dependent choice, size the worker pool and stop every worker when it quits."""
    # Token texts show control characters as Control Pictures (␊, ␉) only when
    # some installed font has them; many Linux desktops have none (tofu boxes).
    # Decided once, here in the GUI thread; the views pass the choice on.
    global font_notice
    theme.control_pictures()
    symbols.check()
    if font_notice is None:
        font_notice = FontNotice()
    workers.size_pool()
    # Workers run Python too: hand the interpreter lock back to the GUI thread more
    # often than every 5 ms, so that several busy workers do not add up to a stall.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    app.setOrganizationName(settings.ORGANIZATION)
    app.setApplicationName(settings.APPLICATION)
    app.setApplicationDisplayName("tokexplorer")
    app.aboutToQuit.connect(workers.cancel_all_and_wait)


def main(argv: list[str] | None = None, *, screenshot: str | None = None) -> int:
    """Run tokexplorer's window until it is closed.

    Args:
        argv: files and folders to open as the corpus; None or empty reopens the
            last corpus (when that setting is on and its files still exist), else
            the built-in sample text as the corpus and the compare text.
        screenshot: path of a PNG to write once the startup work is done; the
            app then exits instead of waiting for the user. The window then starts
            from fresh settings in a temporary folder (the user's are not read or
            written), so screenshots do not depend on the last session.

    Returns:
        The exit status: 0, or 1 when the screenshot could not be written.
    """
    paths = [a for a in (argv or []) if a]
    qInstallMessageHandler(qt_message)
    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "tokexplorer"])
    configure_application(app)
    if screenshot:
        fresh = tempfile.mkdtemp(prefix="tokexplorer-settings-")
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, fresh)

    window = MainWindow()
    if not window.memory.layout_restored:
        window.resize(*WINDOW_SIZE)
    symbols.plain_widgets(window)
    TextFontWatch(window.state, window.statusBar())
    window.show()
    if font_notice is not None:  # queued: the message may come while a view paints
        font_notice.said.connect(window.statusBar().showMessage, Qt.ConnectionType.QueuedConnection)
    status = {"code": 0, "taken": False}

    if screenshot:

        def take() -> None:
            if status["taken"]:
                return
            status["taken"] = True
            app.processEvents()
            if not window.grab().save(screenshot, "PNG"):
                print(
                    f"tokexplorer: could not write the screenshot {screenshot}",
                    file=sys.stderr,
                )
                status["code"] = 1
            window.close()
            app.quit()

        window.startup.done.connect(lambda: QTimer.singleShot(SCREENSHOT_SETTLE_MS, take))
        QTimer.singleShot(SCREENSHOT_DEADLINE_MS, take)

    # Start the work once the event loop runs, so the window paints first; tokenizer files
    # and model folders among the paths open as tokenizers, by the core's rule (a folder
    # holding text files is a corpus folder), as drag and drop sorts them
    QTimer.singleShot(0, lambda: window.start(paths))
    code = app.exec()
    window.deleteLater()
    return status["code"] or int(code)


if __name__ == "__main__":  # python -m tokexplorer.gui.app [FILE ...] [--screenshot PNG]
    import argparse

    parser = argparse.ArgumentParser(prog="tokexplorer")
    parser.add_argument("files", nargs="*")
    parser.add_argument("--screenshot", metavar="PNG")
    ns = parser.parse_args()
    raise SystemExit(main(ns.files, screenshot=ns.screenshot))
