"""A mostly-ASCII UTF-8 file holding a character cut short (a lead byte and part of its
continuation bytes, then the next text) stays UTF-8, its bad bytes U+FFFD and the file
flagged; it was guessed as cp932 and read as nonsense ('hello 菴\\uf8f0螂 world'). Latin-1
and cp1252 text, whose accented letters are lone lead bytes, is still guessed."""

from __future__ import annotations

from tokexplorer.core.io import read_text_file


def test_a_character_cut_short_in_ascii_text_stays_utf8(tmp_path):
    # (the bytes of a character cut short become one U+FFFD, as Python's decoder replaces them)
    cases = {
        "one.txt": (b"hello \xe4\xbd\xa0\xe5\xa5 world\nnext line ok\n", "hello 你\ufffd world\nnext line ok\n", 2),
        "lines.txt": (b"ok\n" * 5 + "你".encode() + "好".encode()[:2] + b" then more ascii\n",
                      "ok\n" * 5 + "你\ufffd then more ascii\n", 2),
        "emoji.txt": ("🙂 ".encode() + "🌊".encode()[:3] + b" x\n", "🙂 \ufffd x\n", 3),
    }  # fmt: skip
    for name, (data, text, n_bad) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        f = read_text_file(path)
        assert (f.encoding, f.text, f.lossy, f.encoding_guessed) == ("utf-8", text, True, False), name
        assert f"read as UTF-8 anyway ({n_bad} undecodable bytes; shown as U+FFFD)" in f.notes[0], name


def test_latin1_text_with_an_accidental_utf8_pair_is_still_guessed(tmp_path):
    # "é" and "à" are lone lead bytes; "Ã©" happens to be the UTF-8 of "é": not enough
    for name, data in {
        "fr.txt": "déjà vu, Ã© et voilà\n".encode("cp1252"),
        "two.txt": "café crème ¡olé!\n".encode("latin-1") + "é".encode(),
    }.items():
        path = tmp_path / name
        path.write_bytes(data)
        f = read_text_file(path)
        assert f.encoding != "utf-8" and f.encoding_guessed, (name, f.encoding)
        assert f.text == data.decode(f.encoding), name
