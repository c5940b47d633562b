"""Analyses behind the panes: the byte inspector's axis, decoding of ids, merge trees
and merge diffs, corpus statistics and SentencePiece's normalization diff.
"""

from __future__ import annotations

from tokexplorer.core.analysis.blocks import (
    BLOCK_CHARS,
    count_tokens,
    text_blocks,
)
from tokexplorer.core.analysis.compare import (
    WINDOW_CHARS,
    ColumnResult,
    column_notes,
    count_text,
    diff_marks,
    error_line,
    load_tiktoken,
    part_label,
    part_spans,
    tiktoken_names,
    tokenize_column,
)
from tokexplorer.core.analysis.decoding import (
    DecodeReport,
    decode_ids,
    parse_ids,
)
from tokexplorer.core.analysis.firing import (
    FireIndex,
    FireSites,
    fire_index,
)
from tokexplorer.core.analysis.inspector import (
    char_parts,
    describe_tokens,
    inspect_bytes,
    inspect_text,
)
from tokexplorer.core.analysis.inspector_report import (
    InspectReport,
    TrackReport,
)
from tokexplorer.core.analysis.merges import (
    MergeDiff,
    MergeIndex,
    MergeNode,
    load_bpe_spec,
    merge_diff,
    merges_json,
    token_merge_ranks,
)
from tokexplorer.core.analysis.normalization import (
    align,
    normalization_diff,
)
from tokexplorer.core.analysis.stats import (
    COLUMN_TITLES,
    COLUMNS,
    CorpusStats,
    compute_stats,
    corpus_stats_iter,
    format_cell,
)
from tokexplorer.core.analysis.token_scripts import (
    SCRIPTS,
    is_partial_utf8,
    token_script,
)

__all__ = [
    "BLOCK_CHARS",
    "COLUMNS",
    "COLUMN_TITLES",
    "ColumnResult",
    "CorpusStats",
    "DecodeReport",
    "FireIndex",
    "FireSites",
    "InspectReport",
    "MergeDiff",
    "MergeIndex",
    "MergeNode",
    "SCRIPTS",
    "WINDOW_CHARS",
    "TrackReport",
    "align",
    "char_parts",
    "column_notes",
    "compute_stats",
    "corpus_stats_iter",
    "count_text",
    "count_tokens",
    "decode_ids",
    "describe_tokens",
    "diff_marks",
    "error_line",
    "fire_index",
    "format_cell",
    "inspect_bytes",
    "inspect_text",
    "is_partial_utf8",
    "load_bpe_spec",
    "load_tiktoken",
    "merge_diff",
    "merges_json",
    "normalization_diff",
    "parse_ids",
    "part_label",
    "part_spans",
    "text_blocks",
    "tiktoken_names",
    "token_merge_ranks",
    "token_script",
    "tokenize_column",
]
