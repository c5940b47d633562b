"""Test configuration shared by tests/core and tests/gui.

Qt must run headless in tests: the offscreen platform is selected here, before
anything imports PySide6.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from hypothesis import settings  # noqa: E402

# CI runs the property tests with a fixed seed so that a submission's result does
# not depend on luck; locally they explore new random examples each run.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


def pytest_sessionfinish(session, exitstatus):
    """Stop GUI workers before Qt is torn down, so none emits into deleted objects."""
    import sys

    workers = sys.modules.get("tokexplorer.gui.workers")
    if workers is not None:
        workers.cancel_all_and_wait(10.0)


# Shared fixtures live in the tests/fixtures package (helpers importable as
# ``fixtures.sp`` and ``fixtures.stats``); its pytest fixtures load as a plugin.
pytest_plugins = ["fixtures.sp_models", "fixtures.cat_hat"]
