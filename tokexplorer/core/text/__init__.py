"""Text before any tokenizer: split patterns and the splitter, the one surrogate rule,
UTF-8 / code point / grapheme analysis, scripts of lines and tokens, and rendering
bytes for display.
"""

from __future__ import annotations

from tokexplorer.core.text.clean import (
    CleanText,
    clean_text,
    has_surrogates,
)
from tokexplorer.core.text.pretokenize import (
    LINE_START_CUT,
    PATTERN_NAMES,
    PATTERNS,
    Splitter,
    compile_splitter,
    name_of_pattern,
    pattern_string,
    split,
)
from tokexplorer.core.text.scripts import (
    SCRIPTS,
    SPACE_DELIMITED,
    classify_line,
    looks_like_code,
    script_counts,
)
from tokexplorer.core.text.utf8 import (
    CONTROL_PICTURES,
    GPT2_BYTE_TO_UNICODE,
    GPT2_UNICODE_TO_BYTE,
    Cut,
    analyze,
    analyze_bytes,
    char_name,
    cuts,
    describe_byte,
    describe_partial_token,
    find_utf8_issues,
    from_gpt2_visible,
    incremental_decode,
    to_gpt2_visible,
    token_display,
    token_parts,
)

__all__ = [
    "CONTROL_PICTURES",
    "CleanText",
    "Cut",
    "GPT2_BYTE_TO_UNICODE",
    "GPT2_UNICODE_TO_BYTE",
    "LINE_START_CUT",
    "PATTERNS",
    "PATTERN_NAMES",
    "SCRIPTS",
    "SPACE_DELIMITED",
    "Splitter",
    "analyze",
    "analyze_bytes",
    "char_name",
    "classify_line",
    "clean_text",
    "compile_splitter",
    "cuts",
    "describe_byte",
    "describe_partial_token",
    "find_utf8_issues",
    "from_gpt2_visible",
    "has_surrogates",
    "incremental_decode",
    "looks_like_code",
    "name_of_pattern",
    "pattern_string",
    "script_counts",
    "split",
    "to_gpt2_visible",
    "token_display",
    "token_parts",
]
