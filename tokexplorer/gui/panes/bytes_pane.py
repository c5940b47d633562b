"""The byte inspector: how a text is laid out in UTF-8 and where tokens cut it.

The text follows the compare pane's sample text while "Follow compare text" is
on; typing your own text turns it off, so it is never replaced. A token clicked
in the compare pane (``AppState.inspect_requested``) brings its text here with
the token's byte range highlighted. "Open raw bytes…" shows a file's bytes
exactly as stored (raw-bytes mode: invalid UTF-8 flagged with offsets, nothing
decoded away).

The pane shows a :class:`ByteView` (bytes, code points, grapheme clusters and
one token track per tokenizer on one byte axis) and four tabs: the code points,
the cuts per tokenizer (tokens holding part of a character, ``"E4 BD = bytes 1–2
of 3 of U+4F60 你"``, boundaries inside a grapheme cluster, ``<unk>`` pieces, runs
of byte-fallback pieces), the SentencePiece normalizer (original beside
normalized text, changed spans highlighted) and a decode box for token ids.

Analysis and tokenization (:mod:`tokexplorer.core.analysis.inspector`) run in one
:class:`~tokexplorer.gui.workers.Worker` per change (latest wins); a tokenizer's
error is shown as one line in its track.
"""

from __future__ import annotations

import html
import os
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import (
    InspectReport,
    TrackReport,
    describe_tokens,
    inspect_bytes,
    inspect_text,
)
from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.errors import TokexplorerError
from tokexplorer.core.text import Cut, token_display, utf8
from tokexplorer.core.types import SpecialPolicy, Tokenization
from tokexplorer.gui import theme
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.byte_view import ByteView, TokenTrack, visible_char
from tokexplorer.gui.widgets.decode_box import DecodeBox
from tokexplorer.gui.workers import Worker, user_message

DEBOUNCE_MS = 250
"""Delay between the last keystroke and re-analysing, in milliseconds."""

MAX_TABLE_ROWS = 5_000
"""At most this many code points are listed in the table."""

CodePointRow = tuple[str, str, str, str, int]


def code_point_row(cp: utf8.CodePointInfo, data: bytes) -> CodePointRow:
    """One table row: ``("U+1F600", "😀", "GRINNING FACE", "F0 9F 98 80", 0)``
    (code point, the character, its name, its UTF-8 bytes in hex, grapheme index)."""
    return (
        f"U+{cp.value:04X}",
        cp.char,
        cp.name,
        data[cp.byte_start : cp.byte_end].hex(" ").upper(),
        cp.grapheme_index,
    )


def _grapheme_cut_line(cut: Cut, analysis: utf8.Utf8Analysis) -> str:
    g = analysis.graphemes[cut.index]
    left = analysis.code_point_at(cut.byte_offset - 1)
    right = analysis.code_point_at(cut.byte_offset)
    return (
        f"cut at byte {cut.byte_offset} inside grapheme {g.index} ({g.text}) "
        f"between U+{left.value:04X} and U+{right.value:04X}"
    )


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
        elif rep.description.count("U+FFFD stands for"):
            lines.append(f"{t.bytes.hex(' ').upper()} = {rep.description}")
        # a run of SentencePiece byte-fallback pieces: say what they spell together
        j = i
        while j < len(reports) and reports[j].spelling.startswith("<0x") and reports[j].spelling.endswith(">"):
            j += 1
        if j - i >= 2 and track.exact:
            run = reports[i:j]
            data = b"".join(r.token.bytes for r in run)
            try:
                whole = describe_tokens(track, analysis, i, j - 1, control_pictures=control_pictures)
            except TokexplorerError:
                whole = token_display(data, control_pictures=control_pictures)
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
            i = j
            continue
        i += 1
    return lines


def _inspect(
    source: str | bytes,
    tokenizers: Sequence[Tokenizer],
    policy: SpecialPolicy,
    cancel: Callable[[], bool],
    *,
    control_pictures: bool,
) -> tuple[InspectReport, list[list[str]]]:
    """Worker body: the report of ``source`` (text, or raw bytes) and each track's cut lines."""
    if isinstance(source, bytes):
        report = inspect_bytes(source, tokenizers, policy=policy, cancel=cancel, control_pictures=control_pictures)
    else:
        report = inspect_text(source, tokenizers, policy=policy, cancel=cancel, control_pictures=control_pictures)
    lines = [track_lines(tr, report.analysis, control_pictures=control_pictures) for tr in report.tracks]
    return report, lines


def _vis(s: str) -> str:
    """Whitespace and controls made visible inside a highlighted change."""
    out = []
    for ch in s:
        if ch == " ":
            out.append("\u2423")
        elif ch == "\n":
            out.append("\u21b5")
        elif ch == "\t":
            out.append("\u2192")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"<U+{ord(ch):04X}>")
        else:
            out.append(ch)
    return "".join(out)


def normalization_html(track: TrackReport) -> str:
    """HTML for one SentencePiece track: original and normalized text with changed
    spans highlighted, the pieces on the normalized text and the ``<unk>`` list."""
    d = track.normalization
    esc = html.escape
    parts = [f"<h3>{esc(track.name)} <small>({esc(track.description)})</small></h3>"]
    if d is None:
        return ""
    if not d.changed:
        parts.append("<p>\u2713 the normalizer leaves this text unchanged: "
                     "<code>decode(encode(s)) == s</code> unless pieces are unknown.</p>")
    else:
        parts.append(f"<p><b>\u2717 decode(encode(s)) \u2260 s</b> \u2014 {esc(d.summary)}</p>")
        orig_html, norm_html = [], []
        for seg in d.segments:
            if seg.kind == "same":
                orig_html.append(esc(seg.original))
                norm_html.append(esc(seg.normalized))
            elif seg.kind == "removed":
                orig_html.append(
                    f'<span style="background:#f6c6c6;text-decoration:line-through" '
                    f'title="removed">{esc(_vis(seg.original))}</span>'
                )
            else:
                orig_html.append(f'<span style="background:#fde68a">{esc(_vis(seg.original))}</span>')
                norm_html.append(f'<span style="background:#bbf7d0">{esc(_vis(seg.normalized))}</span>')
        parts.append(
            '<table cellspacing="4"><tr><td><b>original</b></td><td style="font-family:monospace">'
            + "".join(orig_html).replace("\n", "\u21b5")
            + '</td></tr><tr><td><b>normalized</b></td><td style="font-family:monospace">'
            + "".join(norm_html).replace("\n", "\u21b5")
            + "</td></tr></table>"
        )
        changes = [
            f"<li>chars {s.orig_start}\u2013{s.orig_end}: \u201c{esc(_vis(s.original))}\u201d \u2192 "
            f"\u201c{esc(_vis(s.normalized))}\u201d ({esc(s.reason)})</li>"
            for s in d.changes[:50]
        ]
        parts.append("<ul>" + "".join(changes) + "</ul>")
        if not d.exact:
            parts.append("<p><i>alignment rebuilt by a text diff (no offsets from SentencePiece)</i></p>")
    nt = track.normalized_tokens
    if nt is not None:
        pieces = " ".join(
            f'<span style="background:#e0e7ff">{esc(t.piece or "")}</span>' for t in nt.tokens[:400]
        )
        parts.append(f"<p><b>pieces on the normalized text</b> ({len(nt.tokens)}): {pieces}</p>")
    if track.unknown:
        unk = ", ".join(f"token {i}: \u201c{esc(_vis(s))}\u201d" for i, s in track.unknown[:50])
        parts.append(f"<p><b>&lt;unk&gt; pieces</b> (decoded as \u2047): {unk}</p>")
    return "".join(parts)


class BytesPane(QWidget):
    """The UTF-8 byte inspector.

    Args:
        state: the shared :class:`AppState`.
        parent: optional parent widget.

    Signals:
        updated(): the view, tables and lists show the current text.

    Attributes:
        editor: QPlainTextEdit with the inspected text (read-only in raw mode).
        follow_check: "Follow compare text" toggle; typing your own text turns it off.
        raw_banner: QLabel describing the raw bytes shown (hidden in text mode).
        byte_view: the :class:`ByteView` (inside :attr:`scroll`).
        tabs: QTabWidget with the code point table, the cut list, the normalizer
            view and the decode box.
        table: QTableWidget of code points (#, code point, char, name, bytes, grapheme).
        cuts_tree: QTreeWidget: one item per tokenizer, its cut lines as children.
        normalizer_view: QTextBrowser: SentencePiece original vs normalized text.
        decode_box: :class:`~tokexplorer.gui.widgets.decode_box.DecodeBox`.
        analysis: the ``Utf8Analysis`` of the text shown, or None before the first update.
        report: the :class:`~tokexplorer.core.analysis.inspector.InspectReport` shown, or None.
    """

    updated = Signal()

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.analysis: utf8.Utf8Analysis | None = None
        self.report: InspectReport | None = None
        self._results: dict[str, tuple[Tokenization | str, list[str]]] = {}
        self._rows: list[CodePointRow] = []
        self._gen = 0
        self._worker: Worker | None = None
        self._pending_highlight: tuple[int, int] = (-1, -1)
        self._text = state.sample_text
        self._raw: bytes | None = None
        self._raw_name = ""

        self.editor = QPlainTextEdit(self)
        self.editor.setPlaceholderText("Text to inspect…")
        self.editor.setMaximumHeight(90)
        self.editor.setPlainText(self._text)
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

        self.raw_banner = QLabel("")
        self.raw_banner.setWordWrap(True)
        self.raw_banner.setStyleSheet("background:#fff4d6; border:1px solid #e0b84c; padding:3px;")
        self.raw_banner.hide()
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
            "dashed box = token holds part of a character · \u2248 approximate spans · hover for details"
        )
        self.legend.setWordWrap(True)

        self.byte_view = ByteView()

        self.byte_view.token_double_clicked.connect(state.token_tree_requested.emit)
        self.scroll = QScrollArea(self)
        self.scroll.setWidgetResizable(True)
        self.scroll.setWidget(self.byte_view)

        self.table = QTableWidget(0, 6, self)
        self.table.setHorizontalHeaderLabels(["#", "code point", "char", "name", "UTF-8 bytes", "grapheme"])
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)

        self.cuts_tree = QTreeWidget(self)
        self.cuts_tree.setHeaderLabels(["cuts per tokenizer"])

        self.normalizer_view = QTextBrowser(self)
        self.decode_box = DecodeBox(lambda: list(self.state.tokenizers), self.text, self)

        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.table, "Code points")
        self.tabs.addTab(self.cuts_tree, "Cuts per tokenizer")
        self.tabs.addTab(self.normalizer_view, "SentencePiece normalizer")
        self.tabs.addTab(self.decode_box, "Decode ids")

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
        lay.addWidget(self.raw_banner)
        lay.addWidget(self.summary)
        lay.addWidget(self.notes_label)
        lay.addWidget(self.legend)
        lay.addWidget(main, 1)

        state.sample_text_changed.connect(self._on_sample_text)
        state.inspect_requested.connect(self._on_inspect_requested)
        state.token_hovered.connect(self._on_token_hovered)
        state.tokenizers_changed.connect(self._on_tokenizers_changed)
        state.special_policy_changed.connect(self._refresh)
        if hasattr(state, "raw_bytes_requested"):
            state.raw_bytes_requested.connect(self.open_raw_file)
        self._refresh()

    # ------------------------------------------------------------------ public API

    def set_text(self, text: str) -> None:
        """Inspect ``text`` (no debounce); :attr:`updated` follows."""
        self.inspect(text, -1, -1)

    def inspect(self, text: str, start: int, end: int) -> None:
        """Inspect ``text`` with bytes [start, end) highlighted (``end <= start``: none)."""
        self._debounce.stop()
        was_raw = self._raw is not None
        self._set_raw_mode(None, "")
        self._set_editor(text)
        if was_raw or text != self._text or self.analysis is None:
            self._text = text
            self._pending_highlight = (start, end)
            self._refresh()
        else:
            self._apply_highlight(start, end)

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
        self._set_editor(bytes(data).decode("utf-8", "replace"))
        self._pending_highlight = (-1, -1)
        self._refresh()

    def open_raw_file(self, path: str) -> None:
        """Read ``path`` unchanged and inspect its bytes; a read error is one status line."""
        from tokexplorer.core.io import read_raw

        try:
            data = read_raw(path)
        except TokexplorerError as exc:
            self.state.error.emit(str(exc))
            return
        self.set_raw_bytes(data, os.path.basename(str(path)))

    def open_raw_dialog(self) -> None:
        """Ask for a file and inspect its raw bytes."""
        path, _ = QFileDialog.getOpenFileName(self, "Open a file as raw bytes")
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
        return list(self._rows)

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

    def _set_editor(self, text: str) -> None:
        if self.editor.toPlainText() != text:
            self.editor.blockSignals(True)
            self.editor.setPlainText(text)
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
        if self.follow_check.isChecked() and self.editor.toPlainText() != self.state.sample_text:
            self.follow_check.blockSignals(True)
            self.follow_check.setChecked(False)  # the user's own text: stop following
            self.follow_check.blockSignals(False)
        self._debounce.start()

    def _on_follow_toggled(self, on: bool) -> None:
        if on:
            self.inspect(self.state.sample_text, -1, -1)

    def _commit_text(self) -> None:
        text = self.editor.toPlainText()
        if text != self._text and self._raw is None:
            self._text = text
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

    def _refresh(self) -> None:
        self._gen += 1
        gen = self._gen
        if self._worker is not None:
            self._worker.cancel()
        source: str | bytes = self._raw if self._raw is not None else self._text
        tokenizers = list(self.state.tokenizers)
        policy = self.state.special_policy
        glyphs = theme.control_pictures()  # read here, in the GUI thread
        worker = Worker(lambda cancel: (gen, _inspect(source, tokenizers, policy, cancel, control_pictures=glyphs)))
        worker.signals.returned.connect(self._on_result)
        worker.signals.errored.connect(self._on_error)
        self._worker = worker
        worker.start()

    def _on_error(self, exc: BaseException) -> None:
        self.state.status.emit(f"byte inspector: {user_message(exc)}")

    def _on_result(self, result: Any) -> None:
        gen, (report, lines) = result
        if gen != self._gen:
            return  # stale
        analysis = report.analysis
        self.report = report
        self.analysis = analysis
        self._results = {
            tr.name: (tr.tokenization if tr.error is None else tr.error, ln)
            for tr, ln in zip(report.tracks, lines)
        }
        tracks = [
            TokenTrack(
                tr.name,
                tr.tokenization if tr.error is None else None,
                tr.error,
                tuple((c.byte_offset, c.kind) for c in tr.cuts),
                tr.exact,
                tuple(t.description for t in tr.tokens),
                tuple(t.spelling for t in tr.tokens),
            )
            for tr in report.tracks
        ]
        self.byte_view.set_data(analysis, tracks)
        self._fill_table(analysis)
        self._fill_cuts(report, lines)
        self._fill_normalizer(report)
        n_b, n_cp, n_g = len(analysis.data), len(analysis.code_points), len(analysis.graphemes)
        self.summary.setText(
            f"{n_b:,} bytes · {n_cp:,} code points · {n_g:,} grapheme clusters"
        )
        if report.raw:
            self._fill_raw_banner(report)
        notes = list(analysis.notes) if not report.raw else []
        if notes:
            self.notes_label.setText("⚠ " + "; ".join(notes))
            self.notes_label.show()
        else:
            self.notes_label.hide()
        self._apply_highlight(*self._pending_highlight)
        self.updated.emit()

    def _fill_raw_banner(self, report: InspectReport) -> None:
        a = report.analysis
        head = f"<b>Raw bytes of {html.escape(self._raw_name)}</b> ({len(a.data):,} bytes, shown exactly as stored). "
        if a.valid:
            body = "They are valid UTF-8."
        else:
            n_bad = sum(i.length for i in a.issues)
            first = a.issues[:3]
            listed = "; ".join(f"byte {i.offset}: {html.escape(i.reason)}" for i in first)
            more = f"; … {len(a.issues) - 3} more" if len(a.issues) > 3 else ""
            body = (
                f"<span style='color:#b00020'><b>Not valid UTF-8</b></span>: {n_bad:,} invalid "
                f"byte{'s' if n_bad != 1 else ''} (red) in {len(a.issues):,} place"
                f"{'s' if len(a.issues) != 1 else ''} — {listed}{more}. "
                "Tokenizers would see each invalid byte as U+FFFD (EF BF BD)."
            )
            hint = self._encoding_hint()
            if hint:
                body += " " + hint
        self.raw_banner.setText(head + body)
        self.raw_banner.show()

    #: Codecs tried for the "it could read as" hint of a file that is not UTF-8.
    HINT_CODECS: tuple[tuple[str, str], ...] = (
        ("gbk", "GBK"), ("big5", "Big5"), ("shift_jis", "Shift-JIS"), ("utf-16", "UTF-16"),
        ("cp1252", "Windows-1252"),
    )

    def _encoding_hint(self) -> str:
        """How the raw bytes would read in a few other encodings (strict decodes only).

        No guess is presented as the answer: short files decode "successfully" in
        several codecs, so up to three readings are listed for the user to judge.
        """
        if self._raw is None:
            return ""
        readings = []
        for codec, label in self.HINT_CODECS:
            try:
                text = self._raw[:400].decode(codec)
            except (UnicodeDecodeError, LookupError):
                continue
            if any(unicodedata.category(c) in ("Cc", "Co", "Cn") and c not in "\t\n\r" for c in text):
                continue
            sample = text[:30].replace("\n", " ")
            readings.append(f"{label} \u201c{html.escape(sample)}\u201d")
            if len(readings) == 3:
                break
        if not readings:
            return ""
        return (
            "<br>In another encoding it could read as: " + " · ".join(readings)
            + " — to decode it, open it with File \u203a Open files… and choose the encoding."
        )

    def _fill_table(self, analysis: utf8.Utf8Analysis) -> None:
        cps = analysis.code_points[:MAX_TABLE_ROWS]
        self._rows = [code_point_row(cp, analysis.data) for cp in cps]
        font = self.table.font()
        self.table.setUpdatesEnabled(False)
        try:
            self.table.clearContents()
            self.table.setRowCount(len(self._rows))
            for r, (cp, row) in enumerate(zip(cps, self._rows)):
                if cp.invalid:
                    shown = "\u2717"
                elif cp.char.isprintable() and not cp.char.isspace():
                    shown = row[1]
                else:
                    shown = visible_char(cp.char, font)
                cells = (str(cp.index), row[0] if not cp.invalid else "invalid", shown, row[2], row[3], str(row[4]))
                for c, value in enumerate(cells):
                    item = QTableWidgetItem(value)
                    if c == 3:
                        item.setToolTip(cp.label)
                    self.table.setItem(r, c, item)
        finally:
            self.table.setUpdatesEnabled(True)

    def _fill_cuts(self, report: InspectReport, lines: list[list[str]]) -> None:
        self.cuts_tree.clear()
        for tr, tr_lines in zip(report.tracks, lines):
            if tr.error is not None:
                top = QTreeWidgetItem([f"{tr.name}: ⚠ {tr.error}"])
            else:
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
            self.cuts_tree.addTopLevelItem(top)
            top.setExpanded(True)

    def _fill_normalizer(self, report: InspectReport) -> None:
        sp = [tr for tr in report.tracks if tr.normalization is not None]
        idx = self.tabs.indexOf(self.normalizer_view)
        if not sp:
            self.normalizer_view.setHtml(
                "<p>No SentencePiece tokenizer is loaded. Byte-level BPE and tiktoken do not "
                "normalize: they see the text exactly.</p>"
            )
            self.tabs.setTabText(idx, "SentencePiece normalizer")
            return
        changed = any(tr.normalization.changed for tr in sp)
        self.normalizer_view.setHtml("".join(normalization_html(tr) for tr in sp))
        self.tabs.setTabText(idx, "SentencePiece normalizer" + (" \u26a0 text changed" if changed else ""))
