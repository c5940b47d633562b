"""Which export formats a byte-level BPE can be written in, and what to know about each.

The window's File ▸ Export tokenizer… shows the blocked formats disabled with
their reason, and ``tokexplorer export`` refuses them with that reason: a
``merges.txt`` reader never emits a token that no merge builds, a reader of
``vocab.json`` cannot tell a special token spelled like a token, and
``tokenizers``' regex engine (Oniguruma) must read the split pattern as
``regex`` does.

>>> from tokexplorer.core.bpe import BPE
>>> ranks = {bytes([i]): i for i in range(256)} | {b"abab": 256}  # no merge builds b"abab"
>>> check = check_export(BPE.from_mergeable_ranks(ranks, pat_str=None))
>>> sorted(check.blocked), check.blocked["gpt2"].split(";")[0]
(['gpt2'], '1 token is built by no merge (whole chunk only)')
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import InputError
from tokexplorer.core.text import pattern_name_of, to_gpt2_visible

__all__ = ["CHECKED_FORMATS", "ExportCheck", "check_export", "drift_note"]

#: The format keys :func:`check_export` reports on (those of ``tokexplorer export`` for a BPE).
CHECKED_FORMATS: tuple[str, ...] = ("tiktoken", "tokenizer.json", "gpt2")


@dataclass(frozen=True, slots=True)
class ExportCheck:
    """What :func:`check_export` found.

    Attributes:
        blocked: format key -> the one-line reason the model cannot be written in it.
        notes: format key -> what to know about writing it (list of one-line notes).
    """

    blocked: dict[str, str] = field(default_factory=dict)
    notes: dict[str, list[str]] = field(default_factory=dict)


def check_export(bpe: BPE) -> ExportCheck:
    """Which export formats ``bpe`` cannot be written in (with the reason), and notes on the others.

    Reads ``bpe.unbuilt_tokens``, which recovers the merges of a model loaded
    from ranks (run it in a worker). Blocked: every format when two ids share
    one byte string; ``gpt2`` when some tokens are built by no merge (a
    ``merges.txt`` reader never emits them) or a special token is spelled like
    a token in ``vocab.json`` (``tokenizer.json`` too); ``tokenizer.json`` when
    the split pattern cannot be rewritten for its regex engine.
    """
    from tokexplorer.core.io.exports import oniguruma_pattern

    blocked: dict[str, str] = {}
    if len(set(bpe.vocab.values())) != len(bpe.vocab):
        why = "two ids share one byte string; these formats allow one id per byte string"
        return ExportCheck({key: why for key in CHECKED_FORMATS})
    unbuilt = len(bpe.unbuilt_tokens)
    if unbuilt:
        blocked["gpt2"] = (
            f"{unbuilt:,} token{'s are' if unbuilt != 1 else ' is'} built by no merge (whole chunk only); "
            "readers of merges.txt "
            "never emit them, so ids would differ: use .tiktoken or tokenizer.json"
        )
    if bpe.pat_str is not None:
        try:
            oniguruma_pattern(bpe.pat_str)
        except InputError as exc:
            blocked["tokenizer.json"] = str(exc)
    spelled = {to_gpt2_visible(b) for b in bpe.vocab.values()}
    clash = next((s for s in bpe.special_tokens if s in spelled), None)
    if clash is not None:
        why = f"special token {clash!r} is spelled like a token of vocab.json"
        blocked.setdefault("gpt2", why)
        blocked.setdefault("tokenizer.json", why)
    return ExportCheck(blocked, _notes(bpe, unbuilt))


def _notes(bpe: BPE, unbuilt: int) -> dict[str, list[str]]:
    n_special = len(bpe.special_tokens)
    specials = f"{n_special} special token{'s' * (n_special != 1)}"
    pattern = pattern_name_of(bpe.pat_str) or "a custom one"
    notes = {
        "tiktoken": [f"the sidecar PATH.json holds the split pattern ({pattern}) and {specials}"],
        "tokenizer.json": [f"the split pattern ({pattern}) and {specials} are in the file"],
        "gpt2": [],
    }
    if unbuilt:
        notes["tokenizer.json"].append(
            f"{unbuilt:,} token{'s' if unbuilt != 1 else ''} no merge builds: written with ignore_merges on, "
            "so a piece that is a "
            "token is that token, as tiktoken emits a whole chunk"
        )
    if bpe.pattern_name != "gpt2":
        notes["gpt2"].append(
            f"the split pattern is {pattern}, but vocab.json + merges.txt carry no pattern: readers split "
            "as GPT-2 does, so ids can differ from ours"
        )
    if n_special:
        notes["gpt2"].append("special tokens are in vocab.json only; register them as added tokens in the reader")
    drift = drift_note(bpe)
    if drift is not None:
        for key in CHECKED_FORMATS:
            notes[key].append(drift)
    return notes


def drift_note(bpe: BPE) -> str | None:
    """The note on the code points the readers' regex engines class otherwise than the
    model's splitter, or None when there are none for its split pattern.

    A model trained here splits text by the ``regex`` module's Unicode tables
    (``bpe.unicode == "regex"``); tiktoken's regex and ``tokenizers``' Oniguruma read the
    same pattern with older tables (Unicode 16.0 for tiktoken 0.14 and tokenizers 0.23),
    so a text holding a letter or digit assigned since (U+0C5C, for one) can be split,
    and so encoded, otherwise by the reader. Ranks loaded from tiktoken follow
    tiktoken's classes already (no note).

    >>> from tokexplorer.core.bpe import BPE
    >>> drift_note(BPE([], pattern="cl100k"))[:78]
    'ids equal ours on text without the 17,480 code points that Unicode 18.0.0 clas'
    >>> drift_note(BPE([], pattern="none")) is None
    True
    """
    from tokexplorer.core.text.class_drift import drift_check

    check = drift_check(bpe.pat_str, bpe.unicode)
    if check.empty:
        return None
    if check.ranges is None:
        return f"ids equal ours on text without {check.why[2:]}; such a text may be split otherwise by the reader"
    n = sum(b - a + 1 for a, b in check.ranges)
    first = check.ranges[0][0]
    why = check.why.removeprefix("a character ")
    return (
        f"ids equal ours on text without the {n:,} code points that {why} (U+{first:04X}, ...): "
        "the reader may split a text holding one otherwise"
    )
