"""Guard against a Qt binding that corrupts reference counts.

PySide6 6.12.0 on Python 3.11 lowers the reference count of ``None`` on every
call of a Qt method that returns nothing; the interpreter aborts with
``none_dealloc`` after a few thousand calls. pyproject.toml excludes it; this
test fails loudly if such a build is installed anyway.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QWidget


def test_void_calls_keep_none_refcount(qtbot):
    w = QWidget()
    qtbot.addWidget(w)
    before = sys.getrefcount(None)
    for _ in range(1000):
        w.setVisible(False)
    assert sys.getrefcount(None) - before > -100
