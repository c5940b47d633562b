"""A byte-level BPE written in other libraries' formats (``tokexplorer export``).

* ``tiktoken``: a ``.tiktoken`` rank file (``base64(token) rank`` per line, rank
  = our id) and a JSON sidecar ``PATH.json`` with what the ranks alone lack:
  ``{"name", "pat_str", "special_tokens"}`` — the arguments of
  ``tiktoken.Encoding`` besides ``mergeable_ranks``.
* ``gpt2``: ``vocab.json`` (token spelled in GPT-2's visible-byte characters ->
  id, special tokens included) and ``merges.txt`` (``#version: 0.2``, then one
  ``left right`` pair per line in rank order), as GPT-2 and Hugging Face's
  ``tokenizers`` read them.

>>> import json, pathlib, tempfile
>>> from tokexplorer.core.bpe import train_bpe
>>> bpe, _ = train_bpe("abab", vocab_size=258, pattern="none")
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> [p.name for p in write_tiktoken_export(bpe, d / "m.tiktoken")]
['m.tiktoken', 'm.tiktoken.json']
>>> json.loads((d / "m.tiktoken.json").read_text())
{'name': 'custom BPE', 'pat_str': '[\\\\s\\\\S]+', 'special_tokens': {}}
>>> [p.name for p in write_gpt2_export(bpe, d)]
['vocab.json', 'merges.txt']
>>> (d / "merges.txt").read_text()
'#version: 0.2\\na b\\nab ab\\n'
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import InputError
from tokexplorer.core.io.atomic import atomic_write_bytes
from tokexplorer.core.io.tiktoken_files import write_tiktoken_file
from tokexplorer.core.text import to_gpt2_visible

__all__ = ["NO_SPLIT_PATTERN", "sidecar_path", "write_gpt2_export", "write_tiktoken_export"]

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


def write_tiktoken_export(bpe: BPE, path: str | os.PathLike) -> list[Path]:
    """Write ``bpe`` as a ``.tiktoken`` rank file ``path`` and its sidecar ``path.json``.

    The ranks are our ids, so ``tiktoken.Encoding(name=..., pat_str=sidecar["pat_str"],
    mergeable_ranks=tiktoken.load.load_tiktoken_bpe(path),
    special_tokens=sidecar["special_tokens"])`` encodes to our ids. A model
    without pre-tokenization gets :data:`NO_SPLIT_PATTERN`. Both files are
    written atomically.

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
        "name": bpe.name,
        "pat_str": NO_SPLIT_PATTERN if bpe.pat_str is None else bpe.pat_str,
        "special_tokens": dict(sorted(bpe.special_tokens.items(), key=lambda kv: kv[1])),
    }
    write_tiktoken_file(ranks, p)
    atomic_write_bytes(side, (json.dumps(meta, ensure_ascii=False, indent=2) + "\n").encode("utf-8"))
    return [p, side]


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
    ranks = _unique_ranks(bpe)
    vocab = {to_gpt2_visible(b): i for b, i in ranks.items()}
    for s, i in sorted(bpe.special_tokens.items(), key=lambda kv: kv[1]):
        if s in vocab:
            raise InputError(f"special token {s!r} is spelled like token {vocab[s]} in vocab.json")
        vocab[s] = i
    lines = ["#version: 0.2\n"]
    tokens = bpe.vocab
    for m in bpe.merges:
        left = tokens[m.left]
        lines.append(f"{to_gpt2_visible(left)} {to_gpt2_visible(m.merged[len(left):])}\n")
    d = Path(folder)
    vocab_path, merges_path = d / "vocab.json", d / "merges.txt"
    atomic_write_bytes(vocab_path, (json.dumps(vocab, ensure_ascii=False) + "\n").encode("utf-8"))
    atomic_write_bytes(merges_path, "".join(lines).encode("utf-8"))
    return [vocab_path, merges_path]
