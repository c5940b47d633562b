"""An emoji drawn on its own in a box (the byte inspector's graphemes track, the Replay
pieces) stands as tall as a CJK ideograph beside it: the colour emoji font draws shorter
at the same size, so it gets the size :func:`emoji_scale` measured with the installed fonts."""

from __future__ import annotations

from PySide6.QtGui import QFont, QImage

from tokexplorer.core.text import utf8
from tokexplorer.gui.widgets.byte_view import CELL_W, LABEL_W, ByteView
from tokexplorer.gui.widgets.glyphs import _ink_height, emoji_font, emoji_scale, is_emoji


def _ink(img: QImage, x0: float, x1: float, top: float, bottom: float) -> int:
    """Ink height in the box [x0, x1) x [top, bottom) of ``img`` (pixels unlike the box's background)."""
    bg = img.pixelColor(int(x0) + 3, int(top) + 3).getRgb()[:3]

    def inked(x: int, y: int) -> bool:
        return sum(abs(a - b) for a, b in zip(img.pixelColor(x, y).getRgb()[:3], bg)) > 150

    xs = range(int(x0) + 3, int(x1) - 3)
    rows = [y for y in range(int(top) + 2, int(bottom) - 1) if any(inked(x, y) for x in xs)]
    return rows[-1] - rows[0] + 1 if rows else 0


def test_the_graphemes_track_draws_an_emoji_as_tall_as_an_ideograph(qtbot):
    view = ByteView()
    qtbot.addWidget(view)
    view.resize(700, 200)
    view.set_data(utf8.analyze("\u4f60 \U0001f642"), [])  # 你 (3 bytes), space, 🙂 (4 bytes)
    view.show()
    qtbot.waitExposed(view)
    img = view.grab().toImage()
    top = view.row_top(0) + 2 * view._track_h  # noqa: SLF001 - the graphemes track's row
    bottom = top + view._track_h  # noqa: SLF001
    ideograph = _ink(img, LABEL_W, LABEL_W + 3 * CELL_W, top, bottom)
    emoji = _ink(img, LABEL_W + 4 * CELL_W, LABEL_W + 8 * CELL_W, top, bottom)
    big = view._big.pixelSize()  # noqa: SLF001
    plain = QFont(view.font())
    plain.setPixelSize(big)
    if emoji_scale(big) > 1.0:  # the installed emoji font draws shorter: it is enlarged to match
        assert _ink_height(plain, "\U0001f600") < _ink_height(plain, "\u6c38")
        assert abs(emoji - ideograph) <= 1, (emoji, ideograph)
    assert emoji_font(plain).pixelSize() == round(big * emoji_scale(big))


def test_only_emoji_get_the_emoji_size():
    assert is_emoji("\U0001f44d\U0001f3fd") and is_emoji("\U0001f1eb\U0001f1f7") and is_emoji("\u2764\ufe0f")
    assert not is_emoji("\u2764") and not is_emoji("\u4f60") and not is_emoji(" \U0001f642") and not is_emoji("")
