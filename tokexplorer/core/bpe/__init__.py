"""Our byte-level BPE engine: the model (merges are the stored truth), rank-merge
encoding, training, chunk counting, and the readable step-by-step replays.
"""

from __future__ import annotations

from tokexplorer.core.bpe.counting import (
    count_files,
    count_texts,
    plan_file_ranges,
    run,
    safe_pieces,
)
from tokexplorer.core.bpe.model import (
    BPE,
    train_bpe,
    train_bpe_iter,
    validate_vocab_size,
)
from tokexplorer.core.bpe.replay import (
    MAX_REPLAY_CHUNK_BYTES,
    EncodeStep,
    TrainStep,
    merge_sites,
    replay_encode,
    replay_training,
)

__all__ = [
    "BPE",
    "EncodeStep",
    "MAX_REPLAY_CHUNK_BYTES",
    "TrainStep",
    "count_files",
    "count_texts",
    "merge_sites",
    "plan_file_ranges",
    "replay_encode",
    "replay_training",
    "run",
    "safe_pieces",
    "train_bpe",
    "train_bpe_iter",
    "validate_vocab_size",
]
