"""Which encoding a file's bytes are in: byte order marks, UTF-8 (strict, or
UTF-8 with a few bad bytes), and a guess for everything else.

:func:`guess_encoding` starts from :mod:`charset_normalizer`'s best guess and
corrects the two cases where it is weakest: short East Asian text (a few bytes
of GBK Chinese pass for Korean) and short Latin text (French read as Baltic
cp1257). :mod:`.corpus` applies these rules to a file.

>>> guess_encoding("\u6c49\u5b57 \u6587\u672c".encode("gbk"))
'gbk'
"""

from __future__ import annotations

import codecs
from typing import TYPE_CHECKING

import regex
import unicodedata2

if TYPE_CHECKING:
    from charset_normalizer import CharsetMatch

from tokexplorer.core.errors import CorpusError
from tokexplorer.core.text import codec_name

__all__ = [
    "BOMLESS_CODECS", "READ_ANYWAY", "check_binary", "codec_name", "control_note", "decode_or_replace",
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


def _has_kana(chars: list[str]) -> bool:
    return any(_SCRIPT_RE["Hiragana"].match(c) or _SCRIPT_RE["Katakana"].match(c) for c in chars)


def _cjk_fit(text: str, scripts: tuple[str, ...]) -> float:
    """How well a decoded text looks like the language of a CJK codec, in [-2, 1].

    Over the non-ASCII characters that are not punctuation or symbols: the
    share in the codec's own scripts, minus twice the share in the other CJK
    scripts, in loose Hangul jamo (real Korean text is written in syllable
    blocks) or in control and private-use characters. A wrong East Asian codec
    turns Chinese into a mix of Hangul, jamo and rare Han (``'汉字'`` in GBK
    read as cp949 is ``'볶俚'``).
    """
    wide = [c for c in text if ord(c) >= 0x80 and unicodedata2.category(c)[0] not in "PSZ"]
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
        elif unicodedata2.category(c) in ("Cc", "Co", "Cn", "Cs"):
            bad += 1
    if "Hiragana" in scripts and not _has_kana(wide):
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
        data: the file's bytes (256 KiB of them are read, from the first non-ASCII byte's line).

    Returns:
        a Python codec name; ``"latin-1"`` when nothing better is found.
    """
    sample = _guess_sample(data)
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
        guess = _latin_tie_break(guess, results, sample)
    if not any(b >= 0x80 for b in sample):
        return guess
    return _east_asian_override(guess, sample, sample_is_cut=not data.endswith(sample))


def _guess_sample(data: bytes) -> bytes:
    """The 256 KiB a guess is made on: from the line where the first non-ASCII byte is
    (ASCII before it reads alike in every candidate, so a long English start would
    leave nothing to tell GBK from Latin-1), ended at a line break where one is near
    (a character cut by the end misleads charset-normalizer).

    >>> _guess_sample(b"ab\\ncd\\n" * 100_000 + b"x\\xe9\\n")
    b'x\\xe9\\n'
    """
    try:
        data.decode("ascii")
        start = 0
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
    sample = data[start : start + (1 << 18)]
    if start + len(sample) < len(data):
        end = sample.rfind(b"\n")
        sample = sample[: end + 1] if end >= len(sample) // 2 else sample
    return sample


def _latin_tie_break(guess: str, results: list[CharsetMatch], sample: bytes) -> str:
    """The single-byte guess corrected among charset-normalizer's near ties.

    charset-normalizer often scores several Latin code pages almost alike on
    short text (French read as Baltic cp1257, Polish as cp1252). Among near
    ties take the most common one, Western European cp1252, unless its reading
    holds characters that are letters only in the others.

    Args:
        guess: the codec name of ``results[0]``.
        results: charset-normalizer's matches, best first (``CharsetMatch``).
        sample: the bytes they were computed on.
    """
    best = results[0]
    near = [
        name
        for name, m in ((codecs.lookup(m.encoding).name, m) for m in results)
        if name in _LATIN_SINGLE_BYTE
        and m.chaos <= best.chaos + 0.1
        and m.coherence >= best.coherence - 0.05
    ]
    western = not _NOT_WESTERN.intersection(sample.decode("cp1252", "ignore"))
    if "cp1252" in near and western:
        return "cp1252"
    if guess == "cp1252" and not western:
        # then the most common Central European one, cp1250, if it is near
        others = sorted((c for c in near if c != "cp1252"), key=lambda c: c != "cp1250")
        return others[0] if others else guess
    return guess


def _east_asian_score(codec: str, sample: bytes, *, sample_is_cut: bool) -> float | None:
    """How well ``sample`` read with ``codec`` looks like the codec's language.

    Returns:
        :func:`_cjk_fit` (weighted towards common characters for the Chinese
        codecs), 0.0 for a codec that is not East Asian, None when the codec
        does not decode the sample (apart from a character cut by the end of
        a sample that is not the whole file).
    """
    scripts = _CJK_CODECS.get(codecs.lookup(codec).name)
    try:
        text = sample.decode(codec)
    except UnicodeDecodeError as exc:
        cut_at_end = sample_is_cut and exc.start >= len(sample) - 4
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


def _east_asian_override(guess: str, sample: bytes, *, sample_is_cut: bool) -> str:
    """The East Asian codec that reads ``sample`` clearly better than ``guess``, else ``guess``."""

    def fit(codec: str) -> float | None:
        return _east_asian_score(codec, sample, sample_is_cut=sample_is_cut)

    scores = {c: fit(c) for c in _CJK_CODECS}
    scores = {c: v for c, v in scores.items() if v is not None}
    if not scores:
        return guess
    top = max(scores, key=lambda c: (scores[c], -list(_CJK_CODECS).index(c)))
    own = scores.get(codecs.lookup(guess).name, fit(guess) if guess in _CJK_CODECS else 0.0) or 0.0
    if scores[top] >= 0.6 and scores[top] > own + 0.1:
        return codecs.lookup(top).name
    return guess


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
            f"{name}: looks like a binary file ({ctrl} control bytes in the first "
            f"{len(head)} bytes); not loaded; {READ_ANYWAY}"
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
    return f"holds {n} control character{'s' if n != 1 else ''} ({shown}{more}); kept as they are"
