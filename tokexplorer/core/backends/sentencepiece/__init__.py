"""The SentencePiece family: ``.model`` files opened through the ``sentencepiece``
library (:mod:`.tokenizer`), its protobuf messages read without ``protobuf``
(:mod:`.proto`), what its normalizer changed (:mod:`.normalization`), and
in-memory training with a check beforehand (:mod:`.training`, :mod:`.errors`).
"""

from __future__ import annotations

from tokexplorer.core.backends.sentencepiece.errors import (
    LinesTooLongError,
    VocabTooLargeError,
    VocabTooSmallError,
)
from tokexplorer.core.backends.sentencepiece.normalization import describe_normalization
from tokexplorer.core.backends.sentencepiece.proto import (
    WS,
    ModelInfo,
    parse_model_info,
    user_defined_ids,
)
from tokexplorer.core.backends.sentencepiece.tokenizer import SentencePieceTokenizer
from tokexplorer.core.backends.sentencepiece.training import (
    CHILD_TRAIN_CHARS,
    SentencePieceOptions,
    SPTrainingCheck,
    check_sentencepiece_training,
    train_sentencepiece,
)

__all__ = [
    "CHILD_TRAIN_CHARS",
    "LinesTooLongError",
    "ModelInfo",
    "SPTrainingCheck",
    "SentencePieceOptions",
    "SentencePieceTokenizer",
    "VocabTooLargeError",
    "VocabTooSmallError",
    "WS",
    "check_sentencepiece_training",
    "describe_normalization",
    "parse_model_info",
    "train_sentencepiece",
    "user_defined_ids",
]
