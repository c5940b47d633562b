"""Tests of the SentencePiece backend with the three fixture models (SP120, SPID, SPBF)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fixtures.sp import fixture_lines
from tokexplorer.core.backends import (
    SentencePieceTokenizer,
    VocabTooLargeError,
    VocabTooSmallError,
    describe_normalization,
    parse_model_info,
    train_sentencepiece,
)
from tokexplorer.core.errors import InputError, ModelFormatError, SpecialTokenError, TrainingError


def pieces(tok: SentencePieceTokenizer, text: str) -> list[str]:
    return [t.piece for t in tok.tokenize(text).tokens]


def test_descriptions(sp_models):
    assert sp_models["SP120"].description == "SP120 · bpe model · nmt_nfkc · 120 pieces"
    assert sp_models["SPID"].description == "SPID · bpe model · identity · 120 pieces"
    assert sp_models["SPBF"].description == "SPBF · bpe model · nmt_nfkc · 400 pieces · byte fallback"
    assert sp_models["SP120"].vocab_size == 120
    assert sp_models["SP120"].special_tokens == {"<s>": 1, "</s>": 2}
    assert sp_models["SP120"].family == "sentencepiece"


def test_model_info(sp_protos):
    info = parse_model_info(sp_protos["SPID"])
    assert (info.model_type, info.normalizer, info.add_dummy_prefix, info.remove_extra_whitespaces) == (
        "bpe", "identity", True, False,
    )
    assert parse_model_info(sp_protos["SPBF"]).byte_fallback is True
    assert parse_model_info(sp_protos["SP120"]).byte_fallback is False


def test_zero_width_joiner_survives(sp_models):
    sp = sp_models["SP120"]
    scientist = "\U0001F469\u200d\U0001F52C"
    sinhala = "\u0dc1\u0dca\u200d\u0dbb\u0dd3"
    assert unicodedata.normalize("NFKC", scientist) == scientist
    assert pieces(sp, scientist) == ["\u2581\U0001F469", "\u200d\U0001F52C"]
    assert pieces(sp, sinhala) == ["\u2581", "\u0dc1\u0dca", "\u200d", "\u0dbb\u0dd3"]
    for s in (scientist, sinhala):
        t = sp.tokenize(s)
        assert sp.decode(t.ids) == s
        assert t.normalized is None and t.exact_offsets
    t = sp.tokenize(scientist)
    assert [(tok.byte_start, tok.byte_end, tok.char_start, tok.char_end) for tok in t.tokens] == [
        (0, 4, 0, 1), (4, 11, 1, 3),
    ]


def test_byte_fallback_pieces_are_bytes(sp_models):
    sp = sp_models["SPBF"]
    t = sp.tokenize("\u9f98")
    assert [tok.piece for tok in t.tokens] == ["\u2581", "<0xE9>", "<0xBE>", "<0x98>"]
    assert t.ids == [367, 236, 193, 155]
    assert [tok.bytes for tok in t.tokens] == [b" ", b"\xe9", b"\xbe", b"\x98"]
    assert [(tok.byte_start, tok.byte_end) for tok in t.tokens] == [(0, 0), (0, 1), (1, 2), (2, 3)]
    assert [tok.partial for tok in t.tokens] == [False, True, True, True]
    assert all((tok.char_start, tok.char_end) == (0, 1) for tok in t.tokens[1:])
    assert sp.decode(t.ids) == "\u9f98"
    assert sp.decode_bytes(t.ids[1:]) == b"\xe9\xbe\x98"
    assert sp.decode_bytes(t.ids[:3]) == b"\xe9\xbe"
    assert "<0x" not in sp.decode(t.ids[:3])
    assert sp.token_bytes(236) == b"\xe9"
    assert all(sp.is_byte(i) for i in t.ids[1:])
    assert t.exact_offsets


def test_two_characters_split_into_bytes(sp_models):
    t = sp_models["SPBF"].tokenize("x \u9f98\u9f98")
    assert [(tok.byte_start, tok.byte_end) for tok in t.tokens][3:] == [
        (2, 3), (3, 4), (4, 5), (5, 6), (6, 7), (7, 8),
    ]


def test_per_piece_decode(sp_models):
    sp = sp_models["SP120"]
    t = sp.tokenize("good day")
    assert [tok.piece for tok in t.tokens] == ["\u2581good", "\u2581day"]
    assert t.ids == [48, 64]
    assert sp.decode([48]) == "good"
    assert sp.decode([64]) == "day"
    assert sp.decode([48, 64]) == "good day"
    # the per-token bytes show the space: joined they give the text (plus dummy prefix)
    assert b"".join(tok.bytes for tok in t.tokens) == b" good day"


@pytest.mark.parametrize(
    ("text", "decoded", "note"),
    [
        ("a  b", "a b", "normalized: 1 space removed"),
        ("  lead and trail  ", "lead and trail", "normalized: 4 spaces removed"),
        ("hello\nworld", "hello world", "normalized: 1 line break turned into a space"),
        ("tab\there", "tab here", "normalized: 1 tab turned into a space"),
    ],
)
def test_whitespace_rewritten(sp_models, text, decoded, note):
    sp = sp_models["SP120"]
    t = sp.tokenize(text)
    assert sp.decode(t.ids) == decoded
    assert t.normalized == decoded
    assert t.exact_offsets is False
    assert note in t.notes


def test_identity_model(sp_models):
    sp = sp_models["SPID"]
    assert pieces(sp, "a  b") == ["\u2581a", "\u2581", "\u2581b"]
    assert pieces(sp, "  lead and trail  ") == [
        "\u2581", "\u2581", "\u2581lead", "\u2581and", "\u2581trail", "\u2581", "\u2581",
    ]
    for s in ("a  b", "  lead and trail  "):
        t = sp.tokenize(s)
        assert sp.decode(t.ids) == s
        assert t.normalized is None
    for s, decoded, unk in (("hello\nworld", "hello \u2047 world", b"\n"), ("tab\there", "tab \u2047 here", b"\t")):
        t = sp.tokenize(s)
        assert sp.decode(t.ids) == decoded
        unknown = [tok for tok in t.tokens if tok.unknown]
        assert len(unknown) == 1 and unknown[0].id == 0 and unknown[0].bytes == unk
        assert unknown[0].piece == "<unk>"


def test_nul_in_text(sp_models):
    sp = sp_models["SP120"]
    t = sp.tokenize("ab\x00cd")
    assert sp.decode(t.ids) == "ab \u2047 cd"
    nul = [tok for tok in t.tokens if tok.unknown]
    assert len(nul) == 1
    assert (nul[0].id, nul[0].bytes, nul[0].byte_start, nul[0].byte_end) == (0, b"\x00", 2, 3)
    assert "SentencePiece treats NUL (U+0000) as an unknown piece" in t.notes


def test_nul_in_training():
    sp = train_sentencepiece(
        fixture_lines() + ["ab\x00cd"] * 5, vocab_size=120, num_threads=1
    )
    assert sp.train_notes[0] == "5 lines contain NUL; SentencePiece skips NUL (it is an unknown piece)"
    assert not any("\x00" in sp.piece(i) for i in range(sp.vocab_size))
    t = sp.tokenize("ab\x00cd")
    assert [tok.piece for tok in t.tokens] == ["\u2581a", "b", "<unk>", "cd"]
    assert t.ids[2] == 0
    assert sp.decode(t.ids) == "ab \u2047 cd"


@pytest.mark.parametrize(
    ("text", "normalized", "expected_pieces"),
    [
        ("a\ufe30b", "a..b", ["\u2581a", ".", ".", "b"]),
        ("x\u0149y", "x\u02bcny", ["\u2581", "x", "\u02bc", "n", "y"]),
        ("\u0140", "l\u00b7", ["\u2581l", "\u00b7"]),
        ("\uff21", "A", ["\u2581", "A"]),
        ("\U0001D538", "A", ["\u2581", "A"]),
        ("\ufe30", "..", ["\u2581", ".", "."]),
    ],
)
def test_nfkc(sp_models, text, normalized, expected_pieces):
    sp = sp_models["SP120"]
    t = sp.tokenize(text)
    assert unicodedata.normalize("NFKC", text) == normalized
    assert [tok.piece for tok in t.tokens] == expected_pieces
    assert sp.decode(t.ids) == normalized
    assert t.normalized == normalized
    assert t.exact_offsets is False
    assert t.notes[-1].startswith("normalized (NFKC): ")


def test_note_text():
    assert describe_normalization("a\ufe30b", "a..b") == "normalized (NFKC): '\ufe30' → '..'"


def test_vocab_too_large():
    with pytest.raises(VocabTooLargeError) as err:
        train_sentencepiece(fixture_lines(), vocab_size=5000, num_threads=1)
    assert err.value.max_vocab_size == 231 and err.value.requested == 5000
    assert isinstance(err.value, TrainingError)
    assert "\n" not in str(err.value) and "231" in str(err.value)
    with pytest.raises(VocabTooLargeError) as err:
        train_sentencepiece(fixture_lines(), model_type="unigram", vocab_size=5000, num_threads=1)
    assert err.value.max_vocab_size == 60
    assert train_sentencepiece(fixture_lines(), vocab_size=231, num_threads=1).vocab_size == 231
    uni = train_sentencepiece(fixture_lines(), model_type="unigram", vocab_size=60, num_threads=1)
    assert uni.name == "SentencePiece"
    assert uni.description == "SentencePiece · unigram model · nmt_nfkc · 60 pieces"


def test_vocab_smaller_than_alphabet():
    with pytest.raises(VocabTooSmallError) as err:
        train_sentencepiece(fixture_lines(), vocab_size=30, num_threads=1)
    assert err.value.min_vocab_size == 36
    assert str(err.value).startswith("vocab_size 30 < 36 needed")
    with pytest.raises(VocabTooSmallError):
        train_sentencepiece(fixture_lines(), vocab_size=35, num_threads=1)
    assert train_sentencepiece(fixture_lines(), vocab_size=36, num_threads=1).vocab_size == 36


@pytest.mark.parametrize("coverage", [0.5, 0.97, 1.01])
def test_coverage_rejected_before_training(coverage):
    with pytest.raises(InputError, match="outside 0.98–1.0"):
        train_sentencepiece(fixture_lines(), vocab_size=120, character_coverage=coverage)


@pytest.mark.parametrize("corpus", [[], [""], ["   ", "\n\n"]])
def test_nothing_to_train_on(corpus):
    with pytest.raises(TrainingError, match="^nothing to train on$"):
        train_sentencepiece(corpus, vocab_size=50)


def test_training_matches_fixture(sp_models):
    sp = train_sentencepiece(fixture_lines(), vocab_size=120, num_threads=1)
    assert sp.encode("good day") == [48, 64]
    assert sp.model_proto
    assert sp.train_notes == ()


def test_bad_settings():
    with pytest.raises(InputError):
        train_sentencepiece(["a b"], vocab_size=10, model_type="wordpiece")
    with pytest.raises(InputError):
        train_sentencepiece(["a b"], vocab_size=0)
    with pytest.raises(InputError):
        train_sentencepiece(["a b"], vocab_size=10, normalization_rule_name="nfd")


def test_save_and_load(sp_models, tmp_path):
    path = tmp_path / "m.model"
    sp_models["SPBF"].save(path)
    loaded = SentencePieceTokenizer.from_file(path)
    assert loaded.name == "m.model (SentencePiece)"
    assert loaded.description == "m.model (SentencePiece) · bpe model · nmt_nfkc · 400 pieces · byte fallback"
    assert loaded.tokenize("a").tokenizer == "m.model (SentencePiece)"
    assert loaded.model_proto == sp_models["SPBF"].model_proto
    assert loaded.encode("\u9f98") == [367, 236, 193, 155]
    assert [p.name for p in tmp_path.iterdir()] == ["m.model"]


def test_corrupt_model_file(tmp_path):
    path = tmp_path / "bad.model"
    path.write_bytes(b"this is not a model")
    with pytest.raises(ModelFormatError) as err:
        SentencePieceTokenizer.from_file(path)
    assert str(err.value) == "bad.model is not a SentencePiece model (could not parse ModelProto)"
    path.write_bytes(b"")
    with pytest.raises(ModelFormatError):
        SentencePieceTokenizer.from_file(path)
    with pytest.raises(InputError, match="no such file"):
        SentencePieceTokenizer.from_file(tmp_path / "missing.model")


def test_control_piece_policy(sp_models):
    sp = sp_models["SP120"]
    with pytest.raises(SpecialTokenError):
        sp.tokenize("a <s> b", special="raise")
    t = sp.tokenize("a <s> b")
    assert "'<s>' encoded as plain text" in t.notes
    assert 1 not in t.ids


def test_unknown_id(sp_models):
    with pytest.raises(InputError, match="token id 999 is not in the vocabulary of SP120"):
        sp_models["SP120"].token_bytes(999)


def test_surrogates(sp_models):
    for text in ("\ud800", "\ud83d", "\ud83d\ude42", "caf\udce9"):
        t = sp_models["SPBF"].tokenize(text)
        assert t.notes and t.text.encode("utf-8")


@settings(max_examples=120, deadline=None)
@given(st.text(max_size=40))
def test_spans_ordered_and_inside_text(text):
    sp = _SPBF_CACHE.get("sp")
    if sp is None:
        from fixtures.sp import SPBF_OPTIONS, train_proto

        sp = _SPBF_CACHE["sp"] = SentencePieceTokenizer(train_proto(**SPBF_OPTIONS)[0], name="SPBF")
    t = sp.tokenize(text)
    n = len(t.text.encode("utf-8"))
    start = end = 0
    for tok in t.tokens:
        # pieces made from one expanded character share its span, so spans may overlap,
        # but their starts and their ends never go back
        assert start <= tok.byte_start <= tok.byte_end <= n and end <= tok.byte_end
        assert tok.char_start <= tok.char_end <= len(t.text)
        start, end = tok.byte_start, tok.byte_end
    assert sp.decode(t.ids).count("<0x") <= text.count("<0x")  # never adds piece names


_SPBF_CACHE: dict[str, SentencePieceTokenizer] = {}


# --------------------------------------------------------------------------
# validation before training (issue 6): each message and the input that triggers it
# --------------------------------------------------------------------------


def test_check_counts_required_chars_like_sentencepiece():
    from tokexplorer.core.backends import check_sentencepiece_training

    c = check_sentencepiece_training(fixture_lines(), vocab_size=120)
    assert (c.n_lines, c.n_chars, c.required_chars, c.meta_pieces, c.min_vocab_size) == (
        300, 33, 33, 3, 36)  # fmt: skip
    assert c.problems == ()
    assert c.max_vocab_estimate is None  # 120 fits
    big = check_sentencepiece_training(fixture_lines(), vocab_size=5000)
    # SentencePiece's own BPE limit for the fixture (vocabulary too large for the corpus)
    assert big.max_vocab_estimate >= 231
    assert big.problems == (
        "vocab_size 5,000 is too large for this corpus: it has 38 distinct words, enough for at "
        "most about 353 pieces",
    )
    # byte fallback adds 256 byte pieces, user-defined symbols one piece each
    bf = check_sentencepiece_training(fixture_lines(), vocab_size=120, byte_fallback=True)
    assert bf.min_vocab_size == 292
    uds = check_sentencepiece_training(fixture_lines(), vocab_size=120, user_defined_symbols=["<sep>", "xy"])
    assert uds.min_vocab_size == 38


def test_vocab_smaller_than_required_chars_before_training():
    from tokexplorer.core.backends import check_sentencepiece_training

    c = check_sentencepiece_training(fixture_lines(), vocab_size=30)
    assert c.problems == (
        "vocab_size 30 < 36 needed: 33 characters kept by character_coverage 1.0 + 3 meta pieces; raise "
        "vocab_size to at least 36, or lower character_coverage to 0.9953 (it keeps at most the 27 most "
        "frequent characters; rarer ones become <unk>)",
    )
    with pytest.raises(VocabTooSmallError) as err:
        train_sentencepiece(fixture_lines(), vocab_size=291, byte_fallback=True, num_threads=1)
    assert err.value.min_vocab_size == 292
    assert str(err.value) == (
        "vocab_size 291 < 292 needed: 33 characters kept by character_coverage 1.0 + 259 meta pieces; raise "
        "vocab_size to at least 292, or lower character_coverage to 0.9992 (it keeps at most the 32 most "
        "frequent characters; rarer ones become byte pieces)"
    )
    assert train_sentencepiece(fixture_lines(), vocab_size=292, byte_fallback=True, num_threads=1).vocab_size == 292


def test_the_coverage_offered_for_a_small_vocab_is_the_highest_sentencepiece_trains_with():
    """The suggested character_coverage trains at the refused size (SentencePiece keeps
    that many characters); one step higher keeps one character too many."""
    from tokexplorer.core.backends import check_sentencepiece_training

    c = check_sentencepiece_training(fixture_lines(), vocab_size=30)
    assert (c.min_vocab_size, c.fitting_coverage) == (36, 0.9953)
    sp = train_sentencepiece(fixture_lines(), vocab_size=30, character_coverage=0.9953, num_threads=1)
    assert sp.vocab_size == 30
    assert check_sentencepiece_training(fixture_lines(), vocab_size=30, character_coverage=0.9954).min_vocab_size == 31
    # 0.98, the lowest coverage SentencePiece takes, still keeps more than 10 - 3 characters
    low = check_sentencepiece_training(fixture_lines(), vocab_size=10)
    assert low.fitting_coverage is None
    assert low.problems[0].endswith(
        "raise vocab_size to at least 36 (even character_coverage 0.98, SentencePiece's lowest, keeps more than "
        "7 characters)"
    )


def test_coverage_out_of_range_message():
    from tokexplorer.core.backends import check_sentencepiece_training

    c = check_sentencepiece_training(fixture_lines(), vocab_size=120, character_coverage=0.5)
    assert c.problems[0] == "character_coverage 0.5 is outside 0.98–1.0 (SentencePiece's range)"
    with pytest.raises(InputError) as err:
        train_sentencepiece(fixture_lines(), vocab_size=120, character_coverage=0.5)
    assert str(err.value) == "character_coverage 0.5 is outside 0.98–1.0 (SentencePiece's range)"


def test_lines_over_max_sentence_length():
    from tokexplorer.core.backends import (
        LinesTooLongError,
        check_sentencepiece_training,
    )

    lines = fixture_lines() + ["x" * 50 + " y" * 30, "short", "z" * 70]
    with pytest.raises(LinesTooLongError) as err:
        train_sentencepiece(lines, vocab_size=60, max_sentence_length=64, num_threads=1)
    assert str(err.value) == (
        "2 lines are longer than max_sentence_length 64 bytes (longest: line 301, 110 bytes) "
        "and SentencePiece would skip them; set max_sentence_length to 110 bytes, or tick "
        "'let SentencePiece skip longer lines'"
    )
    assert (err.value.count, err.value.longest, err.value.line_number) == (2, 110, 301)
    c = check_sentencepiece_training(lines, vocab_size=60, max_sentence_length=64)
    assert c.problems == (str(err.value),)
    skipping = check_sentencepiece_training(lines, vocab_size=60, max_sentence_length=64, skip_long_lines=True)
    assert skipping.problems == ()
    sp = train_sentencepiece(lines, vocab_size=60, max_sentence_length=64, skip_long_lines=True, num_threads=1)
    assert sp.train_notes == ("2 lines longer than 64 bytes skipped by SentencePiece",)
    with pytest.raises(TrainingError) as err2:
        train_sentencepiece(["a" * 100], vocab_size=10, max_sentence_length=64, skip_long_lines=True)
    assert str(err2.value) == "every line is longer than max_sentence_length 64 bytes: nothing to train on"


def test_empty_corpus_message():
    from tokexplorer.core.backends import check_sentencepiece_training

    assert check_sentencepiece_training(["", "  "], vocab_size=50).problems == ("nothing to train on",)
    with pytest.raises(TrainingError) as err:
        train_sentencepiece(["\n\n"], vocab_size=50)
    assert str(err.value) == "nothing to train on"


def test_vocab_too_large_estimate_and_exact_limit():
    from tokexplorer.core.backends import check_sentencepiece_training

    lines = ["the cat sat on the mat", "the dog ate the log"] * 10
    c = check_sentencepiece_training(lines, vocab_size=5000)
    assert c.problems == (
        f"vocab_size 5,000 is too large for this corpus: it has 8 distinct words, enough for at "
        f"most about {c.max_vocab_estimate:,} pieces",
    )
    # the exact limit comes from SentencePiece (vocabulary too large for the corpus)
    with pytest.raises(VocabTooLargeError) as err:
        train_sentencepiece(lines, vocab_size=5000, num_threads=1)
    assert err.value.max_vocab_size <= c.max_vocab_estimate
    assert str(err.value) == (
        f"vocab_size 5,000 is too large for this corpus; SentencePiece can make at most "
        f"{err.value.max_vocab_size:,} pieces; ask for {err.value.max_vocab_size:,} or fewer"
    )


def test_split_digits_and_user_symbols_reach_sentencepiece():
    lines = fixture_lines() + ["call 12345 now <sep> ok"] * 5
    sp = train_sentencepiece(lines, vocab_size=80, split_digits=True, user_defined_symbols=["<sep>"], num_threads=1)
    pieces_ = [t.piece for t in sp.tokenize("12345 <sep>").tokens]
    assert [p for p in pieces_ if p.strip("\u2581").isdigit()] == ["1", "2", "3", "4", "5"]
    assert "<sep>" in pieces_


def test_options_object_and_fields_one_by_one_train_the_same_model():
    from tokexplorer.core.backends import SentencePieceOptions, check_sentencepiece_training

    opts = SentencePieceOptions(model_type="unigram", split_digits=True, byte_fallback=True)
    lines = fixture_lines() + ["call 12345 now"] * 5
    by_object = train_sentencepiece(lines, vocab_size=300, options=opts, num_threads=1)
    by_fields = train_sentencepiece(lines, vocab_size=300, num_threads=1, **opts.as_kwargs())
    assert by_object.model_proto == by_fields.model_proto
    # a field given one by one replaces that of the object
    bpe = train_sentencepiece(lines, vocab_size=300, options=opts, model_type="bpe", num_threads=1)
    assert bpe.description.startswith("SentencePiece · bpe model")
    assert check_sentencepiece_training(lines, vocab_size=300, options=opts).meta_pieces == 3 + 256
    with pytest.raises(TypeError):
        train_sentencepiece(lines, vocab_size=300, model_typ="bpe")


def test_user_defined_symbol_follows_the_special_policy():
    """A special token given to SentencePiece training becomes a user-defined
    symbol: SentencePiece always encodes it as one piece, so "raise" refuses
    the text, "special" marks the piece special, and "plain" says why it could
    not be plain text."""
    from tokexplorer.core.backends import train_sentencepiece, user_defined_ids

    sp = train_sentencepiece(fixture_lines(), vocab_size=120, user_defined_symbols=["<|endoftext|>"], num_threads=1)
    eot = sp.special_tokens["<|endoftext|>"]
    assert user_defined_ids(sp.model_proto) == {eot} and eot == 3
    text = "good day<|endoftext|>bad cat"
    with pytest.raises(SpecialTokenError, match="user-defined symbol '<\\|endoftext\\|>'"):
        sp.tokenize(text, special="raise")
    spec = sp.tokenize(text, special="special")
    plain = sp.tokenize(text, special="plain")
    assert spec.ids == plain.ids and eot in spec.ids
    tok = spec.tokens[spec.ids.index(eot)]
    assert tok.special and tok.bytes == b"<|endoftext|>"
    assert plain.notes == (
        "'<|endoftext|>' is a user-defined symbol of this model: SentencePiece always encodes it "
        "as one piece (id 3), it cannot be plain text here",
    )


def _corpus_lines(n_lines: int) -> str:
    import random

    rng = random.Random(11)
    syl = ["ka", "lo", "mi", "ren", "tas", "vu", "zen", "qor", "pli", "dun"]
    words = ["".join(rng.choice(syl) for _ in range(rng.randint(1, 4))) for _ in range(3000)]
    return "\n".join(" ".join(rng.choice(words) for _ in range(12)) for _ in range(n_lines))


def test_training_in_a_child_process_matches_training_here(monkeypatch):
    from tokexplorer.core.backends.sentencepiece import training as spb

    text = _corpus_lines(400)
    here = spb.train_sentencepiece([text], vocab_size=300)
    monkeypatch.setattr(spb, "CHILD_TRAIN_CHARS", 1)  # force the child process
    monkeypatch.setattr(spb, "CHILD_BATCH_LINES", 7)  # the 400 lines go in 58 messages
    child = spb.train_sentencepiece([text], vocab_size=300, cancel=lambda: False)
    assert child.model_proto == here.model_proto
    with pytest.raises(VocabTooLargeError) as info:  # refusals come back translated
        spb.train_sentencepiece([text], vocab_size=100_000, cancel=lambda: False)
    assert info.value.max_vocab_size == here_limit(text)


def here_limit(text):
    from tokexplorer.core.backends.sentencepiece import training as spb

    with pytest.raises(VocabTooLargeError) as info:
        spb.train_sentencepiece([text], vocab_size=100_000)
    return info.value.max_vocab_size


@pytest.mark.timing
def test_training_in_a_child_process_is_cancelled(monkeypatch):
    import multiprocessing
    import time

    from tokexplorer.core.backends.sentencepiece import training as spb
    from tokexplorer.core.errors import Cancelled

    monkeypatch.setattr(spb, "CHILD_TRAIN_CHARS", 1)
    text = _corpus_lines(20_000)
    polls = {"n": 0}

    def cancel():  # asked first after 0.1 s, while the child is still starting
        polls["n"] += 1
        return True

    t0 = time.monotonic()
    with pytest.raises(Cancelled, match="SentencePiece training cancelled"):
        spb.train_sentencepiece([text], vocab_size=1000, model_type="unigram", cancel=cancel)
    assert polls["n"] == 1
    assert multiprocessing.active_children() == []  # the child was ended
    assert time.monotonic() - t0 < 30


def test_long_text_note_says_what_its_numbers_count(sp_models):
    """Past 2,000 characters the note gives counts: whitespace removed of how many, and the other
    characters rewritten, into how many (the normalized text is the one sentencepiece's normalizer gives)."""
    sp = sp_models["SP120"]
    text = "the  \ufb01ne  \ufb01sh\n" * 200  # NFKC: U+FB01 'ﬁ' → 'fi'
    t = sp.tokenize(text)
    assert t.normalized == " ".join(["the fine fish"] * 200)
    # 5 whitespace characters a line, 2 kept (+ 199 line breaks as spaces); 9 other characters a line, 11 after
    # the 400 'ﬁ' (2 a line) are what NFKC rewrote, each into 'f' and 'i'
    assert (
        "normalized: 401 of 1,000 whitespace characters removed; 400 non-whitespace characters rewritten by NFKC "
        "('ﬁ' ×400) into 800 ('f' ×400, 'i' ×400)"
    ) in t.notes
