"""A byte-level BPE written in other libraries' formats (``tokexplorer export``).

* ``tiktoken``: a ``.tiktoken`` rank file (``base64(token) rank`` per line, rank
  = our id) and a JSON sidecar ``PATH.json`` with what the ranks alone lack:
  ``{"name", "source", "pat_str", "special_tokens"}`` — the arguments of
  ``tiktoken.Encoding`` besides ``mergeable_ranks`` (``name`` is what the user knows the
  model by, as the window or ``encode`` names it), and where the model came from
  (``source``: the file it was loaded from or the SPEC of an encoding; null for a model
  trained in the window and never saved). Our loader reads ``pat_str`` and ``special_tokens``.
* ``gpt2``: ``vocab.json`` (token spelled in GPT-2's visible-byte characters ->
  id, special tokens included) and ``merges.txt`` (``#version: 0.2``, then one
  ``left right`` pair per line in rank order), as GPT-2 and Hugging Face's
  ``tokenizers`` read them.
* ``tokenizer.json``: Hugging Face ``tokenizers``' single file (``Tokenizer.from_file``):
  a BPE model, a ``Split`` pre-tokenizer with our pattern (in the form its regex
  engine, Oniguruma, reads as we do: :func:`oniguruma_pattern`) followed by
  ``ByteLevel(use_regex=False)``, a ByteLevel decoder and the special tokens as
  added tokens.

>>> import json, pathlib, tempfile
>>> from tokexplorer.core.bpe import train_bpe
>>> bpe, _ = train_bpe("abab", vocab_size=258, pattern="none")
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> [p.name for p in write_tiktoken_export(bpe, d / "m.tiktoken")]
['m.tiktoken', 'm.tiktoken.json']
>>> json.loads((d / "m.tiktoken.json").read_text())
{'name': 'custom BPE', 'source': None, 'pat_str': '[\\\\s\\\\S]+', 'special_tokens': {}}
>>> _ = write_tiktoken_export(bpe, d / "m.tiktoken", name="m.bpe (BPE)", source="/models/m.bpe")
>>> json.loads((d / "m.tiktoken.json").read_text())["name"]
'm.bpe (BPE)'
>>> [p.name for p in write_gpt2_export(bpe, d)]
['vocab.json', 'merges.txt']
>>> (d / "merges.txt").read_text()
'#version: 0.2\\na b\\nab ab\\n'
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import InputError
from tokexplorer.core.io.atomic import atomic_write_bytes
from tokexplorer.core.io.tiktoken_files import write_tiktoken_file
from tokexplorer.core.text import to_gpt2_visible

__all__ = [
    "NO_SPLIT_PATTERN",
    "oniguruma_pattern",
    "sidecar_path",
    "write_gpt2_export",
    "write_tiktoken_export",
    "write_tokenizer_json",
]

#: A counted repetition ``{n}``, ``{n,}`` or ``{n,m}``.
_INTERVAL = re.compile(r"\{\d+(?:,\d*)?\}")

#: The split pattern written for a model without pre-tokenization (``pattern
#: "none"``): one piece from one special token (or the text's ends) to the next.
NO_SPLIT_PATTERN = r"[\s\S]+"


def sidecar_path(path: str | os.PathLike) -> Path:
    """The JSON sidecar of a ``.tiktoken`` export: the same name plus ``.json``.

    >>> sidecar_path("out/m.tiktoken").as_posix()
    'out/m.tiktoken.json'
    """
    p = Path(path)
    return p.with_name(p.name + ".json")


def _unique_ranks(bpe: BPE) -> dict[bytes, int]:
    """``bytes -> id`` for every token id; a byte string under two ids cannot be written."""
    ranks: dict[bytes, int] = {}
    for i, b in sorted(bpe.vocab.items()):
        if b in ranks:
            raise InputError(
                f"token {b!r} has two ids ({ranks[b]} and {i}); these formats allow one id per byte string"
            )
        ranks[b] = i
    return ranks


def write_tiktoken_export(
    bpe: BPE, path: str | os.PathLike, *, name: str | None = None, source: str | None = None
) -> list[Path]:
    """Write ``bpe`` as a ``.tiktoken`` rank file ``path`` and its sidecar ``path.json``.

    The ranks are our ids, so ``tiktoken.Encoding(name=sidecar["name"], pat_str=sidecar["pat_str"],
    mergeable_ranks=tiktoken.load.load_tiktoken_bpe(path),
    special_tokens=sidecar["special_tokens"])`` encodes to our ids. A model
    without pre-tokenization gets :data:`NO_SPLIT_PATTERN`. Both files are
    written atomically.

    Args:
        bpe: the model.
        path: the ``.tiktoken`` file.
        name: what the user knows the model by (the window's column name, ``"gui.bpe (BPE)"``;
            the command line's name of the SPEC, ``"tiktoken cl100k_base"``); default ``bpe.name``.
        source: where the model came from (an absolute file path, or the SPEC of an encoding
            by name), or None (trained here, never saved): the sidecar's ``"source"``.

    Returns:
        the two paths written: ``[path, sidecar]``.

    Raises:
        InputError: two ids share one byte string.
        OSError: a file cannot be written (e.g. its folder does not exist).
    """
    ranks = _unique_ranks(bpe)
    p = Path(path)
    side = sidecar_path(p)
    meta = {
        "name": bpe.name if name is None else name,
        "source": source,
        "pat_str": NO_SPLIT_PATTERN if bpe.pat_str is None else bpe.pat_str,
        "special_tokens": dict(sorted(bpe.special_tokens.items(), key=lambda kv: kv[1])),
    }
    write_tiktoken_file(ranks, p)
    atomic_write_bytes(side, (json.dumps(meta, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    return [p, side]


def _gpt2_tables(bpe: BPE) -> tuple[dict[str, int], list[str]]:
    """GPT-2 spellings -> id (special tokens as their text), and the merges as ``"left right"``."""
    ranks = _unique_ranks(bpe)
    vocab = {to_gpt2_visible(b): i for b, i in ranks.items()}
    for s, i in sorted(bpe.special_tokens.items(), key=lambda kv: kv[1]):
        if s in vocab:
            raise InputError(f"special token {s!r} is spelled like token {vocab[s]} in vocab.json")
        vocab[s] = i
    tokens = bpe.vocab
    merges = []
    for m in bpe.merges:
        left = tokens[m.left]
        merges.append(f"{to_gpt2_visible(left)} {to_gpt2_visible(m.merged[len(left) :])}")
    return vocab, merges


def write_gpt2_export(bpe: BPE, folder: str | os.PathLike) -> list[Path]:
    """Write ``bpe`` as GPT-2's ``vocab.json`` and ``merges.txt`` in ``folder``.

    Tokens are spelled in GPT-2's visible-byte characters
    (:func:`~tokexplorer.core.text.to_gpt2_visible`); ``vocab.json`` maps each
    to its id (special tokens as their text), ``merges.txt`` lists the merges'
    two parts in rank order under a ``#version: 0.2`` line. The split pattern is
    not part of this format (readers apply GPT-2's).

    Returns:
        the two paths written: ``[vocab.json, merges.txt]``.

    Raises:
        InputError: two ids share one byte string, or a special token's text
            equals a token's spelling.
        OSError: a file cannot be written (e.g. the folder does not exist).
    """
    vocab, merges = _gpt2_tables(bpe)
    lines = ["#version: 0.2\n", *(m + "\n" for m in merges)]
    d = Path(folder)
    vocab_path, merges_path = d / "vocab.json", d / "merges.txt"
    atomic_write_bytes(vocab_path, (json.dumps(vocab, ensure_ascii=False) + "\n").encode("utf-8"))
    atomic_write_bytes(merges_path, "".join(lines).encode("utf-8"))
    return [vocab_path, merges_path]


def _atoms(pat: str) -> list[tuple[str, bool]]:
    """Cut a pattern into ``(atom, is_plain)``: escapes (``\\p{L}``), classes (``[...]``), characters."""
    out: list[tuple[str, bool]] = []
    i = 0
    while i < len(pat):
        c = pat[i]
        if c == "\\":
            j = i + 2
            if pat[i + 1 : i + 2] in ("p", "P") and pat[j : j + 1] == "{":
                j = pat.index("}", j) + 1
            out.append((pat[i:j], False))
        elif c == "[":
            j = i + 1
            if pat[j : j + 1] == "^":
                j += 1
            if pat[j : j + 1] == "]":
                j += 1
            while pat[j] != "]":
                j += 2 if pat[j] == "\\" else 1
            j += 1
            out.append((pat[i:j], False))
        else:
            j = i + 1
            out.append((c, True))
        i = j
    return out


def oniguruma_pattern(pat_str: str) -> str:
    r"""Rewrite a tiktoken pattern (Rust regex syntax) so Oniguruma, the regex engine of
    Hugging Face ``tokenizers``, splits text the same way.

    Two constructs read differently there: a possessive interval ``X{1,3}+``
    is "``X{1,3}``, one or more times" for Oniguruma (any run of digits would be
    one piece), so it becomes the atomic group ``(?>X{1,3})``; and ``$`` is
    the end of any line there, so it becomes ``\z`` (the end of the text, what
    ``$`` means to tiktoken). Everything else is kept as it is.

    Raises:
        InputError: the pattern ends inside an escape or a character class.

    >>> print(oniguruma_pattern(r"\p{N}{1,3}+| ?[^\s\p{L}]++|\s++$|[$]"))
    (?>\p{N}{1,3})| ?[^\s\p{L}]++|\s++\z|[$]
    """
    try:
        atoms = _atoms(pat_str)
    except (IndexError, ValueError):
        raise InputError(f"cannot read the split pattern {pat_str[:60]!r}: it ends inside a class or escape") from None
    out: list[str] = []
    k = 0
    while k < len(atoms):
        atom, plain = atoms[k]
        if plain and atom == "$":
            out.append("\\z")
            k += 1
            continue
        if plain and atom == "{" and out:
            close = next((m for m in range(k, len(atoms)) if atoms[m] == ("}", True)), None)
            interval = "".join(a for a, _ in atoms[k : (close or k) + 1])
            possessive = close is not None and atoms[close + 1 : close + 2] == [("+", True)]
            if possessive and _INTERVAL.fullmatch(interval):
                if out[-1] in (")", "]"):
                    raise InputError(f"cannot rewrite the possessive interval after a group in {pat_str[:60]!r}")
                out[-1] = f"(?>{out[-1]}{interval})"
                k = close + 2
                continue
        out.append(atom)
        k += 1
    return "".join(out)


def write_tokenizer_json(bpe: BPE, path: str | os.PathLike) -> Path:
    """Write ``bpe`` as a Hugging Face ``tokenizer.json`` (``tokenizers.Tokenizer.from_file``).

    The model is ``BPE`` with the vocabulary and merges spelled as in
    :func:`write_gpt2_export`, ``ignore_merges`` off (words are always merged by
    rank) unless the model has tokens no merge builds (:attr:`BPE.unbuilt_tokens`,
    as in Llama 3's ranks): then it is on, so a piece that is a token is that
    token, as tiktoken emits a whole chunk. The pre-tokenizer is
    ``Split(pattern, "Isolated")`` with :func:`oniguruma_pattern` of our
    pattern, then ``ByteLevel(use_regex=False)``
    (only ``ByteLevel`` for a model without pre-tokenization); the decoder is
    ``ByteLevel``; special tokens are added tokens (matched anywhere, as with
    ``allowed_special="all"``). Written atomically.

    Returns:
        ``path``.

    Raises:
        InputError: two ids share one byte string, a special token is spelled
            like a token, or the pattern cannot be read.
        OSError: the file cannot be written (e.g. its folder does not exist).
    """
    vocab, merges = _gpt2_tables(bpe)
    byte_level = {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False}
    pre: dict = byte_level
    if bpe.pat_str is not None:
        split = {"type": "Split", "pattern": {"Regex": oniguruma_pattern(bpe.pat_str)},
                 "behavior": "Isolated", "invert": False}  # fmt: skip
        pre = {"type": "Sequence", "pretokenizers": [split, byte_level]}
    added = [
        {"id": i, "content": s, "single_word": False, "lstrip": False, "rstrip": False,
         "normalized": False, "special": True}  # fmt: skip
        for s, i in sorted(bpe.special_tokens.items(), key=lambda kv: kv[1])
    ]
    doc = {
        "version": "1.0", "truncation": None, "padding": None, "added_tokens": added,
        "normalizer": None, "pre_tokenizer": pre, "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": False},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
                  "ignore_merges": bool(bpe.unbuilt_tokens), "vocab": vocab, "merges": merges},
    }  # fmt: skip
    p = Path(path)
    atomic_write_bytes(p, (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    return p
