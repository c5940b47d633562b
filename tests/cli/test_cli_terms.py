"""The core's advice said with the command line's flags: every flag named is one the
command line takes, and what it prints never names the window's menus."""

from __future__ import annotations

import argparse
import json
import re

import pytest
import sentencepiece as spm

from fixtures.cli import run
from tokexplorer.cli.parser import build_parser
from tokexplorer.cli.terms import cli_terms, in_cli_terms
from tokexplorer.core.backends import PATTERN_HINT
from tokexplorer.core.backends.sentencepiece.notes import UNKNOWN_HINT
from tokexplorer.core.io import (
    AS_TOKENIZER,
    BERT_EXPORT_HINT,
    BOMLESS_CODECS,
    OTHER_ENCODING,
    READ_ANYWAY,
    encoding_hint,
)


def _flags_by_command() -> dict[str, set[str]]:
    """Each subcommand -> the option strings it takes (``--encoding``...)."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))  # noqa: SLF001
    return {
        name: {s for a in p._actions for s in a.option_strings}  # noqa: SLF001
        for name, p in sub.choices.items()
    }


def test_every_piece_of_core_advice_gets_its_flags():
    core = [READ_ANYWAY, *(encoding_hint(c) for c in BOMLESS_CODECS), OTHER_ENCODING, UNKNOWN_HINT, PATTERN_HINT,
            BERT_EXPORT_HINT, AS_TOKENIZER]  # fmt: skip
    assert [c for c, _ in cli_terms()] == core
    flags = set().union(*_flags_by_command().values())
    for phrase, cli in cli_terms():
        assert in_cli_terms(f"x: {phrase}") == f"x: {cli}"
        named = re.findall(r"(?<![\w-])--[a-z][a-z-]*", cli)
        assert named and set(named) <= flags, (cli, set(named) - flags)
        assert "▸" not in cli


def test_the_flags_named_for_a_refused_file_belong_to_every_command_that_reads_files():
    by_command = _flags_by_command()
    readers = [c for c, f in by_command.items() if "--file" in f or c in ("train", "count", "stats", "granularity")]
    assert sorted(readers) == ["compare", "count", "encode", "granularity", "inspect", "stats", "train"]
    assert all("--encoding" in by_command[c] for c in readers)
    assert "--raw" in by_command["inspect"]


@pytest.fixture()
def sp120(tmp_path, sp_protos):
    path = tmp_path / "sp120.model"
    path.write_bytes(sp_protos["SP120"])
    return path


def test_an_unknown_piece_note_names_the_training_flags(capfd, sp120):
    code, out, err = run(capfd, "encode", "--tokenizer", f"sp:{sp120}", "--text", "\u9f98", "--json")
    assert code == 0
    assert err == (
        "tokexplorer: note: 1 unknown piece (decoded as ' \u2047 '): '\u9f98'; 1 character lost; to keep such "
        "characters, train with byte fallback (--byte-fallback), or on a corpus that holds them with character "
        "coverage 1.0 (--character-coverage 1.0)\n"
    )
    # and the flags it names do it: SentencePiece trained with them keeps the character, as bytes
    corpus = sp120.parent / "c.txt"
    corpus.write_text("the cat sat on the mat\n" * 20, encoding="utf-8")
    model = sp120.parent / "bf.model"
    code, _, err = run(capfd, "train", str(corpus), "--algorithm", "sp-bpe", "--vocab-size", "280", "--byte-fallback",
                       "--character-coverage", "1.0", "-o", str(model))  # fmt: skip
    assert code == 0, err
    code, out, err = run(capfd, "encode", "--tokenizer", f"sp:{model}", "--text", "\u9f98", "--json")
    assert code == 0 and "unknown piece" not in err
    sp = spm.SentencePieceProcessor(model_file=str(model))
    assert json.loads(out)["ids"] == sp.encode("\u9f98")
    assert sp.id_to_piece(sp.encode("\u9f98"))[-3:] == ["<0xE9>", "<0xBE>", "<0x98>"]
