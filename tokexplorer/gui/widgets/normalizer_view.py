"""The byte inspector's SentencePiece normalizer view: original beside normalized text.

For each SentencePiece track: whether ``decode(encode(s)) == s``, the original and
the normalized text with the changed spans highlighted (removed, rewritten, the
replacement, inserted), the list of changes with their code points and reasons, the pieces on the
normalized text and the ``<unk>`` pieces.
"""

from __future__ import annotations

import html
from collections.abc import Iterator, Sequence
from itertools import accumulate

from PySide6.QtWidgets import QTextBrowser

from tokexplorer.core.analysis import InspectReport, Segment, TrackReport
from tokexplorer.core.text import spans_display, token_display
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import shown_piece

NO_SENTENCEPIECE_HTML = (
    "<p>No SentencePiece tokenizer is loaded. Byte-level BPE and tiktoken do not "
    "normalize: they see the text exactly.</p>"
)


def _vis(s: str) -> str:
    """A highlighted change by the one escape rule (``core.text.token_display``, spaces as ␣)."""
    glyphs = theme.control_pictures()
    return token_display(s.encode("utf-8", "surrogatepass"), visible_spaces=True, control_pictures=glyphs)


def _same_runs(segments: Sequence[Segment]) -> tuple[Iterator[str], Iterator[str]]:
    """The unchanged runs of the original and of the normalized text, in order, each by the one
    escape rule in the context of its whole text (``core.text.spans_display``: spaces as
    themselves, a lone ZWJ or ZWNJ as ``<U+200D>``, an emoji the text holds whole kept whole)."""
    sides = []
    for side in ("original", "normalized"):
        texts = [getattr(s, side) for s in segments]
        ends = list(accumulate(len(t) for t in texts))
        spans = [(e - len(t), e) for s, t, e in zip(segments, texts, ends) if s.kind == "same"]
        sides.append(iter(spans_display("".join(texts), spans, control_pictures=theme.control_pictures())))
    return sides[0], sides[1]


def _span(background: str, text: str) -> str:
    return f'<span style="background:{background}">{text}</span>'


def _changes_html(track: TrackReport) -> list[str]:
    """The verdict, the side-by-side texts and the list of changes of a normalizer that changed the text."""
    d = track.normalization
    esc = html.escape
    parts = [f"<p><b>\u2717 decode(encode(s)) \u2260 s</b> \u2014 {esc(d.summary)}</p>"]
    orig_html, norm_html = [], []
    same_o, same_n = _same_runs(d.segments)
    for seg in d.segments:
        if seg.kind == "same":  # by the one rule too, judged in the whole text: an emoji stays whole
            orig_html.append(esc(next(same_o)))
            norm_html.append(esc(next(same_n)))
        elif seg.kind == "removed":
            orig_html.append(
                f'<span style="background:{theme.NORMALIZER_REMOVED_BG.name()};text-decoration:line-through" '
                f'title="removed">{esc(_vis(seg.original))}</span>'
            )
        elif seg.kind == "inserted":
            norm_html.append(
                f'<span style="background:{theme.NORMALIZER_INSERTED_BG.name()};text-decoration:underline" '
                f'title="inserted">{esc(_vis(seg.normalized))}</span>'
            )
        else:
            orig_html.append(_span(theme.NORMALIZER_CHANGED_FROM_BG.name(), esc(_vis(seg.original))))
            norm_html.append(_span(theme.NORMALIZER_CHANGED_TO_BG.name(), esc(_vis(seg.normalized))))
    parts.append(
        '<table cellspacing="4"><tr><td><b>original</b></td><td style="font-family:monospace">'
        + "".join(orig_html)
        + '</td></tr><tr><td><b>normalized</b></td><td style="font-family:monospace">'
        + "".join(norm_html)
        + "</td></tr></table>"
    )
    # each change on its own line, with its code points: NFC and NFD look alike but differ here
    changes = [f"<li>{esc(s.describe())}</li>" for s in d.changes[:50]]
    parts.append("<ul>" + "".join(changes) + "</ul>")
    if not d.exact:
        parts.append("<p><i>alignment rebuilt by a text diff (no offsets from SentencePiece)</i></p>")
    return parts


def normalization_html(track: TrackReport) -> str:
    """HTML for one SentencePiece track: original and normalized text with changed
    spans highlighted, the pieces on the normalized text and the ``<unk>`` list
    (``""`` for a track without a normalizer description)."""
    d = track.normalization
    esc = html.escape
    parts = [f"<h3>{esc(track.name)} <small>({esc(track.description)})</small></h3>"]
    if d is None:
        return ""
    if not d.changed:
        parts.append("<p>\u2713 the normalizer leaves this text unchanged: "
                     "<code>decode(encode(s)) == s</code> unless pieces are unknown.</p>")  # fmt: skip
    else:
        parts.extend(_changes_html(track))
    nt = track.normalized_tokens
    if nt is not None:
        piece_bg = theme.NORMALIZER_PIECE_BG.name()
        shown = (esc(shown_piece(t.piece or "")) for t in nt.tokens[:400])
        pieces = " ".join(_span(piece_bg, s) for s in shown)
        parts.append(f"<p><b>pieces on the normalized text</b> ({len(nt.tokens)}): {pieces}</p>")
    if track.unknown:
        unk = ", ".join(f"token {i}: \u201c{esc(_vis(s))}\u201d" for i, s in track.unknown[:50])
        parts.append(f"<p><b>&lt;unk&gt; pieces</b> (decoded as \u2047): {unk}</p>")
    return "".join(parts)


class NormalizerView(QTextBrowser):
    """Shows :func:`normalization_html` of every SentencePiece track of a report."""

    def show_report(self, report: InspectReport) -> bool:
        """Show the SentencePiece tracks of ``report`` (a note when there is none).

        Returns:
            True when a normalizer changed the text.
        """
        sp = [tr for tr in report.tracks if tr.normalization is not None]
        if not sp:
            self.setHtml(NO_SENTENCEPIECE_HTML)
            return False
        self.setHtml("".join(normalization_html(tr) for tr in sp))
        return any(tr.normalization.changed for tr in sp)
