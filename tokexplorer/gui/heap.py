"""Giving the memory a finished job freed back to the system.

A worker that builds large structures (statistics of a corpus, a SentencePiece model's pieces
of a whole file, the fire index of the Compare text, a training) frees most of them when it
returns, but the C library keeps the freed memory for the process: with a 4 MB corpus and
8 tokenizers the window held 745 MB once Statistics were computed, 548 MB when released
(with the fire index's arrays; the README's window memory). After a job
that ran :data:`HEAVY_JOB_S` or longer, the worker's thread hands it back with glibc's
``malloc_trim`` (a few milliseconds, off the GUI thread); elsewhere (no glibc) nothing happens.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable

__all__ = ["HEAVY_JOB_S", "release_freed_memory"]

#: A job that ran this long (seconds) or longer may have freed much: its memory is handed back.
HEAVY_JOB_S = 0.5


def _find_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim`` (None where the C library has none: macOS, Windows, musl)."""
    try:
        return ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None


_TRIM = _find_trim()


def release_freed_memory() -> bool:
    """Hand the memory the process freed back to the system (glibc's ``malloc_trim(0)``);
    True when the C library could (it returned some memory), False otherwise."""
    return bool(_TRIM(0)) if _TRIM is not None else False
