"""Which encoding a file's bytes are in: byte order marks, UTF-8 (strict, or
UTF-8 with a few bad bytes), and a guess for everything else.

:func:`guess_encoding` is :mod:`.guessing`'s guess: :mod:`charset_normalizer`'s
choice where the bytes say enough, else the most widely used encoding that reads
them plausibly (a few bytes of GBK Chinese pass for Korean, four bytes of ``café``
for Urdu cp1006 in charset-normalizer's eyes). :mod:`.corpus` applies these rules to a file.

>>> guess_encoding("\u6c49\u5b57 \u6587\u672c".encode("gbk"))
'gbk'
"""

from __future__ import annotations

import codecs

import regex

from tokexplorer.core.errors import CorpusError
from tokexplorer.core.text import codec_name

__all__ = [
    "BOMLESS_CODECS", "OTHER_ENCODING", "READ_ANYWAY", "check_binary", "codec_name", "control_note",
    "decode_or_replace",
    "detect_bom", "encoding_hint", "guess_encoding",
]

#: Number of leading bytes inspected by the control-byte rule for binary files.
BINARY_SNIFF_BYTES = 65536
#: Share (0–1) of control bytes above which a file counts as binary.
BINARY_CONTROL_SHARE = 0.10
#: Fewest bytes over which the control share is taken to mean something.
BINARY_MIN_BYTES = 256
#: The end of every "looks like a binary file" message: the ways to read it anyway, in the
#: terms of no front end (each names its own control: ``--encoding``, File ▸ Open raw bytes…).
READ_ANYWAY = "to read it anyway, give its encoding (latin-1 reads any bytes) or open its raw bytes"
#: The end of the note of a file read with a guessed encoding, in the terms of no front end (the
#: command line names ``--encoding``, the window its Re-read as).
OTHER_ENCODING = "choose another encoding if wrong"
#: The codecs a file without a byte order mark is told to be read with (:func:`encoding_hint`):
#: UTF-16 of ASCII text, told by a NUL at every other byte.
BOMLESS_CODECS = ("utf-16-le", "utf-16-be")


def encoding_hint(codec: str) -> str:
    """The end of the message of a file that reads only with ``codec`` given (in the
    terms of no front end, as :data:`READ_ANYWAY`).

    >>> encoding_hint("utf-16-le")
    'to read it, give its encoding (utf-16-le)'
    """
    return f"to read it, give its encoding ({codec})"



_TEXT_CONTROLS = frozenset(b"\t\n\x0b\x0c\r\x1b")
# the other C0 control characters, which control_note names
_CONTROL_CHARS = regex.compile(
    "[" + "".join(regex.escape(chr(c)) for c in range(0x20) if c not in _TEXT_CONTROLS) + "]"
)

_BOMS: tuple[tuple[bytes, str, str], ...] = (
    # (BOM bytes, label, codec that also strips it) — UTF-32 first: its LE BOM
    # starts with the UTF-16 LE one.
    (codecs.BOM_UTF32_LE, "UTF-32-LE", "utf-32"),
    (codecs.BOM_UTF32_BE, "UTF-32-BE", "utf-32"),
    (codecs.BOM_UTF8, "UTF-8", "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "UTF-16-LE", "utf-16"),
    (codecs.BOM_UTF16_BE, "UTF-16-BE", "utf-16"),
)


def detect_bom(data: bytes) -> tuple[str, str, int] | None:
    """The byte order mark at the start of ``data``.

    Returns:
        ``(label, codec, length in bytes)``, the codec one that also strips the
        BOM; None when ``data`` starts with no BOM.

    >>> detect_bom(b"\\xef\\xbb\\xbfhi"), detect_bom(b"hi")
    (('UTF-8', 'utf-8-sig', 3), None)
    """
    for bom, label, codec in _BOMS:
        if data.startswith(bom):
            if label.startswith("UTF-32") and len(data) % 4:
                continue  # FF FE 00 00 in an odd-sized file: UTF-16 BOM + NUL
            return label, codec, len(bom)
    return None


def decode_or_replace(data: bytes, codec: str, name: str) -> tuple[str, bool, str]:
    """Decode ``data`` with ``codec`` strictly, else with U+FFFD for what does not decode.

    Args:
        data: the bytes.
        codec: a Python codec name.
        name: the file name, for the note.

    Returns:
        ``(text, lossy, note)``: ``lossy`` is True and ``note`` one line when
        U+FFFD was inserted, else ``note`` is ``""``.

    >>> decode_or_replace(b"a\\xff", "utf-8", "x.txt")
    ('a\ufffd', True, 'x.txt: not valid UTF-8 at byte 1 (invalid start byte); undecodable bytes became U+FFFD')
    """
    try:
        return data.decode(codec), False, ""
    except UnicodeDecodeError as exc:
        text = data.decode(codec, "replace")
        return (
            text,
            True,
            f"{name}: not valid {codec_name(codec)} at byte {exc.start} ({exc.reason}); "
            f"undecodable bytes became U+FFFD",
        )


def guess_encoding(data: bytes) -> str:
    r"""Guess the encoding of bytes that are not UTF-8: the codec of
    :func:`~tokexplorer.core.io.guessing.encoding_guess` (which also says how sure it is).

    charset-normalizer's choice where the bytes give evidence enough and its reading
    is plausible; for a short sample, the most widely used encoding among the
    plausible readings. UTF-16/32 and EBCDIC readings are never guessed.

    Args:
        data: the file's bytes (256 KiB of them are read, from the first non-ASCII byte's line).

    Returns:
        a Python codec name; ``"latin-1"`` when nothing better is found.

    >>> guess_encoding(b"caf\xe9"), guess_encoding("Привет".encode("cp1251"))
    ('cp1252', 'cp1251')
    """
    from tokexplorer.core.io.guessing import encoding_guess

    return encoding_guess(data).codec


def check_binary(name: str, data: bytes) -> None:
    """Refuse bytes that look like a binary file rather than text.

    Binary-ness is decided by what decodes first: bytes with a NUL at every
    other byte are UTF-16 without a BOM; bytes that are not UTF-8 (a character
    cut at the very end is fine, ``data`` may be a file's head) and hold a NUL
    are binary; otherwise only a share of control bytes above
    :data:`BINARY_CONTROL_SHARE` over at least :data:`BINARY_MIN_BYTES` bytes
    is. So a short UTF-8 file holding one control character is text.

    Args:
        name: file name for the message.
        data: the file's bytes (or its first 64 KiB).

    Raises:
        CorpusError: the bytes look binary; the one-line message ends with how
            to read them anyway (:data:`READ_ANYWAY`).

    >>> check_binary("a.txt", b"ab\\x00cd")  # valid UTF-8, 5 bytes: text
    >>> try:
    ...     check_binary("x.bin", b"\\x00\\xff")
    ... except CorpusError as exc:
    ...     print(str(exc).split("; ")[0])
    x.bin: looks like a binary file (not UTF-8, NUL byte at offset 0)
    """
    head = data[:BINARY_SNIFF_BYTES]
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        utf8 = True
    except UnicodeDecodeError:
        utf8 = False
    nul = head.find(b"\x00")
    for parity, codec in zip((1, 0), BOMLESS_CODECS):
        # ASCII text in UTF-16 without a BOM: a NUL at every other byte
        if len(head) >= 4 and len(head) % 2 == 0 and head[parity::2].count(0) == len(head) // 2:
            raise CorpusError(
                f"{name}: looks like {codec.upper()} text without a byte order mark (NUL at every other "
                f"byte); not loaded; {encoding_hint(codec)}"
            )
    if nul >= 0 and not utf8:
        raise CorpusError(
            f"{name}: looks like a binary file (not UTF-8, NUL byte at offset {nul}); not loaded; {READ_ANYWAY}"
        )
    if len(head) < BINARY_MIN_BYTES:
        return
    ctrl = sum(1 for b in head if b < 0x20 and b not in _TEXT_CONTROLS)
    if ctrl / len(head) > BINARY_CONTROL_SHARE:
        raise CorpusError(
            f"{name}: looks like a binary file ({ctrl:,} control bytes in the first "
            f"{len(head):,} bytes); not loaded; {READ_ANYWAY}"
        )


def control_note(text: str) -> str:
    """A note naming the control characters (other than tab, LF, VT, FF, CR, ESC)
    a text holds, or ``""``.

    >>> control_note("ab\\x00cd\\x01")
    'holds 2 control characters (U+0000 at character 2, U+0001 at character 5); kept as they are'
    """
    found = [(m.start(), m.group()) for m in _CONTROL_CHARS.finditer(text)]
    if not found:
        return ""
    shown = ", ".join(f"U+{ord(c):04X} at character {i}" for i, c in found[:3])
    more = f" and {len(found) - 3} more" if len(found) > 3 else ""
    n = len(found)
    return f"holds {n:,} control character{'s' if n != 1 else ''} ({shown}{more}); kept as they are"
