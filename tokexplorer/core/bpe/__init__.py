"""Our byte-level BPE engine: the model (``model``: merges are the stored truth),
rank-merge encoding and its caches (``encoder``), training (``trainer``), chunk
counting (``counting``), and the readable step-by-step replays (``replay``).
"""

from __future__ import annotations

from tokexplorer.core.bpe.counting import (
    count_files,
    count_texts,
    plan_file_ranges,
    run,
    safe_pieces,
)
from tokexplorer.core.bpe.model import BPE
from tokexplorer.core.bpe.replay import (
    MAX_REPLAY_CHUNK_BYTES,
    EncodeStep,
    TrainStep,
    merge_sites,
    replay_encode,
    replay_training,
)
from tokexplorer.core.bpe.trainer import (
    train_bpe,
    train_bpe_iter,
    validate_vocab_size,
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
