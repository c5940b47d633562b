"""Word-count tables: the chunks of a corpus and how often each occurs, as a file.

BPE training needs only this table (see :mod:`tokexplorer.core.bpe.counting`),
so counting, the one stage that reads the whole corpus, can run elsewhere (on a
Dask cluster, ``tokexplorer count --dask``) and training later from the file
(``tokexplorer train --word-counts``, the window's Train ▸ Train from counts…).

The format, version 1, is UTF-8 text with ``\\n`` line ends::

    tokexplorer-word-counts 1
    pattern: gpt2
    special-tokens: PGVvcz4=
    special-spellings-cut: 12
    files: 3
    bytes: 10485760
    chunks: 77012

    IHRoZQ==\t181234
    LA==\t120007
    ...

The first line names the format and its version. Header lines ``key: value``
follow, up to one empty line: ``pattern`` (the pre-tokenizer the chunks were
split with: gpt2, cl100k, o200k or none), ``special-tokens`` (the special
token texts cut out before splitting, each base64 of its UTF-8, separated by
spaces; empty for none), ``special-spellings-cut`` (how many spellings of them
were cut out), ``files`` and ``bytes`` (the corpus counted: number of files,
their total size in bytes), ``chunks`` (the number of lines that follow). Then
one line per distinct chunk: the base64 of its UTF-8 bytes, a tab, its count
(a positive integer), most frequent first (ties by bytes), so equal tables give
equal files. Unknown header keys are refused, so a later version cannot be
misread.

>>> from collections import Counter
>>> table = WordCounts(Counter({" the": 2, "a": 1}), pattern="gpt2", files=1, bytes=9)
>>> text = dumps_word_counts(table)
>>> text.splitlines()[0], text.splitlines()[-2:]
('tokexplorer-word-counts 1', ['IHRoZQ==\\t2', 'YQ==\\t1'])
>>> loads_word_counts(text) == table
True
"""

from __future__ import annotations

import base64
import binascii
import os
import re
from collections import Counter
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass

from tokexplorer.core.bpe import count_files
from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.io.atomic import atomic_write_bytes
from tokexplorer.core.text import PATTERN_NAMES
from tokexplorer.core.types import Progress

__all__ = [
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "WordCounts",
    "count_word_counts",
    "dumps_word_counts",
    "load_word_counts",
    "loads_word_counts",
    "save_word_counts",
]

#: The first word of a word-count file.
FORMAT_NAME = "tokexplorer-word-counts"
#: The version this module writes and reads.
FORMAT_VERSION = 1

_KEYS = ("pattern", "special-tokens", "special-spellings-cut", "files", "bytes", "chunks")

#: The chunk lines of a table as written: base64 (its alphabet, as
#: ``base64.b64decode(validate=True)`` takes it), a tab, a count from 1.
_WELL_FORMED_ROWS = re.compile(r"(?:[A-Za-z0-9+/]+={0,2}\t[1-9][0-9]*\n)*")


@dataclass(frozen=True)
class WordCounts:
    """A corpus counted for BPE training.

    Attributes:
        counts: chunk text -> number of occurrences (every count >= 1).
        pattern: the pre-tokenizer name the chunks were split with.
        special_tokens: special token texts cut out of the text before splitting.
        special_seen: how many spellings of them were cut out.
        files: number of files counted.
        bytes: their total size in bytes.
    """

    counts: Counter
    pattern: str
    special_tokens: tuple[str, ...] = ()
    special_seen: int = 0
    files: int = 0
    bytes: int = 0


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def dumps_word_counts(table: WordCounts) -> str:
    """The file text of ``table`` (see the module docstring for the format)."""
    # The chunks by count, each count's sorted by bytes: sorting bytes within a
    # count is 3-4x faster than sorting (bytes, count) pairs twice, when the
    # table comes in the order its chunks were first seen (counted, not read).
    by_count: dict[int, list[bytes]] = {}
    for chunk, n in table.counts.items():
        same = by_count.get(n)
        if same is None:
            by_count[n] = [chunk.encode("utf-8")]
        else:
            same.append(chunk.encode("utf-8"))
    head = [
        f"{FORMAT_NAME} {FORMAT_VERSION}",
        f"pattern: {table.pattern}",
        "special-tokens: " + " ".join(_b64(s.encode("utf-8")) for s in table.special_tokens),
        f"special-spellings-cut: {table.special_seen}",
        f"files: {table.files}",
        f"bytes: {table.bytes}",
        f"chunks: {len(table.counts)}",
        "",
        "",
    ]
    b64 = binascii.b2a_base64
    rows = []
    for n in sorted(by_count, reverse=True):  # most frequent first
        chunks = by_count[n]
        chunks.sort()
        end = b"\t%d\n" % n
        rows.append(end.join([b64(c, newline=False) for c in chunks]) + end)
    return "\n".join(head) + b"".join(rows).decode("ascii")


def _int(value: str, what: str, line: int) -> int:
    if not value.isdigit():
        raise ModelFormatError(f"line {line}: {what} must be a non-negative integer, not {value!r}")
    return int(value)


def _header(lines: list[str]) -> tuple[dict[str, str], int]:
    """The header's values by key and the index of the first chunk line.

    Raises:
        ModelFormatError: not a word-count file, another version, a bad or missing key.
    """
    first = lines[0].split(" ") if lines else [""]
    if first[0] != FORMAT_NAME:
        raise ModelFormatError(f"not a word-count table (the first line is not '{FORMAT_NAME} {FORMAT_VERSION}')")
    if len(first) != 2 or first[1] != str(FORMAT_VERSION):
        raise ModelFormatError(f"word-count table version {' '.join(first[1:])!r}; this version reads {FORMAT_VERSION}")
    values: dict[str, str] = {}
    i = 1
    while i < len(lines) and lines[i] != "":
        key, sep, value = lines[i].partition(": ")
        if not sep and lines[i].endswith(":"):
            key, sep, value = lines[i][:-1], ":", ""
        if not sep or key not in _KEYS:
            raise ModelFormatError(f"line {i + 1}: unknown header line {lines[i][:60]!r}")
        values[key] = value
        i += 1
    missing = [k for k in _KEYS if k not in values]
    if missing:
        raise ModelFormatError(f"the header has no {missing[0]!r} line")
    if values["pattern"] not in PATTERN_NAMES:
        raise ModelFormatError(f"unknown pattern {values['pattern']!r}; known: {', '.join(PATTERN_NAMES)}")
    return values, i + 1


def loads_word_counts(text: str) -> WordCounts:
    """Parse a word-count table.

    Raises:
        ModelFormatError: the text is not a version-1 table, or a line is bad
            (the message gives its line number).
    """
    end = text.find("\n\n")  # the header's end; the chunk lines stay one string
    head, body = (text.rstrip("\n"), "") if end < 0 else (text[:end], text[end + 2 :])
    values, start = _header(head.split("\n") + [""])
    try:
        specials = tuple(base64.b64decode(s, validate=True).decode("utf-8") for s in values["special-tokens"].split())
    except (binascii.Error, UnicodeDecodeError):
        raise ModelFormatError("the special-tokens header line is not base64 of UTF-8 text") from None
    counts = _rows_at_once(body)
    if counts is None:  # something is wrong: read line by line to say what and where
        counts = _rows_by_line(body, start)
    n_chunks = _int(values["chunks"], "chunks", 0)
    if n_chunks != len(counts):
        raise ModelFormatError(f"the header says {n_chunks} chunks but the file holds {len(counts)} (cut short?)")
    return WordCounts(
        counts,
        pattern=values["pattern"],
        special_tokens=specials,
        special_seen=_int(values["special-spellings-cut"], "special-spellings-cut", 0),
        files=_int(values["files"], "files", 0),
        bytes=_int(values["bytes"], "bytes", 0),
    )


def _rows_at_once(body: str) -> Counter | None:
    """The chunk lines of a well-formed table, read in a few passes over the whole
    text (about 3x faster than line by line); None when any line is not
    ``BASE64<TAB>COUNT`` (count from 1, no leading zero), a chunk is not UTF-8,
    or a chunk repeats. What it accepts, :func:`_rows_by_line` reads the same."""
    if not _WELL_FORMED_ROWS.fullmatch(body):
        return None
    parts = body.replace("\t", "\n").split("\n")
    parts.pop()  # after the last line end
    try:
        keys = [binascii.a2b_base64(k).decode("utf-8") for k in parts[0::2]]
    except (binascii.Error, UnicodeDecodeError):
        return None
    counts: Counter = Counter()
    dict.update(counts, zip(keys, map(int, parts[1::2])))
    return counts if len(counts) == len(keys) else None


def _rows_by_line(body: str, start: int) -> Counter:
    """The chunk lines read one by one (``start``: the index of the first, for
    the line numbers in messages).

    Raises:
        ModelFormatError: a bad line (the message gives its number).
    """
    lines = body.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    counts: Counter = Counter()
    for k, line in enumerate(lines, start):
        chunk, sep, n = line.partition("\t")
        try:
            key = base64.b64decode(chunk, validate=True).decode("utf-8")
        except (binascii.Error, UnicodeDecodeError):
            raise ModelFormatError(f"line {k + 1}: the chunk is not base64 of UTF-8 text") from None
        count = _int(n, "the count", k + 1) if sep else 0
        if count < 1 or key in counts or not key:
            why = "no count" if not sep else "an empty chunk" if not key else "a repeated chunk" if count else "count 0"
            raise ModelFormatError(f"line {k + 1}: {why}")
        counts[key] = count
    return counts


def save_word_counts(table: WordCounts, path: str | os.PathLike[str]) -> None:
    """Write ``table`` to ``path`` atomically (:func:`dumps_word_counts`).

    Raises:
        InputError: the file cannot be written.
    """
    try:
        atomic_write_bytes(path, dumps_word_counts(table).encode("utf-8"))
    except OSError as exc:
        raise InputError(f"cannot write {path}: {exc.strerror or exc}") from None


def load_word_counts(path: str | os.PathLike[str]) -> WordCounts:
    """Read a word-count table from ``path``.

    Raises:
        InputError: no such file, or it cannot be read.
        ModelFormatError: it is not a valid table (the message names the file).
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise InputError(f"no such file: {path}") from None
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        return loads_word_counts(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise ModelFormatError(f"{os.path.basename(path)}: not a word-count table (not UTF-8 text)") from None
    except ModelFormatError as exc:
        raise ModelFormatError(f"{os.path.basename(path)}: {exc}") from None


def count_word_counts(
    paths: Sequence[str | os.PathLike[str]],
    *,
    pattern: str = "gpt2",
    special_tokens: Sequence[str] = (),
    encoding: str | Sequence[str] = "utf-8",
    errors: str = "strict",
    dask: str | None = None,
    workers: int | None = None,
    cancel: Callable[[], bool] | None = None,
) -> Generator[Progress, None, WordCounts]:
    """Count the chunks of files into a :class:`WordCounts` table, yielding progress.

    Args:
        paths: text files, read in byte ranges (never whole in memory).
        pattern: pre-tokenizer name.
        special_tokens: special token texts cut out before splitting.
        encoding: the files' codec, or one per path; errors: its error handler (``"replace"``
            counts U+FFFD where bytes are undecodable).
        dask: count on the Dask scheduler at this address (``"local"``: a local
            cluster; see :mod:`tokexplorer.core.bpe.dask_counting`); None: here,
            in a process pool of ``workers`` processes (default: every core).
        cancel: returning True raises ``Cancelled``.

    Raises:
        CorpusError: a file cannot be read or decoded.
        BackendUnavailableError: ``dask`` given and Dask not installed.
        InputError: no Dask scheduler at ``dask``.

    >>> import tempfile, pathlib
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
    >>> _ = path.write_text("ab ab ab", encoding="utf-8")
    >>> from tokexplorer.core.types import run_to_end
    >>> table = run_to_end(count_word_counts([path], workers=1))
    >>> sorted(table.counts.items()), table.files, table.bytes
    ([(' ab', 2), ('ab', 1)], 1, 8)
    """
    specials = tuple(dict.fromkeys(special_tokens))
    if dask is None:
        steps = count_files(
            paths, pattern=pattern, special_tokens=specials, encoding=encoding,
            errors=errors, workers=workers, cancel=cancel,
        )  # fmt: skip
    else:
        from tokexplorer.core.bpe.dask_counting import count_files_dask

        steps = count_files_dask(
            paths, address=dask, pattern=pattern, special_tokens=specials,
            encoding=encoding, errors=errors, cancel=cancel,
        )  # fmt: skip
    counts, n_special = yield from steps
    size = sum(os.path.getsize(p) for p in paths)
    return WordCounts(counts, pattern, specials, n_special, files=len(paths), bytes=size)
