"""Our byte-level BPE engine: the model (``model``: merges are the stored truth),
rank-merge encoding and its caches (``encoder``), training (``trainer``), chunk
counting (``counting``), merges recovered from ranks (``recovery``), and the
readable step-by-step replays (``replay``).
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "count_files": "counting",
    "count_texts": "counting",
    "plan_file_ranges": "counting",
    "run": "counting",
    "safe_pieces": "counting",
    "BPE": "model",
    "vocab_text": "model",
    "last_merge": "recovery",
    "recover_merges": "recovery",
    "EncodeStep": "replay",
    "MAX_REPLAY_CHUNK_BYTES": "replay",
    "TrainStep": "replay",
    "merge_sites": "replay",
    "replay_encode": "replay",
    "replay_training": "replay",
    "train_bpe": "trainer",
    "train_bpe_iter": "trainer",
    "validate_vocab_size": "trainer",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
