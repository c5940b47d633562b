"""The encoding guess of short and long files that are not UTF-8 (core.io.guessing): a
common encoding among the plausible readings of a short sample, charset-normalizer's
choice where the bytes say enough, and a note that says it is a guess and how sure."""

from __future__ import annotations

import codecs

import pytest
from charset_normalizer import from_bytes

from tokexplorer.core.io import decode_file_bytes, encoding_guess, guess_encoding
from tokexplorer.core.io.guessing import PREVALENCE, EncodingGuess

FRENCH = "Où est la forêt ? Le garçon a mangé une crème brûlée à la fenêtre.\n"
GERMAN = "Grüße aus München! Die schöne Straße führt über die Brücke zum Bäcker.\n"
RUSSIAN = "Привет, как дела? Москва — столица России, мы пошли гулять в парк.\n"
CHINESE = "你好，世界。今天天气很好，我们一起去公园散步吧。\n"
JAPANESE = "こんにちは、世界。東京は日本の首都です。今日はいい天気ですね。\n"
TRADITIONAL = "繁體中文測試，臺灣的天氣很好。我們一起去公園散步。\n"


def _charset_normalizer_best(data: bytes) -> str:
    """charset-normalizer's best ASCII-compatible match (as the old rule took it)."""
    for m in from_bytes(data):
        if b"Az09 .,\n".decode(m.encoding, "replace") == "Az09 .,\n":
            return codecs.lookup(m.encoding).name
    return "latin-1"


def test_four_bytes_of_cafe_are_cp1252_not_urdu():
    data = b"caf\xe9"
    assert _charset_normalizer_best(data) == "cp1006"  # charset-normalizer alone: Urdu
    assert data.decode("cp1006") == "caf\ufee0"  # an Arabic letter form after Latin letters
    got = encoding_guess(data)
    assert got == EncodingGuess("cp1252", "low", 1, ("cp775", "mac-latin2"))
    assert guess_encoding(data) == "cp1252"
    f = decode_file_bytes(data, path="cafe.txt")
    assert (f.text, f.encoding_label) == ("café", "cp1252 (guessed)")
    assert f.notes == (
        "cafe.txt: not valid UTF-8 at byte 3 (unexpected end of data); read as cp1252 (guessed, low confidence: "
        "1 non-ASCII byte to go by, and cp775, mac-latin2 read it as well; choose another encoding if wrong)",
    )


@pytest.mark.parametrize(
    ("text", "codec", "chars", "want", "confidence"),
    [
        (FRENCH, "latin-1", 2, "cp1252", "low"),  # 'Où'
        (FRENCH, "latin-1", len(FRENCH), "cp1252", "low"),
        (GERMAN, "cp1252", 4, "cp1252", "low"),  # 'Grüß': cp1250 reads it alike; cp1252 is named
        (GERMAN, "cp1252", len(GERMAN), "cp1252", "low"),
        (RUSSIAN, "cp1251", 4, "cp1251", "low"),  # 'Прив', not GBK's two hanzi
        (RUSSIAN, "cp1251", 16, "cp1251", "low"),
        (RUSSIAN, "cp1251", len(RUSSIAN), "cp1251", "high"),
        (CHINESE, "gb18030", 2, "gbk", "low"),  # '你好'
        (CHINESE, "gb18030", 8, "gbk", "high"),
        (CHINESE, "gbk", len(CHINESE), "gbk", "high"),
        (JAPANESE, "shift_jis", 2, "cp932", "low"),  # 'こん'
        (JAPANESE, "shift_jis", 16, "cp932", "high"),
        (JAPANESE, "shift_jis", len(JAPANESE), "cp932", "high"),
        (TRADITIONAL, "big5", 2, "big5", "low"),  # '繁體'
        (TRADITIONAL, "big5", 16, "big5", "high"),
        (TRADITIONAL, "big5", len(TRADITIONAL), "big5", "high"),
    ],
)
def test_short_samples_read_right(text, codec, chars, want, confidence):
    data = text[:chars].encode(codec)
    got = encoding_guess(data)
    assert (got.codec, got.confidence) == (want, confidence)
    assert data.decode(got.codec) == text[:chars]


@pytest.mark.parametrize(
    ("text", "codec", "cn", "want", "confidence"),
    [
        (FRENCH, "latin-1", "cp1250", "cp1252", "medium"),  # one line 40 times: 13 letters past ASCII
        (GERMAN, "cp1252", "cp1250", "cp1252", "high"),
        (RUSSIAN, "cp1251", "cp1251", "cp1251", "high"),
        (CHINESE, "gb18030", "gb18030", "gb18030", "high"),
        (JAPANESE, "shift_jis", "cp932", "cp932", "high"),
        (TRADITIONAL, "big5", "big5", "big5", "high"),
    ],
)
def test_long_samples_keep_charset_normalizers_reading(text, codec, cn, want, confidence):
    """40 lines: charset-normalizer's choice stands, named as the most used code page of the
    same reading (cp1250 reads this German exactly as cp1252 does; not this French)."""
    data = (text * 40).encode(codec)
    assert _charset_normalizer_best(data) == cn
    got = encoding_guess(data)
    assert (got.codec, got.confidence) == (want, confidence)
    assert data.decode(got.codec) == text * 40
    if confidence == "medium":
        assert got.rivals == ("cp1257", "iso8859-10", "iso8859-13")
        assert got.note() == (
            "guessed, medium confidence: 360 non-ASCII bytes to go by, "
            "and cp1257, iso8859-10, iso8859-13 read it as well"
        )
        assert data.decode("cp1257").startswith("Oł est la forźt ? Le garēon a mangé une crčme")


def test_two_french_letters_that_read_as_polish_ones_are_a_low_guess():
    """'Où est la forêt': two letters past ASCII, ``ù ê``; cp1257 reads them ``ł ź``, letters
    of Polish (of its languages), likelier than French's rare ``ù`` even after cp1257's smaller
    use: a low guess that names cp1252."""
    data = FRENCH[:16].encode("latin-1")
    got = encoding_guess(data)
    assert (got.codec, got.confidence, got.evidence) == ("cp1257", "low", 2)
    assert data.decode("cp1257") == "Oł est la forźt " and got.rivals[0] == "cp1252"


def test_charset_normalizer_decides_when_it_tells_the_language():
    """A short Hungarian line: charset-normalizer lists only cp1250 (Hungarian); cp1252
    would give 'tűrő' as 'tûrõ'."""
    text = "Árvíztűrő tükörfúrógép. Öt szép szűz lány őrült írót nyúz.\n"
    data = text.encode("cp1250")
    assert [m.encoding for m in from_bytes(data)] == ["cp1250"]
    assert encoding_guess(data) == EncodingGuess("cp1250", "high", 18)


@pytest.mark.parametrize(
    ("text", "codec"),
    [("Ärger", "cp1252"), ("Äpfel und Öl", "cp1252"), ("да", "cp1251"), ("Москва", "cp1251"), ("東京", "shift_jis")],
)
def test_a_few_bytes_that_another_codec_also_reads(text, codec):
    """'Ärger' (C4 72...) is one frequent Big5 hanzi and 'ger'; 'да' (E4 E0) a GBK hanzi:
    one double-byte character is no evidence, the common code page is taken."""
    data = text.encode(codec)
    assert data.decode(encoding_guess(data).codec) == text


def test_notes_say_how_sure():
    assert EncodingGuess("gb18030", "high", 2800).note() == "guessed, high confidence: 2,800 non-ASCII bytes to go by"
    assert EncodingGuess("cp1251", "low", 4, ("cp1253",)).note() == (
        "guessed, low confidence: 4 non-ASCII bytes to go by, and cp1253 reads it as well"
    )
    assert EncodingGuess("cp1252", "low", 1, ("cp1251", "cp1250", "cp1253", "koi8-r")).note() == (
        "guessed, low confidence: 1 non-ASCII byte to go by, and cp1251, cp1250, cp1253 read it as well"
    )


def test_prevalence_order_is_of_real_codecs_and_western_first():
    names = [codecs.lookup(c).name for c in PREVALENCE]
    assert len(set(names)) == len(names)
    assert names[:3] == ["cp1252", "cp1251", "cp932"] and names[-1] == "iso8859-1"
