"""Real text in European languages: the translations that programs install as gettext
catalogues (``/usr/share/locale/LANG/LC_MESSAGES/*.mo``), read here for
tools/make_latin_letters.py (letter statistics) and tools/encoding_accuracy.py (how often
the encoding guess is right).

Each language's catalogues are split in two by name: every third one (the 1st, 4th, ...)
is kept for measuring the guess, the others give the statistics (but for lists of names of
the world's places and languages), so the guess is measured on text its tables were not made from.
"""

from __future__ import annotations

import gettext
import unicodedata
from pathlib import Path

LOCALE = Path("/usr/share/locale")

#: Language code -> its name and the legacy code pages its text was written in.
LANGUAGES: dict[str, tuple[str, tuple[str, ...]]] = {
    "en": ("English", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "fr": ("French", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "de": ("German", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "es": ("Spanish", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "pt": ("Portuguese", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "it": ("Italian", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "nl": ("Dutch", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "da": ("Danish", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "sv": ("Swedish", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "nb": ("Norwegian", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "fi": ("Finnish", ("cp1252", "iso8859-1", "iso8859-15", "mac_roman")),
    "is": ("Icelandic", ("cp1252", "iso8859-1", "iso8859-15")),
    "ca": ("Catalan", ("cp1252", "iso8859-1", "iso8859-15")),
    "pl": ("Polish", ("cp1250", "iso8859-2")),
    "cs": ("Czech", ("cp1250", "iso8859-2")),
    "sk": ("Slovak", ("cp1250", "iso8859-2")),
    "hu": ("Hungarian", ("cp1250", "iso8859-2")),
    "sl": ("Slovenian", ("cp1250", "iso8859-2")),
    "hr": ("Croatian", ("cp1250", "iso8859-2")),
    "ro": ("Romanian", ("cp1250", "iso8859-2")),
    "lt": ("Lithuanian", ("cp1257", "iso8859-13")),
    "lv": ("Latvian", ("cp1257", "iso8859-13")),
    "et": ("Estonian", ("cp1257", "iso8859-13", "iso8859-15")),
    "tr": ("Turkish", ("cp1254", "iso8859-9")),
}
#: The languages of the measurement table (the others give statistics only).
MEASURED = ("en", "fr", "de", "es", "pt", "it", "nl", "da", "sv", "nb", "fi", "is", "pl", "cs", "hu", "lt", "lv",
            "et", "tr", "ro")  # fmt: skip

#: Romanian written with the comma letters, as the legacy code pages could not: the cedilla ones.
_LEGACY_LETTERS = str.maketrans("șțȘȚ", "şţŞŢ")
#: Typographic punctuation a code page may lack, as ASCII.
_PLAIN_PUNCT = str.maketrans({"“": '"', "”": '"', "„": '"', "‘": "'", "’": "'", "…": "...", "–": "-", "—": "-",
                              "\u00a0": " ", "\u202f": " ", "\u2009": " "})  # fmt: skip


#: Language code -> the locale folders of its catalogues (else the code itself; ``pt`` without ``pt_BR``).
_FOLDERS = {"en": ("en_GB", "en_AU", "en_CA", "en@quot")}


def catalogues(lang: str) -> list[Path]:
    """The .mo files of ``lang``, in name order."""
    return sorted(p for folder in _FOLDERS.get(lang, (lang,)) for p in (LOCALE / folder / "LC_MESSAGES").glob("*.mo"))


def name_list(path: Path) -> bool:
    """True for the catalogues of the iso-codes package: names of languages, countries,
    scripts and currencies of the whole world, in no language's own letters."""
    return path.name.startswith("iso_")


def messages(path: Path) -> list[str]:
    """The translated messages of one catalogue (NFC, the ones left as their English source left out)."""
    try:
        with path.open("rb") as f:
            catalog = gettext.GNUTranslations(f)._catalog  # noqa: SLF001 (the parsed catalogue)
    except (OSError, ValueError, UnicodeDecodeError):
        return []
    out = []
    for key, value in catalog.items():
        source = key[0] if isinstance(key, tuple) else key
        if not source or not isinstance(value, str) or value == source:
            continue
        out.append(unicodedata.normalize("NFC", value).translate(_LEGACY_LETTERS))
    return out


def text_of(lang: str, *, part: str) -> list[str]:
    """The messages of ``lang``: ``part="measure"`` every third catalogue's, ``"statistics"`` the
    others' but for the name lists (:func:`name_list`)."""
    out: list[str] = []
    for k, path in enumerate(catalogues(lang)):
        if part == "measure" and k % 3 == 0 or part == "statistics" and k % 3 and not name_list(path):
            out.extend(messages(path))
    return out


def in_code_page(text: str, codec: str) -> tuple[str, bytes] | None:
    """``text`` as ``codec`` can write it (typographic punctuation it lacks made ASCII) and
    its bytes, or None when its letters are not all in ``codec``."""
    for t in (text, text.translate(_PLAIN_PUNCT)):
        try:
            return t, t.encode(codec)
        except UnicodeEncodeError:
            continue
    return None
