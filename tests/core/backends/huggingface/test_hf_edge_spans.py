"""Spans of Hugging Face tokens where the library's offsets do not tile the text:
the ``▁`` a Metaspace prefix inserts (Llama 2, T5, XLM-R style), and white space that
ByteLevel's ``trim_offsets`` (RoBERTa style) leaves out of a token's offsets.

The ids and offsets asserted are the library's own (tokenizers 0.23.3); the spans are
what each token's bytes cover in the text.
"""

from __future__ import annotations

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

from tokexplorer.core.backends import HuggingFaceTokenizer


def _llama2_style() -> Tokenizer:
    """BPE with byte fallback, the normalizer prepending ``▁`` (Llama 2's tokenizer.json)."""
    vocab = {"<unk>": 0, "▁": 1, "i": 2, "n": 3, "in": 4, **{f"<0x{b:02X}>": 5 + b for b in range(256)}}
    lib = Tokenizer(models.BPE(vocab, [("i", "n")], unk_token="<unk>", byte_fallback=True))
    lib.normalizer = normalizers.Sequence([normalizers.Prepend("▁"), normalizers.Replace(" ", "▁")])
    lib.decoder = decoders.Sequence([decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse()])
    return lib


def _rows(tok: HuggingFaceTokenizer, text: str) -> list[tuple]:
    return [(t.piece, t.bytes, t.byte_start, t.byte_end, t.char_start, t.char_end) for t in tok.tokenize(text).tokens]


def test_inserted_prefix_takes_no_character_from_the_token_after_it():
    lib = _llama2_style()
    enc = lib.encode("\t\tin")
    # the library gives the inserted '▁' the first tab's offsets
    assert enc.tokens == ["▁", "<0x09>", "<0x09>", "in"]
    assert enc.ids == [1, 14, 14, 4]
    assert enc.offsets == [(0, 1), (0, 1), (1, 2), (2, 4)]
    assert _rows(HuggingFaceTokenizer(lib), "\t\tin") == [
        ("▁", b" ", 0, 0, 0, 0),
        ("<0x09>", b"\t", 0, 1, 0, 1),
        ("<0x09>", b"\t", 1, 2, 1, 2),
        ("in", b"in", 2, 4, 2, 4),
    ]


def test_inserted_prefix_before_byte_fallback_pieces_of_one_character():
    lib = _llama2_style()
    enc = lib.encode("é")
    assert enc.ids == [1, 200, 174] and enc.offsets == [(0, 1), (0, 1), (0, 1)]
    tz = HuggingFaceTokenizer(lib).tokenize("é")
    assert [(t.bytes, t.byte_start, t.byte_end, t.partial) for t in tz.tokens] == [
        (b" ", 0, 0, False),
        (b"\xc3", 0, 1, True),
        (b"\xa9", 1, 2, True),
    ]


def test_a_real_space_after_the_inserted_prefix_is_covered_once():
    lib = _llama2_style()
    enc = lib.encode(" \tin")
    assert enc.tokens == ["▁", "▁", "<0x09>", "in"] and enc.offsets == [(0, 1), (0, 1), (1, 2), (2, 4)]
    spans = [(t.byte_start, t.byte_end) for t in HuggingFaceTokenizer(lib).tokenize(" \tin").tokens]
    assert spans == [(0, 1), (1, 1), (1, 2), (2, 4)]


def test_unigram_metaspace_prefix_does_not_shift_the_tokens_after_it():
    lib = Tokenizer(models.Unigram([("<unk>", 0.0), ("▁", -1.0), ("a", -2.0), ("▁b", -1.5)], unk_id=0))
    lib.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    enc = lib.encode("aa b")
    assert enc.tokens == ["▁", "a", "a", "▁b"] and enc.ids == [1, 2, 2, 3]
    assert enc.offsets == [(0, 1), (0, 1), (1, 2), (2, 4)]
    assert _rows(HuggingFaceTokenizer(lib), "aa b") == [
        ("▁", b" ", 0, 0, 0, 0),
        ("a", b"a", 0, 1, 0, 1),
        ("a", b"a", 1, 2, 1, 2),
        ("▁b", b" b", 2, 4, 2, 4),
    ]


def test_byte_level_trim_offsets_spaces_belong_to_their_tokens():
    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    vocab = {c: i for i, c in enumerate(alphabet)} | {"Ġa": 256, "ĠĠ": 257, "Ġä": 258}
    lib = Tokenizer(models.BPE(vocab, [("Ġ", "a"), ("Ġ", "Ġ"), ("Ġ", "ä")]))
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=True)
    lib.post_processor = processors.ByteLevel(trim_offsets=True)
    lib.decoder = decoders.ByteLevel()
    tok = HuggingFaceTokenizer(lib)
    enc = lib.encode("a  a")
    assert enc.tokens == ["a", "Ġ", "Ġa"] and enc.offsets == [(0, 1), (2, 2), (3, 4)]
    tz = tok.tokenize("a  a")
    assert [(t.bytes, t.byte_start, t.byte_end) for t in tz.tokens] == [(b"a", 0, 1), (b" ", 1, 2), (b" a", 2, 4)]
    assert tz.exact_offsets
    enc = lib.encode("a   ")
    assert enc.tokens == ["a", "ĠĠ", "Ġ"] and enc.offsets == [(0, 1), (3, 3), (4, 4)]
    assert [(t.byte_start, t.byte_end) for t in tok.tokenize("a   ").tokens] == [(0, 1), (1, 3), (3, 4)]
    enc = lib.encode("a  你")
    assert enc.tokens == ["a", "Ġ", "Ġä", "½", "ł"]
    assert enc.offsets == [(0, 1), (2, 2), (3, 4), (3, 4), (3, 4)]
    tz = tok.tokenize("a  你")
    assert [(t.bytes, t.byte_start, t.byte_end, t.partial) for t in tz.tokens] == [
        (b"a", 0, 1, False),
        (b" ", 1, 2, False),
        (b" \xe4", 2, 4, True),
        (b"\xbd", 4, 5, True),
        (b"\xa0", 5, 6, True),
    ]
    assert tz.exact_offsets


def test_long_text_metaspace_note_says_what_came_in():
    # over 2,000 characters the note counts; each space became '▁' and one '▁' was prepended
    text = "in i " * 500  # 2,500 characters, 1,000 spaces
    assert _llama2_style().normalizer.normalize_str(text).count("▁") == 1_001
    notes = HuggingFaceTokenizer(_llama2_style()).notes(text)
    assert "normalized: 1,000 of 1,000 whitespace characters removed; 1,001 characters inserted ('▁' ×1,001)" in notes
    assert not any("0 non-whitespace" in n for n in notes)
