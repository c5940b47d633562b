"""Analyses behind the panes: the byte inspector's axis, decoding of ids, merge trees
and merge diffs, corpus statistics, SentencePiece's normalization diff, and a
Unigram model's lattice, n-best lists and samples.
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "BLOCK_CHARS": "blocks",
    "count_tokens": "blocks",
    "text_blocks": "blocks",
    "ColumnResult": "compare",
    "LineEndingCount": "compare",
    "line_ending_counts": "compare",
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
    "WORD_PATTERN": "granularity",
    "GranularityReport": "granularity",
    "Level": "granularity",
    "bpe_curve": "granularity",
    "granularity_iter": "granularity",
    "split_heldout": "granularity",
    "Lattice": "unigram",
    "LatticeNode": "unigram",
    "PieceScore": "unigram",
    "Segmentation": "unigram",
    "lattice": "unigram",
    "nbest": "unigram",
    "piece_scores": "unigram",
    "require_unigram": "unigram",
    "sample": "unigram",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
