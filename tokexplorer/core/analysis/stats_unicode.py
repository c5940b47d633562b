"""Non-ASCII lines labelled from their code points, as arrays, for the corpus
statistics' line tables (:mod:`tokexplorer.core.analysis.stats_lines`): per line
the label :func:`~tokexplorer.core.text.scripts.classify_line` gives, its words and
whether it holds one of :data:`CLUSTER_JOINERS`' characters.

Each code point has a class, looked up in a table of every code point filled on
first sight (:func:`code_point_classes`): the script label of a letter or emoji
(:func:`~tokexplorer.core.text.scripts.script_counts`' labels), white space
(``str.isspace``, what ``str.strip`` and ``str.split`` take), one of
``looks_like_code``'s ASCII symbols (``{}()[];=<>+*/&|!%^~$#@\\:``), or anything
else; and a flag for the cluster joiners. Per line, the classes are counted.

Whether a line is code: the share of those symbols among the characters that are
not white space says it, from the counts, below 10 % (no code) and from 25 % (code),
unless another rule of ``looks_like_code`` may apply; the lines where one may, and
those with 10-25 % symbols (where an operator decides), are read by
``looks_like_code`` itself. Another rule may apply to a line whose first character
(after white space) starts a keyword (``d`` of ``def``, ``#`` of ``#include``) or is
an ASCII letter or ``_`` in a line holding ``=``, or is ``}``, ``]`` or ``)``, or whose
last one is ``{``, ``}``, ``;`` or ``:``.

Then a line is ``"blank"`` (only white space), ``"code"``, else ``"emoji"`` (emoji
at least as many as letters, and some), else ``"other"`` (no letters), else the
script with the most letters (ties to the first in :data:`~tokexplorer.core.text.SCRIPTS`);
its words are its runs of characters that are not white space.

>>> block = "你好，世界\\n(x) 中文是中文中文\\n🎉🎉 ok\\ne\\u0301\\n"
>>> labels, words, joins = other_line_labels(block, [0, 6, 18, 24, 27])
>>> [SCRIPTS[c] for c in labels.tolist()], words.tolist(), joins.tolist()
(['Han', 'Han', 'emoji', 'Latin'], [0, 0, 0, 1], [False, False, False, True])
"""

from __future__ import annotations

import numpy as np
import regex

from tokexplorer.core.text import SCRIPTS, SPACE_DELIMITED
from tokexplorer.core.text.scripts import (
    _CHAR_LABELS,
    _CODE_SYMBOLS,
    _FIRST_CHARS,
    _LAST_CHARS,
    _NAME_FIRST,
    _START_WORDS,
    looks_like_code,
)

__all__ = ["CLUSTER_JOINERS", "code_point_classes", "other_line_labels"]

#: Code points after (or before) which a grapheme cluster can go on (Unicode's
#: Grapheme_Cluster_Break values other than Other, Control, CR, LF, LV, LVT),
#: and CRLF: text without them has one cluster per code point.
CLUSTER_JOINERS = regex.compile(
    r"[\p{Grapheme_Cluster_Break=Extend}\p{Grapheme_Cluster_Break=ZWJ}"
    r"\p{Grapheme_Cluster_Break=Regional_Indicator}\p{Grapheme_Cluster_Break=Prepend}"
    r"\p{Grapheme_Cluster_Break=SpacingMark}\p{Grapheme_Cluster_Break=L}"
    r"\p{Grapheme_Cluster_Break=V}\p{Grapheme_Cluster_Break=T}]|\r\n"
)

_LABEL_CODES = {label: i for i, label in enumerate(SCRIPTS)}
_N_LETTER = _LABEL_CODES["emoji"]  # classes below it: letters, by label ("other script" the last)
_EMOJI = _LABEL_CODES["emoji"]
_SPACE, _SYMBOL, _EQUALS, _NONE = (len(SCRIPTS) + i for i in range(4))
_N_CLASSES = _NONE + 1
_JOINER = 0x20  # flag bit of a cluster joiner
_UNSEEN = 0xFF
assert _N_CLASSES <= _JOINER and _N_LETTER == _LABEL_CODES["other script"] + 1

_TABLE = np.full(0x110000, _UNSEEN, dtype=np.uint8)
_SPACE_DELIMITED = np.array([label in SPACE_DELIMITED for label in SCRIPTS], dtype=bool)


def _class_of(cp: int) -> int:
    ch = chr(cp)
    label = _CHAR_LABELS[ch]
    if label is not None:
        cls = _LABEL_CODES[label]
    elif ch.isspace():
        cls = _SPACE
    elif ch == "=":
        cls = _EQUALS
    elif ch in _CODE_SYMBOLS:
        cls = _SYMBOL
    else:
        cls = _NONE
    return cls | (_JOINER if CLUSTER_JOINERS.match(ch) is not None else 0)


def code_point_classes(cps: np.ndarray) -> np.ndarray:
    """Each code point's class and joiner flag (uint8, the shape of ``cps``, an
    array of code points): ``class | 0x20`` for a cluster joiner, the class the
    label's index in :data:`SCRIPTS` for a letter or emoji, then white space,
    an ASCII symbol of ``looks_like_code``, anything else.

    >>> [int(c) for c in code_point_classes(np.array([ord(c) for c in "a你 {é\\u0301"]))]
    [0, 1, 15, 16, 0, 50]
    """
    got = _TABLE[cps]
    if (got == _UNSEEN).any():  # a class computed once per code point (the same in any thread)
        for cp in np.unique(cps[got == _UNSEEN]).tolist():
            _TABLE[cp] = _class_of(cp)
        got = _TABLE[cps]
    return got


def other_line_labels(block: str, char_starts: np.ndarray | list[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per line of ``block`` (``char_starts``: each line's first code point, then
    the block's length; at least one line, none empty): its label's index in
    :data:`SCRIPTS`, its words (0 outside space-delimited scripts) and whether it
    holds a cluster joiner (int64, int64 and bool arrays of one entry per line);
    see the module docstring."""
    starts = np.asarray(char_starts, dtype=np.int64)
    n = len(starts) - 1
    cps = np.frombuffer(block.encode("utf-32-le"), dtype=np.uint32)
    got = code_point_classes(cps)
    cls = got & (_JOINER - 1)
    sizes = np.diff(starts)
    line_of = np.repeat(np.arange(0, n * _N_CLASSES, _N_CLASSES, dtype=np.int64), sizes)
    counts = np.bincount(line_of + cls, minlength=n * _N_CLASSES).reshape(n, _N_CLASSES)
    joins = np.add.reduceat((got & _JOINER) != 0, starts[:-1], dtype=np.int64) > 0
    solid = cls != _SPACE
    word_start = solid.copy()
    word_start[1:] &= ~solid[:-1]
    word_start[starts[:-1]] = solid[starts[:-1]]
    words = np.add.reduceat(word_start, starts[:-1], dtype=np.int64)
    n_solid = sizes - counts[:, _SPACE]
    filled = n_solid > 0
    solid_at = np.flatnonzero(solid)
    first = np.zeros(n, dtype=np.int64)
    last = np.zeros(n, dtype=np.int64)
    if len(solid_at):
        last_k = np.cumsum(n_solid)
        first[filled] = cps[solid_at[(last_k - n_solid)[filled]]]
        last[filled] = cps[solid_at[last_k[filled] - 1]]
    share = (counts[:, _SYMBOL] + counts[:, _EQUALS]) / np.maximum(n_solid, 1)
    signals = _is(first, _LEADS) | (_is(first, _LETTERS) & (counts[:, _EQUALS] > 0))
    signals |= _is(last, _ENDINGS) | _is(first, _OPENINGS)
    code = filled & (share >= 0.25)
    read = np.flatnonzero(filled & (signals | ((share >= 0.10) & (share < 0.25))))
    if len(read):  # looks_like_code's other rules
        cuts = zip(starts[read].tolist(), starts[read + 1].tolist())
        code[read] = [looks_like_code(block[a:b]) for a, b in cuts]
    letters = counts[:, :_N_LETTER]
    n_letters = letters.sum(axis=1)
    emoji = counts[:, _EMOJI]
    labels = np.argmax(letters, axis=1)
    labels = np.where(n_letters == 0, _LABEL_CODES["other"], labels)
    labels = np.where((emoji > 0) & (emoji >= n_letters), _EMOJI, labels)
    labels = np.where(code, _LABEL_CODES["code"], labels)
    labels = np.where(filled, labels, _LABEL_CODES["blank"])
    words = np.where(_SPACE_DELIMITED[labels], words, 0)
    return labels.astype(np.int64), words, joins


def _codes(chars: str) -> np.ndarray:
    return np.array(sorted(map(ord, chars)), dtype=np.int64)


# first and last characters (after white space) by which a rule of looks_like_code
# other than the symbols' share may apply (keywords are lower case, or start so)
_LETTERS = _codes("".join(_NAME_FIRST))  # (a name before "=")
_LEADS = _codes("".join({word[0] for word in _START_WORDS}))
_ENDINGS = _codes("".join(_LAST_CHARS))
_OPENINGS = _codes("".join(_FIRST_CHARS))


def _is(values: np.ndarray, codes: np.ndarray) -> np.ndarray:
    return np.isin(values, codes)
