"""The SentencePiece training options as widgets, built once for the corpus pane
and the SentencePiece training dialog; they read back as a
:class:`~tokexplorer.core.backends.SentencePieceOptions` (and whether longer
lines may be skipped, which the trainer takes beside its options)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QFormLayout, QLabel

from tokexplorer.core.backends import NORMALIZATION_RULES, SentencePieceOptions
from tokexplorer.gui.widgets.number_fields import decimal_field, whole_number_field

#: Every normalization rule SentencePiece knows, in the order offered.
ALL_NORMALIZATION_RULES: tuple[str, ...] = NORMALIZATION_RULES
#: The rules the corpus pane offers: SentencePiece's default and keeping the text as is.
BASIC_NORMALIZATION_RULES: tuple[str, ...] = ("nmt_nfkc", "identity")

_RULE_LABELS = {
    "nmt_nfkc": "nmt_nfkc (default)",
    "identity": "identity (keep text as is)",
}


def _coverage_spin() -> QDoubleSpinBox:
    """A ``character_coverage`` field taking any number: a value outside SentencePiece's range
    (0.98–1.0) is refused by the training with its message, not put back on focus out."""
    return decimal_field(
        1.0, decimals=4, step=0.0005, tip="character_coverage: share of characters the model must cover (0.98–1.0)"
    )


#: SentencePiece's ``user_defined_symbols``, named and explained the same way in the Corpus
#: tab and the training dialog (the command line's ``train --special`` gives them for ``sp-*``).
USER_SYMBOLS_LABEL = "User-defined symbols:"
USER_SYMBOLS_TIP = (
    "SentencePiece's user_defined_symbols: pieces always kept whole, wherever they occur (never split, "
    "never part of a longer piece); separated by commas or spaces. On the command line: --special"
)
USER_SYMBOLS_PLACEHOLDER = "none (e.g. <sep>, <cls>)"  # what they are: in USER_SYMBOLS_TIP
#: The same in a wrapped line under the field, where a placeholder would be cut (the dialog).
USER_SYMBOLS_NOTE = "pieces always kept whole, e.g. <sep>, <cls>; separate them with commas or spaces"


def parse_special_tokens(text: str) -> list[str]:
    """Split a special-tokens or user-defined-symbols field on commas and whitespace, keeping
    order, no duplicates (the Corpus tab and the SentencePiece dialog read their fields alike).

    >>> parse_special_tokens("<|endoftext|>, <|pad|>  <|endoftext|>")
    ['<|endoftext|>', '<|pad|>']
    """
    return list(dict.fromkeys(t for t in re.split(r"[,\s]+", text) if t))


#: What SentencePiece's ``split_digits`` does, checked with sentencepiece 0.2.3: it splits
#: ASCII and full-width digits only; Arabic-Indic, Devanagari, Thai... digits stay merged.
#: The split-digits option's check box, and what it does in a wrapped line under it (one line
#: of both was wider than the window's training form).
SPLIT_DIGITS_LABEL = "split digits"
SPLIT_DIGITS_NOTE = "each ASCII 0–9 or full-width ０–９ digit its own piece (no other digits)"
SPLIT_DIGITS_TEXT = f"{SPLIT_DIGITS_LABEL}: {SPLIT_DIGITS_NOTE}"
#: The byte-fallback option's check box and what it does, wrapped under it as split digits is.
BYTE_FALLBACK_LABEL = "byte fallback"
BYTE_FALLBACK_NOTE = "unknown characters as <0xNN> byte pieces"


def option_note(text: str) -> QLabel:
    """What an option does, a wrapped line under its check box (indented to the box's text)."""
    note = QLabel(text)
    note.setWordWrap(True)
    note.setIndent(24)  # under the box's text, not its square
    return note


class SentencePieceOptionsForm(QObject):
    """The option widgets of SentencePiece training; the caller lays them out
    with :meth:`add_rows` (and :meth:`add_line_rows` when ``line_options``).

    Args:
        rules: normalization rules offered, first one selected (names from
            :data:`ALL_NORMALIZATION_RULES`).
        line_options: also offer split digits, ``max_sentence_length`` (bytes)
            and skipping longer lines; without them these keep SentencePiece's
            defaults.
        parent: Qt parent object.

    Signals:
        changed(): any option was edited.

    Attributes:
        coverage_spin, normalization_combo, byte_fallback_check, remove_ws_check:
            the options every trainer shows.
        split_digits_check, max_len_spin, skip_long_check: the line options
            (laid out only with ``line_options``; otherwise left at their defaults);
            byte_fallback_note, split_digits_note: what the option does, wrapped under its box.
    """

    changed = Signal()

    def __init__(
        self,
        *,
        rules: Sequence[str] = BASIC_NORMALIZATION_RULES,
        line_options: bool = False,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.line_options = line_options
        defaults = SentencePieceOptions()
        self.coverage_spin = _coverage_spin()
        self.normalization_combo = QComboBox()
        for rule in rules:
            self.normalization_combo.addItem(_RULE_LABELS.get(rule, rule), rule)
        self.byte_fallback_check = QCheckBox(BYTE_FALLBACK_LABEL)
        self.byte_fallback_check.setToolTip(f"{BYTE_FALLBACK_LABEL}: {BYTE_FALLBACK_NOTE}")
        self.byte_fallback_note = option_note(BYTE_FALLBACK_NOTE)
        self.remove_ws_check = QCheckBox("remove extra whitespaces")
        self.remove_ws_check.setChecked(defaults.remove_extra_whitespaces)
        self.split_digits_check = QCheckBox(SPLIT_DIGITS_LABEL)
        self.split_digits_check.setToolTip(SPLIT_DIGITS_TEXT)
        self.split_digits_note = option_note(SPLIT_DIGITS_NOTE)
        self.max_len_spin = whole_number_field(defaults.max_sentence_length, suffix=" bytes")
        self.skip_long_check = QCheckBox("let SentencePiece skip longer lines")
        # split digits changes nothing a check before training finds, so it does not signal
        for signal in (
            self.coverage_spin.valueChanged,
            self.normalization_combo.currentIndexChanged,
            self.byte_fallback_check.toggled,
            self.remove_ws_check.toggled,
            self.max_len_spin.valueChanged,
            self.skip_long_check.toggled,
        ):
            signal.connect(self.changed)

    def add_rows(self, form: QFormLayout) -> None:
        """Add coverage, normalization, byte fallback, whitespace (and split digits) to ``form``."""
        form.addRow("Character coverage:", self.coverage_spin)
        form.addRow("Normalization:", self.normalization_combo)
        form.addRow(self.byte_fallback_check)
        form.addRow(self.byte_fallback_note)
        form.addRow(self.remove_ws_check)
        if self.line_options:
            form.addRow(self.split_digits_check)
            form.addRow(self.split_digits_note)

    def add_line_rows(self, form: QFormLayout) -> None:
        """Add ``max_sentence_length`` and skipping longer lines to ``form`` (with line options)."""
        if self.line_options:
            form.addRow("max_sentence_length:", self.max_len_spin)
            form.addRow(self.skip_long_check)

    def options(self, *, model_type: str = "bpe") -> SentencePieceOptions:
        """The options as chosen, for ``model_type`` (``"bpe"``, ``"unigram"``, ``"char"``, ``"word"``);
        without line options those keep SentencePiece's defaults."""
        return SentencePieceOptions(
            model_type=model_type,
            character_coverage=float(self.coverage_spin.value()),
            byte_fallback=self.byte_fallback_check.isChecked(),
            normalization_rule_name=self.normalization_combo.currentData(),
            remove_extra_whitespaces=self.remove_ws_check.isChecked(),
            split_digits=self.split_digits_check.isChecked(),
            max_sentence_length=int(self.max_len_spin.value()),
        )

    @property
    def skip_long_lines(self) -> bool:
        """True when SentencePiece may skip lines over ``max_sentence_length`` (False without line options)."""
        return self.line_options and self.skip_long_check.isChecked()


__all__ = [
    "ALL_NORMALIZATION_RULES",
    "BASIC_NORMALIZATION_RULES",
    "USER_SYMBOLS_LABEL",
    "USER_SYMBOLS_NOTE",
    "USER_SYMBOLS_PLACEHOLDER",
    "USER_SYMBOLS_TIP",
    "SentencePieceOptionsForm",
    "option_note",
    "parse_special_tokens",
]
