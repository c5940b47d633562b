"""The core's messages are in the terms of no front end: no command-line flag, no menu item.

A message the window shows must not tell its user to "use --byte-fallback", and one the
command line prints must not send its user to a menu. The core names the setting
("byte fallback", "split pattern", "training fraction"); each front end adds its own
control (``tokexplorer.cli.terms``, ``tokexplorer.gui.terms``). Docstrings and comments
may name flags (they document the front ends); strings the code builds may not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import tokexplorer.core

CORE = Path(tokexplorer.core.__file__).parent
FRONT_END_WORDS = re.compile(r"(?<![\w-])--[a-z]|▸")


def _strings_built(tree: ast.AST) -> list[ast.Constant]:
    """The string constants of ``tree`` that are not docstrings (a string alone as a statement)."""
    alone = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
    strings = [n for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    return [n for n in strings if id(n) not in alone]


def test_the_scan_sees_what_it_looks_for():
    tree = ast.parse('"""doc: --pattern"""\nX = "give one (--pattern NAME)"\nY = f"File ▸ Open {x}"\n"""--doc"""')
    assert [n.value for n in _strings_built(tree) if FRONT_END_WORDS.search(n.value)] == [
        "give one (--pattern NAME)", "File ▸ Open ",
    ]  # fmt: skip
    assert not FRONT_END_WORDS.search("UTF-8 -- a dash; byte-fallback pieces; <0x--> x--y")


def test_no_core_message_names_a_flag_or_a_menu_item():
    found = [
        f"{path.relative_to(CORE)}:{node.lineno}: {node.value!r}"
        for path in sorted(CORE.rglob("*.py"))
        for node in _strings_built(ast.parse(path.read_text(encoding="utf-8")))
        if FRONT_END_WORDS.search(node.value)
    ]
    assert found == []
