"""Walking files and folders for a corpus: a stable order, hidden files left out, and
tokenizer model files told by content and left out of a folder's files, with a note.

A folder is walked in name order (names compared as str); hidden files and folders
(names starting with ``.``) are left out. A file found in a folder that holds a
tokenizer model (our ``.bpe``, a ``tokenizer.json``, a ``vocab.json`` + ``merges.txt``
pair, a ``.tiktoken`` rank file and its sidecar, a WordPiece ``vocab.txt``, a
SentencePiece ``.model`` or ``.vocab``...) is not corpus text: it is left out and
:attr:`Walk.notes` says so, one line per folder. Whether a file is a model is told
from its bytes (:func:`model_kind`, by the rules of
:func:`~tokexplorer.core.io.sniff.sniff_bytes` made stricter where a text could pass
for a model), never from its name: a ``notes.txt`` or a ``story.model`` of text is read.
A file named by itself is always taken (it was asked for); when it is a model, a
note says that too.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "a.txt").write_text("some text\\n"), (d / "m.bpe").write_text("tokexplorer-bpe 1\\nmerges 0\\n")
>>> w = walk_files([d])
>>> [f.name for f in w.files], w.notes == (f"skipped 1 tokenizer model file in {d}/: m.bpe",)
(['a.txt'], True)
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from tokexplorer.core.errors import InputError
from tokexplorer.core.io.corpus import PathLike
from tokexplorer.core.io.sniff import HEAD_BYTES, MAX_JSON_BYTES, sniff_bytes

__all__ = ["MODEL_KINDS", "Walk", "model_kind", "path_list", "walk_files"]

#: What each kind of tokenizer model file is called in the notes.
MODEL_KINDS: dict[str, str] = {
    "bpe": "tokexplorer BPE model",
    "wordpiece": "tokexplorer WordPiece model",
    "sentencepiece": "SentencePiece model",
    "sp-vocab": "SentencePiece .vocab",
    "ranks": "tiktoken rank file",
    "tiktoken-sidecar": "sidecar of a tiktoken export",
    "tokenizer.json": "Hugging Face tokenizer.json",
    "tokenizer-config": "Hugging Face tokenizer_config.json",
    "tekken": "Mistral tekken.json",
    "gpt2-vocab": "GPT-2 vocab.json",
    "gpt2-merges": "GPT-2 merges.txt",
    "bert-vocab": "WordPiece vocab.txt",
}

#: The most file names a note lists (then "and N more").
NAMES_SHOWN = 10

#: The note of a folder read as a corpus that is a model folder (``{folder}``: as given, with a
#: final ``/``); it ends with the advice :data:`~tokexplorer.core.io.folder_roles.AS_TOKENIZER`.
MODEL_FOLDER_NOTE = (
    "{folder} is a model folder (besides its tokenizer files it holds only configuration, a model card "
    "or weights), so its tokenizer is not corpus text: to use its tokenizer, open the folder as a tokenizer"
)

_BPE_MAGIC = re.compile(rb"^tokexplorer-bpe \S+\r?$")
_RANK_LINE = re.compile(rb"^[A-Za-z0-9+/]*={0,2} +(\d+)$")
_SP_VOCAB_LINE = re.compile(r"^[^\t]+\t(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)$")
_BERT_SPECIALS = frozenset({"[UNK]", "[CLS]", "[SEP]", "[PAD]", "[MASK]"})
_SAMPLE_LINES = 200
_CACHE_LIMIT = 1 << 16
_cache: dict[tuple[str, int, int], str | None] = {}


def path_list(paths: PathLike | Iterable[PathLike]) -> tuple[str, ...]:
    """``paths`` as given, one str each: one path (str or path-like) or an iterable of them.

    >>> path_list("a.txt"), path_list([Path("x"), "y"])
    (('a.txt',), ('x', 'y'))
    """
    return (str(paths),) if isinstance(paths, (str, os.PathLike)) else tuple(str(p) for p in paths)


def _head(path: Path, size: int) -> tuple[bytes, bool]:
    """The bytes to tell ``path``'s format from: its first :data:`HEAD_BYTES`; a JSON
    object whole (up to :data:`MAX_JSON_BYTES`), unless its head shows JSON lines.

    Raises:
        OSError: the file cannot be read.
    """
    with path.open("rb") as f:
        head = f.read(HEAD_BYTES)
        if len(head) < size and head.lstrip()[:1] == b"{" and size <= MAX_JSON_BYTES and not _json_lines(head):
            head += f.read()
    return head, len(head) >= size


def _json_lines(head: bytes) -> bool:
    """True when ``head`` holds a whole JSON value followed by more (JSON lines: no tokenizer file)."""
    text = head.decode("utf-8", "ignore").lstrip()
    try:
        _, end = json.JSONDecoder().raw_decode(text)
    except ValueError:
        return False
    return bool(text[end:].strip())


def _lines(data: bytes, complete: bool) -> list[bytes]:
    """The non-empty lines of ``data`` (the last one left out when ``data`` is cut)."""
    lines = data.splitlines()
    if not complete and len(lines) > 1:
        lines = lines[:-1]
    return [ln for ln in lines if ln.strip()]


def _plain_text(data: bytes, complete: bool) -> str | None:
    """``data`` as UTF-8 (a UTF-8 sequence cut at the end allowed), or None."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if complete or exc.start < len(data) - 4:
            return None
        return data[: exc.start].decode("utf-8")


def _ranks_kind(lines: list[bytes]) -> str | None:
    """``ranks`` for a tiktoken rank file: at least two lines, ranks rising as the file goes."""
    ranks = [int(m.group(1)) for m in map(_RANK_LINE.match, lines[:_SAMPLE_LINES]) if m]
    return "ranks" if len(ranks) >= 2 and all(a < b for a, b in zip(ranks, ranks[1:])) else None


def _bert_kind(body: list[str]) -> str | None:
    """``bert-vocab`` for a WordPiece ``vocab.txt`` (its lines ``body``): one token a line,
    with one of BERT's bracketed special tokens and ``##`` continuation pieces."""
    if any(t in _BERT_SPECIALS for t in body) and any(t.startswith("##") and len(t) > 2 for t in body):
        return "bert-vocab"
    return None


def _sp_vocab_kind(body: list[str]) -> str | None:
    """``sp-vocab`` for a SentencePiece ``.vocab`` (its lines ``body``): ``piece<TAB>score``
    lines, scores <= 0, with ``<unk>`` or a piece starting with ``▁``."""
    rows = body[:_SAMPLE_LINES]
    if len(rows) < 2 or "\t" not in rows[0]:
        return None
    matches = [_SP_VOCAB_LINE.match(r) for r in rows]
    if not all(matches) or any(float(m.group(1)) > 0 for m in matches if m):
        return None
    pieces = [r.split("\t", 1)[0] for r in rows]
    return "sp-vocab" if "<unk>" in pieces or any(p.startswith("▁") for p in pieces) else None


def _sidecar_kind(data: bytes) -> str | None:
    """``tiktoken-sidecar`` (our ``PATH.tiktoken.json``) or ``tokenizer-config``
    (a ``tokenizer_config.json``) for such a JSON object, else None."""
    if b'"pat_str"' not in data[:HEAD_BYTES] and b'"tokenizer_class"' not in data[:HEAD_BYTES]:
        return None
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return None
    if not isinstance(obj, dict):
        return None
    if isinstance(obj.get("pat_str"), str) and isinstance(obj.get("special_tokens"), dict):
        return "tiktoken-sidecar"
    return "tokenizer-config" if isinstance(obj.get("tokenizer_class"), str) else None


def _first_line_fits(data: bytes) -> bool:
    """False when the first line of ``data`` is the first line of no model file that is
    text (a line of prose: three words or more), so most text is told at once."""
    if data.lstrip()[:1] == b"{" or data.startswith((b"tokexplorer-bpe", b"#version")):
        return True
    first = next((ln for ln in data[:4096].splitlines() if ln.strip()), b"")
    return len(first.split()) <= 2  # a rank, merge, vocab.txt or .vocab line


def _kind_of_bytes(path: Path, data: bytes, complete: bool, size: int) -> str | None:
    """The key of :data:`MODEL_KINDS` for the file ``path`` whose bytes (or head) are ``data``."""
    if data[:1] != b"\x0a" and not _first_line_fits(data):
        return None
    if data[:1] != b"\x0a" and _plain_text(data, complete) is None:
        return None  # every model format but SentencePiece's protobuf is UTF-8
    fmt, _reason = sniff_bytes(data, complete=complete, size=size)
    if fmt in ("sentencepiece", "tokenizer.json", "tekken", "wordpiece", "gpt2-vocab"):
        return fmt
    if data.lstrip()[:1] == b"{":  # JSON, whole when it is not too large
        return _sidecar_kind(data) if complete and fmt is None else None
    lines = _lines(data, complete)  # the head of a file that is not JSON
    if fmt == "bpe":
        return "bpe" if _BPE_MAGIC.match(lines[0]) else None
    if fmt == "ranks":
        return _ranks_kind(lines)
    if fmt == "gpt2-merges":
        return "gpt2-merges" if lines[0].startswith(b"#version") or _merges_of_vocab_beside(path, lines) else None
    body = [ln.decode("utf-8", "replace") for ln in lines]
    return _bert_kind(body) if fmt == "bert-vocab" else _sp_vocab_kind(body)


def _merges_of_vocab_beside(merges: Path, lines: list[bytes]) -> bool:
    """True when the ``left right`` ``lines`` of ``merges`` (a file without ``#version``)
    are the merges of a GPT-2 ``vocab.json`` beside it (found by the pairing rule of a
    model the user opens): nine in ten of them join into tokens of that vocabulary."""
    from tokexplorer.core.io.sniff import _pair

    try:
        vocab = json.loads(_pair(merges, "gpt2-merges", "").path.read_bytes())
    except (InputError, OSError, ValueError, RecursionError):
        return False
    pairs = [ln.decode("utf-8", "replace").split(" ") for ln in lines[:_SAMPLE_LINES]]
    joined = sum(len(p) == 2 and p[0] + p[1] in vocab for p in pairs)
    return bool(pairs) and joined * 10 >= len(pairs) * 9


def model_kind(path: PathLike) -> str | None:
    """What tokenizer model file ``path`` holds, told from its content, or None when it
    is none (or cannot be read: reading it as text then says why).

    Returns:
        a key of :data:`MODEL_KINDS` (``"bpe"``, ``"tokenizer.json"``, ``"bert-vocab"``...).

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "vocab.txt").write_text("[PAD]\\n[UNK]\\nthe\\n##s\\n"), (d / "notes.txt").write_text("a b\\nc d\\n")
    >>> model_kind(d / "vocab.txt"), model_kind(d / "notes.txt")
    ('bert-vocab', None)
    """
    p = Path(path)
    try:
        st = p.stat()
        key = (str(p.absolute()), st.st_size, st.st_mtime_ns)
        if key in _cache:
            return _cache[key]
        data, complete = _head(p, st.st_size)
    except OSError:
        return None
    kind = _kind_of_bytes(p, data, complete, st.st_size) if data else None
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[key] = kind
    return kind


@dataclass
class Walk:
    """The files of a walk over files and folders (:func:`walk_files`).

    Attributes:
        files: the files to read, in order.
        errors: one line per path that does not exist or cannot be listed (named as given).
        skipped: per folder given (as given), the model files left out of it, in walk order.
        named_models: the files named by themselves that are model files, with their
            :data:`MODEL_KINDS` key (they are in :attr:`files`).
        model_folders: the folders given (as given) that are model folders by the rule of
            :mod:`~tokexplorer.core.io.folder_roles` and whose other files (a model card,
            configuration) are read: their note says how to use their tokenizer instead.
    """

    files: list[Path] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    skipped: dict[str, list[Path]] = field(default_factory=dict)
    named_models: list[tuple[Path, str]] = field(default_factory=list)
    model_folders: list[str] = field(default_factory=list)

    @property
    def notes(self) -> tuple[str, ...]:
        """One line per folder with model files left out (``"skipped 3 tokenizer model
        files in data/: tokenizer.json, x.bpe, vocab.txt"``, at most :data:`NAMES_SHOWN`
        names, then ``"and N more"``), then one per model file named by itself
        (``"m.bpe: a tokenizer model file (tokexplorer BPE model), read as text because
        it was named"``); after a folder's line, when it is a model folder whose other
        files are read (:attr:`model_folders`), one saying so (:data:`MODEL_FOLDER_NOTE`)."""
        out = []
        for root, found in self.skipped.items():
            names = [f.relative_to(root).as_posix() for f in found]
            shown = ", ".join(names[:NAMES_SHOWN]) + (
                f" and {len(names) - NAMES_SHOWN:,} more" * (len(names) > NAMES_SHOWN)
            )
            what = "file" if len(names) == 1 else "files"
            folder = root if root.endswith(("/", os.sep)) else f"{root}/"
            out.append(f"skipped {len(names):,} tokenizer model {what} in {folder}: {shown}")
            if root in self.model_folders:
                out.append(MODEL_FOLDER_NOTE.format(folder=folder))
        for p, kind in self.named_models:
            out.append(f"{p}: a tokenizer model file ({MODEL_KINDS[kind]}), read as text because it was named")
        return tuple(out)


def _model_folder(folder: Path, files: list[Path]) -> bool:
    """True when ``folder`` (whose tokenizer model files were left out and whose other files
    are ``files``, some of them) is a model folder by the rule of
    :mod:`~tokexplorer.core.io.folder_roles`: a tokenizer, and no text file besides."""
    from tokexplorer.core.io.folder_roles import no_text_besides
    from tokexplorer.core.io.sniff import sniff_path

    if not files or no_text_besides(files)[0] is not None:
        return False
    try:
        sniff_path(folder)
    except InputError:
        return False
    return True


def walk_files(paths: PathLike | Iterable[PathLike], *, recursive: bool = True, models: bool = True) -> Walk:
    """Expand files and folders into the files of a corpus (see the module).

    Args:
        paths: one path or an iterable of paths (files or folders).
        recursive: descend into sub-folders.
        models: tell model files (False: every file is taken, none noted).

    Returns:
        the :class:`Walk`; a path that does not exist or a folder that cannot be
        listed is one line of :attr:`Walk.errors`.
    """
    walk = Walk()

    def visit(folder: Path, root: str) -> None:
        try:
            entries = sorted(folder.iterdir(), key=lambda e: e.name)
        except OSError as exc:
            walk.errors.append(f"{folder}: cannot list folder ({exc.strerror or exc})")
            return
        for e in entries:
            if e.name.startswith("."):
                continue
            if e.is_dir():
                if recursive:
                    visit(e, root)
            elif e.is_file():
                if models and model_kind(e) is not None:
                    walk.skipped.setdefault(root, []).append(e)
                else:
                    walk.files.append(e)

    for raw in path_list(paths):
        p = Path(raw)
        if p.is_dir():
            before = len(walk.files)
            visit(p, raw)
            if models and walk.skipped.get(raw) and _model_folder(p, walk.files[before:]):
                walk.model_folders.append(raw)
        elif p.is_file():
            walk.files.append(p)
            kind = model_kind(p) if models else None
            if kind is not None:
                walk.named_models.append((p, kind))
        else:
            walk.errors.append(f"{p}: no such file or folder")
    return walk
