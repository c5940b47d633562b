"""The Corpus tab's problem messages in the window's terms.

The core's reading messages end with how to read a refused file on the command
line (``--encoding latin-1``); the window has no such flag, so its Problems list,
status bar and dialogs name the window's own control instead (File ▸ Open raw
bytes…). And a folder that gives nothing to read says what it held, every file counted.
"""

from __future__ import annotations

from tokexplorer.core.io import READ_ANYWAY, Corpus, encoding_hint

__all__ = ["WINDOW_READ_ANYWAY", "corpus_name", "in_window_terms", "nothing_loaded"]

#: How the window says a refused file can be seen anyway.
WINDOW_READ_ANYWAY = "to see it anyway, open its raw bytes (File ▸ Open raw bytes…)"

# the command line's ways (core.io.encodings) -> the window's
_WINDOW_TERMS = (
    (READ_ANYWAY, WINDOW_READ_ANYWAY),
    (encoding_hint("utf-16-le"), "the window reads UTF-16 only with a byte order mark; " + WINDOW_READ_ANYWAY),
    (encoding_hint("utf-16-be"), "the window reads UTF-16 only with a byte order mark; " + WINDOW_READ_ANYWAY),
)


def in_window_terms(message: str) -> str:
    """``message`` with the command line's advice replaced by the window's.

    >>> in_window_terms("x.bin: not loaded; " + READ_ANYWAY)
    'x.bin: not loaded; to see it anyway, open its raw bytes (File ▸ Open raw bytes…)'
    """
    for cli, window in _WINDOW_TERMS:
        message = message.replace(cli, window)
    return message


def corpus_name(corpus: Corpus) -> str:
    """A corpus named for a message: ``"big30.txt"``, ``"english.txt and 7 more files"``."""
    if not corpus.files:
        return "no files"
    more = len(corpus.files) - 1
    return corpus.files[0].name + (f" and {more} more file{'s' * (more != 1)}" if more else "")


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
