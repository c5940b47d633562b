"""The core's advice in the command line's terms.

The core names what a user can do as settings ("give its encoding", "train with byte
fallback"), the words of no front end. Every error and note line the command line
writes (:func:`tokexplorer.cli.output.error`, :func:`~tokexplorer.cli.output.note`)
goes through :func:`in_cli_terms`, which adds the flag that does it; the window
names its own controls (:mod:`tokexplorer.gui.terms`).
"""

from __future__ import annotations

from contextvars import ContextVar
from functools import cache

__all__ = ["cli_terms", "allow_damaged_offered", "in_cli_terms"]

#: True while a command runs that has ``--allow-damaged`` and was not given it (``train``, ``count``:
#: set by :func:`tokexplorer.cli.main`), so that the flag is one more way out of a damaged file.
allow_damaged_offered: ContextVar[bool] = ContextVar("allow_damaged_offered", default=False)


@cache
def cli_terms() -> tuple[tuple[str, str], ...]:
    """Pairs ``(the core's advice, the command line's)``; built on first use (the
    command line imports no reader or backend until a command needs it).

    >>> dict(cli_terms())["to read it, give its encoding (utf-16-le)"]
    'to read it, give its encoding (--encoding utf-16-le)'
    """
    from tokexplorer.core.backends.rank_files import PATTERN_HINT, RANK_PATTERNS
    from tokexplorer.core.backends.sentencepiece.notes import UNKNOWN_HINT
    from tokexplorer.core.io.encodings import BOMLESS_CODECS, OTHER_ENCODING, READ_ANYWAY, encoding_hint
    from tokexplorer.core.io.folder_roles import AS_TOKENIZER
    from tokexplorer.core.io.wordpiece_files import BERT_EXPORT_HINT

    return (
        (READ_ANYWAY, "to read it anyway, give its encoding (--encoding latin-1) or inspect its raw bytes "
         "(tokexplorer inspect --raw --file FILE)"),
        *((encoding_hint(c), f"to read it, give its encoding (--encoding {c})") for c in BOMLESS_CODECS),
        (OTHER_ENCODING, "if wrong, give its encoding: --encoding CODEC for every file, --encoding FILE=CODEC "
         "for this one"),
        (UNKNOWN_HINT, "to keep such characters, train with byte fallback (--byte-fallback), or on a corpus "
         "that holds them with character coverage 1.0 (--character-coverage 1.0)"),
        (PATTERN_HINT, f"give its split pattern (--pattern NAME|REGEX; names: {', '.join(RANK_PATTERNS)})"),
        (BERT_EXPORT_HINT, "train it with the bert pre-tokenizer (--pattern bert) to export it"),
        (AS_TOKENIZER, "to use its tokenizer, give the folder as a tokenizer (--tokenizer FOLDER)"),
    )  # fmt: skip


def in_cli_terms(message: str) -> str:
    """``message`` with the core's advice said with the command line's flags.

    >>> in_cli_terms("a.model: 1 unknown piece; to keep such characters, train with byte fallback, "
    ...              "or on a corpus that holds them with character coverage 1.0")[:93]
    'a.model: 1 unknown piece; to keep such characters, train with byte fallback (--byte-fallback)'
    """
    for core, cli in cli_terms():
        if core in message:
            message = message.replace(core, cli)
    return _raw_file_named(_damaged_in_cli_terms(message))


_RAW_ADVICE = "(tokexplorer inspect --raw --file FILE)"


def _raw_file_named(message: str) -> str:
    """The raw-bytes advice of a file refused as binary with the file's own path in place of
    ``FILE`` (the message opens with it), quoted for the shell where it needs to be.

    >>> _raw_file_named("my dir/ls: looks like a binary file (...); ... (tokexplorer inspect --raw --file FILE)")
    "my dir/ls: looks like a binary file (...); ... (tokexplorer inspect --raw --file 'my dir/ls')"
    """
    import shlex

    head, sep, _rest = message.partition(": looks like ")
    if not sep or _RAW_ADVICE not in message or not head:
        return message
    return message.replace(_RAW_ADVICE, f"(tokexplorer inspect --raw --file {shlex.quote(head)})")


def _damaged_in_cli_terms(message: str) -> str:
    """The advice of a file read with U+FFFD with the running command's flags: ``--encoding
    CODEC``, and ``--allow-damaged`` for a command that has it (:data:`allow_damaged_offered`), in
    the same words for every such command (``count`` notes a file as ``train`` does).

    >>> _damaged_in_cli_terms("a.txt: ... shown as U+FFFD). If that is wrong, read it with its real encoding")
    'a.txt: ... shown as U+FFFD). If that is wrong, read it with its real encoding (--encoding CODEC)'
    """
    from tokexplorer.core.io.corpus import REAL_ENCODING

    if REAL_ENCODING not in message or f"{REAL_ENCODING} (" in message:
        return message
    flags = " (--encoding CODEC)"
    if allow_damaged_offered.get():
        flags += ", or pass --allow-damaged to use it as it reads"
    return message.replace(REAL_ENCODING, REAL_ENCODING + flags)
