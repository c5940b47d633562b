"""The line under the Corpus tab's vocab size when WordPiece is chosen: the least size the
corpus's characters need, known before any word is counted.

The distinct characters are collected once per corpus in a worker, in slices
(:func:`~tokexplorer.core.wordpiece.distinct_characters`), so the window never waits on
them: one ``set`` of a 64 MB text holds the interpreter lock for 0.6 s.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from tokexplorer.core.training import wordpiece_floor
from tokexplorer.core.wordpiece import distinct_characters
from tokexplorer.gui.workers import LatestRequest

if TYPE_CHECKING:
    from tokexplorer.core.io import Corpus
    from tokexplorer.gui.panes.corpus_pane.training_form import TrainingForm


class VocabHint:
    """Keeps ``form.vocab_hint`` saying what the shown corpus needs at least (WordPiece only;
    hidden otherwise, and while the characters are being collected). It never changes the
    vocab size the user set.

    Args:
        form: the training form (its ``vocab_hint`` label and options).
        corpus: returns the corpus shown (None: none).

    Attributes:
        job: the :class:`LatestRequest` collecting a corpus's distinct characters.
    """

    def __init__(self, form: TrainingForm, corpus: Callable[[], Corpus | None]) -> None:
        self._form, self._corpus = form, corpus
        self._characters: tuple[Corpus | None, frozenset[str]] = (None, frozenset())
        self.job = LatestRequest(form)

    def forget(self, *_args: object) -> None:
        """The corpus's text changed (a file was read again): collect its characters anew."""
        self._characters = (None, frozenset())
        self.update()

    def update(self, *_args: object) -> None:
        """Show, hide or recompute the hint for the current algorithm, options and corpus."""
        form, corpus = self._form, self._corpus()
        if form.algorithm() != "wordpiece" or corpus is None or corpus.is_empty:
            form.vocab_hint.setVisible(False)
            return
        if self._characters[0] is corpus:
            self._show(self._characters[1])
            return
        form.vocab_hint.setVisible(False)
        texts = corpus.texts_in_memory()  # (a streamed corpus's sample: still a lower bound)

        def work(cancel: Callable[[], bool]) -> tuple[Corpus, frozenset[str]]:
            return corpus, frozenset(distinct_characters(texts, cancel))

        self.job.start(work, on_result=self._collected)

    def _collected(self, result: tuple[Corpus, frozenset[str]]) -> None:
        self._characters = result
        self.update()

    def _show(self, characters: frozenset[str]) -> None:
        form = self._form
        least, n = wordpiece_floor(form.request([], algorithm="wordpiece", vocab_size=1), characters)
        form.vocab_hint.setText(
            f"this corpus needs at least {least:,} ({least - n:,} characters + {n} special "
            f"{'token' if n == 1 else 'tokens'}; its words may need more)"
        )
        form.vocab_hint.setVisible(True)
