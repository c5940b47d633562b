"""Test configuration shared by tests/core and tests/gui.

Qt must run headless in tests: the offscreen platform is selected here, before
anything imports PySide6.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_configure(config):
    """Apply the PySide6 6.12 / CPython 3.11 reference-count workaround
    (see :func:`tokexplorer.gui.app.apply_pyside_refcount_workaround`) before any test emits signals."""
    try:
        from tokexplorer.gui.app import apply_pyside_refcount_workaround
    except ImportError:  # PySide6 missing: the GUI tests are skipped anyway
        return
    apply_pyside_refcount_workaround()
