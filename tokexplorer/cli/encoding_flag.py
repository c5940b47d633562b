"""``--encoding`` for a list of files: one codec for every file, and codecs for some files.

``--encoding CODEC`` decodes every file with CODEC; ``--encoding PATH=CODEC`` (repeatable)
decodes only the file PATH (or the files under a folder PATH) with it, the others by the
reading rule or by the plain ``--encoding CODEC`` given beside.

>>> import argparse
>>> p = argparse.ArgumentParser()
>>> add_files_encoding(p)
>>> p.parse_args(["--encoding", "gbk"]).encoding
'gbk'
>>> p.parse_args(["--encoding", "data/fr.txt=cp1252", "--encoding", "gbk"]).encoding
FileEncodings(default='gbk', files=(('data/fr.txt', 'cp1252'),))
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["FILES_ENCODING_HELP", "add_files_encoding"]

#: The help of ``--encoding`` for a list of files.
FILES_ENCODING_HELP = (
    "decode every file with this codec (e.g. gbk, utf-16, latin-1) instead of UTF-8 or a guess; "
    "PATH=CODEC decodes only that file (or the files of that folder) with it, the others as before "
    "(repeat it for more files)"
)


class _FileEncodingsAction(argparse.Action):
    """Collects ``CODEC`` and ``PATH=CODEC`` values: a plain codec alone stays a string (the
    codec of every file); with a ``PATH=CODEC`` the value is a ``FileEncodings``."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option: str | None = None
    ) -> None:
        from tokexplorer.core.io import FileEncodings

        value = str(values)
        old = getattr(namespace, self.dest, None)
        chosen = old if isinstance(old, FileEncodings) else FileEncodings(old)
        if "=" in value:
            path, _, codec = value.rpartition("=")
            if not path or not codec:
                parser.error(f"--encoding {value}: give PATH=CODEC (a file or folder, then its codec) or CODEC")
            chosen = FileEncodings(chosen.default, (*chosen.files, (path, codec)))
        elif chosen.default is not None:
            parser.error(f"--encoding {value}: a codec for every file was already given ({chosen.default}); "
                         "for one file give PATH=CODEC")  # fmt: skip
        else:
            chosen = FileEncodings(value, chosen.files)
        setattr(namespace, self.dest, chosen if chosen.files else chosen.default)


def add_files_encoding(p: argparse.ArgumentParser, *, help_text: str = FILES_ENCODING_HELP) -> None:
    """Add ``--encoding [PATH=]CODEC`` (repeatable) to a command that reads files (``help_text``: its help)."""
    p.add_argument("--encoding", metavar="[PATH=]CODEC", action=_FileEncodingsAction, help=help_text)
