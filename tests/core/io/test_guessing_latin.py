"""The encoding guess of Latin-script European text in its legacy code pages (core.io.latin_fit):
the reading whose letters a language of its code page writes, and never "high confidence" for a
reading whose letters could as well be another code page's."""

from __future__ import annotations

import pytest

from tokexplorer.core.io import decode_file_bytes, encoding_guess
from tokexplorer.core.io.guessing import EncodingGuess
from tokexplorer.core.io.latin_fit import languages_of, latin_fit

NEWCOMER = "Café crème, naïve façade, déjà vu — « élève » à l’école.\n"

#: Sentences written for these tests, each in a code page its language was written in.
SENTENCES = [
    ("Le médecin a préféré attendre la fin de l’été avant de rénover la façade de l’hôpital.", "cp1252"),
    ("Die Bäckerei gegenüber öffnet früh, und der Duft von frischen Brötchen zieht über die Straße.", "cp1252"),
    ("El niño pidió una canción más antes de dormir, y su abuela aceptó con una sonrisa.", "cp1252"),
    ("As crianças não querem sair da praia antes do pôr do sol, mas a mãe já está cansada.", "cp1252"),
    ("Perché la città è così tranquilla di domenica? Forse perché tutti sono già partiti.", "cp1252"),
    ("Vi åkte till sjön på lördagen och såg älgar som betade vid strandkanten.", "cp1252"),
    ("Børnene løb ned til søen, hvor ænderne svømmede rundt i det kolde vand.", "cp1252"),
    ("Það var kalt í morgun þegar við gengum út að ánni og sáum fuglana.", "cp1252"),
    ("Wczoraj wieczorem poszliśmy na spacer nad rzekę, gdzie było już dość chłodno.", "cp1250"),
    ("Včera večer jsme šli na procházku k řece, kde už bylo docela chladno.", "cp1250"),
    ("Tegnap este sétálni mentünk a folyópartra, ahol már elég hűvös volt.", "cp1250"),
    ("Ieri seară ne-am plimbat pe malul râului, unde era deja destul de răcoare.", "cp1250"),
    ("Vakar vakare išėjome pasivaikščioti prie upės, kur jau buvo gana vėsu.", "cp1257"),
    ("Vakar vakarā mēs gājām pastaigāties gar upi, kur jau bija diezgan vēss.", "cp1257"),
    ("Eile õhtul läksime jõe äärde jalutama, kus oli juba üsna jahe ja tuuline.", "cp1257"),
    ("Dün akşam nehir kıyısında yürüyüşe çıktık, hava oldukça serinlemişti.", "cp1254"),
]


def test_the_newcomers_french_file_is_cp1252_not_baltic():
    """charset-normalizer rates cp1257 best (chaos 0.0 against cp1252's 0.105): 'crčme, naļve
    faēade, déją' holds letters no language of cp1257 writes together; é è à ç ï are French."""
    data = (NEWCOMER * 60).encode("cp1252")
    assert encoding_guess(data) == EncodingGuess("cp1252", "high", 840)
    f = decode_file_bytes(data, path="f.txt")
    assert f.text == NEWCOMER * 60
    assert f.notes[0].endswith(
        "read as cp1252 (guessed, high confidence: 840 non-ASCII bytes to go by; choose another encoding if wrong)"
    )
    baltic = data.decode("cp1257")
    assert baltic.startswith("Café crčme, naļve faēade, déją vu")
    assert latin_fit("cp1252", data.decode("cp1252")).language == "French"
    assert latin_fit("cp1252", data.decode("cp1252")).score > latin_fit("cp1257", baltic).score + 40


def test_one_line_written_thirty_times_says_no_more_than_the_line():
    """Five words past ASCII, however often written: cp1252, medium, naming the rivals that read
    them nearly as well (Czech 'crčme', Baltic 'naļve', 'déją')."""
    data = ("Café crème, naïve façade, déjà vu.\n" * 30).encode("cp1252")
    got = encoding_guess(data)
    assert got == EncodingGuess("cp1252", "medium", 180, ("cp1250", "iso8859-2", "cp1257", "iso8859-4", "iso8859-13"))
    assert data.decode("cp1250").startswith("Café crčme, naďve façade, déjŕ vu.")


@pytest.mark.parametrize(
    ("index", "lines", "want", "confidence", "rivals"),
    [
        (0, 3, "cp1252", "high", ()),
        (1, 3, "cp1252", "high", ()),
        (2, 3, "cp1252", "low", ("cp1250", "iso8859-2", "cp1257", "iso8859-10", "iso8859-13")),  # 'niño' reads 'nińo'
        (5, 3, "cp1252", "high", ()),
        (6, 3, "cp1252", "low", ("cp1257", "iso8859-13")),  # 'Børnene' reads 'Bųrnene'
        (8, 3, "cp1250", "high", ()),
        (9, 3, "cp1250", "low", ("cp1252",)),
        (12, 3, "cp1257", "high", ()),
        (13, 3, "cp1257", "low", ("hp-roman8",)),
        (14, 3, "cp1252", "high", ()),  # Estonian õ ä ü: cp1252 reads them as cp1257 does
        (15, 3, "cp1254", "high", ()),
        (0, 1, "cp1252", "low", ()),  # 11 bytes past ASCII: too few for high
    ],
)
def test_sentences_in_their_code_pages(index, lines, want, confidence, rivals):
    text, codec = SENTENCES[index]
    data = ((text + "\n") * lines).encode(codec)
    got = encoding_guess(data)
    assert (got.codec, got.confidence, got.rivals) == (want, confidence, rivals)
    assert data.decode(got.codec) == (text + "\n") * lines


@pytest.mark.parametrize(("text", "codec"), SENTENCES)
@pytest.mark.parametrize("lines", [1, 3])
def test_a_wrong_guess_is_never_high_and_names_the_right_reading(text, codec, lines):
    """Romanian 'seară ... răcoare' reads 'searã ... rãcoare' in cp1252 (Portuguese's ã): three
    bytes cannot tell them apart, so the guess is low and cp1250 is named."""
    data = ((text + "\n") * lines).encode(codec)
    got = encoding_guess(data)
    if data.decode(got.codec) != (text + "\n") * lines:
        assert got.confidence != "high"
        assert any(data.decode(r, "replace") == (text + "\n") * lines for r in got.rivals)


def test_a_code_pages_languages_are_those_whose_letters_it_writes():
    assert languages_of("cp1250")[:3] == ("German", "Finnish", "Polish")
    assert "French" not in languages_of("cp1250") and "French" in languages_of("cp1252")
    assert "Latvian" in languages_of("cp1257") and "Latvian" not in languages_of("cp1252")
    assert languages_of("cp1251") == () and languages_of("no-such-codec") == ()
