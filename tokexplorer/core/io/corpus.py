"""Reading text files and folders for training and inspection.

Rules (each one visible to the user through :class:`CorpusFile` fields):

* Files are read as bytes and decoded here; universal newlines are never used,
  so ``\\r\\n`` and ``\\r`` stay exactly as on disk (:attr:`CorpusFile.line_ending`).
* Byte order marks are detected first: UTF-8 (``EF BB BF``), UTF-16
  (``FF FE`` / ``FE FF``) and UTF-32. By default the BOM is removed from the
  text (``keep_bom=True`` keeps it as U+FEFF) and a note says so.
* Otherwise strict UTF-8 is tried. When it fails, :attr:`CorpusFile.utf8_error`
  says where (``"not valid UTF-8 at byte 0 (invalid start byte)"``). A file
  that is UTF-8 apart from a few bad bytes (its well-formed non-ASCII
  characters outnumber the bad bytes ten to one, or its only fault is a
  character cut off at the end) stays UTF-8: the bad bytes become U+FFFD and
  a note says how many and where the first is. So does a file that is UTF-8 (16
  non-ASCII characters or more) up to its first bad byte and then another encoding
  (GBK after 1 MB): no one codec reads it all, the note says it mixes encodings. Any
  other file is decoded with an encoding guessed by :mod:`charset_normalizer` from its
  non-ASCII part (``encoding_guessed=True``); the caller can re-read with ``encoding=``.
  A decode that had to insert U+FFFD sets :attr:`CorpusFile.lossy`.
* A binary file is refused with :class:`~tokexplorer.core.errors.CorpusError`,
  decided first by what decodes: bytes that are not UTF-8 and hold a NUL (no
  8-bit text encoding has NUL in text; UTF-16/32 need their BOM here), or more
  than :data:`~.encodings.BINARY_CONTROL_SHARE` of C0 control bytes (other than tab, LF, VT,
  FF, CR and ESC; NUL counted) in the first :data:`~.encodings.BINARY_SNIFF_BYTES` bytes,
  but only when there are at least :data:`~.encodings.BINARY_MIN_BYTES` of them: a short
  valid UTF-8 file with a control character is text (a note names it). The
  message says how to read the file anyway.
* An empty file is not an error: its text is ``""`` with the note ``"empty file"``.

>>> import pathlib, tempfile
>>> p = pathlib.Path(tempfile.mkdtemp()) / "a.txt"
>>> _ = p.write_bytes(b"\\xef\\xbb\\xbfword\\r\\n")
>>> f = read_text_file(p)
>>> f.text, f.encoding_label, f.line_ending
('word\\r\\n', 'UTF-8 with BOM', 'CRLF')
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Union

from tokexplorer.core.errors import CorpusError, InputError
from tokexplorer.core.io.encodings import (
    BINARY_SNIFF_BYTES,
    OTHER_ENCODING,
    check_binary,
    codec_name,
    control_note,
    decode_or_replace,
    detect_bom,
)
from tokexplorer.core.io.guessing import encoding_guess
from tokexplorer.core.io.line_ends import ending_kind, line_breaks, line_count
from tokexplorer.core.io.utf8_checks import decode_utf8, mixed_utf8, mostly_utf8, utf8_error

PathLike = Union[str, "os.PathLike[str]"]

#: Pseudo-encoding for :func:`read_text_file`: decode as UTF-8 with
#: ``errors="surrogateescape"``, so every undecodable byte becomes one surrogate
#: U+DC80–U+DCFF and :func:`to_raw_bytes` gives back the exact file bytes.
RAW = "raw"




@dataclass(frozen=True, slots=True)
class CorpusFile:
    """One text file as read from disk.

    Attributes:
        path: the file's path.
        text: the decoded text (line endings as on disk; BOM removed unless kept).
        size_bytes: size of the file on disk, in bytes.
        encoding: Python codec name used to decode (``"utf-8"``, ``"utf-8-sig"``,
            ``"utf-16"``, ``"gbk"``..., or :data:`RAW`).
        encoding_guessed: True when the encoding was guessed (the file is not
            UTF-8 and no encoding was given); the user should confirm it.
        bom: the byte order mark found (``"UTF-8"``, ``"UTF-16-LE"``,
            ``"UTF-16-BE"``, ``"UTF-32-LE"``, ``"UTF-32-BE"``) or None.
        line_ending: ``"LF"``, ``"CRLF"``, ``"CR"``, ``"mixed"`` or ``"none"``.
        n_chars: number of code points in ``text``.
        n_lines: number of lines (LF, CRLF and CR end a line; a last line without
            a line ending counts too).
        notes: one-line remarks for the user ("UTF-8 with BOM; BOM removed"...).
        lossy: True when decoding replaced undecodable bytes with U+FFFD.
        utf8_error: why strict UTF-8 decoding failed, e.g. ``"not valid UTF-8
            at byte 2 (invalid continuation byte)"``; empty when the file is
            valid UTF-8 (a UTF-8 BOM included).
        streamed: True when the text is not held (a large corpus opened by
            :func:`~tokexplorer.core.io.streaming.stream_corpus`): ``text`` is
            ``""``, every other field is what reading the whole file gives;
            :func:`~tokexplorer.core.io.streaming.file_text_pieces` reads the text.
    """

    path: Path
    text: str
    size_bytes: int
    encoding: str
    encoding_guessed: bool
    bom: str | None
    line_ending: str
    n_chars: int
    n_lines: int
    notes: tuple[str, ...] = ()
    lossy: bool = False
    utf8_error: str = ""
    streamed: bool = False

    def __repr__(self) -> str:
        return f"CorpusFile({self.path.name!r}, {self.size_bytes} bytes, {self.encoding_label})"

    @property
    def name(self) -> str:
        """The file name without folders."""
        return self.path.name

    @property
    def encoding_label(self) -> str:
        """What the user sees: ``"UTF-8"``, ``"UTF-8 with BOM"``, ``"gbk (guessed)"``, ``"cp1252"``...
        (the codec named by :func:`~tokexplorer.core.io.encodings.codec_name`)."""
        if self.encoding == RAW:
            return "raw bytes (UTF-8, undecodable bytes kept)"
        if self.bom:
            return f"{self.bom} with BOM"
        name = codec_name(self.encoding)  # the one naming of codecs
        return f"{name} (guessed)" if self.encoding_guessed and name != "UTF-8" else name


def to_raw_bytes(text: str) -> bytes:
    """The exact bytes behind text read with ``encoding=RAW`` (or any
    ``surrogateescape`` decode): ``text.encode("utf-8", "surrogateescape")``.

    Raises:
        InputError: the text holds a surrogate that does not stand for a byte.

    >>> to_raw_bytes(b"caf\\xe9".decode("utf-8", "surrogateescape"))
    b'caf\\xe9'
    """
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError as exc:
        raise InputError(
            f"character {exc.start} (U+{ord(text[exc.start]):04X}) does not stand for a raw byte"
        ) from None


#: The advice of a UTF-8 file read with a few bad bytes as U+FFFD (front ends add their way to do it).
REAL_ENCODING = "If that is wrong, read it with its real encoding"


def read_raw(path: PathLike) -> bytes:
    """Read a file's bytes unchanged (for the raw-bytes mode of unpaired surrogates, files that are not UTF-8).

    Raises:
        CorpusError: the file cannot be read.
    """
    p = Path(path)
    try:
        return p.read_bytes()
    except OSError as exc:
        raise CorpusError(f"{p.name}: cannot read ({exc.strerror or exc})") from None


def decode_file_bytes(
    data: bytes,
    *,
    path: PathLike = "<bytes>",
    encoding: str | None = None,
    keep_bom: bool = False,
) -> CorpusFile:
    """Decode a file's bytes by the rules in the module docstring.

    Args:
        data: the file's bytes.
        path: the file's path (used for messages and :attr:`CorpusFile.path`).
        encoding: a Python codec name to use instead of detecting one, or
            :data:`RAW`. With an explicit encoding the binary check is skipped.
        keep_bom: keep a byte order mark as U+FEFF at the start of the text.

    Returns:
        :class:`CorpusFile`.

    Raises:
        CorpusError: the data looks binary.
        InputError: ``encoding`` is not a known codec.

    >>> f = decode_file_bytes("El ni\u00f1o comi\u00f3 pi\u00f1a.\\n".encode("cp1252"), path="menu.txt")
    >>> f.text, f.encoding_label, f.utf8_error
    ('El niño comió piña.\\n', 'cp1252 (guessed)', 'not valid UTF-8 at byte 5 (invalid continuation byte)')
    """
    p = Path(path)
    name = p.name or str(path)
    if not data:
        return _file_record(p, "", size=0, encoding=encoding or "utf-8", notes=("empty file",))
    if encoding is not None:
        return _decode_as(p, name, data, encoding=encoding, keep_bom=keep_bom)
    found = detect_bom(data)
    if found is not None and not found[0].startswith("UTF-8"):
        return _decode_utf16_or_32(p, name, data, found, keep_bom=keep_bom)
    check_binary(name, data)
    body = data[3:] if found is not None else data
    text, err = decode_utf8(body, skip=3 if found is not None else 0)
    if text is not None:
        return _decode_utf8(p, data, bom=found is not None, keep_bom=keep_bom, text=text)
    n_bad, cut = mostly_utf8(body)
    mixed = 0 if n_bad else mixed_utf8(body)  # UTF-8, then another encoding: no codec reads it all
    if n_bad or mixed:
        broken = (name, err, n_bad or mixed, cut, bool(mixed))
        return _decode_utf8(p, data, bom=found is not None, keep_bom=keep_bom, broken=broken)
    guessed = encoding_guess(data)
    codec = guessed.codec
    text, lossy, note = decode_or_replace(data, codec, name)
    notes = [f"{name}: {err}; read as {codec_name(codec)} ({guessed.note()}; {OTHER_ENCODING})"]
    if note:
        notes.append(note)
    return _file_record(
        p, text, size=len(data), encoding=codec, guessed=True, notes=tuple(notes), lossy=lossy, utf8_error=err
    )


def _bom_note(label: str, *, keep_bom: bool) -> str:
    return f"{label} with BOM; BOM " + ("kept as U+FEFF" if keep_bom else "removed")


def _decode_utf16_or_32(
    p: Path, name: str, data: bytes, found: tuple[str, str, int], *, keep_bom: bool
) -> CorpusFile:
    """A file that starts with a UTF-16 or UTF-32 byte order mark."""
    label, codec, _n = found
    text, lossy, note = decode_or_replace(data, codec, name)
    notes = [_bom_note(label, keep_bom=keep_bom)]
    if note:
        notes.append(note)
    if keep_bom:
        text = "\ufeff" + text
    return _file_record(
        p, text, size=len(data), encoding=codec, bom=label, notes=tuple(notes), lossy=lossy,
        utf8_error=utf8_error(data),
    )  # fmt: skip


def _decode_utf8(
    p: Path,
    data: bytes,
    *,
    bom: bool,
    keep_bom: bool,
    broken: tuple[str, str, int, bool, bool] | None = None,
    text: str = "",
) -> CorpusFile:
    """A UTF-8 file (with or without a BOM): ``text`` its decoded body (after
    the BOM); ``broken`` is ``(name, error, undecodable bytes, cut at the end,
    mixed)`` instead when it holds bad bytes, which become U+FFFD: a few, or the
    part after its UTF-8 start (mixed)."""
    notes: list[str] = []
    err = ""
    if broken is not None:
        name, err, n_bad, cut, mixed = broken
        text = (data[3:] if bom else data).decode("utf-8", "replace")
        what = f"{n_bad:,} undecodable byte{'s' * (n_bad != 1)}"
        what = "the file ends in the middle of a character" if cut else what
        fix = REAL_ENCODING
        if mixed:
            err, fix = f"{err}, though UTF-8 before it: the file mixes encodings", "Convert the rest to UTF-8"
        notes.append(f"{name}: {err}; read as UTF-8 anyway ({what}; shown as U+FFFD). {fix}")
    if bom:
        notes.append(_bom_note("UTF-8", keep_bom=keep_bom))
        if keep_bom:
            text = "\ufeff" + text
    return _file_record(
        p, text, size=len(data), encoding="utf-8-sig" if bom else "utf-8", bom="UTF-8" if bom else None,
        notes=tuple(notes), lossy=broken is not None, utf8_error=err,
    )  # fmt: skip


def _decode_as(p: Path, name: str, data: bytes, *, encoding: str, keep_bom: bool) -> CorpusFile:
    """Decode with the encoding the caller chose (or :data:`RAW`)."""
    size = len(data)
    err = utf8_error(data)
    if encoding == RAW:
        text = data.decode("utf-8", "surrogateescape")
        notes: list[str] = []
        n_bad = sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
        if n_bad:
            notes.append(
                f"raw-bytes mode: {n_bad:,} undecodable byte{'s' if n_bad != 1 else ''} kept as "
                "surrogates U+DC80–U+DCFF"
            )
        return _file_record(p, text, size=size, encoding=RAW, notes=tuple(notes), utf8_error=err)
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    found = detect_bom(data)
    bom = None
    if found is not None:
        label = found[0]
        family = "-".join(label.split("-")[:2])  # "UTF-8", "UTF-16", "UTF-32"
        if codec.upper() in (family, label, family + "-SIG"):
            bom = label
    text, lossy, note = decode_or_replace(data, codec, name)
    notes = [note] if note else []
    if bom is not None:
        if text.startswith("\ufeff") and not keep_bom:
            text = text[1:]
        elif keep_bom and not text.startswith("\ufeff"):
            text = "\ufeff" + text
        notes.insert(0, _bom_note(bom, keep_bom=keep_bom))
    return _file_record(
        p, text, size=size, encoding=codec, bom=bom, notes=tuple(notes), lossy=lossy, utf8_error=err
    )


def endings_note(lf: int, crlf: int, cr: int) -> str:
    """The note of a file with mixed line endings (counts of LF, CRLF and CR line ends)."""
    return f"mixed line endings: {lf:,} LF, {crlf:,} CRLF, {cr:,} CR (kept as they are)"


def _file_record(
    p: Path,
    text: str,
    *,
    size: int,
    encoding: str,
    guessed: bool = False,
    bom: str | None = None,
    notes: tuple[str, ...] = (),
    lossy: bool = False,
    utf8_error: str = "",
) -> CorpusFile:
    """The :class:`CorpusFile` of a decoded text: line endings and counts
    computed, a note added for mixed line endings and for control characters."""
    breaks = line_breaks(text)
    ending = ending_kind(*breaks)
    ctrl = control_note(text[:BINARY_SNIFF_BYTES])
    if ctrl:
        notes = notes + (f"{p.name}: {ctrl}",)
    if ending == "mixed":
        notes = notes + (endings_note(*breaks),)
    return CorpusFile(
        p, text, size, encoding, guessed, bom, ending, len(text), line_count(text, breaks),
        notes, lossy, utf8_error,
    )  # fmt: skip


def read_text_file(
    path: PathLike, *, encoding: str | None = None, keep_bom: bool = False
) -> CorpusFile:
    """Read one text file (see the module docstring for the rules).

    Args:
        path: the file.
        encoding: a Python codec name (``"gbk"``, ``"utf-16"``, ``"latin-1"``...)
            to override detection, or :data:`RAW` for the lossless raw-bytes mode.
        keep_bom: keep a byte order mark as U+FEFF at the start of the text.

    Returns:
        :class:`CorpusFile`; an empty file gives empty text and the note
        ``"empty file"``.

    Raises:
        CorpusError: the file cannot be read, or looks binary (one-line message
            naming the file, e.g. ``"x.bin: looks like a binary file (NUL byte at
            offset 3); not loaded"``).
        InputError: ``encoding`` is not a known codec.
    """
    data = read_raw(path)
    return decode_file_bytes(data, path=path, encoding=encoding, keep_bom=keep_bom)


@dataclass(frozen=True, slots=True)
class Corpus:
    """Files read for training or statistics.

    Attributes:
        files: the files that were read, in reading order.
        errors: one line per file that was skipped (unreadable, binary), naming it by its path as given.
        sample: a streamed corpus's first characters, one text per file in file
            order (each file stays its own text; files read lossily and files
            past the sample's end left out; see
            :func:`~tokexplorer.core.io.streaming.stream_corpus`); ``()`` for a
            corpus held in memory.
        roots: the files and folders it was opened from, as given (the window names its
            files below them: :func:`~tokexplorer.core.io.labels.file_label`).
        notes: what the walk over ``roots`` left out or noticed, one line each: the
            tokenizer model files a folder held (not read), a model file named by itself
            (:attr:`~tokexplorer.core.io.walking.Walk.notes`).
    """

    files: tuple[CorpusFile, ...] = ()
    errors: tuple[str, ...] = ()
    sample: tuple[str, ...] = ()
    roots: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"Corpus({len(self.files)} files, {self.n_bytes} bytes, {len(self.errors)} errors)"

    def __len__(self) -> int:
        return len(self.files)

    def __iter__(self) -> Iterator[CorpusFile]:
        return iter(self.files)

    @property
    def n_bytes(self) -> int:
        """Total size of the files on disk, in bytes."""
        return sum(f.size_bytes for f in self.files)

    @property
    def n_chars(self) -> int:
        """Total number of code points in the texts."""
        return sum(f.n_chars for f in self.files)

    @property
    def n_lines(self) -> int:
        """Total number of lines."""
        return sum(f.n_lines for f in self.files)

    @property
    def is_empty(self) -> bool:
        """True when there is no text at all ("nothing to train on")."""
        return all(not f.n_chars for f in self.files)

    @property
    def streamed(self) -> bool:
        """True when some file's text is not held in memory (:attr:`CorpusFile.streamed`)."""
        return any(f.streamed for f in self.files)

    @property
    def sample_note(self) -> str:
        """What :attr:`sample` is, for the views that show it: ``"sample: first
        200,000 characters of 1.0 GiB, 12 files"``; ``""`` when not streamed."""
        if not self.streamed:
            return ""
        from tokexplorer.core.io.sizes import format_size

        n = len(self.files)
        return (
            f"sample: first {sum(map(len, self.sample)):,} characters of {format_size(self.n_bytes)}, "
            f"{n:,} file{'s' if n != 1 else ''}"
        )

    @property
    def lossy_files(self) -> tuple[CorpusFile, ...]:
        """Files whose decoding inserted U+FFFD (training should ask first)."""
        return tuple(f for f in self.files if f.lossy)

    def texts_in_memory(self) -> list[str]:
        """The texts an analysis holds in memory: each file's text (empty ones
        left out), or for a streamed corpus its :attr:`sample` (say so with
        :attr:`sample_note`); ``[]`` when there is none."""
        if self.streamed:
            return list(self.sample)
        return [f.text for f in self.files if f.text]

    def texts(self) -> Iterator[str]:
        """Yield each file's text (str), in order.

        Raises:
            CorpusError: a file is streamed (its text is not held; read it with
                :func:`~tokexplorer.core.io.streaming.file_text_pieces`).
        """
        for f in self.files:
            if f.streamed:
                raise CorpusError(f"{f.name}: streamed, its text is not held in memory")
            yield f.text


