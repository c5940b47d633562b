"""The Hugging Face family: any ``tokenizer.json`` run by the ``tokenizers``
library (:mod:`.tokenizer`), how its token strings spell bytes (:mod:`.config`),
byte spans from the library's offsets (:mod:`.spans`), the raw bytes of
byte-fallback pieces in a decode (:mod:`.byte_decoding`), its pipeline stages
for display (:mod:`.stages`), and a byte-level BPE as tiktoken-style ranks when they
give the library's ids exactly (:mod:`.ranks`).
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "HFConfig": "config",
    "TokenSpelling": "config",
    "read_config": "config",
    "PipelineStages": "stages",
    "PreToken": "stages",
    "pipeline_stages": "stages",
    "STAGE_SEPARATOR": "stages",
    "stage_piece": "stages",
    "stage_token": "stages",
    "char_to_byte_offsets": "spans",
    "HuggingFaceTokenizer": "tokenizer",
    "HFRanks": "ranks",
    "byte_level_ranks": "ranks",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
