"""The pipeline stages of a Hugging Face tokenizer on one text, for display.

The ``tokenizers`` library runs four stages after splitting out the added
tokens: the normalizer rewrites the text, the pre-tokenizer cuts it into
pre-tokens (words, byte-level chunks, ``▁``-prefixed pieces), the model cuts
each pre-token into tokens, and the post-processor adds its special tokens.
:func:`pipeline_stages` shows each stage, every offset in the user's text.

>>> from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
>>> lib = Tokenizer(models.WordPiece({"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "hi": 3, "##s": 4}, unk_token="[UNK]"))
>>> lib.normalizer = normalizers.Lowercase()
>>> lib.pre_tokenizer = pre_tokenizers.Whitespace()
>>> lib.post_processor = processors.BertProcessing(("[SEP]", 2), ("[CLS]", 1))
>>> from tokexplorer.core.backends.huggingface.tokenizer import HuggingFaceTokenizer
>>> st = pipeline_stages(HuggingFaceTokenizer(lib), "His hi")
>>> st.normalized, [(p.text, p.char_start, p.char_end) for p in st.pre_tokens]
('his hi', [('his', 0, 3), ('hi', 4, 6)])
>>> [t.piece for t in st.model_tokens], [(i, t.piece) for i, t in st.post_processor_tokens]
(['hi', '##s', 'hi'], [(0, '[CLS]'), (4, '[SEP]')])
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tokexplorer.core.backends.base import check_special_policy
from tokexplorer.core.backends.huggingface.config import METASPACE, HFConfig
from tokexplorer.core.backends.huggingface.spans import char_to_byte_offsets, guarded
from tokexplorer.core.backends.huggingface.tokenizer import HuggingFaceTokenizer
from tokexplorer.core.text import GPT2_UNICODE_TO_BYTE, clean_text, piece_display
from tokexplorer.core.types import SpecialPolicy, Token

__all__ = ["STAGE_SEPARATOR", "PipelineStages", "PreToken", "pipeline_stages", "stage_piece", "stage_token"]

#: What stands between two pieces of a stage as shown; :func:`stage_piece` never
#: leaves it inside a piece (spaces are ``␣``, a ``│`` of the text ``<U+2502>``).
STAGE_SEPARATOR = " \u2502 "


@dataclass(frozen=True, slots=True)
class PreToken:
    """One pre-token: a piece of text the model tokenizes on its own.

    Attributes:
        text: the pre-token as the pre-tokenizer leaves it (normalized; ``"Ġhi"``
            in GPT-2's visible-byte alphabet, ``"▁hi"`` for Metaspace).
        bytes: what it stands for: ``text`` decoded from GPT-2's visible-byte
            alphabet after a ``ByteLevel`` step (``"ĠcafÃ©"`` is ``b" caf\xc3\xa9"``),
            with ``▁`` as a space for Metaspace, else ``text`` in UTF-8; show this.
        char_start, char_end: its half-open code point span in the user's text.
        byte_start, byte_end: the same span in UTF-8 bytes.
        added: True for an added token the library split out before normalizing
            (``<|endoftext|>``, ``[MASK]``); it reaches the model untouched.
    """

    text: str
    bytes: bytes
    char_start: int
    char_end: int
    byte_start: int
    byte_end: int
    added: bool = False

    def to_json(self) -> dict:
        """``{"text", "bytes" (hex), "char_start", "char_end", "byte_start", "byte_end"}`` (+ ``"added"``)."""
        out: dict = {
            "text": self.text,
            "bytes": self.bytes.hex(),
            "char_start": self.char_start,
            "char_end": self.char_end,
            "byte_start": self.byte_start,
            "byte_end": self.byte_end,
        }
        if self.added:
            out["added"] = True
        return out


@dataclass(frozen=True, slots=True)
class PipelineStages:
    """What each stage of a Hugging Face tokenizer made of one text.

    Attributes:
        text: the text (after :func:`~tokexplorer.core.text.clean_text`); every
            offset refers to it.
        normalizer: the normalizer's component types (``("BertNormalizer",)``),
            empty when there is none.
        normalized: the text after the normalizer (added tokens kept as they
            are), the same str as ``text`` when nothing changed.
        pre_tokenizer: the pre-tokenizer's component types.
        pre_tokens: the pre-tokens, in order.
        model: the model type (``"BPE"``, ``"WordPiece"``, ``"Unigram"``, ``"WordLevel"``).
        model_tokens: the model's tokens, without the post-processor's.
        post_processor: the post-processor's component types.
        post_processor_tokens: ``(index in the full sequence, token)`` of every
            token the post-processor adds (empty spans where they stand).
        add_special_tokens: whether the tokenizer adds them now
            (:attr:`HuggingFaceTokenizer.add_special_tokens`).
    """

    text: str
    normalizer: tuple[str, ...]
    normalized: str
    pre_tokenizer: tuple[str, ...]
    pre_tokens: tuple[PreToken, ...]
    model: str
    model_tokens: tuple[Token, ...]
    post_processor: tuple[str, ...]
    post_processor_tokens: tuple[tuple[int, Token], ...]
    add_special_tokens: bool

    def to_json(self) -> dict:
        """The stages as JSON (``inspect --json`` shows it for a Hugging Face tokenizer)."""
        return {
            "normalizer": list(self.normalizer),
            "normalized": self.normalized,
            "pre_tokenizer": list(self.pre_tokenizer),
            "pre_tokens": [p.to_json() for p in self.pre_tokens],
            "model": self.model,
            "model_tokens": [t.to_json() for t in self.model_tokens],
            "post_processor": list(self.post_processor),
            "post_processor_tokens": [{"index": i, **t.to_json()} for i, t in self.post_processor_tokens],
            "add_special_tokens": self.add_special_tokens,
        }


def stage_piece(data: bytes, *, control_pictures: bool = True) -> str:
    """A pre-token or model token as a stage shows it: its bytes (never the
    vocabulary's ``ĠcafÃ©``) by the display rule of every view with spaces as ``␣``
    (:func:`~tokexplorer.core.text.piece_display`: look-alikes as ``<U+XXXX>``), so a ``│``
    of the text is ``<U+2502>`` and :data:`STAGE_SEPARATOR` tells the pieces apart.

    >>> stage_piece(" café".encode()), stage_piece(b" \\xe4\\xbd"), stage_piece("a│b".encode())
    ('␣café', '␣\\\\xE4\\\\xBD', 'a<U+2502>b')
    """
    return piece_display(data, visible_spaces=True, control_pictures=control_pictures)


def stage_token(token: Token, *, control_pictures: bool = True) -> str:
    """A model token as a stage shows it: :func:`stage_piece` of its bytes; a
    special token without bytes (the post-processor's ``[CLS]``) or an unknown one
    (``[UNK]``, whose bytes are the text it swallowed) by its own spelling."""
    if token.piece is not None and (token.unknown or (token.special and not token.bytes)):
        return token.piece
    return stage_piece(token.bytes, control_pictures=control_pictures)


def _pre_token_bytes(cfg: HFConfig, text: str) -> bytes:
    """What a pre-token stands for (see :attr:`PreToken.bytes`)."""
    if "ByteLevel" in cfg.pre_tokenizer or "ByteLevel" in cfg.normalizer:
        if all(ch in GPT2_UNICODE_TO_BYTE for ch in text):
            return bytes(GPT2_UNICODE_TO_BYTE[ch] for ch in text)
    if cfg.spelling.metaspace:
        text = text.replace(METASPACE, " ")
    return text.encode("utf-8", "surrogatepass")


def _segment_stages(lib: Any, segment: str) -> tuple[str, list[tuple[str, int, int]]]:
    """The normalized text of one stretch without added tokens and its pre-tokens
    ``(text, char_start, char_end)`` (offsets in the stretch)."""
    from tokenizers import PreTokenizedString

    norm, pre = lib.normalizer, lib.pre_tokenizer
    normalized = norm.normalize_str(segment) if norm is not None else segment
    pts = PreTokenizedString(segment)
    if norm is not None:
        pts.normalize(norm.normalize)
    if pre is not None:
        pre.pre_tokenize(pts)
    splits = pts.get_splits(offset_referential="original", offset_type="char")
    return normalized, [(s, int(a), int(b)) for s, (a, b), _ in splits if s]


def _added_spans(tok: HuggingFaceTokenizer, text: str, special: SpecialPolicy) -> list[tuple[int, int, str]]:
    """Char spans and text of the added tokens the library split out of ``text``."""
    enc = tok.encoding(text, special=special)
    added = tok.added_tokens
    out: list[tuple[int, int, str]] = []
    for tid, (a, b), seq in zip(enc.ids, enc.offsets, enc.sequence_ids):
        if seq is None or tid not in added or b <= a or (out and a < out[-1][1]):
            continue
        # the text spells the added token (not, say, "[" the model made [UNK] of)
        if added[tid] in (text[a:b], tok.normalize(text[a:b])):
            out.append((a, b, added[tid]))
    return out


def pipeline_stages(tokenizer: HuggingFaceTokenizer, text: str, *, special: SpecialPolicy = "plain") -> PipelineStages:
    """Run a Hugging Face tokenizer stage by stage on ``text``.

    Args:
        tokenizer: the tokenizer.
        text: any str (lone surrogates are cleaned first, as in tokenizing).
        special: the special-token policy (decides which added tokens are split out).

    Returns:
        :class:`PipelineStages`; ``model_tokens`` and ``post_processor_tokens``
        are those of :meth:`HuggingFaceTokenizer.tokenize`.

    Raises:
        InputError: unknown policy.
        SpecialTokenError: ``special="raise"`` and the text spells a special token.
        TokexplorerError: the library failed.
    """
    check_special_policy(special)
    t = clean_text(text).text
    lib = tokenizer.library_for(special)
    c2b = char_to_byte_offsets(t)
    cfg = tokenizer.config
    normalized: list[str] = []
    pre_tokens: list[PreToken] = []
    pos = 0
    for a, b, content in [*_added_spans(tokenizer, t, special), (len(t), len(t), "")]:
        if a > pos:
            norm, splits = guarded("running the pipeline", lambda s=t[pos:a]: _segment_stages(lib, s))
            normalized.append(norm)
            pre_tokens.extend(
                PreToken(s, _pre_token_bytes(cfg, s), pos + x, pos + y, c2b[pos + x], c2b[pos + y])
                for s, x, y in splits
            )
        if b > a:
            normalized.append(content)
            pre_tokens.append(PreToken(content, content.encode("utf-8"), a, b, c2b[a], c2b[b], added=True))
        pos = max(pos, b)
    model_tokens = tokenizer.tokenize_with(t, special=special, add_special_tokens=False).tokens
    full = tokenizer.tokenize_with(t, special=special, add_special_tokens=True).tokens
    added = tuple((i, tk) for i, tk in enumerate(full) if tk.special and not tk.bytes and tk.byte_start == tk.byte_end)
    return PipelineStages(
        text=t,
        normalizer=cfg.normalizer,
        normalized="".join(normalized),
        pre_tokenizer=cfg.pre_tokenizer,
        pre_tokens=tuple(pre_tokens),
        model=cfg.model_type,
        model_tokens=model_tokens,
        post_processor=cfg.post_processor,
        post_processor_tokens=added,
        add_special_tokens=tokenizer.add_special_tokens,
    )
