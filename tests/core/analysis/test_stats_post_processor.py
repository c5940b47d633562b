"""Corpus statistics and ``encode --count`` count the text's tokens, never the
post-processor's added ``[CLS]``/``[SEP]``, ``<s>``/``</s>`` or BOS; the total with
them is a figure of its own (``tokens_with_post_processor`` and a note)."""

from __future__ import annotations

import json

import pytest
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors

from tokexplorer.cli import main
from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.analysis.stats_stream import streamed_stats_iter
from tokexplorer.core.backends import HuggingFaceTokenizer, WordPieceTokenizer
from tokexplorer.core.backends.hf_files import load_wordpiece_vocab
from tokexplorer.core.io import stream_corpus
from tokexplorer.core.types import run_to_end
from tokexplorer.core.wordpiece.model import WordPiece

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "hello", "world", "##s", ",", "the", "cat"]
FILES = [("a.txt", "hello worlds\nHello, the cat\n"), ("b.txt", "the cats\n")]
# the text's tokens: hello world ##s | hello , the cat | the cat ##s
TEXT_TOKENS = {"a.txt": 7, "b.txt": 3}


def _template(single: str, specials: list[tuple[str, int]]) -> HuggingFaceTokenizer:
    """A WordLevel tokenizer.json with a TemplateProcessing post-processor, built with the library."""
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3, "hello": 4, "world": 5, "the": 6, "cat": 7}
    lib = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    lib.normalizer = normalizers.Lowercase()
    lib.pre_tokenizer = pre_tokenizers.Whitespace()
    lib.add_special_tokens([s for s, _ in specials])
    lib.post_processor = processors.TemplateProcessing(single=single, special_tokens=specials)
    return HuggingFaceTokenizer(lib)


def _roberta_like() -> HuggingFaceTokenizer:
    return _template("<s> $A </s>", [("<s>", 0), ("</s>", 2)])


def _llama_like() -> HuggingFaceTokenizer:
    return _template("<s> $A", [("<s>", 0)])


@pytest.fixture()
def vocab_txt(tmp_path):
    p = tmp_path / "vocab.txt"
    p.write_text("\n".join(VOCAB) + "\n", encoding="utf-8")
    return p


def _tokens(st, i=0):
    return {r["group"]: r["tokens"] for r in st.rows() if r["tokenizer"] == st.tokenizers[i].name}


def test_vocab_txt_counts_as_our_wordpiece(vocab_txt):
    hf = load_wordpiece_vocab(vocab_txt)  # BertProcessing: [CLS] $A [SEP]
    ours = WordPieceTokenizer(WordPiece(VOCAB, lowercase=True, strip_accents=True, special_tokens=VOCAB[:5]))
    assert hf.count("hello worlds\n") == 5  # the library's encode adds [CLS] and [SEP]
    st = compute_stats([hf, ours], FILES)
    assert _tokens(st, 0) == _tokens(st, 1) == {"all": 10, **TEXT_TOKENS, "Latin": 10}
    ts = st.tokenizers[0]
    assert ts.post_processor_added == ("[CLS]", "[SEP]")
    assert ts.tokens_with_post_processor == 14  # 10 + 2 per file
    assert st.tokenizers[1].tokens_with_post_processor is None
    assert ts.notes[-1] == (
        "not counted: the post-processor's '[CLS]', '[SEP]' (2 tokens it adds to each text it encodes, "
        "one text per file: 2 files); with them: 14 tokens"
    )
    assert hf.add_special_tokens is True  # the tokenizer itself is left as it was
    js = st.to_json()["tokenizers"][0]
    assert (js["post_processor_added"], js["tokens_with_post_processor"]) == (["[CLS]", "[SEP]"], 14)


@pytest.mark.parametrize(
    ("make", "added", "with_them"),
    [(_roberta_like, ("<s>", "</s>"), 12), (_llama_like, ("<s>",), 10)],
)
def test_template_processing(make, added, with_them):
    tok = make()
    assert tok.encode("hello world") == ([0, 4, 5, 2] if len(added) == 2 else [0, 4, 5])
    st = compute_stats([tok], [("a.txt", "hello world\nHello the cat\n"), ("b.txt", "the cat world\n")])
    # hello world | hello the cat | the cat world: 8 of the text, whatever the template
    assert _tokens(st) == {"all": 8, "a.txt": 5, "b.txt": 3, "Latin": 8}
    assert st.tokenizers[0].post_processor_added == added
    assert st.tokenizers[0].tokens_with_post_processor == with_them


def test_switch_off_adds_nothing_to_leave_out():
    tok = _roberta_like()
    tok.add_special_tokens = False
    st = compute_stats([tok], [("a.txt", "hello world\n")])
    assert _tokens(st)["all"] == 2
    assert st.tokenizers[0].post_processor_added == ()
    assert st.tokenizers[0].tokens_with_post_processor is None
    assert not any("not counted" in n for n in st.tokenizers[0].notes)


def test_streamed_statistics_count_the_same(tmp_path, vocab_txt):
    paths = []
    for name, text in FILES:
        (tmp_path / name).write_text(text * 20, encoding="utf-8")
        paths.append(tmp_path / name)
    corpus = run_to_end(stream_corpus(paths, stream_bytes=1))
    st = run_to_end(streamed_stats_iter([load_wordpiece_vocab(vocab_txt)], corpus.files, piece_chars=100))
    ts = st.tokenizers[0]
    assert ts.total.tokens == 200  # (7 + 3) * 20, several pieces per file
    assert ts.tokens_with_post_processor == 204  # one text per file, not one per piece
    assert [n for n in ts.notes if n.startswith("not counted")] == [
        "not counted: the post-processor's '[CLS]', '[SEP]' (2 tokens it adds to each text it encodes, "
        "one text per file: 2 files); with them: 204 tokens"
    ]


def _run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    assert code == 0, err
    return out, err


def test_encode_count_and_stats_agree(tmp_path, vocab_txt, capsys):
    (tmp_path / "a.txt").write_text(FILES[0][1], encoding="utf-8")
    spec, f = str(vocab_txt), str(tmp_path / "a.txt")
    ids, _ = _run(capsys, "encode", "--tokenizer", spec, "--file", f)
    assert ids == "2 5 6 7 5 8 9 10 3\n"  # what the model is given: [CLS] ... [SEP]
    out, err = _run(capsys, "encode", "--tokenizer", spec, "--file", f, "--count")
    assert out == "7\n"
    assert ("not counted: the post-processor's '[CLS]', '[SEP]' (2 tokens it adds to each text it encodes); "
            "with them: 9 tokens") in err  # fmt: skip
    assert "add special tokens: off" not in err
    out, err = _run(capsys, "encode", "--tokenizer", spec, "--file", f, "--count", "--no-add-special-tokens")
    assert out == "7\n" and "not counted" not in err
    out, _ = _run(capsys, "stats", "--tokenizer", spec, f, "--json")
    data = json.loads(out)
    assert [r["tokens"] for r in data["rows"] if r["group_kind"] == "total"] == [7]
    assert data["tokenizers"][0]["tokens_with_post_processor"] == 9
