"""Names at the left of rows (the byte inspector's tracks): as wide as the longest needs, up
to a cap, and when a name must still be cut, cut so that names that differ stay different.

Tokenizer names often share their start (``tokenizer.json (Hugging Face BPE)``,
``tokenizer.json (Hugging Face WordPiece)``): cut at the right end, both read
``tokenizer.json (Hu…``. :func:`distinct_elisions` cuts in the middle, keeping both ends,
and tries the other ends when that still makes two the same; the whole name is in the
row's tooltip.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetricsF

__all__ = ["distinct_elisions", "label_width"]

_MODES = (Qt.TextElideMode.ElideMiddle, Qt.TextElideMode.ElideLeft, Qt.TextElideMode.ElideRight)


def label_width(names: Sequence[str], fm: QFontMetricsF, *, least: float, most: float, pad: float = 8.0) -> float:
    """The width (pixels) of a column of ``names`` drawn with ``fm``: the longest name and
    ``pad``, at least ``least`` and at most ``most``."""
    need = max((fm.horizontalAdvance(n) for n in names), default=0.0) + pad
    return max(least, min(most, need))


def distinct_elisions(names: Sequence[str], fm: QFontMetricsF, width: float) -> list[str]:
    """``names`` each cut to ``width`` pixels (``…`` for what is left out), different names
    kept different: cut in the middle, else at the left, else at the right end, the first way
    that gives as many different texts as there are different names (if none does: the
    middle). A name that fits is shown whole."""
    distinct = len(set(names))
    first: list[str] | None = None
    for mode in _MODES:
        cut = [fm.elidedText(n, mode, width) for n in names]
        if len(set(cut)) == distinct:
            return cut
        first = first or cut
    return first or []
