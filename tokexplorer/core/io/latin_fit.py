r"""How well a single-byte code page's reading of Latin-script text fits a language of that code page.

The Latin code pages read one another's bytes as letters too: French ``crème`` written in
cp1252 reads ``crčme`` in cp1250 and cp1257, ``naïve`` reads ``naļve`` in cp1257. Each reading
is words of one script with a natural case pattern, as plausible by the spelling measures of
:mod:`.guessing`; what tells them apart is which letters a language writes. :func:`latin_fit`
rates a reading by how often a language of the code page writes each of its characters past
ASCII (:data:`~.latin_letters.COUNTS`: counted in real translated text by
tools/make_latin_letters.py), in the language that makes it likeliest: ``é è à ç ï`` are the
common letters of French, while ``é č ļ ē ą`` together are written by no language of cp1257.

A code page's languages are the ones whose letters it can write (:func:`languages_of`: 99 % of
their letters past ASCII, counted by how often each is written), so cp1252 is rated as French,
German, Icelandic, Estonian...; cp1250 as Polish, Czech, German...; cp1257 as Lithuanian,
Latvian, Estonian.

The rating is a log-likelihood in nats, summed over the distinct words of the reading (a file
of one line repeated says no more than the line): comparing two readings of the same bytes,
the difference says how much likelier one is.

>>> fr = "Le médecin a préféré attendre la fin de l’été avant de rénover la façade".encode("cp1252")
>>> latin_fit("cp1252", fr.decode("cp1252")).language, latin_fit("cp1257", fr.decode("cp1257")).language
('French', 'Danish')
>>> gap = latin_fit("cp1252", fr.decode("cp1252")).score - latin_fit("cp1257", fr.decode("cp1257")).score
>>> round(gap)
25
"""

from __future__ import annotations

import codecs
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

__all__ = ["LATIN_MARGIN", "LatinFit", "MIN_SHARE", "latin_choice", "languages_of", "latin_fit"]

#: Share of a language's letters past ASCII (by how often each is written) from which a letter is
#: one of the language's own: a code page that writes them all is one of the language's (Dutch
#: messages name places with ``ā č š``, each under 2 % of their letters past ASCII).
MIN_SHARE = 0.02
#: How much likelier (in nats: 10 is e^10, 22,000 times) the best reading must be than another
#: reading of other text for that one to be no rival.
LATIN_MARGIN = 10.0
#: The k-th most used code page (k = 0, 1, ...) is taken to be written (k+1)^PRIOR_POWER times less
#: often than the most used one before its letters are rated.
PRIOR_POWER = 1.0
#: Mean log-likelihood of a character (nats) under which a reading fits its language badly
#: (no language of the table writes such text): its guess is never sure.
POOR_FIT = -6.0
#: Distinct words rated per reading (its first ones).
_MAX_WORDS = 400
#: The share of a text's characters past ASCII taken to be foreign to its language (names, loans).
_FOREIGN = 0.03
#: The share among the characters of European text of one that none was seen to write.
_UNSEEN = 1e-7


_WORDS = re.compile(r"[^ \t\n\r\f\v]+")  # parted by ASCII spaces: a C1 control (U+0085) is no space


@dataclass(frozen=True, slots=True)
class LatinFit:
    """How a reading fits the language of its code page that fits it best.

    Attributes:
        language: that language (``"French"``), ``""`` when the code page has none.
        score: the log-likelihood of the reading's characters past ASCII in it, in nats
            (0 or less; ``-inf`` for a code page with no language).
        rated: the characters past ASCII rated (those of distinct words, lower-cased).
    """

    language: str
    score: float
    rated: tuple[str, ...]

    @property
    def chars(self) -> int:
        """How many characters past ASCII were rated."""
        return len(self.rated)

    @property
    def per_char(self) -> float:
        """The mean log-likelihood of one character, in nats (0.0 when none was rated)."""
        return self.score / self.chars if self.chars else 0.0


def _lowered(ch: str) -> str:
    """``ch`` lower-cased where that is one character (``'İ'`` stays itself)."""
    low = ch.lower()
    return low if len(low) == 1 else ch


@cache
def _shares(language: str) -> dict[str, float]:
    """Character -> its share of the characters past ASCII ``language`` writes (``""``: every
    language's shares averaged, the characters of European text at large)."""
    from tokexplorer.core.io.latin_letters import COUNTS

    if language:
        total = sum(COUNTS[language].values())
        return {c: n / total for c, n in COUNTS[language].items()}
    mean: dict[str, float] = {}
    for other in COUNTS:
        for c, share in _shares(other).items():
            mean[c] = mean.get(c, 0.0) + share / len(COUNTS)
    return mean


@cache
def _log_probabilities(language: str) -> tuple[dict[str, float], float]:
    """Character -> its log-probability in text of ``language``, and the log-probability of a
    character no language was seen to write (a control, a symbol).

    A language's own shares, with :data:`_FOREIGN` of European text at large mixed in: French
    text names Czech places (``Plzeň``) now and then, never as often as Czech text does.
    """
    own, everyone = _shares(language), _shares("")
    logp = {c: math.log((1 - _FOREIGN) * own.get(c, 0.0) + _FOREIGN * share) for c, share in everyone.items()}
    return logp, math.log(_FOREIGN * _UNSEEN)


@cache
def languages_of(codec: str) -> tuple[str, ...]:
    """The languages of :data:`~.latin_letters.COUNTS` whose own letters past ASCII ``codec``
    writes (every letter of :data:`MIN_SHARE` or more of the language's letters past ASCII,
    by how often each is written), in the table's order; with them a language that writes no
    letter past ASCII (English) when ``codec`` writes its other characters (``’ “ ”``).

    >>> languages_of("cp1257")[-4:]
    ('Lithuanian', 'Latvian', 'Estonian', 'English')
    >>> "Turkish" in languages_of("cp1254"), "Turkish" in languages_of("cp1252")
    (True, False)
    """
    from tokexplorer.core.io.latin_letters import COUNTS

    try:
        codecs.lookup(codec)
    except LookupError:
        return ()

    def writes(c: str) -> bool:
        try:
            c.encode(codec)
        except UnicodeEncodeError:
            return False
        return True

    def writes_own(counts: dict[str, int], letters_only: bool) -> bool:
        kept = {c: n for c, n in counts.items() if c.isalpha() or not letters_only}
        total = sum(kept.values())
        return bool(total) and all(writes(c) for c, n in kept.items() if n >= MIN_SHARE * total)

    out = [lang for lang, counts in COUNTS.items() if writes_own(counts, True)]
    if out:  # a language writing no letter past ASCII (English) goes with them, where its punctuation is written
        out += [lang for lang, counts in COUNTS.items() if not any(c.isalpha() for c in counts)
                and writes_own(counts, False)]  # fmt: skip
    return tuple(out)


def _rated_chars(text: str) -> list[str]:
    """The characters past ASCII (lower-cased; spaces left out, C1 controls kept) of the first
    :data:`_MAX_WORDS` distinct words of ``text`` (parted by ASCII spaces) that hold one."""
    seen: set[str] = set()
    out: list[str] = []
    for m in _WORDS.finditer(text):  # the first words only: a long text is not split whole
        word = m.group()
        if word in seen or word.isascii():
            continue
        seen.add(word)
        out.extend(_lowered(c) for c in word if ord(c) >= 0x80 and (ord(c) < 0xA0 or not c.isspace()))
        if len(seen) >= _MAX_WORDS:
            break
    return out


def latin_fit(codec: str, text: str) -> LatinFit:
    """How well ``text``, ``codec``'s reading of some bytes, fits the language of ``codec``
    (:func:`languages_of`) that makes it likeliest (the first of equal ones).

    >>> latin_fit("cp1250", "Żółć").language, latin_fit("cp1006", "caf\ufee0").score
    ('Polish', -inf)
    """
    chars = tuple(_rated_chars(text))
    best = LatinFit("", -math.inf, chars)
    for language in languages_of(codec):
        logp, unseen = _log_probabilities(language)
        score = sum(logp.get(c, unseen) for c in chars)
        if score > best.score:
            best = LatinFit(language, score, chars)
    return best


def latin_choice(readings: dict[str, str], order: Callable[[str], int]) -> tuple[str, tuple[str, ...], bool]:
    """The reading of Latin-script text that fits a language of its code page best, its rivals,
    and whether the choice is sure.

    Args:
        readings: codec -> its reading of the same bytes (single-byte code pages only).
        order: a codec's rank by use, 0 for the most widely used, for the prior of
            :data:`PRIOR_POWER` (one ``è`` in cp1252 or ``č`` in cp1250: cp1252).

    Returns:
        ``(codec, rivals, sure)``: ``rivals`` the codecs reading other text that fit within
        :data:`LATIN_MARGIN` of it, in ``order``; ``sure`` False when the chosen reading fits its
        language poorly (:data:`POOR_FIT`). A codec with no language (:func:`languages_of`) is
        never chosen while another has one.

    >>> rank = {"cp1252": 0, "cp1250": 7, "cp1257": 15}.get
    >>> latin_choice({"cp1257": "naļve faēade, déją vu, élčve", "cp1252": "naïve façade, déjà vu, élève"}, rank)
    ('cp1252', ('cp1257',), True)
    >>> latin_choice({"cp1250": "crčme", "cp1252": "crème"}, rank)
    ('cp1252', ('cp1250',), True)
    """
    fits = {name: latin_fit(name, text) for name, text in readings.items()}
    names = sorted(readings, key=order)
    # the likeliest, the code page's use its prior (PRIOR_POWER)
    best = max(names, key=lambda n: fits[n].score - PRIOR_POWER * math.log1p(order(n)))  # the first of equals
    rivals = tuple(
        n for n in names if readings[n] != readings[best] and _margin(fits[best], fits[n]) < LATIN_MARGIN
    )
    return best, rivals, fits[best].per_char >= POOR_FIT


def _margin(best: LatinFit, other: LatinFit) -> float:
    """How much likelier (nats) ``best`` is than ``other``, a reading of the same bytes: the
    lesser of the whole readings' difference and that of the characters where they differ,
    each in its own language (a page that names Hungarian places in German text fits
    Hungarian best, yet its one ``ñ``, read ``ń`` in cp1250, is no Hungarian letter)."""
    whole = best.score - other.score
    if len(best.rated) != len(other.rated):
        return whole
    mine, theirs = _log_probabilities(best.language), _log_probabilities(other.language)
    apart = sum(
        mine[0].get(a, mine[1]) - theirs[0].get(b, theirs[1]) for a, b in zip(best.rated, other.rated) if a != b
    )
    return min(whole, apart)
