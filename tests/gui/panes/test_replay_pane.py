"""The replay pane: encode replay of a fixed chunk, training replay, step controls."""

from __future__ import annotations

import pytest

from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.panes.replay_pane import ReplayPane
from tokexplorer.gui.state import AppState

TEXT = "the cat in the hat. the hat is on the cat. 你好, 你们好! 你好吗? " * 3


@pytest.fixture
def pane(qtbot):
    state = AppState()
    bpe, _ = train_bpe(TEXT, vocab_size=256 + 24, pattern="gpt2")
    state.set_bpe(bpe)
    p = ReplayPane(state)
    qtbot.addWidget(p)
    return p


def test_encode_replay_of_a_fixed_chunk_visits_the_expected_pieces(pane):
    pane.enc_text.setText("the cat, 你们好")
    pane.refresh_chunks()
    # the first non-ASCII chunk is picked
    assert pane.enc_chunk.currentData() == " 你们好"
    assert [pane.enc_chunk.itemData(i) for i in range(pane.enc_chunk.count())] == ["the", " cat", ",", " 你们好"]
    assert pane.enc_controls.count == 10
    seen = []
    for i in range(pane.enc_controls.count):
        pane.enc_controls.set_step(i)
        seen.append(pane.enc_pieces.texts())
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
    pane.enc_controls.set_step(3)
    rows = [[pane.enc_table.item(r, c).text() for c in range(5)] for r in range(pane.enc_table.rowCount())]
    assert rows == [
        ["\\xA5", "\\xBD", "\\xA5\\xBD", "#7", "◀ merged now"],
        ["␣你", "\\xE4", "␣你\\xE4", "#19", ""],
    ]
    assert pane.enc_label.text() == (
        "Step 4: 7 pieces, 2 candidate pairs. Lowest rank: merge #7 joins «\\xA5» + «\\xBD» → «\\xA5\\xBD»."
    )
    pane.enc_controls.set_step(99)  # clamped to the last step
    assert pane.enc_controls.step == 9
    assert pane.enc_label.text().startswith("Done after 9 merges: 1 token.")
    assert pane.enc_table.rowCount() == 0


def test_encode_replay_with_cl100k(pane):
    pane.enc_model.setCurrentIndex(pane.enc_model.findData("cl100k"))
    pane.enc_text.setText("你好")
    pane.refresh_chunks()
    pane.enc_controls.set_step(pane.enc_controls.count - 1)
    assert pane.enc_pieces.texts() == ["你", "好"]  # cl100k: two tokens
    assert pane.merge_rank("你".encode()) is not None


def test_play_advances_steps(pane, qtbot):
    pane.enc_controls.speed.setValue(30)
    pane.enc_controls.play_btn.setChecked(True)
    qtbot.waitUntil(lambda: pane.enc_controls.step == pane.enc_controls.count - 1, timeout=5000)
    qtbot.waitUntil(lambda: not pane.enc_controls.play_btn.isChecked(), timeout=2000)


def test_training_replay_the_cat_in_the_hat(pane, qtbot):
    pane.train_text.setPlainText("the cat in the hat")
    pane.train_merges.setValue(3)
    with qtbot.waitSignal(pane.training_replayed, timeout=5000):
        pane.replay_training()
    assert pane.train_controls.count == 3
    assert pane.train_label.text() == (
        "Merge #0: the most frequent pair «a» + «t» (2×) becomes the token «at». Tokens in the text: 18 → 16."
    )
    first_rows = [[pane.train_table.item(r, c).text() for c in range(3)] for r in range(3)]
    assert first_rows == [["a", "t", "2"], ["h", "e", "2"], ["t", "h", "2"]]
    pane.train_controls.set_step(2)
    assert pane.train_pieces.texts() == ["the", "␣", "c", "at", "␣", "i", "n", "␣", "the", "␣", "h", "at"]
    assert pane.train_label.text().startswith("Merge #2: the most frequent pair «t» + «he» (2×)")


def test_training_replay_error_is_one_line(pane, qtbot):
    pane.train_text.setPlainText("x" * 20_001)
    pane.replay_training()
    qtbot.waitUntil(lambda: pane.train_label.text().startswith("text of 20,001 characters is too long"), timeout=5000)
    assert "\n" not in pane.train_label.text()


def test_no_model(qtbot):
    p = ReplayPane(AppState())
    qtbot.addWidget(p)
    assert p.enc_label.text().startswith("No BPE model yet")
    assert p.encode_steps == []
