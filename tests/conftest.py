"""Test configuration shared by tests/core and tests/gui.

Qt must run headless in tests: the offscreen platform is selected here, before
anything imports PySide6.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
