"""Model folder or corpus folder: the one rule for a folder that holds a tokenizer.

A folder named where either a tokenizer or corpus text may be meant (the window's
command line, a drop on the window) opens as what :func:`folder_role` says, and a
corpus walk (:func:`~tokexplorer.core.io.walking.walk_files`, the command line's and
the window's) says by the same rule when a folder it reads is a model folder.

The rule:

* a folder whose own files hold no tokenizer (:func:`~tokexplorer.core.io.sniff.sniff_path`
  finds none) is a corpus folder;
* a folder that holds one is a **model folder** (as downloaded) when every other file
  in it, sub-folders included and hidden files left out as a corpus walk leaves them,
  is a tokenizer model file (told by content: :func:`~tokexplorer.core.io.walking.model_kind`)
  or what a model carries beside its tokenizer (:func:`companion`, told by name: its
  configuration JSON, a model card or licence, weights), or holds no text (empty or binary);
* otherwise, when it holds a text file besides those, it is a **corpus folder**: its text
  files are the corpus and its tokenizer model files are left out, named in the walk's note.

A model folder's model card and configuration are not read as a corpus: its note says
so and how to read them (:attr:`FolderRole.note`).

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "vocab.txt").write_text("[PAD]\\n[UNK]\\nthe\\n##s\\n"), (d / "README.md").write_text("# bert\\n")
>>> folder_role(d).model, folder_role(d).unread == (d / "README.md",)
(True, True)
>>> _ = (d / "zh.txt").write_text("你好\\n")
>>> folder_role(d).model, folder_role(d).text == d / "zh.txt"
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tokexplorer.core.errors import CorpusError, InputError
from tokexplorer.core.io.corpus import PathLike

__all__ = [
    "AS_CORPUS",
    "AS_TOKENIZER",
    "COMPANION_NAMES",
    "DOCUMENT_STEMS",
    "WEIGHT_SUFFIXES",
    "FolderRole",
    "PathSort",
    "companion",
    "folder_role",
    "sort_paths",
]

#: How a model folder's other text files are read, in the terms of no front end (the
#: window names File ▸ Open folder…).
AS_CORPUS = "to read its text files, open the folder as a corpus"
#: How the tokenizer of a folder read as a corpus is used, in the terms of no front end
#: (the command line names ``--tokenizer``, the window File ▸ Open tokenizer folder…).
AS_TOKENIZER = "to use its tokenizer, open the folder as a tokenizer"

#: File endings of a model's weights and other binary model files.
WEIGHT_SUFFIXES = frozenset(
    {".safetensors", ".bin", ".pt", ".pth", ".ckpt", ".h5", ".msgpack", ".onnx", ".gguf", ".npz", ".ot", ".tflite"}
)
#: Names of a model folder's configuration files besides ``*config*.json`` and ``*.index.json``.
COMPANION_NAMES = frozenset({"special_tokens_map.json", "added_tokens.json", "params.json", "modules.json"})
#: Names (before the first dot, any case) of a model card, licence and the like.
DOCUMENT_STEMS = frozenset({"readme", "license", "licence", "notice", "copying", "citation", "use_policy"})

#: The most file names a note lists (then "and N more").
NAMES_SHOWN = 10
_HEAD = 1 << 16


def companion(path: PathLike) -> str | None:
    """What a downloaded model folder holds ``path`` for, told by its name: ``"weights"``
    (:data:`WEIGHT_SUFFIXES`), ``"config"`` (``config.json``, ``generation_config.json``...,
    ``*.index.json``, :data:`COMPANION_NAMES`), ``"document"`` (``README.md``, ``LICENSE``:
    :data:`DOCUMENT_STEMS`), or None.

    >>> companion("model.safetensors"), companion("generation_config.json"), companion("README.md")
    ('weights', 'config', 'document')
    >>> companion("zh.txt"), companion("data.json")
    (None, None)
    """
    p = Path(path)
    name = p.name.lower()
    if p.suffix.lower() in WEIGHT_SUFFIXES:
        return "weights"
    if name.endswith(".json") and ("config" in name or name.endswith(".index.json") or name in COMPANION_NAMES):
        return "config"
    return "document" if name.split(".", 1)[0] in DOCUMENT_STEMS else None


def holds_text(path: Path) -> bool:
    """False for a file that holds no text: empty, binary by the corpus's rule
    (:func:`~tokexplorer.core.io.encodings.check_binary` on its head) or unreadable."""
    from tokexplorer.core.io.encodings import check_binary

    try:
        with path.open("rb") as f:
            head = f.read(_HEAD)
        check_binary(path.name, head)
    except (OSError, CorpusError):
        return False
    return bool(head)


def _names(files: Sequence[Path], folder: Path) -> str:
    names = [f.relative_to(folder).as_posix() if f.is_relative_to(folder) else f.name for f in files]
    more = f" and {len(names) - NAMES_SHOWN:,} more" if len(names) > NAMES_SHOWN else ""
    return ", ".join(names[:NAMES_SHOWN]) + more


@dataclass(frozen=True)
class FolderRole:
    """What :func:`folder_role` found a folder to be.

    Attributes:
        folder: the folder, as given.
        model: True for a model folder (open its tokenizer), False for a corpus folder.
        tokenizer: the tokenizer file(s) it holds (``"vocab.txt"``, ``"vocab.json + merges.txt"``),
            ``""`` when none.
        text: the first text file found besides the tokenizer files (what makes it a corpus
            folder), or None.
        unread: of a model folder, the files a corpus read would take (its model card,
            configuration JSON), which opening its tokenizer leaves unread.
    """

    folder: str
    model: bool
    tokenizer: str = ""
    text: Path | None = None
    unread: tuple[Path, ...] = field(default=())

    @property
    def note(self) -> str:
        """What opening the folder by its role leaves out, in one line (``""`` when nothing):
        ``"m/: opened as a model folder (vocab.txt); its 1 other text file, README.md, was not
        read as a corpus: to read its text files, open the folder as a corpus"``, or for a corpus folder
        holding a tokenizer ``"m3/: opened as a corpus, as it holds text files besides its
        tokenizer (vocab.txt): to use its tokenizer, open the folder as a tokenizer"``."""
        shown = self.folder if self.folder.endswith(("/", "\\")) else f"{self.folder}/"
        if self.model and self.unread:
            n = len(self.unread)
            what = "file, " if n == 1 else "files, "
            verb = "was" if n == 1 else "were"
            names = _names(self.unread, Path(self.folder))
            return (
                f"{shown}: opened as a model folder ({self.tokenizer}); its {n:,} other text {what}{names}, "
                f"{verb} not read as a corpus: {AS_CORPUS}"
            )
        if not self.model and self.tokenizer:
            return (
                f"{shown}: opened as a corpus, as it holds text files besides its tokenizer "
                f"({self.tokenizer}): {AS_TOKENIZER}"
            )
        return ""


def no_text_besides(files: Iterable[Path], skip: Iterable[Path] = ()) -> tuple[Path | None, list[Path]]:
    """``(text, unread)`` of a folder's walked ``files`` (its tokenizer model files left out):
    the first one that holds text and is no model folder companion (:func:`companion`), or
    None; and the companions that hold text (a corpus read would take them). ``skip``: files
    that are neither (the tokenizer files found)."""
    skipped = set(skip)
    unread: list[Path] = []
    for f in files:
        if f in skipped:
            continue
        kind = companion(f)
        if kind == "weights" or not holds_text(f):
            continue
        if kind is None:
            return f, unread
        unread.append(f)
    return None, unread


def folder_role(folder: PathLike) -> FolderRole:
    """Whether ``folder`` is a model folder or a corpus folder, by the module's rule."""
    from tokexplorer.core.io.sniff import sniff_path
    from tokexplorer.core.io.walking import walk_files

    try:
        found = sniff_path(folder)
    except InputError:
        return FolderRole(str(folder), model=False)
    tokenizer = f"{found.path.name} + {found.merges.name}" if found.merges else found.path.name
    chosen = [found.path] + ([found.merges] if found.merges else [])
    text, unread = no_text_besides(walk_files([folder]).files, chosen)
    if text is not None:
        return FolderRole(str(folder), model=False, tokenizer=tokenizer, text=text)
    return FolderRole(str(folder), model=True, tokenizer=tokenizer, unread=tuple(unread))


@dataclass(frozen=True)
class PathSort:
    """Paths given where a tokenizer or corpus text may be meant, sorted (:func:`sort_paths`).

    Attributes:
        tokenizers: the paths to open as tokenizers, in the order given.
        corpus: the paths to read as the corpus, in the order given.
        notes: per folder whose role leaves something out, its :attr:`FolderRole.note`.
    """

    tokenizers: tuple[str, ...] = ()
    corpus: tuple[str, ...] = ()
    notes: dict[str, str] = field(default_factory=dict)


def sort_paths(paths: Iterable[PathLike]) -> PathSort:
    """Sort ``paths`` into tokenizers and corpus text: a file that holds a tokenizer (told
    by content: :func:`~tokexplorer.core.io.sniff.sniff_path`) is a tokenizer, a folder is
    what :func:`folder_role` says, anything else (a text, binary or missing file) is read
    as the corpus (which says what it is).

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "vocab.txt").write_text("[PAD]\\n[UNK]\\nthe\\n##s\\n"), (d / "zh.txt").write_text("你好\\n")
    >>> s = sort_paths([d, d / "vocab.txt"])
    >>> s.tokenizers == (str(d / "vocab.txt"),), s.corpus == (str(d),)
    (True, True)
    """
    from tokexplorer.core.io.sniff import sniff_path

    tokenizers: list[str] = []
    corpus: list[str] = []
    notes: dict[str, str] = {}
    for raw in paths:
        p = str(raw)
        if Path(p).is_dir():
            role = folder_role(p)
            (tokenizers if role.model else corpus).append(p)
            if role.note:
                notes[p] = role.note
            continue
        try:
            sniff_path(p)
        except InputError:
            corpus.append(p)
        else:
            tokenizers.append(p)
    return PathSort(tuple(tokenizers), tuple(corpus), notes)
