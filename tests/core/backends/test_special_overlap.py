"""Special tokens that are prefixes of each other (``<|end|>`` and ``<|end|>x``).

tiktoken 0.14.0 does not take the longest: which one it matches depends on its internal table
(here on the order the special tokens are given in, not on their ids). Our engine always takes the longest; the tiktoken
column keeps tiktoken's own ids and a note names the overlap.
"""

from __future__ import annotations

import pytest

tiktoken = pytest.importorskip("tiktoken")

from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer, bpe_from_tiktoken  # noqa: E402

RANKS = {bytes([b]): b for b in range(256)}
TEXT = "a<|end|>xy <|end|>"


def encoding(specials: dict[str, int]):
    return tiktoken.Encoding(name="overlap", pat_str=r"\S+|\s+", mergeable_ranks=RANKS, special_tokens=specials)


@pytest.mark.parametrize(
    ("specials", "tiktoken_ids", "note"),
    [
        ({"<|end|>": 256, "<|end|>x": 257}, [97, 257, 121, 32, 256],
         "special tokens '<|end|>' (id 256) and '<|end|>x' (id 257) overlap: tiktoken matched the longer "
         "'<|end|>x' here, as our engine does"),
        ({"<|end|>x": 257, "<|end|>": 256}, [97, 256, 120, 121, 32, 256],
         "special tokens '<|end|>' (id 256) and '<|end|>x' (id 257) overlap: tiktoken matched '<|end|>' here "
         "and read 'x' as text; our engine takes the longest match, '<|end|>x'"),
        ({"<|end|>": 257, "<|end|>x": 256}, [97, 256, 121, 32, 257],
         "special tokens '<|end|>' (id 257) and '<|end|>x' (id 256) overlap: tiktoken matched the longer "
         "'<|end|>x' here, as our engine does"),
        ({"<|end|>x": 256, "<|end|>": 257}, [97, 257, 120, 121, 32, 257],
         "special tokens '<|end|>' (id 257) and '<|end|>x' (id 256) overlap: tiktoken matched '<|end|>' here "
         "and read 'x' as text; our engine takes the longest match, '<|end|>x'"),
    ],
)  # fmt: skip
def test_tiktoken_column_keeps_tiktokens_result_and_names_the_overlap(specials, tiktoken_ids, note):
    enc = encoding(specials)
    assert enc.encode(TEXT, allowed_special="all") == tiktoken_ids
    tz = TiktokenTokenizer(enc).tokenize(TEXT, special="special")
    assert tz.ids == tiktoken_ids
    assert note in tz.notes
    # our engine: always the longest match
    ours = BPETokenizer(bpe_from_tiktoken(enc)).tokenize(TEXT, special="special")
    long_id, short_id = specials["<|end|>x"], specials["<|end|>"]
    assert ours.ids == [97, long_id, 121, 32, short_id]
    assert [t.special for t in ours.tokens] == [False, True, False, False, True]


def test_no_note_without_the_longer_token_in_the_text():
    enc = encoding({"<|end|>": 256, "<|end|>x": 257})
    tz = TiktokenTokenizer(enc).tokenize("a <|end|>", special="special")
    assert tz.ids == [97, 32, 256]
    assert not any("overlap" in n for n in tz.notes)
    # plain text: no special token matched, no overlap to name
    assert not any("overlap" in n for n in TiktokenTokenizer(enc).tokenize(TEXT, special="plain").notes)
