"""SentencePiece decode equals the library's own ``decode``: byte-fallback runs (one U+FFFD
per bad byte, a control piece ends a run) and the leading spaces it drops (E06, E07, E13).

Expected values are sentencepiece 0.2.3's ``decode`` on the generated fixture models."""

from __future__ import annotations

import random

import pytest
import sentencepiece as spm

from fixtures.sp import train_proto
from tokexplorer.core.backends import SentencePieceTokenizer
from tokexplorer.core.text.utf8 import decode_each_bad_byte


@pytest.mark.parametrize(
    ("model", "ids", "expected"),
    [
        ("SPBF", [367, 236, 193], "\ufffd\ufffd"),  # ▁ <0xE9> <0xBE>: two U+FFFD, not Python's one
        ("SPBF", [236, 236, 193], "\ufffd" * 3),
        ("SPBF", [236, 1, 193, 155], "\ufffd" * 3),  # <s> between the bytes of 龘 ends the run
        ("SPBF", [367, 236, 193, 155], "龘"),
        ("SPBF", [0], " ⁇ "),  # an unknown piece first keeps its spaces
        ("SPBF", [35, 261], "  the"),  # <0x20> first: kept, and ▁the keeps its space
        ("SP120", [87, 48], "good"),  # ▁ ▁good: remove_extra_whitespaces drops both spaces
        ("SP120", [87, 87, 48, 64], "good day"),
        ("SP120", [0, 48], " ⁇  good"),
        ("SP120", [1, 48], "good"),  # a control piece first is skipped
        ("SPID", [87, 69], " lead"),  # ▁ ▁lead: only the dummy prefix's one space goes
    ],
)
def test_decode_equals_library(sp_models, model, ids, expected):
    assert sp_models[model].decode(ids) == expected


def test_decode_bytes_stay_raw(sp_models):
    # the lossless bytes of the same ids: E9 BE, never EF BF BD
    assert sp_models["SPBF"].decode_bytes([367, 236, 193]) == b"\xe9\xbe"
    assert sp_models["SP120"].decode_bytes([87, 87, 48]) == b"good"
    assert sp_models["SPID"].decode_bytes([87, 69]) == b" lead"
    with pytest.raises(UnicodeDecodeError):
        sp_models["SPBF"].decode([367, 236, 193], errors="strict")


def test_each_bad_byte_is_one_replacement():
    assert decode_each_bad_byte(b"\xe9\xbe") == "\ufffd\ufffd"
    assert b"\xe9\xbe".decode("utf-8", "replace") == "\ufffd"
    assert decode_each_bad_byte(b"\xf0\x9f\x99A\xed\xa0\x80") == "\ufffd" * 3 + "A" + "\ufffd" * 3
    assert decode_each_bad_byte("龘🙂".encode()) == "龘🙂"


OPTIONS = {
    "bf": dict(vocab_size=400, byte_fallback=True),
    "id": dict(normalization_rule_name="identity", remove_extra_whitespaces=False),
    "nodp": dict(add_dummy_prefix=False),
    "nodp-id": dict(add_dummy_prefix=False, normalization_rule_name="identity", remove_extra_whitespaces=False),
    "user": dict(vocab_size=400, byte_fallback=True, user_defined_symbols=["\u2581zz", "<sep>"]),
    "unigram": dict(model_type="unigram", vocab_size=60),
}


@pytest.mark.parametrize("kind", sorted(OPTIONS))
def test_random_ids_decode_as_the_library(kind):
    proto = train_proto(**OPTIONS[kind])[0]
    lib = spm.SentencePieceProcessor(model_proto=proto)
    ours = SentencePieceTokenizer(proto, name=kind)
    n = lib.get_piece_size()
    groups = [
        [i for i in range(n) if test(i)]
        for test in (lib.is_byte, lib.is_control, lib.is_unknown,
                     lambda i: not (lib.is_byte(i) or lib.is_control(i) or lib.is_unknown(i)))
    ]
    groups = [g for g in groups if g]
    rng = random.Random(7)
    for _ in range(1500):
        ids = [rng.choice(rng.choice(groups)) for _ in range(rng.randint(1, 6))]
        assert ours.decode(ids) == lib.decode(ids), ids
