"""The replay pane: BPE encoding and BPE training, one merge at a time, and
WordPiece's longest-match-first encoding, one look-up at a time.

Three tabs:

* **Encode step by step** (:class:`~tokexplorer.gui.widgets.encode_replay.EncodeReplay`):
  type a text, pick one of its chunks, and replay our encoder on it: the
  current pieces, every candidate pair with its merge rank, and the pair merged
  next (the lowest rank, leftmost on ties). Step, back, play at a chosen speed,
  or drag the slider.
* **Train step by step** (:class:`~tokexplorer.gui.widgets.train_replay.TrainReplay`):
  type a small text (the classic "the cat in the hat") and replay training on
  it: at each step the pair counts, the pair chosen, and the text re-segmented.
* **WordPiece longest match** (:class:`~tokexplorer.gui.widgets.wordpiece_replay.WordPieceReplay`):
  pick a word of a typed text and step through the look-ups of the WordPiece
  trained here (``AppState.wordpiece``), up to its pieces or ``[UNK]``.

The encode replay uses the current BPE (``AppState.bpe``) or cl100k_base loaded
into our engine; ranks shown are merge ranks, as in the merge table.
"""

from __future__ import annotations

from PySide6.QtWidgets import QTabWidget, QVBoxLayout, QWidget

from tokexplorer.gui.state import AppState
from tokexplorer.gui.widgets.encode_replay import EncodeReplay
from tokexplorer.gui.widgets.train_replay import TrainReplay
from tokexplorer.gui.widgets.wordpiece_replay import WordPieceReplay


class ReplayPane(QWidget):
    """Step-by-step replays of encoding (one chunk) and of training (a small text).

    Args:
        state: the shared state (the encode replay follows ``state.bpe``; its
            errors go to ``state.error``, the training replay's to ``state.status``).
        parent: Qt parent widget.

    Attributes:
        tabs: the three sub-tabs.
        encode: the :class:`EncodeReplay`.
        training: the :class:`TrainReplay`.
        wordpiece: the :class:`WordPieceReplay` (follows ``state.wordpiece``).
    """

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.encode = EncodeReplay()
        self.training = TrainReplay()
        self.tabs = QTabWidget()
        self.tabs.addTab(self.encode, "Encode step by step")
        self.tabs.addTab(self.training, "Train step by step")
        self.wordpiece = WordPieceReplay()
        self.tabs.addTab(self.wordpiece, "WordPiece longest match")
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        self.encode.error.connect(state.error)
        self.training.status.connect(state.status)
        # the Corpus tab's BPE named as its column is ("gui.tiktoken (BPE)"), anew when that changes
        state.bpe_changed.connect(lambda bpe: self.encode.set_current_bpe(bpe, name=self._bpe_name(), when_shown=True))
        state.tokenizers_changed.connect(lambda: self.encode.set_current_name(self._bpe_name()))
        self.encode.set_current_bpe(state.bpe, name=self._bpe_name())
        # named as its column is ("cli.wordpiece (WordPiece)"), and anew when that changes (saved)
        state.wordpiece_changed.connect(lambda wp: self.wordpiece.set_wordpiece(wp, name=self._wordpiece_name()))
        state.tokenizers_changed.connect(lambda: self.wordpiece.set_name(self._wordpiece_name()))
        self.wordpiece.set_wordpiece(state.wordpiece, name=self._wordpiece_name())

    def _bpe_name(self) -> str:
        bpe = self.state.bpe
        return self.state.name_of(bpe) if bpe is not None else ""

    def _wordpiece_name(self) -> str:
        wp = self.state.wordpiece
        return self.state.name_of(wp) if wp is not None else ""
