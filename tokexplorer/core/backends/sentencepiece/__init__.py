"""The SentencePiece family: ``.model`` files opened through the ``sentencepiece``
library (:mod:`.tokenizer`), its protobuf messages read without ``protobuf``
(:mod:`.proto`), what its normalizer changed (:mod:`.normalization`), and
in-memory training (:mod:`.training`) with the options spelled once
(:mod:`.options`), a check beforehand (:mod:`.check`) and errors that carry the
numbers to fix a request (:mod:`.errors`).
"""

from __future__ import annotations

from tokexplorer.core.backends.sentencepiece.check import SPTrainingCheck, check_sentencepiece_training
from tokexplorer.core.backends.sentencepiece.errors import (
    LinesTooLongError,
    VocabTooLargeError,
    VocabTooSmallError,
)
from tokexplorer.core.backends.sentencepiece.normalization import describe_normalization
from tokexplorer.core.backends.sentencepiece.options import SentencePieceOptions
from tokexplorer.core.backends.sentencepiece.proto import (
    WS,
    ModelInfo,
    parse_model_info,
    user_defined_ids,
)
from tokexplorer.core.backends.sentencepiece.tokenizer import SentencePieceTokenizer
from tokexplorer.core.backends.sentencepiece.training import CHILD_TRAIN_CHARS, train_sentencepiece

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
