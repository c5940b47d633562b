"""Statistics pane: table, chart, exports; one special-token policy for pane,
statistics and exports (issue 6)."""

from __future__ import annotations

import csv
import json
import threading

import pytest

from fixtures.stats import FILE_A, FILE_B, FILES, fixture_tokenizers, gated_cl100k  # noqa: E402
from tokexplorer.core.analysis import COLUMNS, compute_stats, format_cell  # noqa: E402
from tokexplorer.gui import symbols
from tokexplorer.gui.panes.compare_pane import ComparePane  # noqa: E402
from tokexplorer.gui.panes.stats_pane import TABLE_COLUMNS, StatsPane, header_title, shown_cell  # noqa: E402
from tokexplorer.gui.state import AppState  # noqa: E402

WAIT = 30_000


@pytest.fixture(scope="module")
def toks():
    return fixture_tokenizers()


def corpus_of(files):
    from tokexplorer.core.io import Corpus, CorpusFile

    return Corpus(
        tuple(
            CorpusFile(__import__("pathlib").Path(n), t, len(t.encode()), "utf-8", False, None, "LF",
                       len(t), t.count("\n"))  # fmt: skip
            for n, t in files
        ),
        (),
    )


def compute(qtbot, pane):
    with qtbot.waitSignal(pane.computed, timeout=WAIT) as blocker:
        assert pane.compute() is not None
    return blocker.args[0]


def test_table_chart_and_exports_hold_the_same_numbers(qtbot, toks, tmp_path):
    state = AppState()
    state.set_tokenizers(toks)
    state.set_corpus(corpus_of(FILES))
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    stats = compute(qtbot, pane)
    rows = stats.rows()
    assert rows == compute_stats(toks, FILES).rows()
    assert pane.table.rowCount() == len(rows) == 27
    for r, row in enumerate(rows):
        for key in TABLE_COLUMNS:
            assert pane.cell_text(r, key) == shown_cell(row[key])
    # the SentencePiece total row as the user sees it
    sp_total = next(i for i, row in enumerate(rows) if row["tokenizer"] == "SP120")
    assert [pane.cell_text(sp_total, k) for k in ("tokens", "chars_per_token", "partial_pct",
            "unknown_pct", "roundtrip_failed_lines")] == ["94", "1.66", "0.0", "22.34", "8"]  # fmt: skip
    assert pane.export(str(tmp_path / "s.csv"), "csv")
    assert pane.export(str(tmp_path / "s.json"), "json")
    with open(tmp_path / "s.csv", encoding="utf-8", newline="") as fh:
        table = list(csv.reader(fh))
    with open(tmp_path / "s.json", encoding="utf-8") as fh:
        data = json.load(fh)
    assert data["rows"] == rows
    for r, line in enumerate(table[1:]):
        cells = dict(zip(COLUMNS, line))
        for key in TABLE_COLUMNS:
            shown = pane.cell_text(r, key)
            assert (cells[key] or "—") == format_cell(data["rows"][r][key])  # CSV: plain numbers
            assert shown_cell(data["rows"][r][key]) == shown
    # chart: chars/token per script, one series per tokenizer
    assert pane.chart.categories == ["Latin", "Han", "Kana", "Cyrillic", "emoji", "code"]
    assert [n for n, _v in pane.chart.series] == ["custom BPE", "tiktoken cl100k_base", "SP120"]
    assert pane.chart.series[1][1] == [3.714, 1.167, 1.667, 1.857, 0.562, 2.667]
    pane.by_combo.setCurrentIndex(1)
    assert pane.chart.categories == ["a.txt", "b.txt"]


@pytest.mark.parametrize("policy", ["plain", "special", "raise"])
def test_policy_counts_agree_in_pane_statistics_and_export(qtbot, toks, tmp_path, policy):
    """special-token text inside user input: one policy switch; the compare pane, the
    statistics and the export agree."""
    text = FILE_A + FILE_B
    state = AppState()
    state.set_sample_text(text)
    state.set_tokenizers(toks)
    compare = ComparePane(state)
    stats_pane = StatsPane(state)
    qtbot.addWidget(compare)
    qtbot.addWidget(stats_pane)
    compute(qtbot, stats_pane)  # shown once: a policy change recomputes it
    with qtbot.waitSignal(compare.tokenized, timeout=WAIT):
        with qtbot.waitSignal(stats_pane.computed, timeout=WAIT) as blocker:
            i = compare.policy_combo.findData(policy)
            if compare.policy_combo.currentIndex() == i:
                state.special_policy_changed.emit(policy)
            else:
                compare.policy_combo.setCurrentIndex(i)
    stats = blocker.args[0]
    assert stats.special == policy
    totals = {r["tokenizer"]: r for r in stats.rows() if r["group_kind"] == "total"}
    expected = {
        "plain": {"custom BPE": 155, "tiktoken cl100k_base": 74, "SP120": 94},
        "special": {"custom BPE": 144, "tiktoken cl100k_base": 70, "SP120": 94},
        "raise": {"custom BPE": None, "tiktoken cl100k_base": None, "SP120": 94},
    }[policy]
    stats_pane.export(str(tmp_path / "s.json"), "json")
    with open(tmp_path / "s.json", encoding="utf-8") as fh:
        exported = {r["tokenizer"]: r for r in json.load(fh)["rows"] if r["group_kind"] == "total"}
    for col in compare.columns:
        name = col.tokenizer.name
        assert col.total_tokens == expected[name] == totals[name]["tokens"] == exported[name]["tokens"]
        if expected[name] is None:
            # the statistics and the export say it without naming controls; the column
            # names the Compare tab's own choices
            assert totals[name]["error"] == exported[name]["error"] == (
                "text contains the special token '<|endoftext|>'; encode it as its special id or as ordinary "
                "text instead"
            )
            assert col.error == (
                "text contains the special token '<|endoftext|>'; choose Special tokens: 'Special tokens' to encode it "
                "as its special id or 'Plain text + warning' to encode it as ordinary text"
            )
        else:
            assert col.count_label.text().startswith(f"{expected[name]} tokens")
    if policy == "plain":
        bpe_col = compare.columns[0]
        note = "'<|endoftext|>' encoded as plain text"
        assert bpe_col.notes_label.isVisible() or note in bpe_col.notes_label.toolTip()
    if policy == "special":
        specials = [t for t in compare.columns[1].tokenization.tokens if t.special]
        assert [t.id for t in specials] == [100257]


def test_no_tokenizer_message(qtbot):
    state = AppState()
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    assert pane.compute() is None
    assert pane.message.text() == "No tokenizer: add a column in the Compare tab first."


def test_cancel_is_reported(qtbot):
    gate = threading.Event()
    state = AppState()
    state.set_tokenizers([gated_cl100k(gate)])
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    assert pane.compute() is not None
    assert pane.busy and pane.cancel_button.isEnabled() and not pane.compute_button.isEnabled()
    pane.cancel()
    gate.set()
    qtbot.waitUntil(lambda: pane.message.text() == "statistics cancelled", timeout=WAIT)
    assert not pane.busy and pane.stats is None
    assert pane.compute_button.isEnabled() and not pane.cancel_button.isEnabled()


def test_a_newer_computation_wins(qtbot, toks):
    gate = threading.Event()
    state = AppState()
    state.set_tokenizers([gated_cl100k(gate)])
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    shown = []
    pane.computed.connect(shown.append)
    assert pane.compute() is not None
    with qtbot.waitSignal(pane.computed, timeout=WAIT):
        state.set_tokenizers(list(toks))  # recomputes: the running computation is cancelled
        gate.set()
    qtbot.wait(200)
    assert [[t.name for t in st.tokenizers] for st in shown] == [[t.name for t in toks]]
    assert pane.message.text() != "statistics cancelled"


def test_each_tokenizer_row_shows_when_it_is_done(qtbot, toks):
    """Issue 14: the rows of a tokenizer appear as soon as it is counted, while the
    next one still runs; the bar holds only the percentage (never cut), the message
    beside it says which tokenizer is being counted."""
    gate = threading.Event()
    gated = gated_cl100k(gate)
    state = AppState()
    state.set_tokenizers([toks[0], gated])
    state.set_corpus(corpus_of(FILES))
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    first_rows = compute_stats([toks[0]], FILES).rows()
    try:
        assert pane.compute() is not None
        qtbot.waitUntil(lambda: pane.table.rowCount() == len(first_rows), timeout=WAIT)
        assert pane.busy and pane.stats is None
        for r, row in enumerate(first_rows):
            for key in TABLE_COLUMNS:
                assert pane.cell_text(r, key) == shown_cell(row[key])
        assert pane.chart.series and [n for n, _v in pane.chart.series] == [toks[0].name]
        qtbot.waitUntil(lambda: pane.message.text().endswith(f"now {gated.name}; 1 of 2 done"), timeout=WAIT)
        assert pane.progress.format() == "%p%"
        with qtbot.waitSignal(pane.computed, timeout=WAIT) as blocker:
            gate.set()
    finally:
        gate.set()
    assert pane.table.rowCount() == len(blocker.args[0].rows()) > len(first_rows)
    assert [n for n, _v in pane.chart.series] == [toks[0].name, gated.name]


def test_counts_have_thousands_separators_and_every_column_fits(qtbot, toks):
    """The newcomer saw 3630024 (the rest of the window says 3,630,024) and the last column,
    round-trip failures, cut off at the right."""
    assert shown_cell(3_630_024) == "3,630,024" and shown_cell(2.873) == "2.873" and shown_cell(None) == "—"
    assert header_title("roundtrip_failed_lines") == "round-trip\nfailures (lines)"
    assert header_title("grapheme_part_pct") == "part of a\ngrapheme %" and header_title("tokens") == "tokens"
    state = AppState()
    state.set_tokenizers(toks)
    state.set_corpus(corpus_of(FILES * 400))
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    pane.resize(1280, 700)
    pane.show()
    qtbot.waitExposed(pane)
    stats = compute(qtbot, pane)
    total = stats.rows()[0]
    assert total["chars"] >= 1000 and pane.cell_text(0, "chars") == f"{total['chars']:,}"
    table = pane.table
    assert table.horizontalHeader().length() <= table.viewport().width()


def test_the_pane_says_what_counted_a_tokenizer_otherwise(qtbot):
    """A text our trained model's compiled core would split otherwise (U+0C5C: a letter
    to our engine's Unicode 18, unassigned to tiktoken's 16) is counted by our engine,
    and the pane says so, as `tokexplorer stats` does in its notes."""
    from tokexplorer.core.backends import BPETokenizer
    from tokexplorer.core.bpe import train_bpe

    bpe, _ = train_bpe(["it's Bob's cat's dog's " * 40], vocab_size=300, pattern="cl100k")
    tok = BPETokenizer(bpe)
    state = AppState()
    state.set_tokenizers([tok])
    state.set_corpus(corpus_of([("new.txt", "a\u0c5c's cat\n" * 3)]))
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    pane.show()
    qtbot.waitExposed(pane)
    stats = compute(qtbot, pane)
    assert stats.tokenizers[0].notes and "counted with our engine" in stats.tokenizers[0].notes[0]
    text = pane.message.text()
    assert symbols.plain(f"ⓘ {tok.name}: counted with our engine") in text and "U+0C5C TELUGU ARCHAIC SHRII" in text
    assert stats.rows()[0]["tokens"] == 3 * len(bpe.encode("a\u0c5c's cat\n"))
