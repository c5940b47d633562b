"""The "lost characters" note of a Hugging Face tokenizer: a character is lost only when
the library's own alignment of the normalized text ties it to a character no token holds;
what the normalizer composed, decomposed, rewrote or removed is not lost."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

from tokexplorer.core.backends import HuggingFaceTokenizer
from tokexplorer.core.backends.huggingface.spans import normalized_alignment

LOST = "in no token (the model has none for them; they are lost)"


def _char_model(normalizer: normalizers.Normalizer, vocab: str, *, byte_fallback: bool = False) -> Tokenizer:
    """A BPE without merges over the characters of ``vocab`` (no pre-tokenizer: every
    character of the normalized text is looked up alone; one not in the vocab is dropped)."""
    pieces = dict.fromkeys(vocab)
    if byte_fallback:
        pieces.update(dict.fromkeys(f"<0x{b:02X}>" for b in range(256)))
    tok = Tokenizer(models.BPE(vocab={p: i for i, p in enumerate(pieces)}, merges=[], byte_fallback=byte_fallback))
    tok.normalizer = normalizer
    return tok


def _uncovered(lib: Tokenizer, text: str) -> list[str]:
    """The characters of ``text`` no token's offsets cover (the rule that gave false notes)."""
    enc = lib.encode(text)
    covered = set()
    for a, b in enc.offsets:
        covered.update(range(a, b))
    return [c for i, c in enumerate(text) if i not in covered and not c.isspace()]


# (normalizer, text, the characters the raw offsets leave uncovered although nothing is lost)
REWRITTEN = [
    (normalizers.NFKC(), "cafe\u0301", ["\u0301"]),  # composed into é
    (normalizers.NFC(), "cafe\u0301", ["\u0301"]),
    (normalizers.NFKC(), "\ufb01x e\u0301", ["\u0301"]),  # ﬁ -> fi, e + U+0301 -> é
    (normalizers.Replace("-", ""), "a-b-c", ["-", "-"]),  # removed
    (normalizers.BertNormalizer(), "a\x00b\u200dc", ["\x00", "\u200d"]),  # BERT removes controls and ZWJ
    (normalizers.Sequence([normalizers.NFKD(), normalizers.Replace("\u0301", "")]), "é!", []),
]


@pytest.mark.parametrize(("normalizer", "text", "uncovered"), REWRITTEN)
def test_what_the_normalizer_rewrote_is_not_lost(normalizer, text, uncovered):
    vocab = normalizer.normalize_str(text)
    lib = _char_model(normalizer, vocab)
    assert _uncovered(lib, text) == uncovered  # what the old rule called lost
    assert not any(LOST in n for n in HuggingFaceTokenizer(lib).tokenize(text).notes)


@pytest.mark.parametrize(
    ("normalizer", "text", "vocab", "lost"),
    [
        (normalizers.NFKC(), "cafe\u0301 zz", "café", "2 characters of the text are {}: 'z'"),
        (normalizers.NFD(), "café", "caf", "1 character of the text is {}: 'é'"),  # e and U+0301 both dropped
        (normalizers.NFKD(), "\ufb01", "f", None),  # ﬁ -> "fi": its f is kept, so ﬁ is in a token
        (normalizers.Lowercase(), "ABC", "ab", "1 character of the text is {}: 'C'"),
        (normalizers.Strip(), "  ab  ", "a", "1 character of the text is {}: 'b'"),
        (normalizers.Prepend("\u2581"), "ab", "\u2581a", "1 character of the text is {}: 'b'"),
        (normalizers.Replace(" ", "\u2581"), "a b", "a\u2581", "1 character of the text is {}: 'b'"),
        (normalizers.Replace(" ", "\u2581"), "ab ", "ab", None),  # white space of the text is never lost
        (normalizers.BertNormalizer(lowercase=True), "Ab\x00C", "ab", "1 character of the text is {}: 'C'"),
    ],
)
def test_what_no_token_holds_is_lost(normalizer, text, vocab, lost):
    tok = HuggingFaceTokenizer(_char_model(normalizer, vocab))
    notes = [n for n in tok.tokenize(text).notes if LOST in n]
    assert notes == ([lost.format(LOST)] if lost else [])
    assert [n for n in tok.encode_with_notes(text)[1] if LOST in n] == notes


def test_byte_fallback_keeps_every_character():
    """A byte-fallback model spells what its vocab lacks as <0xNN> pieces: nothing lost."""
    lib = _char_model(normalizers.NFKC(), "caf", byte_fallback=True)
    text = "cafe\u0301 ü"
    assert lib.encode(text).tokens == ["c", "a", "f", "<0xC3>", "<0xA9>", "<0x20>", "<0xC3>", "<0xBC>"]
    assert not any(LOST in n for n in HuggingFaceTokenizer(lib).tokenize(text).notes)


def test_nfkc_byte_level_bpe_holds_the_composed_character():
    """The newcomer's case (anthropic's tokenizer.json: NFKC, byte-level BPE): one token holds
    "é", which NFKC made of "e" + U+0301; the library's offsets end before U+0301."""
    lib = Tokenizer(models.BPE())
    lib.normalizer = normalizers.NFKC()
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    trainer = trainers.BpeTrainer(
        vocab_size=300, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    lib.train_from_iterator(["café"] * 10, trainer)
    enc = lib.encode("cafe\u0301")
    assert (enc.tokens, enc.offsets) == (["café".encode().decode("latin-1").replace("\xc3", "Ã")], [(0, 4)])
    notes = HuggingFaceTokenizer(lib).tokenize("cafe\u0301").notes
    assert notes == ("normalized (NFKC): 'e\u0301' (U+0065 U+0301) → 'é' (U+00E9)",)


def test_bert_drops_zwj_of_emoji_without_a_lost_note():
    """BERT's normalizer removes the two ZWJs of a family emoji (format characters); the
    three emoji are pieces of the vocab: no character is lost."""
    vocab = ["[UNK]", "hello", "\U0001f468", "##\U0001f469", "##\U0001f467"]
    lib = Tokenizer(models.WordPiece({p: i for i, p in enumerate(vocab)}, unk_token="[UNK]"))
    lib.normalizer = normalizers.BertNormalizer()
    lib.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok = HuggingFaceTokenizer(lib)
    text = "\U0001f468\u200d\U0001f469\u200d\U0001f467 hello"
    assert lib.encode(text).ids == [2, 3, 4, 1]
    assert _uncovered(tok.tokenizer, text) == ["\u200d", "\u200d"]
    assert not any(LOST in n for n in tok.tokenize(text).notes)


def test_alignment_is_the_librarys():
    assert normalized_alignment("\u0130x", normalizers.Lowercase()) == [("i", 0, 1), ("\u0307", 0, 1), ("x", 1, 2)]
    assert normalized_alignment("  a  ", normalizers.Strip()) == [("a", 2, 3)]
    assert normalized_alignment("ab", normalizers.Prepend("\u2581")) == [("\u2581", 0, 1), ("a", 0, 1), ("b", 1, 2)]
    bert = normalized_alignment("\u4e2dc", normalizers.BertNormalizer())
    assert bert == [(" ", 0, 1), ("\u4e2d", 0, 1), (" ", 0, 1), ("c", 1, 2)]
