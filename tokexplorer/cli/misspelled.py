"""A first argument that is a misspelled subcommand (``tokexplorer encdoe --file x.txt``)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from tokexplorer.cli.errors import UsageError
from tokexplorer.cli.output import PROG

__all__ = ["refuse_misspelled_command"]


def refuse_misspelled_command(args: Sequence[str], commands: Sequence[str]) -> None:
    """Refuse a first argument that is a misspelled one of ``commands``: close to one
    (``difflib``), no file or folder of that name, not shaped like a path (no folder
    separator, no extension). Anything else is left to the app's parser, as files.

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
    if not word or word.startswith("-") or word in commands or "/" in word or os.sep in word:
        return
    if os.path.splitext(word)[1] or os.path.exists(word):
        return
    import difflib  # (only for a word that is no command: a command's run imports none of it)

    close = difflib.get_close_matches(word, list(commands), n=1)
    if close:
        raise UsageError(
            f"unknown command {word!r}: did you mean {close[0]}? (the commands are {', '.join(commands)})", PROG
        )
