"""HuggingFaceTokenizer against the real ``tokenizers`` library: ids, bytes, spans,
special tokens, for byte-level BPE, WordPiece (BERT) and Unigram (T5) files."""

from __future__ import annotations

import pytest
from tokenizers import Tokenizer, decoders, models, normalizers

from fixtures import hf
from tokexplorer.core.backends import HuggingFaceTokenizer, load_tokenizer
from tokexplorer.core.errors import InputError, SpecialTokenError

TEXTS = [
    "The cat sat on the mat.",
    "café naïve résumé über straße",
    "你好世界，世界你好。",
    "def tokenize(text):\n    return text.split()\n",
    "🙂 hello 🙂 world 👩‍👩‍👧 𝔘𝔫𝔦",
    "한국어 텍스트 العربية हिन्दी",
    "e\u0301 combining and  two  spaces\t\ttabs",
    "",
]


@pytest.fixture(scope="module")
def bpe_file(tmp_path_factory):
    return hf.save(hf.byte_level_bpe(), tmp_path_factory.mktemp("bpe"))


@pytest.fixture(scope="module")
def bpe(bpe_file):
    return load_tokenizer(f"hf:{bpe_file}")


@pytest.fixture(scope="module")
def lib_bpe(bpe_file):
    return Tokenizer.from_file(str(bpe_file))


@pytest.mark.parametrize("text", TEXTS)
def test_byte_level_ids_bytes_and_spans_match_the_library(bpe, lib_bpe, text):
    tz = bpe.tokenize(text, special="special")
    assert tz.ids == lib_bpe.encode(text).ids
    assert tz.tokens[0].piece == "<s>" and tz.tokens[0].special and tz.tokens[0].byte_end == 0
    # the tokens' bytes are the text's UTF-8, laid end to end by their spans
    assert b"".join(t.bytes for t in tz.tokens) == text.encode("utf-8")
    src = text.encode("utf-8")
    assert all(src[t.byte_start : t.byte_end] == t.bytes for t in tz.tokens)
    assert tz.exact_offsets and tz.normalized is None
    assert bpe.decode_bytes(tz.ids[1:]) == src


def test_byte_level_tokens_cutting_a_character_get_their_own_bytes(bpe, lib_bpe):
    # 𝔘 (4 bytes) is not in the training text: four one-byte tokens that the library
    # gives the same character offsets
    text = "a𝔘b"
    enc = lib_bpe.encode(text, add_special_tokens=False)
    assert enc.offsets == [(0, 1), (1, 2), (1, 2), (1, 2), (1, 2), (2, 3)]
    tz = bpe.tokenize(text)
    assert [(t.byte_start, t.byte_end, t.char_start, t.char_end, t.partial) for t in tz.tokens[1:]] == [
        (0, 1, 0, 1, False),
        (1, 2, 1, 2, True),
        (2, 3, 1, 2, True),
        (3, 4, 1, 2, True),
        (4, 5, 1, 2, True),
        (5, 6, 2, 3, False),
    ]
    assert [t.bytes for t in tz.tokens[2:6]] == [b"\xf0", b"\x9d", b"\x94", b"\x98"]
    assert [t.piece for t in tz.tokens[2:6]] == ["ð", "Ŀ", "Ķ", "ĺ"]


def test_add_special_tokens_switch(bpe, lib_bpe):
    text = "hello world"
    on = bpe.tokenize(text)
    assert on.ids == lib_bpe.encode(text).ids and on.ids[0] == 1
    assert "the post-processor added '<s>' (add special tokens: on)" in on.notes
    off = bpe.tokenize_with(text, add_special_tokens=False)
    assert off.ids == lib_bpe.encode(text, add_special_tokens=False).ids == on.ids[1:]
    assert "add special tokens: off (the post-processor's tokens are left out)" in off.notes
    assert bpe.add_special_tokens  # tokenize_with changes one call only
    try:
        bpe.add_special_tokens = False
        assert bpe.encode(text) == off.ids and bpe.count(text) == len(off.ids)
    finally:
        bpe.add_special_tokens = True
    assert bpe.count(text) == len(on.ids)


def test_special_policies(bpe, lib_bpe):
    text = "hi<|endoftext|>yo"
    special = bpe.tokenize(text, special="special")
    assert special.ids == lib_bpe.encode(text).ids
    eot = next(t for t in special.tokens if t.id == 0)
    assert eot.special and eot.bytes == b"<|endoftext|>" and (eot.byte_start, eot.byte_end) == (2, 15)
    plain = bpe.tokenize(text, special="plain")
    lib_bpe.encode_special_tokens = True
    try:
        assert plain.ids == lib_bpe.encode(text).ids
    finally:
        lib_bpe.encode_special_tokens = False
    assert 0 not in plain.ids and "'<|endoftext|>' encoded as plain text" in plain.notes
    assert b"".join(t.bytes for t in plain.tokens) == text.encode()
    assert bpe.encode(text, special="plain") == plain.ids and bpe.encode(text, special="special") == special.ids
    with pytest.raises(SpecialTokenError, match="'<|endoftext|>'"):
        bpe.tokenize(text, special="raise")
    with pytest.raises(SpecialTokenError):
        bpe.encode(text, special="raise")
    assert bpe.special_tokens == {"<|endoftext|>": 0, "<s>": 1}


def test_wordpiece_spans_in_the_original_text_after_lowercasing_and_accent_stripping():
    tok = HuggingFaceTokenizer(hf.wordpiece())
    text = "HÉLLO, Wörld! Unbelievable Café ﬁ 你"
    tz = tok.tokenize(text)
    assert tz.ids == tok.tokenizer.encode(text).ids == [2, 5, 14, 6, 11, 8, 9, 10, 7, 1, 13, 3]
    rows = [(t.piece, t.bytes, t.byte_start, t.byte_end, t.char_start, t.char_end) for t in tz.tokens]
    assert rows == [
        ("[CLS]", b"", 0, 0, 0, 0),
        ("hello", b"hello", 0, 6, 0, 5),
        (",", b",", 6, 7, 5, 6),
        ("world", b"world", 8, 14, 7, 12),
        ("!", b"!", 14, 15, 12, 13),
        ("un", b"un", 16, 18, 14, 16),
        ("##believ", b"believ", 18, 24, 16, 22),
        ("##able", b"able", 24, 28, 22, 26),
        ("cafe", b"cafe", 29, 34, 27, 31),
        ("[UNK]", "ﬁ".encode(), 35, 38, 32, 33),
        ("你", "你".encode(), 39, 42, 34, 35),
        ("[SEP]", b"", 42, 42, 35, 35),
    ]
    assert [text[t.char_start : t.char_end] for t in tz.tokens[1:-1]] == [
        "HÉLLO", ",", "Wörld", "!", "Un", "believ", "able", "Café", "ﬁ", "你",
    ]  # fmt: skip
    assert [t.unknown for t in tz.tokens].count(True) == 1 and tz.tokens[9].unknown and not tz.tokens[9].special
    assert tz.tokens[0].special and tz.tokens[-1].special
    assert not tz.exact_offsets
    assert tz.normalized == "hello, world! unbelievable cafe ﬁ  你 "
    assert "1 unknown token: 'ﬁ'" in tz.notes
    assert "the post-processor added '[CLS]', '[SEP]' (add special tokens: on)" in tz.notes
    assert tok.token_bytes(9) == b"believ" and tok.token_bytes(1) == b"[UNK]"
    assert tok.decode(tz.ids) == "[CLS] hello, world! unbelievable cafe [UNK] 你 [SEP]"


def test_wordpiece_text_spelling_unk_is_not_unknown():
    tok = HuggingFaceTokenizer(hf.wordpiece())
    tz = tok.tokenize("[UNK] hello", special="special")
    assert tz.ids == [2, 1, 5, 3]
    assert tz.tokens[1].special and not tz.tokens[1].unknown and tz.tokens[1].bytes == b"[UNK]"


def test_unigram_spans_in_the_original_text_after_nfkc():
    tok = HuggingFaceTokenizer(hf.unigram())
    text = "ﬁne ① ㎏ the cats"
    tz = tok.tokenize(text)
    assert tz.ids == tok.tokenizer.encode(text).ids == [3, 4, 5, 18, 6, 7, 8, 1]
    rows = [(t.piece, t.bytes, t.byte_start, t.byte_end, t.char_start, t.char_end) for t in tz.tokens]
    assert rows == [
        ("▁fi", b" fi", 0, 3, 0, 1),
        ("ne", b"ne", 3, 5, 1, 3),
        ("▁1", b" 1", 5, 9, 3, 5),
        ("▁kg", b" kg", 9, 13, 5, 7),
        ("▁the", b" the", 13, 17, 7, 11),
        ("▁cat", b" cat", 17, 21, 11, 15),
        ("s", b"s", 21, 22, 15, 16),
        ("</s>", b"", 22, 22, 16, 16),
    ]
    assert tz.normalized == "fine 1 kg the cats"
    assert "normalized (NFKC): 'ﬁ' → 'fi', '①' → '1', '㎏' → 'kg'" in tz.notes
    # the library's Metaspace decoder drops the prefix space it added
    assert tok.decode(tz.ids[:-1]) == tok.tokenizer.decode(tz.ids[:-1]) == "fine 1 kg the cats"


def test_byte_fallback_pieces_get_one_byte_each():
    vocab = {"<unk>": 0, "▁": 1, "a": 2, "▁a": 3, **{f"<0x{b:02X}>": 4 + b for b in range(256)}}
    lib = Tokenizer(models.BPE(vocab, [("▁", "a")], unk_token="<unk>", byte_fallback=True))
    lib.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    lib.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse()])
    tok = HuggingFaceTokenizer(lib)
    tz = tok.tokenize("a é")
    assert tz.ids == lib.encode("a é").ids == [3, 1, 4 + 0xC3, 4 + 0xA9]
    assert [(t.bytes, t.byte_start, t.byte_end, t.partial) for t in tz.tokens] == [
        (b" a", 0, 1, False),
        (b" ", 1, 2, False),
        (b"\xc3", 2, 3, True),
        (b"\xa9", 3, 4, True),
    ]
    assert tok.decode_bytes(tz.ids) == b" a \xc3\xa9"


def test_notes_given_at_construction_are_shown():
    tok = HuggingFaceTokenizer(hf.wordpiece(), notes=["lowercasing assumed from the vocabulary"])
    assert tok.tokenize("hello").notes[-1] == "lowercasing assumed from the vocabulary"
    assert tok.description.endswith(" · lowercasing assumed from the vocabulary")


def test_token_bytes_and_vocabulary(bpe):
    assert bpe.vocab_size == 320
    assert bpe.token_bytes(0) == b"<|endoftext|>"
    space_id = bpe.tokenizer.token_to_id("Ġ")
    assert bpe.token_bytes(space_id) == b" "
    with pytest.raises(InputError, match="token id 320 is not in the vocabulary"):
        bpe.token_bytes(320)
    with pytest.raises(InputError):
        bpe.token_bytes(-1)


def test_truncation_and_padding_of_the_file_are_turned_off_and_said():
    lib = hf.wordpiece()
    lib.enable_truncation(3)
    lib.enable_padding(length=8, pad_id=0, pad_token="[PAD]")
    assert lib.encode("hello world hello world").ids == [2, 5, 3, 0, 0, 0, 0, 0]
    tok = HuggingFaceTokenizer(lib)
    tz = tok.tokenize("hello world hello world")
    assert tz.ids == [2, 5, 6, 5, 6, 3] == lib.encode("hello world hello world").ids
    assert tz.notes[-2:] == (
        "the file truncates to 3 tokens; turned off: the whole text is tokenized",
        "the file pads with [PAD]; turned off",
    )
    assert tok.encode("hello world hello world", special="plain") == tz.ids


def test_decode_report_spells_pieces_and_checks_ids_without_the_post_processor(bpe):
    from tokexplorer.core.analysis import decode_ids

    ids = bpe.tokenize_with("hi 你好", add_special_tokens=False).ids
    report = decode_ids(bpe, ids)
    assert report.text == "hi 你好" and report.canonical
    assert [t.spelling for t in report.tokens] == [bpe.piece(i) for i in ids]
    assert [t.spelling for t in report.tokens][-1] == "ä½łå¥½"
    wp = HuggingFaceTokenizer(hf.wordpiece())
    assert decode_ids(wp, [5, 6]).text == "hello world" and decode_ids(wp, [5, 6]).canonical
    assert wp.piece(9) == "##believ" and wp.piece(99) == ""


def test_bert_normalizer_note_counts_the_spaces_it_adds_around_cjk():
    """BERT's normalizer puts a space on each side of every CJK character: on a long text
    the note gives how many whitespace characters it added, before and after (not "N of
    fewer")."""
    text = "中文的文本 ok\n" * 400  # longer than the diff limit: counts only
    tok = HuggingFaceTokenizer(hf.wordpiece())
    normalized = tok.tokenizer.normalizer.normalize_str(text)
    before = sum(c.isspace() for c in text)
    after = sum(c.isspace() for c in normalized)
    assert (before, after) == (800, 4800)
    notes = tok.tokenize(text).notes
    assert "normalized: 4,000 whitespace characters added (800 before, 4,800 after)" in notes


def test_a_tokenizer_that_drops_text_says_how_much(tmp_path):
    """An empty vocab makes the library return no token at all: the lost characters are
    noted (tokenize, encode and count alike); BERT's dropped spaces and [UNK] are not losses."""
    path = tmp_path / "tj.json"
    path.write_text('{"model": {"type": "BPE", "vocab": {}, "merges": []}}', encoding="utf-8")
    tok = load_tokenizer(str(path))
    assert tok.tokenizer.encode("hi there").ids == []  # the library drops everything
    note = (
        "7 characters of the text are in no token (the model has none for them; they are lost): 'h', 'i', 't', 'e', 'r'"
    )
    assert note in tok.tokenize("hi there").notes
    ids, notes = tok.encode_with_notes("hi there")
    assert ids == [] and note in notes
    bert = HuggingFaceTokenizer(hf.wordpiece())
    assert not any("in no token" in n for n in bert.tokenize("hello   world zzz").notes)
