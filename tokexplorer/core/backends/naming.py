"""Names of loaded tokenizers: a file's name and the family, distinct in one list.

A tokenizer loaded from a file is named by the file and its family
(``"a.bpe (BPE)"``, ``"sp120.model (SentencePiece)"``, ``"o200k_base.tiktoken
(tiktoken)"``); an encoding by the encoding (``"tiktoken cl100k_base"``). The rows
of ``stats`` and ``compare`` and the columns of the window are keyed by these
names, so one command or one window gives each of its tokenizers a distinct
name with :func:`name_distinctly`: files of the same name get the folders that
tell them apart, and what is still the same (one file loaded twice) gets a
number.

>>> from pathlib import PurePosixPath
>>> file_label(PurePosixPath("/m/llama/tokenizer.model"), "sentencepiece")
'tokenizer.model (SentencePiece)'
>>> file_label(PurePosixPath("/m/llama/tokenizer.model"), "sentencepiece", folders=1)
'llama/tokenizer.model (SentencePiece)'
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tokexplorer.core.backends.base import Tokenizer

__all__ = ["FAMILY_LABELS", "file_label", "name_distinctly"]

#: Family (``Tokenizer.family``) -> how names show it.
FAMILY_LABELS: dict[str, str] = {
    "bpe": "BPE",
    "tiktoken": "tiktoken",
    "sentencepiece": "SentencePiece",
    "huggingface": "Hugging Face",
    "wordpiece": "WordPiece",
}


def file_label(path: PurePath, family: str, *, folders: int = 0) -> str:
    """The name of a tokenizer loaded from ``path``: the file name, ``folders``
    parent folders before it, and the family in parentheses.

    Args:
        path: the model file (absolute, so that its folders are known).
        family: ``"bpe"``, ``"tiktoken"``, ``"sentencepiece"`` (another family is
            shown as given).
        folders: how many parent folders to show (0: the file name only; more
            than the path has: the whole path).

    Returns:
        e.g. ``"a.bpe (BPE)"`` or, with ``folders=1``, ``"models/a.bpe (BPE)"``.
    """
    return f"{_shown_path(path, folders)} ({FAMILY_LABELS.get(family, family)})"


def _shown_path(path: PurePath, folders: int) -> str:
    """``path``'s name with ``folders`` parent folders before it (all of them when it has fewer)."""
    parts = path.parts[-(folders + 1) :] if folders < len(path.parts) else path.parts
    return PurePath(*parts).as_posix() if parts else str(path)


def _shows_file(t: Tokenizer) -> bool:
    """True when ``t``'s own name starts with its file's name (``"tokenizer.json (BPE)"``),
    so that folders before it tell it from a file of the same name."""
    return t.source_file is not None and t.default_name.startswith(f"{t.source_file.name} (")


def _spread(tokenizers: Sequence[Tokenizer], idx: list[int], names: list[str]) -> None:
    """Give each of the tokenizers ``idx`` (their files named the same, whatever the
    family) the fewest folders that tell its file from the group's other files (nothing
    when they share one file)."""
    files = {i: tokenizers[i].source_file for i in idx if _shows_file(tokenizers[i])}
    paths = set(files.values())
    if len(paths) < 2:
        return
    for i, p in files.items():
        others = [q for q in paths if q != p]
        folders = 1
        while folders < len(p.parts) and any(q.parts[-(folders + 1) :] == p.parts[-(folders + 1) :] for q in others):
            folders += 1
        names[i] = _shown_path(p, folders) + names[i][len(p.name) :]


def name_distinctly(tokenizers: Sequence[Tokenizer]) -> list[str]:
    """Name the tokenizers of one command or one window so that no two share a name.

    Each tokenizer first takes its own name back (:attr:`Tokenizer.default_name`,
    undoing an earlier call). Tokenizers loaded from different files of the same
    name then show as many parent folders as tell each file from the others
    (``"a/tokenizer.model (SentencePiece)"``, ``"b/tokenizer.model
    (SentencePiece)"``); a name still shared (one file loaded twice, two models
    trained here) gets ``" #2"``, ``" #3"``... after its first use. Files of one name
    show their folders whatever their families (``"export/tokenizer.json (BPE)"``,
    ``"bert/tokenizer.json (Hugging Face WordPiece)"``), so that each says where it is. Tokenizers
    named the same before keep their order.

    Args:
        tokenizers: the tokenizers, in the order rows or columns show them; they
            are renamed in place (:meth:`Tokenizer.set_name`).

    Returns:
        the names given, in order (list of str).

    >>> from pathlib import PurePosixPath
    >>> from tokexplorer.core.backends.bpe_backend import BPETokenizer
    >>> from tokexplorer.core.bpe import BPE
    >>> a = BPETokenizer(BPE([]), source_file=PurePosixPath("/models/a/tokenizer.bpe"))
    >>> b = BPETokenizer(BPE([]), source_file=PurePosixPath("/models/b/tokenizer.bpe"))
    >>> a.name
    'tokenizer.bpe (BPE)'
    >>> name_distinctly([a, b, BPETokenizer(BPE([])), BPETokenizer(BPE([]))])
    ['a/tokenizer.bpe (BPE)', 'b/tokenizer.bpe (BPE)', 'custom BPE', 'custom BPE #2']
    >>> b.name, name_distinctly([b])
    ('b/tokenizer.bpe (BPE)', ['tokenizer.bpe (BPE)'])
    """
    for t in tokenizers:
        t.set_name(None)
    names = [t.name for t in tokenizers]
    groups: dict[str, list[int]] = {}  # by the file's name, so that every file of one name says its folder
    for i, t in enumerate(tokenizers):
        groups.setdefault(t.source_file.name if _shows_file(t) else f"\0{names[i]}", []).append(i)
    for idx in groups.values():
        if len(idx) > 1:
            _spread(tokenizers, idx, names)
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        seen[name] = seen.get(name, 0) + 1
        if seen[name] > 1:
            names[i] = f"{name} #{seen[name]}"
    for t, name in zip(tokenizers, names):
        if name != t.name:
            t.set_name(name)
    return names
