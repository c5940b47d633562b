"""The byte inspector's raw-bytes banner: what the file's bytes are, and where they are not UTF-8.

In raw-bytes mode the banner names the file and its size, says whether the bytes
are valid UTF-8, lists the first invalid places with their offsets, and for a
file that is not UTF-8 how its start would read in a few other encodings.
"""

from __future__ import annotations

import html

import unicodedata2
from PySide6.QtWidgets import QLabel, QWidget

from tokexplorer.core.text import utf8
from tokexplorer.gui import theme

HINT_CODECS: tuple[tuple[str, str], ...] = (
    ("gbk", "GBK"), ("big5", "Big5"), ("shift_jis", "Shift-JIS"), ("utf-16", "UTF-16"),
    ("cp1252", "Windows-1252"),
)  # fmt: skip
"""Codecs tried for the "it could read as" hint of a file that is not UTF-8: (codec, label)."""


def encoding_hint(data: bytes) -> str:
    """How ``data`` would read in a few other encodings (strict decodes only), as HTML.

    No guess is presented as the answer: short files decode "successfully" in
    several codecs, so up to three readings are listed for the user to judge.

    Returns:
        ``""`` when no codec of :data:`HINT_CODECS` decodes the first 400 bytes
        into text without control or unassigned characters.
    """
    readings = []
    for codec, label in HINT_CODECS:
        try:
            text = data[:400].decode(codec)
        except (UnicodeDecodeError, LookupError):
            continue
        if any(unicodedata2.category(c) in ("Cc", "Co", "Cn") and c not in "\t\n\r" for c in text):
            continue
        sample = text[:30].replace("\n", " ")
        readings.append(f"{label} \u201c{html.escape(sample)}\u201d")
        if len(readings) == 3:
            break
    if not readings:
        return ""
    return (
        "<br>In another encoding it could read as: " + " · ".join(readings)
        + " — to decode it, open it with File \u203a Open files… and choose the encoding."
    )


class RawBanner(QLabel):
    """A word-wrapped banner describing the raw bytes shown (hidden in text mode)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("", parent)
        self.setWordWrap(True)
        self.setStyleSheet(
            f"background:{theme.RAW_BANNER_BG.name()}; border:1px solid {theme.RAW_BANNER_BORDER.name()}; padding:3px;"
        )
        self.hide()

    def show_bytes(self, analysis: utf8.Utf8Analysis, name: str) -> None:
        """Describe the raw bytes of ``analysis`` (from the file ``name``) and show the banner."""
        a = analysis
        head = f"<b>Raw bytes of {html.escape(name)}</b> ({len(a.data):,} bytes, shown exactly as stored). "
        if a.valid:
            body = "They are valid UTF-8."
        else:
            n_bad = sum(i.length for i in a.issues)
            first = a.issues[:3]
            listed = "; ".join(f"byte {i.offset}: {html.escape(i.reason)}" for i in first)
            more = f"; … {len(a.issues) - 3} more" if len(a.issues) > 3 else ""
            body = (
                f"<span style='color:{theme.ERROR_TEXT.name()}'><b>Not valid UTF-8</b></span>: {n_bad:,} invalid "
                f"byte{'s' if n_bad != 1 else ''} (red) in {len(a.issues):,} place"
                f"{'s' if len(a.issues) != 1 else ''} — {listed}{more}. "
                "Tokenizers would see each invalid byte as U+FFFD (EF BF BD)."
            )
            hint = encoding_hint(a.data)
            if hint:
                body += " " + hint
        self.setText(head + body)
        self.show()
