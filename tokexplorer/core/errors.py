"""Exceptions raised by the core.

Every error the user can cause derives from :class:`TokexplorerError`, whose
message is one line meant to be shown as it is (status bar, dialog, CLI stderr).
"""

from __future__ import annotations


class TokexplorerError(Exception):
    """Base class of every error caused by input; ``str(err)`` is a one-line reason."""


class InputError(TokexplorerError, ValueError):
    """Bad arguments or settings (vocab size too small, unknown pattern name...)."""


class SettingsConflictError(InputError):
    """Settings that do not go together, whatever the data (a split pattern for
    SentencePiece, lower-casing for BPE): the request itself is wrong."""


class CorpusError(TokexplorerError):
    """A file that cannot be read as text (binary, empty, undecodable)."""


class ModelFormatError(TokexplorerError):
    """A model file that is corrupt, truncated or of an unknown version."""


class BackendUnavailableError(TokexplorerError):
    """A tokenizer that cannot be loaded here (needs a download, missing package)."""


#: How a :class:`SpecialTokenError` says the ways out in no front end's terms (the end of its message).
SPECIAL_TOKEN_ADVICE = "encode it as its special id or as ordinary text instead"


def special_token_ways(special: str, plain: str) -> str:
    """The ways out of a :class:`SpecialTokenError` named as a front end's controls: ``special``
    encodes the token as its special id, ``plain`` its text as ordinary text.

    >>> special_token_ways("--special special", "--special plain")[:41]
    'choose --special special to encode it as '
    """
    return f"choose {special} to encode it as its special id or {plain} to encode it as ordinary text"


class SpecialTokenError(TokexplorerError, ValueError):
    """Text spells a special token that is not allowed under the chosen policy (``"raise"``).

    Its message names no front end's controls; the command line and the window name
    their own (``--special special``; the Compare tab's "Special tokens" choice) with
    :meth:`worded`.

    Args:
        spelling: the special token's text (``"<|endoftext|>"``).
        what: ``"special token"``, ``"user-defined symbol"``, ``"control piece"``.
        where: what holds the text (a file's name), ``""`` for the text itself.
        of: the tokenizer whose token it is, ``""`` when it goes without saying.

    >>> print(str(SpecialTokenError("<|endoftext|>")).replace("; ", ";\\n"))
    text contains the special token '<|endoftext|>';
    encode it as its special id or as ordinary text instead
    """

    def __init__(self, spelling: str, *, what: str = "special token", where: str = "", of: str = "") -> None:
        self.spelling, self.what, self.where, self.of = spelling, what, where, of
        super().__init__(f"{self._head()}; {SPECIAL_TOKEN_ADVICE}")

    def _head(self) -> str:
        where = f"{self.where}: " if self.where else ""
        of = f" of {self.of}" if self.of else ""
        return f"{where}text contains the {self.what} {self.spelling!r}{of}"

    def worded(self, special: str, plain: str) -> str:
        """The message with the two ways out named as a front end's controls: ``special``
        encodes the token as its special id, ``plain`` its text as ordinary text.

        >>> SpecialTokenError("<s>").worded("--special special", "--special plain")[39:]
        'choose --special special to encode it as its special id or --special plain to encode it as ordinary text'
        """
        return f"{self._head()}; {special_token_ways(special, plain)}"


class TrainingError(TokexplorerError):
    """Training could not start or failed (nothing to train on, SentencePiece refused)."""


# Not "CancelledError": the name is public API (the GUI, the CLI and tests catch
# it), and a cancel the user asked for is an outcome rather than an error.
class Cancelled(TokexplorerError):  # noqa: N818
    """Long work stopped because the user cancelled it."""
