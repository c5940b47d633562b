"""Longest-match-first encoding, BERT's normalizer and pre-tokenizer (checked
against ``tokenizers``), and the vocab.txt round trip through ``tokenizers``."""

from __future__ import annotations

from pathlib import Path

import pytest
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers

from tokexplorer.core.errors import InputError, ModelFormatError, SpecialTokenError
from tokexplorer.core.io import load_wordpiece, loads_wordpiece, save_wordpiece, write_vocab_txt
from tokexplorer.core.wordpiece import WordPiece, pre_tokenize, train_wordpiece

ROOT = Path(__file__).resolve().parents[3]
REAL = [
    (ROOT / "README.md").read_text(encoding="utf-8")[:30000],
    (ROOT / "resources/samples/sample.txt").read_text(encoding="utf-8"),
]
MIXED = (
    "Café naïve résumé — Ångström «quoted» ΣΊΣΥΦΟΣ İstanbul straße\n"
    "中文分词：北京大学。日本語のテキスト、한국어 문장!\n"
    "emoji 👩‍🔬 and ZWJ\u200d, Unicode 15 \U0001fae8\U0001fa77, tab\there, NBSP\u00a0x, "
    "ctrl\x07bell\x00nul, fullwidth ＡＢＣ１２３.\n"
    "math x²+y³ ≠ z, $5.00 & 10% off; e-mail: a_b@c.d (ok?) [CLS] not special\n"
)


def test_longest_match_first_known_answers():
    wp = WordPiece(["[UNK]", "play", "##ing", "##s", "p", "##l", "##a", "##y", "pl"])
    assert [wp.vocab[i] for i in wp.encode_word("playing")] == ["play", "##ing"]
    assert [wp.vocab[i] for i in wp.encode_word("plays")] == ["play", "##s"]
    assert [wp.vocab[i] for i in wp.encode_word("plaay")] == ["pl", "##a", "##a", "##y"]
    assert wp.encode_word("pray") == [0]  # "p" then no "##r": the whole word is [UNK]
    assert wp.encode_word("x") == [0]


def test_match_steps_show_the_fallback():
    wp = WordPiece(["[UNK]", "play", "##ing"])
    steps = [(s.start, s.end, s.candidate, s.found) for s in wp.match_steps("playx")]
    assert steps == [(0, 5, "playx", False), (0, 4, "play", True), (4, 5, "##x", False)]


def test_word_over_max_chars_is_unk():
    wp = WordPiece(["[UNK]", "a", "##a"], max_input_chars_per_word=5)
    assert wp.encode_word("aaaaa") == [1, 2, 2, 2, 2]
    assert wp.encode_word("aaaaaa") == [0]
    assert wp.match_steps("aaaaaa") == []


def test_special_policies():
    wp = WordPiece(["[UNK]", "[SEP]", "a", "[", "##s", "##e", "##p", "]", "s", "e", "p"], special_tokens=["[SEP]"])
    assert wp.encode("a[SEP]", special="special") == [2, 1]
    assert [wp.vocab[i] for i in wp.encode("a[SEP]")] == ["a", "[", "[UNK]", "]"]  # "SEP" has no cover
    with pytest.raises(SpecialTokenError, match="contains the special token '\\[SEP\\]'"):
        wp.encode("a[SEP]", special="raise")


def test_spans_point_into_the_original_text():
    wp = WordPiece(["[UNK]", "cafe", "##s", "x"], lowercase=True, strip_accents=True)
    text = "  CAFÉS\u0000 x"
    toks = wp.tokens(text)
    assert [(wp.vocab[t.id], text[t.start : t.end]) for t in toks] == [("cafe", "CAFÉ"), ("##s", "S"), ("x", "x")]


def _hf_words(text: str, *, lowercase: bool, strip_accents: bool) -> list[str]:
    norm = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=strip_accents, lowercase=lowercase
    )
    return [w for w, _ in pre_tokenizers.BertPreTokenizer().pre_tokenize_str(norm.normalize_str(text))]


@pytest.mark.parametrize("lowercase,strip_accents", [(False, False), (True, True), (True, False), (False, True)])
def test_bert_pre_tokenizer_matches_tokenizers(lowercase, strip_accents):
    for text in [*REAL, MIXED]:
        ours = [w.text for w in pre_tokenize(text, pattern="bert", lowercase=lowercase, strip_accents=strip_accents)]
        assert ours == _hf_words(text, lowercase=lowercase, strip_accents=strip_accents)


def _hf_tokenizer(vocab_path: Path, *, lowercase: bool, strip_accents: bool) -> Tokenizer:
    tok = Tokenizer(models.WordPiece.from_file(str(vocab_path), unk_token="[UNK]", max_input_chars_per_word=100))
    tok.normalizer = normalizers.BertNormalizer(
        clean_text=True, handle_chinese_chars=True, strip_accents=strip_accents, lowercase=lowercase
    )
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    return tok


@pytest.mark.parametrize("lowercase,strip_accents", [(False, False), (True, True)])
def test_vocab_txt_loads_in_tokenizers_to_the_same_ids(tmp_path, lowercase, strip_accents):
    wp, _ = train_wordpiece(REAL + [MIXED], vocab_size=600, lowercase=lowercase, strip_accents=strip_accents)
    path, config = write_vocab_txt(wp, tmp_path / "vocab.txt")
    assert config == tmp_path / "tokenizer_config.json"
    hf = _hf_tokenizer(path, lowercase=lowercase, strip_accents=strip_accents)
    assert hf.get_vocab_size() == wp.vocab_size
    unseen = "Tokenizers split unseen words: antidisestablishmentarianism, Zürich, 東京, Ωmega!"
    for text in [*REAL, MIXED, unseen]:
        ids = wp.encode(text)
        assert ids == hf.encode(text, add_special_tokens=False).ids
    assert wp.unk_id in wp.encode(unseen)  # "Ω" and "東" never seen: the fallback is exercised


def test_vocab_txt_refuses_other_pre_tokenizers(tmp_path):
    wp, _ = train_wordpiece(["a b"], vocab_size=8, pattern="gpt2")
    with pytest.raises(InputError, match="gpt2 pre-tokenizer: train it with the bert pre-tokenizer to export it$"):
        write_vocab_txt(wp, tmp_path / "vocab.txt")


def test_model_file_round_trip(tmp_path):
    wp, _ = train_wordpiece(REAL, vocab_size=300, lowercase=True, pattern="o200k")
    save_wordpiece(wp, tmp_path / "m.wordpiece")
    back = load_wordpiece(tmp_path / "m.wordpiece")
    assert back.vocab == wp.vocab and back.merges == wp.merges and back.pattern == "o200k" and back.lowercase
    assert back.encode(REAL[1]) == wp.encode(REAL[1])
    with pytest.raises(ModelFormatError, match="not a tokexplorer WordPiece file"):
        loads_wordpiece('{"format": "x"}')
    with pytest.raises(ModelFormatError, match="damaged WordPiece file"):
        loads_wordpiece('{"format": "tokexplorer-wordpiece", "version": 1, "vocab": ["a"]}')


def test_decode():
    wp, _ = train_wordpiece(REAL, vocab_size=400)
    assert wp.decode(wp.encode("The tokenizer, again.")) == "The tokenizer , again ."
    wp2, _ = train_wordpiece(REAL, vocab_size=400, pattern="gpt2")
    assert wp2.decode(wp2.encode("The tokenizer, again.")) == "The tokenizer, again."
