"""WordPiece files: our model file (JSON) and BERT's ``vocab.txt``.

Our WordPiece file (``.wordpiece``, version 1) is one JSON object: the format
name and version, ``name``, ``pattern``, ``lowercase``, ``strip_accents``,
``unk_token``, ``special_tokens``, ``max_input_chars_per_word``, ``vocab`` (the
pieces in id order) and ``merges``, one list per training step::

    [left, right, count, left_count, right_count, bpe_left, bpe_right, bpe_count, added]

BERT's ``vocab.txt`` is one piece per line, the line number (from 0) its id;
it carries neither the normalizer nor the pre-tokenizer, so it holds a
WordPiece trained with the ``bert`` pre-tokenizer only (its pieces never hold
white space; a reader such as ``tokenizers``' ``BertWordPieceTokenizer`` splits
text as BERT does). The normalizer goes into a ``tokenizer_config.json`` written
beside it (:func:`bert_config`): ``do_lower_case`` and ``strip_accents``, which
transformers' ``BertTokenizer`` and our vocab.txt reader honour, so reading the
export back gives the ids of the model (a reader without it would assume BERT's
uncased default and also strip accents).

>>> from tokexplorer.core.wordpiece import WordPiece
>>> wp = loads_wordpiece(dumps_wordpiece(WordPiece(["[UNK]", "a", "##b"], lowercase=True)))
>>> wp.vocab, wp.lowercase, vocab_txt(wp)
(['[UNK]', 'a', '##b'], True, '[UNK]\\na\\n##b\\n')
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.io.atomic import atomic_write_bytes
from tokexplorer.core.io.model_files import read_model_file
from tokexplorer.core.wordpiece import BERT_PATTERN, WordPiece, WordPieceMerge

__all__ = [
    "BERT_EXPORT_HINT", "WORDPIECE_MAGIC", "dumps_wordpiece", "load_wordpiece", "loads_wordpiece", "save_wordpiece",
    "bert_config", "config_replacement_note", "vocab_txt", "write_vocab_txt",
]  # fmt: skip

WORDPIECE_MAGIC = "tokexplorer-wordpiece"
#: How a WordPiece that vocab.txt cannot hold gets one, named as a setting (the command line adds its flag).
BERT_EXPORT_HINT = "train it with the bert pre-tokenizer to export it"
_VERSION = 1


def dumps_wordpiece(wp: WordPiece) -> str:
    """The text of our WordPiece file for ``wp`` (see the module docstring)."""
    merges = [
        [m.left, m.right, m.count, m.left_count, m.right_count, m.bpe_left, m.bpe_right, m.bpe_count, m.added]
        for m in wp.merges
    ]
    doc = {
        "format": WORDPIECE_MAGIC,
        "version": _VERSION,
        "name": wp.name,
        "pattern": wp.pattern,
        "lowercase": wp.lowercase,
        "strip_accents": wp.strip_accents,
        "unk_token": wp.unk_token,
        "special_tokens": list(wp.special_tokens),
        "max_input_chars_per_word": wp.max_input_chars_per_word,
        "vocab": wp.vocab,
        "merges": merges,
    }
    return json.dumps(doc, ensure_ascii=False, indent=0) + "\n"


def loads_wordpiece(text: str) -> WordPiece:
    """A WordPiece from the text of our file.

    Raises:
        ModelFormatError: not our WordPiece format, a newer version, or a field
            missing or of the wrong type.
    """
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelFormatError(f"not a tokexplorer WordPiece file: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(doc, dict) or doc.get("format") != WORDPIECE_MAGIC:
        raise ModelFormatError("not a tokexplorer WordPiece file (no \"format\": \"tokexplorer-wordpiece\")")
    if doc.get("version") != _VERSION:
        raise ModelFormatError(f"WordPiece file version {doc.get('version')!r} is not supported (only {_VERSION})")
    try:
        vocab = [str(p) for p in doc["vocab"]]
        ids = {p: i for i, p in enumerate(vocab)}
        merges = [
            WordPieceMerge(k, str(a), str(b), _join(str(a), str(b)), ids[_join(str(a), str(b))], bool(added),
                           int(n), int(na), int(nb), str(ba), str(bb), int(bn))  # fmt: skip
            for k, (a, b, n, na, nb, ba, bb, bn, added) in enumerate(doc["merges"])
        ]
        return WordPiece(
            vocab,
            pattern=str(doc["pattern"]),
            lowercase=bool(doc["lowercase"]),
            strip_accents=bool(doc["strip_accents"]),
            unk_token=str(doc["unk_token"]),
            special_tokens=[str(s) for s in doc["special_tokens"]],
            max_input_chars_per_word=int(doc["max_input_chars_per_word"]),
            merges=merges,
            name=str(doc["name"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelFormatError(f"damaged WordPiece file: {type(exc).__name__} {exc}") from None
    except InputError as exc:
        raise ModelFormatError(f"damaged WordPiece file: {exc}") from None


def _join(left: str, right: str) -> str:
    return left + right[2:] if right.startswith("##") else left + right


def save_wordpiece(wp: WordPiece, path: str | os.PathLike) -> None:
    """Write our WordPiece file (atomically).

    Raises:
        OSError: the folder is not writable.
    """
    atomic_write_bytes(path, dumps_wordpiece(wp).encode("utf-8"))


def load_wordpiece(path: str | os.PathLike) -> WordPiece:
    """Read our WordPiece file.

    Raises:
        InputError: no such file, or it cannot be read.
        ModelFormatError: see :func:`loads_wordpiece` (also: not UTF-8).
    """
    data = read_model_file(path)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ModelFormatError(f"{path}: not a tokexplorer WordPiece file (not UTF-8)") from None
    return loads_wordpiece(text)


def vocab_txt(wp: WordPiece) -> str:
    """The text of BERT's ``vocab.txt`` for ``wp``: one piece a line, in id order.

    Raises:
        InputError: the model's pre-tokenizer is not ``bert`` (its pieces may hold
            spaces and readers of ``vocab.txt`` split as BERT does), or a piece
            holds a line break or white space.
    """
    if wp.pattern != BERT_PATTERN:
        raise InputError(
            f"vocab.txt carries no pre-tokenizer and its readers split text as BERT does; this WordPiece "
            f"was trained with the {wp.pattern} pre-tokenizer: {BERT_EXPORT_HINT}"
        )
    bad = next((p for p in wp.vocab if not p or p != p.strip() or any(c.isspace() for c in p)), None)
    if bad is not None:
        raise InputError(f"the piece {bad!r} holds white space: vocab.txt cannot hold it")
    return "".join(p + "\n" for p in wp.vocab)


def bert_config(wp: WordPiece) -> dict[str, object]:
    """The ``tokenizer_config.json`` of ``wp`` exported as ``vocab.txt``: the keys
    transformers' ``BertTokenizer`` takes (``do_lower_case``, ``strip_accents``,
    ``tokenize_chinese_chars``, the special tokens), so a reader normalizes as ``wp`` does.

    >>> from tokexplorer.core.wordpiece import WordPiece
    >>> cfg = bert_config(WordPiece(["[UNK]", "[CLS]", "[SEP]", "a"], lowercase=True))
    >>> cfg["do_lower_case"], cfg["strip_accents"], cfg["unk_token"]
    (True, False, '[UNK]')
    """
    bert = {"cls_token": "[CLS]", "sep_token": "[SEP]", "pad_token": "[PAD]", "mask_token": "[MASK]"}
    cfg: dict[str, object] = {
        "tokenizer_class": "BertTokenizer",
        "do_lower_case": wp.lowercase,
        "strip_accents": wp.strip_accents,
        "tokenize_chinese_chars": True,
        "unk_token": wp.unk_token,
    }
    cfg.update({k: t for k, t in bert.items() if t in wp.vocab})
    other = [t for t in wp.special_tokens if t != wp.unk_token and t not in bert.values()]
    if other:
        cfg["additional_special_tokens"] = other
    return cfg


def write_vocab_txt(wp: WordPiece, path: str | os.PathLike) -> tuple[Path, Path]:
    """Write ``wp`` as BERT's ``vocab.txt`` at ``path`` and its :func:`bert_config`
    as ``tokenizer_config.json`` in the same folder (both atomically).

    Returns:
        ``(vocab path, config path)``.

    Raises:
        InputError: see :func:`vocab_txt`.
        OSError: the folder is not writable.
    """
    text = vocab_txt(wp)
    config = Path(path).with_name("tokenizer_config.json")
    atomic_write_bytes(path, text.encode("utf-8"))
    atomic_write_bytes(config, (json.dumps(bert_config(wp), ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    return Path(path), config


def config_replacement_note(wp: WordPiece, path: str | os.PathLike) -> str | None:
    """Before :func:`write_vocab_txt`: a note when the ``tokenizer_config.json`` already
    beside ``path`` says otherwise than ``wp``'s :func:`bert_config` (it belongs to
    another vocab.txt of that folder, which readers would then normalize otherwise),
    naming the settings that change; None when there is none or it says the same.

    >>> import tempfile
    >>> from tokexplorer.core.wordpiece import WordPiece
    >>> d = Path(tempfile.mkdtemp())
    >>> _ = write_vocab_txt(WordPiece(["[UNK]", "a"], lowercase=True), d / "a.txt")
    >>> config_replacement_note(WordPiece(["[UNK]", "b"], lowercase=True), d / "b.txt") is None
    True
    >>> print(config_replacement_note(WordPiece(["[UNK]", "B"]), d / "b.txt"))  # doctest: +NORMALIZE_WHITESPACE
    tokenizer_config.json there holds do_lower_case=True; written over with do_lower_case=False (a vocab.txt read
    with it before is read otherwise now)
    """
    config = Path(path).with_name("tokenizer_config.json")
    if not config.is_file():
        return None
    try:
        old = json.loads(config.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = None
    new = bert_config(wp)
    if not isinstance(old, dict):
        return f"{config.name} there is not a JSON object; written over"
    keys = [k for k in new if old.get(k) != new[k]] + [k for k in old if k not in new]
    if not keys:
        return None
    before = ", ".join(f"{k}={old[k]!r}" if k in old else f"no {k}" for k in keys[:4])
    after = ", ".join(f"{k}={new[k]!r}" if k in new else f"no {k}" for k in keys[:4])
    return (f"{config.name} there holds {before}; written over with {after} (a vocab.txt read "
            "with it before is read otherwise now)")
