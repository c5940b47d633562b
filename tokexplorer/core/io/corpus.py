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
  a note says how many and where the first is. Any other file is decoded
  with an encoding guessed by :mod:`charset_normalizer`
  (``encoding_guessed=True``); the caller can re-read with ``encoding=``. A
  decode that had to insert U+FFFD sets :attr:`CorpusFile.lossy`.
* A binary file is refused with :class:`~tokexplorer.core.errors.CorpusError`:
  any NUL byte in a file without a UTF-16/UTF-32 BOM, or more than
  :data:`BINARY_CONTROL_SHARE` of C0 control bytes (other than tab, LF, VT, FF,
  CR and ESC) in the first :data:`BINARY_SNIFF_BYTES` bytes.
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
import unicodedata
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Union

import regex

from tokexplorer.core.errors import Cancelled, CorpusError, InputError
from tokexplorer.core.types import Progress, run_to_end

PathLike = Union[str, "os.PathLike[str]"]

#: Pseudo-encoding for :func:`read_text_file`: decode as UTF-8 with
#: ``errors="surrogateescape"``, so every undecodable byte becomes one surrogate
#: U+DC80–U+DCFF and :func:`to_raw_bytes` gives back the exact file bytes.
RAW = "raw"

#: Encodings worth offering when a file is not UTF-8 (Python codec names).
COMMON_ENCODINGS: tuple[str, ...] = (
    "utf-8", "gbk", "gb18030", "big5", "shift_jis", "euc-jp", "euc-kr",
    "utf-16", "utf-16-le", "utf-16-be", "latin-1", "cp1252", "cp1251", "koi8-r",
)  # fmt: skip

#: Number of leading bytes inspected by the control-byte rule for binary files.
BINARY_SNIFF_BYTES = 65536
#: Share (0–1) of control bytes above which a file counts as binary.
BINARY_CONTROL_SHARE = 0.10
#: Read size for :func:`read_corpus` progress reports, in bytes.
CHUNK_BYTES = 1 << 20

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    # (BOM bytes, label, codec that also strips it) — UTF-32 first: its LE BOM
    # starts with the UTF-16 LE one.
    (codecs.BOM_UTF32_LE, "UTF-32-LE", "utf-32"),
    (codecs.BOM_UTF32_BE, "UTF-32-BE", "utf-32"),
    (codecs.BOM_UTF8, "UTF-8", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "UTF-16-LE", "utf-16"),
    (codecs.BOM_UTF16_BE, "UTF-16-BE", "utf-16"),
)

_TEXT_CONTROLS = frozenset(b"\t\n\x0b\x0c\r\x1b")


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

    def __repr__(self) -> str:
        return f"CorpusFile({self.path.name!r}, {self.size_bytes} bytes, {self.encoding_label})"

    @property
    def name(self) -> str:
        """The file name without folders."""
        return self.path.name

    @property
    def encoding_label(self) -> str:
        """What the user sees: ``"UTF-8"``, ``"UTF-8 with BOM"``, ``"gbk (guessed)"``..."""
        if self.encoding == RAW:
            return "raw bytes (UTF-8, undecodable bytes kept)"
        if self.bom:
            return f"{self.bom} with BOM"
        if self.encoding in ("utf-8", "utf_8"):
            return "UTF-8"
        return f"{self.encoding} (guessed)" if self.encoding_guessed else self.encoding


def line_ending_of(text: str) -> str:
    """Classify the line endings of ``text``.

    Returns:
        ``"LF"``, ``"CRLF"`` or ``"CR"`` when only that kind occurs, ``"mixed"``
        when several do, ``"none"`` when the text has no line break.

    >>> line_ending_of("a\\r\\nb\\r\\n"), line_ending_of("a\\nb\\r\\n"), line_ending_of("ab")
    ('CRLF', 'mixed', 'none')
    """
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    kinds = [k for k, n in (("LF", lf), ("CRLF", crlf), ("CR", cr)) if n]
    if not kinds:
        return "none"
    return kinds[0] if len(kinds) == 1 else "mixed"


def count_lines(text: str) -> int:
    """Number of lines in ``text``: LF, CRLF and CR each end one line.

    >>> count_lines(""), count_lines("a"), count_lines("a\\n"), count_lines("a\\r\\nb")
    (0, 1, 1, 2)
    """
    if not text:
        return 0
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (0 if text[-1] in "\r\n" else 1)


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


def _detect_bom(data: bytes) -> tuple[str, str, int] | None:
    """(label, codec, length) of the BOM at the start of ``data``, or None."""
    for bom, label, codec in _BOMS:
        if data.startswith(bom):
            if label.startswith("UTF-32") and len(data) % 4:
                continue  # FF FE 00 00 in an odd-sized file: UTF-16 BOM + NUL
            return label, codec, len(bom)
    return None


def check_binary(name: str, data: bytes) -> None:
    """Refuse bytes that look like a binary file rather than text.

    Args:
        name: file name for the message.
        data: the file's bytes (or its first 64 KiB).

    Raises:
        CorpusError: a NUL byte, or too many control bytes in the first
            ``BINARY_SNIFF_BYTES`` bytes.
    """
    nul = data.find(b"\x00")
    if nul >= 0:
        raise CorpusError(f"{name}: looks like a binary file (NUL byte at offset {nul}); not loaded")
    head = data[:BINARY_SNIFF_BYTES]
    ctrl = sum(1 for b in head if b < 0x20 and b not in _TEXT_CONTROLS)
    if head and ctrl / len(head) > BINARY_CONTROL_SHARE:
        raise CorpusError(
            f"{name}: looks like a binary file ({ctrl} control bytes in the first "
            f"{len(head)} bytes); not loaded"
        )


def _utf8_error(data: bytes, *, skip: int = 0) -> str:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not valid UTF-8 at byte {exc.start + skip} ({exc.reason})"
    return ""


def _mostly_utf8(data: bytes) -> tuple[int, bool]:
    """Whether ``data`` should still be read as UTF-8 despite undecodable bytes.

    UTF-8 it is when its well-formed non-ASCII characters outnumber the
    undecodable bytes ten to one, or when its only fault is a character cut off
    at the end and it holds at least one well-formed non-ASCII character. A
    legacy single-byte text (Latin-1, cp1252) has no well-formed multi-byte
    sequences, and a multi-byte legacy one (GBK, Shift-JIS) is mostly
    undecodable as UTF-8, so neither passes.

    Returns:
        ``(undecodable bytes, cut at the end)``; ``(0, False)`` when the data
        should not be read as UTF-8.
    """
    text = data.decode("utf-8", "surrogateescape")
    # every undecodable byte became one lone surrogate, which "ignore" drops
    # (counted in C: a list of them could be as large as the file)
    n_bad = len(text) - len(text.encode("utf-8", "ignore").decode("utf-8"))
    if not n_bad:
        return 0, False
    n_good = len(text) - len(text.encode("ascii", "ignore")) - n_bad
    # cut at the end: all the bad bytes are the last ones and start a character
    # that the data ends before completing
    cut = False
    if n_bad <= 3 and all("\udc80" <= c <= "\udcff" for c in text[-n_bad:]):
        try:
            data[-n_bad:].decode("utf-8")
        except UnicodeDecodeError as exc:
            cut = exc.reason == "unexpected end of data"
    if n_good >= 10 * n_bad or (cut and n_good >= 1):
        return n_bad, cut
    return 0, False


def _decode(data: bytes, codec: str, name: str) -> tuple[str, bool, str]:
    """Decode strictly, else with U+FFFD; returns (text, lossy, note)."""
    try:
        return data.decode(codec), False, ""
    except UnicodeDecodeError as exc:
        text = data.decode(codec, "replace")
        return (
            text,
            True,
            f"{name}: not valid {codec} at byte {exc.start} ({exc.reason}); "
            f"undecodable bytes became U+FFFD",
        )


#: East Asian codecs and the scripts their text is written in.
_CJK_CODECS: dict[str, tuple[str, ...]] = {
    "gbk": ("Han",),
    "gb18030": ("Han",),
    "big5": ("Han",),
    "cp949": ("Hangul",),
    "euc_kr": ("Hangul",),
    "shift_jis": ("Han", "Hiragana", "Katakana"),
    "cp932": ("Han", "Hiragana", "Katakana"),
    "euc_jp": ("Han", "Hiragana", "Katakana"),
}
_CJK_SCRIPTS = ("Han", "Hangul", "Hiragana", "Katakana")
_SCRIPT_RE = {name: regex.compile(rf"\p{{{name}}}") for name in _CJK_SCRIPTS}


def _cjk_fit(text: str, scripts: tuple[str, ...]) -> float:
    """How well a decoded text looks like the language of a CJK codec, in [-2, 1].

    Over the non-ASCII characters that are not punctuation or symbols: the
    share in the codec's own scripts, minus twice the share in the other CJK
    scripts, in loose Hangul jamo (real Korean text is written in syllable
    blocks) or in control and private-use characters. A wrong East Asian codec
    turns Chinese into a mix of Hangul, jamo and rare Han (``'汉字'`` in GBK
    read as cp949 is ``'볶俚'``).
    """
    wide = [c for c in text if ord(c) >= 0x80 and unicodedata.category(c)[0] not in "PSZ"]
    if not wide:
        return 0.0
    own = other = bad = 0
    for c in wide:
        o = ord(c)
        if 0x1100 <= o <= 0x11FF or 0x3130 <= o <= 0x318F or 0xFFA0 <= o <= 0xFFDC:
            bad += 1  # Hangul jamo standing alone
        elif any(_SCRIPT_RE[sc].match(c) for sc in scripts):
            own += 1
        elif any(_SCRIPT_RE[sc].match(c) for sc in _CJK_SCRIPTS):
            other += 1
        elif unicodedata.category(c) in ("Cc", "Co", "Cn", "Cs"):
            bad += 1
    if "Hiragana" in scripts and not any(_SCRIPT_RE["Hiragana"].match(c) or _SCRIPT_RE["Katakana"].match(c) for c in wide):
        own //= 2  # Japanese text without kana is more likely Chinese
    return (own - 2 * (other + bad)) / len(wide)


#: Where each Chinese codec keeps its most common characters: GB2312 level 1
#: (lead bytes B0–D7) for GBK/GB18030, Big5's "frequently used" block (lead A4–C6).
_COMMON_LEADS: dict[str, tuple[int, int]] = {"gbk": (0xB0, 0xD7), "gb18030": (0xB0, 0xD7), "big5": (0xA4, 0xC6)}


def _common_share(data: bytes, codec: str) -> float:
    """Share of double-byte characters in the codec's block of common characters."""
    lo, hi = _COMMON_LEADS[codec]
    i = n = common = 0
    while i < len(data) - 1:
        b = data[i]
        if b < 0x80:
            i += 1
            continue
        n += 1
        common += lo <= b <= hi and data[i + 1] >= 0xA1
        i += 2
    return common / n if n else 0.0


#: Single-byte code pages for Latin-script languages (Python codec names).
_LATIN_SINGLE_BYTE = frozenset(
    codecs.lookup(c).name
    for c in ("cp1250", "cp1252", "cp1254", "cp1257", "latin-1", "iso8859-2", "iso8859-3",
              "iso8859-4", "iso8859-9", "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15",
              "iso8859-16", "mac-latin2", "mac-roman", "cp850", "cp852")
)  # fmt: skip


#: cp1252 characters that are rare in Western European text but stand for
#: letters in the other Latin code pages (cp1250 đ ţ ş ą ł ľ, cp1254 ğ ş...):
#: a cp1252 reading that holds one is probably a misreading.
_NOT_WESTERN = frozenset("ðÐþÞ¹²³¼½¾ºª¤¦¨¸¯¥µƒ")


def _ascii_compatible(codec: str) -> bool:
    """True when ``codec`` reads ASCII bytes as ASCII (not UTF-16/32, not EBCDIC)."""
    probe = b"Az09 .,\n"
    try:
        return probe.decode(codec) == probe.decode("ascii")
    except (UnicodeDecodeError, LookupError):
        return False


def guess_encoding(data: bytes) -> str:
    """Guess the encoding of bytes that are not UTF-8.

    charset-normalizer's best guess, unless an East Asian codec decodes the
    bytes strictly into text that fits its language clearly better (short CJK
    files are where charset-normalizer is weakest: a few bytes of GBK Chinese
    pass for Korean), or the guess is a single-byte code page and a Latin one
    scored about as well (charset-normalizer reads short French as Baltic
    cp1257): then cp1252, or cp1250 where cp1252's reading holds letters of
    the other Latin code pages. UTF-16/32 and EBCDIC readings are never guessed.

    Args:
        data: the file's bytes (the first 256 KiB are enough).

    Returns:
        a Python codec name; ``"latin-1"`` when nothing better is found.
    """
    sample = data[: 1 << 18]
    try:
        from charset_normalizer import from_bytes
    except ImportError:  # pragma: no cover - a declared dependency
        return "latin-1"
    # UTF-16/32 without a byte order mark would hold NUL bytes in any text of
    # Latin script; such files were refused as binary before this point, so a
    # UTF-16/32 reading of what is left is a misreading (b"Ma\xf1ana").
    # Likewise an EBCDIC reading (cp037...) of text whose ASCII letters read as
    # ASCII in every other candidate: only ASCII-compatible codecs are kept.
    results = [m for m in from_bytes(sample) if _ascii_compatible(m.encoding)]
    best = results[0] if results else None
    guess = codecs.lookup(best.encoding).name if best is not None else "latin-1"
    if best is not None and len(sample.decode(guess, "replace")) == len(sample):  # a single-byte guess
        # charset-normalizer often scores several Latin code pages almost alike
        # on short text (French read as Baltic cp1257, Polish as cp1252). Among
        # near ties take the most common one, Western European cp1252, unless
        # its reading holds characters that are letters only in the others.
        near = [
            name
            for name, m in ((codecs.lookup(m.encoding).name, m) for m in results)
            if name in _LATIN_SINGLE_BYTE
            and m.chaos <= best.chaos + 0.1
            and m.coherence >= best.coherence - 0.05
        ]
        western = not _NOT_WESTERN.intersection(sample.decode("cp1252", "ignore"))
        if "cp1252" in near and western:
            guess = "cp1252"
        elif guess == "cp1252" and not western:
            # then the most common Central European one, cp1250, if it is near
            others = sorted((c for c in near if c != "cp1252"), key=lambda c: c != "cp1250")
            guess = others[0] if others else guess
    if not any(b >= 0x80 for b in sample):
        return guess

    def fit(codec: str) -> float | None:
        scripts = _CJK_CODECS.get(codecs.lookup(codec).name)
        try:
            text = sample.decode(codec)
        except UnicodeDecodeError as exc:
            cut_at_end = len(sample) < len(data) and exc.start >= len(sample) - 4
            if not cut_at_end:
                return None
            text = sample[: exc.start].decode(codec)  # a character cut by the sample's end
        if scripts is None:
            return 0.0
        score = _cjk_fit(text, scripts)
        name = codecs.lookup(codec).name
        if name in _COMMON_LEADS:  # GBK and Big5 both read Chinese as Han: prefer common characters
            score *= 0.5 + 0.5 * _common_share(sample, name)
        return score

    scores = {c: fit(c) for c in _CJK_CODECS}
    scores = {c: v for c, v in scores.items() if v is not None}
    if not scores:
        return guess
    top = max(scores, key=lambda c: (scores[c], -list(_CJK_CODECS).index(c)))
    own = scores.get(codecs.lookup(guess).name, fit(guess) if guess in _CJK_CODECS else 0.0) or 0.0
    if scores[top] >= 0.6 and scores[top] > own + 0.1:
        return codecs.lookup(top).name
    return guess


def _guess(data: bytes) -> str:
    """Python codec name guessed for bytes that are not UTF-8 (see :func:`guess_encoding`)."""
    return guess_encoding(data)


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
    """
    p = Path(path)
    name = p.name or str(path)
    notes: list[str] = []
    size = len(data)
    if not data:
        return _make(p, "", size, encoding or "utf-8", False, None, ("empty file",), False, "")

    if encoding is not None:
        return _decode_as(p, name, data, encoding, keep_bom)

    found = _detect_bom(data)
    if found is not None and not found[0].startswith("UTF-8"):
        label, codec, n = found
        text, lossy, note = _decode(data, codec, name)
        notes.append(f"{label} with BOM; BOM " + ("kept as U+FEFF" if keep_bom else "removed"))
        if note:
            notes.append(note)
        if keep_bom:
            text = "\ufeff" + text
        return _make(p, text, size, codec, False, label, tuple(notes), lossy, _utf8_error(data))

    check_binary(name, data)
    if found is not None:  # UTF-8 BOM
        body = data[3:]
        err = _utf8_error(body, skip=3)
        if not err:
            text = body.decode("utf-8")
            notes.append("UTF-8 with BOM; BOM " + ("kept as U+FEFF" if keep_bom else "removed"))
            if keep_bom:
                text = "\ufeff" + text
            return _make(p, text, size, "utf-8-sig", False, "UTF-8", tuple(notes), False, "")
    else:
        err = _utf8_error(data)
        if not err:
            return _make(p, data.decode("utf-8"), size, "utf-8", False, None, (), False, "")

    body = data[3:] if found is not None else data
    n_bad, cut = _mostly_utf8(body)
    if n_bad:
        text = body.decode("utf-8", "replace")
        what = (
            "the file ends in the middle of a character"
            if cut
            else f"{n_bad:,} undecodable byte{'s' if n_bad != 1 else ''}"
        )
        notes.append(
            f"{name}: {err}; read as UTF-8 anyway ({what}; shown as U+FFFD). "
            "If that is wrong, read it with its real encoding"
        )
        if found is not None:
            notes.append("UTF-8 with BOM; BOM " + ("kept as U+FEFF" if keep_bom else "removed"))
            if keep_bom:
                text = "\ufeff" + text
        return _make(p, text, size, "utf-8" if found is None else "utf-8-sig", False,
                     "UTF-8" if found is not None else None, tuple(notes), True, err)  # fmt: skip

    codec = _guess(data)
    text, lossy, note = _decode(data, codec, name)
    notes.append(f"{name}: {err}; read as {codec} (guessed; choose another encoding if wrong)")
    if note:
        notes.append(note)
    return _make(p, text, size, codec, True, None, tuple(notes), lossy, err)


def _decode_as(p: Path, name: str, data: bytes, encoding: str, keep_bom: bool) -> CorpusFile:
    size = len(data)
    err = _utf8_error(data)
    if encoding == RAW:
        text = data.decode("utf-8", "surrogateescape")
        notes: list[str] = []
        n_bad = sum(1 for ch in text if "\udc80" <= ch <= "\udcff")
        if n_bad:
            notes.append(
                f"raw-bytes mode: {n_bad} undecodable byte{'s' if n_bad != 1 else ''} kept as "
                "surrogates U+DC80–U+DCFF"
            )
        return _make(p, text, size, RAW, False, None, tuple(notes), False, err)
    try:
        codec = codecs.lookup(encoding).name
    except LookupError:
        raise InputError(f"unknown encoding {encoding!r}") from None
    found = _detect_bom(data)
    bom = None
    if found is not None:
        label = found[0]
        family = "-".join(label.split("-")[:2])  # "UTF-8", "UTF-16", "UTF-32"
        if codec.upper() in (family, label, family + "-SIG"):
            bom = label
    text, lossy, note = _decode(data, codec, name)
    notes = [note] if note else []
    if bom is not None:
        if text.startswith("\ufeff") and not keep_bom:
            text = text[1:]
        elif keep_bom and not text.startswith("\ufeff"):
            text = "\ufeff" + text
        notes.insert(0, f"{bom} with BOM; BOM " + ("kept as U+FEFF" if keep_bom else "removed"))
    return _make(p, text, size, codec, False, bom, tuple(notes), lossy, err)


def _make(
    p: Path,
    text: str,
    size: int,
    encoding: str,
    guessed: bool,
    bom: str | None,
    notes: tuple[str, ...],
    lossy: bool,
    utf8_error: str,
) -> CorpusFile:
    ending = line_ending_of(text)
    if ending == "mixed":
        crlf = text.count("\r\n")
        notes = notes + (
            f"mixed line endings: {text.count(chr(10)) - crlf} LF, {crlf} CRLF, "
            f"{text.count(chr(13)) - crlf} CR (kept as they are)",
        )
    return CorpusFile(
        p, text, size, encoding, guessed, bom, ending, len(text), count_lines(text),
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
        errors: one line per file that was skipped (unreadable, binary).
    """

    files: tuple[CorpusFile, ...] = ()
    errors: tuple[str, ...] = ()

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
        return all(not f.text for f in self.files)

    @property
    def lossy_files(self) -> tuple[CorpusFile, ...]:
        """Files whose decoding inserted U+FFFD (training should ask first)."""
        return tuple(f for f in self.files if f.lossy)

    def texts(self) -> Iterator[str]:
        """Yield each file's text (str), in order."""
        for f in self.files:
            yield f.text


def _is_hidden(p: Path) -> bool:
    return p.name.startswith(".")


def collect_files(paths: PathLike | Iterable[PathLike], *, recursive: bool = True) -> tuple[list[Path], list[str]]:
    """Expand files and folders into a list of files.

    Folders are walked in sorted order (names compared as str), skipping hidden
    files and folders (names starting with ``.``); with ``recursive=False`` only
    a folder's direct files are taken. Files named explicitly are kept even if
    hidden.

    Args:
        paths: one path or an iterable of paths (files or folders).
        recursive: descend into sub-folders.

    Returns:
        (files, errors): the files in order, and one line per path that does not
        exist or cannot be listed.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    files: list[Path] = []
    errors: list[str] = []

    def walk(folder: Path) -> None:
        try:
            entries = sorted(folder.iterdir(), key=lambda e: e.name)
        except OSError as exc:
            errors.append(f"{folder.name or folder}: cannot list folder ({exc.strerror or exc})")
            return
        for e in entries:
            if _is_hidden(e):
                continue
            if e.is_dir():
                if recursive:
                    walk(e)
            elif e.is_file():
                files.append(e)

    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            walk(p)
        elif p.is_file():
            files.append(p)
        else:
            errors.append(f"{p.name or p}: no such file or folder")
    return files, errors


def read_corpus(
    paths: PathLike | Iterable[PathLike],
    *,
    recursive: bool = True,
    encoding: str | None = None,
    keep_bom: bool = False,
    cancel: Callable[[], bool] | None = None,
    chunk_bytes: int = CHUNK_BYTES,
) -> Generator[Progress, None, Corpus]:
    """Read files and folders, yielding progress; the generator returns the :class:`Corpus`.

    Each file is read in chunks of ``chunk_bytes`` bytes, with a
    ``Progress("reading", done_bytes, total_bytes, message=<file name>)`` after
    each chunk (totals are the files' sizes when listed). Files that cannot be
    read or look binary go to :attr:`Corpus.errors`; they do not stop the run.

    Args:
        paths: one path or an iterable of paths (files or folders).
        recursive: descend into sub-folders.
        encoding: codec for every file (None: detect per file; see
            :func:`read_text_file`).
        keep_bom: keep byte order marks as U+FEFF.
        cancel: called between chunks; when it returns True the run stops.
        chunk_bytes: read size in bytes (>= 1).

    Yields:
        :class:`~tokexplorer.core.types.Progress` with phase ``"reading"`` (units: bytes).

    Returns:
        :class:`Corpus` (via ``StopIteration.value``; see :func:`load_corpus`).

    Raises:
        Cancelled: ``cancel()`` returned True.
        InputError: ``chunk_bytes`` < 1, or ``encoding`` is not a known codec.
    """
    if chunk_bytes < 1:
        raise InputError(f"chunk_bytes must be at least 1, not {chunk_bytes}")
    if encoding is not None and encoding != RAW:
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise InputError(f"unknown encoding {encoding!r}") from None
    files, errors = collect_files(paths, recursive=recursive)
    sizes: list[int] = []
    for f in files:
        try:
            sizes.append(f.stat().st_size)
        except OSError:
            sizes.append(0)
    total = sum(sizes)
    done = 0
    yield Progress("reading", 0, total, f"{len(files)} files")
    out: list[CorpusFile] = []
    for f, size in zip(files, sizes):
        buf = bytearray()
        try:
            with open(f, "rb") as fh:
                while True:
                    if cancel is not None and cancel():
                        raise Cancelled("reading cancelled")
                    chunk = fh.read(chunk_bytes)
                    if not chunk:
                        break
                    buf += chunk
                    done += len(chunk)
                    yield Progress("reading", done, max(total, done), f.name)
        except OSError as exc:
            errors.append(f"{f.name}: cannot read ({exc.strerror or exc})")
            continue
        try:
            out.append(decode_file_bytes(bytes(buf), path=f, encoding=encoding, keep_bom=keep_bom))
        except CorpusError as exc:
            errors.append(str(exc))
    return Corpus(tuple(out), tuple(errors))


def load_corpus(
    paths: PathLike | Iterable[PathLike],
    *,
    recursive: bool = True,
    encoding: str | None = None,
    keep_bom: bool = False,
) -> Corpus:
    """Read files and folders to the end (see :func:`read_corpus`) and return the :class:`Corpus`.

    Raises:
        InputError: ``encoding`` is not a known codec.
    """
    return run_to_end(read_corpus(paths, recursive=recursive, encoding=encoding, keep_bom=keep_bom))
