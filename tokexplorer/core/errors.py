"""Exceptions raised by the core.

Every error the user can cause derives from :class:`TokexplorerError`, whose
message is one line meant to be shown as it is (status bar, dialog, CLI stderr).
"""

from __future__ import annotations


class TokexplorerError(Exception):
    """Base class of every error caused by input; ``str(err)`` is a one-line reason."""


class InputError(TokexplorerError, ValueError):
    """Bad arguments or settings (vocab size too small, unknown pattern name...)."""


class CorpusError(TokexplorerError):
    """A file that cannot be read as text (binary, empty, undecodable)."""


class ModelFormatError(TokexplorerError):
    """A model file that is corrupt, truncated or of an unknown version."""


class BackendUnavailableError(TokexplorerError):
    """A tokenizer that cannot be loaded here (needs a download, missing package)."""


class SpecialTokenError(TokexplorerError, ValueError):
    """Text spells a special token that is not allowed under the chosen policy."""


class TrainingError(TokexplorerError):
    """Training could not start or failed (nothing to train on, SentencePiece refused)."""


# Not "CancelledError": the name is public API (the GUI, the CLI and tests catch
# it), and a cancel the user asked for is an outcome rather than an error.
class Cancelled(TokexplorerError):  # noqa: N818
    """Long work stopped because the user cancelled it."""
