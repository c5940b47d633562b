"""The byte inspector's cut list: where each tokenizer cuts the text, and what it holds.

One item per tokenizer (tokens, cuts inside code points, cuts inside grapheme
clusters); its children are the lines of :func:`track_lines`: tokens holding part
of a character (``"E4 BD = bytes 1–2 of 3 of U+4F60 你"``), boundaries inside a
grapheme cluster, ``<unk>`` pieces and runs of byte-fallback pieces, then the
track's notes.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QWidget

from tokexplorer.core.analysis import InspectReport, TrackReport, describe_tokens
from tokexplorer.core.errors import TokexplorerError
from tokexplorer.core.text import Cut, utf8
from tokexplorer.gui.widgets.glyphs import shown_piece


def _grapheme_cut_line(cut: Cut, analysis: utf8.Utf8Analysis) -> str:
    g = analysis.graphemes[cut.index]
    left = analysis.code_point_at(cut.byte_offset - 1)
    right = analysis.code_point_at(cut.byte_offset)
    return (
        f"cut at byte {cut.byte_offset} inside grapheme {g.index} ({g.text}) "
        f"between U+{left.value:04X} and U+{right.value:04X}"
    )


def _is_byte_piece(spelling: str) -> bool:
    """True for the spelling of a SentencePiece byte-fallback piece such as ``<0xE9>``."""
    return spelling.startswith("<0x") and spelling.endswith(">")


def _byte_run_lines(
    track: TrackReport,
    analysis: utf8.Utf8Analysis,
    i: int,
    j: int,
    grapheme_cuts: dict[int, Cut],
    *,
    control_pictures: bool,
) -> list[str]:
    """Lines for the run of byte-fallback pieces ``track.tokens[i:j]``: the cuts and
    partial tokens after its first piece, then what the pieces spell together."""
    run = track.tokens[i:j]
    data = b"".join(r.token.bytes for r in run)
    try:
        whole = describe_tokens(track, analysis, i, j - 1, control_pictures=control_pictures)
    except TokexplorerError:
        whole = shown_piece(data)
    lines: list[str] = []
    for r in run[1:]:
        c2 = grapheme_cuts.get(r.token.byte_start)
        if c2 is not None:
            lines.append(_grapheme_cut_line(c2, analysis))
        if r.token.partial:
            lines.append(f"{r.token.bytes.hex(' ').upper()} = {r.description}")
    lines.append(
        f"{' '.join(r.spelling for r in run)} = {data.hex(' ').upper()} = {whole} "
        f"({j - i} byte-fallback pieces)"
    )
    return lines


def track_lines(track: TrackReport, analysis: utf8.Utf8Analysis, *, control_pictures: bool) -> list[str]:
    """The cut list of one tokenizer: partial tokens, grapheme cuts, ``<unk>`` pieces,
    runs of byte-fallback pieces, and a line when spans are approximate.

    Args:
        track: a :class:`~tokexplorer.core.analysis.inspector.TrackReport`.
        analysis: the analysis of the inspected axis.
        control_pictures: how controls are shown (see ``theme.control_pictures``).

    Returns:
        list of one-line str, in token order.
    """
    if track.error is not None or track.tokenization is None:
        return []
    lines: list[str] = []
    if not track.exact:
        lines.append("\u2248 spans are approximate: " + (track.notes[-1] if track.notes else "normalized text"))
    grapheme_cuts = {c.byte_offset: c for c in track.cuts if c.kind == "grapheme"}
    reports = track.tokens
    i = 0
    while i < len(reports):
        rep = reports[i]
        t = rep.token
        cut = grapheme_cuts.get(t.byte_start)
        if cut is not None and track.exact:
            lines.append(_grapheme_cut_line(cut, analysis))
        if t.unknown:
            lines.append(f"<unk> (id {t.id}) = {rep.description[len('<unk> for '):]} swallowed")
        elif t.partial and t.bytes and track.exact:
            lines.append(f"{t.bytes.hex(' ').upper()} = {rep.description}")
        elif rep.grapheme_part is not None:
            lines.append(f"{t.bytes.hex(' ').upper()} = part of a grapheme: {rep.grapheme_part}")
        elif rep.description.count("U+FFFD stands for"):
            lines.append(f"{t.bytes.hex(' ').upper()} = {rep.description}")
        # a run of SentencePiece byte-fallback pieces: say what they spell together
        j = i
        while j < len(reports) and _is_byte_piece(reports[j].spelling):
            j += 1
        if j - i >= 2 and track.exact:
            lines.extend(_byte_run_lines(track, analysis, i, j, grapheme_cuts, control_pictures=control_pictures))
            i = j
            continue
        i += 1
    return lines


class CutList(QTreeWidget):
    """The cuts per tokenizer: one top-level item per track, its lines as children."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setHeaderLabels(["cuts per tokenizer"])

    def show_report(self, report: InspectReport, lines: Sequence[list[str]]) -> None:
        """Show the tracks of ``report`` with their :func:`track_lines` (one list per track)."""
        self.clear()
        for tr, tr_lines in zip(report.tracks, lines):
            if tr.error is not None:
                top = QTreeWidgetItem([f"{tr.name}: ⚠ {tr.error}"])
            else:
                top = self._track_item(tr, tr_lines)
            self.addTopLevelItem(top)
            top.setExpanded(True)

    def _track_item(self, tr: TrackReport, tr_lines: list[str]) -> QTreeWidgetItem:
        n_cp = sum(1 for c in tr.cuts if c.kind == "code point")
        n_g = len(tr.cuts) - n_cp
        head = (
            f"{tr.name}: {len(tr.tokens):,} tokens · {n_cp} cuts inside code points · "
            f"{n_g} inside grapheme clusters"
        )
        if not tr.exact:
            head = f"\u2248 {head} (approximate spans)"
        top = QTreeWidgetItem([head])
        for line in tr_lines:
            top.addChild(QTreeWidgetItem([line]))
        for note in tr.notes:
            if not any(note in ln for ln in tr_lines):
                item = QTreeWidgetItem(["note: " + note])
                item.setForeground(0, self.palette().placeholderText())
                top.addChild(item)
        return top
