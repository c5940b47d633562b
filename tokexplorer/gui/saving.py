"""Nothing lost: the tokenizers trained in the window that are not saved yet, saving
them, and the question asked before they would be lost.

:class:`SaveGuard` (``window.saving``) keeps the models trained in the window
since they were last saved: a BPE or a WordPiece trained with the Corpus tab's
Train (our :class:`~tokexplorer.core.bpe.BPE`, our
:class:`~tokexplorer.core.wordpiece.WordPiece`) or a SentencePiece model trained
there or in the Compare tab's training dialog (announced on ``AppState.model_trained``).
The default models trained when the window opens do not count: they are trained
again on every start. A model leaves the list when it is saved (its format, a
``.tiktoken`` or ``tokenizer.json`` export, a SentencePiece ``.model``, a
``.wordpiece`` file or BERT ``vocab.txt``), when
it is discarded at the question, or when it is no longer shown (its column was
removed).

Before such a model would be lost — quitting (Ctrl+Q, File ▸ Quit, closing the
window), training a new model of its kind, opening a BPE model in its place —
the guard asks **Save / Discard / Cancel** with ``QMessageBox.question``; Save
asks where with ``QFileDialog.getSaveFileName`` (in the last folder used) and writes the file at once
(a trained vocabulary is written in well under a second).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox

from tokexplorer.core.backends import BPETokenizer, SentencePieceTokenizer, Tokenizer, WordPieceTokenizer
from tokexplorer.core.bpe import BPE
from tokexplorer.core.errors import TokexplorerError
from tokexplorer.core.wordpiece import WordPiece
from tokexplorer.gui import file_dialogs
from tokexplorer.gui.dialogs.export import ExportDialog, run_export
from tokexplorer.gui.workers import user_message

#: The formats of :meth:`ModelSaving.write` that open again as the same model (our own files,
#: SentencePiece's ``.model``); the others are exports, read as another library's tokenizer.
NATIVE_FORMATS = frozenset({"bpe", "sp", "wordpiece"})

if TYPE_CHECKING:
    from tokexplorer.gui.main_window import MainWindow
    from tokexplorer.gui.panes.corpus_pane import TrainingResult

#: Save-dialog filter -> format, for a BPE (our format, then the export formats one file holds).
BPE_SAVE_FILTERS: dict[str, str] = {
    "tokexplorer BPE (*.bpe)": "bpe",
    "tiktoken ranks + JSON sidecar (*.tiktoken)": "tiktoken",
    "Hugging Face tokenizer.json (*.json)": "tokenizer.json",
}
#: Save-dialog filter of a SentencePiece model.
SP_SAVE_FILTER = "SentencePiece model (*.model)"
#: Save-dialog filter -> format, for a WordPiece (our file; BERT's vocab.txt holds a ``bert`` one only).
WORDPIECE_SAVE_FILTERS: dict[str, str] = {
    "tokexplorer WordPiece (*.wordpiece)": "wordpiece",
    "BERT vocab.txt (*.txt)": "vocab.txt",
}

_Model = BPE | WordPiece | SentencePieceTokenizer
_BUTTONS = QMessageBox.StandardButton


def model_label(model: _Model) -> str:
    """How the question names a model: ``"custom BPE (BPE, vocab 512)"``; a SentencePiece
    model by its name and number of pieces."""
    if isinstance(model, BPE):
        return f"{model.name} (BPE, vocab {model.vocab_size:,})"
    if isinstance(model, WordPiece):
        return f"{model.name} (WordPiece, vocab {model.vocab_size:,})"
    return f"{model.name} ({model.vocab_size:,} pieces)"


class SaveGuard(QObject):
    """The unsaved trained models of a window, and the questions before losing them.

    Args:
        window: the :class:`~tokexplorer.gui.main_window.MainWindow`.

    Signals:
        saved(object, object): a model (BPE or SentencePieceTokenizer) and the
            list of paths (str) it was written to.

    Attributes:
        unsaved: the trained models not saved yet, oldest first.
        export_dialog: the last :class:`ExportDialog` opened (or None).
    """

    saved = Signal(object, object)

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.state = window.state
        self.unsaved: list[_Model] = []
        self.export_dialog: ExportDialog | None = None
        self._startup_training = False
        pane = window.corpus_pane
        pane.training_started.connect(self._on_training_started)
        pane.training_finished.connect(self._on_training_finished)
        pane.before_training = self._before_training
        self.state.model_trained.connect(self.mark_unsaved)
        self.state.bpe_changed.connect(lambda _bpe: self._forget_gone())
        self.state.tokenizers_changed.connect(self._forget_gone)

    # ================================================================= tracking
    def mark_unsaved(self, model: _Model) -> None:
        """Count ``model`` (a BPE or a SentencePieceTokenizer) as trained and not saved."""
        if all(m is not model for m in self.unsaved):
            self.unsaved.append(model)

    def is_unsaved(self, model: object) -> bool:
        """True when ``model`` is one of :attr:`unsaved`."""
        return any(m is model for m in self.unsaved)

    def forget(self, model: object) -> None:
        """Stop counting ``model`` as unsaved (saved, or discarded by the user)."""
        self.unsaved = [m for m in self.unsaved if m is not model]

    def _on_training_started(self, _algorithm: str) -> None:
        self._startup_training = self._window.startup.training_defaults

    def _on_training_finished(self, result: TrainingResult) -> None:
        if not self._startup_training:
            model = result.model
            self.mark_unsaved(model if isinstance(model, BPE | WordPiece) else result.tokenizer)

    def _shown(self) -> list[object]:
        shown: list[object] = [self.state.bpe, self.state.wordpiece]
        for t in self.state.tokenizers:
            shown.append(t)
            if isinstance(t, BPETokenizer):
                shown.append(t.bpe)
            elif isinstance(t, WordPieceTokenizer):
                shown.append(t.wordpiece)
        return shown

    def _forget_gone(self) -> None:
        shown = self._shown()
        self.unsaved = [m for m in self.unsaved if any(m is s for s in shown)]

    # ================================================================= questions
    def confirm_quit(self) -> bool:
        """Before quitting: True when nothing unsaved is left (saved or discarded),
        False when the user cancelled (the window stays open)."""
        return self._confirm(list(self.unsaved), "Quit tokexplorer", "Quitting loses")

    def confirm_replace(self, family: str, *, by: str) -> bool:
        """Before the model of ``family`` (``"bpe"``: the merge table's BPE;
        ``"sentencepiece"``: the first SentencePiece column) is replaced by ``by``
        (what replaces it, in words): True to go on, False when the user cancelled."""
        if family == "bpe":
            old: object = self.state.bpe
        elif family == "wordpiece":
            old = self.state.wordpiece
        else:
            old = next((t for t in self.state.tokenizers if t.family == family), None)
        if old is None or not self.is_unsaved(old):
            return True
        return self._confirm([old], "Replace the model", f"{by[:1].upper()}{by[1:]} replaces")

    def _before_training(self, algorithm: str) -> bool:
        family = algorithm if algorithm in ("bpe", "wordpiece") else "sentencepiece"
        what = {"bpe": "BPE", "wordpiece": "WordPiece"}.get(family, "SentencePiece model")
        return self.confirm_replace(family, by=f"training a new {what}")

    def _confirm(self, models: list, title: str, consequence: str) -> bool:
        if not models:
            return True
        names = "; ".join(model_label(m) for m in models)
        one = len(models) == 1
        text = (
            f"{'This tokenizer was' if one else 'These tokenizers were'} trained here and "
            f"{'is' if one else 'are'} not saved: {names}. {consequence} {'it' if one else 'them'}. "
            f"Save {'it' if one else 'them'} first?"
        )
        answer = QMessageBox.question(
            self._window, title, text, _BUTTONS.Save | _BUTTONS.Discard | _BUTTONS.Cancel, _BUTTONS.Save
        )
        if answer == _BUTTONS.Save:
            return all(self.save_model(m) for m in models)  # stops at the first one not saved
        if answer == _BUTTONS.Discard:
            for m in models:
                self.forget(m)
            return True
        return False

    # ================================================================= saving
    def save_model(self, model: _Model) -> bool:
        """Ask where to save ``model`` and write it: a BPE in our format, as a
        ``.tiktoken`` rank file + sidecar or as ``tokenizer.json`` (chosen by the
        dialog's file type); a SentencePiece model as its ``.model`` bytes.
        False when the user cancelled or writing failed (the reason is on ``state.error``)."""
        title = f"Save {self.state.name_of(model) if isinstance(model, BPE | WordPiece) else model.name}"
        if isinstance(model, BPE):
            path, chosen = file_dialogs.save_file(
                self._window, title, self.file_name(model, ".bpe"), ";;".join(BPE_SAVE_FILTERS)
            )
            fmt = BPE_SAVE_FILTERS.get(chosen, "bpe")
        elif isinstance(model, WordPiece):
            path, chosen = file_dialogs.save_file(
                self._window, title, self.file_name(model, ".wordpiece"), ";;".join(WORDPIECE_SAVE_FILTERS)
            )
            fmt = WORDPIECE_SAVE_FILTERS.get(chosen, "wordpiece")
        else:
            path, _ = file_dialogs.save_file(self._window, title, self.file_name(model, ".model"), SP_SAVE_FILTER)
            fmt = "sp"
        return bool(path) and self.write(model, fmt, path)

    def write(self, model: _Model, fmt: str, path: str) -> bool:
        """Write ``model`` at ``path`` in ``fmt`` (``"bpe"``, ``"sp"``, ``"wordpiece"``,
        ``"vocab.txt"``, or an export format
        of :data:`~tokexplorer.gui.dialogs.export.EXPORT_FORMATS`) now; True on success
        (then it no longer counts as unsaved and :attr:`saved` is emitted)."""
        from tokexplorer.core.io import config_replacement_note, save_bpe, save_wordpiece, write_vocab_txt

        replaced: str | None = None
        try:
            if isinstance(model, SentencePieceTokenizer):
                model.save(path)
                written = [Path(path)]
            elif isinstance(model, WordPiece):
                if fmt == "vocab.txt":
                    replaced = config_replacement_note(model, path)
                    written = list(write_vocab_txt(model, path))
                else:
                    save_wordpiece(model, path)
                    written = [Path(path)]
            elif fmt == "bpe":
                save_bpe(model, path)
                written = [Path(path)]
            else:
                written = run_export(model, fmt, path, name=self.state.name_of(model), source=self.source_of(model))
        except (TokexplorerError, OSError) as exc:
            self.state.error.emit(f"could not save {os.path.basename(path)}: {user_message(exc)}")
            return False
        # vocab.txt: another vocab.txt's settings may have been there (replaced says so)
        self.mark_saved(model, [str(p) for p in written], native=fmt in NATIVE_FORMATS, also=replaced)
        return True

    def mark_saved(self, model: object, paths: list[str], *, native: bool = True, also: str | None = None) -> None:
        """``model`` was written to ``paths``: it no longer counts as unsaved, it is named by
        its file (:meth:`name_by_file`; ``native``: in our own format, else an export); says
        where (and ``also``, a note of the writing, after it)."""
        self.forget(model)
        if paths:
            file_dialogs.remember_folder(paths[0])  # however it was saved, the next dialog starts there
        before = self._name(model)
        self.name_by_file(model, paths, native=native)
        said = f"saved {self._name(model) if native else before} to {', '.join(paths)}"
        self.state.status.emit(f"{said}; {also}" if also else said)
        self.saved.emit(model, paths)

    def _name(self, model: object) -> str:
        return self.state.name_of(model) if isinstance(model, BPE | WordPiece) else getattr(model, "name", "")

    def holder(self, model: object) -> Tokenizer | None:
        """The compare column showing ``model`` (a BPE, a WordPiece or a tokenizer), or None."""
        for t in self.state.tokenizers:
            if t is model or isinstance(t, BPETokenizer) and t.bpe is model:
                return t
            if isinstance(t, WordPieceTokenizer) and t.wordpiece is model:
                return t
        return None

    def source_of(self, model: object) -> str | None:
        """The file ``model``'s column was opened from or last saved to (absolute), None for
        a model trained here and never saved (what an export's sidecar records as its source)."""
        tok = self.holder(model)
        return None if tok is None or tok.source_file is None else str(tok.source_file)

    def name_by_file(self, model: object, paths: list[str], *, native: bool = True) -> None:
        """Name ``model`` by the first file of ``paths`` everywhere at once (every pane follows
        ``tokenizers_changed``). Written in our own format (``native``), that file opens it
        again under the same name: its column takes the file as its source (``"gui.bpe
        (BPE)"``). Exported (``tokenizer.json``, ``.tiktoken``, ``vocab.txt``), the file opens
        as another library's tokenizer: a model trained here keeps its name and says where
        it was saved (``"custom BPE · saved as tokenizer.json"``), one opened from a file
        keeps that file's name."""
        tok = self.holder(model)
        if tok is None or not paths:
            return
        if native:
            tok.source_file, tok.saved_as = Path(paths[0]).absolute(), None
        elif tok.source_file is None:
            tok.saved_as = Path(paths[0]).absolute()
        self.state.set_tokenizers(list(self.state.tokenizers))

    def file_name(self, model: object, suffix: str) -> str:
        """The file name a save dialog proposes for ``model``: the name of the file it was
        saved to or opened from (its stem, then ``suffix``), else its own name's."""
        tok = self.holder(model)
        known = None if tok is None else tok.source_file or tok.saved_as
        if known is not None and known.name.split(".")[0]:
            stem = known.name.split(".")[0]
        else:
            name = model.name if isinstance(model, BPE | WordPiece | Tokenizer) else "model"
            stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in name)
        return f"{stem or 'model'}{suffix}"

    def save_sentencepiece_dialog(self) -> bool:
        """File ▸ Save SentencePiece model…: the unsaved trained one, else the first column's."""
        sp = next((m for m in self.unsaved if isinstance(m, SentencePieceTokenizer)), None)
        if sp is None:
            sp = next((t for t in self.state.tokenizers if isinstance(t, SentencePieceTokenizer)), None)
        if sp is None:
            self.state.error.emit("no SentencePiece model to save: train one first (Corpus tab)")
            return False
        return self.save_model(sp)

    def save_wordpiece_dialog(self) -> bool:
        """File ▸ Save WordPiece…: the WordPiece of the WordPiece tab (as our ``.wordpiece``
        file or BERT's ``vocab.txt``, by the dialog's file type)."""
        wp = self.state.wordpiece
        if wp is None:
            self.state.error.emit("no WordPiece to save: train one first (Corpus tab, algorithm WordPiece)")
            return False
        return self.save_model(wp)

    def open_export_dialog(self) -> ExportDialog | None:
        """File ▸ Export tokenizer…: the :class:`ExportDialog` for ``state.bpe`` (None, with
        the reason on ``state.error``, when there is no byte-level BPE)."""
        bpe = self.state.bpe
        if bpe is None:
            self.state.error.emit(
                "nothing to export: train a byte-level BPE (Corpus tab) or open one; "
                "SentencePiece models are saved with File ▸ Save SentencePiece model"
            )
            return None
        dlg = ExportDialog(
            bpe, self._window, folder=file_dialogs.last_folder(), name=self.state.name_of(bpe),
            stem=self.file_name(bpe, ""), source=self.source_of(bpe),
        )  # fmt: skip
        dlg.exported.connect(lambda fmt, paths, b=bpe, d=dlg: self._on_exported(b, fmt, paths, d.created))
        self.export_dialog = dlg
        dlg.open()
        return dlg

    def _on_exported(self, bpe: BPE, fmt: str, paths: list[str], created: str = "") -> None:
        self.forget(bpe)
        if paths:
            file_dialogs.remember_folder(paths[0])
        before = self.state.name_of(bpe)
        self.name_by_file(bpe, paths, native=False)
        said = f"exported {before} as {fmt}: {', '.join(paths)}"
        self.state.status.emit(f"{said}; {created}" if created else said)
        self.saved.emit(bpe, paths)
