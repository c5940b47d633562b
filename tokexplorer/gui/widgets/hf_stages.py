"""The pipeline stages of Hugging Face tokenizers: the byte inspector's tab and the
compare column's panel with the add-special-tokens switch.

Each stage as the ``tokenizers`` library runs it on the text
(:func:`~tokexplorer.core.backends.pipeline_stages`): the normalized text, the
pre-tokens (with their character spans in the original text; added tokens the
library split out first are marked), the model's tokens, and the tokens the
post-processor adds (``[CLS]``/``[SEP]``, a BOS) with where they stand.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QTextBrowser, QVBoxLayout, QWidget

from tokexplorer.core.analysis import InspectReport
from tokexplorer.core.backends import (
    STAGE_SEPARATOR,
    HuggingFaceTokenizer,
    PipelineStages,
    pipeline_stages,
    stage_piece,
    stage_token,
)
from tokexplorer.core.text import token_display
from tokexplorer.core.types import SpecialPolicy
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.glyphs import shown_piece
from tokexplorer.gui.workers import LatestRequest, user_message

NO_HF_HTML = (
    "<p>No Hugging Face tokenizer is loaded. Open a <code>tokenizer.json</code> with "
    "File \u25b8 Open tokenizer…, or in the Compare tab with Add column \u25b8 Hugging Face tokenizer "
    "(tokenizer.json)….</p>"
)

#: Pre-tokens and tokens shown per stage (the rest is counted).
SHOWN = 400


def _vis(s: str) -> str:
    """Text by the one escape rule (spaces as ␣), HTML-escaped."""
    glyphs = theme.control_pictures()
    return html.escape(token_display(s.encode("utf-8", "surrogatepass"), visible_spaces=True, control_pictures=glyphs))


def _piece(s: str) -> str:
    """A vocabulary piece by the one escape rule (``glyphs.shown_piece``), HTML-escaped."""
    return html.escape(shown_piece(s))


#: Between two chips of a stage: the separator no chip holds, muted.
_SEPARATOR = f'<span style="color:palette(mid)">{html.escape(STAGE_SEPARATOR)}</span>'


def _chips(chips: list[tuple[str, str, str]]) -> str:
    """Each chip ``(text shown as is, CSS style, tooltip or "")`` between separators;
    the first :data:`SHOWN`, the rest counted."""
    spans = [
        f'<span style="{style}"' + (f' title="{html.escape(tip)}"' if tip else "") + f">{html.escape(text)}</span>"
        for text, style, tip in chips[:SHOWN]
    ]
    more = f" \u2026 and {len(chips) - SHOWN:,} more" if len(chips) > SHOWN else ""
    return _SEPARATOR.join(spans) + more


def _names(types: tuple[str, ...]) -> str:
    return html.escape("+".join(t for t in types if t != "Sequence") or "none")


def stages_html(st: PipelineStages) -> str:
    """HTML of the four stages of one text (the inspector's tab and the column's panel)."""
    piece_bg = theme.NORMALIZER_PIECE_BG.name()
    special = f"background:{theme.SPECIAL_BG.name()};color:{theme.SPECIAL_TEXT.name()}"
    changed = st.normalized != st.text
    norm_bg = theme.NORMALIZER_CHANGED_TO_BG.name() if changed else "transparent"
    verdict = "changed the text" if changed else "leaves the text as it is"
    glyphs = theme.control_pictures()
    piece = f"background:{piece_bg}"
    pre_html = _chips([
        (stage_piece(p.bytes, control_pictures=glyphs), special if p.added else piece,
         f"chars {p.char_start}\u2013{p.char_end}" + (": an added token, split out first" if p.added else ""))
        for p in st.pre_tokens
    ])  # fmt: skip
    model_html = _chips([(stage_token(t, control_pictures=glyphs), piece, "") for t in st.model_tokens])
    added = ", ".join(f"<b>{_piece(t.piece or '')}</b> at position {i}" for i, t in st.post_processor_tokens)
    switch = "on" if st.add_special_tokens else "off: left out of the tokens"
    return (
        f"<p><b>1. normalizer</b> ({_names(st.normalizer)}) {verdict}:<br>"
        f'<span style="font-family:monospace;background:{norm_bg}">{_vis(st.normalized[:4000])}</span></p>'
        f"<p><b>2. pre-tokens</b> ({_names(st.pre_tokenizer)}, {len(st.pre_tokens):,}): {pre_html}</p>"
        f"<p><b>3. model tokens</b> ({html.escape(st.model)}, {len(st.model_tokens):,}): "
        f"{model_html}</p>"
        f"<p><b>4. post-processor</b> ({_names(st.post_processor)}; add special tokens {switch}): "
        f"{added or 'adds nothing'}</p>"
    )


class HFStagesView(QTextBrowser):
    """The byte inspector's tab: :func:`stages_html` of every Hugging Face track of a report."""

    def show_report(self, report: InspectReport) -> bool:
        """Show the stages of the report's Hugging Face tracks (a note when there is none).

        Returns:
            True when there is at least one such track.
        """
        tracks = [tr for tr in report.tracks if tr.stages is not None]
        if not tracks:
            self.setHtml(NO_HF_HTML)
            return False
        esc = html.escape
        self.setHtml(
            "".join(
                f"<h3>{esc(tr.name)} <small>({esc(tr.description)})</small></h3>{stages_html(tr.stages)}"
                for tr in tracks
            )
        )
        return True


class HFColumnPanel(QWidget):
    """A compare column's Hugging Face controls: the add-special-tokens switch and,
    on demand, the pipeline stages of the column's text (computed in a worker).

    Args:
        tokenizer: the column's tokenizer.
        policy: returns the special-token policy in use (the stages follow it).
        parent: optional parent widget.

    Signals:
        switched(bool): the user turned add special tokens on or off (the
            tokenizer's :attr:`~HuggingFaceTokenizer.add_special_tokens` is already set).

    Attributes:
        special_box: QCheckBox "add special tokens".
        stages_box: QCheckBox "pipeline stages" (shows :attr:`browser`).
        browser: QTextBrowser with :func:`stages_html` of the column's text.
        stages: the last :class:`PipelineStages` shown, or None.
    """

    switched = Signal(bool)

    def __init__(
        self, tokenizer: HuggingFaceTokenizer, policy: Callable[[], SpecialPolicy], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.tokenizer = tokenizer
        self._policy = policy
        self._text = ""
        self.stages: PipelineStages | None = None
        self._job = LatestRequest(self)
        self.special_box = QCheckBox("add special tokens")
        self.special_box.setChecked(tokenizer.add_special_tokens)
        self.special_box.setToolTip(
            "The post-processor's tokens ([CLS]/[SEP], a BOS), as the model adds them by default"
        )
        self.special_box.toggled.connect(self._on_switch)
        self.stages_box = QCheckBox("pipeline stages")
        self.stages_box.toggled.connect(self._on_stages_toggled)
        self.browser = QTextBrowser(self)
        self.browser.setMaximumHeight(180)
        self.browser.hide()
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.special_box)
        row.addWidget(self.stages_box)
        row.addStretch(1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(row)
        lay.addWidget(self.browser)

    def _on_switch(self, on: bool) -> None:
        self.tokenizer.add_special_tokens = on
        self.switched.emit(on)

    def _on_stages_toggled(self, on: bool) -> None:
        self.browser.setVisible(on)
        if on:
            self._refresh()

    def set_text(self, text: str) -> None:
        """The column's text (its shown part) changed: refresh the stages if they are shown."""
        self._text = text
        if self.stages_box.isChecked():
            self._refresh()

    def _refresh(self) -> None:
        tok, text, policy = self.tokenizer, self._text, self._policy()
        self._job.start(lambda cancel: pipeline_stages(tok, text, special=policy), on_result=self._show,
                        on_error=self._show_error)  # fmt: skip

    def _show(self, stages: PipelineStages) -> None:
        self.stages = stages
        self.browser.setHtml(stages_html(stages))

    def _show_error(self, exc: BaseException) -> None:
        self.stages = None
        self.browser.setHtml(f"<p>{html.escape(user_message(exc))}</p>")
