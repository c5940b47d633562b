"""File ▸ Open tokenizer… and drag and drop: tokenizers recognised by content; a rank file asks for its pattern."""

from __future__ import annotations

import pytest
import tiktoken
from PySide6.QtWidgets import QDialogButtonBox
from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

from fixtures.drops import drop_paths
from tokexplorer.core.backends import RANK_PATTERNS
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import write_tiktoken_file
from tokexplorer.gui.dialogs.pattern import CUSTOM

WAIT = 120_000  # ms; ceiling for worker-backed steps, never asserted
TEXT = "the cat sat 1234"


@pytest.fixture
def ranks(tmp_path):
    bpe, _ = train_bpe("the cat sat on the mat 1234 " * 8, vocab_size=280, pattern="gpt2")
    path = tmp_path / "tokenizer.model"
    write_tiktoken_file(bpe.mergeable_ranks, path)
    return path, bpe


def test_menu_says_open_tokenizer(window):
    assert window.open_model_action.text() == "Open &tokenizer…"
    assert window.open_model_folder_action.text() == "Open tokenizer fo&lder…"


def test_rank_file_asks_for_its_pattern(qtbot, window, ranks):
    path, bpe = ranks
    window.open_model(str(path))
    qtbot.waitUntil(lambda: window.pattern_dialog is not None, timeout=WAIT)
    dialog = window.pattern_dialog
    assert [dialog.choice.itemData(i) for i in range(dialog.choice.count())] == [*RANK_PATTERNS, CUSTOM]
    dialog.choice.setCurrentIndex(dialog.choice.count() - 1)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert not ok.isEnabled() and dialog.problem.text() == "type a regular expression"
    dialog.regex_edit.setText("(")
    assert not ok.isEnabled() and "not a valid regular expression" in dialog.problem.text()
    dialog.choice.setCurrentIndex(list(RANK_PATTERNS).index("llama3"))
    assert ok.isEnabled() and dialog.pattern() == "llama3"
    n = len(window.state.tokenizers)
    with qtbot.waitSignal(window.state.tokenizers_changed, timeout=WAIT):
        ok.click()
    tok = window.state.tokenizers[n]
    assert " · llama3 pattern · " in tok.description
    ranks = bpe.mergeable_ranks
    ref = tiktoken.Encoding("r", pat_str=RANK_PATTERNS["llama3"], mergeable_ranks=ranks, special_tokens={})
    assert tok.encode(TEXT) == ref.encode_ordinary(TEXT)


def test_not_a_tokenizer_is_one_line(qtbot, window, tmp_path):
    path = tmp_path / "model.bpe"
    path.write_text("not a model\n")
    with qtbot.waitSignal(window.state.error, timeout=WAIT) as blocker:
        window.open_model(str(path))
    assert blocker.args[0] == "model.bpe: looks like a UTF-8 text file, not a tokenizer (first line 'not a model')"


def test_a_corrupt_model_is_named_once(qtbot, window, tmp_path):
    """The message names the file once, whether it opens from the File menu or as a
    Compare column's SPEC (it names the file itself: no prefix added)."""
    from tokexplorer.gui.panes.compare_pane import ComparePane

    path = tmp_path / "corrupt.model"
    path.write_bytes(b"\x0a\x05\x0a\x01a\x15" + bytes(range(1, 40)))  # a piece field, then bytes
    message = "corrupt.model is not a SentencePiece model (could not parse ModelProto)"
    with qtbot.waitSignal(window.state.error, timeout=WAIT) as blocker:
        window.open_model(str(path))
    assert blocker.args[0] == message
    pane = window.findChild(ComparePane)
    with qtbot.waitSignal(window.state.error, timeout=WAIT) as blocker:
        pane.add_menu.add_spec(f"sp:{path}")
    assert blocker.args[0] == message
    with qtbot.waitSignal(window.state.error, timeout=WAIT) as blocker:
        pane.add_menu.add_spec(f"bpe:{path}")
    assert blocker.args[0].startswith("corrupt.model") and blocker.args[0].count("corrupt.model") == 1


def test_drop_a_model_folder_opens_its_tokenizer(qtbot, window, tmp_path):
    folder = tmp_path / "downloaded"
    folder.mkdir()
    lib = Tokenizer(models.BPE())
    lib.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    lib.decoder = decoders.ByteLevel()
    alphabet = pre_tokenizers.ByteLevel.alphabet()
    lib.train_from_iterator([TEXT] * 10, trainers.BpeTrainer(vocab_size=280, initial_alphabet=alphabet))
    lib.save(str(folder / "tokenizer.json"))
    (folder / "config.json").write_text('{"model_type": "gpt2"}')
    with qtbot.waitSignal(window.state.tokenizers_changed, timeout=WAIT):
        drop_paths(window, [folder])
    tok = window.state.tokenizers[-1]
    assert tok.name == "tokenizer.json (Hugging Face BPE)"
    assert tok.encode(TEXT) == lib.encode(TEXT).ids
    assert "folder downloaded: using tokenizer.json" in window.statusBar().currentMessage()


def test_add_column_rank_file_asks_for_its_pattern(qtbot, ranks):
    from tokexplorer.gui.panes.compare_pane import ComparePane
    from tokexplorer.gui.state import AppState

    path, bpe = ranks
    state = AppState()
    pane = ComparePane(state)
    qtbot.addWidget(pane)
    pane.add_menu.add_spec(f"tiktoken-file:{path}")
    qtbot.waitUntil(lambda: pane.add_menu.pattern_dialog is not None, timeout=WAIT)
    dialog = pane.add_menu.pattern_dialog
    dialog.choice.setCurrentIndex(list(RANK_PATTERNS).index("qwen"))
    with qtbot.waitSignal(pane.add_menu.tokenizer_ready, timeout=WAIT) as blocker:
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    tok = blocker.args[0]
    ranks_ = bpe.mergeable_ranks
    ref = tiktoken.Encoding("r", pat_str=RANK_PATTERNS["qwen"], mergeable_ranks=ranks_, special_tokens={})
    assert " · qwen pattern · " in tok.description and tok.encode(TEXT) == ref.encode_ordinary(TEXT)


def test_command_line_paths_are_split_by_content(tmp_path):
    """``tokexplorer FILE ...``: tokenizer files (whatever their names) open as tokenizers,
    the other files are the corpus, as with drag and drop."""
    from fixtures import sp as sp_fixture
    from tokexplorer.core.io import sort_paths

    model = tmp_path / "tokenizer.model.v3"
    model.write_bytes(sp_fixture.train_proto()[0])
    text = tmp_path / "notes.model"  # a text file named like a model
    text.write_text("the cat sat on the mat\n", encoding="utf-8")
    found = sort_paths([str(text), str(model)])
    assert (found.tokenizers, found.corpus, found.notes) == ((str(model),), (str(text),), {})
