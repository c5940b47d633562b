"""What a ``tokenizer.json`` says about how its tokens spell bytes.

A Hugging Face tokenizer's token strings are not always the text they stand
for: byte-level BPE (GPT-2, Llama 3, Qwen2) spells every byte with GPT-2's
visible-byte alphabet (``"Ġ"`` is a space); WordPiece (BERT) marks a piece that
continues a word with ``"##"``; Metaspace models (T5, XLM-R, Llama 2) spell a
space as ``"▁"``; byte fallback spells a byte as ``"<0xE9>"``. :func:`read_config`
reads these settings from the tokenizer's JSON once, and
:meth:`TokenSpelling.token_bytes` turns a token string into its bytes.

>>> from tokenizers import Tokenizer, models
>>> cfg = read_config(Tokenizer(models.WordPiece({"[UNK]": 0, "a": 1, "##b": 2}, unk_token="[UNK]")))
>>> cfg.model_type, cfg.unk_id, cfg.spelling.token_bytes("##b")
('WordPiece', 0, b'b')
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tokexplorer.core.backends.huggingface.byte_decoding import byte_value
from tokexplorer.core.errors import ModelFormatError
from tokexplorer.core.text import GPT2_UNICODE_TO_BYTE

__all__ = ["HFConfig", "TokenSpelling", "read_config", "component_types", "stage_parts", "whole_text_notes"]

#: SentencePiece's word-boundary mark, as Metaspace writes it.
METASPACE = "\u2581"


def component_types(node: Any) -> list[str]:
    """Every ``"type"`` named in one component of the JSON (a normalizer,
    pre-tokenizer, post-processor or decoder), nested ``Sequence`` parts included,
    in document order.

    >>> component_types({"type": "Sequence", "pretokenizers": [{"type": "Split"}, {"type": "ByteLevel"}]})
    ['Sequence', 'Split', 'ByteLevel']
    """
    out: list[str] = []
    if isinstance(node, dict):
        t = node.get("type")
        if isinstance(t, str):
            out.append(t)
        for value in node.values():
            out.extend(component_types(value))
    elif isinstance(node, list):
        for value in node:
            out.extend(component_types(value))
    return out


@dataclass(frozen=True, slots=True)
class TokenSpelling:
    """How the model's token strings spell bytes.

    Attributes:
        byte_level: tokens are spelled in GPT-2's visible-byte alphabet (a
            ``ByteLevel`` pre-tokenizer or decoder).
        metaspace: ``"▁"`` stands for a space (Metaspace, or a normalizer or
            decoder that replaces spaces with it).
        byte_fallback: ``"<0xNN>"`` pieces stand for one byte.
        prefix: the WordPiece/BPE continuing-subword prefix (``"##"``), or ``""``.
        suffix: the BPE end-of-word suffix (``"</w>"``), or ``""``.
    """

    byte_level: bool = False
    metaspace: bool = False
    byte_fallback: bool = False
    prefix: str = ""
    suffix: str = ""

    def token_bytes(self, piece: str) -> bytes:
        """The bytes a model token string stands for (prefix and suffix marks removed).

        >>> TokenSpelling(byte_level=True).token_bytes("Ġcaf\u00c3\u00a9")
        b' caf\\xc3\\xa9'
        >>> TokenSpelling(metaspace=True, byte_fallback=True).token_bytes("<0xE9>")
        b'\\xe9'
        """
        if self.byte_fallback:
            value = byte_value(piece)
            if value is not None:
                return bytes([value])
        if self.prefix and piece.startswith(self.prefix) and len(piece) > len(self.prefix):
            piece = piece[len(self.prefix) :]
        if self.suffix and piece.endswith(self.suffix) and len(piece) > len(self.suffix):
            piece = piece[: -len(self.suffix)]
        if self.byte_level:
            table = GPT2_UNICODE_TO_BYTE
            if all(ch in table for ch in piece):
                return bytes(table[ch] for ch in piece)
            return piece.encode("utf-8")
        if self.metaspace:
            piece = piece.replace(METASPACE, " ")
        return piece.encode("utf-8")


@dataclass(frozen=True, slots=True)
class HFConfig:
    """The parts of a ``tokenizer.json`` the adapter needs.

    Attributes:
        model_type: ``"BPE"``, ``"WordPiece"``, ``"Unigram"`` or ``"WordLevel"``.
        unk_id: id of the unknown token, or None.
        spelling: how token strings spell bytes.
        normalizer: the normalizer's component types (``["BertNormalizer"]``), empty without one.
        pre_tokenizer: the pre-tokenizer's component types.
        post_processor: the post-processor's component types.
        decoder: the decoder's component types.
    """

    model_type: str
    unk_id: int | None
    spelling: TokenSpelling
    normalizer: tuple[str, ...] = ()
    pre_tokenizer: tuple[str, ...] = ()
    post_processor: tuple[str, ...] = ()
    decoder: tuple[str, ...] = ()


def _unk_id(model: dict[str, Any], vocab_of: Any) -> int | None:
    """The unknown token's id: Unigram names it by id, BPE and WordPiece by text."""
    if isinstance(model.get("unk_id"), int):
        return int(model["unk_id"])
    unk = model.get("unk_token")
    if isinstance(unk, str):
        found = vocab_of(unk)
        return int(found) if found is not None else None
    return None


def read_config(tokenizer: Any) -> HFConfig:
    """Read :class:`HFConfig` from a built ``tokenizers.Tokenizer``.

    Raises:
        ModelFormatError: the tokenizer's JSON has no model section.
    """
    data = json.loads(tokenizer.to_str())
    model = data.get("model")
    if not isinstance(model, dict):
        raise ModelFormatError("the tokenizer has no model section")
    normalizer = tuple(component_types(data.get("normalizer")))
    pre = tuple(component_types(data.get("pre_tokenizer")))
    post = tuple(component_types(data.get("post_processor")))
    decoder = tuple(component_types(data.get("decoder")))
    model_type = str(model.get("type") or ("Unigram" if isinstance(model.get("vocab"), list) else "BPE"))
    replaces_space = METASPACE in json.dumps([data.get("normalizer"), data.get("decoder")], ensure_ascii=False)
    spelling = TokenSpelling(
        byte_level="ByteLevel" in pre or "ByteLevel" in decoder,
        metaspace="Metaspace" in pre or "Metaspace" in decoder or replaces_space,
        byte_fallback=bool(model.get("byte_fallback")),
        prefix=str(model.get("continuing_subword_prefix") or ""),
        suffix=str(model.get("end_of_word_suffix") or ""),
    )
    return HFConfig(
        model_type=model_type,
        unk_id=_unk_id(model, tokenizer.token_to_id),
        spelling=spelling,
        normalizer=normalizer,
        pre_tokenizer=pre,
        post_processor=post,
        decoder=decoder,
    )


def whole_text_notes(tokenizer: Any) -> tuple[str, ...]:
    """Turn off the truncation and padding a ``tokenizer.json`` may carry (they shape
    a model's input batch, not the tokenization) and say so."""
    notes: list[str] = []
    trunc = tokenizer.truncation
    if trunc:
        tokenizer.no_truncation()
        limit = int(trunc["max_length"])
        notes.append(f"the file truncates to {limit:,} tokens; turned off: the whole text is tokenized")
    pad = tokenizer.padding
    if pad:
        tokenizer.no_padding()
        notes.append(f"the file pads with {pad['pad_token']}; turned off")
    return tuple(notes)


def stage_parts(types: Sequence[str]) -> str:
    """One stage's components for a description: ``("Sequence", "Split", "ByteLevel")``
    → ``"Split+ByteLevel"``; ``""`` for no component (an empty ``Sequence`` included).

    >>> stage_parts(("Sequence", "Split", "ByteLevel")), stage_parts(("Sequence",))
    ('Split+ByteLevel', '')
    """
    return "+".join(t for t in types if t != "Sequence")
