"""``tokexplorer [FILE ...] [--screenshot PNG]``: start the desktop app.

The GUI package is imported here, when the app starts, and nowhere else in the
command line: the subcommands run without Qt.
"""

from __future__ import annotations

import argparse
import os
import sys

from tokexplorer.cli.errors import EXIT_ERROR
from tokexplorer.cli.inputs import check_output_path
from tokexplorer.cli.output import error
from tokexplorer.core.errors import InputError


def _no_display() -> bool:
    """True on Linux/BSD when no X11 or Wayland display is set and no Qt platform is chosen."""
    if sys.platform.startswith(("win", "darwin")) or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _not_a_command(files: list[str]) -> str:
    """The hint for a lone word that is no file and no path either (``tokexplorer frobnicate``,
    a misspelled command): ``" (not a command either: the commands are train, count, ...)"``,
    with the closest command first when one is close; ``""`` for anything that looks like a path.

    >>> _not_a_command(["encdoe"])[:64]
    ' (not a command either: did you mean encode? the commands are tr'
    >>> _not_a_command(["notes.txt"]), _not_a_command(["data/x"]), _not_a_command(["a", "b"])
    ('', '', '')
    """
    from tokexplorer.cli.misspelled import closest_command, shaped_like_a_path
    from tokexplorer.cli.parser import SUBCOMMANDS

    word = files[0] if len(files) == 1 else ""
    if not word or shaped_like_a_path(word):
        return ""
    close = closest_command(word, SUBCOMMANDS)
    mean = f"did you mean {close}? " if close else ""
    return f" (not a command either: {mean}the commands are {', '.join(SUBCOMMANDS)})"


def run_app(ns: argparse.Namespace) -> int:
    """Start the desktop app on ``ns.files`` (or the built-in sample)."""
    missing = [f for f in ns.files if not os.path.exists(f)]
    if missing:
        raise InputError(f"no such file or folder: {missing[0]}{_not_a_command(ns.files)}")
    if ns.screenshot is not None:
        check_output_path(ns.screenshot)
    if _no_display():
        if ns.screenshot is None:
            error(
                "no display (DISPLAY and WAYLAND_DISPLAY are not set); run it in a desktop "
                "session, or use --screenshot PNG to render the window offscreen"
            )
            return EXIT_ERROR
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
        # the offscreen platform warns about window hints it ignores; say nothing
        os.environ.setdefault("QT_LOGGING_RULES", "qt.qpa.*=false")
    try:
        from tokexplorer.gui.app import main as gui_main
    except ImportError as exc:
        error(
            f"cannot start the app: {exc} (on Debian: apt-get install libegl1 libgl1 "
            "libglib2.0-0 libfontconfig1 libxkbcommon0 libdbus-1-3, see README.md)"
        )
        return EXIT_ERROR
    return int(gui_main(list(ns.files), screenshot=ns.screenshot) or 0)
