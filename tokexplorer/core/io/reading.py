"""The one reading rule: which files of a corpus are trained on, for the window and the command line.

Both front doors read a corpus with :func:`~tokexplorer.core.io.folders.read_corpus`
(the same encoding check, the same guess, the same notes) and then keep its files
by :func:`training_files`:

* a file in UTF-8 (or UTF-16/32 with a byte order mark) is used;
* a file that is not UTF-8 is read with the guessed encoding and used when that
  decode is exact; its notes say so and how sure the guess is (``"…; read as gb18030
  (guessed, high confidence: …; choose another encoding if wrong)"``), the window's file list shows the guess, and
  ``--encoding`` (or the window's Re-read with encoding) forces a codec;
* a file whose decode replaced undecodable bytes with U+FFFD is damaged: it is left
  out unless ``allow_damaged`` (``--allow-damaged``; in the window, the answer to
  "Train on damaged text?");
* an empty file is left out; unreadable and binary files never became corpus files
  (:attr:`Corpus.errors`).

``count`` (which streams files, never holding one whole) keeps the same files with
the same notes by :func:`counting_files`: a file that decodes strictly as UTF-8
(or as ``--encoding``) is checked as it streams past; any other file is read
whole and decoded by the same function as above, and counted with the codec it
chose. ``count --dask`` checks only each file's start here (``head_only``: its byte
order mark, binary or not, control characters, whether it starts as UTF-8); the
workers check the rest as they count it, and a file they find undecodable is read
by the same function as above (:mod:`tokexplorer.core.io.checked_counting`).

Why the guess is used rather than refused: an exact decode loses nothing, the guess
is always said in a note, and refusing it made the command line learn other merges
than the window from the same folder while telling the user the same guess.
"""

from __future__ import annotations

import codecs
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from pathlib import Path

from tokexplorer.core.errors import CorpusError
from tokexplorer.core.io.corpus import Corpus, CorpusFile, PathLike, decode_file_bytes, endings_note
from tokexplorer.core.io.encodings import BINARY_SNIFF_BYTES, check_binary, codec_name, control_note, detect_bom
from tokexplorer.core.io.file_encodings import FileEncodings, codec_for
from tokexplorer.core.io.folders import CHUNK_BYTES, check_encoding, collect_files
from tokexplorer.core.types import Progress

__all__ = ["DAMAGED_HINT", "HEAD_BYTES", "CountedFile", "counting_files", "damaged_message", "training_files"]


#: How a user goes on with a damaged file, in the window's terms.
DAMAGED_HINT = "fix the file, choose its real encoding, or allow damaged text to train on it as it reads"


def damaged_message(f: CorpusFile, *, hint: str = DAMAGED_HINT) -> str:
    """Why a damaged file is left out, in one line ending with ``hint`` (how to go on).

    >>> from pathlib import Path
    >>> from tokexplorer.core.io import decode_file_bytes
    >>> f = decode_file_bytes(b"caf\\xe9 \\xff\\xfe\\x00", path=Path("a.txt"), encoding="utf-8")
    >>> damaged_message(f).split(";")[0]
    'a.txt: reading it as UTF-8 replaced undecodable bytes with U+FFFD'
    """
    return (
        f"{f.path}: reading it as {codec_name(f.encoding)} replaced undecodable bytes with U+FFFD; "
        f"not training on damaged text ({hint})"
    )


def training_files(
    corpus: Corpus, *, allow_damaged: bool = False, damaged_hint: str = DAMAGED_HINT
) -> tuple[list[CorpusFile], list[str]]:
    """The files of ``corpus`` to train on, and one line per file left out (see the module rule).

    Args:
        corpus: the corpus as :func:`~tokexplorer.core.io.folders.read_corpus` read it.
        allow_damaged: also use files whose decode inserted U+FFFD.
        damaged_hint: how to go on, ending the line of a damaged file (see :func:`damaged_message`).

    Returns:
        ``(files, problems)``: the files with text, in corpus order; the corpus's
        errors followed by the reason each damaged file was left out.

    >>> from pathlib import Path
    >>> from tokexplorer.core.io import decode_file_bytes
    >>> gbk = decode_file_bytes("中文的文本，用来训练分词器。".encode("gbk"), path=Path("zh.txt"))
    >>> files, problems = training_files(Corpus((gbk,), ()))
    >>> [f.text for f in files], problems, gbk.encoding_guessed
    (['中文的文本，用来训练分词器。'], [], True)
    """
    used: list[CorpusFile] = []
    problems = list(corpus.errors)
    for f in corpus.files:
        if f.lossy and not allow_damaged:
            problems.append(damaged_message(f, hint=damaged_hint))
        elif f.n_chars:
            used.append(f)
    return used, problems


@dataclass(frozen=True, slots=True)
class CountedFile:
    """A file ``count`` reads, and how.

    Attributes:
        path: the file.
        encoding: the Python codec to decode all of it with (``"utf-8"``,
            ``"utf-8-sig"``, a guessed ``"gb18030"``...).
        notes: what reading it found (a guessed encoding, a BOM, control
            characters...), each naming the file by its base name or not at all,
            exactly as :class:`CorpusFile.notes`.
        lossy: decoding replaces undecodable bytes with U+FFFD (only with ``allow_damaged``).
        counted: False for a file left out: empty (its note says so) or damaged
            (a line of the problems says so).
        checked: False when only the file's start was checked (``head_only``): the rest
            is checked where it is counted, and its line endings are not known yet
            (no mixed-line-endings note among ``notes``).
    """

    path: Path
    encoding: str
    notes: tuple[str, ...] = ()
    lossy: bool = False
    counted: bool = True
    checked: bool = True


#: Bytes of a file's start that ``head_only`` checks: enough for the binary check's
#: 64 KiB and for the first 65,536 characters the control-character note looks at.
HEAD_BYTES = 4 * BINARY_SNIFF_BYTES


def _head_notes(path: Path, head: bytes, codec: str, *, bom: bool) -> tuple[str, ...] | None:
    """The notes :func:`_streamed` gives from a file's start ``head`` (without the line
    endings, which need the whole file), or None when ``head`` does not decode as ``codec``."""
    try:
        text = codecs.getincrementaldecoder(codec)().decode(head, final=False)[:BINARY_SNIFF_BYTES]
    except UnicodeDecodeError:
        return None
    ctrl = control_note(text.removeprefix("\ufeff") if bom else text)
    notes = [f"{path.name}: {ctrl}"] if ctrl else []
    return ("UTF-8 with BOM; BOM removed", *notes) if bom else tuple(notes)


def _streamed(path: Path, codec: str, *, bom: bool) -> Generator[int, None, tuple[str, ...] | None]:
    """Decode ``path`` strictly with ``codec`` chunk by chunk, yielding bytes read; the
    notes the in-memory reader would give, or None when a byte does not decode."""
    decoder = codecs.getincrementaldecoder(codec)()
    head, carry_cr = "", False
    lf = crlf = cr = 0
    with open(path, "rb") as fh:
        while chunk := fh.read(CHUNK_BYTES):
            try:
                text = decoder.decode(chunk)
            except UnicodeDecodeError:
                return None
            yield len(chunk)
            if len(head) < BINARY_SNIFF_BYTES:
                head += text[: BINARY_SNIFF_BYTES - len(head)]
            if carry_cr and text.startswith("\n"):
                crlf, cr, lf = crlf + 1, cr - 1, lf - 1
            has_cr = "\r" in text  # most texts hold no CR: then one count only
            n = text.count("\r\n") if has_cr else 0
            crlf, lf = crlf + n, lf + text.count("\n") - n
            cr += text.count("\r") - n if has_cr else 0
            carry_cr = text.endswith("\r") if text else carry_cr
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    head = head.removeprefix("\ufeff") if bom else head
    ctrl = control_note(head)
    notes = [f"{path.name}: {ctrl}"] if ctrl else []
    if sum(1 for k in (lf, crlf, cr) if k) > 1:
        notes.append(endings_note(lf, crlf, cr))
    return ("UTF-8 with BOM; BOM removed", *notes) if bom else tuple(notes)


def _read_for_counting(
    path: Path, encoding: str | None, *, head_only: bool
) -> Generator[int, None, CorpusFile | CountedFile]:
    """How ``count`` reads one file: a :class:`CountedFile` when it decodes strictly as it
    streams (with ``head_only``, when its first :data:`HEAD_BYTES` do, the rest unchecked),
    else the :class:`CorpusFile` of the in-memory reader. CorpusError: binary."""
    with open(path, "rb") as fh:
        head = fh.read(HEAD_BYTES if head_only else BINARY_SNIFF_BYTES)
        more = bool(fh.read(1))
    found = detect_bom(head)
    if not head or (encoding is None and found is not None and not found[0].startswith("UTF-8")):
        return decode_file_bytes(path.read_bytes(), path=path, encoding=encoding)
    if encoding is None:
        check_binary(str(path), head[:BINARY_SNIFF_BYTES])
    codec = encoding if encoding is not None else "utf-8-sig" if found is not None else "utf-8"
    bom = encoding is None and found is not None
    if head_only and more:
        notes = _head_notes(path, head, codec, bom=bom)
        if notes is not None and (encoding is None or found is None):
            yield len(head)
            name = codecs.lookup(codec).name if encoding is not None else codec
            return CountedFile(path, name, notes, checked=False)
        return decode_file_bytes(path.read_bytes(), path=path, encoding=encoding)
    notes = yield from _streamed(path, codec, bom=bom)
    if notes is not None and (encoding is None or found is None):
        return CountedFile(path, codecs.lookup(codec).name if encoding is not None else codec, notes)
    # not strictly decodable (or a forced codec on a file with a BOM): the in-memory reader decides
    return decode_file_bytes(path.read_bytes(), path=path, encoding=encoding)


def counting_files(
    paths: Sequence[PathLike],
    *,
    encoding: str | FileEncodings | None = None,
    allow_damaged: bool = False,
    damaged_hint: str = DAMAGED_HINT,
    head_only: bool = False,
) -> Generator[Progress, None, tuple[list[CountedFile], list[str]]]:
    """The files ``count`` reads and their codecs, by the rule of :func:`training_files`.

    Args:
        paths: files and folders (folders are walked as :func:`read_corpus` walks them).
        encoding: a codec for every file (None: UTF-8, else guessed per file), or a
            :class:`~.file_encodings.FileEncodings` (codecs by file).
        allow_damaged: also count files whose decode inserts U+FFFD.
        damaged_hint: how to go on, ending the line of a damaged file (see :func:`damaged_message`).
        head_only: check only the first :data:`HEAD_BYTES` of a file that starts as UTF-8 (or
            as ``encoding``): it comes back not :attr:`CountedFile.checked`, for the workers
            of ``count --dask`` to check the rest (a smaller file is checked whole, as without).

    Yields:
        ``Progress("reading", bytes read, total bytes, file name)``.

    Returns:
        ``(files, problems)``: the files read, each with its codec and notes
        (empty and damaged ones too, not :attr:`CountedFile.counted`); one line
        per file left out (missing, unreadable, binary, damaged), naming it by its path.

    Raises:
        InputError: ``encoding`` is not a known codec.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "zh.txt").write_bytes("中文的文本，用来训练分词器。".encode("gbk"))
    >>> _ = (d / "en.txt").write_text("plain text\\n", encoding="utf-8")
    >>> from tokexplorer.core.types import run_to_end
    >>> files, problems = run_to_end(counting_files([d]))
    >>> [(f.path.name, f.encoding) for f in files], problems
    ([('en.txt', 'utf-8'), ('zh.txt', 'gbk')], [])
    """
    check_encoding(encoding)
    files, problems = collect_files(list(paths))
    sizes = [f.stat().st_size for f in files]
    total, before = sum(sizes), 0
    out: list[CountedFile] = []
    damaged: list[str] = []  # after the files that could not be read, as in training_files
    for f, size in zip(files, sizes):
        reading, done = _read_for_counting(f, codec_for(encoding, f), head_only=head_only), before
        before += size
        try:
            while True:
                done += next(reading)
                yield Progress("reading", done, total, f.name, unit="bytes")
        except StopIteration as stop:
            got = stop.value
            yield Progress("reading", before, total, f.name, unit="bytes")
        except CorpusError as exc:
            problems.append(str(exc))
            continue
        except OSError as exc:
            problems.append(f"{f}: cannot read ({exc.strerror or exc})")
            continue
        if isinstance(got, CountedFile):
            out.append(got)
        else:
            left_out = got.lossy and not allow_damaged
            if left_out:
                damaged.append(damaged_message(got, hint=damaged_hint))
            out.append(CountedFile(f, got.encoding, got.notes, got.lossy, counted=bool(got.text) and not left_out))
    return out, problems + damaged
