"""The core's advice in the window's terms.

The core names what a user can do as settings ("give its encoding", "open its raw
bytes"), the words of no front end. Where the window's control is not named by those
words, :func:`in_window_terms` says it: every worker error (:func:`~tokexplorer.gui.workers.user_message`)
and the Corpus tab's Problems list, status bar and dialogs go through it. The command
line adds its flags instead (``tokexplorer.cli.terms``).
"""

from __future__ import annotations

from tokexplorer.core.io import BOMLESS_CODECS, READ_ANYWAY, encoding_hint

__all__ = ["WINDOW_READ_ANYWAY", "WINDOW_TERMS", "in_window_terms"]

#: How the window says a refused file can be seen anyway.
WINDOW_READ_ANYWAY = "to see it anyway, open its raw bytes (File ▸ Open raw bytes…)"

#: Pairs ``(the core's advice, the window's)``.
WINDOW_TERMS: tuple[tuple[str, str], ...] = (
    (READ_ANYWAY, WINDOW_READ_ANYWAY),
    *(
        (encoding_hint(codec), "the window reads UTF-16 only with a byte order mark; " + WINDOW_READ_ANYWAY)
        for codec in BOMLESS_CODECS
    ),
)


def in_window_terms(message: str) -> str:
    """``message`` with the core's advice said with the window's controls.

    >>> in_window_terms("x.bin: not loaded; " + READ_ANYWAY)
    'x.bin: not loaded; to see it anyway, open its raw bytes (File ▸ Open raw bytes…)'
    """
    for core, window in WINDOW_TERMS:
        message = message.replace(core, window)
    return message
