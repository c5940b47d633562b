"""What a SentencePiece normalizer did to a text, span by span.

SentencePiece rewrites its input before cutting it into pieces: the default
``nmt_nfkc`` rule applies NFKC (``'︰'`` → ``'..'``, ``'Ａ'`` → ``'A'``), turns
tabs and line breaks into spaces, and with ``remove_extra_whitespaces`` collapses
runs of spaces and strips them at both ends; a dummy-prefix ``▁`` is added at the
start. So ``decode(encode(s)) != s`` for many inputs (SentencePiece rewrites whitespace, NFKC rewrites characters).

:func:`align` lines the original text up with the normalizer's output using the
per-character offsets SentencePiece itself reports
(``SentencePieceNormalizer.Normalize(text, with_offsets=True)``), and
:func:`normalization_diff` turns that into :class:`Segment` runs a view can
highlight: ``"same"``, ``"changed"`` (a rewrite such as NFKC or whitespace turned
into a space), ``"removed"`` (characters dropped) and ``"inserted"`` (characters
added). A character deleted after a kept one is its own ``"removed"`` run, not
part of a rewrite of its neighbour, so ``'a\x01'`` → ``'a'`` is ``'a'`` kept and
U+0001 removed. Offsets are code point offsets, half-open; ``normalized`` texts
show ``▁`` as a space and leave the dummy prefix out.

>>> segs = align("a\\ufe30b", "\\u2581a..b", [0, 0, 1, 1, 2, 3], dummy_prefix=True)
>>> [(s.kind, s.original, s.normalized) for s in segs]
[('same', 'a', 'a'), ('changed', '︰', '..'), ('same', 'b', 'b')]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import unicodedata2

from tokexplorer.core.backends import WS, SentencePieceTokenizer, describe_normalization
from tokexplorer.core.text import clean_text

SegmentKind = Literal["same", "changed", "removed", "inserted"]


@dataclass(frozen=True, slots=True)
class Segment:
    """One run of the original text and what the normalizer made of it.

    Attributes:
        kind: ``"same"`` (unchanged), ``"changed"`` (rewritten), ``"removed"``
            (dropped; ``normalized`` is empty) or ``"inserted"`` (added;
            ``original`` is empty).
        orig_start: first code point (inclusive) in the original text.
        orig_end: end code point (exclusive) in the original text.
        norm_start: first code point (inclusive) in the normalized text
            (``▁`` shown as a space, no dummy prefix).
        norm_end: end code point (exclusive) in the normalized text.
        original: ``original_text[orig_start:orig_end]``.
        normalized: ``normalized_text[norm_start:norm_end]``.
        reason: for a change, a short reason: ``"NFKC"``, ``"whitespace"``,
            ``"control character removed"``... (empty for ``"same"``).
    """

    kind: SegmentKind
    orig_start: int
    orig_end: int
    norm_start: int
    norm_end: int
    original: str
    normalized: str
    reason: str = ""

    def describe(self) -> str:
        """The change in words, with code points, so look-alikes differ visibly.

        >>> Segment("changed", 0, 2, 0, 1, "e\\u0301", "\\u00e9", "NFKC").describe()
        "chars 0–2: 'e\u0301' (U+0065 U+0301) → '\u00e9' (U+00E9) (NFKC)"
        >>> Segment("removed", 1, 2, 1, 1, "\\x01", "", "control character removed").describe()
        "chars 1–2: '\\\\x01' (U+0001) removed (control character removed)"
        """
        old = f"{self.original!r} ({code_points(self.original)})"
        new = f"{self.normalized!r} ({code_points(self.normalized)})"
        if self.kind == "removed":
            what = f"chars {self.orig_start}\u2013{self.orig_end}: {old} removed"
        elif self.kind == "inserted":
            what = f"at char {self.orig_start}: {new} inserted"
        elif self.kind == "same":
            what = f"chars {self.orig_start}\u2013{self.orig_end}: {old} kept"
        else:
            what = f"chars {self.orig_start}\u2013{self.orig_end}: {old} \u2192 {new}"
        return f"{what} ({self.reason})" if self.reason and self.reason != self.kind else what

    def to_json(self) -> dict:
        """``{"kind", "original": [start, end], "normalized": [start, end], "from", "to",
        "from_code_points", "to_code_points", "reason"}`` (code points as ``"U+0065"``)."""
        out = {
            "kind": self.kind,
            "original": [self.orig_start, self.orig_end],
            "normalized": [self.norm_start, self.norm_end],
            "from": self.original,
            "to": self.normalized,
            "from_code_points": [f"U+{ord(c):04X}" for c in self.original],
            "to_code_points": [f"U+{ord(c):04X}" for c in self.normalized],
        }
        if self.reason:
            out["reason"] = self.reason
        return out


def code_points(text: str) -> str:
    """``"U+0065 U+0301"``: the code points of ``text``, space-separated.

    >>> code_points("e\u0301")
    'U+0065 U+0301'
    """
    return " ".join(f"U+{ord(c):04X}" for c in text)


def _removed_reason(ch: str) -> str:
    if ch.isspace():
        return "whitespace removed"
    if unicodedata2.category(ch)[0] == "C":
        return "control character removed"
    return "removed"


def _split_group(old: str, new: str) -> list[tuple[SegmentKind, int, int]]:
    """One normalizer group (original ``old`` made into ``new``) as runs
    ``(kind, length in old, length in new)``: a kept or rewritten head, then each
    deleted character run and each inserted tail on its own."""
    if old == new:
        return [("same", len(old), len(new))]
    if not new:
        head: list[tuple[SegmentKind, int, int]] = []
        k = 0
    elif old.startswith(new):
        head, k = [("same", len(new), len(new))], len(new)
    elif old and new.startswith(old):
        return [("same", len(old), len(old)), ("inserted", 0, len(new) - len(old))]
    else:
        k = next((i for i in range(1, len(old)) if unicodedata2.normalize("NFKC", old[:i]) == new), len(old))
        head = [("changed", k, len(new))]
    # the deleted tail, one run per reason (control characters, whitespace...)
    runs = head
    for ch in old[k:]:
        if runs and runs[-1][0] == "removed" and _removed_reason(old[k - 1]) == _removed_reason(ch):
            runs[-1] = ("removed", runs[-1][1] + 1, 0)
        else:
            runs.append(("removed", 1, 0))
        k += 1
    return runs


def _reason(old: str, new: str) -> str:
    if not old:
        return "inserted"
    if not new:
        if old.isspace():
            return "whitespace removed"
        if all(unicodedata2.category(c)[0] == "C" for c in old):
            return "control character removed"
        return "removed"
    if old.isspace() or (not old.strip() and not new.strip()):
        return "whitespace"
    if unicodedata2.normalize("NFKC", old) == new:
        return "NFKC"
    if unicodedata2.normalize("NFKC", old).replace(" ", "") == new.replace(" ", ""):
        return "NFKC"
    if unicodedata2.normalize("NFD", old) == new:
        return "NFD"
    return "rewritten"


def align(
    original: str, normalized_raw: str, offsets: Sequence[int], *, dummy_prefix: bool
) -> list[Segment]:
    """Split ``original`` into runs kept, changed or removed by a normalizer.

    Args:
        original: the text given to the normalizer (already UTF-8-clean).
        normalized_raw: the normalizer's output, with ``▁`` for whitespace.
        offsets: ``len(normalized_raw) + 1`` code point offsets into
            ``original`` (SentencePiece's ``with_offsets=True`` result): where
            each normalized character comes from, then the end of what was read.
        dummy_prefix: the model adds a dummy-prefix ``▁``; a leading ``▁`` is then
            left out of the normalized text.

    Returns:
        list of :class:`Segment` covering ``original`` from 0 to its end in
        order, adjacent runs of one kind merged.

    Raises:
        ValueError: ``offsets`` has the wrong length or is not non-decreasing.
    """
    if len(offsets) != len(normalized_raw) + 1:
        raise ValueError(
            f"{len(offsets)} offsets for {len(normalized_raw)} normalized characters"
        )
    if any(b < a for a, b in zip(offsets, offsets[1:])) or (offsets and offsets[-1] > len(original)):
        raise ValueError("normalizer offsets are not non-decreasing within the text")
    skip = 1 if dummy_prefix and normalized_raw.startswith(WS) else 0
    norm = normalized_raw[skip:].replace(WS, " ")
    offs = list(offsets[skip:])
    # group normalized characters by the original character they start at
    groups: list[tuple[int, int, int]] = []  # (orig_start, norm_start, norm_end)
    for j in range(len(norm)):
        o = offs[j]
        if groups and groups[-1][0] == o:
            groups[-1] = (o, groups[-1][1], j + 1)
        else:
            groups.append((o, j, j + 1))
    end_read = offs[-1] if offs else 0
    raw_segments: list[Segment] = []

    def add(os_: int, oe: int, ns: int, ne: int) -> None:
        if os_ == oe and ns == ne:
            return
        for kind, n_old, n_new in _split_group(original[os_:oe], norm[ns:ne]):
            old, new = original[os_ : os_ + n_old], norm[ns : ns + n_new]
            reason = "" if kind == "same" else _reason(old, new)
            raw_segments.append(Segment(kind, os_, os_ + n_old, ns, ns + n_new, old, new, reason))
            os_, ns = os_ + n_old, ns + n_new

    first = groups[0][0] if groups else end_read
    add(0, first, 0, 0)
    for k, (o, ns, ne) in enumerate(groups):
        oe = groups[k + 1][0] if k + 1 < len(groups) else max(end_read, o)
        add(o, oe, ns, ne)
    last_end = raw_segments[-1].orig_end if raw_segments else 0
    add(last_end, len(original), len(norm), len(norm))
    merged: list[Segment] = []
    for seg in raw_segments:
        if merged and merged[-1].kind == seg.kind and seg.kind == "same":
            m = merged[-1]
            merged[-1] = Segment(
                "same", m.orig_start, seg.orig_end, m.norm_start, seg.norm_end,
                m.original + seg.original, m.normalized + seg.normalized,
            )
        else:
            merged.append(seg)
    return merged


@dataclass(frozen=True, slots=True)
class NormalizationDiff:
    """The original text beside the normalized text, with changed spans.

    Attributes:
        original: the text (after :func:`~tokexplorer.core.text.clean.clean_text`).
        normalized: the normalizer's output, ``▁`` as a space, no dummy prefix.
        segments: :class:`Segment` runs covering ``original``.
        summary: one line, e.g. ``"normalized: 4 spaces removed"``; empty when unchanged.
        exact: True when the segments come from SentencePiece's own offsets;
            False when they were rebuilt by a text diff (older sentencepiece).
    """

    original: str
    normalized: str
    segments: tuple[Segment, ...]
    summary: str = ""
    exact: bool = True

    @property
    def changed(self) -> bool:
        """True when the normalizer changed the text (so ``decode(encode(s)) != s``)."""
        return self.original != self.normalized

    @property
    def changes(self) -> tuple[Segment, ...]:
        """The segments that are not ``"same"``."""
        return tuple(s for s in self.segments if s.kind != "same")

    def to_json(self) -> dict:
        """``{"original", "normalized", "changed", "summary", "changes": [...]}``."""
        return {
            "original": self.original,
            "normalized": self.normalized,
            "changed": self.changed,
            "summary": self.summary,
            "exact": self.exact,
            "changes": [s.to_json() for s in self.changes],
        }


def _diff_segments(original: str, normalized: str) -> list[Segment]:
    """Fallback alignment by :mod:`difflib` when the normalizer gives no offsets."""
    import difflib

    out: list[Segment] = []
    sm = difflib.SequenceMatcher(None, original, normalized, autojunk=False)
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        old, new = original[i1:i2], normalized[j1:j2]
        if op == "equal":
            out.append(Segment("same", i1, i2, j1, j2, old, new))
        elif op == "insert":
            out.append(Segment("inserted", i1, i1, j1, j2, "", new, "inserted"))
        else:
            kind: SegmentKind = "removed" if not new else "changed"
            out.append(Segment(kind, i1, i2, j1, j2, old, new, _reason(old, new)))
    return out


def normalization_diff(tokenizer: SentencePieceTokenizer, text: str) -> NormalizationDiff:
    """Compare ``text`` with what a SentencePiece model's normalizer makes of it.

    Args:
        tokenizer: a :class:`~tokexplorer.core.backends.sentencepiece.SentencePieceTokenizer`.
        text: any str (lone surrogates are cleaned first, with the one rule of
            :mod:`tokexplorer.core.text.clean`).

    Returns:
        :class:`NormalizationDiff`; ``summary`` is the backend's one-line
        description of the change (``"normalized (NFKC): '︰' → '..'"``).
    """
    t = clean_text(text).text
    normalized = tokenizer.normalize(t)
    raw = tokenizer.normalize_with_offsets(t)
    segments: list[Segment] | None = None
    exact = False
    if raw is not None:
        try:
            segments = align(t, raw[0], raw[1], dummy_prefix=tokenizer.info.add_dummy_prefix)
            exact = "".join(s.normalized for s in segments) == normalized
        except ValueError:
            segments = None
    if segments is None or not exact:
        segments = _diff_segments(t, normalized)
        exact = False
    summary = describe_normalization(t, normalized) if normalized != t else ""
    return NormalizationDiff(t, normalized, tuple(segments), summary, exact)


__all__: Sequence[str] = ("Segment", "NormalizationDiff", "align", "code_points", "normalization_diff")
