"""The byte inspector: how a text is laid out in UTF-8 and where tokens cut it.

The text follows the compare pane's sample text while "Follow compare text" is on; typing your
own text turns it off, so it is never replaced. A token clicked in the compare pane
(``AppState.inspect_requested``) brings its text here with the token's byte range highlighted.
"Open raw bytes…" shows a file's bytes exactly as stored (invalid UTF-8 flagged, nothing decoded away).

The pane shows a :class:`ByteView` (bytes, code points, grapheme clusters and
one token track per tokenizer on one byte axis) and five tabs: the code points,
the cuts per tokenizer (tokens holding part of a character, ``"E4 BD = bytes 1–2
of 3 of U+4F60 你"``, boundaries inside a grapheme cluster, ``<unk>`` pieces, runs
of byte-fallback pieces), the SentencePiece normalizer (original beside
normalized text, changed spans highlighted), the Hugging Face pipeline (each
stage of a ``tokenizer.json``: normalized text, pre-tokens, model tokens, the
post-processor's tokens) and a decode box for token ids.

Analysis and tokenization (:mod:`tokexplorer.core.analysis.inspector`) run in one worker per
change (latest wins); a tokenizer's error is one line in its track. A long text or a large file
is shown one part at a time (:mod:`tokexplorer.core.analysis.inspect_parts`; the part bar picks
it); a hidden pane (another tab is current) analyses nothing until it is shown.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import PART_CHARS, InspectReport, PartReport, inspect_part
from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.text import utf8
from tokexplorer.core.types import SpecialPolicy, Tokenization
from tokexplorer.gui import file_dialogs, theme
from tokexplorer.gui.plural import plural
from tokexplorer.gui.state import AppState
from tokexplorer.gui.terms import part_in_window_terms
from tokexplorer.gui.widgets.byte_view import ByteView
from tokexplorer.gui.widgets.code_point_table import CodePointRow, CodePointTable
from tokexplorer.gui.widgets.cut_list import CutList, track_lines
from tokexplorer.gui.widgets.decode_box import DecodeBox
from tokexplorer.gui.widgets.faithful_editor import FaithfulTextEdit
from tokexplorer.gui.widgets.hf_stages import HFStagesView
from tokexplorer.gui.widgets.normalizer_view import NormalizerView
from tokexplorer.gui.widgets.part_bar import PartBar, part_range
from tokexplorer.gui.widgets.raw_banner import RawBanner
from tokexplorer.gui.widgets.sample_note import SampleNote
from tokexplorer.gui.widgets.track_paint import tracks_of
from tokexplorer.gui.workers import LatestRequest, user_message

DEBOUNCE_MS = 250
"""Delay between the last keystroke and re-analysing, in milliseconds."""


def _inspect(
    source: str | bytes,
    tokenizers: Sequence[Tokenizer],
    policy: SpecialPolicy,
    cancel: Callable[[], bool],
    *,
    where: tuple[int, tuple[tuple[int, int], ...], tuple[int, int]],
    control_pictures: bool,
) -> tuple[PartReport, list[list[str]]]:
    """Worker body: the report of one part of ``source`` (text, or raw bytes; track errors in the window's
    terms) and each track's cut lines; ``where`` is (part, the text's known parts, byte range to highlight)."""
    part, parts, highlight = where
    pr = part_in_window_terms(inspect_part(
        source, tokenizers, part=part, parts=parts, highlight=highlight,
        policy=policy, cancel=cancel, control_pictures=control_pictures,
    ))  # fmt: skip
    lines = [track_lines(tr, pr.report.analysis, control_pictures=control_pictures) for tr in pr.report.tracks]
    return pr, lines


class BytesPane(QWidget):
    """The UTF-8 byte inspector.

    Args:
        state: the shared :class:`AppState`.
        parent: optional parent widget.

    Signals:
        updated(): the view, tables and lists show the current text.

    Attributes:
        editor: :class:`FaithfulTextEdit` with the inspected text, kept byte for
            byte (CRLF, NBSP... as they are; read-only in raw mode).
        follow_check: "Follow compare text" toggle; typing your own text turns it off.
        raw_banner: the :class:`RawBanner` describing the raw bytes shown (hidden in text mode).
        byte_view: the :class:`ByteView` (inside :attr:`scroll`).
        tabs: QTabWidget with the code point table, the cut list, the normalizer
            view, the Hugging Face pipeline and the decode box.
        table: the :class:`CodePointTable` (#, code point, char, name, bytes, grapheme).
        cuts_tree: the :class:`CutList`: one item per tokenizer, its cut lines as children.
        normalizer_view: the :class:`NormalizerView`: SentencePiece original vs normalized text.
        hf_view: the :class:`~tokexplorer.gui.widgets.hf_stages.HFStagesView`: the
            pipeline stages of each Hugging Face tokenizer.
        decode_box: :class:`~tokexplorer.gui.widgets.decode_box.DecodeBox`.
        analysis: the ``Utf8Analysis`` of the text shown, or None before the first update
            (of the part shown, for a long input: offsets relative to the part).
        report: the :class:`~tokexplorer.core.analysis.inspector.InspectReport` shown, or None.
        part_report: the :class:`~tokexplorer.core.analysis.inspect_parts.PartReport`
            shown (which part of how many), or None.
        part_bar: the :class:`PartBar` (shown for a long text or a large file).
    """

    updated = Signal()

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.analysis: utf8.Utf8Analysis | None = None
        self.report: InspectReport | None = None
        self.part_report: PartReport | None = None
        self._part = 0
        self._parts: tuple[tuple[int, int], ...] = ()
        self._stale = False
        self._waiting = False  # an inspection was started and its result is not shown yet
        self._results: dict[str, tuple[Tokenization | str, list[str]]] = {}
        self._job = LatestRequest(self)
        self._read_job = LatestRequest(self)  # reading a raw file (an inspection does not cancel it)
        self._pending_highlight: tuple[int, int] = (-1, -1)
        self._text = state.sample_text
        self._raw: bytes | None = None
        self._raw_name = ""

        top = self._build_top()
        self._build_labels()
        self.part_bar = PartBar(self)
        self.part_bar.part_chosen.connect(self.show_part)
        self.byte_view = ByteView()
        self.byte_view.token_double_clicked.connect(state.token_tree_requested.emit)
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.byte_view)
        self._build_tabs()
        self._lay_out(top)

        state.sample_text_changed.connect(self._on_sample_text)
        state.inspect_requested.connect(self._on_inspect_requested)
        state.token_hovered.connect(self._on_token_hovered)
        state.tokenizers_changed.connect(self._on_tokenizers_changed)
        state.special_policy_changed.connect(self._refresh)
        state.raw_bytes_requested.connect(self.open_raw_file)
        self._refresh()

    def _build_top(self) -> QHBoxLayout:
        """The editor and, beside it, the follow toggle and the raw-bytes buttons."""
        self.editor = FaithfulTextEdit(self)
        self.editor.setPlaceholderText("Text to inspect…")
        self.editor.setMaximumHeight(90)
        self.editor.set_text(self._text)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._commit_text)
        self.editor.textChanged.connect(self._on_edited)

        self.follow_check = QCheckBox("Follow compare text", self)
        self.follow_check.setChecked(True)
        self.follow_check.setToolTip(
            "On: the inspector shows the compare pane's text. Typing here turns it off, "
            "so your own text is never replaced."
        )
        self.follow_check.toggled.connect(self._on_follow_toggled)
        self.raw_button = QPushButton("Open raw bytes…", self)
        self.raw_button.setToolTip("Inspect a file's bytes exactly as they are, even if not UTF-8")
        self.raw_button.clicked.connect(self.open_raw_dialog)
        self.back_button = QPushButton("Back to text", self)
        self.back_button.clicked.connect(self.leave_raw)
        self.back_button.hide()
        side = QVBoxLayout()
        side.addWidget(self.follow_check)
        side.addWidget(self.raw_button)
        side.addWidget(self.back_button)
        side.addStretch(1)
        top = QHBoxLayout()
        top.addWidget(self.editor, 1)
        top.addLayout(side)
        return top

    def _build_labels(self) -> None:
        """The raw-bytes banner, the summary line, the notes and the colour legend."""
        self.raw_banner = RawBanner()
        self.summary = QLabel("")
        self.notes_label = QLabel("")
        self.notes_label.setWordWrap(True)
        self.notes_label.hide()
        role = theme.BYTE_ROLE_COLORS
        self.legend = QLabel(
            f"bytes: <span style='background:{role['ascii'].name()}'>&nbsp;ASCII&nbsp;</span> "
            f"<span style='background:{role['lead'].name()}'>&nbsp;lead byte 1/n&nbsp;</span> "
            f"<span style='background:{role['continuation'].name()}'>&nbsp;continuation k/n&nbsp;</span> "
            f"<span style='background:{role['invalid'].name()}'>&nbsp;invalid&nbsp;</span> · "
            f"<span style='color:{theme.CUT_CODE_POINT.name()}'><b>┃</b></span> token cut inside a character · "
            f"<span style='color:{theme.CUT_GRAPHEME.name()}'><b>┃</b></span> cut inside a grapheme cluster · "
            "dashed box = token holds part of a character · dotted box = whole code points, part of a grapheme · "
            "\u2248 approximate spans · hover for details"
        )
        self.legend.setWordWrap(True)

    def _build_tabs(self) -> None:
        self.table = CodePointTable(self)
        self.cuts_tree = CutList(self)
        self.normalizer_view = NormalizerView(self)
        self.hf_view = HFStagesView(self)
        self.decode_box = DecodeBox(lambda: list(self.state.tokenizers), self.text, self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.table, "Code points")
        self.tabs.addTab(self.cuts_tree, "Cuts per tokenizer")
        self.tabs.addTab(self.normalizer_view, "SentencePiece normalizer")
        self.tabs.addTab(self.hf_view, "Hugging Face pipeline")
        self.tabs.addTab(self.decode_box, "Decode ids")

    def _lay_out(self, top: QHBoxLayout) -> None:
        main = QSplitter(Qt.Orientation.Vertical)
        main.addWidget(self.scroll)
        main.addWidget(self.tabs)
        main.setStretchFactor(0, 3)
        main.setStretchFactor(1, 2)
        main.setSizes([440, 300])
        self.splitter = main
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(top)
        for w in (self.raw_banner, SampleNote(self.state, self), self.summary, self.notes_label, self.legend):
            lay.addWidget(w)
        lay.addWidget(self.part_bar)
        lay.addWidget(main, 1)

    # ------------------------------------------------------------------ public API

    def set_text(self, text: str) -> None:
        """Inspect ``text`` (no debounce); :attr:`updated` follows."""
        self.inspect(text, -1, -1)

    def inspect(self, text: str, start: int, end: int) -> None:
        """Inspect ``text`` with bytes [start, end) highlighted (``end <= start``: none)."""
        self._debounce.stop()
        self._read_job.cancel()  # a text asked for now wins over a file still being read
        was_raw = self._raw is not None
        self._set_raw_mode(None, "")
        if len(text) <= PART_CHARS:  # a long text: the editor gets the part shown (see _on_result)
            self._set_editor(text)
        if was_raw or text != self._text or self.analysis is None or self.part_report is None:
            self._set_source(text)
            self._pending_highlight = (start, end)
            self._refresh()
        elif self.part_report.n_parts > 1 and start >= 0:
            self._pending_highlight = (start, end)  # the part holding it is found in the worker
            self._refresh()
        else:
            self._apply_highlight(start, end)

    def show_part(self, index: int) -> None:
        """Show part ``index`` (0-based, clamped) of a long text or a large file; :attr:`updated` follows."""
        n = self.part_report.n_parts if self.part_report is not None else 1
        index = max(0, min(index, n - 1))
        if index != self._part or self._stale:
            self._part = index
            self._pending_highlight = (-1, -1)
            self._refresh()

    def show_last(self) -> None:
        """Show the last part (of a long text or a large file)."""
        self.show_part(self.part_report.n_parts - 1 if self.part_report is not None else 0)

    @property
    def busy(self) -> bool:
        """True while the inspection asked for last has not been shown yet."""
        # not the worker's own state: it is done before its result reaches the GUI thread
        return self._waiting or self._read_job.busy or self._stale

    def set_raw_bytes(self, data: bytes, name: str = "bytes") -> None:
        """Inspect ``data`` exactly as it is (raw-bytes mode); :attr:`updated` follows.

        Invalid UTF-8 is flagged byte by byte; nothing is decoded away. The
        follow toggle is turned off so the compare text does not replace it.
        """
        self._debounce.stop()
        self.follow_check.blockSignals(True)
        self.follow_check.setChecked(False)
        self.follow_check.blockSignals(False)
        self._set_raw_mode(bytes(data), name)
        self._set_source(None)
        self._pending_highlight = (-1, -1)
        self._refresh()

    def open_raw_file(self, path: str) -> None:
        """Read ``path`` unchanged (in a worker) and inspect its bytes; a read error is one status line."""
        from tokexplorer.core.io import read_raw

        name = os.path.basename(str(path))
        self.summary.setText(f"⌛ reading {name}…")
        self._read_job.start(
            lambda cancel: read_raw(path),
            on_result=lambda data: self.set_raw_bytes(data, name),
            on_error=lambda exc: self.state.error.emit(user_message(exc)),
        )

    def open_raw_dialog(self) -> None:
        """Ask for a file and inspect its raw bytes."""
        path = file_dialogs.open_file(self, "Open a file as raw bytes")
        if path:
            self.open_raw_file(path)

    def leave_raw(self) -> None:
        """Leave raw-bytes mode and inspect the compare text again."""
        self.follow_check.setChecked(True)
        self.inspect(self.state.sample_text, -1, -1)

    @property
    def raw(self) -> bytes | None:
        """The raw bytes inspected in raw mode, or None in text mode."""
        return self._raw

    def text(self) -> str:
        """The inspected text (in raw mode: the bytes decoded with U+FFFD for invalid bytes)."""
        if self._raw is not None:
            return self._raw.decode("utf-8", "replace")
        return self._text

    def code_point_rows(self) -> list[CodePointRow]:
        """The code point table's rows: ``(code point, char, name, bytes hex, grapheme index)``."""
        return list(self.table.rows)

    def cut_descriptions(self, tokenizer_name: str) -> list[str]:
        """The cut lines listed for a tokenizer (see :func:`track_lines`).

        Raises:
            KeyError: no tokenizer of that name is shown.
        """
        return list(self._results[tokenizer_name][1])

    def track_error(self, tokenizer_name: str) -> str | None:
        """The one-line error shown in a tokenizer's track, or None."""
        res = self._results[tokenizer_name][0]
        return res if isinstance(res, str) else None

    # ------------------------------------------------------------------ updates

    def _set_source(self, text: str | None) -> None:
        """A new text (None: new raw bytes): its parts are not known yet, the first is shown."""
        self._text = self._text if text is None else text
        self._parts, self._part = (), 0

    def _set_editor(self, text: str) -> None:
        if self.editor.real_text() != text:
            self.editor.blockSignals(True)
            self.editor.set_text(text)
            self.editor.blockSignals(False)

    def _set_raw_mode(self, data: bytes | None, name: str) -> None:
        self._raw = data
        self._raw_name = name
        raw = data is not None
        self.editor.setReadOnly(raw)
        self.back_button.setVisible(raw)
        if not raw:
            self.raw_banner.hide()

    def _on_edited(self) -> None:
        if self._raw is not None:
            return
        if self.follow_check.isChecked() and self.editor.real_text() != self.state.sample_text:
            self.follow_check.blockSignals(True)
            self.follow_check.setChecked(False)  # the user's own text: stop following
            self.follow_check.blockSignals(False)
        self._debounce.start()

    def _on_follow_toggled(self, on: bool) -> None:
        if on:
            self.inspect(self.state.sample_text, -1, -1)

    def _commit_text(self) -> None:
        text = self.editor.real_text()
        if text != self._text and self._raw is None:
            self._set_source(text)
            self._pending_highlight = (-1, -1)
            self._refresh()

    def _on_sample_text(self, text: str) -> None:
        if self.follow_check.isChecked():
            self.set_text(text)

    def _on_inspect_requested(self, text: str, start: int, end: int) -> None:
        # an explicit request (a token clicked in the compare pane) wins over typed text
        self.follow_check.blockSignals(True)
        self.follow_check.setChecked(text == self.state.sample_text or self.follow_check.isChecked())
        self.follow_check.blockSignals(False)
        self.inspect(text, start, end)

    def _on_tokenizers_changed(self) -> None:
        self.decode_box.refresh_tokenizers()
        self._refresh()

    def _on_token_hovered(self, _name: str, start: int, end: int) -> None:
        if self._raw is not None or self._text != self.state.sample_text:
            return
        if start < 0:
            return  # keep the last highlight when the mouse leaves a token
        self._apply_highlight(start, end)

    def _apply_highlight(self, start: int, end: int) -> None:
        self.byte_view.set_highlight(start, end)
        if 0 <= start < end:
            row = self.byte_view.row_of_byte(start)
            y = int(self.byte_view.row_top(row))
            self.scroll.ensureVisible(0, y, 0, 0)
            if self.analysis is not None and start < len(self.analysis.data):
                cp = self.analysis.bytes[start].cp_index
                if cp < self.table.rowCount():
                    self.table.selectRow(cp)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt override
        super().showEvent(event)
        if self._stale:
            self._refresh()

    def _refresh(self) -> None:
        """Inspect the current part in a worker; while hidden, only remember to do it when shown."""
        if not self.isVisible():
            self._job.cancel()
            self._waiting = False
            self._stale = True
            return
        self._stale = False
        source: str | bytes = self._raw if self._raw is not None else self._text
        tokenizers = list(self.state.tokenizers)
        policy = self.state.special_policy
        glyphs = theme.control_pictures()  # read here, in the GUI thread
        where = (self._part, self._parts, self._pending_highlight)
        if len(source) > PART_CHARS:
            self.summary.setText("⌛ analysing…")  # a long input: say that work is under way
        self._waiting = True
        self._job.start(
            lambda cancel: _inspect(source, tokenizers, policy, cancel, where=where, control_pictures=glyphs),
            on_result=self._on_result,
            on_error=self._on_error,
        )

    def _on_error(self, exc: BaseException) -> None:
        self._waiting = False
        self.state.status.emit(f"byte inspector: {user_message(exc)}")

    def _on_result(self, result: tuple[PartReport, list[list[str]]]) -> None:
        (pr, lines), self._waiting = result, False
        self.part_report = pr
        self.report = report = pr.report
        self.analysis = analysis = report.analysis
        self._parts, self._part, self._pending_highlight = pr.parts, pr.part, pr.highlight
        tracks = zip(report.tracks, lines)
        self._results = {tr.name: (tr.tokenization if tr.error is None else tr.error, ln) for tr, ln in tracks}
        self.byte_view.offset_base = pr.byte_start
        self.byte_view.set_data(analysis, tracks_of(report))
        if self._raw is not None or pr.n_parts > 1:  # the editor holds the part shown, not the whole input
            self._set_editor(report.token_text if self._raw is not None else analysis.text)
        self.part_bar.show_part(pr.part, pr.n_parts, part_range(pr))
        n_b, n_cp, n_g = len(analysis.data), len(analysis.code_points), len(analysis.graphemes)
        this = "this part: " if pr.n_parts > 1 else ""
        counts = f"{plural(n_b, 'byte')} · {plural(n_cp, 'code point')} · {plural(n_g, 'grapheme cluster')}"
        self.summary.setText(this + counts)
        if report.raw:
            where = f" (part {pr.part + 1:,}: {part_range(pr)})" if pr.n_parts > 1 else ""
            self.raw_banner.show_bytes(analysis, self._raw_name + where)
        notes = (list(analysis.notes) if not report.raw else []) + list(pr.notes)
        if notes:
            self.notes_label.setText("⚠ " + "; ".join(notes))
            self.notes_label.show()
        else:
            self.notes_label.hide()
        self._apply_highlight(*self._pending_highlight)
        # the tables below the bytes in two later turns (1 ms timers; a zero one ran in this turn):
        # with the bytes they kept the window busy 90-110 ms on a part of a large raw file
        QTimer.singleShot(1, self, lambda: self._show_details(report, lines))

    def _show_details(self, report: InspectReport, lines: list[list[str]], *, step: int = 0) -> None:
        if report is not self.report:  # a later result is shown already
            return
        if step == 0:  # the code-point table and the cuts now, the normalizer views next
            self.table.show_analysis(report.analysis)
            self.cuts_tree.show_report(report, lines)
            return QTimer.singleShot(1, self, lambda: self._show_details(report, lines, step=1))
        changed = self.normalizer_view.show_report(report)
        text = "SentencePiece normalizer" + (" \u26a0 text changed" if changed else "")
        self.tabs.setTabText(self.tabs.indexOf(self.normalizer_view), text)
        self.hf_view.show_report(report)
        self.updated.emit()
