"""The corpus pane: the file list beside the training controls, and the training runs.

Training describes what to train as a :class:`~tokexplorer.core.training.TrainingRequest`
(from the :class:`TrainingForm`), checks the corpus first (empty, lossily
decoded text), runs :func:`~tokexplorer.core.training.train_iter` in a
:class:`~tokexplorer.gui.workers.Worker` (a byte-level BPE from files or a
word-count table in a child process, :mod:`tokexplorer.core.training_child`,
whose large tables would hold the interpreter lock) and publishes the model: a BPE
becomes ``AppState.bpe`` and the ``"bpe"`` compare column, a WordPiece
``AppState.wordpiece`` and the ``"wordpiece"`` column, a SentencePiece model
replaces the ``"sentencepiece"`` column.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QMessageBox, QSplitter, QVBoxLayout, QWidget

from tokexplorer.core.backends import VocabTooLargeError
from tokexplorer.core.backends.sentencepiece import too_large_note
from tokexplorer.core.errors import InputError
from tokexplorer.core.io import training_files
from tokexplorer.core.training import TrainingOutcome, TrainingRequest
from tokexplorer.core.training_child import train_iter_in_child
from tokexplorer.core.types import Progress
from tokexplorer.gui.panes.corpus_pane.dropping import accept_paths
from tokexplorer.gui.panes.corpus_pane.file_list import CorpusFileList
from tokexplorer.gui.panes.corpus_pane.training_form import TrainingForm, TrainingResult, algorithm_label
from tokexplorer.gui.panes.corpus_pane.vocab_hint import VocabHint
from tokexplorer.gui.state import AppState, corpus_name
from tokexplorer.gui.workers import Worker, guarded, user_message

if TYPE_CHECKING:
    from tokexplorer.core.io import Corpus


class CorpusPane(QWidget):
    """Corpus files, their encodings and problems, and the training controls.

    Args:
        state: the shared application state (``corpus``, ``bpe``, tokenizers).
        parent: Qt parent widget.

    Signals:
        corpus_loaded(object): a corpus was loaded and is now ``state.corpus``.
        load_failed(str): opening files failed entirely (one-line reason).
        file_reread(int): the file at this row was re-read with another encoding.
        training_started(str): training began (the algorithm key).
        training_progress(object): a :class:`Progress` of the running training.
        training_finished(object): a :class:`TrainingResult`.
        training_cancelled(): the user cancelled training.
        training_failed(str): training failed (one-line reason).

    Attributes:
        file_list: the :class:`CorpusFileList` (left).
        form: the :class:`TrainingForm` (right).
        vocab_hint: the :class:`VocabHint` under its vocab size (WordPiece).
        last_worker: the most recent training :class:`Worker` (or None).
        sample_note: what the last training started trained on when it was not
            the whole corpus (the sample of a streamed corpus), else ``""``.
        before_training: called with the algorithm before a training asked for
            with ``confirm`` starts; returning False stops it (the window asks
            there before an unsaved trained model is replaced). None: no call.
        settings_refused: True since the last Train was refused for the form's settings (a
            vocab size too small, or too large for SentencePiece), until a training with the
            form's vocab size starts; the window then does not remember them.
    """

    corpus_loaded = Signal(object)
    load_failed = Signal(str)
    file_reread = Signal(int)
    training_started = Signal(str)
    training_progress = Signal(object)
    training_finished = Signal(object)
    training_cancelled = Signal()
    training_failed = Signal(str)

    def __init__(self, state: AppState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.last_worker: Worker | None = None
        self.before_training: Callable[[str], bool] | None = None
        self.settings_refused = False
        self._running = ""  # algorithm of the training under way; "" when idle
        self._started = 0.0  # perf_counter() when the training under way started
        self.sample_note = ""  # what the training under way trains on when not the whole corpus
        self._sample = ""  # then the corpus's sample_note
        self._result = ("", (), "")  # the last training's message, and the files and name of its corpus
        self.setAcceptDrops(True)
        self._running_text = ""  # what train_message says while a training runs, before its time
        self._clock = QTimer(self)  # ticks each second while a training runs (the time it has taken)
        self._clock.setInterval(1000)
        self._clock.timeout.connect(self._tick)

        self.file_list = CorpusFileList(state)
        self.file_list.corpus_loaded.connect(self.corpus_loaded)
        self.file_list.corpus_loaded.connect(self._retell_result)
        self.file_list.load_failed.connect(self.load_failed)
        self.file_list.file_reread.connect(self.file_reread)
        self.file_list.error_reported.connect(self._report_error)
        self.form = TrainingForm()
        self.form.train_button.clicked.connect(self.start_training)
        self.form.cancel_button.clicked.connect(self.cancel_training)
        self.vocab_hint = VocabHint(self.form, lambda: self.corpus)
        self.file_list.corpus_loaded.connect(self.vocab_hint.update)
        self.file_list.file_reread.connect(self.vocab_hint.forget)
        for changed in (self.form.algorithm_combo.currentIndexChanged, self.form.pattern_combo.currentIndexChanged,
                        self.form.specials_edit.textChanged, self.form.lowercase_check.toggled,
                        self.form.accents_check.toggled):  # fmt: skip
            changed.connect(self.vocab_hint.update)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.file_list)
        splitter.addWidget(self.form)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.addWidget(splitter)

    # ================================================================= files
    @property
    def corpus(self) -> Corpus | None:
        """The corpus shown (see :attr:`CorpusFileList.corpus`)."""
        return self.file_list.corpus

    def open_files_dialog(self) -> None:
        """Ask for text files and load them as the corpus."""
        self.file_list.open_files_dialog()

    def open_folder_dialog(self) -> None:
        """Ask for a folder and load its text files as the corpus."""
        self.file_list.open_folder_dialog()

    def load_paths(self, paths: Iterable[str], *, notes: Sequence[str] = ()) -> Worker | None:
        """Read files and folders as the new corpus (see :meth:`CorpusFileList.load_paths`)."""
        return self.file_list.load_paths(paths, notes=notes)

    def set_corpus(self, corpus: Corpus | None) -> None:
        """Show ``corpus`` and make it ``state.corpus``."""
        self.file_list.set_corpus(corpus)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        accept_paths(event)

    def dropEvent(self, event: QDropEvent) -> None:
        paths = accept_paths(event)
        if paths:
            self.file_list.load_paths(paths)

    # ================================================================= training
    def is_training(self) -> bool:
        """True while a training worker runs."""
        return self._running != ""

    def show_message(self, text: str) -> None:
        """Show ``text`` under the training controls."""
        self.form.train_message.setText(text)

    def start_training(
        self,
        *,
        vocab_size: int | None = None,
        algorithm: str | None = None,
        auto_fit: bool = False,
        confirm: bool = True,
        allow_damaged: bool = False,
        fit_lines: bool = False,
        on_sample: bool = False,
        defaults: bool = False,
    ) -> Worker | None:
        """Validate the settings and train on the corpus in a worker.

        Args:
            vocab_size: overrides the vocab size box (the box keeps its value).
            algorithm: overrides the algorithm combo (``"bpe"``, ``"sp-bpe"``, ``"sp-unigram"``).
            auto_fit: for SentencePiece, train with the size it allows when the
                one asked for is too large or too small for the corpus, without asking.
            confirm: ask before training on lossily decoded text (U+FFFD), and
                call :attr:`before_training`; when False such text is refused
                and nothing is asked.
            allow_damaged: train on lossily decoded text without asking (the
                startup models on a corpus with a few undecodable bytes).
            fit_lines: for SentencePiece, raise ``max_sentence_length`` to the
                longest line (or skip the longest lines) and say so, instead of
                refusing long lines (``TrainingRequest.fit_lines``).
            on_sample: on a streamed corpus, train on its sample whatever the
                algorithm (quick: the startup's default models), said in the result.
            defaults: train with ``algorithm``'s own defaults, not the form's settings
                (``TrainingForm.request``; the startup models).

        Returns:
            The training :class:`Worker` (also :attr:`last_worker`), or None when
            the settings were refused (the reason is shown and put on ``state.error``).
        """
        if self.is_training():  # the bar keeps showing the training under way
            self._report_error("training is already running; cancel it first")
            return None
        corpus = self.corpus
        if corpus is None or corpus.is_empty:
            self._refuse("nothing to train on: the corpus is empty; open some text files first")
            return None
        if not allow_damaged and not self._damaged_text_accepted(corpus, confirm=confirm):
            return None
        algorithm = algorithm or self.form.algorithm()
        size = int(vocab_size if vocab_size is not None else self.form.vocab_spin.value())
        try:
            request = self._corpus_request(
                corpus, algorithm, size, fit_vocab=auto_fit, on_sample=on_sample, defaults=defaults
            )
            if fit_lines and request.algorithm != "bpe":
                request = replace(request, fit_lines=True)
            request.validate()
        except InputError as exc:
            self._refuse(str(exc), settings=True)
            return None
        if confirm and self.before_training is not None:
            self._ask()
            if not self.before_training(request.algorithm):
                self.form.set_refused()
                self.show_message("training not started: the model it would replace is kept")
                self.state.status.emit("training not started: the model it would replace is kept")
                return None
        return self._run(request)

    def _corpus_request(
        self, corpus: Corpus, algorithm: str, vocab_size: int, *, fit_vocab: bool, on_sample: bool, defaults: bool
    ) -> TrainingRequest:
        """The request to train on ``corpus`` by the one reading rule (the command
        line's too; damaged files were accepted before). A streamed corpus gives
        byte-level BPE its files, counted from disk as the command line does, and
        the other algorithms (which train in memory) its sample, said in the result
        (:attr:`sample_note`); each file is decoded with the codec it was read with.
        ``defaults``: the algorithm's own settings, not the form's (the startup models).
        """
        files = training_files(corpus, allow_damaged=True)[0]
        self.sample_note = self._sample = ""
        opts = {"algorithm": algorithm, "vocab_size": vocab_size, "fit_vocab": fit_vocab, "defaults": defaults}
        if not corpus.streamed:
            return self.form.request([f.text for f in files], **opts)
        if algorithm != "bpe" or on_sample:
            self.sample_note = f"trained on the corpus {corpus.sample_note} (the corpus is streamed)"
            self._sample = corpus.sample_note
            return self.form.request(corpus.texts_in_memory(), **opts)
        return replace(
            self.form.request([], **opts), files=[str(f.path) for f in files],
            encoding=["utf-8" if f.encoding == "utf-8-sig" else f.encoding for f in files],
            allow_damaged=any(f.lossy for f in files),
        )  # fmt: skip

    def train_from_counts(self, path: str) -> Worker | None:
        """Train a byte-level BPE from a word-count table file (``tokexplorer
        count``) in a worker, with the vocab size box; the table gives the
        pattern and special tokens. None when refused (the reason is shown)."""
        if self.is_training():  # the bar keeps showing the training under way
            self._report_error("training is already running; cancel it first")
            return None
        request = TrainingRequest(algorithm="bpe", vocab_size=int(self.form.vocab_spin.value()), word_counts=path)
        self.sample_note = ""
        try:
            request.validate()
        except InputError as exc:
            self._refuse(str(exc), settings=True)
            return None
        return self._run(request)

    def _damaged_text_accepted(self, corpus: Corpus, *, confirm: bool) -> bool:
        """True when the corpus has no lossily decoded file or the user agrees to
        train on it anyway (asked only when ``confirm``); else the refusal is reported."""
        lossy = corpus.lossy_files
        if not lossy:
            return True
        names = ", ".join(os.path.basename(str(f.path)) for f in lossy[:3])
        more = f" and {len(lossy) - 3} more" if len(lossy) > 3 else ""
        question = (
            f"{names}{more} could not be decoded exactly: the text holds U+FFFD replacement "
            "characters (�) where bytes were lost. Re-read them with the right encoding, "
            "or train on the damaged text anyway?"
        )
        if confirm:
            self._ask()
            if self._confirm("Train on damaged text?", question):
                return True
        self._refuse("training refused: the corpus holds lossily decoded text (U+FFFD)")
        return False

    def _run(self, request: TrainingRequest) -> Worker:
        worker = Worker(lambda cancel: train_iter_in_child(request, cancel=cancel))  # files: in a child process
        worker.signals.progress.connect(self._on_train_progress)
        worker.signals.returned.connect(guarded(self, lambda outcome: self._on_trained(request, outcome)))
        worker.signals.errored.connect(guarded(self, lambda exc: self._on_train_error(request, exc)))
        worker.signals.cancelled.connect(self._on_train_cancelled)
        self.last_worker = worker
        if request.vocab_size == self.form.vocab_spin.value():  # the form's settings train (not a fitted size)
            self.settings_refused = False
        self._started = time.perf_counter()
        self.form.set_busy()
        self._running = request.algorithm
        text = self._running_text = f"training {algorithm_label(request.algorithm)}, vocab {request.vocab_size:,}…"
        self.form.train_message.setText(text)
        self.state.status.emit(text)
        self._clock.start()
        self.training_started.emit(request.algorithm)
        worker.start()
        return worker

    def cancel_training(self) -> None:
        """Ask the running training to stop (the UI returns to idle when it has)."""
        if self.last_worker is not None and not self.last_worker.done:
            self.last_worker.cancel()
            self.form.set_cancelling()

    def _set_idle(self) -> None:
        self.form.set_idle()
        self._running = ""
        self._clock.stop()

    def _tick(self) -> None:
        """Say how long the training under way has run (SentencePiece reports no stages)."""
        if self._running:
            seconds = int(time.perf_counter() - self._started)
            self.form.train_message.setText(f"{self._running_text} {seconds} s")

    def _on_train_progress(self, p: Progress) -> None:
        if not self._running:
            return
        self.form.show_progress(p)
        if p.phase == "merging" and isinstance(p.detail, list):
            self.state.training_merges.emit(p.detail)
        self.training_progress.emit(p)

    def _on_trained(self, request: TrainingRequest, outcome: TrainingOutcome) -> None:
        seconds = time.perf_counter() - self._started
        self._set_idle()
        tok = outcome.tokenizer
        if request.word_counts is not None:  # its columns say so (before they are made)
            self.state.set_trained_on(tok, name=_counts_name(request.word_counts), files=(request.word_counts,))
        elif self.corpus is not None:
            self.state.set_trained_on(tok, name=corpus_name(self.corpus), files=_files_of(self.corpus))
        if outcome.bpe is not None:
            result = TrainingResult(
                algorithm="bpe",
                model=outcome.bpe,
                tokenizer=tok,
                report=outcome.report,
                message=f"{outcome.summary}; {seconds:.1f} s",
                vocab_size=request.vocab_size,
            )
            self.state.set_bpe(outcome.bpe)
            self.state.replace_tokenizer("bpe", tok)
            if request.word_counts is not None:  # the table's pattern, not the box's: the box says it
                self.form.pattern_combo.setCurrentIndex(self.form.pattern_combo.findData(outcome.bpe.pattern_name))
        elif outcome.wordpiece is not None:
            result = TrainingResult(
                algorithm="wordpiece",
                model=outcome.wordpiece,
                tokenizer=tok,
                report=outcome.report,
                message=outcome.summary,
                vocab_size=outcome.vocab_size,
            )
            self.state.set_wordpiece(outcome.wordpiece)
            self.state.replace_tokenizer("wordpiece", tok)
        else:
            notes = list(outcome.notes)
            # what was trained is said after the note of a fitted size (always the first note)
            notes.insert(int(outcome.vocab_size != request.vocab_size), f"trained {tok.description} in {seconds:.1f} s")
            result = TrainingResult(
                algorithm=request.algorithm,
                model=tok,
                tokenizer=tok,
                message="; ".join(notes),
                vocab_size=outcome.vocab_size,
                notes=notes,
            )
            self.state.replace_tokenizer("sentencepiece", tok)
        if self.sample_note:
            result.message += f"; {self.sample_note}"
            result.notes += [self.sample_note] * bool(result.notes)
        self.form.set_done(seconds)
        self.form.train_message.setText(result.message)
        corpus = self.corpus
        if request.word_counts is not None:
            self._result = (result.message, (request.word_counts,), _counts_name(request.word_counts))
        elif corpus is not None:
            self._result = (result.message, _files_of(corpus), corpus_name(corpus))
        self.state.status.emit(result.message)
        self.training_finished.emit(result)

    def _retell_result(self, corpus: Corpus) -> None:
        """Another corpus was opened: the last training's message, still shown, names
        the corpus it was trained on (the same files again: the message as it was)."""
        message, files, name = self._result
        shown = self.form.train_message.text()
        if not message or shown not in (message, _stale(name, message)):
            return
        self.form.train_message.setText(message if _files_of(corpus) == files else _stale(name, message))

    def _on_train_error(self, request: TrainingRequest, exc: BaseException) -> None:
        self._set_idle()
        if isinstance(exc, VocabTooLargeError):
            self._offer_sp_limit(request, exc.max_vocab_size)
            return
        message = user_message(exc)
        self.form.progress.setFormat("failed")
        self._report_error(f"training failed: {message}")
        self.training_failed.emit(message)

    def _offer_sp_limit(self, request: TrainingRequest, limit: int) -> None:
        """SentencePiece found too few pieces (vocabulary too large for the corpus, or
        for the sample of a streamed one it trained on): offer to train with its maximum."""
        note = too_large_note(request.vocab_size, limit, sample=self._sample)
        self.settings_refused = True  # that size does not train (a fitted one may)
        if limit > 0:
            self._ask(f"{note}: train with {limit:,}?")
        if limit > 0 and self._confirm("Vocabulary too large", f"{note}. Train with {limit:,}?"):
            self.state.status.emit(f"{note}: training with {limit:,}")
            if self.start_training(vocab_size=limit, algorithm=request.algorithm) is not None:
                self.form.train_message.setText(f"{note}: training with {limit:,}…")
                return
        self.form.set_refused()
        self._report_error(note)
        self.training_failed.emit(note)

    def _on_train_cancelled(self) -> None:
        self._set_idle()
        self.form.progress.setFormat("cancelled")
        self.form.train_message.setText("training cancelled")
        self.state.status.emit("training cancelled")
        self.training_cancelled.emit()

    # ================================================================= messages
    def _confirm(self, title: str, text: str) -> bool:
        """Ask a yes/no question (tests replace this method)."""
        answer = QMessageBox.question(
            self,
            title,
            text,
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
        )
        return answer == QMessageBox.StandardButton.Yes

    def _ask(self, question: str = "") -> None:
        """A question about the training is about to be asked: the bar, and the message and the
        status line when ``question`` is given, say so until it is answered."""
        self.form.set_asking()
        if question:
            self.form.train_message.setText(f"{question} (waiting for your answer)")
            self.state.status.emit(f"{question} (waiting for your answer)")

    def _refuse(self, message: str, *, settings: bool = False) -> None:
        """Train refused before it started: the bar says "not trained" (not the last training's
        "done in 0.1 s"), the message why; ``settings``: refused for the form's settings
        (:attr:`settings_refused`)."""
        self.settings_refused = self.settings_refused or settings
        self.form.set_refused()
        self._report_error(message)

    def _report_error(self, message: str) -> None:
        self.form.train_message.setText(message)
        self.state.error.emit(message)

    def inline_message(self) -> str:
        """The message under the training controls (the window shows no dialog for an error
        already said there while this tab is in view)."""
        return self.form.train_message.text()


def _files_of(corpus: Corpus) -> tuple[str, ...]:
    return tuple(str(f.path) for f in corpus.files)


def _stale(name: str, message: str) -> str:
    """The message of a training on an earlier corpus (or a word-count table), once another is shown."""
    if name.startswith(_COUNTS):
        return f"Trained on {name}, not on this corpus: {message}"
    return f"Trained on the previous corpus, {name}, not on this one: {message}"


_COUNTS = "the word counts "


def _counts_name(path: str) -> str:
    """A word-count table named for a message: ``"the word counts corpus.counts"``."""
    return _COUNTS + os.path.basename(path)
