"""tiktoken's ``.tiktoken`` rank files: one ``base64(token bytes) rank`` per line
(what tiktoken downloads and caches, and what :func:`read_tiktoken_file` reads
for a ``tiktoken-file:PATH`` spec).

>>> import pathlib, tempfile
>>> p = pathlib.Path(tempfile.mkdtemp()) / "tiny.tiktoken"
>>> write_tiktoken_file({b"a": 0, b"b": 1, b"ab": 2}, p)
>>> p.read_text()
'YQ== 0\\nYg== 1\\nYWI= 2\\n'
>>> read_tiktoken_file(p)
{b'a': 0, b'b': 1, b'ab': 2}
"""

from __future__ import annotations

import base64
import binascii
import os
from pathlib import Path

from tokexplorer.core.errors import ModelFormatError
from tokexplorer.core.io.atomic import atomic_write_bytes
from tokexplorer.core.io.model_files import read_model_file

__all__ = ["read_tiktoken_file", "write_tiktoken_file"]


def read_tiktoken_file(path: str | os.PathLike) -> dict[bytes, int]:
    """Read a ``.tiktoken`` file: ``base64(token) rank`` per line.

    A line is read as tiktoken's ``load_tiktoken_bpe`` reads it, so every file
    tiktoken loads loads here: lines are split at ``\\n``, ``\\r\\n`` or
    ``\\r``; an empty line is skipped; any other line must hold exactly two
    fields separated by ASCII whitespace, a base64 token decoded as
    ``base64.b64decode`` does without ``validate`` (characters outside the
    alphabet are ignored, so Whisper's ``= 50256`` is the empty token) and a
    rank read by ``int``. Beyond tiktoken, a negative rank (which
    ``tiktoken.Encoding`` cannot take either) and a repeated token or rank
    (where tiktoken would keep one silently) are refused.

    Returns:
        token bytes -> rank (tiktoken's ``mergeable_ranks``).

    Raises:
        InputError: the file does not exist.
        ModelFormatError: a line tiktoken refuses or with a negative rank (the
            message names its number), a repeated token or rank, or a file with
            no tokens.

    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "empty-token.tiktoken"
    >>> _ = p.write_bytes(b"YQ== 0\\r\\n= 1\\n\\nYg==  2\\n")
    >>> read_tiktoken_file(p)
    {b'a': 0, b'': 1, b'b': 2}
    """
    p = Path(path)
    data = read_model_file(p)
    ranks: dict[bytes, int] = {}
    seen_ranks: set[int] = set()
    for lineno, raw in enumerate(data.splitlines(), 1):
        if not raw:
            continue
        try:
            token, rank_text = raw.split()
            tok = base64.b64decode(token)
            rank = int(rank_text)
            if rank < 0:
                raise ValueError
        except (binascii.Error, ValueError):
            shown = raw[:40].decode("utf-8", "replace")
            raise ModelFormatError(
                f"{p.name} line {lineno}: expected 'base64-token rank' (rank >= 0), got {shown!r}"
            ) from None
        if tok in ranks or rank in seen_ranks:
            raise ModelFormatError(f"{p.name} line {lineno}: token or rank {rank} repeats")
        ranks[tok] = rank
        seen_ranks.add(rank)
    if not ranks:
        raise ModelFormatError(f"{p.name} holds no tokens (expected 'base64-token rank' lines)")
    return ranks


def write_tiktoken_file(ranks: dict[bytes, int], path: str | os.PathLike) -> None:
    """Write ``mergeable_ranks`` as a ``.tiktoken`` file (atomic), in rank order."""
    body = "".join(
        f"{base64.b64encode(tok).decode('ascii')} {rank}\n"
        for tok, rank in sorted(ranks.items(), key=lambda kv: kv[1])
    )
    atomic_write_bytes(path, body.encode("ascii"))
