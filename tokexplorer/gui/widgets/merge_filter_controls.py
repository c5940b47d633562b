"""The merge table's filter and display controls (the two rows above the table).

:class:`MergeFilterControls` builds the widgets; the merge pane connects them.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QHBoxLayout, QLabel, QLineEdit

from tokexplorer.core.analysis import SCRIPTS
from tokexplorer.gui import theme
from tokexplorer.gui.models.merge_filter import MergeFilter, check_filter, reads_as_hex
from tokexplorer.gui.models.merge_model import MergeTableModel
from tokexplorer.gui.widgets.merge_table_view import partial_level_combo
from tokexplorer.gui.widgets.number_fields import whole_number_field

#: The filter box's placeholder in each filter mode (``"text"``, ``"regex"``, ``"hex"``).
PLACEHOLDERS = {
    "text": "Filter: token text (the, ␣the, 你, <U+2502>); tick regex for a pattern, hex for bytes",
    "regex": "Regex on the merged token's text: ^\\s, \\p{Han}{2}, ing$",
    "hex": "Hex bytes inside the merged token: e4 bd, 0xF0 0x9F",
}


def other_mode_hint(needle: str, mode: str) -> str:
    """The count label's offer of the other filter mode when ``needle`` (searched in
    filter ``mode``) finds nothing or is refused: rich text with a ``#hex`` or
    ``#text`` link, or ``""`` when no other mode fits.

    Text or regex that reads as hex bytes is offered as hex; hex is offered as text.
    """
    shown = html.escape(needle.strip())
    if mode != "hex" and reads_as_hex(needle):
        return f" · “{shown}” reads as hex bytes: <a href='#hex'>search them as hex</a>"
    if mode == "hex":
        return f" · <a href='#text'>search “{shown}” as token text</a>"
    return ""


#: What the count label adds while a filter is computed in a worker.
FILTERING = "filtering…"

#: The display modes of the token columns: (label, mode of ``MergeTableModel.set_display_mode``).
DISPLAY_MODES = (("Text (␣ = space)", "text"), ("Hex bytes", "hex"), ("GPT-2 bytes (Ġ = space)", "gpt2"))


_FILTER_ERROR_STYLE = f"QLineEdit {{ background: {theme.FILTER_ERROR_BG.name()}; }}"


class MergeFilterControls:
    """The widgets of the filter row and the display row, laid out.

    Attributes:
        filter_edit: the filter QLineEdit; regex_check / hex_check pick its mode.
        script_combo: "any script" or one of ``core.analysis.SCRIPTS``.
        partial_combo: any token, partial UTF-8 only, or part of a grapheme only.
        whole_check: only the tokens no merge builds (shown when the model has some).
        count_label: ``"N merges (M shown)"``, or the filter's error (rich text: a
            search that finds nothing offers the other mode as a link, ``#hex`` or ``#text``).
        display_combo: Text / Hex bytes / GPT-2 bytes; jump_spin: the rank to jump to.
        filter_row, display_row: the two QHBoxLayouts holding them.
    """

    def set_mode(self, mode: str) -> None:
        """Tick the box of filter ``mode`` (``"text"``: neither) and make the placeholder say
        what the box takes in it."""
        self.hex_check.setChecked(mode == "hex")
        self.regex_check.setChecked(mode == "regex")
        self.filter_edit.setPlaceholderText(PLACEHOLDERS[mode])

    def __init__(self) -> None:
        self.filter_row = self._filter_row()
        self.display_row = self._display_row()

    def read_filter(self) -> MergeFilter | None:
        """The filter the controls say, checked (nothing filtered yet); None (the box tinted,
        the reason in :attr:`count_label`) when it is not valid."""
        text = self.filter_edit.text()
        mode = "hex" if self.hex_check.isChecked() else "regex" if self.regex_check.isChecked() else "text"
        self.filter_edit.setPlaceholderText(PLACEHOLDERS[mode])
        needle = text if text.strip() else ""
        if mode == "hex":
            needle = needle.strip()
        script, partial = self.script_combo.currentData(), self.partial_combo.currentData()
        condition = MergeFilter(needle, mode, script, partial, self.whole_check.isChecked())
        try:
            check_filter(condition)
        except ValueError as exc:
            self.filter_edit.setStyleSheet(_FILTER_ERROR_STYLE)
            msg = "not hex: use pairs like e4 bd" if mode == "hex" else html.escape(str(exc).splitlines()[0])
            self.count_label.setText(msg + other_mode_hint(needle, mode))
            return None
        self.filter_edit.setStyleSheet("")
        return condition

    def show_count(self, model: MergeTableModel, condition: MergeFilter) -> None:
        """Say how many merges ``model`` shows under ``condition`` (just applied), offering the
        other filter mode when its needle finds nothing."""
        self.count_label.setText(model.count_text())
        if condition.needle and not model.rowCount():
            self.count_label.setText(model.count_text() + other_mode_hint(condition.needle, condition.mode))

    def show_filtering(self, model: MergeTableModel) -> None:
        """Say that a new filter is being applied (the table still shows the rows of the one before)."""
        self.count_label.setText(f"{model.count_text()} · {FILTERING}")

    def _filter_row(self) -> QHBoxLayout:
        self.filter_edit = QLineEdit()
        self.filter_edit.setPlaceholderText(PLACEHOLDERS["text"])
        self.filter_edit.setClearButtonEnabled(True)
        self.regex_check = QCheckBox("regex")
        self.regex_check.setToolTip(
            "Search the merged token's text with a regular expression, e.g. ^\\s or \\p{Han}{2}"
        )
        self.hex_check = QCheckBox("hex")
        self.hex_check.setToolTip("Match bytes inside the merged token, written as hex pairs: e4 bd")
        self.script_combo = QComboBox()
        self.script_combo.addItem("any script", None)
        for s in SCRIPTS:
            self.script_combo.addItem(s, s)
        self.script_combo.setToolTip("Keep merged tokens of one script (the first letter's script wins)")
        self.partial_combo = partial_level_combo()
        self.whole_check = QCheckBox("whole-chunk only")
        self.whole_check.setToolTip("Keep the tokens no merge builds: emitted only when a whole chunk is the token")
        self.count_label = QLabel()
        self.count_label.setTextFormat(Qt.TextFormat.RichText)
        self.count_label.setMinimumWidth(170)
        self.count_label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        row = QHBoxLayout()
        row.addWidget(QLabel("Filter:"))
        row.addWidget(self.filter_edit, 1)
        checks = (self.partial_combo, self.whole_check)
        for widget in (self.regex_check, self.hex_check, self.script_combo, *checks, self.count_label):
            row.addWidget(widget)
        return row

    def _display_row(self) -> QHBoxLayout:
        self.display_combo = QComboBox()
        for text, mode in DISPLAY_MODES:
            self.display_combo.addItem(text, mode)
        self.display_combo.setToolTip(
            "How tokens are written: readable text with \\xNN for partial characters, "
            "hex bytes, or GPT-2's visible-byte alphabet"
        )
        # any rank can be typed (nothing snaps back): one that does not exist is said in the status bar
        self.jump_spin = whole_number_field(0, tip="Jump to the merge of this rank (press Enter)")
        self.jump_spin.setKeyboardTracking(False)
        row = QHBoxLayout()
        row.addWidget(QLabel("Show tokens as:"))
        row.addWidget(self.display_combo)
        row.addSpacing(16)
        row.addWidget(QLabel("Jump to rank:"))
        row.addWidget(self.jump_spin)
        row.addStretch(1)
        return row
