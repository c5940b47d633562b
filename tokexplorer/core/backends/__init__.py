"""One :class:`Tokenizer` interface and an adapter per family (our BPE, tiktoken,
SentencePiece), plus the SPEC strings that name and load them.
"""

from __future__ import annotations

from tokexplorer.core.backends.base import (
    CancelCheck,
    Tokenizer,
    check_special_policy,
)
from tokexplorer.core.backends.bpe_backend import (
    BPETokenizer,
)
from tokexplorer.core.backends.sentencepiece import (
    WS,
    LinesTooLongError,
    SentencePieceOptions,
    SentencePieceTokenizer,
    VocabTooLargeError,
    VocabTooSmallError,
    check_sentencepiece_training,
    describe_normalization,
    parse_model_info,
    train_sentencepiece,
    user_defined_ids,
)
from tokexplorer.core.backends.spec import (
    SPEC_FORMS,
    load_tokenizer,
    model_path,
    parse_spec,
)
from tokexplorer.core.backends.tiktoken_backend import (
    TiktokenTokenizer,
    bpe_from_tiktoken,
    read_tiktoken_ranks,
)
from tokexplorer.core.backends.tiktoken_registry import (
    available_tiktoken_encodings,
    load_tiktoken_encoding,
    set_tiktoken_cache_dir,
)

__all__ = [
    "BPETokenizer",
    "CancelCheck",
    "LinesTooLongError",
    "SPEC_FORMS",
    "SentencePieceOptions",
    "SentencePieceTokenizer",
    "TiktokenTokenizer",
    "Tokenizer",
    "VocabTooLargeError",
    "VocabTooSmallError",
    "WS",
    "available_tiktoken_encodings",
    "bpe_from_tiktoken",
    "check_special_policy",
    "check_sentencepiece_training",
    "describe_normalization",
    "load_tiktoken_encoding",
    "load_tokenizer",
    "model_path",
    "parse_model_info",
    "parse_spec",
    "read_tiktoken_ranks",
    "set_tiktoken_cache_dir",
    "train_sentencepiece",
    "user_defined_ids",
]
