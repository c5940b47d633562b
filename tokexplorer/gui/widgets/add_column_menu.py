"""The compare pane's "Add column" menu: where a new column's tokenizer comes from.

Entries: the tiktoken encodings (the ones that cannot be loaded here listed with
the reason), a ``.tiktoken`` ranks file, a tiktoken cache folder, a BPE model, a
SentencePiece ``.model``, a Hugging Face ``tokenizer.json``, or a SentencePiece
model trained on the corpus. Every
tokenizer is loaded in a :class:`~tokexplorer.gui.workers.Worker`; a loaded one is
announced by :attr:`AddColumnMenu.tokenizer_ready`, a failure goes to
``AppState.error``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QMenu, QToolButton, QWidget

from tokexplorer.core.backends import Tokenizer
from tokexplorer.gui import file_dialogs
from tokexplorer.gui.dialogs.sp_train import SPTrainDialog
from tokexplorer.gui.state import AppState
from tokexplorer.gui.workers import Worker, file_message, guarded, user_message


class AddColumnMenu(QMenu):
    """The menu of the "Add column" button (filled each time it is shown).

    Args:
        state: the shared :class:`AppState` (status and error lines, the corpus the
            SentencePiece training dialog trains on).
        tiktoken_loader: ``name -> Tokenizer`` for the tiktoken entries (runs on a
            worker thread).
        parent: the pane; file dialogs and the training dialog open over it.

    Signals:
        tokenizer_ready(object): a :class:`Tokenizer` was loaded or trained for a new column.

    Attributes:
        tiktoken_status: ``(encoding name, reason it cannot be loaded or None)`` per
            tiktoken encoding, or None until checked.
        pattern_dialog: the last :class:`~tokexplorer.gui.dialogs.pattern.PatternDialog`
            opened for a rank file without a known pattern, or None.
    """

    tokenizer_ready = Signal(object)

    def __init__(
        self, state: AppState, tiktoken_loader: Callable[[str], Tokenizer], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state
        self._tiktoken_loader = tiktoken_loader
        self.tiktoken_status: list[tuple[str, str | None]] | None = None
        self.pattern_dialog: QDialog | None = None
        self.aboutToShow.connect(self.fill)

    def fill(self) -> None:
        """Rebuild the entries (the tiktoken ones from :attr:`tiktoken_status`, checked on first use)."""
        self.clear()
        sub = self.addMenu("tiktoken encoding")
        if self.tiktoken_status is None:
            act = sub.addAction("checking which encodings load…")
            act.setEnabled(False)
            self.refresh_tiktoken_status()
        else:
            for name, reason in self.tiktoken_status:
                if reason is None:
                    sub.addAction(name, partial(self.add_tiktoken, name))
                else:
                    act = sub.addAction(f"{name} — unavailable: {reason}")
                    act.setEnabled(False)
                    act.setToolTip(reason)
        self.addAction("tiktoken ranks file (.tiktoken)…", self._ask_tiktoken_file)
        self.addAction("tiktoken cache folder…", self._ask_cache_dir)
        self.addSeparator()
        self.addAction("BPE model file…", partial(self._ask_model, "bpe"))
        self.addAction("SentencePiece model (.model)…", partial(self._ask_model, "sp"))
        self.addAction("Hugging Face tokenizer (tokenizer.json)…", partial(self._ask_model, "hf"))
        self.addAction("Train SentencePiece on the corpus…", self.open_sp_train_dialog)

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
        worker.start()
        return worker

    def _on_tiktoken_status(self, status: list[tuple[str, str | None]]) -> None:
        self.tiktoken_status = list(status)
        ok = sum(1 for _n, r in status if r is None)
        self.state.status.emit(f"tiktoken: {ok} of {len(status)} encodings can be loaded here")

    def add_tiktoken(self, name: str) -> Worker:
        """Load tiktoken encoding ``name`` in a worker for a new column."""
        loader = self._tiktoken_loader
        return self._load_column(lambda: loader(name), name)

    def add_spec(self, spec: str, pattern: str | None = None) -> Worker:
        """Load a tokenizer SPEC (``bpe:PATH``, ``sp:PATH``, ``hf:PATH``, ``tiktoken-file:PATH``...)
        in a worker for a new column; a failure goes to ``state.error``, except a
        rank file that needs a split pattern: :attr:`pattern_dialog` asks for it
        and the SPEC is loaded again with ``pattern``."""
        from tokexplorer.core.backends import load_tokenizer

        retry = partial(self.add_spec, spec)
        load = partial(load_tokenizer, spec, pattern=pattern)
        return self._load_column(load, spec, retry, path=spec.partition(":")[2])

    def _load_column(
        self,
        load: Callable[[], Tokenizer],
        what: str,
        retry: Callable[[str], object] | None = None,
        *,
        path: str = "",
    ) -> Worker:
        """Load a column's tokenizer in a worker; ``path``: the file it is read from
        (announced on ``state.model_file_opened`` once it loaded), "" for none."""
        worker = Worker(lambda cancel: load())
        worker.signals.returned.connect(self.tokenizer_ready)
        # after its column is added (named there): "loading …" is no longer true
        added = guarded(self, lambda tok: self.state.status.emit(f"added the column {tok.name}"))
        worker.signals.returned.connect(added)
        if path:
            worker.signals.returned.connect(guarded(self, lambda _tok: self.state.model_file_opened.emit(path)))
        worker.signals.errored.connect(guarded(self, lambda exc: self._on_failed(what, exc, retry)))
        self.state.status.emit(f"loading {what}…")
        worker.start()
        return worker

    def _on_failed(self, what: str, exc: BaseException, retry: Callable[[str], object] | None) -> None:
        from tokexplorer.core.backends import PatternNeededError

        if retry is None or not isinstance(exc, PatternNeededError):
            self.state.error.emit(file_message(what, exc))
            return
        from tokexplorer.gui.dialogs.pattern import PatternDialog

        dialog = PatternDialog(os.path.basename(what.partition(":")[2] or what), self.parentWidget())
        dialog.accepted.connect(lambda: retry(dialog.pattern()))
        self.pattern_dialog = dialog
        dialog.open()

    def _ask_tiktoken_file(self) -> None:
        path = file_dialogs.open_file(
            self.parentWidget(), "Open a .tiktoken ranks file", "tiktoken ranks (*.tiktoken);;All files (*)"
        )
        if path:
            self.add_spec(f"tiktoken-file:{path}")

    def _ask_cache_dir(self) -> None:
        path = QFileDialog.getExistingDirectory(
            self.parentWidget(),
            "tiktoken cache folder",
            os.environ.get("TIKTOKEN_CACHE_DIR") or file_dialogs.last_folder(),
        )
        if path:
            self.tiktoken_status = None
            self.refresh_tiktoken_status(path)

    def _ask_model(self, kind: str) -> None:
        if kind == "sp":
            filt = "SentencePiece models (*.model);;All files (*)"
        elif kind == "hf":
            filt = "Hugging Face tokenizers (*.json);;All files (*)"
        else:
            filt = "tokexplorer BPE (*.bpe *.txt);;All files (*)"
        path = file_dialogs.open_file(self.parentWidget(), "Open a tokenizer model", filt)
        if path:
            self.add_spec(f"{kind}:{path}")

    def open_sp_train_dialog(self) -> SPTrainDialog:
        """Open the SentencePiece training dialog on the corpus (the sample text
        when no corpus is loaded); the trained model is announced by :attr:`tokenizer_ready`."""
        corpus = self.state.corpus
        texts = corpus.texts_in_memory() if corpus is not None else []  # a streamed corpus: its sample
        if not texts:
            texts = [self.state.sample_text]
        dlg = SPTrainDialog(texts, self.parentWidget(), sample_note=corpus.sample_note if corpus is not None else "")
        dlg.trained.connect(self.tokenizer_ready)
        dlg.trained.connect(self.state.model_trained)  # after its column is added: not saved yet
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)
        dlg.open()
        return dlg


def menu_button(text: str, menu: QMenu, parent: QWidget) -> QToolButton:
    """A tool button that opens ``menu`` on click, with ``text`` (ending in its own
    ``▾``: the style's menu arrow overlaps the text of a QToolButton, so it is hidden)."""
    button = QToolButton(parent)
    button.setText(text)
    button.setStyleSheet("QToolButton::menu-indicator { image: none; width: 0px; }")
    button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    button.setMenu(menu)
    return button
