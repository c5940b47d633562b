"""The Granularity tab: the levels of the corpus in the table, and the plot's points and curve."""

from __future__ import annotations

import math

import pytest

from tokexplorer.core.analysis import bpe_curve
from tokexplorer.core.analysis.granularity import GranularityReport, Level
from tokexplorer.core.backends import BPETokenizer
from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import Corpus, read_text_file
from tokexplorer.core.types import Progress
from tokexplorer.gui.panes.granularity_pane import GranularityPane
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.granularity_plot import GranularityPlot

WAIT = 60_000  # ms; generous ceiling for a worker, never asserted
TEXT = "the cat sat on the mat.\nthe dog ran to the log!\n猫が寝た。\n犬が走った。\n" * 3


_WORDS = __import__("regex").compile(__import__("tokexplorer.core.analysis", fromlist=["WORD_PATTERN"]).WORD_PATTERN)


def test_pane_fills_table_and_plot(qtbot, tmp_path):
    state = AppState()
    pane = GranularityPane(state)
    qtbot.addWidget(pane)
    bpe, _ = train_bpe(TEXT, vocab_size=300, pattern="gpt2")
    state.set_bpe(bpe)
    state.set_tokenizers([BPETokenizer(bpe)])
    (tmp_path / "c.txt").write_text(TEXT, encoding="utf-8")
    state.set_corpus(Corpus(files=(read_text_file(tmp_path / "c.txt"),)))
    assert pane.report is None and pane.stale  # hidden: nothing measured yet
    pane.show()
    qtbot.waitUntil(lambda: pane.report is not None and pane.table.rowCount() == 4, timeout=WAIT)
    cells = [[pane.table.item(r, c).text() for c in range(7)] for r in range(4)]
    assert [row[0] for row in cells] == ["word", "character", "byte", "subword"]
    assert cells[2][4] == f"{len(TEXT.encode('utf-8')):,}"
    assert cells[3][1] == "custom BPE" and cells[3][4] == f"{len(bpe.encode(TEXT)):,}"
    # vocabulary against tokens seen: a byte level holds all 256 byte values, the text a few of them
    assert [row[2:4] for row in cells] == [
        [f"{len(set(_WORDS.findall(TEXT)))}", f"{len(set(_WORDS.findall(TEXT)))}"],
        [f"{len(set(TEXT))}", f"{len(set(TEXT))}"],
        ["256", f"{len(set(TEXT.encode('utf-8')))}"],
        [f"{len(bpe.vocab)}", "—"],  # (299: the text gives 43 merges)
    ]
    assert cells[2][3] == "34"
    assert pane.table.item(2, 2).toolTip() == "256 byte tokens, every byte value (34 seen in this text)"
    assert "Byte level: 256 byte tokens, every byte value (34 seen in this text)." in pane.info.text()
    assert cells[2][6] == "0.00%"  # no byte is ever out of a vocabulary of all 256
    # the plot is log-log: pyqtgraph gives the data back as log10
    xs, ys = pane.plot.points.getData()
    assert list(xs) == pytest.approx([math.log10(lv.vocab_size) for lv in pane.report.levels])
    assert list(ys) == pytest.approx([math.log10(lv.tokens) for lv in pane.report.levels])
    cx, cy = pane.plot.curve.getData()
    curve = bpe_curve(bpe, [TEXT])
    assert curve[-1][1] == len(bpe.encode(TEXT))
    assert list(cx) == pytest.approx([math.log10(v) for v, _ in curve])
    assert list(cy) == pytest.approx([math.log10(t) for _, t in curve])
    label = pane.plot.labels[0]
    assert label.toPlainText() == "word" and label.pos().x() > math.log10(pane.report.levels[0].vocab_size)
    assert pane.pages.currentWidget() is pane.split and not pane.progress.isVisible()


def _measuring_pane(qtbot, tmp_path):
    """A shown pane measuring a large corpus: (state, pane, its running worker)."""
    state = AppState()
    pane = GranularityPane(state)
    qtbot.addWidget(pane)
    (tmp_path / "c.txt").write_text(TEXT * 2000, encoding="utf-8")
    state.set_corpus(Corpus(files=(read_text_file(tmp_path / "c.txt"),)))
    pane.show()
    return state, pane, pane.job.worker


def test_hiding_the_tab_stops_a_measurement_and_showing_it_starts_again(qtbot, tmp_path):
    """A measurement of a large corpus nobody looks at does not run on (issue 16: it held
    hundreds of MB and kept quitting waiting); it is redone when the tab is shown."""
    state, pane, worker = _measuring_pane(qtbot, tmp_path)
    assert worker is not None and pane.job.busy
    pane.hide()
    assert pane.stale and pane.job.worker is None and worker.is_cancelled()
    assert pane.info.text() == "measuring stopped while the tab was hidden; it starts again when shown"
    pane.show()
    qtbot.waitUntil(lambda: pane.report is not None, timeout=WAIT)
    assert not pane.stale and pane.report.levels[2].tokens == len((TEXT * 2000).encode("utf-8"))


def test_measuring_shows_progress_and_cancel_and_no_empty_plot(qtbot, tmp_path):
    """While measuring: a progress bar naming the level and Cancel, and no axes over nothing
    (the newcomer saw "measuring…" for a minute over an empty plot with ticks 2..9)."""
    state, pane, worker = _measuring_pane(qtbot, tmp_path)
    assert pane.job.busy and pane.progress.isVisible() and pane.cancel_button.isVisible()
    assert not pane.recompute_button.isEnabled()
    assert pane.pages.currentWidget() is pane.placeholder and not pane.plot.isVisible()
    assert pane.placeholder.text() == "Measuring… the table and the plot appear when every level is measured."
    pane._on_progress(Progress("granularity", 3, 5, "custom BPE", unit="levels"))
    assert pane.progress.format() == "measuring custom BPE (3 of 5 levels done)" and pane.progress.value() == 3
    pane.cancel_button.click()
    assert worker.is_cancelled() and not pane.job.busy
    assert not pane.progress.isVisible() and pane.recompute_button.isEnabled()
    assert pane.pages.currentWidget() is pane.placeholder and pane.report is None
    assert pane.info.text() == "measuring cancelled; Recompute measures again"
    pane.recompute_button.click()
    qtbot.waitUntil(lambda: pane.report is not None, timeout=WAIT)
    assert pane.pages.currentWidget() is pane.split and pane.table.rowCount() == 3


def test_point_labels_never_overlap(qtbot):
    """Two tokenizers on the same point share one label, a name a line; no label covers another
    (the newcomer saw "gui.tiktoken (BPE)" drawn over "gui.tiktoken (tiktoken)")."""
    levels = [
        Level("word", "word", 51_602, 876_691, 4.14, 0.09),
        Level("character", "character", 5_669, 3_630_024, 1.0, 0.0017),
        Level("byte", "byte", 256, 4_161_649, 0.87, 0.0, seen=181),
        Level("subword", "gui.tiktoken (BPE)", 4_096, 1_263_487, 2.87, 0.0),
        Level("subword", "gui.tiktoken (tiktoken)", 4_096, 1_263_487, 2.87, 0.0),
        Level("subword", "tiktoken cl100k_base", 100_277, 1_179_651, 3.08, 0.0),
        Level("subword", "tokenizer.json (Hugging Face BPE)", 65_000, 1_172_475, 3.1, 0.0),
        Level("subword", "SentencePiece", 8_000, 1_141_387, 3.18, 0.0),
    ]
    plot = GranularityPlot()
    qtbot.addWidget(plot)
    for width, height in ((1260, 460), (640, 300)):
        plot.resize(width, height)
        plot.show()
        qtbot.waitExposed(plot)
        report = GranularityReport(3_630_024, 4_161_649, 725_867, 0, levels, [])
        plot.set_data(report, [(256, 4_000_000), (4096, 1_263_487)])
        texts = [item.toPlainText() for item in plot.labels]
        assert "gui.tiktoken (BPE)\ngui.tiktoken (tiktoken)" in texts
        assert len(texts) == len(levels) - 1
        boxes = [item.sceneBoundingRect() for item in plot.labels]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                assert not a.intersects(b), (width, texts)
