"""One display rule for tokens and pieces in every pane (``glyphs.shown_piece``): a look-alike
(``▁`` beside ``_``, ``│`` beside ``|``, a no-break space, a zero-width space, a Cyrillic ``а``
among Latin letters) is written ``<U+XXXX>`` in the Merge table, the merge trees, the replays,
the Merge diff, the Hugging Face pipeline's stages, the Compare columns and their tooltips, the
byte inspector and its decode table, and the WordPiece and Unigram tables; a token's tooltip
lists its code points. The tokens are real: a BPE, a WordPiece and a SentencePiece unigram
trained here on a text holding them all."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from fixtures.sp import train_proto
from tokexplorer.core.analysis import decode_ids, inspect_text, piece_scores
from tokexplorer.core.backends import BPETokenizer, SentencePieceTokenizer
from tokexplorer.core.backends.huggingface.stages import stage_piece
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.wordpiece import train_wordpiece
from tokexplorer.gui.models import wordpiece_model as wpm
from tokexplorer.gui.models.decode_model import DecodeRowsModel
from tokexplorer.gui.models.merge_model import COL_LEFT, COL_MERGED, COL_RIGHT, MergeTableModel
from tokexplorer.gui.models.unigram_model import COL_PIECE, UnigramVocabModel
from tokexplorer.gui.panes.merge_diff_pane import pair_text
from tokexplorer.gui.widgets import pieces_view
from tokexplorer.gui.widgets.merge_tree import default_label
from tokexplorer.gui.widgets.token_column import TokenColumn

TEXT = "a_b __init__ \u2581a _a \u0430 x\u0430 a\u00a0b x\u200by \u2581| \u2581\u2502\n" * 30
TIP = Qt.ItemDataRole.ToolTipRole
SPACE, BLOCK, BAR = "U+0020 SPACE", "U+2581 LOWER ONE EIGHTH BLOCK", "U+2502 BOX DRAWINGS LIGHT VERTICAL"
CYR_A, NBSP, ZWSP = "U+0430 CYRILLIC SMALL LETTER A", "U+00A0 NO-BREAK SPACE", "U+200B ZERO WIDTH SPACE"


@pytest.fixture(scope="module")
def bpe():
    return train_bpe(TEXT, vocab_size=256 + 30)[0]


def _merge_row(model: MergeTableModel, rank: int) -> tuple[list[str], str]:
    row = model.row_of_rank(rank)
    cells = [model.index(row, c).data() for c in (COL_LEFT, COL_RIGHT, COL_MERGED)]
    return cells, model.index(row, COL_MERGED).data(TIP)


def test_merge_table_cells_and_tooltips(qtbot, bpe):
    model = MergeTableModel()
    model.set_merges(bpe.merges, bpe.vocab, unbuilt=bpe.unbuilt_tokens)
    assert _merge_row(model, 2) == (
        [" \\xE2\\x96", "\\x81", " <U+2581>"], f"␣<U+2581>\ntoken id 258 · 4 bytes: 20 E2 96 81\n{SPACE}\n{BLOCK}"
    )
    assert _merge_row(model, 3) == ([" ", "_", " _"], "␣_\ntoken id 259 · 2 bytes: 20 5F")  # no marker in bytes
    assert _merge_row(model, 5) == (["\\xD0", "\\xB0", "<U+0430>"], f"<U+0430>\ntoken id 261 · 2 bytes: D0 B0\n{CYR_A}")
    assert _merge_row(model, 9) == (
        [" x", "<U+0430>", " x<U+0430>"],
        f"␣x<U+0430>\ntoken id 265 · 4 bytes: 20 78 D0 B0\n{SPACE}\nU+0078 LATIN SMALL LETTER X\n{CYR_A}",
    )
    assert _merge_row(model, 13) == (
        [" <U+2581>\\xE2\\x94", "\\x82", " <U+2581><U+2502>"],
        f"␣<U+2581><U+2502>\ntoken id 269 · 7 bytes: 20 E2 96 81 E2 94 82\n{SPACE}\n{BLOCK}\n{BAR}",
    )
    assert _merge_row(model, 19) == (["\\xC2", "\\xA0", "<U+00A0>"], f"<U+00A0>\ntoken id 275 · 2 bytes: C2 A0\n{NBSP}")
    assert _merge_row(model, 20) == (
        ["\\xE2", "\\x80\\x8B", "<U+200B>"], f"<U+200B>\ntoken id 276 · 3 bytes: E2 80 8B\n{ZWSP}"
    )
    # a part's tooltip lists the part's code points, bytes that are no character by themselves
    row = model.row_of_rank(12)
    assert model.index(row, COL_LEFT).data(TIP) == (
        f"␣<U+2581>\\xE2\ntoken id 267 · 5 bytes: 20 E2 96 81 E2\n{SPACE}\n{BLOCK}\nbyte 0xE2 (part of a character)"
    )


def test_merge_tree_replay_and_merge_diff_use_the_same_rule(bpe):
    assert default_label(bpe.vocab[269]) == "␣<U+2581><U+2502>"
    assert pieces_view.show(bpe.vocab[265]) == "␣x<U+0430>"
    assert pieces_view.show(bpe.vocab[275] + bpe.vocab[276]) == "<U+00A0><U+200B>"
    assert pair_text(bpe.vocab[268], b"\x82") == "␣<U+2581>\\xE2\\x94 + \\x82"
    assert stage_piece(bpe.vocab[265]) == "␣x<U+0430>"  # the Hugging Face pipeline tab's chips
    assert stage_piece(bpe.vocab[269]) == "␣<U+2581><U+2502>"


def test_compare_column_draws_and_describes_the_same_text(qtbot, bpe):
    tok = BPETokenizer(bpe)
    column = TokenColumn(tok)
    qtbot.addWidget(column)
    column.resize(500, 300)
    column.show()
    tz = tok.tokenize("x\u200by \u0430 x\u0430 \u2581\u2502")
    column.show_result(tz)
    qtbot.waitUntil(lambda: column.view._lay.n_shown == len(tz.tokens))
    assert tz.ids == [120, 276, 121, 263, 265, 269]
    drawn = [""] * len(tz.tokens)
    for it in column.view._lay.items:
        drawn[it.owner] += it.shown
    assert drawn == ["x", "<U+200B>", "y", " <U+0430>", " x<U+0430>", " <U+2581><U+2502>"]
    assert column.view.tooltip_text(4).splitlines() == [
        "token 4 · id 265", "bytes 20 78 D0 B0", "text  x<U+0430>",
        SPACE, "U+0078 LATIN SMALL LETTER X", CYR_A, "byte span [8, 12) · characters [5, 8)",
    ]  # fmt: skip
    assert column.view.tooltip_text(0).splitlines() == ["token 0 · id 120", "bytes 78", "text x",
                                                        "byte span [0, 1) · characters [0, 1)"]  # fmt: skip


@pytest.fixture(scope="module")
def unigram():
    proto = train_proto(TEXT.splitlines(), model_type="unigram", vocab_size=22, normalization_rule_name="identity")[0]
    return SentencePieceTokenizer(proto)


def test_byte_inspector_readings_and_decode_table(qtbot, unigram):
    report = inspect_text("x\u0430 \u00a0\u2502", [unigram])
    assert [(t.spelling, t.reading) for t in report.tracks[0].tokens] == [
        ("\u2581x", " x"), ("\u0430", "<U+0430>"), ("\u2581", " "), ("\u00a0", "<U+00A0>"), ("\u2502", "<U+2502>"),
    ]  # fmt: skip
    rows = DecodeRowsModel()
    rows.set_tokens(decode_ids(unigram, [18, 7, 16, 17, 9]).tokens)
    assert [rows.index(r, 3).data() for r in range(5)] == ["▁<U+2502>", "<U+0430>", "<U+00A0>", "<U+200B>", "<U+005F>"]
    assert [rows.index(r, 3).data(TIP) for r in range(5)] == [f"{BLOCK}\n{BAR}", CYR_A, NBSP, ZWSP, "U+005F LOW LINE"]


def test_unigram_table(qtbot, unigram):
    model = UnigramVocabModel(piece_scores(unigram))
    rows = (3, 7, 9, 16, 17, 18, 21)
    cells = {r: (model.index(r, COL_PIECE).data(), model.index(r, COL_PIECE).data(TIP)) for r in rows}
    assert cells == {
        3: ("▁", BLOCK),
        7: ("<U+0430>", CYR_A),
        9: ("<U+005F>", "U+005F LOW LINE"),
        16: ("<U+00A0>", NBSP),
        17: ("<U+200B>", ZWSP),
        18: ("▁<U+2502>", f"{BLOCK}\n{BAR}"),
        21: ("▁<U+005F>", f"{BLOCK}\nU+005F LOW LINE"),
    }


def test_wordpiece_table(qtbot):
    wp, _ = train_wordpiece([TEXT], vocab_size=60)
    model = wpm.WordPieceMergeModel(wp.merges)
    cols = (wpm.COL_LEFT, wpm.COL_RIGHT, wpm.COL_MERGED)
    shown = [[model.index(r, c).data() for c in cols] for r in range(model.rowCount())]
    assert shown[4:] == [["x", "##<U+0430>", "x<U+0430>"], ["▁", "##a", "▁a"], ["▁", "##<U+2502>", "▁<U+2502>"]]
    assert [model.index(4, c).data(TIP) for c in cols] == [
        "U+0078 LATIN SMALL LETTER X",
        f"U+0023 NUMBER SIGN\nU+0023 NUMBER SIGN\n{CYR_A}",
        f"U+0078 LATIN SMALL LETTER X\n{CYR_A}",
    ]


def test_compare_text_keeps_the_texts_own_white_space(qtbot, bpe):
    """In the text itself a no-break space and the ideographic space of CJK text stay
    white space (``⍽`` with the whitespace glyphs on), where a zero-width space, which
    shows nothing, is written by code point."""
    tok = BPETokenizer(bpe)
    column = TokenColumn(tok)
    qtbot.addWidget(column)
    column.resize(500, 300)
    column.show()
    text = "a\u00a0b\u3000c\u200bd"
    tz = tok.tokenize(text)
    column.show_result(tz)
    qtbot.waitUntil(lambda: column.view._lay.n_shown == len(tz.tokens))
    drawn = "".join(it.shown for it in column.view._lay.items)
    assert "<U+00A0>" not in drawn and "<U+3000>" not in drawn and "<U+200B>" in drawn
    assert drawn.replace("<U+200B>", "") == "a\u00a0b\u3000cd"
