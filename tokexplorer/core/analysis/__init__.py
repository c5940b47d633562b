"""Analyses behind the panes: the byte inspector's axis, decoding of ids, merge trees
and merge diffs, corpus statistics and SentencePiece's normalization diff.
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "BLOCK_CHARS": "blocks",
    "count_tokens": "blocks",
    "text_blocks": "blocks",
    "ColumnResult": "compare",
    "WINDOW_CHARS": "compare",
    "column_notes": "compare",
    "count_text": "compare",
    "diff_marks": "compare",
    "error_line": "compare",
    "load_tiktoken": "compare",
    "part_label": "compare",
    "part_spans": "compare",
    "tiktoken_names": "compare",
    "tokenize_column": "compare",
    "DecodeReport": "decoding",
    "decode_ids": "decoding",
    "parse_ids": "decoding",
    "FireIndex": "firing",
    "FireSites": "firing",
    "fire_index": "firing",
    "char_parts": "inspector",
    "describe_tokens": "inspector",
    "inspect_bytes": "inspector",
    "inspect_text": "inspector",
    "PART_CHARS": "inspect_parts",
    "RAW_PART_BYTES": "inspect_parts",
    "PartReport": "inspect_parts",
    "inspect_part": "inspect_parts",
    "raw_part_span": "inspect_parts",
    "text_parts": "inspect_parts",
    "InspectReport": "inspector_report",
    "TrackReport": "inspector_report",
    "MergeDiff": "merges",
    "MergeIndex": "merges",
    "MergeNode": "merges",
    "load_bpe_spec": "merges",
    "merge_diff": "merges",
    "merges_json": "merges",
    "token_merge_ranks": "merges",
    "align": "normalization",
    "normalization_diff": "normalization",
    "COLUMNS": "stats",
    "COLUMN_TITLES": "stats",
    "CorpusStats": "stats",
    "compute_stats": "stats",
    "corpus_stats_iter": "stats",
    "format_cell": "stats",
    "SCRIPTS": "token_scripts",
    "is_partial_utf8": "token_scripts",
    "token_script": "token_scripts",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
