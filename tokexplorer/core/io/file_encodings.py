"""A codec for every file, or for some files by path: how a user fixes the guess of one file
of a folder and leaves the others to the reading rule.

>>> chosen = FileEncodings(default=None, files=(("data/fr.txt", "cp1252"),))
>>> codec_for(chosen, "data/fr.txt"), codec_for(chosen, "data/de.txt"), codec_for("gbk", "x.txt")
('cp1252', None, 'gbk')
"""

from __future__ import annotations

import os
from dataclasses import dataclass

__all__ = ["FileEncodings", "codec_for", "given_codecs"]


@dataclass(frozen=True, slots=True)
class FileEncodings:
    """Codecs chosen by the user.

    Attributes:
        default: the codec of every file not named in ``files`` (None: UTF-8, else guessed per file).
        files: ``(path, codec)`` pairs: a file, or a folder for the files under it (the longest
            path that holds a file decides); paths as given (compared once made absolute).
    """

    default: str | None = None
    files: tuple[tuple[str, str], ...] = ()

    def codec_for(self, path: str | os.PathLike) -> str | None:
        """The codec of ``path``: the one of the longest named path holding it, else :attr:`default`."""
        here = os.path.realpath(path)
        best, codec = -1, self.default
        for named, c in self.files:
            where = os.path.realpath(named)
            if (here == where or here.startswith(where.rstrip(os.sep) + os.sep)) and len(where) > best:
                best, codec = len(where), c
        return codec


def codec_for(encoding: str | FileEncodings | None, path: str | os.PathLike) -> str | None:
    """The codec ``encoding`` gives ``path``: ``encoding`` itself when it is one codec (or None)."""
    return encoding.codec_for(path) if isinstance(encoding, FileEncodings) else encoding


def given_codecs(encoding: str | FileEncodings | None) -> list[str]:
    """Every codec ``encoding`` names (to check them before any file is read).

    >>> given_codecs(FileEncodings("gbk", (("a.txt", "cp1252"),))), given_codecs(None)
    (['gbk', 'cp1252'], [])
    """
    if isinstance(encoding, FileEncodings):
        return [c for c in (encoding.default, *(c for _, c in encoding.files)) if c is not None]
    return [] if encoding is None else [encoding]
