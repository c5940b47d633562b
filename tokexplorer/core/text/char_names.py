"""Names of code points: the Unicode name, or a code point label when there is none.

:func:`unicodedata2.name` has no name for controls, surrogates, private-use
characters, noncharacters and unassigned code points; for those
:func:`char_name` gives a label in the style of the Unicode Standard §4.8
"Code Point Labels", with the control names of NameAliases.txt.

>>> char_name(0x1F642), char_name(0x0A)
('SLIGHTLY SMILING FACE', '<control-000A> LINE FEED')
"""

from __future__ import annotations

import unicodedata2

from tokexplorer.core.errors import InputError

#: Names of the C0 control characters U+0000–U+001F and of U+007F, from the
#: Unicode name aliases (NameAliases.txt, type "control"); unicodedata2.name()
#: has no name for them.
C0_CONTROL_NAMES: tuple[str, ...] = (
    "NULL", "START OF HEADING", "START OF TEXT", "END OF TEXT",
    "END OF TRANSMISSION", "ENQUIRY", "ACKNOWLEDGE", "BELL",
    "BACKSPACE", "CHARACTER TABULATION", "LINE FEED", "LINE TABULATION",
    "FORM FEED", "CARRIAGE RETURN", "SHIFT OUT", "SHIFT IN",
    "DATA LINK ESCAPE", "DEVICE CONTROL ONE", "DEVICE CONTROL TWO", "DEVICE CONTROL THREE",
    "DEVICE CONTROL FOUR", "NEGATIVE ACKNOWLEDGE", "SYNCHRONOUS IDLE", "END OF TRANSMISSION BLOCK",
    "CANCEL", "END OF MEDIUM", "SUBSTITUTE", "ESCAPE",
    "INFORMATION SEPARATOR FOUR", "INFORMATION SEPARATOR THREE",
    "INFORMATION SEPARATOR TWO", "INFORMATION SEPARATOR ONE",
)  # fmt: skip

#: A few C1 controls users meet in real text (aliases from NameAliases.txt).
_C1_CONTROL_NAMES: dict[int, str] = {
    0x7F: "DELETE",
    0x85: "NEXT LINE",
    0x9B: "CONTROL SEQUENCE INTRODUCER",
}


def char_name(cp: int) -> str:
    """The Unicode name of a code point, or a code point label when it has none.

    Args:
        cp: a code point value (int, 0–0x10FFFF).

    Returns:
        ``unicodedata2.name`` when defined; otherwise a label in the style of the
        Unicode Standard §4.8 "Code Point Labels": ``"<control-0000> NULL"`` (C0
        controls named from NameAliases.txt), ``"<control-0085> NEXT LINE"``,
        ``"<surrogate-D800>"``, ``"<private-use-E000>"``,
        ``"<noncharacter-FFFE>"`` or ``"<reserved-0378>"`` (unassigned in
        ``unicodedata2``'s Unicode version, 18.0 here, not the older one of
        Python's own :mod:`unicodedata`).

    Raises:
        InputError: ``cp`` is outside 0–0x10FFFF.

    >>> char_name(0x200D)
    'ZERO WIDTH JOINER'
    >>> char_name(0)
    '<control-0000> NULL'
    >>> char_name(0xD800), char_name(0xFFFE)
    ('<surrogate-D800>', '<noncharacter-FFFE>')
    >>> char_name(0x0C5C)  # new in Unicode 17.0
    'TELUGU ARCHAIC SHRII'
    """
    if not 0 <= cp <= 0x10FFFF:
        raise InputError(f"{cp:#x} is not a Unicode code point (0 to 0x10FFFF)")
    name = unicodedata2.name(chr(cp), "")
    if name:
        return name
    if cp < 0x20:
        return f"<control-{cp:04X}> {C0_CONTROL_NAMES[cp]}"
    if 0x7F <= cp <= 0x9F:
        alias = _C1_CONTROL_NAMES.get(cp)
        return f"<control-{cp:04X}> {alias}" if alias else f"<control-{cp:04X}>"
    if 0xD800 <= cp <= 0xDFFF:
        return f"<surrogate-{cp:04X}>"
    if (0xFDD0 <= cp <= 0xFDEF) or (cp & 0xFFFE) == 0xFFFE:
        return f"<noncharacter-{cp:04X}>"
    if unicodedata2.category(chr(cp)) == "Co":
        return f"<private-use-{cp:04X}>"
    return f"<reserved-{cp:04X}>"
