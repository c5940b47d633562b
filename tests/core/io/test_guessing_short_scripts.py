"""Short Hebrew, Greek, Arabic and Cyrillic in their Windows code pages: guessed right where
the letters tell (tokexplorer.core.io.letter_fit, the final forms of guessing), and where the
bytes are ambiguous a low-confidence note that names the right code page among the others."""

from __future__ import annotations

import pytest

from tokexplorer.core.io.guessing import EncodingGuess, _misplaced_form, encoding_guess
from tokexplorer.core.io.letter_fit import letter_score, scored_script

RIGHT = [  # (text, its code page, the guess)
    ("תודה רבה", "cp1255",
     EncodingGuess("cp1255", "low", 7, ("cp1251", "cp1253", "cp1006", "cp864", "iso8859-5", "mac-greek"))),
    ("ευχαριστώ πολύ", "cp1253", EncodingGuess("cp1253", "low", 13, ("cp1251",))),
    ("شكرا جزيلا", "cp1256", EncodingGuess("cp1256", "low", 9)),
    ("Привет мир", "cp1251", EncodingGuess("cp1251", "low", 9, ("cp1253", "iso8859-6", "mac-cyrillic"))),
    # three letters are too few to weigh: the most widely used reading, cp1251, stays first
    ("сон", "cp1251", EncodingGuess("cp1251", "low", 3, ("cp1253", "cp1255", "cp1006", "cp1125", "mac-greek"))),
]  # fmt: skip


@pytest.mark.parametrize(("text", "codec", "guess"), RIGHT, ids=[r[0] for r in RIGHT])
def test_short_words_guessed_right(text, codec, guess):
    assert encoding_guess(text.encode(codec)) == guess


ENGLISH = "The quick brown fox jumps over the lazy dog.\n" * 5


def test_a_hebrew_line_in_english_text_reads_as_hebrew():
    """Two words that end in a final letter (ם), letters as common as cp1251's 'щмен темн':
    cp1255, before the more widely used cp1251 (named beside it)."""
    assert encoding_guess("שלום עולם".encode("cp1255")) == EncodingGuess(
        "cp1255", "low", 8, ("cp1251", "cp1125", "iso8859-5", "mac-greek")
    )
    data = (ENGLISH + "שלום עולם\n" + "More English text.\n" * 3).encode("cp1255")
    assert encoding_guess(data) == EncodingGuess("cp1255", "low", 8, ("cp1251", "cp1125"))
    data = (ENGLISH + "добрый день\n" + "More English text.\n" * 3).encode("cp1251")
    assert encoding_guess(data) == EncodingGuess("cp1251", "low", 10, ("cp1253", "mac-greek"))


def test_four_hebrew_letters_are_ambiguous_and_the_note_says_so():
    """'שלום' reads in cp1251 as 'щмен', lower-case Cyrillic of four letters: too few to
    weigh, so the guess is low and names cp1255 beside it."""
    guess = encoding_guess("שלום".encode("cp1255"))
    assert guess == EncodingGuess("cp1251", "low", 4, ("cp1253", "cp1255"))
    assert guess.note() == "guessed, low confidence: 4 non-ASCII bytes to go by, and cp1253, cp1255 read it as well"


def test_russian_read_as_hebrew_breaks_the_final_letters_rule():
    """'мир' in cp1255 is 'לטנ' (a nun that is not final at a word's end): no rival now."""
    assert "мир".encode("cp1251").decode("cp1255") == "לטנ"
    assert (_misplaced_form("לטנ"), _misplaced_form("שלום"), _misplaced_form("σςπξ"), _misplaced_form("λόγος")) == (
        True, False, True, False,
    )  # fmt: skip
    assert encoding_guess("мир".encode("cp1251")).rivals == ("cp1253", "cp1006", "cp864", "mac-greek")


def test_letter_scores():
    assert [round(letter_score(t), 3) for t in ("תודה רבה", "ъегд шбд", "ευχαριστώ πολύ", "ехчбсйуфю рплэ")] == [
        0.811, 0.44, 0.607, 0.373,
    ]  # fmt: skip
    assert (scored_script("תודה רבה"), scored_script("שלום"), scored_script("déjà vu")) == ("Hebrew", None, None)


def test_every_guessed_encoding_note_says_how_sure(tmp_path):
    """The note of a file that is no tokenizer (sniff) and of a corpus file (corpus reader)
    carry the same confidence clause, EncodingGuess.note's."""
    from tokexplorer.core.io.corpus import read_text_file
    from tokexplorer.core.io.sniff import sniff_bytes

    data = "Привет мир\n".encode("cp1251")
    clause = "guessed, low confidence: 9 non-ASCII bytes to go by, and cp1253, iso8859-6, mac-cyrillic read it as well"
    assert encoding_guess(data).note() == clause
    assert sniff_bytes(data) == (
        None, f"looks like a text file in cp1251 (not UTF-8; {clause}), not a tokenizer (first line 'Привет мир')",
    )  # fmt: skip
    path = tmp_path / "ru.txt"
    path.write_bytes(data)
    assert read_text_file(path).notes == (
        f"ru.txt: not valid UTF-8 at byte 0 (invalid continuation byte); read as cp1251 ({clause}; "
        "choose another encoding if wrong)",
    )
    gbk = ("汉字 文本 " * 40 + "\n").encode("gbk")
    assert sniff_bytes(gbk)[1].startswith(
        "looks like a text file in gb18030 (not UTF-8; guessed, high confidence: 320 non-ASCII bytes to go by), "
    )


@pytest.mark.parametrize(
    ("text", "codec", "rival"),
    [
        ("Pass the callback to—reading the file—and the caller’s “with” block; Häring wrote it.\n", "mac-latin2",
         "cp1252"),
        ("Results 1990–2000 in Zürich… then a pause — and résumé.\n", "cp1252", None),
    ],
)  # fmt: skip
def test_english_typography_in_cp1252_with_dashes_joined_to_words(text, codec, rival):
    """A dash set between two words without spaces (``to—reading``) parts them, as a space does:
    it is not junk inside one word. Before, these lines read as cp852 (``toŚreading``). Six
    characters past ASCII, five of them punctuation, are no language's letters: mac-latin2's
    ``toóreading``, ``callerís``, ``Hšring`` are letters of Slovak, so a short line guesses
    low and names cp1252 as reading it as well (never high for a guess its letters cannot tell)."""
    guess = encoding_guess(("plain ASCII prose " * 50 + "\n" + text).encode("cp1252"))
    assert guess.codec == codec
    if rival:
        assert guess.confidence == "low" and rival in guess.rivals
