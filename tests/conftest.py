"""Test configuration shared by tests/core and tests/gui.

Qt must run headless in tests: the offscreen platform is selected here, before
anything imports PySide6.
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

# CI runs the property tests with a fixed seed so that a submission's result does
# not depend on luck; locally they explore new random examples each run.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def unanswered_questions(monkeypatch):
    """A modal ``QMessageBox.question`` that no test answers would hang the run (the window
    asks Save / Discard / Cancel when it closes with a model trained in a test): here it is
    answered Discard (No for a yes/no question) and recorded; a test that checks a question
    patches ``QMessageBox.question`` itself. Tests without Qt are left alone."""
    asked: list[str] = []
    if "PySide6.QtWidgets" not in sys.modules:
        yield asked
        return
    from PySide6.QtWidgets import QMessageBox

    def answer(_parent, _title, text, buttons=QMessageBox.StandardButton.Yes, *_args):
        asked.append(text)
        discard = QMessageBox.StandardButton.Discard
        return discard if buttons & discard else QMessageBox.StandardButton.No

    monkeypatch.setattr(QMessageBox, "question", answer)
    yield asked


def pytest_sessionfinish(session, exitstatus):
    """Stop GUI workers before Qt is torn down, so none emits into deleted objects."""
    workers = sys.modules.get("tokexplorer.gui.workers")
    if workers is not None:
        workers.cancel_all_and_wait(10.0)


# Shared fixtures live in the tests/fixtures package (helpers importable as
# ``fixtures.sp`` and ``fixtures.stats``); its pytest fixtures load as a plugin.
pytest_plugins = ["fixtures.sp_models", "fixtures.cat_hat"]
