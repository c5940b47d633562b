"""Colours and styles shared by the token and byte views.

A token's colour is derived from its token id alone, so the same id has the same
colour in every column, every pane and every run. The hue comes from a
multiplicative hash of the id (Knuth's constant 2654435761, the golden ratio
times 2**32), the saturation and lightness are fixed to a pastel on which black
text stays readable. When two neighbouring tokens happen to get similar hues,
:func:`token_colors` gives the second one a darker shade so adjacent tokens are
always distinguishable.

Special tokens (``<|endoftext|>``), unknown pieces (SentencePiece ``<unk>``) and
partial-UTF-8 tokens (a token holding only some bytes of a character) get their
own :class:`TokenStyle`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QFontMetrics

from tokexplorer.core.types import Token

_HASH_MULT = 2654435761  # Knuth's multiplicative hash constant (golden ratio * 2**32)
_PASTEL_SATURATION = 0.70
_PASTEL_LIGHTNESS = 0.84
_ALT_LIGHTNESS = 0.72  # second shade used when neighbours' hues are too close
_MIN_HUE_GAP = 0.08  # fraction of the colour wheel (about 29 degrees)

TEXT = QColor("#000000")
SPECIAL_BG = QColor("#263238")
SPECIAL_TEXT = QColor("#ffffff")
UNKNOWN_BG = QColor("#cfcfcf")
UNKNOWN_TEXT = QColor("#8b0000")
UNKNOWN_HATCH = QColor("#8b0000")
PARTIAL_BORDER = QColor("#c62828")
GRAPHEME_PART_BORDER = QColor("#6a1b9a")
"""Dotted outline of a token holding whole code points but only part of a grapheme cluster."""

HOVER_OUTLINE = QColor("#000000")
HIGHLIGHT_OUTLINE = QColor("#1565c0")

DIFF_MARK = QColor("#6a1b9a")
"""Bar along the top of a token whose byte range is not a token in another column."""

CUT_CODE_POINT = QColor("#d32f2f")
"""Marker colour for a token boundary that falls inside a code point."""
CUT_GRAPHEME = QColor("#ef6c00")
"""Marker colour for a token boundary inside a grapheme cluster (between code points)."""

WARNING_BG = QColor("#fff3cd")
WARNING_TEXT = QColor("#664d03")
ERROR_TEXT = QColor("#b00020")

BYTE_ROLE_COLORS: dict[str, QColor] = {
    "ascii": QColor("#e3f2fd"),
    "lead": QColor("#ffe0b2"),
    "continuation": QColor("#fff8e1"),
    "invalid": QColor("#ef9a9a"),
}
"""Cell background per UTF-8 byte role (see ``tokexplorer.core.text.utf8``)."""

CODE_POINT_BG = QColor("#f1f8e9")
GRAPHEME_BG = QColor("#ede7f6")
BOX_BORDER = QColor("#607d8b")


@dataclass(frozen=True, slots=True)
class TokenStyle:
    """How one token is drawn.

    Attributes:
        background: fill colour of the token's box.
        text: colour of the text drawn over it.
        bold: draw the text in bold (special tokens).
        border: colour of the box outline, or None for no outline.
        dashed: draw the outline dashed (partial-UTF-8 tokens).
        dotted: draw the outline dotted (tokens holding part of a grapheme cluster).
        hatch: colour of a diagonal hatch over the fill, or None (unknown pieces).
    """

    background: QColor
    text: QColor
    bold: bool = False
    border: QColor | None = None
    dashed: bool = False
    hatch: QColor | None = None
    dotted: bool = False

    @property
    def pen_style(self) -> Qt.PenStyle:
        """The outline's line style: dashed, dotted or solid."""
        return Qt.PenStyle.DashLine if self.dashed else Qt.PenStyle.DotLine if self.dotted else Qt.PenStyle.SolidLine

    @property
    def hatch_style(self) -> Qt.BrushStyle:
        """The brush pattern used for :attr:`hatch`."""
        return Qt.BrushStyle.BDiagPattern


def id_hue(token_id: int) -> float:
    """Hue in [0, 1) for a token id; stable across runs (no ``hash()``).

    >>> id_hue(0)
    0.0
    """
    h = (token_id * _HASH_MULT) & 0xFFFFFFFF
    return h / 2**32


def token_color(token_id: int, *, alternate: bool = False) -> QColor:
    """Pastel background colour of a token id.

    Args:
        token_id: the token id.
        alternate: use the darker second shade (for a neighbour of similar hue).

    Returns:
        a QColor on which black text is readable.
    """
    light = _ALT_LIGHTNESS if alternate else _PASTEL_LIGHTNESS
    return QColor.fromHslF(id_hue(token_id), _PASTEL_SATURATION, light)


def _hue_gap(a: float, b: float) -> float:
    d = abs(a - b) % 1.0
    return min(d, 1.0 - d)


def token_colors(ids: Sequence[int]) -> list[QColor]:
    """Background colours for a run of tokens, adjacent ones kept apart.

    A token whose hue is within about 29 degrees of its left neighbour's (and that
    neighbour is drawn in the normal shade) is drawn in the darker shade, so two
    neighbouring tokens never look alike even when their ids hash close together
    (or are equal, as in ``'xxxxxxxx'`` repeated).

    Args:
        ids: token ids in text order.

    Returns:
        one QColor per id.
    """
    out: list[QColor] = []
    prev_hue: float | None = None
    prev_alt = False
    cache: dict[tuple[int, bool], QColor] = {}
    for tid in ids:
        hue = id_hue(tid)
        alt = prev_hue is not None and not prev_alt and _hue_gap(hue, prev_hue) < _MIN_HUE_GAP
        key = (tid, alt)
        col = cache.get(key)
        if col is None:
            col = cache[key] = token_color(tid, alternate=alt)
        out.append(col)
        prev_hue, prev_alt = hue, alt
    return out


SPECIAL_STYLE = TokenStyle(SPECIAL_BG, SPECIAL_TEXT, bold=True)
UNKNOWN_STYLE = TokenStyle(UNKNOWN_BG, UNKNOWN_TEXT, border=UNKNOWN_HATCH, hatch=UNKNOWN_HATCH)


def token_style(token: Token, background: QColor | None = None, *, grapheme_part: bool = False) -> TokenStyle:
    """The style of one token.

    Args:
        token: the token.
        background: its id colour when already computed (see :func:`token_colors`).
        grapheme_part: the token holds whole code points but only part of a
            grapheme cluster (``core.text.grapheme_part_tokens``).

    Returns:
        special tokens: dark background, white bold text; unknown pieces: grey with
        a red diagonal hatch; partial-UTF-8 tokens and pieces inside a normalized
        character: their id colour with a dashed red border; part-of-a-grapheme
        tokens: their id colour with a dotted purple border; other tokens: their
        id colour with black text.
    """
    if token.special:
        return SPECIAL_STYLE
    if token.unknown:
        return UNKNOWN_STYLE
    bg = background if background is not None else token_color(token.id)
    if token.partial or token.inside_normalized:
        return TokenStyle(bg, TEXT, border=PARTIAL_BORDER, dashed=True)
    if grapheme_part:
        return TokenStyle(bg, TEXT, border=GRAPHEME_PART_BORDER, dotted=True)
    return TokenStyle(bg, TEXT)

#: Bar drawn above tokens where the merge selected in the merge table fires.
FIRE_MARK = QColor(230, 140, 0)

def fonts_cover(code_point: int) -> bool:
    """True when some installed font family has a glyph for ``code_point``
    (needs a QGuiApplication; reads every family once, a few milliseconds)."""
    return any(QFontMetrics(QFont(family)).inFontUcs4(code_point) for family in QFontDatabase.families())


@cache
def control_pictures() -> bool:
    """How token texts show control characters, the app's one font-dependent choice.

    True when some installed font has the Control Pictures (␊, ␉); many Linux
    desktops have none (tofu boxes), and then token texts use the stand-ins
    ↵, →, ``<U+0000>``. The GUI passes this as ``control_pictures=`` to the
    core's display functions (``token_display``, ``describe_partial_token``,
    ``inspect_text``...). Decided once, on the first call, which
    :func:`tokexplorer.gui.app.main` makes at start-up in the GUI thread (it
    needs a QGuiApplication).
    """
    return fonts_cover(0x240A)


# --- merge table, merge tree, replay, merge diff ---

FIRE_HIGHLIGHT = QColor("#ffd54f")
"""Background of the places where the selected merge fires ("Where it fires")."""
FILTER_ERROR_BG = QColor("#ffe0e0")
"""Background of the merge table's filter box while its text is a bad regex or bad hex."""

BOX_TEXT = QColor("#111111")
"""Token text inside a box of the merge tree and of the replay's pieces."""
BOX_CAPTION = QColor("#555555")
"""Small caption under a box's text (hex bytes, length in bytes)."""
WHOLE_CHAR_FILL = QColor("#e3f0fd")
WHOLE_CHAR_EDGE = QColor("#1e6fc0")
"""A box holding whole characters (merge tree, replay pieces): blue."""

TREE_BACKGROUND = QColor("#ffffff")
TREE_MESSAGE = QColor("#666666")
"""The merge tree's text when there is no tree to draw."""
TREE_LINE = QColor("#8a8a8a")
"""Line from a merge's box to its two parts."""
TREE_LEAF_FILL = QColor("#eeeeee")
TREE_LEAF_EDGE = QColor("#9e9e9e")
"""A single byte (a leaf of the merge tree): grey."""
TREE_PART_FILL = QColor("#fff0dc")
TREE_PART_EDGE = QColor("#d9822b")
"""A merge whose bytes are only part of a UTF-8 character: orange."""
TREE_ROOT_EDGE = QColor("#0b3d91")
"""Outline of the tree's root, the token itself."""

REPLAY_CHOSEN_FILL = QColor("#ffd180")
REPLAY_CHOSEN_EDGE = QColor("#d9822b")
"""The pair merged at this step of a replay (pieces and table rows): orange."""
REPLAY_NEW_FILL = QColor("#c8e6c9")
REPLAY_NEW_EDGE = QColor("#2e7d32")
"""The token made at the previous step of a replay: green."""
REPLAY_PARTIAL_FILL = QColor("#f3f3f3")
REPLAY_PARTIAL_EDGE = QColor("#9e9e9e")
"""A replay piece that is not yet a whole character: grey."""

MERGE_DIFF_FILL = QColor("#fff3e0")
"""Rows of the merge diff where the two models differ."""

PLOT_BACKGROUND = QColor("#ffffff")
PLOT_TEXT = QColor("#222222")
"""Titles and labels of the training plots."""
PLOT_AXIS = QColor("#555555")
PLOT_TOKENS = QColor("#1e6fc0")
"""Curve of corpus tokens after N merges."""
PLOT_BYTES_PER_TOKEN = QColor("#2e7d32")
PLOT_MARKER = QColor("#d9822b")
"""Vertical line at the selected merge's rank."""
PLOT_POINTS = QColor(30, 111, 192, 150)
"""Points of the new-token-length scatter plot."""

# --- compare, byte inspector, statistics ---

NORMALIZER_REMOVED_BG = QColor("#f6c6c6")
"""Background of original text a SentencePiece normalizer removed (struck through)."""
NORMALIZER_CHANGED_FROM_BG = QColor("#fde68a")
"""Background of original text a normalizer rewrote."""
NORMALIZER_CHANGED_TO_BG = QColor("#bbf7d0")
"""Background of the normalized text that replaced it."""
NORMALIZER_INSERTED_BG = QColor("#a5f3fc")
"""Background of normalized text a normalizer inserted (underlined), from no original character."""
NORMALIZER_PIECE_BG = QColor("#e0e7ff")
"""Background of one piece in the list of pieces on the normalized text."""

RAW_BANNER_BG = QColor("#fff4d6")
RAW_BANNER_BORDER = QColor("#e0b84c")
"""Background and border of the byte inspector's banner in raw-bytes mode."""

CHART_SERIES_COLORS: tuple[QColor, ...] = (
    QColor("#0072B2"),
    QColor("#E69F00"),
    QColor("#009E73"),
    QColor("#CC79A7"),
    QColor("#56B4E9"),
    QColor("#D55E00"),
    QColor("#F0E442"),
    QColor("#000000"),
)
"""Series colours of the statistics charts (colour-blind-safe palette of Okabe and Ito, 2008)."""
CHART_BACKGROUND = QColor("#ffffff")
CHART_AXIS = QColor("#444444")
CHART_TEXT = QColor("#222222")
"""Axis lines, and the tick labels, title, axis label and legend text of the charts."""
CHART_LEGEND_BG = QColor(255, 255, 255, 220)
CHART_FEW_ALPHA = 70
"""Opacity (0-255) of the bars of a group of few characters: a ratio from a small sample, drawn pale and hatched."""
FEW_SAMPLE_TEXT = QColor("#8a8a8a")
"""Text of a statistics cell whose ratio comes from few characters."""

# --- corpus pane and dialogs ---
#: Background of a corpus file whose text was decoded lossily (U+FFFD where bytes were lost).
LOSSY_FILE_BG = QColor("#f8d7da")
#: Background of a corpus file whose encoding was guessed or is not UTF-8 (the warning colour).
UNSURE_ENCODING_BG = WARNING_BG

# --- text editors (Compare, byte inspector) ---
EDITOR_GLYPH = QColor("#b0005a")
EDITOR_GLYPH_BG = QColor("#fde3ef")
"""A glyph that stands for a character the editor cannot hold (␍ for CR, ↲, ¶): magenta on pink."""
EDITOR_ODD_BG = QColor("#fff1b8")
"""Background of an invisible character the editor holds as it is (NBSP, ZWJ, bidi controls)."""
# --- Unigram lattice ---
#: A node of the segmentation lattice, and one on the best (Viterbi) path.
LATTICE_NODE_FILL = QColor("#eceff1")
LATTICE_NODE_EDGE = QColor("#90a4ae")
LATTICE_BEST_FILL = QColor("#ffd180")
LATTICE_BEST_EDGE = QColor("#d9822b")
#: A node for an unknown character (the unknown piece, with SentencePiece's penalty).
LATTICE_UNKNOWN_FILL = UNKNOWN_BG
