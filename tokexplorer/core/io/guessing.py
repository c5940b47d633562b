r"""Guessing the encoding of bytes that are not UTF-8, and saying how sure the guess is.

Only the bytes from 0x80 up tell ASCII-compatible encodings apart, so a guess is
as good as the number of them (its *evidence*). :func:`encoding_guess` works in three steps:

1. **charset-normalizer's choice**, corrected where it is weakest
   (:func:`charset_choice`), near ties of Latin code pages settled for cp1252.
2. **Plausible readings.** Every candidate (charset-normalizer's, and each
   encoding of :data:`PREVALENCE`) that decodes the bytes strictly gets a
   plausibility in [-2, 1] (:func:`reading_fit`): for an East Asian codec, how
   much of the text is in the codec's own scripts and among its most frequent
   characters; for a single-byte code page, how much of the text makes words of
   one script with a natural case pattern (``'Привет'`` in cp1251, not ``'Ïðèâåò'``
   in cp1252, ``'cafй'`` in cp1251 or ``'café'`` + an Arabic letter in cp1006).
   The readings within :data:`TIE` of the best are the plausible ones.
3. **The choice.** charset-normalizer's choice stands when its reading is
   plausible and either the sample has :data:`LONG_EVIDENCE` non-ASCII bytes or
   more, or charset-normalizer told it apart (it recognised a language and rated
   no other reading about as well: :func:`_decisive`). Otherwise (a short
   sample, where charset-normalizer's candidates all score alike and its order
   among them means nothing) the first plausible reading is taken: an East Asian
   one made of its codec's frequent characters first (a strict decode into them is
   evidence by itself, while any bytes decode in a single-byte code page), then
   by :data:`PREVALENCE`, the most widely used encoding first, unless a single-byte
   reading in Cyrillic, Greek, Hebrew or Arabic of five letters or more has letters more
   common in its language than the first one's (:mod:`.letter_fit`: ``'תודה רבה'`` in
   cp1255, not ``'ъегд шбд'`` in cp1251; or a Hebrew one with two words that end in a
   final letter, ``'שלום עולם'``: :func:`_by_letters`). A Hebrew or Greek word
   with a final letter inside it (``'לטנ'``, Russian ``'мир'`` read as cp1255) is
   misspelt (:func:`_misplaced_form`). Last, of the
   single-byte code pages that read the sample to the same text, the most widely
   used is named (cp1250 reads ``'Grüße'`` as cp1252 does; cp1252 is named).

4. **Latin letters.** When the choice is a single-byte code page of Latin script, its
   reading and the other Latin readings within :data:`LATIN_TIE` of the best plausibility
   (cp1252, cp1250, cp1257, cp1254, their ISO twins, mac_roman...) are rated by the letters
   a language of each code page writes (:func:`~.latin_fit.latin_choice`): the likeliest is
   chosen, and a reading of other text its letters cannot tell apart is a rival, whatever
   charset-normalizer said (it rates French cp1252 as cp1257, ``'crčme, naļve faēade'``).

The guess is *high* confidence with :data:`SURE_EVIDENCE` non-ASCII bytes or
more and no *rival* (a plausible reading that gives another text, unless
charset-normalizer told its choice apart); *medium* with :data:`LONG_EVIDENCE` or
more and rivals (long French text reads as cp1252 and, as plausibly by these
measures, as cp1250: cp1252 is the more widely used); else *low*. The
note (:meth:`EncodingGuess.note`) says which, and the reader always names the
codec it used.

>>> encoding_guess(b"caf\xe9").codec, encoding_guess(b"caf\xe9").confidence
('cp1252', 'low')
>>> encoding_guess("Привет".encode("cp1251")).codec
'cp1251'
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass
from typing import TYPE_CHECKING

import regex
import unicodedata2

from tokexplorer.core.io.cjk_fit import cjk_scripts, east_asian_score, frequent_reading, language_share
from tokexplorer.core.io.latin_fit import languages_of, latin_choice
from tokexplorer.core.io.letter_fit import LETTER_MARGIN, letter_score, scored_script

if TYPE_CHECKING:
    from charset_normalizer import CharsetMatch

__all__ = ["EncodingGuess", "PREVALENCE", "encoding_guess", "charset_choice", "reading_fit"]

#: Legacy encodings, most widely used first: roughly their order by share of web pages in
#: W3Techs' survey of character encodings (ISO-8859-1 pages counted as windows-1252, as the
#: WHATWG Encoding Standard decodes them; GB2312 pages as gbk, EUC-KR as cp949). latin-1,
#: which reads any bytes, comes last.
PREVALENCE: tuple[str, ...] = (
    "cp1252", "cp1251", "cp932", "euc_jp", "gbk", "gb18030", "cp949", "cp1250", "big5", "cp1254",
    "cp1256", "iso8859-2", "cp1253", "cp1255", "cp874", "cp1257", "koi8-r", "iso8859-15", "latin-1",
)  # fmt: skip
#: Readings whose plausibility is within this of the best one are equally plausible.
TIE = 0.1
#: Latin code pages read besides :data:`PREVALENCE`'s and charset-normalizer's (:mod:`.latin_fit` rates them).
_MORE_LATIN = ("iso8859-13", "iso8859-9", "mac-roman")
#: Latin readings whose plausibility is within this of the best one are rated by their letters
#: (:func:`~.latin_fit.latin_choice`).
LATIN_TIE = 1.0
#: Non-ASCII bytes from which charset-normalizer's own choice stands when its reading is plausible.
LONG_EVIDENCE = 64
#: Fewest non-ASCII bytes for a high-confidence guess.
SURE_EVIDENCE = 16
#: Words with a non-ASCII character scored per reading (the first ones of the sample).
_MAX_WORDS = 400
#: Characters of an East Asian reading scored (its start).
_MAX_CHARS = 20_000

#: A word holding a character past ASCII; dashes (``to—reading``, ``1990–2000``) and the
#: ellipsis part words as spaces do, so a dash between two words is no junk inside one.
_WORD = regex.compile(r"[^\s!-/:-@\[-`{-~\p{Pd}\u2026]*[^\x00-\x7f\p{Pd}\u2026][^\s!-/:-@\[-`{-~\p{Pd}\u2026]*")
_LETTERS = regex.compile(r"\p{L}[\p{L}\p{M}]*")
#: Punctuation a word may open with (quotes, brackets, ¡ ¿) or close with (those and . , ; … ?).
_EDGES = regex.compile(r"^[\p{Ps}\p{Pi}\p{Pf}¡¿]+|[\p{Pe}\p{Pi}\p{Pf}\p{Po}]+$")
#: Letters of cp1252 that are rare in text but stand for common letters in other code pages
#: (cp1250 đ ţ, the ordinals ª º, µ, ƒ): they count for nothing in a reading.
_UNLIKELY_LETTERS = frozenset("ðÐþÞªºµƒ")
#: A symbol, punctuation, digit, space or control past ASCII next to a letter (``'ÇÑ±¹¾î'``,
#: ``'؛×ض'``), but for one after a digit (``20°C``).
_JUNK_BY_LETTER = regex.compile(r"\p{L}[^\p{L}\p{M}\x00-\x7f]|(?<!\d)[^\p{L}\p{M}\x00-\x7f]\p{L}")
#: An apostrophe or a middle dot between two letters (``l’été``, ``col·lecció``): part of the word.
_IN_WORD = regex.compile(r"(?<=\p{L})[\u2019\u02bc\u00b7](?=\p{L})")


@dataclass(frozen=True, slots=True)
class EncodingGuess:
    """A guessed encoding and how sure it is.

    Attributes:
        codec: a Python codec name (``"cp1252"``, ``"gb18030"``).
        confidence: ``"high"``, ``"medium"`` or ``"low"`` (see the module docstring).
        evidence: how many bytes of the sample are not ASCII (the bytes that tell encodings apart).
        rivals: other encodings that read the sample as plausibly into another text, most widely used first.
    """

    codec: str
    confidence: str
    evidence: int
    rivals: tuple[str, ...] = ()

    def note(self) -> str:
        """What the reader says about the guess, in the terms of no front end.

        >>> EncodingGuess("cp1252", "low", 1, ("cp1251",)).note()
        'guessed, low confidence: 1 non-ASCII byte to go by, and cp1251 reads it as well'
        >>> EncodingGuess("gbk", "high", 310).note()
        'guessed, high confidence: 310 non-ASCII bytes to go by'
        """
        from tokexplorer.core.text import codec_name

        n = self.evidence
        text = f"guessed, {self.confidence} confidence: {n:,} non-ASCII byte{'s' if n != 1 else ''} to go by"
        if self.rivals:
            names = [codec_name(c) for c in self.rivals[:3]]
            verb = "reads" if len(names) == 1 else "read"
            text += f", and {', '.join(names)} {verb} it as well"
        return text


def _evidence(sample: bytes) -> int:
    """The number of bytes from 0x80 up."""
    return len(sample.translate(None, bytes(range(0x80))))


def _decoded(codec: str, sample: bytes, *, sample_is_cut: bool) -> str | None:
    """``sample`` decoded strictly with ``codec`` (a character cut by the end of a sample
    that is not the whole file dropped), or None when it does not decode."""
    try:
        return sample.decode(codec)
    except UnicodeDecodeError as exc:
        if sample_is_cut and exc.start >= len(sample) - 4:
            try:
                return sample[: exc.start].decode(codec)
            except UnicodeDecodeError:
                return None
        return None
    except LookupError:
        return None


def _single_byte_fit(text: str) -> float:
    r"""How plausible a single-byte code page's reading is, in [-2, 1].

    Over the non-ASCII characters of the words that hold one (punctuation and
    symbols at a word's edges left out: ``«``, ``€``, ``°``): a letter counts for
    (1) when its word is of one script with a natural case pattern (lower,
    Capitalized or UPPER; an upper-case word counts half, the letters of
    :data:`_UNLIKELY_LETTERS` nothing), against (-2) when the
    word mixes scripts or case, is Latin with more than half its letters not ASCII
    (Latin-script languages write most letters in ASCII), or has a symbol, digit or
    control character among its letters (``'ÇÑ±¹¾î'``).

    >>> _single_byte_fit("Привет"), _single_byte_fit("Ïðèâåò"), _single_byte_fit("cafй")
    (1.0, -2.0, -2.0)
    """
    good = bad = total = 0.0
    for k, m in enumerate(_WORD.finditer(text)):
        if k >= _MAX_WORDS:
            break
        inner = _IN_WORD.sub("", _EDGES.sub("", m.group()))
        wide = sum(ord(c) >= 0x80 for c in inner)
        total += wide
        letters = _LETTERS.findall(inner)
        scripts = {_script(w) for w in letters}
        if _JUNK_BY_LETTER.search(inner) or len(scripts) > 1 or "Mixed" in scripts:
            bad += wide
            continue
        for w in letters:
            n_wide = sum(ord(c) >= 0x80 for c in w)
            cased = w.lower() != w.upper()
            natural = not cased or w.islower() or w.isupper() or (w[0].isupper() and w[1:].islower())
            misspelt = not natural or _misplaced_form(w)
            if misspelt or (_script(w) == "Latin" and 2 * n_wide > len(w) + 1):
                bad += n_wide
            else:
                rare = sum(c in _UNLIKELY_LETTERS for c in w)
                good += (n_wide - rare) * (0.5 if cased and len(w) > 1 and w.isupper() else 1.0)
        good += 0.5 * (wide - sum(ord(c) >= 0x80 for w in letters for c in w))  # a symbol by a digit: 20°C
    return (good - 2 * bad) / total if total else 0.0


#: Letters whose form shows their place in a word, by the script that has them: the
#: forms written only last in a word (Hebrew's five final letters, Greek's final sigma)
#: and the forms of the same letters never written last.
_FINAL_FORMS = {"Hebrew": ("ךםןףץ", "כמנפצ"), "Greek": ("ς", "σ")}


def _misplaced_form(word: str) -> bool:
    """True when a word of two letters or more breaks the rule of :data:`_FINAL_FORMS`: a
    final form inside it, or at its end a form never written last (a one-letter word, an
    abbreviation such as ``'צ'`` of ``צ'יפס``, breaks nothing). Russian read as cp1255 mostly
    breaks it (``'мир'`` is ``'לטנ'``), as Russian read as cp1253 does (``'утро'`` is ``'σςπξ'``).

    >>> _misplaced_form("שלום"), _misplaced_form("לטנ"), _misplaced_form("σςπξ"), _misplaced_form("λόγος")
    (False, True, True, False)
    """
    letters = [c for c in word if unicodedata2.category(c)[0] == "L"]
    return len(letters) >= 2 and any(
        any(c in finals for c in letters[:-1]) or letters[-1] in others for finals, others in _FINAL_FORMS.values()
    )


_SCRIPTS = ("Latin", "Cyrillic", "Greek", "Arabic", "Hebrew", "Thai", "Armenian", "Georgian")
_SCRIPT_RES = {s: regex.compile(rf"\p{{Script={s}}}") for s in _SCRIPTS}
_INHERITED = regex.compile(r"\p{Script=Inherited}")


def _script(word: str) -> str:
    """The script of a word's letters and marks: one of :data:`_SCRIPTS`, ``"Other"``,
    ``"Mixed"`` when they are of several, ``"Common"`` for none (a mark of the
    Inherited script, U+0301, goes with its letter; a Thai tone mark is Thai).

    >>> _script("caf\u00e9"), _script("caf\u0e49"), _script("e\u0301")
    ('Latin', 'Mixed', 'Latin')
    """
    found = set()
    for c in word:
        if unicodedata2.category(c)[0] not in "LM" or _INHERITED.match(c):
            continue
        found.add(next((s for s, r in _SCRIPT_RES.items() if r.match(c)), "Other"))
    return found.pop() if len(found) == 1 else "Mixed" if found else "Common"


def reading_fit(codec: str, text: str) -> float:
    """How plausible ``text`` is as what ``codec`` was used to write, in [-2, 1]:
    :func:`~.cjk_fit.east_asian_score` for an East Asian codec, else
    :func:`_single_byte_fit`.

    >>> reading_fit("gbk", "汉字"), reading_fit("cp1252", "ºº×Ö")
    (1.0, -2.0)
    """
    if cjk_scripts(codec) is not None:
        return east_asian_score(codec, text[:_MAX_CHARS])
    return _single_byte_fit(text)


#: Single-byte code pages for Latin-script languages (Python codec names).
_LATIN_SINGLE_BYTE = frozenset(
    codecs.lookup(c).name
    for c in ("cp1250", "cp1252", "cp1254", "cp1257", "latin-1", "iso8859-2", "iso8859-3",
              "iso8859-4", "iso8859-9", "iso8859-10", "iso8859-13", "iso8859-14", "iso8859-15",
              "iso8859-16", "mac-latin2", "mac-roman", "cp850", "cp852")
)  # fmt: skip

#: cp1252 characters that are rare in Western European text but stand for
#: letters in the other Latin code pages (cp1250 đ ţ ş ą ł ľ, cp1254 ğ ş...):
#: a cp1252 reading that holds one is probably a misreading.
_NOT_WESTERN = frozenset("ðÐþÞ¹²³¼½¾ºª¤¦¨¸¯¥µƒ")


def _ascii_compatible(codec: str) -> bool:
    """True when ``codec`` reads ASCII bytes as ASCII (not UTF-16/32, not EBCDIC)."""
    probe = b"Az09 .,\n"
    try:
        return probe.decode(codec) == probe.decode("ascii")
    except (UnicodeDecodeError, LookupError):
        return False


def guess_sample(data: bytes) -> bytes:
    """The 256 KiB a guess is made on: from the line where the first non-ASCII byte is
    (ASCII before it reads alike in every candidate, so a long English start would
    leave nothing to tell GBK from Latin-1), ended at a line break where one is near
    (a character cut by the end misleads charset-normalizer).

    >>> guess_sample(b"ab\\ncd\\n" * 100_000 + b"x\\xe9\\n")
    b'x\\xe9\\n'
    """
    try:
        data.decode("ascii")
        start = 0
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
    sample = data[start : start + (1 << 18)]
    if start + len(sample) < len(data):
        end = sample.rfind(b"\n")
        sample = sample[: end + 1] if end >= len(sample) // 2 else sample
    return sample


def charset_choice(sample: bytes) -> tuple[str, list[CharsetMatch]]:
    """charset-normalizer's best ASCII-compatible guess for ``sample``, a Latin near
    tie settled by :func:`_latin_tie_break`, with its matches (best first).

    UTF-16/32 without a byte order mark would hold NUL bytes in any text of Latin
    script; such files are refused as binary before a guess, so a UTF-16/32 reading
    of what is left is a misreading (``b"Ma\\xf1ana"``). Likewise an EBCDIC reading
    (cp037...) of text whose ASCII letters read as ASCII in every other candidate:
    only ASCII-compatible codecs are kept. ``"latin-1"`` when none is left.
    """
    from charset_normalizer import from_bytes

    results = [m for m in from_bytes(sample) if _ascii_compatible(m.encoding)]
    if not results:
        return "latin-1", results
    choice = codecs.lookup(results[0].encoding).name
    if len(sample.decode(choice, "replace")) == len(sample):  # a single-byte guess
        choice = _latin_tie_break(choice, results, sample)
    return choice, results


def _latin_tie_break(choice: str, results: list[CharsetMatch], sample: bytes) -> str:
    """The single-byte guess corrected among charset-normalizer's near ties.

    charset-normalizer often scores several Latin code pages almost alike on
    short text (French read as Baltic cp1257, Polish as cp1252). Among near
    ties take the most common one, Western European cp1252, unless its reading
    holds characters that are letters only in the others.
    """
    best = results[0]
    near = [
        name
        for name, m in ((codecs.lookup(m.encoding).name, m) for m in results)
        if name in _LATIN_SINGLE_BYTE and m.chaos <= best.chaos + 0.1 and m.coherence >= best.coherence - 0.05
    ]
    western = not _NOT_WESTERN.intersection(sample.decode("cp1252", "ignore"))
    if "cp1252" in near and western:
        return "cp1252"
    if choice == "cp1252" and not western:
        # then the most common Central European one, cp1250, if it is near
        others = sorted((c for c in near if c != "cp1252"), key=lambda c: c != "cp1250")
        return others[0] if others else choice
    return choice


def _order(codec: str, text: str) -> tuple[int, float, int]:
    """Sort key of the plausible readings: first an East Asian reading made of the codec's
    frequent characters (:func:`~.cjk_fit.frequent_reading`); then the others. In each
    group, an East Asian reading with more of its language's most frequent characters
    (:func:`~.cjk_fit.language_share`) first, then by :data:`PREVALENCE`."""
    if cjk_scripts(codec) is None:
        return 1, 0.0, _rank(codec)
    head = text[:_MAX_CHARS]
    return (0 if frequent_reading(codec, head) else 1), -language_share(codec, head), _rank(codec)


_RANKS = {codecs.lookup(c).name: k for k, c in enumerate(PREVALENCE)}


def _rank(codec: str) -> int:
    """Position of ``codec`` (a Python codec name) in :data:`PREVALENCE`, after all of them for any other."""
    return _RANKS.get(codec, len(_RANKS))


def encoding_guess(data: bytes) -> EncodingGuess:
    """Guess the encoding of bytes that are not UTF-8, by the rule of the module docstring.

    Args:
        data: the file's bytes (256 KiB of them are read, from the first non-ASCII byte's line).

    Returns:
        :class:`EncodingGuess`; its codec ``"latin-1"`` when nothing else reads the bytes.
    """
    sample = guess_sample(data)
    cut = not data.endswith(sample)
    evidence = _evidence(sample)
    choice, results = charset_choice(sample)
    names = [choice] + [codecs.lookup(m.encoding).name for m in results]
    names += [codecs.lookup(c).name for c in PREVALENCE + _MORE_LATIN]
    readings: dict[str, str] = {}
    for name in dict.fromkeys(names):
        text = _decoded(name, sample, sample_is_cut=cut)
        if text is not None and _ascii_compatible(name):
            readings[name] = text
    if not readings or evidence == 0:
        return EncodingGuess(choice, "high" if evidence else "low", evidence)
    fits = {name: reading_fit(name, text) for name, text in readings.items()}
    best = max(fits.values())
    plausible = sorted((n for n, f in fits.items() if f >= best - TIE), key=lambda n: _order(n, readings[n]))
    decisive = _decisive(choice, results, readings)
    if choice not in plausible or not (decisive or evidence >= LONG_EVIDENCE):
        plausible = _by_letters(plausible, readings)
        choice, decisive = plausible[0], False
    sure, pool, latin_rivals = True, plausible, None
    if _latin_reading(choice, readings[choice], sample):  # which Latin language's letters: latin_fit
        latin = {n: t for n, t in readings.items() if fits[n] >= best - LATIN_TIE and _latin_reading(n, t, sample)}
        choice, named, sure = latin_choice(latin, _rank)
        others = {n for n in plausible if n not in latin and readings[n] != readings[choice]}
        pool = sorted(plausible + [n for n in latin if n not in plausible], key=_rank)
        latin_rivals = tuple(n for n in pool if n in others or n in named)
    text = readings[choice]
    if len(text) == len(sample):  # a single-byte code page: the most used one of the same reading
        choice = min((n for n in pool if readings[n] == text), key=_rank)
    if latin_rivals is not None:
        rivals = latin_rivals
    else:
        rivals = () if decisive else tuple(n for n in plausible if readings[n] != text)
    if evidence >= SURE_EVIDENCE and not rivals and sure:
        return EncodingGuess(choice, "high", evidence)
    return EncodingGuess(choice, "medium" if evidence >= LONG_EVIDENCE else "low", evidence, rivals)


def _latin_reading(codec: str, text: str, sample: bytes) -> bool:
    """True when ``text`` is a single-byte code page's reading of ``sample`` with a language of
    Latin script (:func:`~.latin_fit.languages_of`) and its letters past ASCII not mostly
    Cyrillic, Greek, Hebrew or Arabic."""
    return len(text) == len(sample) and bool(languages_of(codec)) and scored_script(text[:_MAX_CHARS]) is None


def _by_letters(plausible: list[str], readings: dict[str, str]) -> list[str]:
    """The plausible readings with a single-byte one in Cyrillic, Greek, Hebrew or Arabic
    moved first when its letters are more common in its language (:func:`~.letter_fit.letter_score`
    higher by :data:`~.letter_fit.LETTER_MARGIN`) than the first one's, itself a single-byte
    reading in one of these scripts: ``'תודה רבה'`` in cp1255 before ``'ъегд шбд'`` in cp1251,
    more widely used. Else a Hebrew reading with two words ending in a final letter
    (:func:`_hebrew_final_words`) and letters as common as the first one's is moved first.
    A Latin first reading stays first (``'à'`` in cp1252, not ``'а'`` in cp1251)."""
    first = plausible[0]
    if cjk_scripts(first) is not None or scored_script(readings[first]) is None:
        return plausible
    single = [n for n in plausible if n in _RANKS and cjk_scripts(n) is None and scored_script(readings[n])]
    scores = {n: letter_score(readings[n]) for n in single}
    best = max(single, key=lambda n: scores[n])  # the first of equal ones: the most widely used
    if scores[best] > scores[first] + LETTER_MARGIN:
        return [best] + [n for n in plausible if n != best]
    hebrew = [n for n in single if scores[n] >= scores[first] and _hebrew_final_words(readings[n]) >= 2]
    if hebrew and first not in hebrew:  # 'שלום עולם', not 'щмен темн'
        return [hebrew[0]] + [n for n in plausible if n != hebrew[0]]
    return plausible


def _hebrew_final_words(text: str) -> int:
    """Words of ``text`` (its first :data:`_MAX_WORDS` with a letter past ASCII) that end in one
    of Hebrew's five final letters: a reading that is Hebrew shows them, while Russian read
    as cp1255 breaks the rule in most words (:func:`_misplaced_form`).

    >>> _hebrew_final_words("שלום עולם"), _hebrew_final_words("ספר")
    (2, 0)
    """
    finals = _FINAL_FORMS["Hebrew"][0]
    n = 0
    for k, m in enumerate(_WORD.finditer(text)):
        if k >= _MAX_WORDS:
            break
        n += sum(len(w) >= 2 and w[-1] in finals for w in _LETTERS.findall(m.group()))
    return n


def _decisive(choice: str, results: list[CharsetMatch], readings: dict[str, str]) -> bool:
    """True when charset-normalizer told ``choice`` apart: it recognised a language in its
    reading (coherence above 0) and rated no candidate that reads the sample otherwise
    about as well (chaos within 0.1, coherence within 0.05, the margins of :func:`_latin_tie_break`)."""
    matches = {codecs.lookup(m.encoding).name: m for m in reversed(results)}
    best = matches.get(choice)
    if best is None or best.coherence <= 0 or choice not in readings:
        return False
    return not any(
        readings.get(name, readings[choice]) != readings[choice]
        and m.chaos <= best.chaos + 0.1
        and m.coherence >= best.coherence - 0.05
        for name, m in matches.items()
    )
