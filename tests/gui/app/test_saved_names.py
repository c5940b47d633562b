"""A model saved or opened is named by its file everywhere at once, and file dialogs open in
the last folder used (issue 16, point 7: after Ctrl+S to gui.bpe the columns, Granularity and
the Export dialog still said "custom BPE", the Export proposed /root/custom_BPE.tiktoken, and
the Replay tab called an opened cli.wordpiece "custom WordPiece").

Each test has its own settings folder (tests/gui/conftest.py); file dialogs are replaced by
functions that answer as a user would and record where the dialog started."""

from __future__ import annotations

import os

import pytest
from PySide6.QtWidgets import QFileDialog

from tokexplorer.core.io import save_wordpiece
from tokexplorer.core.wordpiece import train_wordpiece
from tokexplorer.gui import file_dialogs
from tokexplorer.gui.main_window import MainWindow

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted
TEXT = "the lower newest widest cat sat on the mat; 12 low lows lowest newer\n" * 40


@pytest.fixture
def corpus(tmp_path):
    folder = tmp_path / "texts"
    folder.mkdir()
    path = folder / "c.txt"
    path.write_text(TEXT, encoding="utf-8")
    return path


def _started(qtbot, corpus) -> MainWindow:
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    w.resize(1200, 760)
    w.show()
    qtbot.waitExposed(w)
    with qtbot.waitSignal(w.startup.done, timeout=WAIT):
        w.startup.run([str(corpus)])
    return w


def _bpe_header(w: MainWindow) -> str:
    return next(c.header.text() for c in w.compare_pane.columns if c.tokenizer.family == "bpe")


def test_after_saving_the_model_is_named_by_its_file_everywhere(qtbot, corpus, tmp_path, monkeypatch):
    out = tmp_path / "models"
    out.mkdir()
    started: list[str] = []

    def save_as(_parent, _caption, start, _filters):
        started.append(start)
        return str(out / "gui.bpe"), "tokexplorer BPE (*.bpe)"

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    w = _started(qtbot, corpus)
    assert _bpe_header(w).startswith("custom BPE · ")
    w.save_bpe_dialog()  # Ctrl+S
    assert started == [os.path.join(os.getcwd(), "custom_BPE.bpe")]  # no folder used yet: where the app started
    assert (out / "gui.bpe").is_file()
    # the column, the merge table's title and the status all say the file's name now
    assert _bpe_header(w).startswith("gui.bpe (BPE) · gpt2 pattern · ")
    assert w.merges_pane.title_label.text().startswith("gui.bpe (BPE) · ")
    assert w.statusBar().currentMessage() == f"saved gui.bpe (BPE) to {out / 'gui.bpe'}"
    # Granularity names it so too
    w.tabs.setCurrentWidget(w.granularity_pane)
    names = lambda: [lv.name for lv in w.granularity_pane.report.levels] if w.granularity_pane.report else []  # noqa: E731
    qtbot.waitUntil(lambda: "gui.bpe (BPE)" in names(), timeout=30_000)
    assert "custom BPE" not in names()
    # the Export dialog names it by its file and proposes the folder it was saved in
    dlg = w.saving.open_export_dialog()
    qtbot.addWidget(dlg)
    assert dlg.name == "gui.bpe (BPE)"
    qtbot.waitUntil(lambda: dlg.path_edit.text() != "", timeout=WAIT)  # once the formats are checked
    assert dlg.path_edit.text() == str(out / "gui.tiktoken")
    dlg.reject()
    # the next Ctrl+S proposes the same file, in the last folder used
    w.save_bpe_dialog()
    assert started[-1] == str(out / "gui.bpe")
    w.close()
    # after a restart the file opens under the same name
    w2 = _started(qtbot, corpus)
    assert file_dialogs.last_folder() == str(out)
    w2.open_model(str(out / "gui.bpe"))
    qtbot.waitUntil(lambda: _bpe_header(w2).startswith("gui.bpe (BPE)"), timeout=WAIT)


def test_an_opened_wordpiece_is_named_by_its_file_in_the_replay(qtbot, corpus, tmp_path):
    wp, _ = train_wordpiece([TEXT], vocab_size=120)
    path = tmp_path / "cli.wordpiece"
    save_wordpiece(wp, path)
    w = _started(qtbot, corpus)
    w.open_model(str(path))
    replay = w.replay_pane.wordpiece
    qtbot.waitUntil(lambda: replay.wordpiece is not None, timeout=WAIT)
    assert replay.name == "cli.wordpiece (WordPiece)"
    assert replay.info.text().startswith("cli.wordpiece (WordPiece): longest match first over ")


def test_open_dialogs_start_in_the_last_folder_used(qtbot, corpus, monkeypatch, tmp_path):
    starts: list[str] = []
    monkeypatch.chdir(tmp_path)  # the app started here: no folder used yet, the dialogs start here

    def open_names(_parent, _caption, start, _filters):
        starts.append(start)
        return [str(corpus)], ""

    def open_name(_parent, _caption, start, _filters=""):
        starts.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", open_names)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", open_name)
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    w.corpus_pane.file_list.open_files_dialog()
    w.open_model_dialog()
    w.open_raw_bytes_dialog()
    assert starts == [str(tmp_path), str(corpus.parent), str(corpus.parent)]


def test_open_folder_starts_in_the_working_directory_then_in_the_last_folder(qtbot, corpus, monkeypatch, tmp_path):
    """File ▸ Open folder… and Open files… start where the app was started (never the home
    folder), then in the folder last chosen, also after a restart (QSettings)."""
    starts: list[str] = []
    chosen = iter([str(corpus.parent), ""])

    def open_dir(_parent, _caption, start):
        starts.append(start)
        return next(chosen)

    def open_names(_parent, _caption, start, _filters):
        starts.append(start)
        return [], ""

    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", open_dir)
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", open_names)
    loaded: list[list[str]] = []
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    monkeypatch.setattr(type(w.corpus_pane.file_list), "load_paths", lambda _self, paths: loaded.append(list(paths)))
    w.open_folder_action.trigger()
    assert loaded == [[str(corpus.parent)]]
    w.close()
    w2 = MainWindow()  # a restart: the folder is read back from the settings file
    w2.show_error_dialogs = False
    qtbot.addWidget(w2)
    w2.open_folder_action.trigger()
    w2.open_files_action.trigger()
    assert starts == [str(work), str(corpus.parent), str(corpus.parent)]
    assert os.path.expanduser("~") not in starts


def test_the_last_folder_lives_in_the_settings_file(qtbot, tmp_path):
    from tokexplorer.gui import settings

    file_dialogs.remember_folder(str(tmp_path / "a.bpe"))
    assert settings.settings().value("files/last_folder") == str(tmp_path)
    assert file_dialogs.start_path("b.bpe") == str(tmp_path / "b.bpe")
