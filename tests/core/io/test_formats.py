"""Our BPE model file: round trip, atomic writes, corrupt files; .tiktoken files."""

from __future__ import annotations

import base64
import subprocess
import sys

import pytest

from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.errors import InputError, ModelFormatError
from tokexplorer.core.io import (
    dumps_bpe,
    load_bpe,
    loads_bpe,
    read_tiktoken_file,
    save_bpe,
    write_tiktoken_file,
)

TEXT = "the cat in the hat sat on the mat; 你好你好 👋🏽👋🏽\r\n" * 20


@pytest.fixture(scope="module")
def model():
    return train_bpe(TEXT, vocab_size=280, pattern="cl100k", special_tokens=["<|endoftext|>", "<|pad|>"])[0]


def test_roundtrip(tmp_path, model):
    path = tmp_path / "m.bpe"
    save_bpe(model, path)
    back = load_bpe(path)
    assert back.merges == model.merges
    assert back.special_tokens == {"<|endoftext|>": 278, "<|pad|>": 279}
    assert back.pattern_name == "cl100k"
    assert back.encode_ordinary(TEXT) == model.encode_ordinary(TEXT)
    assert [p.name for p in tmp_path.iterdir()] == ["m.bpe"]  # no temp file left behind


def test_file_is_human_readable(model):
    text = dumps_bpe(model)
    lines = text.splitlines()
    assert lines[0] == "tokexplorer-bpe 1"
    assert "pattern cl100k" in lines
    assert 'special 278 "<|endoftext|>"' in lines
    first = model.merges[0]
    assert lines[lines.index("merges 22") + 1].split("\t")[0] == (
        f"{first.left} {first.right} 256 {first.count} {first.saved}"
    )


def test_saved_counts_differ_from_pair_counts_where_pairs_overlap():
    """A run of spaces holds (' ', ' ') once per neighbour but merges it once per two:
    the pair count over-counts the tokens saved; SAVED, stored in the file, does not."""
    text = "a" + " " * 5 + "b"
    bpe, _ = train_bpe([text], vocab_size=257, pattern="none")
    first = bpe.merges[0]
    assert (first.merged, first.count, first.saved) == (b"  ", 4, 2)
    assert len(text.encode()) - first.saved == len(bpe.encode(text)) == 5
    back = loads_bpe(dumps_bpe(bpe))
    assert back.merges[0].saved == 2
    # a file written before SAVED existed (four columns) reads with saved unknown
    old = dumps_bpe(bpe).replace(f" {first.count} {first.saved}\t", f" {first.count}\t")
    assert loads_bpe(old).merges[0].saved is None


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda t: "", "not a tokexplorer BPE model"),
        (lambda t: t.replace("tokexplorer-bpe 1", "tokexplorer-bpe 9", 1), "unsupported model format version 9"),
        (lambda t: t[: len(t) // 2].rsplit("\n", 1)[0] + "\n", "truncated"),
        (lambda t: t.replace("pattern cl100k", "pattern nope"), "unknown pattern 'nope'"),
        (
            lambda t: t.replace("merges 22\n", "merges 22\n99999 1 256 3\n").replace("merges 22", "merges 23"),
            "not defined before it",
        ),
        (lambda t: t + "junk junk\n", "text after the last merge"),
    ],
)
def test_corrupt_files(tmp_path, model, mutate, message):
    path = tmp_path / "bad.bpe"
    path.write_text(mutate(dumps_bpe(model)), encoding="utf-8")
    with pytest.raises(ModelFormatError, match=message):
        load_bpe(path)


def test_binary_and_missing_files(tmp_path):
    p = tmp_path / "x.bpe"
    p.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(ModelFormatError, match="not UTF-8 text at byte 0"):
        load_bpe(p)
    with pytest.raises(InputError, match="no such file"):
        load_bpe(tmp_path / "missing.bpe")


def test_tiktoken_file(tmp_path):
    ranks = {bytes([i]): i for i in range(256)}
    ranks[b"ab"] = 256
    path = tmp_path / "t.tiktoken"
    write_tiktoken_file(ranks, path)
    assert path.read_text(encoding="ascii").splitlines()[256] == base64.b64encode(b"ab").decode() + " 256"
    assert read_tiktoken_file(path) == ranks
    path.write_text("YWI= 1\nnot-base64!! 2\n", encoding="ascii")
    with pytest.raises(ModelFormatError, match="t.tiktoken line 2"):
        read_tiktoken_file(path)


def test_core_never_imports_qt():
    code = (
        "import sys, tokexplorer.core, tokexplorer.core.bpe.model, tokexplorer.core.io.formats, "
        "tokexplorer.core.text.pretokenize, tokexplorer.core.text.clean, tokexplorer.core.tokens\n"
        "import importlib, pkgutil\n"
        "for m in pkgutil.walk_packages(tokexplorer.core.__path__, 'tokexplorer.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6'))]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_saved_file_has_the_usual_mode(tmp_path, model):
    import os
    import stat

    old = os.umask(0o022)
    try:
        save_bpe(model, tmp_path / "m.bpe")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "m.bpe").stat().st_mode) == 0o644


@pytest.mark.parametrize("which", ["first", "last"])
def test_a_damaged_new_id_is_caught_on_its_own_line(tmp_path, model, which):
    lines = dumps_bpe(model).splitlines(keepends=True)
    start = lines.index("merges 22\n") + 1
    k = start if which == "first" else len(lines) - 1
    left, right, new_id, rest = lines[k].split(" ", 3)
    lines[k] = f"{left} {right} 99999 {rest}"
    path = tmp_path / "bad.bpe"
    path.write_text("".join(lines), encoding="utf-8")
    message = rf"line {k + 1}: merge \d+ creates id 99999; the next free id is {new_id}"
    with pytest.raises(ModelFormatError, match=message):
        load_bpe(path)


def test_a_repeated_pair_or_a_negative_count_is_caught_on_its_line(tmp_path, model):
    lines = dumps_bpe(model).splitlines(keepends=True)
    start = lines.index("merges 22\n") + 1
    first = lines[start].split("\t")[0].split(" ")
    # the second merge line repeats the first merge's pair and id: two merges
    # of one pair would make two ids with the same bytes
    bad = list(lines)
    bad[start + 1] = " ".join(first[:3] + ["5"]) + "\n"
    path = tmp_path / "dup.bpe"
    path.write_text("".join(bad), encoding="utf-8")
    with pytest.raises(
        ModelFormatError,
        match=rf"dup.bpe: line {start + 2}: merge 1 repeats the pair {first[0]} {first[1]} of line {start + 1}",
    ):
        load_bpe(path)
    bad = list(lines)
    left, right, new_id = lines[start + 3].split("\t")[0].split(" ")[:3]
    bad[start + 3] = f"{left} {right} {new_id} -4\n"
    path.write_text("".join(bad), encoding="utf-8")
    with pytest.raises(ModelFormatError, match=rf"line {start + 4}: merge 3 has a negative count \(-4\)"):
        load_bpe(path)


def test_a_folder_given_as_a_model_file_is_named_as_a_folder(tmp_path):
    from tokexplorer.core.backends import load_tokenizer

    with pytest.raises(InputError, match="is a folder; give the model file itself"):
        load_tokenizer(f"bpe:{tmp_path}")


def test_tiktoken_file_reads_what_tiktoken_reads(tmp_path):
    """Whisper's multilingual.tiktoken has the line '= 50256' (the empty token)."""
    load = pytest.importorskip("tiktoken.load").load_tiktoken_bpe
    body = b"YQ== 0\r\n= 1\n\nYg==\t 2\rYWI=== 3\nY!WJj 4\n+/8= +5\n"
    path = tmp_path / "w.tiktoken"
    path.write_bytes(body)
    expected = {b"a": 0, b"": 1, b"b": 2, b"ab": 3, b"abc": 4, b"\xfb\xff": 5}
    assert load(str(path)) == expected
    assert read_tiktoken_file(path) == expected


@pytest.mark.parametrize("line", [b"   ", b"YQ==", b"YQ== 1 2", b"YQ 1", b"YQ== one", b"YQ== 1.0", b"YWJjZ 1"])
def test_tiktoken_file_refuses_what_tiktoken_refuses(tmp_path, line):
    load = pytest.importorskip("tiktoken.load").load_tiktoken_bpe
    path = tmp_path / "bad.tiktoken"
    path.write_bytes(b"Yg== 0\n" + line + b"\n")
    with pytest.raises(ValueError):
        load(str(path))
    with pytest.raises(ModelFormatError, match="bad.tiktoken line 2: expected"):
        read_tiktoken_file(path)


def test_tiktoken_file_refuses_a_negative_rank(tmp_path):
    path = tmp_path / "neg.tiktoken"
    path.write_bytes(b"Yg== 0\nYQ== -1\n")
    with pytest.raises(ModelFormatError, match="neg.tiktoken line 2: .*rank >= 0"):
        read_tiktoken_file(path)
