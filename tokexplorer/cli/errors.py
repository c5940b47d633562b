"""The command line's exit codes, and which failures are usage errors.

One convention for every command (Python's: ``argparse`` exits 2 on a command line
it cannot parse, and a program that stops on an error exits 1):

* :data:`EXIT_OK` (0): success.
* :data:`EXIT_ERROR` (1): the command could not do its work: bad input or data
  (a missing or unreadable file, a binary file, a folder with nothing to read, a
  corrupt model file, a vocab size the algorithm or the corpus cannot have, a text
  refused by ``--special raise``), or any other failure (a library's error, a full
  disk). The one-line message says which.
* :data:`EXIT_USAGE` (2): the command line does not parse (an unknown or missing
  option, a value of the wrong type or not among the choices, options that
  exclude each other): nothing was read or done.
* :data:`EXIT_INTERRUPTED` (130, 128 + SIGINT): stopped by Ctrl+C.
* :data:`EXIT_BROKEN_PIPE` (141, 128 + SIGPIPE): the program reading the output went
  away before the end (``tokexplorer inspect ... | head -1``): the command stops
  quietly, with no message, and exits as a tool stopped by SIGPIPE is seen to
  (``cat big.txt | head -1`` gives ``cat`` 141 in the shell's ``PIPESTATUS``).
"""

from __future__ import annotations

from tokexplorer.core.errors import CorpusError, InputError, ModelFormatError, SpecialTokenError

#: Exit codes of :func:`tokexplorer.cli.main` (see the module docstring).
EXIT_OK = 0
EXIT_ERROR = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141

#: The exit codes as every ``--help`` ends with them.
EXIT_CODES_HELP = (
    "Exit codes: 0 success; 1 bad input or data (a missing, binary or unreadable file, an empty folder, "
    "a corrupt model file, a vocab size too small, ...) or another failure, said in one line; "
    "2 a command line that does not parse (unknown or missing option, wrong value type); 130 interrupted; "
    "141 output cut off by the program reading it (| head), without a message."
)

#: Errors caused by what the user gave us (files, models, values, text): one line, :data:`EXIT_ERROR`.
INPUT_ERRORS: tuple[type[BaseException], ...] = (
    InputError,
    CorpusError,
    ModelFormatError,
    SpecialTokenError,
)


class UsageError(Exception):
    """Bad command-line usage (argparse's complaint), reported in one line; exits with :data:`EXIT_USAGE`.

    Attributes:
        prog: the program and command it concerns (``"tokexplorer decode"``),
            named in the error line and its ``--help`` hint.
    """

    def __init__(self, message: str, prog: str) -> None:
        super().__init__(message)
        self.prog = prog
