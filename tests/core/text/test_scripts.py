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


def _looks_like_code_reference(line: str) -> bool:
    """The rules of looks_like_code read straight off its patterns, in their order."""
    from tokexplorer.core.text import scripts as sc

    stripped = line.strip()
    if not stripped:
        return False
    starts = (sc._CODE_BLOCK, sc._CODE_ASSIGN) + (() if stripped in sc._PLAIN_KEYWORDS else (sc._CODE_KEYWORD,))
    if any(p.match(line) for p in starts) or sc._CODE_END.search(line):
        return True
    chars = [c for c in stripped if not c.isspace()]
    share = sum(c in sc._CODE_SYMBOLS for c in chars) / len(chars)
    return share >= (0.10 if sc._CODE_OPERATOR.search(line) else 0.25)


def test_looks_like_code_takes_its_shortcuts_exactly():
    import inspect

    from fixtures.multilingual import multilingual_text
    from tokexplorer.core import training
    from tokexplorer.core.io import sample_text
    from tokexplorer.core.text import scripts as sc

    lines = (inspect.getsource(training) + inspect.getsource(sc) + sample_text()).splitlines()
    lines += multilingual_text(20_000, seed=9).splitlines()
    lines += ["\x1cdef f():", "\u3000x = 1", " ) :", "]", "Hello (world) = 3", "a ;", "#!/bin/sh", "@dataclass"]
    got = [sc.looks_like_code(line) for line in lines]
    assert got == [_looks_like_code_reference(line) for line in lines]
    assert 100 < sum(got) < len(lines) - 100


def test_keyword_shortcut_says_code_only_where_the_keyword_pattern_matches():
    """The shortcut before _CODE_KEYWORD (a plain keyword as the first word) is exact:
    wherever it says yes the pattern matches, and it says yes on the usual lines."""
    import random

    from tokexplorer.core.text import scripts as sc

    rng = random.Random(11)
    words = [*sorted(sc._PLAIN_KEYWORDS), "define", "classy", "if", "else:", "x", "é", "_", "importé", "return_"]
    tails = ["", " ", "(", ":", "\n", "\r\n", "é", "ü x", "_x", "1", ".", "\t", "\x1c", "\u00a0", "-", "\u0301"]
    leads = ["", " ", "\t", "  \t", "\u00a0", "\x1c", "\x0b", "\u3000"]
    said = 0
    for _ in range(20_000):
        line = rng.choice(leads) + rng.choice(words) + rng.choice(tails) + rng.choice(["", " y = 2", "\n"])
        if sc._keyword_first(line):
            said += 1
            assert sc._CODE_KEYWORD.match(line), repr(line)
    assert said > 2_000
    assert [sc._keyword_first(s) for s in ("    return x\n", "def f():", "define it", "returné", "\u00a0def f")] == [
        True, True, False, False, False]  # fmt: skip
