"""Counting paths print notes without building tokens (issue 14): ``Tokenizer.notes``
of SentencePiece and Hugging Face tokenizers comes from ids, sequence ids and the
normalizer, and must be exactly the notes of ``tokenize`` (which builds spans), on
multilingual text with unknown pieces, special-token spellings, normalization and
the post-processor on and off."""

from __future__ import annotations

from collections import Counter

import pytest

from fixtures import hf
from fixtures.multilingual import multilingual_text
from tokexplorer.core.backends import HuggingFaceTokenizer

TEXTS = [
    multilingual_text(400, seed=3),
    "The cat sat on the mat.\ncafé naïve\n",
    "hello <s> world </s> <|endoftext|> [CLS] ok\n",
    "plain ascii words only\n",
    "",
    "  lead and trail  \n\n",
    "a\ufe30b \u00a0 x\x00y",
]


def _policies():
    return ("plain", "special")


@pytest.mark.parametrize("name", ["SP120", "SPID", "SPBF"])
def test_sentencepiece_notes_are_those_of_tokenize(sp_models, name):
    tok = sp_models[name]
    for text in TEXTS:
        for special in _policies():
            assert tok.notes(text, special=special) == tok.tokenize(text, special=special).notes, (text, special)


def test_sentencepiece_notes_without_unknown_pieces_skip_the_spans(sp_models, monkeypatch):
    """A text whose characters are all pieces gets its notes without ``_tokenize``; one
    holding a character that is no piece still says which unknown pieces it got."""
    tok = sp_models["SP120"]
    text = "the cat sat on the mat\n"
    want = tok.tokenize(text).notes
    unknown_text = "the cat \u4e2d\u6587 \U0001f30a\n"
    want_unknown = tok.tokenize(unknown_text).notes
    assert any("unknown piece" in n for n in want_unknown)

    def refuse(*_a, **_k):
        raise AssertionError("spans built for a text without unknown pieces")

    monkeypatch.setattr(type(tok), "_tokenize", refuse)
    assert tok.notes(text) == want
    monkeypatch.undo()
    assert tok.notes(unknown_text) == want_unknown


@pytest.mark.parametrize("build", [hf.byte_level_bpe, hf.wordpiece, hf.unigram])
@pytest.mark.parametrize("add", [True, False])
def test_huggingface_notes_are_those_of_tokenize(build, add):
    tok = HuggingFaceTokenizer(build())
    tok.add_special_tokens = add
    for text in TEXTS:
        for special in _policies():
            assert tok.notes(text, special=special) == tok.tokenize(text, special=special).notes, (text, special)


def test_notes_under_raise_refuse_as_tokenize_does(sp_models):
    from tokexplorer.core.errors import SpecialTokenError

    for tok in (sp_models["SP120"], HuggingFaceTokenizer(hf.byte_level_bpe())):
        text = "a <s> b <|endoftext|>"
        with pytest.raises(SpecialTokenError) as want:
            tok.tokenize(text, special="raise")
        with pytest.raises(SpecialTokenError) as got:
            tok.notes(text, special="raise")
        assert str(got.value) == str(want.value)


def _lines():
    return [line.rstrip("\r\n") for line in multilingual_text(600, seed=11).splitlines(True)] + ["", "a\ud800b"]


@pytest.mark.parametrize("name", ["SP120", "SPID", "SPBF"])
def test_sentencepiece_round_trips_in_one_call_are_those_of_each_line(sp_models, name):
    tok = sp_models[name]
    lines = _lines()
    want = [tok.decode(tok.encode(t)) == t for t in lines]
    assert True in want and False in want
    assert tok.round_trips(lines) == want
    assert tok.round_trips(lines, special="special") == want
    assert tok.round_trips([]) == []


@pytest.mark.parametrize("build", [hf.byte_level_bpe, hf.wordpiece, hf.unigram])
def test_huggingface_round_trips_in_one_batch_are_those_of_each_line(build):
    tok = HuggingFaceTokenizer(build())
    lines = _lines() + ["x <|endoftext|> y"]
    for special in ("plain", "special"):
        want = [tok.round_trip(t, special=special) == t for t in lines]
        assert tok.round_trips(lines, special=special) == want
    assert False in want


@pytest.mark.parametrize("name", ["SP120", "SPID", "SPBF"])
def test_unknown_pieces_are_found_part_by_part(sp_models, monkeypatch, name):
    """A model whose ids do not change at line starts looks for unknown pieces only in
    the parts that hold one (cut at line starts); the notes are those of the whole text."""
    from tokexplorer.core.backends.sentencepiece import notes as sp_notes

    tok = sp_models[name]
    text = "\n".join(f"Line {i} the cat {multilingual_text(12, seed=i)}" for i in range(60))
    want = tok.tokenize(text).notes
    monkeypatch.setattr(sp_notes, "NOTE_PART_CHARS", 200)
    assert tok.notes(text) == want
    if name == "SP120":
        assert tok.line_cuts_exact and any("unknown piece" in n for n in want)


def test_long_normalization_counts_are_those_of_each_character():
    """The counts-only note of a long text: white space and other characters counted
    as ``str.isspace`` tells them, character by character."""
    import unicodedata2

    from tokexplorer.core.backends.sentencepiece.normalization import describe_normalization

    text = multilingual_text(3000, seed=5) + "\u2028\x1c\x85"
    normalized = unicodedata2.normalize("NFKC", " ".join(text.split()))
    ws_before = sum(c.isspace() for c in text)
    ws = ws_before - sum(c.isspace() for c in normalized)
    # the characters NFKC took away (more of them before than after) and those it put instead
    before = Counter(c for c in text if not c.isspace())
    after = Counter(c for c in normalized if not c.isspace())
    gone, came = before - after, after - before
    assert sum(gone.values()) == 403 and sum(came.values()) == 626  # (this text's figures)
    assert gone.most_common(3) == [("\u216b", 76), ("\ufb01", 67), ("\u2460", 64)]  # Ⅻ ﬁ ①
    assert describe_normalization(text, normalized) == (
        f"normalized: {ws:,} of {ws_before:,} whitespace characters removed; "
        "403 non-whitespace characters rewritten by NFKC ('Ⅻ' ×76, 'ﬁ' ×67, '①' ×64 and 5 more kinds) "
        "into 626 ('I' ×152, 'X' ×76, 'D' ×68 and 7 more kinds)"
    )


def test_long_normalization_counts_only_what_changed():
    """A long text where NFKC rewrote 13 characters: the note counts those 13, not the
    text's 2,000-odd other characters."""
    from tokexplorer.core.backends.sentencepiece.normalization import describe_normalization

    text = "Wait\u2026 it is fine. " * 13 + "plain words and dots. " * 200
    normalized = text.replace("\u2026", "...")
    assert len(text) > 2_000
    assert describe_normalization(text, normalized) == (
        "normalized: 13 non-whitespace characters rewritten by NFKC ('…' ×13) into 39 ('.' ×39)"
    )


def test_our_wordpiece_names_its_unknown_tokens_as_the_vocab_txt_reading_does(tmp_path):
    # the same model, ours and exported as BERT's vocab.txt (read by `tokenizers`): the one
    # note naming the text each [UNK] stands for, word for word
    from tokexplorer.core.backends import WordPieceTokenizer
    from tokexplorer.core.backends.spec import load_tokenizer
    from tokexplorer.core.io.wordpiece_files import write_vocab_txt
    from tokexplorer.core.wordpiece import train_wordpiece

    wp, _ = train_wordpiece(["playing plays played the player plays\n" * 30], vocab_size=60)
    ours = WordPieceTokenizer(wp)
    write_vocab_txt(wp, tmp_path / "vocab.txt")
    theirs = load_tokenizer(str(tmp_path / "vocab.txt"))
    text = "plays 你好 🙂 zzz"
    expected = "4 unknown tokens: '你', '好', '🙂', 'zzz'"
    assert expected in ours.tokenize(text).notes and expected in ours.notes(text)
    assert expected in theirs.tokenize(text).notes
    assert [t.unknown for t in ours.tokenize(text).tokens] == [False, True, True, True, True]
    assert ours.notes("plays played") == ()


def test_our_wordpiece_says_what_its_normalizer_did_as_the_vocab_txt_reading_does(tmp_path):
    # lower-casing, the spaces BERT's normalizer puts around CJK, a ZWJ removed: the same
    # note from our model and from its export read by `tokenizers`
    from tokexplorer.core.backends import WordPieceTokenizer
    from tokexplorer.core.backends.spec import load_tokenizer
    from tokexplorer.core.io.wordpiece_files import write_vocab_txt
    from tokexplorer.core.wordpiece import train_wordpiece

    wp, _ = train_wordpiece(["playing plays played the player plays\n" * 30], vocab_size=60, lowercase=True)
    ours = WordPieceTokenizer(wp)
    write_vocab_txt(wp, tmp_path / "vocab.txt")
    theirs = load_tokenizer(str(tmp_path / "vocab.txt"))
    for text, said in [("The quick fox 你好 🙂 café", "normalized: 4 spaces inserted; 'T' → 't'"),
                       ("Hi 👨\u200d👩\u200d👧 x", "normalized: U+200D ×2 removed; 'H' → 'h'")]:  # fmt: skip
        assert ours.tokenize(text).notes[0] == said == ours.notes(text)[0]
        assert said in theirs.tokenize(text).notes
    assert ours.notes("plays played") == ()
