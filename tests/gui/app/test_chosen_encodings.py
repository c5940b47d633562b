"""The encoding a user chose for a file (Corpus tab ▸ Re-read as) is remembered with the last
corpus: the window reopens the corpus with the file read so, and the Encoding column says
the user chose it. Each test has its own settings folder (tests/gui/conftest.py)."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt

from tokexplorer.gui import settings
from tokexplorer.gui.main_window import MainWindow
from tokexplorer.gui.models.corpus_model import CHOSEN_TIP, COL_ENCODING

WAIT = 20_000
FRENCH = "Où est la forêt "  # 'ù ê': cp1257 reads them 'ł ź', Polish letters: a low guess of cp1257
GERMAN = "Grüße aus München, die schöne Straße führt über die Brücke.\n"


def _window(qtbot) -> MainWindow:
    w = MainWindow()
    w.show_error_dialogs = False
    qtbot.addWidget(w)
    return w


def _open(qtbot, w: MainWindow, paths: list[str]):
    with qtbot.waitSignal(w.corpus_pane.corpus_loaded, timeout=WAIT) as loaded:
        w.open_paths(paths)
    return loaded.args[0]


def _row(w: MainWindow, name: str) -> int:
    model = w.corpus_pane.file_list.model
    return next(r for r in range(model.rowCount()) if model.file_at(r).name == name)


def _encoding_cell(w: MainWindow, name: str, role=Qt.ItemDataRole.DisplayRole):
    model = w.corpus_pane.file_list.model
    return model.data(model.index(_row(w, name), COL_ENCODING), role)


def test_a_re_read_file_is_read_so_again_when_the_corpus_reopens(qtbot, tmp_path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "fr.txt").write_bytes(FRENCH.encode("cp1252"))
    (folder / "de.txt").write_bytes(GERMAN.encode("cp1252"))
    w = _window(qtbot)
    _open(qtbot, w, [str(folder)])
    assert _encoding_cell(w, "fr.txt") == "cp1257 (guessed)"
    assert w.corpus_pane.file_list.model.file_at(_row(w, "fr.txt")).text == "Oł est la forźt "
    with qtbot.waitSignal(w.corpus_pane.file_reread, timeout=WAIT):
        w.corpus_pane.file_list.reread_file(_row(w, "fr.txt"), "cp1252")
    assert _encoding_cell(w, "fr.txt") == "cp1252 (chosen by you)"
    assert _encoding_cell(w, "fr.txt", Qt.ItemDataRole.ToolTipRole) == CHOSEN_TIP
    assert settings.chosen_encodings() == {os.path.abspath(folder / "fr.txt"): "cp1252"}
    w.close()

    w2 = _window(qtbot)  # a restart: the last corpus is what opens
    assert w2.memory.startup_paths([]) == [str(folder)]
    corpus = _open(qtbot, w2, w2.memory.startup_paths([]))
    fr = next(f for f in corpus.files if f.name == "fr.txt")
    assert (fr.text, fr.encoding, fr.encoding_guessed, fr.notes) == (FRENCH, "cp1252", False, ())
    assert _encoding_cell(w2, "fr.txt") == "cp1252 (chosen by you)"
    assert _encoding_cell(w2, "de.txt") == "cp1252 (guessed)"  # the other file is guessed as before
    w2.close()


def test_another_corpus_forgets_the_choices_of_the_last(qtbot, tmp_path):
    first, other = tmp_path / "fr.txt", tmp_path / "other.txt"
    first.write_bytes(FRENCH.encode("cp1252"))
    other.write_bytes(FRENCH.encode("cp1252"))
    w = _window(qtbot)
    _open(qtbot, w, [str(first)])
    with qtbot.waitSignal(w.corpus_pane.file_reread, timeout=WAIT):
        w.corpus_pane.file_list.reread_file(0, "cp1252")
    assert settings.chosen_encodings() == {os.path.abspath(first): "cp1252"}
    _open(qtbot, w, [str(other)])
    assert settings.chosen_encodings() == {} and _encoding_cell(w, "other.txt") == "cp1257 (guessed)"
    _open(qtbot, w, [str(first)])  # chosen for another corpus than the last: guessed again
    assert _encoding_cell(w, "fr.txt") == "cp1257 (guessed)"


def test_a_chosen_file_gone_from_disk_is_forgotten(tmp_path):
    kept, gone = tmp_path / "a.txt", tmp_path / "gone.txt"
    kept.write_bytes(b"caf\xe9\n")
    settings.set_chosen_encodings({str(kept): "latin-1", str(gone): "cp1252"})
    assert settings.chosen_encodings() == {str(kept): "latin-1"}
    settings.set_chosen_encodings({})
    assert settings.chosen_encodings() == {}
