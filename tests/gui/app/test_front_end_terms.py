"""What the window says a user can do names the window's controls: a menu item that is in
its menus, an option its forms hold; never a command-line flag."""

from __future__ import annotations

import re

import pytest

from tokexplorer.core.backends import SentencePieceTokenizer
from tokexplorer.core.errors import CorpusError
from tokexplorer.core.io import BOMLESS_CODECS, READ_ANYWAY, check_binary, encoding_hint
from tokexplorer.gui.panes.compare_pane import ComparePane
from tokexplorer.gui.panes.corpus_pane.training_form import TrainingForm
from tokexplorer.gui.state import AppState
from tokexplorer.gui.terms import WINDOW_TERMS, in_window_terms
from tokexplorer.gui.workers import user_message

FLAG = re.compile(r"(?<![\w-])--[a-z]")


def _menu_paths(window) -> set[str]:
    """Every "Menu ▸ Item" of the window's menu bar, without the & of shortcuts."""
    return {
        f"{menu.title().replace('&', '')} ▸ {act.text().replace('&', '')}"
        for menu in (a.menu() for a in window.menuBar().actions())
        if menu is not None
        for act in menu.actions()
        if act.text()
    }


def test_every_window_phrase_names_a_menu_item_the_window_has(window):
    assert [core for core, _ in WINDOW_TERMS] == [READ_ANYWAY, *(encoding_hint(c) for c in BOMLESS_CODECS)]
    paths = _menu_paths(window)
    assert "File ▸ Open raw bytes…" in paths
    for _core, phrase in WINDOW_TERMS:
        named = re.findall(r"\(([^()]*▸[^()]*)\)", phrase)
        assert named and set(named) <= paths, phrase
        assert not FLAG.search(phrase)


@pytest.mark.parametrize(
    ("data", "end"),
    [
        (b"abc\x00\xff", "to see it anyway, open its raw bytes (File ▸ Open raw bytes…)"),
        ("hi".encode("utf-16-be"), "the window reads UTF-16 only with a byte order mark; to see it anyway, open its "
                                   "raw bytes (File ▸ Open raw bytes…)"),
    ],
)  # fmt: skip
def test_a_worker_error_is_shown_in_the_windows_terms(data, end):
    with pytest.raises(CorpusError) as caught:
        check_binary("x.bin", data)
    shown = user_message(caught.value)
    assert shown.endswith("; not loaded; " + end) and shown == in_window_terms(str(caught.value))
    assert not FLAG.search(shown)


def test_an_unknown_piece_note_names_the_training_forms_option(qtbot, sp_protos):
    state = AppState()
    state.set_tokenizers([SentencePieceTokenizer(sp_protos["SP120"], name="SP120")])
    pane = ComparePane(state)
    qtbot.addWidget(pane)
    qtbot.waitSignal(pane.tokenized, timeout=10_000).wait()
    with qtbot.waitSignal(pane.tokenized, timeout=10_000):
        pane.set_text("\u9f98")
    note = pane.columns[0].notes_label.full_text()
    assert note == (
        "⚠ 1 unknown piece (decoded as ' \u2047 '): '\u9f98'; 1 character lost; to keep such characters, train with "
        "byte fallback, or on a corpus that holds them with character coverage 1.0"
    )
    assert not FLAG.search(note)
    # the two settings it names are options of the Corpus tab's training form
    form = TrainingForm()
    qtbot.addWidget(form)
    assert form.sp_form.byte_fallback_check.text().startswith("byte fallback ")
    assert form.sp_form.coverage_spin.maximum() == 1.0
