"""One column of the compare pane: a tokenizer's header, count line, notes and tokens.

The header gives the tokenizer's description (its name, distinct among the
columns: file or encoding and family; pre-tokenizer or normalizer; vocabulary
size) beside a remove button; below it come the token
count and characters per token of the whole text, the part of a long text shown,
the notes as a warning badge (special token text encoded as plain text,
surrogates replaced, text changed by a normalizer; one line until clicked), a one-line error in place of
the tokens, and the :class:`~tokexplorer.gui.widgets.token_view.TokenView`. A
Hugging Face tokenizer's column also holds its
:class:`~tokexplorer.gui.widgets.hf_stages.HFColumnPanel` (see :meth:`TokenColumn.set_panel`).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from tokexplorer.core.analysis import ColumnResult, column_notes, count_text, part_label
from tokexplorer.core.backends import Tokenizer, word_starts
from tokexplorer.core.types import Tokenization
from tokexplorer.gui import theme
from tokexplorer.gui.widgets.elided_label import ElidedLabel
from tokexplorer.gui.widgets.hf_stages import HFColumnPanel
from tokexplorer.gui.widgets.note_badge import NoteBadge
from tokexplorer.gui.widgets.token_view import TokenView

UPDATING = " · updating…"
"""What a column's count line ends with while its tokens are those of the text before."""

TOKENIZING = "tokenizing…"
"""A new column's count line while its first result is computed."""

#: Characters (average width) an error message keeps on a line, however narrow its column is made.
ERROR_MIN_CHARS = 28


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
        part_start: character offset of the shown part in the sample text.
        header: the description, an :class:`ElidedLabel` of two lines (cut with "…",
            all of it in the tooltip); it never widens the column.
        count_label, error_label, part_label: QLabels.
        notes_label: the notes' :class:`NoteBadge` (one line; a click shows them all).
        remove_button: QToolButton ✕.
        view: the :class:`TokenView`.
        panel: the family's extra controls under the header (an
            :class:`~tokexplorer.gui.widgets.hf_stages.HFColumnPanel`), or None.
    """

    remove_requested = Signal()

    def __init__(self, tokenizer: Tokenizer | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tokenizer = tokenizer
        self.name = tokenizer.name if tokenizer is not None else ""
        self.part_start = 0
        self.tokenization: Tokenization | None = None
        self.total_tokens: int | None = None
        self.error: str | None = None
        self.header = self._make_header(tokenizer.description if tokenizer is not None else "")
        self.remove_button = QToolButton(self)
        self.remove_button.setText("✕")
        self.remove_button.setAutoRaise(True)
        self.remove_button.setToolTip("Remove this column")
        self.remove_button.clicked.connect(self.remove_requested.emit)
        self.remove_button.setVisible(tokenizer is not None)
        self.count_label = QLabel("")
        self.part_label = QLabel("")
        self.part_label.setStyleSheet("QLabel { color: palette(placeholder-text); }")
        self.part_label.hide()
        self.trained_label = ElidedLabel("", self)  # a model trained on another corpus than this one
        self.trained_label.setStyleSheet(f"QLabel {{ color: {theme.WARNING_TEXT.name()}; }}")
        self.trained_label.hide()
        self.notes_label = NoteBadge(self)
        self.notes_label.setStyleSheet(
            f"QLabel {{ background: {theme.WARNING_BG.name()}; color: {theme.WARNING_TEXT.name()};"
            " border-radius: 3px; padding: 1px 4px; }"
        )
        self.notes_label.hide()
        self.error_label = QLabel("")
        self.error_label.setWordWrap(True)
        # a long path in a message wraps where it must; it never widens the column
        self.error_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.error_label.setStyleSheet(f"QLabel {{ color: {theme.ERROR_TEXT.name()}; }}")
        self.error_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error_label.hide()
        self.view = TokenView(self)
        self.panel: HFColumnPanel | None = None
        self._lay_out()

    def _make_header(self, text: str) -> ElidedLabel:
        # two lines in every column, so the token areas line up; the whole description in the tooltip
        header = ElidedLabel(text, self, lines=2)
        header.set_tip(text)
        font = header.font()
        font.setBold(True)
        header.setFont(font)
        return header

    def _lay_out(self) -> None:
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.setSpacing(2)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        head.addWidget(self.header, 1)
        head.addWidget(self.remove_button, 0, Qt.AlignmentFlag.AlignTop)
        lay.addLayout(head)
        for w in (self.trained_label, self.count_label, self.part_label, self.notes_label, self.error_label):
            lay.addWidget(w)
        lay.addWidget(self.view, 1)

    def set_trained_note(self, note: str, *, stale: bool) -> None:
        """Say what the model was trained on in the Corpus tab (``"trained on sample.txt
        (built-in)"``; "" for a model opened or loaded): in the header's tooltip, and when
        ``stale`` (another corpus is open now) on a line under the header, with how to retrain."""
        description = self.tokenizer.description if self.tokenizer is not None else ""
        self.header.set_tip(f"{description}\n{note}" if note else description)
        if note and stale:
            line = f"⚠ {note}, not on this corpus (Train in the Corpus tab retrains)"
            self.trained_label.setText(line)
            self.trained_label.set_tip(line)
        self.trained_label.setVisible(bool(note) and stale)

    def set_panel(self, panel: HFColumnPanel) -> None:
        """Put ``panel`` under the header; it follows the text of every result shown."""
        self.panel = panel
        lay = self.layout()
        if isinstance(lay, QVBoxLayout):
            lay.insertWidget(1, panel)
        if self.tokenization is not None:
            panel.set_text(self.tokenization.text)

    def mark_updating(self) -> None:
        """Say that the tokens shown are those of the text before, while the new text is
        tokenized: ``· updating…`` after the count, the tokens greyed (the next result
        or error clears both); a column with nothing shown yet says ``tokenizing…``."""
        if self.tokenization is None and self.error is None:
            self.count_label.setText(TOKENIZING)
            return
        text = self.count_label.text()
        if not text.endswith(UPDATING):
            self.count_label.setText(text + UPDATING)
        self.view.setEnabled(False)

    def show_result(self, result: Tokenization | str | ColumnResult) -> None:
        """Show a result, a tokenization, or a one-line error in place of the tokens."""
        self.view.setEnabled(True)
        part = result if isinstance(result, ColumnResult) else ColumnResult.whole(result)
        self.part_start = part.part_start
        tz = part.tokenization
        if isinstance(tz, str):
            self._show_error(tz)
            return
        self.tokenization = tz
        self.total_tokens = part.total_tokens
        self.error = None
        self.error_label.setMinimumWidth(0)
        self.error_label.hide()
        self.count_label.setText(count_text(part.total_tokens or 0, part.n_chars))
        if part.n_parts > 1:
            self.part_label.setText(part_label(part))
            self.part_label.show()
        else:
            self.part_label.hide()
        notes = column_notes(tz)
        if notes:
            # one line, elided, until clicked: the badge never takes the tokens' room unasked
            self.notes_label.set_note("⚠ " + "; ".join(notes), tip="\n".join(notes))
            self.notes_label.show()
        else:
            self.notes_label.hide()
        self.view.set_message("")
        starts = word_starts(self.tokenizer, tz) if self.tokenizer is not None else None
        self.view.set_tokenization(tz, word_starts=starts)
        if self.panel is not None:
            self.panel.set_text(tz.text)

    def _show_error(self, message: str) -> None:
        self.tokenization = None
        self.total_tokens = None
        self.error = message
        self.count_label.setText("—")
        self.notes_label.hide()
        self.part_label.hide()
        self.error_label.setText("⚠ " + message)
        # a readable width of its own: the splitter never squeezes the message to a word a line
        self.error_label.setMinimumWidth(ERROR_MIN_CHARS * self.error_label.fontMetrics().averageCharWidth())
        self.error_label.show()
        self.view.set_tokenization(None)
        self.view.set_message("")
