"""A tokenizer.json's ids (or count) and their notes come from one run of the library,
equal to what the span path (tokenize) gives."""

from __future__ import annotations

import pytest

from fixtures import hf
from fixtures.multilingual import multilingual_text
from tokexplorer.core.analysis import count_tokens_noted
from tokexplorer.core.backends import HuggingFaceTokenizer


class CountingLibrary:
    """A ``tokenizers.Tokenizer`` that counts its ``encode`` calls."""

    def __init__(self, lib):
        self.lib, self.calls = lib, 0

    def encode(self, *args, **kwargs):
        self.calls += 1
        return self.lib.encode(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.lib, name)


@pytest.mark.parametrize("make", [hf.byte_level_bpe, hf.wordpiece, hf.unigram])
def test_count_and_notes_run_the_library_once(make):
    lib = make()
    tok = HuggingFaceTokenizer(lib)
    text = multilingual_text(400, seed=5) + " <|endoftext|> [CLS] </s>"
    expected = tok.tokenize(text, special="special")  # the span path: ids and notes
    counting = CountingLibrary(lib)
    tok.tokenizer = counting
    n, notes = count_tokens_noted(tok, text, special="special")
    assert counting.calls == 1
    ids, notes2 = tok.encode_with_notes(text, special="special")
    assert counting.calls == 2
    assert n == len(ids) == len(expected.ids) == len(lib.encode(text).ids)
    assert ids == expected.ids and notes == notes2 == expected.notes
    assert notes == tok.notes(text, special="special")


def test_the_notes_of_a_bos_and_a_normalizer_come_with_the_ids():
    tok = HuggingFaceTokenizer(hf.unigram())
    ids, notes = tok.encode_with_notes("ﬁne 1kg", special="special")
    assert ids == tok.tokenizer.encode("ﬁne 1kg").ids and ids[-1] == 1  # </s> appended
    assert notes == tok.tokenize("ﬁne 1kg", special="special").notes
    assert any("</s>" in n for n in notes)
