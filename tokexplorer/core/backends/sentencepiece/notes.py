"""The notes of a SentencePiece result, and what they need without the pieces'
spans (the counting paths print notes and build no tokens): notes on special
spellings and on unknown pieces, whether a text can get an unknown piece at all,
the texts its unknown pieces swallowed (from the spans of only the parts of the
text that hold one), whether cutting at line starts keeps the ids.

The tokenizer hands these functions what they need of it (its ids, its pieces with spans).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

import regex

from tokexplorer.core.errors import SpecialTokenError
from tokexplorer.core.text import LINE_START_CUT
from tokexplorer.core.types import SpecialPolicy

__all__ = [
    "NOTE_BATCH_CHARS", "NOTE_PART_CHARS", "UNKNOWN_HINT", "all_pieces", "counted_unknowns", "line_cuts_exact",
    "special_notes", "unknown_notes", "unknown_texts",
]  # fmt: skip

#: Probe texts for :func:`line_cuts_exact`: each is cut after its line break.
_LINE_PROBES: tuple[str, ...] = (
    "ab.\nCd 12", "x\n\u4f60\u597d", "end!\nThe 9", "q\nQ", "1\n2", "\u00e9t\u00e9\nZ", "a)\nb", "\u4f60\n\u597d"
)  # fmt: skip

#: Characters per part when the unknown pieces of a long text are looked for part by part.
NOTE_PART_CHARS = 2_048

#: Characters of parts encoded in one call (the ids of a long text are never all held).
NOTE_BATCH_CHARS = 1_048_576

_LINE_START = regex.compile(LINE_START_CUT)


def line_cuts_exact(ids: Callable[[str], list[int]]) -> bool:
    """True when cutting a text after a line break that follows a non-space and
    precedes a letter or digit (:data:`~tokexplorer.core.text.LINE_START_CUT`)
    never changes a model's ids (``ids``: text -> its ids): the ids of probes cut
    there are those of the two sides. Not for a model whose normalizer keeps the
    line break (Mistral's ``<0x0A>``): the text after a cut would get a ``▁`` of its own.

    >>> line_cuts_exact(lambda text: [ord(c) for c in text]), line_cuts_exact(lambda text: [len(text)])
    (True, False)
    """
    for probe in _LINE_PROBES:
        cut = probe.index("\n") + 1
        if ids(probe) != ids(probe[:cut]) + ids(probe[cut:]):
            return False
    return True


def counted_unknowns(
    text: str,
    unknown: Collection[int],
    ids_of: Callable[[list[str]], Sequence[Sequence[int]]],
    spans_of: Callable[[str, Sequence[int]], list[tuple[int, int, int]]],
) -> tuple[int, list[str]]:
    """The number of pieces of ``text`` and the original text of each of its unknown
    pieces, in order, from one run of the model: the ids of its parts
    (``ids_of``: texts -> their ids; :data:`NOTE_BATCH_CHARS` characters of parts a
    call), and the pieces with spans (``spans_of``: text and its ids -> ``(id, byte
    start, byte end)`` per piece) of only the parts holding an id of ``unknown``. Parts of about
    :data:`NOTE_PART_CHARS` characters are cut at line starts: the model must keep
    its ids there (:func:`line_cuts_exact`).

    >>> counted_unknowns("ab\\ncd", {0}, lambda ts: [[0 if c == "c" else 1 for c in t] for t in ts],
    ...                  lambda t, ids: [(k, i, i + 1) for i, k in enumerate(ids)])
    (5, ['c'])
    """
    cuts = [0]
    while (m := _LINE_START.search(text, cuts[-1] + NOTE_PART_CHARS)) is not None:
        cuts.append(m.start())
    cuts.append(len(text))
    parts = [text[a:b] for a, b in zip(cuts, cuts[1:]) if b > a]
    unknown = set(unknown)
    count = 0
    surfaces: list[str] = []
    batch: list[str] = []
    held = 0
    for k, part in enumerate(parts):
        batch.append(part)
        held += len(part)
        if held < NOTE_BATCH_CHARS and k + 1 < len(parts):
            continue
        for one, ids in zip(batch, ids_of(batch)):
            count += len(ids)
            if not unknown.isdisjoint(ids):
                surfaces += unknown_texts(one, spans_of(one, ids), unknown)
        batch, held = [], 0
    return count, surfaces


def unknown_texts(text: str, spans: Sequence[tuple[int, int, int]], unknown: Collection[int]) -> list[str]:
    """The original text of each piece of ``spans`` (``(id, byte start, byte end)`` in
    ``text``) whose id is one of ``unknown``, in order.

    >>> unknown_texts("a\u4e2db", [(5, 0, 1), (0, 1, 4), (6, 4, 5)], {0})
    ['\u4e2d']
    """
    src = text.encode("utf-8")
    return [src[b:e].decode("utf-8", "replace") for i, b, e in spans if i in unknown]


def all_pieces(normalized: str | None, model_type: str, is_piece: Callable[[str], bool]) -> bool:
    """True when no piece of a text can be the unknown piece: a BPE, Unigram or
    character model gives the unknown piece only to a character that is not one
    of its pieces (or, Unigram, an unused one), and every character of the
    ``normalized`` text (the normalizer's own output; None: not known) is a used
    piece (``is_piece``). False otherwise (a word model: always).

    >>> all_pieces("\u2581ab", "bpe", "\u2581ab".__contains__), all_pieces("\u2581ab", "word", str.isalpha)
    (True, False)
    """
    if normalized is None or model_type not in ("bpe", "unigram", "char"):
        return False
    return all(map(is_piece, set(normalized)))


#: The way out named by the unknown-piece note: the training options that keep every character
#: (named as settings; the command line adds its flags).
UNKNOWN_HINT = (
    "to keep such characters, train with byte fallback, or on a corpus that holds them with character coverage 1.0"
)


def unknown_notes(unknown_surfaces: Sequence[str]) -> list[str]:
    """The notes about unknown pieces: how many, the first five texts they swallowed,
    how many characters are lost, and how to keep them.

    >>> unknown_notes([]), unknown_notes(["\\x00"])[1]
    ([], 'SentencePiece treats NUL (U+0000) as an unknown piece')
    """
    if not unknown_surfaces:
        return []
    shown = ", ".join(repr(s) for s in unknown_surfaces[:5])
    more = f" and {len(unknown_surfaces) - 5} more" if len(unknown_surfaces) > 5 else ""
    n = len(unknown_surfaces)
    lost = sum(len(s) for s in unknown_surfaces)
    notes = [
        f"{n} unknown piece{'s' if n != 1 else ''} (decoded as ' \u2047 '): {shown}{more}; "
        f"{lost} character{'s' if lost != 1 else ''} lost; {UNKNOWN_HINT}"
    ]
    if any("\x00" in s for s in unknown_surfaces):
        notes.append("SentencePiece treats NUL (U+0000) as an unknown piece")
    return notes


def special_notes(text: str, special: SpecialPolicy, specials: Collection[str], user: dict[str, int]) -> list[str]:
    """Notes on control pieces and user-defined symbols (``specials``; ``user``: the
    user-defined ones -> id) spelled in ``text``.

    Raises:
        SpecialTokenError: ``special="raise"`` and ``text`` spells one.

    >>> special_notes("a <s> b", "plain", ["<s>", "</s>"], {})
    ["'<s>' encoded as plain text"]
    """
    found = [s for s in specials if s and s in text]
    if found and special == "raise":
        what = "user-defined symbol" if found[0] in user else "control piece"
        raise SpecialTokenError(found[0], what=what)
    notes: list[str] = []
    for s in found:
        if s not in user:
            notes.append(f"{s!r} encoded as plain text")
        elif special == "plain":
            notes.append(
                f"{s!r} is a user-defined symbol of this model: SentencePiece always "
                f"encodes it as one piece (id {user[s]}), it cannot be plain text here"
            )
    return notes
