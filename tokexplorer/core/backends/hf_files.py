"""Vocabulary files that are not a ``tokenizer.json``, built into a Hugging Face
``tokenizers.Tokenizer`` the way the models that ship them run them.

* A BERT ``vocab.txt`` (one WordPiece token per line, the id is the line
  number): a ``WordPiece`` model (``##`` continuation, ``[UNK]``) with the BERT
  normalizer, pre-tokenizer and ``[CLS] … [SEP]`` post-processor, as
  ``tokenizers``' ``BertWordPieceTokenizer`` builds it. Whether text is
  lowercased (and accents stripped) is not in ``vocab.txt``: it is read from
  ``do_lower_case`` (and ``strip_accents``) of a ``tokenizer_config.json``
  beside it (our export writes one), else inferred (a vocabulary without
  upper-case tokens is an uncased one); as in transformers' ``BertTokenizer``,
  an unset ``strip_accents`` strips accents when lowercasing. A note says what
  was decided and why. ``unk_token`` and ``additional_special_tokens`` of the
  config are honoured too.
* A GPT-2 ``vocab.json`` + ``merges.txt``: a byte-level ``BPE`` model with
  GPT-2's ``ByteLevel`` pre-tokenizer (no prefix space), decoder and
  post-processor, as GPT-2 runs it. Tokens of ``vocab.json`` that no merge
  builds and that are not single bytes (GPT-2's ``<|endoftext|>``) are
  registered as special tokens, and a note names them.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "vocab.txt").write_text("[PAD]\\n[UNK]\\n[CLS]\\n[SEP]\\nhello\\n##s\\n")
>>> tok = load_wordpiece_vocab(d / "vocab.txt")
>>> tok.encode("Hellos"), tok.build_notes[0].split(":")[0]
([2, 4, 5, 3], 'lowercased, accents stripped')
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tokexplorer.core.backends.huggingface import HuggingFaceTokenizer
from tokexplorer.core.errors import ModelFormatError
from tokexplorer.core.io import read_model_file

__all__ = ["load_gpt2_pair", "load_wordpiece_vocab"]

_BERT_SPECIALS = ("[UNK]", "[SEP]", "[CLS]", "[PAD]", "[MASK]")


def _config_beside(path: Path) -> dict:
    """``tokenizer_config.json`` in the same folder, parsed, or ``{}``."""
    cfg = path.with_name("tokenizer_config.json")
    if not cfg.is_file():
        return {}
    try:
        data = json.loads(cfg.read_bytes())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _normalizer_of(cfg: dict, tokens: list[str]) -> tuple[bool, bool, str]:
    """``(lowercase, strip_accents, note)`` for a BERT vocabulary and its ``tokenizer_config.json``
    (``cfg``, maybe ``{}``), decided as transformers' ``BertTokenizer`` does: an unset
    ``strip_accents`` strips accents when lowercasing."""
    strip = cfg.get("strip_accents")
    strip = strip if isinstance(strip, bool) else None
    if isinstance(cfg.get("do_lower_case"), bool):
        lower = cfg["do_lower_case"]
        source = "do_lower_case" + (" and strip_accents" if strip is not None else "") + " of tokenizer_config.json"
    else:
        upper = sum(1 for t in tokens if not (t.startswith("[") and t.endswith("]")) and t != t.lower())
        lower = not upper
        source = f"{upper:,} tokens with upper-case letters" if upper else "assumed, no upper-case token"
        source += " in the vocabulary and no tokenizer_config.json with do_lower_case beside it"
    stripped = lower if strip is None else strip
    what = ("lowercased" if lower else "cased") + (", accents stripped" if stripped else ", accents kept")
    if strip is None and lower:
        source += "; without strip_accents, BERT strips accents when lowercasing"
    return lower, stripped, f"{what}: {source}"


def load_wordpiece_vocab(path: str | os.PathLike[str]) -> HuggingFaceTokenizer:
    """Build a BERT tokenizer from a WordPiece ``vocab.txt`` (see the module docstring).

    Returns:
        a :class:`~tokexplorer.core.backends.huggingface.HuggingFaceTokenizer`
        whose notes say how lowercasing was decided.

    Raises:
        InputError: no such file.
        ModelFormatError: not UTF-8, a token repeats, or ``[UNK]``, ``[CLS]`` or
            ``[SEP]`` is missing (BERT's pipeline needs them).
    """
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

    p = Path(path)
    try:
        tokens = read_model_file(p).decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise ModelFormatError(f"{p.name} is not a WordPiece vocab.txt (not UTF-8 text)") from None
    while tokens and not tokens[-1]:
        tokens.pop()
    vocab = {t: i for i, t in enumerate(tokens)}
    if len(vocab) != len(tokens):
        raise ModelFormatError(f"{p.name}: a token repeats, so line numbers cannot be its ids")
    missing = [s for s in ("[UNK]", "[CLS]", "[SEP]") if s not in vocab]
    if missing:
        raise ModelFormatError(f"{p.name} has no {', '.join(missing)}; a BERT vocab.txt needs [UNK], [CLS], [SEP]")
    cfg = _config_beside(p)
    lower, strip, note = _normalizer_of(cfg, tokens)
    unk = cfg.get("unk_token") if cfg.get("unk_token") in vocab else "[UNK]"
    extra = cfg.get("additional_special_tokens")
    extra = [t for t in extra if isinstance(t, str) and t in vocab] if isinstance(extra, list) else []
    lib = Tokenizer(models.WordPiece(vocab, unk_token=unk))
    lib.add_special_tokens([s for s in dict.fromkeys((unk, *_BERT_SPECIALS, *extra)) if s in vocab])
    lib.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=strip, lowercase=lower
    )
    lib.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    lib.post_processor = processors.BertProcessing(("[SEP]", vocab["[SEP]"]), ("[CLS]", vocab["[CLS]"]))
    lib.decoder = decoders.WordPiece(prefix="##")
    return HuggingFaceTokenizer(lib, source_file=p.absolute(), notes=(note,))


def load_gpt2_pair(vocab_path: str | os.PathLike[str], merges_path: str | os.PathLike[str]) -> HuggingFaceTokenizer:
    """Build GPT-2's byte-level BPE from ``vocab.json`` + ``merges.txt`` (see the module docstring).

    Returns:
        a :class:`~tokexplorer.core.backends.huggingface.HuggingFaceTokenizer`
        named by ``vocab.json``; its notes name the tokens registered as special.

    Raises:
        InputError: no such file.
        ModelFormatError: ``vocab.json`` is not a JSON object of ids, or the
            library refuses the pair (a merge of tokens not in the vocabulary...).
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors

    vp, mp = Path(vocab_path), Path(merges_path)
    try:
        vocab = json.loads(read_model_file(vp))
        merges = read_model_file(mp).decode("utf-8").splitlines()
        if not isinstance(vocab, dict) or not all(isinstance(i, int) for i in vocab.values()):
            raise ValueError
    except ValueError:
        raise ModelFormatError(f"{vp.name} + {mp.name} is not a GPT-2 vocab.json (token -> id) + merges.txt") from None
    built = {"".join(m.split(" ")) for m in merges if m and not m.startswith("#version")}
    specials = sorted((t for t in vocab if len(t) > 1 and t not in built), key=vocab.__getitem__)
    try:
        lib = Tokenizer(models.BPE.from_file(str(vp), str(mp)))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - the library's errors, panics included
        text = str(exc).strip().splitlines()
        raise ModelFormatError(f"{vp.name} + {mp.name}: the tokenizers library refuses them: "
                               f"{text[0] if text else type(exc).__name__}") from None  # fmt: skip
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    lib.decoder = decoders.ByteLevel()
    lib.post_processor = processors.ByteLevel(trim_offsets=False)
    notes = [f"GPT-2 pair {vp.name} + {mp.name}, ByteLevel without prefix space"]
    if specials:
        lib.add_special_tokens(specials)
        shown = ", ".join(specials[:3]) + (f" and {len(specials) - 3} more" if len(specials) > 3 else "")
        notes.append(f"special (built by no merge): {shown}")
    return HuggingFaceTokenizer(lib, source_file=vp.absolute(), notes=tuple(notes))
