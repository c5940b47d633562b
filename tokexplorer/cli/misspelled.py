"""A first argument that is a misspelled subcommand (``tokexplorer encdoe --file x.txt``)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from tokexplorer.cli.errors import UsageError
from tokexplorer.cli.output import PROG

__all__ = ["closest_command", "refuse_misspelled_command", "shaped_like_a_path"]


def shaped_like_a_path(word: str) -> bool:
    """Whether ``word`` reads as a path rather than a command: it holds a folder separator
    or has an extension (``data/x``, ``notes.txt``).

    >>> shaped_like_a_path("notes.txt"), shaped_like_a_path("data/x"), shaped_like_a_path("encdoe")
    (True, True, False)
    """
    return "/" in word or os.sep in word or bool(os.path.splitext(word)[1])


def closest_command(word: str, commands: Sequence[str]) -> str | None:
    """The one of ``commands`` that ``word`` is closest to (``difflib``), or None when none is close.

    >>> closest_command("encdoe", ["train", "encode"]), closest_command("zzz", ["encode"])
    ('encode', None)
    """
    import difflib  # (only for a word that is no command: a command's run imports none of it)

    close = difflib.get_close_matches(word, list(commands), n=1)
    return close[0] if close else None


def refuse_misspelled_command(args: Sequence[str], commands: Sequence[str]) -> None:
    """Refuse a first argument that is a misspelled one of ``commands``: close to one
    (:func:`closest_command`), no file or folder of that name, not :func:`shaped_like_a_path`.
    Anything else is left to the app's parser, as files.

    Raises:
        UsageError: ``"unknown command 'encdoe': did you mean encode? (the commands are ...)"``.

    >>> refuse_misspelled_command(["notes.txt"], ["encode"]), refuse_misspelled_command(["zzz"], ["encode"])
    (None, None)
    >>> refuse_misspelled_command(["encdoe", "--file", "x.txt"], ["train", "encode"])
    Traceback (most recent call last):
    ...
    tokexplorer.cli.errors.UsageError: unknown command 'encdoe': did you mean encode? (the commands are train, encode)
    """
    word = args[0] if args else ""
    if not word or word.startswith("-") or word in commands or shaped_like_a_path(word) or os.path.exists(word):
        return
    close = closest_command(word, commands)
    if close is not None:
        raise UsageError(
            f"unknown command {word!r}: did you mean {close}? (the commands are {', '.join(commands)})", PROG
        )
