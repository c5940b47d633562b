"""The SentencePiece family: ``.model`` files opened through the ``sentencepiece``
library (:mod:`.tokenizer`; its vocabulary as tables by id, :mod:`.vocab`; the counting
paths, :mod:`.counting`, with the pieces as numpy columns, :mod:`.columns` and
:mod:`.spans`), its protobuf messages read without ``protobuf``
(:mod:`.proto`), what its normalizer changed (:mod:`.normalization`), and
in-memory training (:mod:`.training`) with the options spelled once
(:mod:`.options`), a check beforehand (:mod:`.check`) and errors that carry the
numbers to fix a request (:mod:`.errors`).
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "SPTrainingCheck": "check",
    "check_sentencepiece_training": "check",
    "LinesTooLongError": "errors",
    "VocabTooLargeError": "errors",
    "too_large_note": "errors",
    "VocabTooSmallError": "errors",
    "PieceColumns": "columns",
    "describe_normalization": "normalization",
    "NORMALIZATION_RULES": "options",
    "SentencePieceOptions": "options",
    "coverage_problem": "options",
    "ModelInfo": "proto",
    "WS": "proto",
    "parse_model_info": "proto",
    "user_defined_ids": "proto",
    "SampledSentencePieceTokenizer": "sampling",
    "SentencePieceTokenizer": "tokenizer",
    "PieceTable": "vocab",
    "CHILD_TRAIN_CHARS": "training",
    "train_sentencepiece": "training",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
