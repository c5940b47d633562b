"""The bytes of a decode by a ``tokenizer.json`` whose model has byte fallback.

A byte-fallback piece ``<0xNN>`` stands for exactly the byte 0xNN. The library's
``ByteFallback`` decoder turns each run of such pieces into text, and a run that is
not whole UTF-8 (one piece of a character cut by the ids: ``<0xF0><0x9F>``)
into one U+FFFD per piece, so the library's ``decode`` cannot give those bytes.
:func:`decode_keeping_bytes` runs the library's own decoder (its spaces, its
prefix-space strip, its ``##`` merging) on the token strings with each byte
piece replaced by a placeholder character no decoder changes, a private-use code
point standing for that byte, and puts the raw bytes back in their place after.

A byte piece then decodes as SentencePiece decodes it: its byte, never U+FFFD
or ``<0x..>`` text, and a leading ``<0x20>`` keeps its space (the library's
``Strip`` decoder would remove it, SentencePiece keeps it).

>>> from tokenizers import Tokenizer, decoders, models
>>> vocab = {"<unk>": 0, "\u2581a": 1, **{f"<0x{b:02X}>": 2 + b for b in range(256)}}
>>> lib = Tokenizer(models.BPE(vocab, [], unk_token="<unk>", byte_fallback=True))
>>> lib.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(),
...                                  decoders.Fuse(), decoders.Strip(" ", 1, 0)])
>>> lib.decode([1, 2 + 0xF0, 2 + 0x9F])
'a��'
>>> decode_keeping_bytes(lib, [1, 2 + 0xF0, 2 + 0x9F], {})
b'a\\xf0\\x9f'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import regex

__all__ = ["byte_value", "decode_keeping_bytes"]

_BYTE_PIECE = regex.compile(r"<0x([0-9A-Fa-f]{2})>")
#: First code point of each range of 256 placeholders tried (Supplementary Private Use Areas A and B).
_PLACEHOLDER_BASES = (0xF0000, 0x100000)


def byte_value(piece: str) -> int | None:
    """The byte a byte-fallback piece stands for (``"<0xE9>"`` → 233), None for any other piece.

    >>> byte_value("<0xE9>"), byte_value("<0xe9>"), byte_value("\u2581caf")
    (233, 233, None)
    """
    m = _BYTE_PIECE.fullmatch(piece)
    return int(m.group(1), 16) if m else None


def _free_base(tokens: Sequence[str]) -> int | None:
    """A placeholder range none of ``tokens`` uses, or None when both are used."""
    for base in _PLACEHOLDER_BASES:
        used = regex.compile(f"[{chr(base)}-{chr(base + 255)}]")
        if not any(used.search(t) for t in tokens):
            return base
    return None


def decode_keeping_bytes(lib: Any, ids: Sequence[int], added: Mapping[int, str]) -> bytes | None:
    """The UTF-8 of the library's ``decode(ids)`` with every byte-fallback piece its raw byte.

    Args:
        lib: a ``tokenizers.Tokenizer`` whose model has byte fallback.
        ids: token ids, all in its vocabulary (the post-processor's tokens
            are decoded as the library does with ``skip_special_tokens=False``).
        added: id -> text of the added tokens (never byte pieces, whatever they spell).

    Returns:
        the bytes, or None when a decoder changed a placeholder (none of the
        library's does) or the token strings already use both placeholder ranges.

    Raises:
        Exception: whatever the library raises (the caller guards the call).
    """
    tokens = [added[i] if i in added else lib.id_to_token(i) for i in ids]
    values = [None if i in added else byte_value(t) for i, t in zip(ids, tokens)]
    base = _free_base(tokens)
    if base is None:
        return None
    marked = [t if v is None else chr(base + v) for t, v in zip(tokens, values)]
    decoder = lib.decoder
    text = decoder.decode(marked) if decoder is not None else " ".join(marked)
    placeholders = regex.compile(f"[{chr(base)}-{chr(base + 255)}]+")
    found = [ord(c) - base for c in "".join(placeholders.findall(text))]
    if found != [v for v in values if v is not None]:
        return None
    out: list[bytes] = []
    pos = 0
    for m in placeholders.finditer(text):
        out.append(text[pos : m.start()].encode("utf-8"))
        out.append(bytes(ord(c) - base for c in m.group()))
        pos = m.end()
    out.append(text[pos:].encode("utf-8"))
    return b"".join(out)
