"""Model files: our BPE text format and tiktoken's ``.tiktoken`` files.

Our BPE format (version 1) is UTF-8 text, one fact per line, so a person can
read it and ``diff`` two models::

    tokexplorer-bpe 1
    name "custom BPE"
    pattern gpt2
    special 4095 "<|endoftext|>"
    merges 3839
    32 116 256 81234	# ' ' + 't' -> ' t'
    ...

* line 1: magic and format version;
* ``name``, ``pattern`` (a name from :data:`tokexplorer.core.text.pretokenize.PATTERNS`)
  or ``pat_str`` (a JSON string, for a pattern without a name), ``special ID TEXT``
  (TEXT is a JSON string) header lines, in any order;
* ``merges N`` then exactly N lines ``LEFT RIGHT NEW_ID COUNT [SAVED]`` in rank
  order: COUNT is the pair count when the merge was chosen, SAVED the tokens
  the merge saved in the training corpus (fewer where the pair overlaps itself,
  ``a a a``; written when known, see ``MergeRecord.saved``), each ``-`` when
  unknown; everything after a ``#`` is a comment.

The vocabulary is not stored: it follows from the merges. Writes are atomic: the
file is written to a temporary file in the same folder, flushed to disk, then
renamed over the target.

tiktoken's ``.tiktoken`` rank files are read and written by
:mod:`tokexplorer.core.io.tiktoken_files`.

>>> from tokexplorer.core.bpe import train_bpe
>>> text = dumps_bpe(train_bpe("abab", vocab_size=258, pattern="none")[0])
>>> text.splitlines()[:4]
['tokexplorer-bpe 1', 'name "custom BPE"', 'pattern none', 'merges 2']
>>> text.splitlines()[4:]
["97 98 256 2 2\\t# 'ab'", "256 256 257 1 1\\t# 'abab'"]
>>> loads_bpe(text).merges[1]
MergeRecord(#1 256+256->257 b'abab')
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.io.atomic import atomic_write_bytes
from tokexplorer.core.io.model_files import read_model_file
from tokexplorer.core.text import PATTERNS
from tokexplorer.core.types import MergeRecord

__all__ = ["MAGIC", "VERSION", "dumps_bpe", "load_bpe", "loads_bpe", "save_bpe"]

MAGIC = "tokexplorer-bpe"
VERSION = 1


def _readable(b: bytes) -> str:
    """Token bytes for the comment column: text where valid UTF-8, else \\xNN escapes."""
    s = b.decode("utf-8", "backslashreplace")
    s = "".join(
        {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(c, f"\\x{ord(c):02x}")
        if (ord(c) < 0x20 or ord(c) == 0x7F)
        else c
        for c in s
    )
    return f"'{s}'"


def dumps_bpe(bpe: BPE) -> str:
    """Serialize a model to the text format described in the module docstring.

    Raises:
        InputError: the model cannot be rebuilt from its merges in order: it has
            tokens no merge builds (:attr:`BPE.unbuilt_tokens`, as Llama 3's
            ranks do) or a merge whose part is built by a later merge.
    """
    _check_storable(bpe)
    lines = [f"{MAGIC} {VERSION}", f"name {json.dumps(bpe.name, ensure_ascii=False)}"]
    if bpe.pattern_name is not None:
        lines.append(f"pattern {bpe.pattern_name}")
    else:
        lines.append(f"pat_str {json.dumps(bpe.pat_str, ensure_ascii=False)}")
    byte_ids = [bpe.mergeable_ranks[bytes([b])] for b in range(256)]
    if byte_ids != list(range(256)):
        lines.append("byte_ids " + " ".join(map(str, byte_ids)))
    for text, i in sorted(bpe.special_tokens.items(), key=lambda kv: kv[1]):
        lines.append(f"special {i} {json.dumps(text, ensure_ascii=False)}")
    lines.append(f"merges {len(bpe.merges)}")
    for m in bpe.merges:
        count = "-" if m.count is None else str(m.count)
        saved = "" if m.saved is None else f" {m.saved}"
        lines.append(f"{m.left} {m.right} {m.new_id} {count}{saved}\t# {_readable(m.merged)}")
    return "\n".join(lines) + "\n"


def _check_storable(bpe: BPE) -> None:
    """Raise InputError unless the merges, read in order, rebuild every token of ``bpe``."""
    why = ""
    if bpe.unbuilt_tokens:
        n, first = len(bpe.unbuilt_tokens), bpe.unbuilt_tokens[0]
        why = f"{n:,} of its tokens (the first: id {first}) are built by no merge"
    else:
        known = {bpe.mergeable_ranks[bytes([b])] for b in range(256)}
        for m in bpe.merges:
            if m.left not in known or m.right not in known:
                why = f"merge #{m.rank} joins a token that a later merge builds"
                break
            known.add(m.new_id)
    if why:
        raise InputError(
            f"{bpe.name} cannot be saved as a model file: {why}; save its ranks as a .tiktoken file instead"
        )


def save_bpe(bpe: BPE, path: str | os.PathLike) -> None:
    """Save a model atomically in the text format (UTF-8, LF line ends).

    Raises:
        InputError: see :func:`dumps_bpe`.
        OSError: the file cannot be written.
    """
    atomic_write_bytes(path, dumps_bpe(bpe).encode("utf-8"))



def _fail(source: str, lineno: int, why: str) -> ModelFormatError:
    return ModelFormatError(f"{source}: line {lineno}: {why}")


@dataclass(slots=True)
class _Header:
    """The header lines of a model file (everything before the merges)."""

    name: str = "custom BPE"
    pattern: str = "gpt2"
    pat_str: str | None = None
    has_pat_str: bool = False
    byte_ids: list[int] | None = None
    specials: dict[str, int] = field(default_factory=dict)


def loads_bpe(text: str, *, source: str = "<string>") -> BPE:
    """Parse the text format (see the module docstring).

    Args:
        text: the file's text.
        source: the file name, for messages.

    Raises:
        ModelFormatError: wrong magic or version, a malformed or missing line,
            inconsistent merges; the message names ``source`` and the line number.
    """
    lines = text.split("\n")
    _check_magic(lines[0] if lines else "", source)
    header, n_merges, i = _parse_header(lines, source)
    bids = header.byte_ids or list(range(256))
    merges, i = _parse_merges(lines, i, n_merges=n_merges, byte_ids=bids, source=source)
    for extra in lines[i:]:
        if extra.split("#", 1)[0].strip():
            raise ModelFormatError(f"{source}: text after the last merge; the file is damaged")
    try:
        return BPE(
            merges,
            pattern=header.pattern,
            pat_str=header.pat_str if header.has_pat_str else None,
            special_tokens=header.specials,
            name=header.name,
            byte_ids=bids,
        )
    except InputError as exc:
        raise ModelFormatError(f"{source}: {exc}") from None


def _check_magic(first: str, source: str) -> None:
    """Refuse a first line that is not ``tokexplorer-bpe 1``."""
    if not first.startswith(MAGIC):
        raise ModelFormatError(f"{source}: not a tokexplorer BPE model (first line must be '{MAGIC} {VERSION}')")
    head = first.split()
    if len(head) != 2 or head[1] != str(VERSION):
        raise ModelFormatError(
            f"{source}: unsupported model format version {head[1] if len(head) > 1 else '?'} "
            f"(this tokexplorer reads version {VERSION})"
        )


def _parse_header(lines: list[str], source: str) -> tuple[_Header, int, int]:
    """Read the header lines up to ``merges N``.

    Returns:
        ``(header, N, index of the line after "merges N")``.

    Raises:
        ModelFormatError: an unknown or malformed header line, no ``merges`` line,
            a ``byte_ids`` line without 256 ids.
    """
    header = _Header()
    i = 1
    n_merges = None
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        try:
            if key == "merges":
                n_merges = int(rest)
                break
            _read_header_line(header, key, rest, lineno=i, source=source)
        except (ValueError, json.JSONDecodeError) as exc:
            if isinstance(exc, ModelFormatError):
                raise
            raise _fail(source, i, f"malformed {key} line") from None
    if n_merges is None:
        raise ModelFormatError(f"{source}: no 'merges' line; the file is truncated or not a model")
    if header.byte_ids is not None and len(header.byte_ids) != 256:
        raise ModelFormatError(f"{source}: byte_ids must list 256 ids")
    return header, n_merges, i


def _read_header_line(header: _Header, key: str, rest: str, *, lineno: int, source: str) -> None:
    """Store one header line ``KEY REST`` in ``header``.

    Raises:
        ValueError, json.JSONDecodeError: a malformed value.
        ModelFormatError: an unknown key or pattern name.
    """
    if key == "name":
        header.name = json.loads(rest)
    elif key == "pattern":
        if rest not in PATTERNS:
            raise _fail(source, lineno, f"unknown pattern {rest!r}")
        header.pattern = rest
    elif key == "pat_str":
        header.pat_str = json.loads(rest)
        header.has_pat_str = True
    elif key == "byte_ids":
        header.byte_ids = [int(x) for x in rest.split()]
    elif key == "special":
        sid, _, stext = rest.partition(" ")
        header.specials[json.loads(stext)] = int(sid)
    else:
        raise _fail(source, lineno, f"unknown header {key!r}")


def _parse_merges(
    lines: list[str], i: int, *, n_merges: int, byte_ids: list[int], source: str
) -> tuple[list[MergeRecord], int]:
    """Read ``n_merges`` merge lines from ``lines[i]`` on, checking each against the vocabulary so far.

    Returns:
        ``(merges in rank order, index of the line after the last merge)``.

    Raises:
        ModelFormatError: the file ends early, or a merge line is malformed or
            inconsistent (undefined id, negative count, repeated pair, wrong new id).
    """
    vocab = {tid: bytes([b]) for b, tid in enumerate(byte_ids)}
    next_id = max(byte_ids) + 1
    pair_line: dict[tuple[int, int], int] = {}  # pair -> line of its merge
    merges: list[MergeRecord] = []
    rank = 0
    while rank < n_merges:
        if i >= len(lines):
            raise ModelFormatError(
                f"{source}: expected {n_merges} merges but the file ends after {rank}; it is truncated"
            )
        raw = lines[i]
        i += 1
        body = raw.split("#", 1)[0].split()
        if not body:
            continue
        if len(body) not in (4, 5):
            raise _fail(source, i, "a merge line must be 'LEFT RIGHT NEW_ID COUNT [SAVED]'")
        try:
            left, right, new_id = int(body[0]), int(body[1]), int(body[2])
            count = None if body[3] == "-" else int(body[3])
            saved = None if len(body) == 4 or body[4] == "-" else int(body[4])
        except ValueError:
            raise _fail(source, i, "a merge line must hold integers") from None
        if left not in vocab or right not in vocab:
            raise _fail(source, i, f"merge {rank} uses a token id that is not defined before it")
        if count is not None and count < 0:
            raise _fail(source, i, f"merge {rank} has a negative count ({count})")
        if saved is not None and saved < 0:
            raise _fail(source, i, f"merge {rank} has a negative saved count ({saved})")
        first = pair_line.setdefault((left, right), i)
        if first != i:
            raise _fail(source, i, f"merge {rank} repeats the pair {left} {right} of line {first}; a pair merges once")
        merged = vocab[left] + vocab[right]
        # A merge makes the next free id, or reuses the id of a token with the
        # same bytes; anything else means the file was damaged.
        if new_id in vocab:
            if vocab[new_id] != merged:
                raise _fail(source, i, f"merge {rank} gives id {new_id} to new bytes, but that id is already a token")
        elif new_id != next_id:
            raise _fail(source, i, f"merge {rank} creates id {new_id}; the next free id is {next_id}")
        else:
            vocab[new_id] = merged
            next_id += 1
        merges.append(MergeRecord(rank, left, right, new_id, merged, count, saved))
        rank += 1
    return merges, i


def load_bpe(path: str | os.PathLike) -> BPE:
    """Load a model saved by :func:`save_bpe`.

    Raises:
        ModelFormatError: the file is not a valid model (corrupt, truncated,
            binary, other version).
        InputError: the file does not exist.
    """
    p = Path(path)
    data = read_model_file(p)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModelFormatError(
            f"{p.name}: not a tokexplorer BPE model (not UTF-8 text at byte {exc.start})"
        ) from None
    return loads_bpe(text, source=p.name)


