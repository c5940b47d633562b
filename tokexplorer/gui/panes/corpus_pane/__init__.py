"""The corpus pane: open training files, check how they were decoded, train.

The user opens files or a folder (buttons, the File menu, or drag and drop);
each file is listed with its size, encoding (guessed or not, BOM), line
endings, characters and lines. A file whose encoding was guessed or is wrong
can be re-read with another encoding. Files that were refused (binary, empty,
undecodable) are listed under *Problems*, never dropped silently.

The training controls train our byte-level BPE or a SentencePiece model on the
corpus in a :class:`~tokexplorer.gui.workers.Worker`, with a progress bar and
Cancel. A trained BPE becomes ``AppState.bpe`` (the merge table) and the
``"bpe"`` compare column; a SentencePiece model replaces the
``"sentencepiece"`` column.

Modules: :mod:`.file_list` (loading and the file table), :mod:`.training_form`
(the training settings and progress), :mod:`.pane` (the pane composing them
and running the training).
"""

from __future__ import annotations

from tokexplorer.gui.panes.corpus_pane.dropping import accept_paths, paths_from_mime
from tokexplorer.gui.panes.corpus_pane.file_list import ENCODING_CHOICES, CorpusFileList
from tokexplorer.gui.panes.corpus_pane.pane import CorpusPane, TrainingResult
from tokexplorer.gui.panes.corpus_pane.training_form import ALGORITHMS, TrainingForm, parse_special_tokens

__all__ = [
    "ALGORITHMS",
    "ENCODING_CHOICES",
    "CorpusFileList",
    "CorpusPane",
    "TrainingForm",
    "TrainingResult",
    "parse_special_tokens",
    "accept_paths",
    "paths_from_mime",
]
