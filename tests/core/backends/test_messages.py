"""Messages that name a remedy name one the user can apply; lost characters are counted and listed.

Values: sentencepiece 0.2.3, the fixture corpus (SP120) and small models trained here.
"""

from __future__ import annotations

import pytest

from fixtures.sp import fixture_lines
from tokexplorer.core.backends import SentencePieceOptions, train_sentencepiece
from tokexplorer.core.backends.sentencepiece.training import dropped_characters

# named as settings (the window's SentencePiece options; the command line adds its flags)
HINT = "to keep such characters, train with byte fallback, or on a corpus that holds them with character coverage 1.0"


@pytest.mark.parametrize(
    ("text", "note"),
    [
        ("\ufb01\ufb01", "2 unknown pieces (decoded as ' \u2047 '): '\ufb01', '\ufb01'; 2 characters lost; " + HINT),
        ("\u9f98", "1 unknown piece (decoded as ' \u2047 '): '\u9f98'; 1 character lost; " + HINT),
        ("\uff28\uff45\uff4c\uff4c\uff4f",
         "1 unknown piece (decoded as ' \u2047 '): '\uff28'; 1 character lost; " + HINT),
        ("hello\nworld\tok", None),  # SP120 turns both into spaces: nothing unknown
    ],
)
def test_unknown_pieces_are_counted_with_a_way_out(sp_models, text, note):
    tz = sp_models["SP120"].tokenize(text, special="plain")
    unknown_notes = [n for n in tz.notes if "unknown piece" in n]
    assert unknown_notes == ([note] if note else [])
    assert sum(t.unknown for t in tz.tokens) == (int(note.split()[0]) if note else 0)


@pytest.mark.parametrize("byte_fallback", [False, True])
def test_training_below_full_coverage_lists_the_dropped_characters(byte_fallback):
    lines = fixture_lines() + ["z\u00e9bre \u00e7a", "\u00df ok"]
    opts = SentencePieceOptions(character_coverage=0.995, byte_fallback=byte_fallback)
    sp = train_sentencepiece(lines, vocab_size=400 if byte_fallback else 120, num_threads=1, options=opts)
    dropped = ["\u0dc1", "\u0dca", "\u0dd3", "\U0001F469", "\U0001F52C", "z", "\u00df", "\u00e7", "\u00e9"]
    assert dropped_characters(sp, lines) == dropped
    if not byte_fallback:
        # exactly the characters SentencePiece itself encodes as <unk>
        unk = sp.processor.unk_id()
        every = sorted({c for line in lines for c in line if not c.isspace()})
        assert sorted(c for c in every if unk in sp.processor.encode(c)) == sorted(dropped)
    shown = " ".join(f"{c!r} U+{ord(c):04X}" for c in dropped)
    assert sp.train_notes[-1] == (
        f"character coverage 0.995 left 9 of the corpus's characters out of the pieces: {shown}; "
        + ("they become byte pieces" if byte_fallback else "they become <unk>")
    )
    # full coverage drops nothing and says nothing
    full = train_sentencepiece(lines, vocab_size=120, num_threads=1)
    assert dropped_characters(full, lines) == [] and full.train_notes == ()


def test_split_digits_splits_ascii_and_full_width_digits_only():
    from tokexplorer.cli.parser import build_parser

    digits = {
        "ascii": "0123456789", "full-width": "\uff10\uff11\uff12\uff13\uff14\uff15\uff16\uff17\uff18\uff19",
        "arabic-indic": "\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669",
        "devanagari": "\u0966\u0967\u0968\u0969\u096a\u096b\u096c\u096d\u096e\u096f",
        "thai": "\u0e50\u0e51\u0e52\u0e53\u0e54\u0e55\u0e56\u0e57\u0e58\u0e59",
    }
    lines = fixture_lines() + [f"n {v} {v}{v} end" for v in digits.values()] * 20
    opts = SentencePieceOptions(split_digits=True, normalization_rule_name="identity")
    sp = train_sentencepiece(lines, vocab_size=300, num_threads=1, options=opts)
    split = {k: len(sp.encode(v + v)) for k, v in digits.items()}
    assert split == {"ascii": 21, "full-width": 21, "arabic-indic": 2, "devanagari": 2, "thai": 2}
    # the option's words say so, on the command line and in the window
    from tokexplorer.gui.widgets.sp_options import SPLIT_DIGITS_TEXT

    assert SPLIT_DIGITS_TEXT == "split digits: each ASCII 0–9 or full-width ０–９ digit its own piece (no other digits)"
    train = build_parser()._subparsers._group_actions[0].choices["train"]
    help_text = next(a.help for a in train._actions if "--split-digits" in a.option_strings)
    assert help_text.startswith("split digits: each ASCII 0-9 or full-width digit its own piece; SentencePiece")
