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
    from tokexplorer.core.text.code_keywords import keyword_signal

    stripped = line.strip()
    if not stripped:
        return False
    if keyword_signal(line) or sc._CODE_ASSIGN.match(line) or sc._CODE_END.search(line):
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


@pytest.mark.parametrize(
    "line",
    ["use the force", "for the record", "import duties rose", "return to sender", "raise the flag",
     "class was dismissed today", "static electricity", "public opinion shifted", "except when it rains",
     "if you like:", "with the following keys:", "for the deprecation of the old APIs; see below",
     "function (return type, argument types) without", "@john thanks for the fix",
     "  with ``nargs='*'``, but multiple optional arguments", "if the argument was not acceptable::"],
)  # fmt: skip
def test_a_keyword_followed_by_prose_is_not_code(line):
    assert not looks_like_code(line)
    assert classify_line(line) == "Latin"


@pytest.mark.parametrize(
    "line",
    ["use std::io;", "for x in items:", "for (int i = 0; i < n; i++)", "import os", "import os, sys as system",
     "from .. import fixer_base", "import {a} from 'b'", "import (", "def f(x):", "def f", "class Foo:",
     "class Foo(Base):", "return x", "return h, l, s", 'return b""', "    return", "\traise", "return a + b",
     "if data is None:", "if not m: return ''", "elif flags & SRE_FLAG_UNICODE:", "while True:",
     "with lock:", "except ValueError:", "except (A, B) as exc:", "else:", "try:", "finally:",
     "raise ValueError(x)", "async def f():", "@property", "@dataclass(slots=True)", "#include <stdio.h>",
     "#define N 10", "#!/bin/sh", "let x = 1;", "public static void main(String[] args) {",
     "package main", "fn main() {", "impl Foo {", "import os  # the system"],
)  # fmt: skip
def test_a_keyword_followed_by_code_is_code(line):
    assert looks_like_code(line)
    assert classify_line(line) == "code"


def test_a_keyword_alone_is_code_only_indented_as_a_statement():
    assert [looks_like_code(s) for s in ("return", "raise", "    return", "  def", "use")] == [
        False, False, True, False, False,
    ]  # fmt: skip
