"""The replay pane: encode replay of a fixed chunk, training replay, step controls."""

from __future__ import annotations

import pytest

from tokexplorer.gui.panes.replay_pane import ReplayPane
from tokexplorer.gui.state import AppState


@pytest.fixture
def pane(qtbot, cat_hat_bpe):
    state = AppState()
    bpe = cat_hat_bpe
    state.set_bpe(bpe)
    p = ReplayPane(state)
    qtbot.addWidget(p)
    return p


def test_encode_replay_of_a_fixed_chunk_visits_the_expected_pieces(pane):
    pane.encode.text_edit.setText("the cat, 你们好")
    pane.encode.refresh_chunks()
    # the first non-ASCII chunk is picked
    assert pane.encode.chunk_combo.currentData() == " 你们好"
    chunks = pane.encode.chunk_combo
    assert [chunks.itemData(i) for i in range(chunks.count())] == ["the", " cat", ",", " 你们好"]
    assert pane.encode.controls.count == 10
    seen = []
    for i in range(pane.encode.controls.count):
        pane.encode.controls.set_step(i)
        seen.append(pane.encode.pieces.texts())
    assert seen == [
        ["␣", "\\xE4", "\\xBD", "\\xA0", "\\xE4", "\\xBB", "\\xAC", "\\xE5", "\\xA5", "\\xBD"],
        ["␣\\xE4", "\\xBD", "\\xA0", "\\xE4", "\\xBB", "\\xAC", "\\xE5", "\\xA5", "\\xBD"],
        ["␣\\xE4\\xBD", "\\xA0", "\\xE4", "\\xBB", "\\xAC", "\\xE5", "\\xA5", "\\xBD"],
        ["␣你", "\\xE4", "\\xBB", "\\xAC", "\\xE5", "\\xA5", "\\xBD"],
        ["␣你", "\\xE4", "\\xBB", "\\xAC", "\\xE5", "\\xA5\\xBD"],
        ["␣你", "\\xE4", "\\xBB", "\\xAC", "好"],
        ["␣你\\xE4", "\\xBB", "\\xAC", "好"],
        ["␣你\\xE4\\xBB", "\\xAC", "好"],
        ["␣你们", "好"],
        ["␣你们好"],
    ]
    # step 4: two candidates, the lower merge rank (#7) wins over #19
    pane.encode.controls.set_step(3)
    rows = [[pane.encode.table.item(r, c).text() for c in range(5)] for r in range(pane.encode.table.rowCount())]
    assert rows == [
        ["\\xA5", "\\xBD", "\\xA5\\xBD", "#7", "◀ merged now"],
        ["␣你", "\\xE4", "␣你\\xE4", "#19", ""],
    ]
    assert pane.encode.label.text() == (
        "Step 4: 7 pieces, 2 candidate pairs. Lowest rank: merge #7 joins «\\xA5» + «\\xBD» → «\\xA5\\xBD»."
    )
    pane.encode.controls.set_step(99)  # clamped to the last step
    assert pane.encode.controls.step == 9
    assert pane.encode.label.text().startswith("Done after 9 merges: 1 token.")
    assert pane.encode.table.rowCount() == 0


def test_encode_replay_with_cl100k(pane):
    pane.encode.model_combo.setCurrentIndex(pane.encode.model_combo.findData("cl100k"))
    pane.encode.text_edit.setText("你好")
    pane.encode.refresh_chunks()
    pane.encode.controls.set_step(pane.encode.controls.count - 1)
    assert pane.encode.pieces.texts() == ["你", "好"]  # cl100k: two tokens
    assert pane.encode.merge_rank("你".encode()) is not None


def test_play_advances_steps(pane, qtbot):
    pane.encode.controls.speed.setValue(30)
    pane.encode.controls.play_btn.setChecked(True)
    qtbot.waitUntil(lambda: pane.encode.controls.step == pane.encode.controls.count - 1, timeout=5000)
    qtbot.waitUntil(lambda: not pane.encode.controls.play_btn.isChecked(), timeout=2000)


def test_training_replay_the_cat_in_the_hat(pane, qtbot):
    pane.training.text_edit.setPlainText("the cat in the hat")
    pane.training.merges_spin.setValue(3)
    with qtbot.waitSignal(pane.training.replayed, timeout=5000):
        pane.training.replay()
    assert pane.training.controls.count == 3
    assert pane.training.label.text() == (
        "Merge 1 of 3 (rank 0): the most frequent pair «a» + «t» (2×) becomes the token «at». "
        "Tokens in the text: 18 → 16."
    )
    assert pane.training.controls.label.text() == "merge 1 of 3"  # the same count beside the slider
    first_rows = [[pane.training.table.item(r, c).text() for c in range(3)] for r in range(3)]
    assert first_rows == [["a", "t", "2"], ["h", "e", "2"], ["t", "h", "2"]]
    pane.training.controls.set_step(2)
    assert pane.training.pieces.texts() == ["the", "␣", "c", "at", "␣", "i", "n", "␣", "the", "␣", "h", "at"]
    assert pane.training.label.text().startswith("Merge 3 of 3 (rank 2): the most frequent pair «t» + «he» (2×)")
    assert pane.training.controls.label.text() == "merge 3 of 3"


def test_training_replay_error_is_one_line(pane, qtbot):
    pane.training.text_edit.setPlainText("x" * 20_001)
    pane.training.replay()
    label = pane.training.label
    qtbot.waitUntil(lambda: label.text().startswith("text of 20,001 characters is too long"), timeout=5000)
    assert "\n" not in pane.training.label.text()


def test_no_model(qtbot):
    p = ReplayPane(AppState())
    qtbot.addWidget(p)
    assert p.encode.label.text().startswith("No BPE model yet")
    assert p.encode.steps == []


def test_a_newer_training_replay_wins(pane, qtbot):
    training = pane.training
    training.merges_spin.setValue(2)
    first = training.replay()
    training.merges_spin.setValue(3)
    shown = []
    training.replayed.connect(lambda: shown.append(training.controls.count))
    second = training.replay()
    assert first.wait(5) and second.wait(5)
    qtbot.waitUntil(lambda: shown == [3], timeout=5000)
    qtbot.wait(50)  # the first replay's result, if it came, would be queued by now
    assert shown == [3] and len(training.steps) == 3


def test_the_corpus_bpe_is_named_as_its_column(qtbot):
    """Not "current BPE (Corpus tab)" beside a Compare column named "gui.tiktoken (BPE)"."""
    from pathlib import PurePath

    from tokexplorer.core.backends import BPETokenizer
    from tokexplorer.core.bpe import train_bpe
    from tokexplorer.gui.panes.replay_pane import ReplayPane
    from tokexplorer.gui.state import AppState
    from tokexplorer.gui.widgets.encode_replay import NO_BPE_ITEM

    state = AppState()
    pane = ReplayPane(state)
    qtbot.addWidget(pane)
    combo = pane.encode.model_combo
    assert combo.itemText(0) == NO_BPE_ITEM == "no BPE yet (Corpus tab)"
    bpe, _ = train_bpe("the cat in the hat " * 4, vocab_size=270, pattern="gpt2")
    state.set_tokenizers([BPETokenizer(bpe, source_file=PurePath("gui.tiktoken"))])
    state.set_bpe(bpe)
    assert combo.itemText(0) == "gui.tiktoken (BPE)" and pane.encode.model() is bpe
    state.set_tokenizers([BPETokenizer(bpe, source_file=PurePath("saved.bpe"))])  # saved: the replay follows
    assert combo.itemText(0) == "saved.bpe (BPE)"


def test_a_new_bpe_is_replayed_when_the_hidden_replay_is_shown(qtbot, cat_hat_bpe):
    """A training's end does no replay work while the Replay tab is hidden; showing it replays."""
    from tokexplorer.core.bpe import train_bpe

    state = AppState()
    p = ReplayPane(state)
    qtbot.addWidget(p)
    assert p.encode.steps == []
    state.set_bpe(cat_hat_bpe)
    assert p.encode.model() is cat_hat_bpe and p.encode.steps == []  # hidden: nothing replayed yet
    p.show()
    qtbot.waitExposed(p)
    assert p.encode.steps and p.encode.chunk_combo.count() > 0
    p.encode.steps = []
    other, _ = train_bpe("the cat in the hat " * 4, vocab_size=262, pattern="gpt2")
    state.set_bpe(other)  # shown: replayed at once
    assert p.encode.model() is other and p.encode.steps


def test_the_replay_starts_on_a_chunk_a_merge_applies_to(pane):
    """The default text's only non-ASCII chunk, `` 自然语言处理``, holds no byte pair this model
    merges: the replay starts on the first chunk that merges (`` into``), and the Chinese chunk,
    picked, says why nothing happens (it said "Done after 0 merges" with an empty table)."""
    from tokexplorer.gui.widgets.encode_replay import DEFAULT_ENCODE_TEXT

    enc = pane.encode
    enc.text_edit.setText(DEFAULT_ENCODE_TEXT)
    enc.refresh_chunks()
    assert [enc.chunk_combo.itemData(i) for i in range(enc.chunk_combo.count())] == [
        "Tokenizers", " split", " 自然语言处理", " into", " pieces", ".",
    ]  # fmt: skip
    assert enc.chunk_combo.currentData() == " into"
    assert enc.controls.count > 1 and enc.table.rowCount() > 0
    enc.chunk_combo.setCurrentIndex(2)
    assert enc.controls.count == 1
    assert enc.label.text() == (
        "No merge of this model applies to this chunk: no two adjacent bytes of it "
        "(20 E8 87 AA E7 84 B6 E8 AF AD E8 A8 80 E5 A4 84 E7 90 86) make a token of this model, "
        "so it stays 19 byte tokens; pick another chunk."
    )
    # a non-ASCII chunk that merges is still preferred
    enc.text_edit.setText("the cat, 自然 你们好")
    enc.refresh_chunks()
    assert enc.chunk_combo.currentData() == " 你们好"
