"""The core's advice in the command line's terms.

The core names what a user can do as settings ("give its encoding", "train with byte
fallback"), the words of no front end. Every error and note line the command line
writes (:func:`tokexplorer.cli.output.error`, :func:`~tokexplorer.cli.output.note`)
goes through :func:`in_cli_terms`, which adds the flag that does it; the window
names its own controls (:mod:`tokexplorer.gui.terms`).
"""

from __future__ import annotations

from functools import cache

__all__ = ["cli_terms", "in_cli_terms"]


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
    return message
