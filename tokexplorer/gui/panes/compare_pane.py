"""The compare pane: one sample text, one column of tokens per tokenizer.

The sample text is edited at the top (kept in sync with ``AppState.sample_text``;
edits are debounced); the columns get most of the height (a vertical splitter).
Every tokenizer in ``AppState.tokenizers`` gets a column: its description
(encoding, pre-tokenizer or normalizer, vocabulary size), a remove button, the
token count and characters per token, notes as a warning badge (special token
text encoded as plain text, surrogates replaced, text changed by a normalizer),
then a :class:`~tokexplorer.gui.widgets.token_view.TokenView`. Columns are
added with the "Add column" menu: tiktoken encodings (unavailable ones listed
with the reason), a ``.tiktoken`` file, a tiktoken cache folder, a BPE model, a
SentencePiece ``.model``, or a SentencePiece model trained on the corpus.

The columns are tokenized one after the other by one
:class:`~tokexplorer.gui.workers.Worker`, each result delivered as soon as it is
ready; a newer request cancels the older one and stale results are dropped, so
the latest text always wins and the window never waits for a tokenizer. Results
are shown one column per event-loop turn.

Texts longer than :data:`WINDOW_CHARS` characters are shown one *part* at a
time (parts are cut where no tokenizer joins across, see
:func:`tokexplorer.core.analysis.stats.text_blocks`); the count line always gives the
exact total of the whole text (:func:`tokexplorer.core.analysis.stats.count_tokens`, the
same count the statistics use).

Reading aids: whitespace glyphs, token ids instead of text, diff marks (a bar
over every token whose byte range is not a token of some other column),
synchronized scrolling, and hover and click selection mirrored in every column
by byte offset.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.analysis import count_tokens, text_blocks
from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.errors import Cancelled, TokexplorerError
from tokexplorer.core.types import Progress, SpecialPolicy, Tokenization
from tokexplorer.gui import theme
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.token_view import TokenView
from tokexplorer.gui.workers import Worker, guarded, user_message

DEBOUNCE_MS = 250
"""Delay between the last keystroke and re-tokenizing, in milliseconds."""

WINDOW_CHARS = 2000
"""Texts longer than this (characters) are shown one part of about this size at a time."""

POLICY_CHOICES: tuple[tuple[str, SpecialPolicy], ...] = (
    ("Plain text + warning", "plain"),
    ("Special tokens", "special"),
    ("Raise error", "raise"),
)
"""Labels of the special-token policy combo and the policy each one selects."""

DEFAULT_TIKTOKEN = "cl100k_base"

_GUI_FREE = threading.Event()
"""Cleared while the GUI thread lays out a column; counting workers wait for it."""
_GUI_FREE.set()


def count_text(n_tokens: int, n_chars: int) -> str:
    """The column's count line: ``"6 tokens · 1.50 chars/token"``.

    Args:
        n_tokens: number of tokens.
        n_chars: number of characters (code points) of the tokenized text.

    >>> count_text(6, 9)
    '6 tokens · 1.50 chars/token'
    >>> count_text(0, 0)
    '0 tokens'
    """
    word = "token" if n_tokens == 1 else "tokens"
    if n_tokens == 0:
        return f"0 {word}"
    return f"{n_tokens:,} {word} · {n_chars / n_tokens:.2f} chars/token"


def _one_line(exc: BaseException) -> str:
    if isinstance(exc, TokexplorerError):
        return str(exc)
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


def tokenize_all(
    tokenizers: Sequence[Tokenizer],
    text: str,
    policy: SpecialPolicy,
    cancel: Callable[[], bool] = lambda: False,
) -> list[Tokenization | str]:
    """Tokenize ``text`` with each tokenizer; an error becomes its one-line message.

    Raises:
        Cancelled: ``cancel()`` turned True between two tokenizers.
    """
    out: list[Tokenization | str] = []
    for tok in tokenizers:
        if cancel():
            raise Cancelled("cancelled")
        try:
            out.append(tok.tokenize(text, special=policy))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - a column shows it, the app goes on
            out.append(_one_line(exc))
    return out


@dataclass(frozen=True, slots=True)
class ColumnResult:
    """What one column's worker returns.

    Attributes:
        tokenization: the tokens of the shown part, or the one-line error.
        total_tokens: exact token count of the whole text (None on error).
        n_chars: characters of the whole text.
        part: index of the shown part; n_parts: number of parts.
        part_start: character offset of the shown part in the whole text.
    """

    tokenization: Tokenization | str
    total_tokens: int | None
    n_chars: int
    part: int = 0
    n_parts: int = 1
    part_start: int = 0


def tokenize_column(
    tokenizer: Tokenizer,
    text: str,
    policy: SpecialPolicy,
    part: int,
    cancel: Callable[[], bool] = lambda: False,
) -> ColumnResult:
    """Tokenize part ``part`` of ``text`` for display and count the whole text.

    Runs on a worker thread; a tokenizer's failure becomes the result's message.

    Raises:
        Cancelled: ``cancel()`` turned True.
    """
    parts = text_blocks(text, block_chars=WINDOW_CHARS)
    part = max(0, min(part, len(parts) - 1))
    a, b = parts[part]
    try:
        tz = tokenizer.tokenize_cancellable(text[a:b], special=policy, cancel=cancel)
        if len(parts) == 1:
            total = len(tz.tokens)
        else:

            def polite_cancel() -> bool:
                # between blocks: wait while the GUI thread lays out a column, so
                # the two do not fight over the GIL (and a 2-core CPU)
                _GUI_FREE.wait(0.5)
                time.sleep(0)
                return cancel()

            total = count_tokens(tokenizer, text, special=policy, cancel=polite_cancel)
    except Cancelled:
        raise
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - shown in the column
        return ColumnResult(_one_line(exc), None, len(text), part, len(parts), a)
    return ColumnResult(tz, total, len(text), part, len(parts), a)


@dataclass(frozen=True, slots=True)
class _ColumnDone(Progress):
    """Progress report that carries one column's ``(generation, index, ColumnResult)``."""

    result: Any = None


def load_tiktoken(name: str) -> Tokenizer:
    """Load tiktoken encoding ``name``; a name with a bundled ``_offline`` twin
    falls back to it when the download is impossible.

    Raises:
        TokexplorerError: the encoding cannot be loaded here (one-line reason).
    """
    from tokexplorer.core.backends import TiktokenTokenizer
    from tokexplorer.core.errors import BackendUnavailableError

    try:
        return TiktokenTokenizer(name)
    except BackendUnavailableError:
        offline = f"{name}_offline"
        if offline in tiktoken_names():
            return TiktokenTokenizer(offline)
        raise


def tiktoken_names() -> list[str]:
    """``tiktoken.list_encoding_names()``, or [] when tiktoken is missing or broken."""
    try:
        import tiktoken

        return list(tiktoken.list_encoding_names())
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException:  # noqa: BLE001 - a broken plugin must not break the pane
        return []


def diff_marks(spans: Sequence[Sequence[tuple[int, int]] | None]) -> list[list[bool]]:
    """Per column, per token: True where the token's byte range is not a token
    of at least one other column (columns given as None are skipped).

    Empty tokens (SentencePiece's dummy-prefix ``▁``) are never marked.

    >>> diff_marks([[(0, 1), (1, 2)], [(0, 2)]])
    [[True, True], [True]]
    >>> diff_marks([[(0, 2)], [(0, 2)], None])
    [[False], [False], []]
    """
    sets = [set(s) if s is not None else None for s in spans]
    out: list[list[bool]] = []
    for i, s in enumerate(spans):
        if s is None:
            out.append([])
            continue
        others = [o for j, o in enumerate(sets) if j != i and o is not None]
        out.append([b < e and any((b, e) not in o for o in others) for b, e in s])
    return out


class TokenColumn(QWidget):
    """One tokenizer's column: header, count line, notes badge, error line, tokens.

    Args:
        tokenizer: the tokenizer shown (None for a column that only reports an error).
        parent: optional parent widget.

    Signals:
        remove_requested(): the column's ✕ button was clicked.

    Attributes:
        tokenizer, name: the tokenizer and its name (``AppState.token_hovered``).
        tokenization: the last result (of the shown part), or None.
        total_tokens: exact count of the whole text, or None.
        error: the last one-line error, or None.
        header, count_label, notes_label, error_label, part_label: QLabels.
        remove_button: QToolButton ✕.
        view: the :class:`TokenView`.
    """

    remove_requested = Signal()

    def __init__(
        self, tokenizer: Tokenizer | None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.tokenizer = tokenizer
        self.name = tokenizer.name if tokenizer is not None else ""
        self.part_start = 0  # character offset of the shown part in the sample text
        self._notes_text = ""
        self.tokenization: Tokenization | None = None
        self.total_tokens: int | None = None
        self.error: str | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(2)
        self.header = QLabel(tokenizer.description if tokenizer is not None else "")
        self.header.setWordWrap(True)
        self.header.setToolTip(self.header.text())
        font = self.header.font()
        font.setBold(True)
        self.header.setFont(font)
        # two lines reserved in every column, so the token areas line up
        self.header.setMinimumHeight(2 * QFontMetrics(font).lineSpacing())
        self.header.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.remove_button = QToolButton(self)
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip("Remove this column")
        self.remove_button.clicked.connect(self.remove_requested.emit)
        self.remove_button.setVisible(tokenizer is not None)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.header, 1)
        head.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignTop)
        self.count_label = QLabel("")
        self.part_label = QLabel("")
        self.part_label.setStyleSheet("QLabel { color: palette(placeholder-text); }")
        self.part_label.hide()
        self.notes_label = QLabel("")
        self.notes_label.setStyleSheet(
            f"QLabel {{ background: {theme.WARNING_BG.name()}; color: {theme.WARNING_TEXT.name()};"
            " border-radius: 3px; padding: 1px 4px; }"
        )
        # the badge takes the column's width, never sets it (its text is elided to fit)
        self.notes_label.setSizePolicy(
            QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred
        )
        self.notes_label.hide()
        self.error_label = QLabel("")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(
            f"QLabel {{ color: {theme.ERROR_TEXT.name()}; }}"
        )
        self.error_label.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
        )
        self.error_label.hide()
        self.view = TokenView(self)
        lay.addLayout(head)
        for w in (
            self.count_label,
            self.part_label,
            self.notes_label,
            self.error_label,
        ):
            lay.addWidget(w)
        lay.addWidget(self.view, 1)

    def _elide_notes(self) -> None:
        fm = self.notes_label.fontMetrics()
        width = max(60, self.width() - 20)
        self.notes_label.setText(
            fm.elidedText(self._notes_text, Qt.TextElideMode.ElideRight, width)
        )

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        if self._notes_text:
            self._elide_notes()

    def show_result(self, result: Tokenization | str | ColumnResult) -> None:
        """Show a result, a tokenization, or a one-line error in place of the tokens."""
        if isinstance(result, ColumnResult):
            part = result
            result = part.tokenization
        else:
            n = len(result.tokens) if isinstance(result, Tokenization) else None
            part = ColumnResult(result, n, len(result.text) if n is not None else 0)
        self.part_start = part.part_start
        if isinstance(result, str):
            self.tokenization = None
            self.total_tokens = None
            self.error = result
            self.count_label.setText("—")
            self.notes_label.hide()
            self.part_label.hide()
            self.error_label.setText("⚠ " + result)
            self.error_label.show()
            self.view.set_tokenization(None)
            self.view.set_message("")
            return
        self.tokenization = result
        self.total_tokens = part.total_tokens
        self.error = None
        self.error_label.hide()
        self.count_label.setText(count_text(part.total_tokens or 0, part.n_chars))
        if part.n_parts > 1:
            end = part.part_start + len(result.text)
            self.part_label.setText(
                f"part {part.part + 1:,} of {part.n_parts:,}: characters {part.part_start:,}–{end:,} "
                f"({len(result.tokens):,} tokens shown)"
            )
            self.part_label.show()
        else:
            self.part_label.hide()
        notes = list(result.notes)
        if result.normalized is not None and not any("normaliz" in n for n in notes):
            notes.append("normalizer changed the text")
        if notes:
            # one line, elided: the badge never takes the tokens' room; all notes in the tooltip
            self._notes_text = "⚠ " + "; ".join(notes)
            self._elide_notes()
            self.notes_label.setToolTip("\n".join(notes))
            self.notes_label.show()
        else:
            self.notes_label.hide()
        self.view.set_message("")
        self.view.set_tokenization(result)


class ComparePane(QWidget):
    """Side-by-side tokenizations of the sample text.

    Args:
        state: the shared :class:`AppState`.
        parent: optional parent widget.
        tiktoken_loader: ``name -> Tokenizer`` used by the tiktoken encoding combo
            and the Add column menu (runs on a worker thread; default
            :func:`load_tiktoken`).

    Signals:
        tokenized(): every column shows the result for the current text and policy.

    Attributes:
        editor: the QPlainTextEdit holding the sample text.
        policy_combo: the special-token policy QComboBox.
        tiktoken_combo: the tiktoken encoding QComboBox (replaces the tiktoken column).
        add_button: QToolButton "Add column" with its menu.
        whitespace_box, ids_box, diff_box, sync_box: the reading-aid QCheckBoxes.
        prev_button, next_button: show the previous/next part of a long text.
        columns: the :class:`TokenColumn` widgets, in ``state.tokenizers`` order.
        part: index of the part of a long text being shown.
    """

    tokenized = Signal()

    def __init__(
        self,
        state: AppState,
        parent: QWidget | None = None,
        *,
        tiktoken_loader: Callable[[str], Tokenizer] | None = None,
    ) -> None:
        super().__init__(parent)
        self.state = state
        self._tiktoken_loader = tiktoken_loader or load_tiktoken
        self.columns: list[TokenColumn] = []
        self.part = 0
        self._n_parts = 1
        self._gen = 0
        self._workers: list[Worker] = []
        self._pending: dict[int, ColumnResult] = {}
        self._expected = 0
        self._shown = 0
        self._load_worker: Worker | None = None
        self._load_gen = 0
        self._tiktoken_error: str | None = None
        self._error_column: TokenColumn | None = None
        self._tiktoken_status: list[tuple[str, str | None]] | None = None
        self._syncing = False
        self._pinned: tuple[int, int] | None = None
        self._flush = QTimer(self)
        self._flush.setSingleShot(True)
        self._flush.setInterval(0)
        self._flush.timeout.connect(self._show_next_result)

        self.editor = QPlainTextEdit(self)
        self.editor.setPlaceholderText("Type or paste a sample text…")
        self.editor.setPlainText(state.sample_text)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(DEBOUNCE_MS)
        self._debounce.timeout.connect(self._commit_text)
        self.editor.textChanged.connect(self._debounce.start)

        self.policy_combo = QComboBox(self)
        for label, policy in POLICY_CHOICES:
            self.policy_combo.addItem(label, policy)
        self.policy_combo.setToolTip(
            "What to do with text that spells a special token such as <|endoftext|>; "
            "the same choice is used by the statistics and the exports"
        )
        self._sync_policy(state.special_policy)
        self.policy_combo.currentIndexChanged.connect(self._on_policy_combo)

        self.tiktoken_combo = QComboBox(self)
        for name in tiktoken_names():
            self.tiktoken_combo.addItem(name)
        self.tiktoken_combo.setToolTip("tiktoken encoding of the first tiktoken column")
        self._sync_tiktoken_combo()
        self.tiktoken_combo.activated.connect(self._on_tiktoken_chosen)

        self.add_button = QToolButton(self)
        # The style's menu arrow overlaps the text of a QToolButton; draw our own.
        self.add_button.setText("Add column ▾")
        self.add_button.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")
        self.add_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.add_menu = QMenu(self)
        self.add_menu.aboutToShow.connect(self._fill_add_menu)
        self.add_button.setMenu(self.add_menu)

        self.whitespace_box = QCheckBox("Whitespace (␣ → ↵)", self)
        self.whitespace_box.toggled.connect(self._on_whitespace)
        self.ids_box = QCheckBox("Ids", self)
        self.ids_box.setToolTip("Show each token's id instead of its text")
        self.ids_box.toggled.connect(self._on_ids)
        self.diff_box = QCheckBox("Mark differences", self)
        self.diff_box.setToolTip(
            "Purple bar over a token whose byte range is not a token in some other column"
        )
        self.diff_box.toggled.connect(lambda _on: self._update_diff_marks())
        self.sync_box = QCheckBox("Sync scrolling", self)
        self.sync_box.setChecked(True)

        self.prev_button = QPushButton("◀ Part", self)
        self.next_button = QPushButton("Part ▶", self)
        self.prev_button.clicked.connect(lambda: self.show_part(self.part - 1))
        self.next_button.clicked.connect(lambda: self.show_part(self.part + 1))
        for b in (self.prev_button, self.next_button):
            b.hide()

        controls = QHBoxLayout()
        controls.addWidget(QLabel("Special tokens:"))
        controls.addWidget(self.policy_combo)
        controls.addSpacing(8)
        controls.addWidget(QLabel("tiktoken:"))
        controls.addWidget(self.tiktoken_combo)
        controls.addWidget(self.add_button)
        controls.addSpacing(8)
        for w in (self.whitespace_box, self.ids_box, self.diff_box, self.sync_box):
            controls.addWidget(w)
        controls.addStretch(1)
        controls.addWidget(self.prev_button)
        controls.addWidget(self.next_button)

        self.columns_splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.columns_splitter.setChildrenCollapsible(False)
        self._user_sized = False
        self.columns_splitter.splitterMoved.connect(
            lambda *_a: setattr(self, "_user_sized", True)
        )

        top = QWidget(self)
        top_lay = QVBoxLayout(top)
        top_lay.setContentsMargins(0, 0, 0, 0)
        top_lay.addWidget(self.editor)
        top_lay.addLayout(controls)
        self.splitter = QSplitter(Qt.Orientation.Vertical, self)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(top)
        self.splitter.addWidget(self.columns_splitter)
        self.splitter.setStretchFactor(0, 0)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([150, 650])
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(self.splitter)

        state.tokenizers_changed.connect(self._on_tokenizers_changed)
        state.sample_text_changed.connect(self._on_state_text)
        state.special_policy_changed.connect(self._on_state_policy)
        state.merge_fires.connect(self._on_merge_fires)
        self._fire_spans: list[tuple[int, int]] = []
        self._rebuild_columns()
        self._retokenize()

    # ------------------------------------------------------------------ public API

    def set_text(self, text: str) -> None:
        """Replace the sample text now (no debounce) and re-tokenize every column."""
        self._debounce.stop()
        self.part = 0
        if text == self.state.sample_text:
            if self.editor.toPlainText() != text:
                self._set_editor_text(text)
            self._retokenize()
        else:
            self.state.set_sample_text(text)  # -> _on_state_text -> _retokenize

    def text(self) -> str:
        """The sample text as last committed to the state."""
        return self.state.sample_text

    @property
    def n_parts(self) -> int:
        """How many parts the text is shown in (1 unless it is long)."""
        return self._n_parts

    def show_part(self, index: int) -> None:
        """Show part ``index`` of a long text (clamped to the valid range)."""
        index = max(0, min(index, self._n_parts - 1))
        if index != self.part:
            self.part = index
            self._retokenize()

    def add_tokenizer(self, tokenizer: Tokenizer) -> None:
        """Append a column for ``tokenizer``."""
        self.state.set_tokenizers(list(self.state.tokenizers) + [tokenizer])

    def remove_column(self, index: int) -> None:
        """Remove column ``index`` (its tokenizer leaves ``state.tokenizers``)."""
        toks = list(self.state.tokenizers)
        if 0 <= index < len(toks):
            del toks[index]
            self.state.set_tokenizers(toks)

    # ------------------------------------------------------------------ state sync

    def _set_editor_text(self, text: str) -> None:
        self.editor.blockSignals(True)
        try:
            self.editor.setPlainText(text)
        finally:
            self.editor.blockSignals(False)

    def _commit_text(self) -> None:
        text = self.editor.toPlainText()
        if text != self.state.sample_text:
            self.part = 0
            self.state.set_sample_text(text)
        else:
            self._retokenize()

    def _on_state_text(self, text: str) -> None:
        if self.editor.toPlainText() != text:
            self._debounce.stop()
            self._set_editor_text(text)
        self.part = 0
        self._retokenize()

    def _sync_policy(self, policy: str) -> None:
        i = self.policy_combo.findData(policy)
        if i >= 0 and i != self.policy_combo.currentIndex():
            self.policy_combo.blockSignals(True)
            self.policy_combo.setCurrentIndex(i)
            self.policy_combo.blockSignals(False)

    def _on_policy_combo(self, index: int) -> None:
        policy = self.policy_combo.itemData(index)
        if policy:
            self.state.set_special_policy(policy)

    def _on_state_policy(self, policy: str) -> None:
        self._sync_policy(policy)
        self._retokenize()

    def _on_whitespace(self, on: bool) -> None:
        for col in self.columns:
            col.view.set_show_whitespace(on)

    def _on_ids(self, on: bool) -> None:
        for col in self.columns:
            col.view.set_show_ids(on)

    # ------------------------------------------------------------------ tiktoken combo

    def _sync_tiktoken_combo(self) -> None:
        name = DEFAULT_TIKTOKEN
        for t in self.state.tokenizers:
            if t.family == "tiktoken":
                name = t.name
                break
        i = self.tiktoken_combo.findText(name)
        if i >= 0:
            self.tiktoken_combo.blockSignals(True)
            self.tiktoken_combo.setCurrentIndex(i)
            self.tiktoken_combo.blockSignals(False)

    def _on_tiktoken_chosen(self, index: int) -> None:
        self.select_tiktoken(self.tiktoken_combo.itemText(index))

    def select_tiktoken(self, name: str) -> None:
        """Load tiktoken encoding ``name`` off the GUI thread and make it the tiktoken column.

        When it cannot be loaded, the tiktoken column shows the one-line reason.
        """
        i = self.tiktoken_combo.findText(name)
        if i >= 0 and i != self.tiktoken_combo.currentIndex():
            self.tiktoken_combo.blockSignals(True)
            self.tiktoken_combo.setCurrentIndex(i)
            self.tiktoken_combo.blockSignals(False)
        if self._load_worker is not None:
            self._load_worker.cancel()
        self._load_gen += 1
        gen = self._load_gen
        loader = self._tiktoken_loader

        def load(cancel: Callable[[], bool]) -> tuple[int, str, Tokenizer | str]:
            try:
                return gen, name, loader(name)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:  # noqa: BLE001 - shown in the column
                return gen, name, _one_line(exc)

        worker = Worker(load)
        worker.signals.returned.connect(self._on_tiktoken_loaded)
        self._load_worker = worker
        worker.start()

    def _on_tiktoken_loaded(self, result: Any) -> None:
        gen, name, loaded = result
        if gen != self._load_gen:
            return  # an older choice
        if isinstance(loaded, str):
            self._tiktoken_error = f"{name}: {loaded}"
            self._rebuild_columns()
            self._retokenize()
            return
        self._tiktoken_error = None
        self.state.replace_tokenizer("tiktoken", loaded)

    # ------------------------------------------------------------------ add column

    def _fill_add_menu(self) -> None:
        menu = self.add_menu
        menu.clear()
        sub = menu.addMenu("tiktoken encoding")
        if self._tiktoken_status is None:
            act = sub.addAction("checking which encodings load…")
            act.setEnabled(False)
            self.refresh_tiktoken_status()
        else:
            for name, reason in self._tiktoken_status:
                if reason is None:
                    sub.addAction(name, partial(self.add_tiktoken, name))
                else:
                    act = sub.addAction(f"{name} — unavailable: {reason}")
                    act.setEnabled(False)
                    act.setToolTip(reason)
        menu.addAction("tiktoken ranks file (.tiktoken)…", self._ask_tiktoken_file)
        menu.addAction("tiktoken cache folder…", self._ask_cache_dir)
        menu.addSeparator()
        menu.addAction("BPE model file…", partial(self._ask_model, "bpe"))
        menu.addAction("SentencePiece model (.model)…", partial(self._ask_model, "sp"))
        menu.addAction("Train SentencePiece on the corpus…", self.open_sp_train_dialog)

    def refresh_tiktoken_status(self, cache_dir: str | None = None) -> Worker:
        """Find out (in a worker) which tiktoken encodings load; with ``cache_dir``
        first point tiktoken at that cache folder."""
        from tokexplorer.core.backends import tiktoken_registry as tb

        def work(cancel: Callable[[], bool]) -> list[tuple[str, str | None]]:
            if cache_dir is not None:
                return tb.set_tiktoken_cache_dir(cache_dir)
            return tb.available_tiktoken_encodings()

        worker = Worker(work)
        worker.signals.returned.connect(self._on_tiktoken_status)
        worker.signals.errored.connect(guarded(self, lambda exc: self.state.error.emit(user_message(exc))))
        self._status_worker = worker
        worker.start()
        return worker

    def _on_tiktoken_status(self, status: list[tuple[str, str | None]]) -> None:
        self._tiktoken_status = list(status)
        ok = sum(1 for _n, r in status if r is None)
        self.state.status.emit(
            f"tiktoken: {ok} of {len(status)} encodings can be loaded here"
        )

    def add_tiktoken(self, name: str) -> Worker:
        """Load tiktoken encoding ``name`` in a worker and add it as a new column."""
        loader = self._tiktoken_loader
        return self._load_column(lambda: loader(name), name)

    def add_spec(self, spec: str) -> Worker:
        """Load a tokenizer SPEC (``bpe:PATH``, ``sp:PATH``, ``tiktoken-file:PATH``...)
        in a worker and add it as a new column; a failure goes to ``state.error``."""
        from tokexplorer.core.backends import load_tokenizer

        return self._load_column(lambda: load_tokenizer(spec), spec)

    def _load_column(self, load: Callable[[], Tokenizer], what: str) -> Worker:
        worker = Worker(lambda cancel: load())
        worker.signals.returned.connect(self.add_tokenizer)
        worker.signals.errored.connect(
            guarded(self, lambda exc: self.state.error.emit(f"{what}: {user_message(exc)}"))
        )
        self._column_loader = worker
        self.state.status.emit(f"loading {what}…")
        worker.start()
        return worker

    def _ask_tiktoken_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Open a .tiktoken ranks file",
            "",
            "tiktoken ranks (*.tiktoken);;All files (*)",
        )
        if path:
            self.add_spec(f"tiktoken-file:{path}")

    def _ask_cache_dir(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self, "tiktoken cache folder", os.environ.get("TIKTOKEN_CACHE_DIR", "")
        )
        if path:
            self._tiktoken_status = None
            self.refresh_tiktoken_status(path)

    def _ask_model(self, kind: str) -> None:
        if kind == "sp":
            filt = "SentencePiece models (*.model);;All files (*)"
        else:
            filt = "tokexplorer BPE (*.bpe *.txt);;All files (*)"
        path, _ = QFileDialog.getOpenFileName(self, "Open a tokenizer model", "", filt)
        if path:
            self.add_spec(f"{kind}:{path}")

    def open_sp_train_dialog(self) -> Any:
        """Open the SentencePiece training dialog on the corpus (the sample text
        when no corpus is loaded); the trained model becomes a new column."""
        from tokexplorer.gui.dialogs.sp_train import SPTrainDialog

        corpus = self.state.corpus
        texts = [f.text for f in corpus.files if f.text] if corpus is not None else []
        if not texts:
            texts = [self.state.sample_text]
        dlg = SPTrainDialog(texts, self)
        dlg.trained.connect(self.add_tokenizer)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.open()
        return dlg

    # ------------------------------------------------------------------ columns

    @property
    def busy(self) -> bool:
        """True while a tokenization request has not been fully shown yet (an
        edit waiting for its debounce included); :attr:`tokenized` follows."""
        return (
            self._debounce.isActive()
            or self._shown < self._expected
            or bool(self._pending)
        )

    def _on_tokenizers_changed(self) -> None:
        self._sync_tiktoken_combo()
        self._rebuild_columns()
        self._retokenize()

    def _rebuild_columns(self) -> None:
        for col in self.columns:
            col.setParent(None)
            col.deleteLater()
        if self._error_column is not None:
            self._error_column.setParent(None)
            self._error_column.deleteLater()
            self._error_column = None
        self.columns = []
        for i, tok in enumerate(self.state.tokenizers):
            col = TokenColumn(tok, self.columns_splitter)
            col.view.set_show_whitespace(self.whitespace_box.isChecked())
            col.view.set_show_ids(self.ids_box.isChecked())
            col.view.token_hovered.connect(partial(self._on_token_hovered, col))
            col.view.token_clicked.connect(partial(self._on_token_clicked, col))
            col.view.token_double_clicked.connect(
                partial(self._on_token_double_clicked, col)
            )
            col.view.scrolled.connect(partial(self._on_scrolled, col))
            col.remove_requested.connect(partial(self._remove_col, col))
            self.columns_splitter.addWidget(col)
            self.columns.append(col)
        if self._tiktoken_error is not None:
            target = next(
                (c for c in self.columns if c.tokenizer.family == "tiktoken"), None
            )
            if target is None:
                target = TokenColumn(None, self.columns_splitter)
                target.header.setText("tiktoken")
                self.columns_splitter.addWidget(target)
                self._error_column = target
            target.show_result(self._tiktoken_error)
        self._user_sized = False
        self._equalize_columns()
        QTimer.singleShot(0, self._equalize_columns)

    def _equalize_columns(self) -> None:
        """Give every column the same width (until the user drags a handle)."""
        if getattr(self, "_user_sized", False):
            return
        n = self.columns_splitter.count()
        if n:
            w = max(n, self.columns_splitter.width())
            self.columns_splitter.setSizes([w // n] * n)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        self._equalize_columns()

    def _remove_col(self, col: TokenColumn) -> None:
        if col in self.columns:
            self.remove_column(self.columns.index(col))

    def _retokenize(self) -> None:
        """Start one worker for the columns (one after the other, each result
        delivered as soon as it is ready); an earlier request is cancelled.

        One worker, not one per column: on a machine with few cores, several
        CPU-bound worker threads starve the GUI thread of the GIL and the CPU.
        """
        self._gen += 1
        gen = self._gen
        for w in self._workers:
            w.cancel()
        self._workers = []
        self._pending = {}
        self._flush.stop()
        self._pinned = None
        targets = [
            (i, c.tokenizer)
            for i, c in enumerate(self.columns)
            if not self._column_blocked(c)
        ]
        self._expected = len(targets)
        self._shown = 0
        text = self.state.sample_text
        policy = self.state.special_policy
        part = self.part

        def work(cancel):
            for k, (i, tok) in enumerate(targets):
                if cancel():
                    raise Cancelled("cancelled")
                res = tokenize_column(tok, text, policy, part, cancel)
                _GUI_FREE.clear()  # the GUI thread is about to lay this column out
                yield _ColumnDone(
                    "tokenizing", k + 1, len(targets), tok.name, result=(gen, i, res)
                )
                _GUI_FREE.wait(1.0)
            return gen

        if targets:
            worker = Worker(work)
            worker.signals.progress.connect(self._on_progress)
            worker.signals.errored.connect(self._on_worker_error)
            self._workers.append(worker)
            worker.start()
        else:
            QTimer.singleShot(0, lambda g=gen: self._emit_if_current(g))

    def _on_progress(self, p: Any) -> None:
        if isinstance(p, _ColumnDone):
            self._on_result(p.result)

    def _emit_if_current(self, gen: int) -> None:
        if gen == self._gen:
            self.tokenized.emit()

    def _column_blocked(self, col: TokenColumn) -> bool:
        return self._tiktoken_error is not None and col.tokenizer.family == "tiktoken"

    def _on_result(self, result: Any) -> None:
        gen, index, res = result
        if gen != self._gen:
            _GUI_FREE.set()
            return  # stale: a newer request is running
        self._pending[index] = res
        if not self._flush.isActive():
            self._flush.start()

    def _show_next_result(self) -> None:
        """Show one pending column result per event-loop turn (layouts stay short)."""
        if not self._pending:
            return
        index = min(self._pending)
        res = self._pending.pop(index)
        if index < len(self.columns):
            _GUI_FREE.clear()
            try:
                self.columns[index].show_result(res)
            finally:
                _GUI_FREE.set()
            self._n_parts = res.n_parts
            self.part = res.part
        self._shown += 1
        if self._pending:
            self._flush.start()
            return
        if self._shown >= self._expected:
            self._update_part_buttons()
            self._update_diff_marks()
            self._apply_fire_marks()
            self.tokenized.emit()

    def _update_part_buttons(self) -> None:
        many = self._n_parts > 1
        for b in (self.prev_button, self.next_button):
            b.setVisible(many)
        self.prev_button.setEnabled(self.part > 0)
        self.next_button.setEnabled(self.part < self._n_parts - 1)

    def _on_worker_error(self, exc: BaseException) -> None:
        self._shown = self._expected
        self.state.status.emit(f"tokenizing failed: {user_message(exc)}")

    def _update_diff_marks(self) -> None:
        cols = [c for c in self.columns if c.tokenization is not None]
        if not self.diff_box.isChecked() or len(cols) < 2:
            for c in self.columns:
                c.view.set_diff_marks(None)
            return
        marks = diff_marks(
            [[(t.byte_start, t.byte_end) for t in c.tokenization.tokens] for c in cols]
        )
        for c, m in zip(cols, marks):
            c.view.set_diff_marks(m)

    # ------------------------------------------------------------------ hover, selection, scrolling

    def _on_token_hovered(self, src: TokenColumn, index: int) -> None:
        if src not in self.columns:
            return
        tz = src.tokenization
        if index < 0 or tz is None or index >= len(tz.tokens):
            rng = self._pinned or (-1, -1)
            for col in self.columns:
                if col is not src or self._pinned:
                    col.view.highlight_bytes(*rng)
            self.state.token_hovered.emit(src.name, -1, -1)
            return
        tok = tz.tokens[index]
        for col in self.columns:
            if col is not src:
                col.view.highlight_bytes(tok.byte_start, tok.byte_end)
        self.state.token_hovered.emit(src.name, tok.byte_start, tok.byte_end)
        self.state.inspect_requested.emit(tz.text, tok.byte_start, tok.byte_end)

    def _on_token_double_clicked(self, src: TokenColumn, index: int) -> None:
        """Ask for the merge tree of a token (shown by the merge table pane)."""
        tz = src.tokenization
        if tz is None or not 0 <= index < len(tz.tokens):
            return
        self.state.token_tree_requested.emit(bytes(tz.tokens[index].bytes))

    def _on_merge_fires(self, spans: Any) -> None:
        """Mark where the merge selected in the merge table fires, in the columns
        of that BPE (``spans``: byte ranges of the whole sample text)."""
        self._fire_spans = [(int(a), int(b)) for a, b in (spans or [])]
        self._apply_fire_marks()

    def _apply_fire_marks(self) -> None:
        text = self.state.sample_text
        for col in self.columns:
            tok = col.tokenizer
            same_bpe = (
                getattr(tok, "bpe", None) is not None and tok.bpe is self.state.bpe
            )
            if not same_bpe or col.tokenization is None or not self._fire_spans:
                col.view.mark_spans([])
                continue
            off = len(text[: col.part_start].encode("utf-8", "surrogatepass"))
            n = len(col.tokenization.text.encode("utf-8", "surrogatepass"))
            col.view.mark_spans(
                [
                    (a - off, b - off)
                    for a, b in self._fire_spans
                    if b > off and a < off + n
                ]
            )

    def _on_token_clicked(self, src: TokenColumn, index: int) -> None:
        """Select a token: its byte range stays outlined in every column."""
        tz = src.tokenization
        if index < 0 or tz is None or index >= len(tz.tokens):
            self._pinned = None
            for col in self.columns:
                col.view.highlight_bytes(-1, -1)
            return
        tok = tz.tokens[index]
        self._pinned = (tok.byte_start, max(tok.byte_end, tok.byte_start + 1))
        for col in self.columns:
            col.view.highlight_bytes(*self._pinned)

    def _on_scrolled(self, src: TokenColumn) -> None:
        if self._syncing or not self.sync_box.isChecked() or src not in self.columns:
            return
        offset = src.view.first_visible_byte()
        if offset < 0:
            return
        self._syncing = True
        try:
            for col in self.columns:
                if col is not src:
                    col.view.scroll_to_byte(offset)
        finally:
            self._syncing = False
