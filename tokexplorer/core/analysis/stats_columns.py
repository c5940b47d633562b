"""What the statistics columns that are not plain counts divide or count, in one wording for
the table's header tooltips, ``tokexplorer stats --help`` and the README.

``tokens/word`` is not the row's ``tokens`` ÷ its ``words``: only lines whose main script is
space-delimited (:data:`tokexplorer.core.text.scripts.SPACE_DELIMITED`) count in it, on both
sides, so the ``all`` row of English and Chinese text equals its Latin row.

>>> SPACED_SCRIPTS
('Latin', 'Hangul', 'Cyrillic', 'Greek', 'Arabic', 'Hebrew', 'Devanagari')
>>> COLUMN_NOTES["tokens_per_word"][:60]
'tokens/word: the tokens of the lines whose main script is sp'
"""

from __future__ import annotations

__all__ = ["COLUMN_NOTES", "SPACED_SCRIPTS", "UNSPACED_SCRIPTS"]

# The labels are spelled out here, not taken from core.text.scripts, so that building the
# command line's parser (whose ``stats --help`` shows these notes) imports no regex;
# tests/core/analysis/test_stats_columns.py checks they are SCRIPTS split by SPACE_DELIMITED.

#: Line labels whose words are counted (:data:`~tokexplorer.core.text.scripts.SPACE_DELIMITED`),
#: in the order of :data:`~tokexplorer.core.text.scripts.SCRIPTS`.
SPACED_SCRIPTS: tuple[str, ...] = ("Latin", "Hangul", "Cyrillic", "Greek", "Arabic", "Hebrew", "Devanagari")

#: Line labels that count no words (and whose tokens are not in tokens/word), in the same order.
UNSPACED_SCRIPTS: tuple[str, ...] = ("Han", "Kana", "Thai", "other script", "emoji", "code", "other", "blank")

_SPACED = ", ".join(SPACED_SCRIPTS)
_UNSPACED = ", ".join(UNSPACED_SCRIPTS)

#: Column key (of :data:`tokexplorer.core.analysis.stats.COLUMNS`) -> what it counts or divides,
#: one sentence or two, plain text.
COLUMN_NOTES: dict[str, str] = {
    "words": (
        f"words: the whitespace-separated words of the lines whose main script is space-delimited ({_SPACED}); "
        f"lines of other kinds ({_UNSPACED}) count no words"
    ),
    "tokens_per_word": (
        f"tokens/word: the tokens of the lines whose main script is space-delimited ({_SPACED}) "
        "÷ the whitespace-separated words of those lines (the words count); "
        f"the tokens of other lines ({_UNSPACED}) are left out, so it is not the row's tokens ÷ its words "
        "when the group holds such lines (the all row of English and Chinese text equals its Latin row); "
        "— when the group has no such line"
    ),
}
