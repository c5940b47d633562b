"""Script labels of lines (tokexplorer.core.text.scripts)."""

from __future__ import annotations

import pytest

from tokexplorer.core.text import SCRIPTS, classify_line, looks_like_code, script_counts


@pytest.mark.parametrize(
    "line, label",
    [
        ("The quick brown fox.", "Latin"),
        ("你好，世界！", "Han"),
        ("これはテストです。", "Kana"),
        ("東京タワーに行きました", "Kana"),
        ("안녕하세요 세계", "Hangul"),
        ("Привет, мир!", "Cyrillic"),
        ("Καλημέρα κόσμε", "Greek"),
        ("مرحبا بالعالم", "Arabic"),
        ("שלום עולם", "Hebrew"),
        ("नमस्ते दुनिया", "Devanagari"),
        ("สวัสดีชาวโลก", "Thai"),
        ("ሰላም ዓለም", "other script"),
        ("🎉🎉👩\u200d🔬 ok", "emoji"),
        ("🇫🇷🇩🇪", "emoji"),
        ("12,345.67 — 89%", "other"),
        ("   \t", "blank"),
        ("", "blank"),
        ("def add(a, b):", "code"),
        ("    return a + b", "code"),
        ("int main() {", "code"),
        ("x = compute(y) + 1", "code"),
        ("if (a == b && c) x++", "code"),
        ("我喜欢 Python programming", "Latin"),
        ("我们大家都很喜欢用 Python", "Han"),
    ],
)
def test_classify_line(line, label):
    assert classify_line(line) == label
    assert label in SCRIPTS


def test_prose_is_not_code():
    assert not looks_like_code("Hello, world: a story about (almost) everything.")
    assert not looks_like_code("")


def test_script_counts():
    assert dict(script_counts("ab 你 😀 ж")) == {"Latin": 2, "Han": 1, "emoji": 1, "Cyrillic": 1}
