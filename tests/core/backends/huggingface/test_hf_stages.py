"""pipeline_stages(): normalized text, pre-tokens, model tokens and the post-processor's
tokens of a Hugging Face tokenizer, every offset in the user's text."""

from __future__ import annotations

import pytest
from tokenizers import PreTokenizedString

from fixtures import hf
from tokexplorer.core.backends import HuggingFaceTokenizer, pipeline_stages, stage_token
from tokexplorer.core.errors import InputError, SpecialTokenError


def _pre(st):
    return [(p.text, p.char_start, p.char_end, p.byte_start, p.byte_end, p.added) for p in st.pre_tokens]


def test_wordpiece_stages_with_an_added_token():
    tok = HuggingFaceTokenizer(hf.wordpiece())
    text = "HÉLLO [MASK] Wörld!"
    st = pipeline_stages(tok, text, special="special")
    assert st.normalizer == ("BertNormalizer",) and st.pre_tokenizer == ("BertPreTokenizer",)
    assert st.normalized == "hello [MASK] world!"
    assert _pre(st) == [
        ("hello", 0, 5, 0, 6, False),
        ("[MASK]", 6, 12, 7, 13, True),
        ("world", 13, 18, 14, 20, False),
        ("!", 18, 19, 20, 21, False),
    ]
    assert [t.piece for t in st.model_tokens] == ["hello", "[MASK]", "world", "!"]
    assert [(i, t.piece, t.byte_start) for i, t in st.post_processor_tokens] == [(0, "[CLS]", 0), (5, "[SEP]", 21)]
    assert st.model == "WordPiece" and st.post_processor == ("BertProcessing",) and st.add_special_tokens
    # the full sequence is the model's tokens with the post-processor's in their places
    full = tok.tokenize(text, special="special").ids
    assert [t.id for t in st.model_tokens] == tok.tokenizer.encode(text, add_special_tokens=False).ids
    assert [full[i] for i, _ in st.post_processor_tokens] == [2, 3]


def test_plain_policy_leaves_special_text_to_the_pipeline():
    tok = HuggingFaceTokenizer(hf.wordpiece())
    st = pipeline_stages(tok, "[MASK]", special="plain")
    assert _pre(st) == [("[", 0, 1, 0, 1, False), ("mask", 1, 5, 1, 5, False), ("]", 5, 6, 5, 6, False)]
    assert st.normalized == "[mask]"
    with pytest.raises(SpecialTokenError):
        pipeline_stages(tok, "[MASK]", special="raise")
    with pytest.raises(InputError):
        pipeline_stages(tok, "x", special="all")


def test_unigram_stages_after_nfkc():
    tok = HuggingFaceTokenizer(hf.unigram())
    st = pipeline_stages(tok, "ﬁne ① the")
    assert st.normalized == "fine 1 the"
    assert _pre(st) == [
        ("▁fine", 0, 3, 0, 5, False),
        ("▁1", 3, 5, 5, 9, False),
        ("▁the", 5, 9, 9, 13, False),
    ]
    assert [t.piece for t in st.model_tokens] == ["▁fi", "ne", "▁1", "▁the"]
    assert [p.bytes for p in st.pre_tokens] == [b" fine", b" 1", b" the"]  # Metaspace's ▁ is a space
    assert [stage_token(t) for t in st.model_tokens] == ["␣fi", "ne", "␣1", "␣the"]
    assert [(i, t.piece, t.byte_start, t.char_start) for i, t in st.post_processor_tokens] == [(4, "</s>", 13, 9)]


def test_byte_level_stages_match_the_library_pre_tokenizer():
    tok = HuggingFaceTokenizer(hf.byte_level_bpe())
    text = "hi there 你好"
    st = pipeline_stages(tok, text)
    pts = PreTokenizedString(text)
    tok.tokenizer.pre_tokenizer.pre_tokenize(pts)
    assert [(p.text, p.char_start, p.char_end) for p in st.pre_tokens] == [
        (s, a, b) for s, (a, b), _ in pts.get_splits()
    ]
    assert [p.text for p in st.pre_tokens] == ["hi", "Ġthere", "Ġä½łå¥½"]
    # what each stands for: the text over its span (no normalizer here)
    assert [p.bytes for p in st.pre_tokens] == [b"hi", b" there", " 你好".encode()]
    assert st.normalizer == () and st.normalized == text
    assert [(i, t.piece) for i, t in st.post_processor_tokens] == [(0, "<s>")]


def test_stages_show_what_the_post_processor_would_add_when_switched_off():
    tok = HuggingFaceTokenizer(hf.wordpiece())
    tok.add_special_tokens = False
    st = pipeline_stages(tok, "hello")
    assert not st.add_special_tokens
    assert [t.piece for _, t in st.post_processor_tokens] == ["[CLS]", "[SEP]"]
    js = st.to_json()
    assert js["add_special_tokens"] is False
    assert js["pre_tokens"] == [
        {"text": "hello", "bytes": "68656c6c6f", "char_start": 0, "char_end": 5, "byte_start": 0, "byte_end": 5}
    ]
    assert [(p["index"], p["piece"]) for p in js["post_processor_tokens"]] == [(0, "[CLS]"), (2, "[SEP]")]
    assert js["model_tokens"][0]["piece"] == "hello"
