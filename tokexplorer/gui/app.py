"""Start the desktop app: ``main()`` builds the QApplication and the main window.

``tokexplorer [FILE ...] [--screenshot PNG]`` (see :mod:`tokexplorer.cli`) calls
:func:`main`. With ``screenshot=PNG`` the app waits until its startup work is
done (corpus loaded, default tokenizers loaded and trained), saves an image of
the window and exits, which is how the documentation screenshots are made.
"""

from __future__ import annotations

import ctypes
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from tokexplorer.gui import workers
from tokexplorer.gui.main_window import MainWindow

#: Window size at startup, in pixels.
WINDOW_SIZE = (1280, 800)
#: Screenshot mode: take the picture anyway after this many milliseconds
#: if the startup work has not finished (a stuck download, a slow machine).
SCREENSHOT_DEADLINE_MS = 120_000
#: Screenshot mode: let the panes paint for this long after startup, in milliseconds.
SCREENSHOT_SETTLE_MS = 400


def apply_pyside_refcount_workaround() -> bool:
    """Protect ``None``, ``True`` and ``False`` from PySide6's extra reference drops.

    PySide6 6.12's stable-ABI build drops one reference too many on some
    singletons when run on CPython 3.11, where they are not yet immortal
    (they are since 3.12): every ``Signal.emit()`` from Python loses a
    reference to ``True``, and every Python ``data()``/``headerData()`` override
    that returns ``None`` to Qt loses one to ``None``. After a few thousand
    such calls CPython aborts with "Fatal Python error: none_dealloc" (or
    ``bool_dealloc``). This adds 2**48 references to each of the three
    objects, making them immortal in practice, as CPython 3.12 does.

    Does nothing on CPython 3.12+ or other implementations, or when the object
    layout is not the plain one (reference count first).

    Returns:
        True when the reference counts were raised.
    """
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return False
    if hasattr(sys, "getobjects"):  # Py_TRACE_REFS build: other fields come first
        return False
    done = False
    for obj in (None, True, False):
        cell = ctypes.c_ssize_t.from_address(id(obj))
        # sys.getrefcount counts its own argument: one more than the field holds.
        if abs(cell.value - (sys.getrefcount(obj) - 1)) > 8:
            continue
        if cell.value < (1 << 47):
            cell.value += 1 << 48
            done = True
    return done


def main(argv: list[str] | None = None, *, screenshot: str | None = None) -> int:
    """Run tokexplorer's window until it is closed.

    Args:
        argv: files and folders to open as the corpus; None or empty opens the
            built-in sample text as the corpus and the compare text.
        screenshot: path of a PNG to write once the startup work is done; the
            app then exits instead of waiting for the user.

    Returns:
        The exit status: 0, or 1 when the screenshot could not be written.
    """
    paths = [a for a in (argv or []) if a]
    apply_pyside_refcount_workaround()
    app = QApplication.instance()
    if app is None:
        app = QApplication([sys.argv[0] if sys.argv else "tokexplorer"])
    app.setApplicationName("tokexplorer")
    app.setApplicationDisplayName("tokexplorer")
    app.aboutToQuit.connect(workers.cancel_all_and_wait)

    window = MainWindow()
    window.resize(*WINDOW_SIZE)
    window.show()
    status = {"code": 0, "taken": False}

    if screenshot:

        def take() -> None:
            if status["taken"]:
                return
            status["taken"] = True
            app.processEvents()
            if not window.grab().save(screenshot, "PNG"):
                print(f"tokexplorer: could not write the screenshot {screenshot}", file=sys.stderr)
                status["code"] = 1
            window.close()
            app.quit()

        window.startup_done.connect(lambda: QTimer.singleShot(SCREENSHOT_SETTLE_MS, take))
        QTimer.singleShot(SCREENSHOT_DEADLINE_MS, take)

    # Start the work once the event loop runs, so the window paints first.
    QTimer.singleShot(0, lambda: window.start_up(paths))
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
