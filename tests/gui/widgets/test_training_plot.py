"""The training plot's token curve: exact for a model trained here, an estimate (and said so)
for one read from a file, whose merges carry only pair counts."""

from __future__ import annotations

from tokexplorer.core.bpe import train_bpe
from tokexplorer.core.io import dumps_bpe, loads_bpe
from tokexplorer.gui.widgets.training_plot import TrainingPlot

# runs of spaces and repeated emoji: pairs that overlap themselves, where pair counts over-count
TEXT = "🙂🙂🙂🙂 a" + " " * 9 + "b\n" + "🙂" * 7 + "    x\n"


def test_a_model_trained_here_plots_the_exact_corpus_tokens(qtbot):
    bpe, _ = train_bpe([TEXT], vocab_size=270, pattern="cl100k")
    plot = TrainingPlot()
    qtbot.addWidget(plot)
    n_bytes = len(TEXT.encode())
    plot.set_merges(bpe.merges, n_bytes)
    ys = plot.tokens_curve.getData()[1]
    assert int(ys[0]) == n_bytes and int(ys[-1]) == len(bpe.encode(TEXT))
    assert plot.note.text().endswith("as training merged them.")


def test_a_model_read_from_a_file_without_saved_counts_is_an_estimate(qtbot):
    bpe, _ = train_bpe([TEXT], vocab_size=270, pattern="cl100k")
    lines = dumps_bpe(bpe).splitlines()
    old = []
    for ln in lines:  # drop the SAVED column, as files written before it have none
        body, sep, comment = ln.partition("\t")
        parts = body.split(" ")
        old.append(" ".join(parts[:4]) + sep + comment if sep else ln)
    loaded = loads_bpe("\n".join(old) + "\n")
    plot = TrainingPlot()
    qtbot.addWidget(plot)
    plot.set_merges(loaded.merges, len(TEXT.encode()))
    ys = plot.tokens_curve.getData()[1]
    # the estimate saves more than training did: it ends below the real token count
    assert int(ys[-1]) < len(bpe.encode(TEXT))
    assert "estimated from the pair counts" in plot.note.text()


def test_count_axes_say_20m_not_2e07(qtbot):
    from tokexplorer.gui.widgets.training_plot import CountAxis, TrainingPlot

    plot = TrainingPlot()
    qtbot.addWidget(plot)
    left = plot.tokens_plot.getAxis("left")
    assert isinstance(left, CountAxis) and isinstance(plot.length_plot.getAxis("bottom"), CountAxis)
    assert left.tickStrings([1e7, 1.5e7, 2e7], 1, 5e6) == ["10M", "15M", "20M"]
    assert plot.tokens_plot.getAxis("bottom").tickStrings([0, 10000, 32000], 1, 10000) == ["0", "10k", "32k"]
