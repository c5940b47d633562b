"""How common the letters of a single-byte reading are in a language of its script.

Short Hebrew in cp1255 reads as lower-case Cyrillic in cp1251 (``'שלום'`` is ``'щмен'``),
Greek in cp1253 too (``'ευχαριστώ'`` is ``'ехчбсйуфю'``): words of one script with a natural
case pattern, as plausible as the right reading by the spelling measures of
:mod:`.guessing`. The letters tell them apart: ``ש ל ו ם`` are among the most frequent
letters of Hebrew, while ``щ`` is among the rarest of Russian. :func:`letter_score` rates
a reading by the frequency rank of its letters, in charset-normalizer's tables of the 26
most frequent letters per language (for Cyrillic the best of Russian, Ukrainian and
Bulgarian).

>>> letter_score("שלום") > letter_score("щмен") + LETTER_MARGIN
True
>>> letter_score("сон") > letter_score("סמם") + LETTER_MARGIN
True
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import islice

import regex

__all__ = ["LETTER_MARGIN", "MIN_LETTERS", "SCORED_SCRIPTS", "letter_score", "scored_script"]

#: Script -> the languages whose letter frequencies rate a reading in it.
SCORED_SCRIPTS: dict[str, tuple[str, ...]] = {
    "Cyrillic": ("Russian", "Ukrainian", "Bulgarian"),
    "Greek": ("Greek",),
    "Hebrew": ("Hebrew",),
    "Arabic": ("Arabic",),
}
#: How much higher a reading's :func:`letter_score` must be to be named before a more
#: widely used code page's (a smaller difference says nothing on a few letters).
LETTER_MARGIN = 0.1
#: Fewest letters a reading's :func:`letter_score` is compared on (fewer say nothing:
#: ``'дух'`` rates 0.38 in Cyrillic and 0.81 read as Arabic in cp1256).
MIN_LETTERS = 5
#: Letters rated per reading (its first ones).
_MAX_LETTERS = 2000

_SCRIPT_RES = {s: regex.compile(rf"\p{{Script={s}}}") for s in SCORED_SCRIPTS}
_LETTER = regex.compile(r"[^\P{L}\x00-\x7f]")  # a letter past ASCII


@cache
def _weights(language: str) -> dict[str, float]:
    """Letter -> 1 for a language's most frequent letter down to 1/26 for its 26th."""
    from charset_normalizer.constant import FREQUENCIES

    letters = FREQUENCIES.get(language, [])
    return {c: 1 - k / len(letters) for k, c in enumerate(letters)}


def _letters(text: str) -> list[str]:
    """The letters past ASCII of ``text``, lower-cased (its first :data:`_MAX_LETTERS`): ASCII
    reads alike in every candidate, so an English line around tells nothing."""
    return [m.group().lower() for m in islice(_LETTER.finditer(text), _MAX_LETTERS)]


def _main_script(letters: list[str]) -> str | None:
    """The script of :data:`SCORED_SCRIPTS` that more than half of ``letters`` are in, else None."""
    if not letters:
        return None
    by_script = Counter(next((s for s, r in _SCRIPT_RES.items() if r.match(c)), "") for c in letters)
    script, n = by_script.most_common(1)[0]
    return script if script and 2 * n > len(letters) else None


def scored_script(text: str) -> str | None:
    """The script of :data:`SCORED_SCRIPTS` that more than half of ``text``'s letters past ASCII
    are in, with :data:`MIN_LETTERS` of them at least, else None.

    >>> scored_script("Привет, world"), scored_script("café"), scored_script("дух, world")
    ('Cyrillic', None, None)
    """
    letters = _letters(text)
    return _main_script(letters) if len(letters) >= MIN_LETTERS else None


def letter_score(text: str) -> float:
    """How common the letters past ASCII of ``text``'s main script are, in [0, 1]: their mean weight
    (1 for the most frequent letter of the language, down to 1/26 for its 26th, 0 for one
    outside its 26), in the script's language that rates them best (lower-cased; the
    first :data:`_MAX_LETTERS` letters). 0.0 for text whose letters are mostly in no script
    of :data:`SCORED_SCRIPTS` (Latin, Thai...).

    >>> round(letter_score("оно"), 3), letter_score("abc")  # Ukrainian's о (1st) and н (3rd of 26)
    (0.974, 0.0)
    """
    letters = _letters(text)
    script = _main_script(letters)
    if script is None:
        return 0.0
    own = [c for c in letters if _SCRIPT_RES[script].match(c)]
    return max(sum(_weights(lang).get(c, 0.0) for c in own) / len(own) for lang in SCORED_SCRIPTS[script])
