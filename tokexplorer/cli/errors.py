"""Which failures are the user's to fix: usage errors and bad input exit with 2."""

from __future__ import annotations

from tokexplorer.core.errors import CorpusError, InputError, ModelFormatError, SpecialTokenError

#: Errors caused by what the user gave us: exit code 2 (other errors exit 1).
INPUT_ERRORS: tuple[type[BaseException], ...] = (
    InputError,
    CorpusError,
    ModelFormatError,
    SpecialTokenError,
)


class UsageError(Exception):
    """Bad command-line usage (argparse's complaint), reported in one line.

    Attributes:
        prog: the program and command it concerns (``"tokexplorer decode"``),
            named in the error line and its ``--help`` hint.
    """

    def __init__(self, message: str, prog: str) -> None:
        super().__init__(message)
        self.prog = prog
