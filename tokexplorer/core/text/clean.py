"""The one cleaning rule applied to text before any tokenizer sees it.

Python ``str`` may hold *surrogate* code points (U+D800–U+DFFF), for example text
extracted from a PDF, or text decoded with ``errors="surrogateescape"``. They
have no UTF-8 encoding (``str.encode("utf-8")`` raises ``surrogates not
allowed``). Every path in tokexplorer (encode, count, compare, statistics,
export) calls :func:`clean_text` so that they all agree:

* a high surrogate followed by a low surrogate is joined into the one code point
  the pair stands for (``'\\ud83d\\ude42'`` -> ``'🙂'``);
* any other (lone) surrogate becomes U+FFFD REPLACEMENT CHARACTER (UTF-8
  ``EF BF BD``), and a note names it, so the change is never silent.

This matches what tiktoken itself does with lone surrogates in ``encode``.

>>> clean_text("caf\\udce9").text
'caf\\ufffd'
>>> clean_text("\\ud83d\\ude42").text == "\\U0001F642"
True
"""

from __future__ import annotations

from dataclasses import dataclass

import regex

_SURROGATE = regex.compile(r"[\ud800-\udfff]")
_PAIR_OR_LONE = regex.compile(r"[\ud800-\udbff][\udc00-\udfff]|[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class CleanText:
    """Result of :func:`clean_text`.

    Attributes:
        text: the cleaned text; always encodable as UTF-8.
        notes: one line per change, e.g. ``"lone surrogate U+D800 replaced by U+FFFD at character 0"``.
        changed: True when ``text`` differs from the input.
    """

    text: str
    notes: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return bool(self.notes)


def has_surrogates(text: str) -> bool:
    """True when ``text`` holds any surrogate code point (U+D800–U+DFFF).

    >>> has_surrogates("a\\ud800"), has_surrogates("a")
    (True, False)
    """
    return _SURROGATE.search(text) is not None


def clean_text(text: str, *, max_notes: int = 20) -> CleanText:
    """Return ``text`` made UTF-8-encodable by the rule in the module docstring.

    Args:
        text: any str.
        max_notes: at most this many individual notes; further changes are
            summarised in one final note.

    Returns:
        :class:`CleanText`. Text without surrogates is returned unchanged (same object).

    >>> clean_text("\\ud800x").notes
    ('lone surrogate U+D800 replaced by U+FFFD at character 0',)
    """
    if not has_surrogates(text):
        return CleanText(text)
    notes: list[str] = []
    n_changes = 0
    out: list[str] = []
    pos = 0
    out_len = 0  # length of the cleaned text so far, in code points
    for m in _PAIR_OR_LONE.finditer(text):
        out.append(text[pos : m.start()])
        out_len += m.start() - pos
        s = m.group()
        n_changes += 1
        if len(s) == 2:
            joined = s.encode("utf-16", "surrogatepass").decode("utf-16")
            out.append(joined)
            if len(notes) < max_notes:
                notes.append(
                    f"surrogate pair U+{ord(s[0]):04X} U+{ord(s[1]):04X} joined into "
                    f"U+{ord(joined):04X} at character {out_len}"
                )
        else:
            out.append("\ufffd")
            if len(notes) < max_notes:
                notes.append(
                    f"lone surrogate U+{ord(s):04X} replaced by U+FFFD at character {out_len}"
                )
        out_len += 1
        pos = m.end()
    out.append(text[pos:])
    if n_changes > len(notes):
        notes.append(f"... {n_changes - len(notes)} more surrogate changes")
    return CleanText("".join(out), tuple(notes))
