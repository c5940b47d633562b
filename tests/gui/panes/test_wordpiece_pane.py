"""WordPiece in the window: trained in the Corpus tab, its score table, its
longest-match-first replay, and its column in Compare."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tokexplorer.core.wordpiece import train_wordpiece
from tokexplorer.gui.models.wordpiece_model import (
    COL_BPE,
    COL_COUNT,
    COL_LCOUNT,
    COL_LEFT,
    COL_RCOUNT,
    COL_RIGHT,
    COL_SCORE,
    COL_STEP,
    RawRole,
)
from tokexplorer.gui.panes.corpus_pane import CorpusPane
from tokexplorer.gui.panes.replay_pane import ReplayPane
from tokexplorer.gui.panes.wordpiece_pane import WordPiecePane
from tokexplorer.gui.state import AppState

WAIT = 60_000  # ms; generous ceiling for a worker, never asserted
TEXT = "the cat sat on the mat. the hat is flat. playing, played, plays!\n" * 20


def _cell(model, row, col, role=Qt.ItemDataRole.DisplayRole):
    return model.data(model.index(row, col), role)


def test_train_in_corpus_tab_fills_table_and_column(qtbot, tmp_path):
    state = AppState()
    corpus, panel = CorpusPane(state), WordPiecePane(state)
    qtbot.addWidget(corpus)
    qtbot.addWidget(panel)
    path = tmp_path / "c.txt"
    path.write_text(TEXT, encoding="utf-8")
    with qtbot.waitSignal(corpus.corpus_loaded, timeout=WAIT):
        corpus.load_paths([str(path)])
    corpus.form.set_algorithm("wordpiece")
    assert corpus.form.pattern_combo.currentData() == "bert"
    assert corpus.form.specials_edit.text() == "[PAD] [UNK] [CLS] [SEP] [MASK]"
    corpus.form.lowercase_check.setChecked(True)
    corpus.form.vocab_spin.setValue(45)
    with qtbot.waitSignal(corpus.training_finished, timeout=WAIT) as blocker:
        corpus.start_training()
    result = blocker.args[0]
    wp = state.wordpiece
    assert result.model is wp and wp.vocab_size == 45 and wp.lowercase
    # the one summary of the training use case, the command line's line too (with the time taken)
    n = len(wp.merges)
    assert result.message.startswith(f"learned {n} of {n} WordPiece pieces ({n} merges); vocab 45 = 5 special tokens")
    assert result.message.endswith(f"; {result.report.seconds:.1f} s")
    assert corpus.form.train_message.text() == result.message
    assert [t.family for t in state.tokenizers] == ["wordpiece"]
    ref, _ = train_wordpiece([TEXT], vocab_size=45, lowercase=True)
    assert wp.vocab == ref.vocab
    m = panel.model
    assert m.rowCount() == len(wp.merges)
    first = wp.merges[0]
    assert [_cell(m, 0, c) for c in (COL_STEP, COL_LEFT, COL_RIGHT)] == ["0", first.left, first.right]
    assert [_cell(m, 0, c, RawRole) for c in (COL_COUNT, COL_LCOUNT, COL_RCOUNT)] == [
        first.count, first.left_count, first.right_count,
    ]  # fmt: skip
    assert _cell(m, 0, COL_SCORE, RawRole) == first.count / (first.left_count * first.right_count)
    assert _cell(m, 0, COL_BPE) == f"{first.bpe_left} + {first.bpe_right}"
    panel.table.sortByColumn(COL_SCORE, Qt.SortOrder.DescendingOrder)
    scores = [_cell(m, r, COL_SCORE, RawRole) for r in range(m.rowCount())]
    assert scores == sorted(scores, reverse=True)
    corpus.form.set_algorithm("bpe")
    assert corpus.form.pattern_combo.currentData() == "gpt2"
    assert corpus.form.specials_edit.text() == ""  # none unless asked for, as `train` without --special


def test_replay_steps_to_pieces_and_to_unk(qtbot):
    state = AppState()
    pane = ReplayPane(state)
    qtbot.addWidget(pane)
    replay = pane.wordpiece
    assert replay.table.rowCount() == 0
    wp, _ = train_wordpiece([TEXT], vocab_size=50)
    state.set_wordpiece(wp)
    replay.text_edit.setText("playing flatten xyz")
    assert [replay.word_combo.itemText(i) for i in range(replay.word_combo.count())] == ["playing", "flatten", "xyz"]
    # the first word that takes more than one look-up is shown
    assert replay.word_combo.currentIndex() == 1
    steps = wp.match_steps("flatten")
    assert len(steps) > 1
    assert replay.table.rowCount() == len(steps)
    assert [replay.table.item(r, 0).text() for r in range(len(steps))] == [s.candidate for s in steps]
    pieces = " ".join(wp.vocab[i] for i in wp.encode_word("flatten"))
    assert replay.result.text().endswith(f"done: {pieces}")
    replay.word_combo.setCurrentIndex(2)  # "x" was never seen: [UNK]
    assert [replay.table.item(r, 0).text() for r in range(replay.table.rowCount())] == ["xyz", "xy", "x"]
    assert replay.result.text() == "pieces so far: none · no piece for 'x': the word becomes [UNK]"
    replay.controls.set_step(0)
    assert replay.result.text() == "pieces so far: none"


def test_window_opens_a_saved_wordpiece(qtbot, tmp_path):
    from tokexplorer.core.io import save_wordpiece
    from tokexplorer.gui.main_window import MainWindow

    window = MainWindow()
    window.show_error_dialogs = False
    qtbot.addWidget(window)
    wp, _ = train_wordpiece([TEXT], vocab_size=45)
    save_wordpiece(wp, tmp_path / "m.wordpiece")
    with qtbot.waitSignal(window.state.wordpiece_changed, timeout=WAIT) as blocker:
        window.open_model(str(tmp_path / "m.wordpiece"))
    assert blocker.args[0].vocab == wp.vocab
    assert window.wordpiece_pane.model.rowCount() == len(wp.merges)
    assert [t.name for t in window.state.tokenizers] == ["m.wordpiece (WordPiece)"]
    assert window.tabs.tabText(window.tabs.indexOf(window.wordpiece_pane)) == "WordPiece"
