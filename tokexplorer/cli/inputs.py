"""What the commands read: the text of ``--text`` or ``--file``, tokenizer SPECs,
output paths checked before long work, and the rules every command shares for
unusable files and for text that spells a special token."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tokexplorer.cli.errors import UsageError
from tokexplorer.cli.output import PROG, ProgressPrinter, drive, note
from tokexplorer.core.errors import CorpusError, InputError, SpecialTokenError

if TYPE_CHECKING:  # the commands import the engine when they run, not at start-up
    from pathlib import Path

    from tokexplorer.core.backends import Tokenizer
    from tokexplorer.core.io import CorpusFile, CountedFile, FileEncodings


def checked_file(f: CorpusFile) -> CorpusFile:
    """Pass a file's notes on (a guessed encoding is one of them; see
    :mod:`tokexplorer.core.io.reading` for the one reading rule)."""
    checked_file_notes(f.path, f.notes)
    return f


def checked_file_notes(path: Path, notes: Sequence[str]) -> None:
    """Print the notes of the file at ``path``, each naming it by the path as given:
    a note that starts with the bare file name gets its folder, one that names no
    file (``"empty file"``) gets the path in front."""
    for n in notes:
        note(named(path, n))


def damaged_hint(verb: str) -> str:
    """How to go on with a damaged file, on the command line; ``verb``: "count", "train on"."""
    return f"fix the file, choose its real --encoding, or pass --allow-damaged to {verb} it as it reads"


def streamed_files(
    paths: Sequence[str],
    encoding: str | FileEncodings | None,
    printer: ProgressPrinter,
    *,
    allow_damaged: bool,
    verb: str,
) -> tuple[list[str], list[str]]:
    """The files to count straight from disk and their codecs, read by the one reading rule
    (:func:`tokexplorer.core.io.counting_files`, with progress): each file's notes, then
    a note per file skipped (binary, damaged, unreadable) (:func:`say_counted`); ``verb``
    ("count", "train on") ends the hint of a damaged file.

    Raises:
        CorpusError: no file is left (the first problem), or a path is missing.
        InputError: ``encoding`` is not a known codec.
    """
    from tokexplorer.core.io import counting_files

    hint = damaged_hint(verb)
    reading = counting_files(list(paths), encoding=encoding, allow_damaged=allow_damaged, damaged_hint=hint)
    files, problems = drive(reading, printer)
    usable = say_counted(files, problems, verb=verb, paths=paths)
    return [str(f.path) for f in usable], [f.encoding for f in usable]


def walked(paths: Sequence[str]) -> tuple[list[Path], list[str]]:
    """The files of ``paths`` (folders walked by :func:`tokexplorer.core.io.walk_files`) and
    one line per missing path; a note per folder whose tokenizer model files are left out
    (``"skipped 2 tokenizer model files in data/: m.bpe, vocab.txt"``) and per model file
    named by itself."""
    from tokexplorer.core.io import walk_files

    walk = walk_files(list(paths))
    for n in walk.notes:
        note(n)
    return walk.files, walk.errors


def say_counted(
    files: Sequence[CountedFile], problems: Sequence[str], *, verb: str, paths: Sequence[str] = ()
) -> list[CountedFile]:
    """Say each file's notes (and that a lossy one is counted with U+FFFD), then a note per
    file skipped; the files to count (with none, an empty folder of ``paths`` is named).

    Raises:
        CorpusError: no file is left (the first problem).
    """
    for f in files:
        checked_file_notes(f.path, f.notes)
        if f.counted and f.lossy:
            note(f"{f.path}: counting text with U+FFFD where bytes could not be decoded")
    usable = [f for f in files if f.counted]
    skipped_or_fail(problems, bool(usable), f"no files to {verb}: they hold no text", paths=paths)
    return usable


def named(path: Path, message: str) -> str:
    """``message`` about the file at ``path``, naming it by the path as given (the one
    rule of every note and skipped file): ``"gbk.txt: …"`` becomes ``"odd/gbk.txt: …"``,
    ``"empty file"`` becomes ``"odd/empty.txt: empty file"``
    (:func:`~tokexplorer.core.io.labels.name_as_given`)."""
    from tokexplorer.core.io.labels import name_as_given

    return name_as_given(path, message)


def lead_as_given(path: str, message: str) -> str:
    """``message`` with the bare name of the file or folder at ``path`` that starts it
    (``"lsbin: looks like a binary file"``, ``"m.tiktoken line 3: ..."``, ``"folder llama3
    holds ..."``) replaced by ``path`` as given; any other message is returned as it is, and so is
    a tokenizer's name (``"tokenizer.json (Hugging Face WordPiece): ..."``, the name every view gives it).

    >>> lead_as_given("sub/lsbin", "lsbin: looks like a binary file"), lead_as_given("d/x", "folder x holds none")
    ('sub/lsbin: looks like a binary file', 'folder d/x holds none')
    >>> lead_as_given("sub/lsbin", "no such file: sub/lsbin")
    'no such file: sub/lsbin'
    """
    from pathlib import Path

    name = Path(path).name
    if not name or name == path:
        return message
    for before in ("", "folder "):
        for after in (": ", " "):
            lead = f"{before}{name}{after}"
            if message.startswith(lead) and not message[len(lead) :].startswith("("):  # a model's name: kept
                return f"{before}{path}{after}{message[len(lead) :]}"
    return message


def spec_file(spec: str) -> str | None:
    """The file or folder a tokenizer SPEC names, as given (``bpe:sub/m.bpe`` -> ``sub/m.bpe``),
    or None for a SPEC that names none (``tiktoken:NAME``) or does not parse."""
    from tokexplorer.core.backends import parse_spec

    try:
        kind, arg = parse_spec(spec)
    except InputError:
        return None
    return None if kind in ("tiktoken", "bpe-tiktoken") else arg


def given_files(ns: argparse.Namespace) -> list[str]:
    """The files and folders a command line names for reading (``--file``, FILEs, SPECs'
    files, ``--word-counts``), as given."""
    specs = getattr(ns, "tokenizer", None) or []
    specs = [specs] if isinstance(specs, str) else list(specs)
    if getattr(ns, "spec", None):
        specs.append(ns.spec)
    paths = [getattr(ns, "file", None), getattr(ns, "word_counts", None), *(getattr(ns, "files", None) or [])]
    return [p for p in (*paths, *map(spec_file, specs)) if isinstance(p, str)]


def error_as_given(message: str, paths: Sequence[str]) -> str:
    """An error about one of ``paths`` (:func:`given_files`) naming it as given (:func:`lead_as_given`)."""
    for path in paths:
        renamed = lead_as_given(path, message)
        if renamed != message:
            return renamed
    return message


def named_problems(problems: Sequence[str], paths: Sequence[Path]) -> list[str]:
    """Problems of a corpus read (each starting with a file's bare name, in file order)
    naming each file by its path as given (see :func:`named`)."""
    out, left = [], list(paths)
    for p in problems:
        match = next((f for f in left if p.startswith((f"{f.name}: ", f"{f}: "))), None)
        if match is not None:
            left.remove(match)
            p = named(match, p)
        out.append(p)
    return out


def read_file_text(path: str, encoding: str | None) -> str:
    """Read a text file through the corpus reader (UTF-8 check, BOM, a guessed
    encoding said in a note, ``--encoding`` forcing a codec).

    Raises:
        CorpusError: the file cannot be read or looks binary, or ``path`` is a folder.
        InputError: ``encoding`` is not a known codec.
    """
    from tokexplorer.core.io import read_text_file

    if os.path.isdir(path):
        raise CorpusError(f"{path}: is a folder, not a file (--file takes one text file)")
    return checked_file(read_text_file(path, encoding=encoding)).text


def input_text(ns: argparse.Namespace) -> str:
    """The text of ``--text`` or of ``--file``."""
    if ns.text is not None:
        if ns.encoding is not None:
            raise UsageError("--encoding applies to --file only", f"{PROG} {ns.command}")
        return ns.text
    from tokexplorer.core.io import codec_for

    return read_file_text(ns.file, codec_for(ns.encoding, ns.file))


def set_add_special_tokens(tokenizers: Sequence[Tokenizer], on: bool) -> None:
    """Apply ``--[no-]add-special-tokens`` to the Hugging Face tokenizers among ``tokenizers``."""
    if all(tok.family != "huggingface" for tok in tokenizers):
        return  # (the adapter's module is loaded only where one is used)
    from tokexplorer.core.backends import HuggingFaceTokenizer

    for tok in tokenizers:
        if isinstance(tok, HuggingFaceTokenizer):
            tok.add_special_tokens = on


def load(spec: str, pattern: str | None = None) -> Tokenizer:
    """Load a tokenizer from a SPEC string (see :mod:`tokexplorer.core.backends.spec`)
    with ``--pattern`` for a rank file; what loading chose is noted on stderr."""
    from tokexplorer.core.backends import load_tokenizer

    tok = load_tokenizer(spec, pattern=pattern)
    path = spec_file(spec)
    for n in tok.load_notes:
        note(n if path is None else lead_as_given(path, n))
    return tok


def load_all(specs: Sequence[str], pattern: str | None = None) -> list[Tokenizer]:
    """Load the tokenizers of one command, each named distinctly (the rows of
    ``stats``, ``compare`` and ``inspect``; see
    :func:`tokexplorer.core.backends.spec.load_tokenizers`), with ``--pattern``
    for rank files; what loading chose is noted on stderr."""
    from tokexplorer.core.backends import load_tokenizers

    toks = load_tokenizers(specs, pattern=pattern)
    for spec, tok in zip(specs, toks):
        path = spec_file(spec)
        for n in tok.load_notes:
            note(f"{tok.name}: {n if path is None else lead_as_given(path, n)}")
    return toks


def check_output_path(path: str) -> None:
    """Refuse an output path whose folder is missing, before any long work."""
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"cannot write {path}: it is a folder")
    if not os.path.isdir(folder):
        raise InputError(f"cannot write {path}: folder {folder} does not exist")


def empty_folders(paths: Sequence[str]) -> str | None:
    """What the folders among ``paths`` are when together they hold no file to read
    (``"folder data is empty"``, ``"folder data holds no files, only folders without
    files and hidden files or folders (skipped)"``), or None when some file is there.

    >>> import tempfile
    >>> empty_folders([tempfile.mkdtemp(prefix="e")]).endswith(" is empty")
    True
    """
    from pathlib import Path

    from tokexplorer.core.io import walk_files

    walk = walk_files(list(paths))
    if not paths or walk.files:
        return None
    said = []
    for p in paths:
        if walk.skipped.get(p):
            said.append(f"folder {p} holds no text files, only tokenizer model files (skipped)")
            continue
        try:
            entries = list(Path(p).iterdir())
        except OSError:
            continue
        if not entries:
            said.append(f"folder {p} is empty")
            continue
        kinds = ["folders without files"] if any(not e.name.startswith(".") for e in entries) else []
        if any(e.name.startswith(".") for e in entries):
            kinds.append("hidden files or folders (skipped)")
        said.append(f"folder {p} holds no files, only {' and '.join(kinds)}")
    return "; ".join(said) or None


def skipped_or_fail(problems: Sequence[str], any_left: bool, nothing: str, *, paths: Sequence[str] = ()) -> None:
    """Note each unusable file as skipped while some input is left; with none
    left, the first problem (or, when there was none, the folders of ``paths`` that
    hold no file: ``"folder data is empty: no files to read"``, else ``nothing``) is the error.

    Raises:
        CorpusError: nothing is left to work on.
    """
    if not any_left:
        if problems:
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise CorpusError(f"{problems[0]}{more}")
        empty = empty_folders(paths)
        raise CorpusError(f"{empty}: no files to read" if empty else nothing)
    for p in problems:
        note(f"skipped {p}")


def special_spellings(tokenizers: Sequence[Tokenizer], texts: Sequence[tuple[str, str]], policy: str) -> None:
    """Apply ``--special`` to whole texts the way ``encode`` does: ``raise``
    refuses (exit 1) a text that spells a special token of one of the
    tokenizers; ``plain`` notes each such spelling once per text.

    Args:
        tokenizers: the loaded tokenizers.
        texts: ``(name, text)`` pairs (file names, or ``"text"``).
        policy: the ``--special`` policy.

    Raises:
        SpecialTokenError: policy ``raise`` and a text spells a special token.
    """
    if policy == "special":
        return
    from tokexplorer.core.text.spellings import spelled_in

    for name, text in texts:
        seen: set[str] = set()
        spelled = spelled_in(text, (s for tok in tokenizers for s in tok.special_tokens))
        for tok in tokenizers:
            for s in tok.special_tokens:
                if s not in spelled:
                    continue
                if policy == "raise":
                    raise SpecialTokenError(s, where=name, of=tok.name)
                if s not in seen:
                    seen.add(s)
                    note(f"{name}: {s!r} encoded as plain text")
