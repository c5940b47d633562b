"""The merge diff pane: two fixed runs give the expected merges."""

from __future__ import annotations

from tokexplorer.core.bpe import train_bpe
from tokexplorer.gui.panes.merge_diff_pane import MergeDiffPane
from tokexplorer.gui.state import AppState


def _cells(model):
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())] for r in range(model.rowCount())]


def test_merge_diff_of_two_fixed_runs(qtbot, qtmodeltester):
    a, _ = train_bpe("the cat in the hat " * 4, vocab_size=256 + 6, pattern="gpt2")
    b, _ = train_bpe("the hat on the mat " * 4, vocab_size=256 + 6, pattern="gpt2")
    pane = MergeDiffPane(AppState())
    qtbot.addWidget(pane)
    pane.set_model("a", a)
    assert pane.diff is None
    with qtbot.waitSignal(pane.diff_ready, timeout=1000):
        pane.set_model("b", b)
    assert pane.summary.text() == (
        "They first diverge at rank 4: A merges «␣ + c», B merges «␣ + h». "
        "5 merges in both (1 at another rank), 1 only in A, 1 only in B."
    )
    assert _cells(pane.side_model) == [
        ["0", "a + t", "a + t"],
        ["1", "h + e", "h + e"],
        ["2", "t + he", "t + he"],
        ["3", "␣ + the", "␣ + the"],
        ["4", "␣ + c", "␣ + h"],
        ["5", "␣ + h", "␣ + m"],
    ]
    assert _cells(pane.both_model) == [
        ["a + t", "0", "0", "same"],
        ["h + e", "1", "1", "same"],
        ["t + he", "2", "2", "same"],
        ["␣ + the", "3", "3", "same"],
        ["␣ + h", "5", "4", "-1"],
    ]
    assert _cells(pane.only_a_model) == [["4", "␣ + c", "␣c"]]
    assert _cells(pane.only_b_model) == [["5", "␣ + m", "␣m"]]
    assert pane.tabs.tabText(2) == "Only in A (1)"
    for m in (pane.side_model, pane.both_model, pane.only_a_model):
        qtmodeltester.check(m)
    assert pane.side_view.selectionModel().selectedRows()[0].row() == 4


def test_identical_and_current_and_load_errors(qtbot):
    state = AppState()
    a, _ = train_bpe("abab abab", vocab_size=258, pattern="none")
    pane = MergeDiffPane(state)
    qtbot.addWidget(pane)
    pane.use_current("a")
    assert pane.labels["a"].text() == "No current BPE: train one in the Corpus tab."
    state.set_bpe(a)
    pane.use_current("a")
    assert pane.vocab_spins["a"].value() == a.vocab_size == 258  # the box shows the model's size, not a stale one
    with qtbot.waitSignal(pane.diff_ready, timeout=5000):
        pane.set_model("b", a)
    assert pane.summary.text().startswith("The two merge lists are identical. 2 merges in both")
    w = pane.load_spec("b", "sp:nothing.model")
    qtbot.waitUntil(lambda: pane.labels["b"].text().startswith("⚠"), timeout=5000)
    assert "SentencePiece models have no BPE merge list" in pane.labels["b"].text()
    assert w is not None
    assert pane.train_side("b") is None
    assert pane.labels["b"].text() == "No corpus: open text files in the Corpus tab first."


def test_first_show_compares_the_current_bpe_with_another_pre_tokenizer(qtbot):
    from pathlib import Path

    from tokexplorer.core.io import Corpus, decode_file_bytes

    text = "Don't split it's words: the cat's 12345 hats, the dog's 678 mats.\n" * 30
    state = AppState()
    state.set_corpus(Corpus((decode_file_bytes(text.encode(), path=Path("t.txt")),), ()))
    a, _ = train_bpe(text, vocab_size=300, pattern="gpt2")
    state.set_bpe(a)
    pane = MergeDiffPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.diff_ready, timeout=20_000):
        pane.show()
    assert pane.models["a"] is a
    b = pane.models["b"]
    assert b.pattern_name == "cl100k" and b.name == "trained here on t.txt"
    assert pane.vocab_spins["b"].value() == b.vocab_size  # the size it reached on this small corpus
    # the label gives the size reached (the spin box's), and why it is not the one asked for
    assert (a.vocab_size, b.vocab_size) == (293, 291)
    assert pane.labels["b"].text() == (
        "trained here on t.txt · cl100k pattern · vocab 291 tokens · 35 merges · asked for vocab 293: "
        "learned 35 of 37 requested merges; vocab 291: no pair of tokens is left to merge"
    )
    assert pane.labels["a"].text() == "custom BPE · gpt2 pattern · vocab 293 tokens · 37 merges"
    assert pane.summary.text().startswith("They first diverge at rank")
    # once a side is set, showing the pane again changes nothing
    pane.hide()
    pane.show()
    assert pane.models["b"] is b


def test_a_side_trained_here_says_the_size_it_reached(qtbot):
    """Asked for more than the corpus has pairs for: the label, the spin box and the note agree."""
    from pathlib import Path

    from tokexplorer.core.io import Corpus, decode_file_bytes

    text = "abab cdcd\n"
    state = AppState()
    state.set_corpus(Corpus((decode_file_bytes(text.encode(), path=Path("t.txt")),), ()))
    pane = MergeDiffPane(state)
    qtbot.addWidget(pane)
    pane.vocab_spins["b"].setValue(899)
    pane.pattern_combos["b"].setCurrentIndex(pane.pattern_combos["b"].findData("cl100k"))
    assert pane.train_side("b").wait(30)
    qtbot.waitUntil(lambda: pane.models["b"] is not None, timeout=10_000)
    b = pane.models["b"]
    assert [m.merged for m in b.merges] == [b"ab", b"cd", b" cd", b" cdcd", b"abab"]  # then no pair is left
    assert pane.vocab_spins["b"].value() == b.vocab_size == 261
    assert pane.labels["b"].text() == (
        "trained here on t.txt · cl100k pattern · vocab 261 tokens · 5 merges · asked for vocab 899: "
        "learned 5 of 643 requested merges; vocab 261: no pair of tokens is left to merge"
    )


def test_sides_say_what_they_were_trained_on_and_when_the_corpora_differ(qtbot, tmp_path):
    """A: the Corpus tab's BPE, trained on another corpus than the one open now; B: a file
    opened by its spec, named as Compare names it. The summary says the corpora differ."""
    from pathlib import Path

    from tokexplorer.core.backends import BPETokenizer
    from tokexplorer.core.io import Corpus, decode_file_bytes, save_bpe

    def corpus(name: str, text: str) -> Corpus:
        return Corpus((decode_file_bytes(text.encode(), path=Path(name)),), ())

    old_text, new_text = "the cat sat on the mat\n" * 20, "a dog ran in the fog\n" * 20
    state = AppState()
    state.set_corpus(corpus("old.txt", old_text))
    a, _ = train_bpe(old_text, vocab_size=270, pattern="gpt2")
    tok = BPETokenizer(a)
    state.set_tokenizers([tok])
    state.set_trained_on(tok, name="old.txt", files=tuple(str(f.path) for f in state.corpus.files))
    state.set_corpus(corpus("new.txt", new_text))
    pane = MergeDiffPane(state)
    qtbot.addWidget(pane)
    pane.set_model("a", a)
    assert pane.labels["a"].text() == (
        "custom BPE · trained on old.txt — not the corpus open now · gpt2 pattern · vocab 268 tokens · 12 merges"
    )
    path = tmp_path / "mine.bpe"
    save_bpe(train_bpe(new_text, vocab_size=270, pattern="gpt2")[0], path)
    with qtbot.waitSignal(pane.diff_ready, timeout=10_000):
        pane.load_spec("b", f"bpe:{path}")
    assert pane.labels["b"].text().startswith("mine.bpe (BPE) · gpt2 pattern")
    assert "corpora differ" not in pane.summary.text()  # B's corpus is not known
    with qtbot.waitSignal(pane.diff_ready, timeout=20_000):
        assert pane.train_side("b") is not None
    assert pane.labels["b"].text().startswith("trained here on new.txt · gpt2 pattern")
    assert pane.summary.text().startswith("They first diverge at rank 0: ")
    assert " A was trained on old.txt, B on new.txt: the corpora differ, not only the settings." in pane.summary.text()


def test_a_rank_file_is_named_by_its_pattern(qtbot, tmp_path):
    """A rank file whose sidecar gives Llama 3's split pattern: "llama3 pattern", as its column says."""
    import base64
    import json

    from tokexplorer.core.analysis import bpe_of_tokenizer
    from tokexplorer.core.backends import load_tokenizer
    from tokexplorer.core.text import PUBLISHED_PATTERNS
    from tokexplorer.gui.widgets.merge_table_view import model_title

    ranks = [bytes([i]) for i in range(256)] + [b"ab", b"abab"]
    path = tmp_path / "tokenizer.model"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {i}\n" for i, t in enumerate(ranks)))
    (tmp_path / "tokenizer.model.json").write_text(json.dumps({"pat_str": PUBLISHED_PATTERNS["llama3"]}))
    tok = load_tokenizer(str(path))
    assert " · llama3 pattern · 258 tokens" in tok.description
    title = model_title(bpe_of_tokenizer(tok))
    assert title.startswith("tokenizer.model (tiktoken) · llama3 pattern · vocab 258 tokens · ")
    pane = MergeDiffPane(AppState())
    qtbot.addWidget(pane)
    assert pane.load_spec("b", str(path)).wait(30)
    qtbot.waitUntil(lambda: pane.models["b"] is not None, timeout=10_000)
    assert pane.labels["b"].text() == "tokenizer.model (tiktoken) · llama3 pattern · vocab 258 tokens · 2 merges"


def test_the_rank_column_is_measured_from_its_largest_rank(qtbot):
    """Side by side's Rank column holds its header and its largest rank, measured from that
    one number (Qt's ResizeToContents read 25,000 cells of a 32,000-merge diff on the GUI
    thread: a 145 ms stall); the user can still drag it."""
    from PySide6.QtWidgets import QHeaderView

    from tokexplorer.gui.panes.merge_diff_pane import RANK_PADDING

    pane = MergeDiffPane(AppState())
    qtbot.addWidget(pane)
    head, fm = pane.side_view.horizontalHeader(), pane.side_view.fontMetrics()
    assert head.sectionResizeMode(0) == QHeaderView.ResizeMode.Interactive
    assert pane.side_view.columnWidth(0) == head.sectionSizeHint(0)  # no rows: the header's width
    pane._fit_rank(123_457)
    wide = fm.horizontalAdvance("123456") + RANK_PADDING
    assert pane.side_view.columnWidth(0) == max(head.sectionSizeHint(0), wide)
    assert pane.side_view.columnWidth(0) >= fm.horizontalAdvance("123456")
