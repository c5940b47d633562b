"""ASCII lines labelled from their UTF-8 bytes, as arrays, for the corpus
statistics' line tables (:mod:`tokexplorer.core.analysis.stats_lines`): per line
the label :func:`~tokexplorer.core.text.scripts.classify_line` gives and its words,
wherever the rules decide from byte sums and a few byte patterns alone, and which
lines are left to be read one by one.

* only white space: ``"blank"``;
* symbols (``{}()[];=<>+*/&|!%^~$#@\\:``) at least 25 % of the non-space
  characters: ``"code"`` (the share test says code whatever else the line holds);
* a line led by a name and holding ``=``: ``"code"`` when ``_CODE_ASSIGN`` matches
  its bytes (the pattern reads ASCII alike as text and as bytes);
* otherwise, unless it opens with a closing bracket or is led by a keyword that
  :func:`~tokexplorer.core.text.code_keywords.keyword_signal` reads on
  (:data:`~tokexplorer.core.text.code_keywords.SIGNAL_WORDS`, ``#include``, ``@x``...;
  a word that only starts like one, ``default`` or ``used``, is no keyword):
  ``"code"`` when the last non-space character is ``{``, ``}`` or ``;``, or ``:``
  after ``)``, or when 10-25 % are symbols and the line holds one of the operators
  (``==``, ``->``, ``()``...; two bytes each, looked up in a table of byte pairs);
  else not code, so ``"Latin"`` with a letter, else ``"other"``; its words are the
  runs of non-space bytes (ASCII white space is what ``str.split`` takes in
  ASCII text: ``\\t \\n \\v \\f \\r``, ``\\x1c``-``\\x1f``, the space).

In a block holding ``\\x1c``-``\\x1f`` (white space to ``str.strip``, not to the
patterns' ``\\s``) the lines holding them and those led by a name before ``=`` or
by any word of the keyword list are read one by one.

>>> import numpy as np
>>> raw = b"x = 1\\nthe end\\ndefault value\\nfor x in y:\\n"
>>> data = np.frombuffer(raw, dtype=np.uint8)
>>> ends = _line_ends(data)
>>> codes, words, by_hand = _ascii_labels(raw, data, np.concatenate(([0], ends[:-1])), ends)
>>> by_hand.tolist()  # the last line is led by a keyword: read one by one
[False, False, False, True]
>>> [SCRIPTS[c] for c in codes[:3].tolist()], words[:3].tolist()
(['code', 'Latin', 'Latin'], [0, 2, 2])
"""

from __future__ import annotations

import numpy as np
import regex

from tokexplorer.core.text import SCRIPTS
from tokexplorer.core.text.code_keywords import SIGNAL_WORDS

# the rules of looks_like_code, read here as byte tables
from tokexplorer.core.text.scripts import (
    _ASCII_LETTER_BYTES,
    _CODE_ASSIGN,
    _FIRST_CHARS,
    _LAST_CHARS,
    _NAME_FIRST,
    _OPERATORS,
    _START_WORDS,
    _SYMBOL_BYTES,
)

__all__: list[str] = []

_LABEL_CODES = {label: i for i, label in enumerate(SCRIPTS)}
_LATIN, _OTHER, _BLANK, _CODE = (_LABEL_CODES[s] for s in ("Latin", "other", "blank", "code"))


def _classes() -> bytes:
    """``bytes.translate`` table: each byte's class for :func:`_ascii_labels`."""
    table = bytearray([_SOLID] * 256)
    for chars, cls in ((_SYMBOL_BYTES, _SYMBOL), (_ASCII_LETTER_BYTES, _LETTER), (b"=", _EQUALS),
                       (b"\t\n\v\f\r\x1c\x1d\x1e\x1f ", _SPACE)):  # fmt: skip
        for byte in chars:
            table[byte] = cls
    return bytes(table)


def _table(chars: str) -> np.ndarray:
    table = np.zeros(256, dtype=bool)
    table[list(chars.encode("ascii"))] = True
    return table


# byte classes: white space (as str.split takes it in ASCII text), a symbol of
# looks_like_code other than "=", "=", an ASCII letter, anything else
_SPACE, _SYMBOL, _EQUALS, _LETTER, _SOLID = range(5)
_CLASSES = _classes()
_NAME = _table("".join(_NAME_FIRST))
_ENDING = _table("".join(_LAST_CHARS))
_OPENING = _table("".join(_FIRST_CHARS))
_CLOSING = _table("{};")  # the endings _CODE_END takes after any line


def _prefixes() -> np.ndarray:
    """Per first two bytes of a stripped line (first * 256 + second): whether a
    leading keyword of looks_like_code can start so (``@`` needs one byte)."""
    table = np.zeros(1 << 16, dtype=bool)
    for word in _START_WORDS:
        b = word.encode("ascii")
        if len(b) == 1:
            table[b[0] << 8 : (b[0] + 1) << 8] = True
        else:
            table[b[0] << 8 | b[1]] = True
    return table


_KEYWORD_PREFIX = _prefixes()


def _line_ends(data: np.ndarray) -> np.ndarray:
    """Byte offsets just after each line: after LF, after CR not followed by LF, the end."""
    cut = data == 0x0A
    cr = data == 0x0D
    cut[:-1] |= cr[:-1] & ~cut[1:]
    cut[-1] |= cr[-1]
    ends = np.flatnonzero(cut) + 1
    if not len(ends) or ends[-1] != len(data):
        ends = np.append(ends, len(data))
    return ends


#: The white space of ``str.strip`` in ASCII text (and of ``str.split``).
_ASCII_SPACES = b"\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f "
_START_BYTES = tuple(word.encode("ascii") for word in _START_WORDS)
# a leading lower-case word that keyword_signal reads on (the others give it None:
# then only the ending, the symbols and the operators decide, as for any line)
_SIGNAL_WORDS = b"|".join(w.encode("ascii") for w in sorted(SIGNAL_WORDS))
_SIGNAL_LEAD = regex.compile(rb"[\t\n\x0b\x0c\r ]*(?:" + _SIGNAL_WORDS + rb")(?![A-Za-z0-9_])")
# a line led so, or by one of _START_WORDS that is no lower-case word ("#include",
# "@"); in a block without \x1c-\x1f, where \s and str.strip take the same white space
_KEYWORD_LEAD = regex.compile(
    rb"[\t\n\x0b\x0c\r ]*(?:(?:"
    + _SIGNAL_WORDS
    + rb")(?![A-Za-z0-9_])|"
    + b"|".join(regex.escape(w.encode("ascii")) for w in _START_WORDS if not w[0].islower())
    + b")"
)
# _CODE_ASSIGN on an ASCII line's bytes (\s and \w read ASCII text alike in both)
_ASSIGN = regex.compile(_CODE_ASSIGN.pattern.encode("ascii"))


def _operator_pairs() -> np.ndarray:
    """Per two bytes (first * 256 + second): whether they are one of _CODE_OPERATOR's
    operators (each two ASCII characters, neither a line break)."""
    table = np.zeros(1 << 16, dtype=bool)
    for op in _OPERATORS:
        b = op.encode("ascii")
        table[b[0] << 8 | b[1]] = True
    return table


_OPERATOR_PAIRS = _operator_pairs()
_ODD = regex.compile(rb"[\x1c-\x1f]")


def _has_operator(data: np.ndarray, starts: np.ndarray, ends: np.ndarray, lines: np.ndarray) -> np.ndarray:
    """Per line of ``lines`` (indices, ascending; ``starts``, ``ends``: every line's
    byte range in ``data``): whether it holds one of _CODE_OPERATOR's operators. No
    operator holds a line break, so none runs from one line into the next: the
    lines' bytes are read joined, each pair counted for the line of its first byte."""
    if not len(lines):
        return np.zeros(0, dtype=bool)
    sizes = ends[lines] - starts[lines]
    if len(lines) == len(starts):
        some = data
    else:  # the lines' bytes, one after another
        at = np.repeat(starts[lines] - np.cumsum(sizes) + sizes, sizes) + np.arange(int(sizes.sum()))
        some = data[at]
    pairs = np.zeros(len(some), dtype=bool)
    pairs[:-1] = _OPERATOR_PAIRS[some[:-1].astype(np.uint16) << 8 | some[1:]]
    return np.add.reduceat(pairs, np.cumsum(sizes) - sizes, dtype=np.int64) > 0


def _name_leads(raw: bytes, starts: list[int], ends: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Per ASCII line led by a name and holding ``=`` (``starts``, ``ends``: byte
    ranges in ``raw``, a block without ``\\x1c``-``\\x1f``): whether its first word is
    one that keyword_signal reads on (the line is read one by one), and else
    whether _CODE_ASSIGN matches it (the line is code); bool arrays."""
    live = np.array([_SIGNAL_LEAD.match(raw, s, e) is not None for s, e in zip(starts, ends)], dtype=bool)
    assign = np.array([not k and _ASSIGN.match(raw[s:e]) is not None for s, e, k in zip(starts, ends, live.tolist())],
                      dtype=bool)  # fmt: skip
    return live, assign


def _ascii_labels(raw: bytes, data: np.ndarray, starts: np.ndarray, ends: np.ndarray):
    """Per line (``starts``, ``ends``: its byte range in ``raw``): label code and
    words where the byte sums decide them (see the module docstring), and which
    lines are to be read one by one (bool)."""
    cls = np.frombuffer(raw.translate(_CLASSES), dtype=np.uint8)

    def per_line(flags: np.ndarray) -> np.ndarray:
        return np.add.reduceat(flags, starts, dtype=np.int64)

    solid = cls != _SPACE
    n_solid = per_line(solid)
    word_start = solid.copy()
    word_start[1:] &= ~solid[:-1]
    word_start[starts] = solid[starts]  # a line's first byte starts a word unless it is a space
    n_equals = per_line(cls == _EQUALS)
    has_equals = n_equals > 0
    share = (per_line(cls == _SYMBOL) + n_equals) / np.maximum(n_solid, 1)
    filled = n_solid > 0
    solid_at = np.flatnonzero(solid)
    if not len(solid_at):
        solid_at = np.zeros(1, dtype=np.int64)
    # the lines tile the block: a line's first non-space byte is solid_at[k] with k
    # the non-space bytes of the lines before it; a blank line's (the next line's,
    # or the last one's) is masked by ``filled`` wherever it is read
    last_k = np.cumsum(n_solid)
    first_k = last_k - n_solid
    top = len(solid_at) - 1
    at = solid_at[np.minimum(first_k, top)]
    first = data[at]
    second = data[np.minimum(at + 1, len(data) - 1)]  # (another line's byte, or a space, after a 1-byte line)
    last = data[solid_at[np.clip(last_k - 1, 0, top)]]
    code = filled & (share >= 0.25)
    named = _NAME[first] & has_equals
    signals = named | _ENDING[last] | _OPENING[first] | (share >= 0.10)
    by_hand = filled & ~code
    maybe_keyword = np.flatnonzero(by_hand & _KEYWORD_PREFIX[first.astype(np.int64) << 8 | second])
    keyword = np.zeros(len(starts), dtype=bool)
    plain = _ODD.search(raw) is None
    if len(maybe_keyword):
        cuts = zip(starts[maybe_keyword].tolist(), ends[maybe_keyword].tolist())
        if plain:
            lead = _KEYWORD_LEAD.match
            found = [lead(raw, s, e) is not None for s, e in cuts]
        else:
            found = [raw[s:e].lstrip(_ASCII_SPACES).startswith(_START_BYTES) for s, e in cuts]
        keyword[maybe_keyword[np.array(found, dtype=bool)]] = True
    by_hand &= signals | keyword
    # read one by one: the lines led by a keyword keyword_signal reads on, those that
    # open with a closing bracket, and in a block with \x1c-\x1f (str.strip takes
    # them, the patterns' \s does not) those with a name before "="; elsewhere a
    # name before "=" is code when _CODE_ASSIGN matches the line's bytes, and the
    # other lines' signals are the ending and the operators
    decided = by_hand & ~keyword & ~_OPENING[first]
    if plain:
        named_at = np.flatnonzero(decided & named)
        if len(named_at):
            live, assign = _name_leads(raw, starts[named_at].tolist(), ends[named_at].tolist())
            decided[named_at[live]] = False
            code[named_at[assign]] = True
    else:
        decided &= ~named & (per_line((data >= 0x1C) & (data <= 0x1F)) == 0)
    decided &= ~code
    ending = _CLOSING[last]
    colon = np.flatnonzero(decided & (last == 0x3A) & (n_solid >= 2))
    if len(colon):  # "):" - the last but one non-space byte
        ending[colon] |= data[solid_at[last_k[colon] - 2]] == 0x29
    code[decided & ending] = True
    maybe = np.flatnonzero(decided & ~ending & (share >= 0.10))
    code[maybe] = _has_operator(data, starts, ends, maybe)
    by_hand &= ~decided & ~code
    codes = np.where(per_line(cls == _LETTER) > 0, _LATIN, _OTHER)
    codes[~filled] = _BLANK
    codes[code] = _CODE
    words = np.where(codes == _LATIN, per_line(word_start), 0)
    return codes, words, by_hand


def _ascii_line_labels(raw: bytes, starts: np.ndarray, ends: np.ndarray, ascii_lines: np.ndarray):
    """:func:`_ascii_labels` of the ASCII lines only (``ascii_lines``: bool per
    line; ``starts``, ``ends``: each line's byte range in ``raw``), read as one
    block of their own; the others are marked to be read one by one."""
    n = len(starts)
    codes, words, by_hand = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64), np.ones(n, dtype=bool)
    at = np.flatnonzero(ascii_lines)
    if len(at):
        some = b"".join([raw[s:e] for s, e in zip(starts[at].tolist(), ends[at].tolist())])
        some_ends = np.cumsum(ends[at] - starts[at])
        some_starts = np.concatenate(([0], some_ends[:-1]))
        data = np.frombuffer(some, dtype=np.uint8)
        codes[at], words[at], by_hand[at] = _ascii_labels(some, data, some_starts, some_ends)
    return codes, words, by_hand
