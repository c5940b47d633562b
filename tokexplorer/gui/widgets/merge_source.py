"""Which model the merge table shows for a token double-clicked elsewhere.

A token double-clicked in a Compare column or a byte inspector row comes with the
name of its tokenizer. Its merge tree is that tokenizer's: the merge table
switches to the model when it has merges or ranks (our BPE, tiktoken encodings,
rank files, tekken) and otherwise says that the tokenizer has no merge tree,
never drawing the tree of another model.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from tokexplorer.core.analysis import bpe_of_tokenizer, no_merges_reason
from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer, Tokenizer
from tokexplorer.core.bpe import BPE

__all__ = ["ModelTitle", "model_of", "no_tree_message", "source_tokenizer"]


def source_tokenizer(tokenizers: Sequence[Tokenizer], name: str) -> Tokenizer | None:
    """The tokenizer named ``name`` (names are distinct in the window's list), or None
    (``""``, or a name no longer in the list)."""
    return next((t for t in tokenizers if t.name == name), None) if name else None


def no_tree_message(tok: Tokenizer) -> str | None:
    """Why the merge table draws no tree for a token of ``tok``, or None when it can
    (``tok`` has merges or ranks: our BPE, tiktoken, rank files, tekken)."""
    if isinstance(tok, (BPETokenizer, TiktokenTokenizer)):
        return None
    why = no_merges_reason(tok) or (
        f"{tok.name} is a Hugging Face BPE: the merge table holds byte-level BPEs (ours, tiktoken "
        "encodings, rank files, tekken), so its merge tree is not drawn here"
    )
    return f"No merge tree for this token of {tok.name}. {why}"


def model_of(tok: Tokenizer) -> BPE:
    """``tok``'s model in our engine, merges recovered (run it in a worker: a
    tiktoken encoding's ranks take about a second).

    Raises:
        InputError: ``tok`` has no merges or ranks (see :func:`no_tree_message`).
    """
    bpe = tok.bpe if isinstance(tok, BPETokenizer) else bpe_of_tokenizer(tok)
    _ = bpe.merges  # recovered from the ranks here, off the GUI thread
    return bpe


class ModelTitle(QWidget):
    """The line above the merge table: the shown model's title and, when that is
    another tokenizer's model than the Corpus tab's BPE, a line saying so and a
    button back to that BPE.

    Signals:
        back_clicked(): "Back to the Corpus tab's BPE" was clicked.

    Attributes:
        label: the title QLabel; back_button: the QPushButton (hidden for the Corpus tab's BPE).
    """

    back_clicked = Signal()

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(text)
        self.label.setWordWrap(True)
        self.back_button = QPushButton("Back to the Corpus tab's BPE")
        self.back_button.setToolTip("Show the merges of the BPE trained or opened in the Corpus tab again")
        self.back_button.hide()
        self.back_button.clicked.connect(self.back_clicked)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.label, 1)
        row.addWidget(self.back_button)

    def show_title(self, title: str, *, instead_of: str | None = None) -> None:
        """Show ``title``; ``instead_of``: the name of the Corpus tab's BPE when the
        table shows another model (``"none"`` when there is none), else None."""
        if instead_of is not None:
            title += f"\nShown for a token double-clicked in its column, not the Corpus tab's BPE ({instead_of})."
        self.label.setText(title)
        self.back_button.setVisible(instead_of not in (None, "none"))
