"""The architecture, enforced: layers, the Qt-free core, sizes, lint and doctests.

Each rule here is one the codebase promises in ``docs/ARCHITECTURE.md``; a change
that breaks one fails the suite rather than drifting quietly.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tokexplorer
import tokexplorer.core

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "tokexplorer"

MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 80  # body lines, the docstring not counted
MAX_POSITIONAL = 6  # parameters that can be passed by position, self/cls not counted


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_import_contracts_hold():
    """The import-linter contracts in pyproject.toml (layers, Qt-free core, independent panes)."""
    from importlinter.cli import lint_imports

    assert lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True) == 0


def test_core_never_imports_qt():
    """Importing every core module in a fresh interpreter loads no Qt module."""
    code = (
        "import sys, importlib, pkgutil, tokexplorer.core\n"
        "for m in pkgutil.walk_packages(tokexplorer.core.__path__, 'tokexplorer.core.'):\n"
        "    importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken6', 'pyqtgraph'))]\n"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr


def test_no_file_over_the_limit():
    over = {str(p.relative_to(ROOT)): n for p in _sources() if (n := len(p.read_text().splitlines())) > MAX_FILE_LINES}
    assert over == {}


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def _body_lines(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    body = fn.body
    first = body[0] if body else None
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        body = body[1:]
    if not body:
        return 0
    return body[-1].end_lineno - body[0].lineno + 1


def test_no_function_over_the_limit():
    long = {}
    for p in _sources():
        for fn in _functions(ast.parse(p.read_text())):
            if (n := _body_lines(fn)) > MAX_FUNCTION_LINES:
                long[f"{p.relative_to(ROOT)}:{fn.lineno} {fn.name}"] = n
    assert long == {}


def test_no_function_takes_many_positional_parameters():
    many = {}
    for p in _sources():
        for fn in _functions(ast.parse(p.read_text())):
            names = [a.arg for a in fn.args.posonlyargs + fn.args.args]
            if names and names[0] in ("self", "cls"):
                names = names[1:]
            if len(names) > MAX_POSITIONAL:
                many[f"{p.relative_to(ROOT)}:{fn.lineno} {fn.name}"] = len(names)
    assert many == {}


def test_ruff_is_clean():
    ruff = shutil.which("ruff") or str(Path(sys.executable).with_name("ruff"))
    if not Path(ruff).exists():
        pytest.fail("ruff is not installed: it is part of the test extra ('.[test]')")
    r = subprocess.run([ruff, "check", "tokexplorer", "tests", "bench"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr


def _core_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(tokexplorer.core.__path__, "tokexplorer.core."))


@pytest.mark.parametrize("name", _core_modules())
def test_core_doctests_pass(name):
    """Every ``>>>`` example in the core runs and prints what it says."""
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_core_has_doctests():
    """The core's public functions carry examples: the doctest run above is not empty."""
    finder = doctest.DocTestFinder()
    examples = sum(
        len(t.examples) for name in _core_modules() for t in finder.find(importlib.import_module(name))
    )
    assert examples >= 40, examples
