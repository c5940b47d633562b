"""The Corpus tab's problem messages in the window's terms.

The core's reading messages end with how to read a refused file, named as settings;
the Problems list, status bar and dialogs name the window's own control instead
(File ▸ Open raw bytes…; :mod:`tokexplorer.gui.terms`). And a folder that gives
nothing to read says what it held, every file counted.
"""

from __future__ import annotations

from tokexplorer.gui.terms import WINDOW_READ_ANYWAY, in_window_terms

__all__ = ["WINDOW_READ_ANYWAY", "in_window_terms", "nothing_loaded"]


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' if n != 1 else ''}"


def nothing_loaded(what: str, *, n_empty: int, n_refused: int, kept: str) -> str:
    """The message of a read that gave no text while the corpus ``kept`` (its name) stays.

    Args:
        what: what was opened (``"n7bad"``, ``"a.txt and 2 more"``).
        n_empty: files read that hold no text; n_refused: files refused (listed under Problems).

    >>> nothing_loaded("n7bad", n_empty=1, n_refused=1, kept="big30.txt")[:100]
    'nothing loaded from n7bad: of its 2 files, 1 file is refused (see Problems) and 1 file holds no text'
    """
    n = n_empty + n_refused
    if not n:
        why = "no files in it"
    else:
        parts = [f"{_plural(n_refused, 'file')} {'is' if n_refused == 1 else 'are'} refused (see Problems)"] * bool(
            n_refused
        ) + [f"{_plural(n_empty, 'file')} {'holds' if n_empty == 1 else 'hold'} no text"] * bool(n_empty)
        why = f"of its {_plural(n, 'file')}, " + " and ".join(parts) if n > 1 else parts[0]
    return f"nothing loaded from {what}: {why}; the corpus shown ({kept}) is kept"
