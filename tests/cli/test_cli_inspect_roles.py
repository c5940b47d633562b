"""inspect --raw: a control byte says so, and an invalid byte's reason is a numbered note
under the bytes table (it was the role cell itself: a table some 170 columns wide)."""

from __future__ import annotations

from tokexplorer.cli import main


def test_raw_roles_are_short_and_reasons_are_notes(tmp_path, capsys):
    path = tmp_path / "raw.bin"
    path.write_bytes(b"ab\x13c\xe9\x80zz\n")
    assert main(["inspect", "--file", str(path), "--raw"]) == 0
    out = capsys.readouterr().out
    table = out.split("\nbytes\n", 1)[1].split("\ncode points\n", 1)[0]
    assert table == (
        "offset  hex  role             code point  grapheme\n"
        "     0  61   ascii                     0         0\n"
        "     1  62   ascii                     1         1\n"
        "     2  13   ascii (control)           2         2\n"
        "     3  63   ascii                     3         3\n"
        "     4  E9   invalid [1]               4         4\n"
        "     5  80   invalid [1]               5         5\n"
        "     6  7A   ascii                     6         6\n"
        "     7  7A   ascii                     7         7\n"
        "     8  0A   ascii (control)           8         8\n"
        "  [1] truncated sequence: lead byte E9 starts a 3-byte character but byte 6 is not a continuation byte "
        "after 2 bytes\n"
    )


def test_train_on_a_folder_says_how_many_files_it_took(tmp_path, capfd):
    """Every file below a folder that is not a model is trained on (a text file named .bpe is text:
    models are told by content): the command says how many."""
    folder = tmp_path / "notes"
    folder.mkdir()
    for name in ("a.txt", "b.txt", "old.bpe"):
        (folder / name).write_text("the cat sat on the mat\n" * 10, encoding="utf-8")
    assert main(["train", str(folder), "--vocab-size", "260", "-o", str(tmp_path / "m.bpe")]) == 0
    err = capfd.readouterr().err
    assert f"tokexplorer: note: training on 3 files (690 B on disk) from {folder}\n" in err


def test_a_file_not_stored_as_utf8_says_the_tables_show_its_utf8(tmp_path, capsys):
    path = tmp_path / "fr.txt"
    path.write_bytes("déjà vu à la carte, café\n".encode("cp1252"))  # 25 bytes stored, 29 as UTF-8
    assert main(["inspect", "--file", str(path), "--encoding", "cp1252"]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("29 bytes, 25 code points, 25 graphemes\n")
    assert captured.err == (
        f"tokexplorer: note: {path}: the tables show its text as UTF-8 (29 bytes), not the 25 bytes stored "
        "in the file; inspect --raw shows those\n"
    )
    for args in (["--file", str(path), "--raw"], ["--text", "déjà"]):  # the bytes as stored, or no file
        assert main(["inspect", *args]) == 0
        assert "the tables show its text as UTF-8" not in capsys.readouterr().err
