"""The core's advice in the window's terms.

The core names what a user can do as settings ("give its encoding", "open its raw
bytes", "encode it as its special id or as ordinary text"), the words of no front end. Where the
window's control is not named by those words, :func:`in_window_terms` says it: every worker error
(:func:`~tokexplorer.gui.workers.user_message`), the Corpus tab's Problems list, status bar and
dialogs, the Statistics tab's failed rows and the byte inspector's tracks go through it. The command
line adds its flags instead (``tokexplorer.cli.terms``).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from tokexplorer.core.analysis import PartReport
from tokexplorer.core.errors import SPECIAL_TOKEN_ADVICE, special_token_ways
from tokexplorer.core.io import AS_CORPUS, AS_TOKENIZER, BOMLESS_CODECS, OTHER_ENCODING, READ_ANYWAY, encoding_hint
from tokexplorer.core.io.corpus import REAL_ENCODING
from tokexplorer.gui.state import POLICY_CHOICES

__all__ = ["WINDOW_READ_ANYWAY", "WINDOW_SPECIAL_WAYS", "WINDOW_TERMS", "in_window_terms", "part_in_window_terms"]

#: How the window says a refused file can be seen anyway.
WINDOW_READ_ANYWAY = "to see it anyway, open its raw bytes (File ▸ Open raw bytes…)"

_LABELS = {policy: label for label, policy in POLICY_CHOICES}
#: The ways out of a special-token refusal as the window names them: the Compare tab's
#: "Special tokens:" choice (it decides for every tab), by its labels.
WINDOW_SPECIAL_WAYS = special_token_ways(f"Special tokens: '{_LABELS['special']}'", f"'{_LABELS['plain']}'")

#: Pairs ``(the core's advice, the window's)``.
WINDOW_TERMS: tuple[tuple[str, str], ...] = (
    (READ_ANYWAY, WINDOW_READ_ANYWAY),
    (OTHER_ENCODING, "if wrong, pick the file's encoding in the Corpus tab and press Re-read as"),
    (REAL_ENCODING, "If that is wrong, pick its real encoding in the Corpus tab and press Re-read as"),
    (SPECIAL_TOKEN_ADVICE, WINDOW_SPECIAL_WAYS),
    (AS_CORPUS, f"{AS_CORPUS} (File ▸ Open folder…)"),
    (AS_TOKENIZER, f"{AS_TOKENIZER} (File ▸ Open tokenizer folder…)"),
    *(
        (encoding_hint(codec), "the window reads UTF-16 only with a byte order mark; " + WINDOW_READ_ANYWAY)
        for codec in BOMLESS_CODECS
    ),
)


@cache
def _offline_terms() -> tuple[str, str]:
    """What loads a tiktoken encoding offline: the core's words and the window's (asked
    the first time a message needs it: it lists tiktoken's bundled encodings)."""
    from tokexplorer.core.backends.tiktoken_registry import offline_choices

    window = offline_choices(
        bundled_as="its entry in the Compare tab's tiktoken list", rank_file_as="File ▸ Open tokenizer…"
    )
    return offline_choices(), window + " (set before the app starts)"


def in_window_terms(message: str) -> str:
    """``message`` with the core's advice said with the window's controls.

    >>> in_window_terms("x.bin: not loaded; " + READ_ANYWAY)
    'x.bin: not loaded; to see it anyway, open its raw bytes (File ▸ Open raw bytes…)'
    """
    for core, window in WINDOW_TERMS:
        message = message.replace(core, window)
    if "tiktoken-file:PATH" in message:
        message = message.replace(*_offline_terms())
    return message


def part_in_window_terms(part: PartReport) -> PartReport:
    """``part`` with each track's error (a special-token refusal...) in the window's terms, as the
    byte inspector's tracks, cut list and tooltips show it."""
    tracks = tuple(replace(tr, error=in_window_terms(tr.error)) if tr.error else tr for tr in part.report.tracks)
    return replace(part, report=replace(part.report, tracks=tracks))
