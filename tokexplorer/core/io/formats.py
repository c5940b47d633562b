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
* ``merges N`` then exactly N lines ``LEFT RIGHT NEW_ID COUNT`` in rank order
  (COUNT is ``-`` when unknown); everything after a ``#`` is a comment.

The vocabulary is not stored: it follows from the merges. Writes are atomic: the
file is written to a temporary file in the same folder, flushed to disk, then
renamed over the target.

A ``.tiktoken`` file (tiktoken's format) has one ``base64(token_bytes) rank`` per line.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
import tempfile
from pathlib import Path

from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.text import PATTERNS
from tokexplorer.core.types import MergeRecord

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


def _umask() -> int:
    """The process umask, read without changing it where the system allows."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)  # elsewhere: the classic read-and-restore
    os.umask(mask)
    return mask


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically (temp file in the same folder, then rename).

    Raises:
        OSError: the folder is not writable.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        # mkstemp makes the file private (0600); give it the usual mode
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def dumps_bpe(bpe: BPE) -> str:
    """Serialize a model to the text format described in the module docstring."""
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
        lines.append(f"{m.left} {m.right} {m.new_id} {count}\t# {_readable(m.merged)}")
    return "\n".join(lines) + "\n"


def save_bpe(bpe: BPE, path: str | os.PathLike) -> None:
    """Save a model atomically in the text format (UTF-8, LF line ends).

    Raises:
        OSError: the file cannot be written.
    """
    atomic_write_bytes(path, dumps_bpe(bpe).encode("utf-8"))


def loads_bpe(text: str, *, source: str = "<string>") -> BPE:
    """Parse the text format.

    Raises:
        ModelFormatError: wrong magic or version, a malformed or missing line,
            inconsistent merges; the message names ``source`` and the line number.
    """

    def fail(lineno: int, why: str) -> ModelFormatError:
        return ModelFormatError(f"{source}: line {lineno}: {why}")

    lines = text.split("\n")
    if not lines or not lines[0].startswith(MAGIC):
        raise ModelFormatError(f"{source}: not a tokexplorer BPE model (first line must be '{MAGIC} {VERSION}')")
    head = lines[0].split()
    if len(head) != 2 or head[1] != str(VERSION):
        raise ModelFormatError(
            f"{source}: unsupported model format version {head[1] if len(head) > 1 else '?'} "
            f"(this tokexplorer reads version {VERSION})"
        )
    name = "custom BPE"
    pattern = "gpt2"
    pat_str: str | None = None
    has_pat_str = False
    byte_ids = None
    specials: dict[str, int] = {}
    merges: list[MergeRecord] = []
    i = 1
    n_merges = None
    while i < len(lines):
        line = lines[i].strip()
        i += 1
        if not line or line.startswith("#"):
            continue
        key, _, rest = line.partition(" ")
        try:
            if key == "name":
                name = json.loads(rest)
            elif key == "pattern":
                if rest not in PATTERNS:
                    raise fail(i, f"unknown pattern {rest!r}")
                pattern = rest
            elif key == "pat_str":
                pat_str = json.loads(rest)
                has_pat_str = True
            elif key == "byte_ids":
                byte_ids = [int(x) for x in rest.split()]
            elif key == "special":
                sid, _, stext = rest.partition(" ")
                specials[json.loads(stext)] = int(sid)
            elif key == "merges":
                n_merges = int(rest)
                break
            else:
                raise fail(i, f"unknown header {key!r}")
        except (ValueError, json.JSONDecodeError) as exc:
            if isinstance(exc, ModelFormatError):
                raise
            raise fail(i, f"malformed {key} line") from None
    if n_merges is None:
        raise ModelFormatError(f"{source}: no 'merges' line; the file is truncated or not a model")
    if byte_ids is not None and len(byte_ids) != 256:
        raise ModelFormatError(f"{source}: byte_ids must list 256 ids")
    bids = byte_ids or list(range(256))
    vocab = {tid: bytes([b]) for b, tid in enumerate(bids)}
    next_id = max(bids) + 1
    pair_line: dict[tuple[int, int], int] = {}  # pair -> line of its merge
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
        if len(body) != 4:
            raise fail(i, "a merge line must be 'LEFT RIGHT NEW_ID COUNT'")
        try:
            left, right, new_id = int(body[0]), int(body[1]), int(body[2])
            count = None if body[3] == "-" else int(body[3])
        except ValueError:
            raise fail(i, "a merge line must hold integers") from None
        if left not in vocab or right not in vocab:
            raise fail(i, f"merge {rank} uses a token id that is not defined before it")
        if count is not None and count < 0:
            raise fail(i, f"merge {rank} has a negative count ({count})")
        first = pair_line.setdefault((left, right), i)
        if first != i:
            raise fail(i, f"merge {rank} repeats the pair {left} {right} of line {first}; a pair merges once")
        merged = vocab[left] + vocab[right]
        # A merge makes the next free id, or reuses the id of a token with the
        # same bytes; anything else means the file was damaged.
        if new_id in vocab:
            if vocab[new_id] != merged:
                raise fail(i, f"merge {rank} gives id {new_id} to new bytes, but that id is already a token")
        elif new_id != next_id:
            raise fail(i, f"merge {rank} creates id {new_id}; the next free id is {next_id}")
        else:
            vocab[new_id] = merged
            next_id += 1
        merges.append(MergeRecord(rank, left, right, new_id, merged, count))
        rank += 1
    for extra in lines[i:]:
        if extra.split("#", 1)[0].strip():
            raise ModelFormatError(f"{source}: text after the last merge; the file is damaged")
    try:
        return BPE(
            merges,
            pattern=pattern,
            pat_str=pat_str if has_pat_str else None,
            special_tokens=specials,
            name=name,
            byte_ids=bids,
        )
    except InputError as exc:
        raise ModelFormatError(f"{source}: {exc}") from None


def load_bpe(path: str | os.PathLike) -> BPE:
    """Load a model saved by :func:`save_bpe`.

    Raises:
        ModelFormatError: the file is not a valid model (corrupt, truncated,
            binary, other version).
        InputError: the file does not exist.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"no such file: {p}") from None
    except OSError as exc:
        raise InputError(f"cannot read {p}: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModelFormatError(
            f"{p.name}: not a tokexplorer BPE model (not UTF-8 text at byte {exc.start})"
        ) from None
    return loads_bpe(text, source=p.name)


def read_tiktoken_file(path: str | os.PathLike) -> dict[bytes, int]:
    """Read a ``.tiktoken`` file: ``base64(token) rank`` per line.

    Returns:
        token bytes -> rank (tiktoken's ``mergeable_ranks``).

    Raises:
        InputError: the file does not exist.
        ModelFormatError: a malformed line (the message names its number), a
            repeated token or rank, or a file with no tokens.
    """
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"no such file: {p}") from None
    except OSError as exc:
        raise InputError(f"cannot read {p}: {exc.strerror or exc}") from None
    ranks: dict[bytes, int] = {}
    seen_ranks: set[int] = set()
    for lineno, raw in enumerate(data.splitlines(), 1):
        parts = raw.split()
        if not parts:
            continue
        try:
            if len(parts) != 2:
                raise ValueError
            tok = base64.b64decode(parts[0], validate=True)
            rank = int(parts[1])
            if rank < 0:
                raise ValueError
        except (binascii.Error, ValueError):
            shown = raw[:40].decode("utf-8", "replace")
            raise ModelFormatError(
                f"{p.name} line {lineno}: expected 'base64-token rank', got {shown!r}"
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
