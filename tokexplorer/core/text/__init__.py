"""Text before any tokenizer: split patterns and the splitter, the safe cut
points, the one surrogate rule, UTF-8 / code point / grapheme analysis, tokens
that cut characters, scripts of lines and tokens, and rendering bytes for
display.
"""

from __future__ import annotations

from tokexplorer.core.text.char_names import C0_CONTROL_NAMES, char_name
from tokexplorer.core.text.clean import (
    CleanText,
    clean_text,
    has_surrogates,
)
from tokexplorer.core.text.display import (
    CONTROL_PICTURES,
    GPT2_BYTE_TO_UNICODE,
    GPT2_UNICODE_TO_BYTE,
    PLAIN_CONTROL_GLYPHS,
    VISIBLE_SPACE,
    DisplayPart,
    control_glyph,
    from_gpt2_visible,
    label_glyph,
    to_gpt2_visible,
    token_display,
    token_parts,
)
from tokexplorer.core.text.graphemes import GraphemeInfo, grapheme_spans
from tokexplorer.core.text.partial_tokens import Cut, cuts, describe_partial_token
from tokexplorer.core.text.pretokenize import (
    PATTERN_NAMES,
    PATTERNS,
    Splitter,
    compile_splitter,
    name_of_pattern,
    pattern_string,
    split,
)
from tokexplorer.core.text.safe_cuts import (
    LETTER_SPACE_CUT,
    LETTER_SPACE_CUT_ASCII,
    LINE_START_CUT,
    LINE_START_CUT_ASCII,
    SPACE_CUT,
    WORD_SPACE_CUT,
)
from tokexplorer.core.text.scripts import (
    SCRIPTS,
    SPACE_DELIMITED,
    classify_line,
    looks_like_code,
    script_counts,
)
from tokexplorer.core.text.utf8 import (
    ByteInfo,
    CodePointInfo,
    Utf8Analysis,
    analyze,
    analyze_bytes,
    describe_byte,
    incremental_decode,
)
from tokexplorer.core.text.utf8_issues import Utf8Issue, find_utf8_issues, utf8_len

__all__ = [
    "C0_CONTROL_NAMES",
    "CONTROL_PICTURES",
    "ByteInfo",
    "CleanText",
    "CodePointInfo",
    "Cut",
    "DisplayPart",
    "GPT2_BYTE_TO_UNICODE",
    "GPT2_UNICODE_TO_BYTE",
    "GraphemeInfo",
    "LETTER_SPACE_CUT",
    "LETTER_SPACE_CUT_ASCII",
    "LINE_START_CUT",
    "LINE_START_CUT_ASCII",
    "PATTERNS",
    "PATTERN_NAMES",
    "PLAIN_CONTROL_GLYPHS",
    "SCRIPTS",
    "SPACE_CUT",
    "SPACE_DELIMITED",
    "Splitter",
    "Utf8Analysis",
    "Utf8Issue",
    "VISIBLE_SPACE",
    "WORD_SPACE_CUT",
    "analyze",
    "analyze_bytes",
    "char_name",
    "classify_line",
    "clean_text",
    "compile_splitter",
    "control_glyph",
    "cuts",
    "describe_byte",
    "describe_partial_token",
    "find_utf8_issues",
    "from_gpt2_visible",
    "grapheme_spans",
    "has_surrogates",
    "incremental_decode",
    "label_glyph",
    "looks_like_code",
    "name_of_pattern",
    "pattern_string",
    "script_counts",
    "split",
    "to_gpt2_visible",
    "token_display",
    "token_parts",
    "utf8_len",
]
