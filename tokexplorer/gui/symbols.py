"""The symbols the app draws in its own words (ⓘ, ⚠, ▸, ␣, arrows...), with plain stand-ins.

Not every machine has a font for each of them (ⓘ is in none of DejaVu, Noto Sans and
Droid Sans Fallback): :func:`check` asks once, at start, which of :data:`FALLBACKS`
no installed font has, and :func:`plain` puts the stand-in in their place in a text
(``"ⓘ note"`` -> ``"(i) note"`` there; the text itself elsewhere).
:func:`plain_widgets` does it for the labels, buttons, tabs and menus of a window.
The control pictures of token texts (␊, ␉) have their own check
(:func:`tokexplorer.gui.theme.control_pictures`).
"""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QMenu, QMenuBar, QTabWidget, QWidget

from tokexplorer.gui.font_check import has_glyph

#: The app's symbols -> what it shows where no installed font has them.
FALLBACKS: dict[str, str] = {
    "\u24d8": "(i)", "\u26a0": "(!)", "\u25b8": ">", "\u25be": "v", "\u25c2": "<", "\u25b6": ">",
    "\u25c0": "<", "\u2192": "->", "\u2190": "<-", "\u21b5": "<-", "\u2423": "_", "\u2713": "ok",
    "\u2717": "x", "\u2715": "x", "\u231b": "...", "\u23ee": "|<", "\u23ed": ">|", "\u23f8": "||",
    "\u2248": "~", "\u2260": "!=", "\u2205": "{}", "\u25cc": "o", "\u2503": "|", "\u2502": "|",
    "\u2581": "_", "\u2594": "-", "\u221d": "~", "\u2047": "??", "\u237d": "_", "\u203a": ">",
    "\u03a3": "sum", "\u240d": "CR",
}  # fmt: skip
#: Non-ASCII characters of the GUI's strings that every text font has (Latin-1, dashes, quotes).
EVERY_FONT = frozenset(chr(c) for c in range(0xA0, 0x180)) | frozenset("\u2026\u2013\u2014\u2018\u2019\u201c\u201d")
#: Non-ASCII characters of the GUI's strings that are text to tokenize or measure, not the
#: app's symbols (sample words, emoji, the line and paragraph separators, U+FFFD of a decoded
#: file): the font check of the shown text (:mod:`tokexplorer.gui.font_check`) covers them.
CONTENT = frozenset(
    "\u4f60\u597d\u4e16\u754c\u81ea\u7136\u8bed\u8a00\u5904\u7406\u6c38\U0001f600\uff10\uff19"
    "\u2028\u2029\u3000\ufffd"
)
_table: dict[int, str] = {}


def check() -> None:
    """Decide, once, which of :data:`FALLBACKS` get their stand-in (those no installed font
    has). Needs a QGuiApplication; about 50 µs a symbol."""
    _table.clear()
    _table.update({ord(s): plain for s, plain in FALLBACKS.items() if not has_glyph(s)})


def plain(text: str) -> str:
    """``text`` with the stand-in of each symbol no installed font has (see :func:`check`);
    ``text`` itself when every one has a font (the usual case: no copy)."""
    return text.translate(_table) if _table else text


def plain_widgets(root: QWidget) -> None:
    """Put the stand-ins into the texts and tooltips of ``root``'s labels, buttons, group
    boxes, tab titles and menu actions; nothing to do (and nothing walked) when every
    symbol has a font."""
    if not _table:
        return
    for w in [root, *root.findChildren(QWidget)]:
        if isinstance(w, (QLabel, QAbstractButton)):
            w.setText(plain(w.text()))
        elif isinstance(w, QGroupBox):
            w.setTitle(plain(w.title()))
        elif isinstance(w, QTabWidget):
            for i in range(w.count()):
                w.setTabText(i, plain(w.tabText(i)))
        if w.toolTip():
            w.setToolTip(plain(w.toolTip()))
        for action in w.actions() if isinstance(w, (QMenu, QMenuBar)) or w is root else ():
            action.setText(plain(action.text()))
            if action.menu() is not None:
                action.menu().setTitle(plain(action.menu().title()))
