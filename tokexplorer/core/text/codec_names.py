"""How every message and view names a text codec: one name for the codec that decoded.

>>> codec_name("GB18030"), codec_name("windows-1252")
('gb18030', 'cp1252')
"""

from __future__ import annotations

import codecs

__all__ = ["codec_name"]

#: Python's canonical names that are shown otherwise: ISO 8859-1 by its common alias (what
#: an encoding setting is usually given as), UTF-8 as the notes write it ("not valid UTF-8").
_SHOWN = {"iso8859-1": "latin-1", "utf-8": "UTF-8"}


def codec_name(codec: str) -> str:
    """The one name of a codec in every message and view (the window's Encoding column, the
    notes of every command, what a file "looks like"): the name Python's codecs give the
    codec (``codecs.lookup(codec).name``, which an encoding setting accepts), ``"latin-1"``
    for ISO 8859-1 and ``"UTF-8"`` for UTF-8; a name Python does not know, as it is.

    Args:
        codec: any name or alias Python's ``codecs`` may know.

    >>> [codec_name(c) for c in ("GB18030", "windows-1252", "latin_1", "utf8", "Shift-JIS", "nope")]
    ['gb18030', 'cp1252', 'latin-1', 'UTF-8', 'shift_jis', 'nope']
    """
    try:
        name = codecs.lookup(codec).name
    except LookupError:
        return codec
    return _SHOWN.get(name, name)
