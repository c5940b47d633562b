"""Text before any tokenizer: split patterns and the splitter, the safe cut
points, the one surrogate rule, UTF-8 / code point / grapheme analysis, tokens
that cut characters, scripts of lines and tokens, and rendering bytes for
display.
"""

from __future__ import annotations

from tokexplorer._lazy import lazy_exports

#: Public name -> the module of this package that defines it (loaded on first use).
_EXPORTS: dict[str, str] = {
    "C0_CONTROL_NAMES": "char_names",
    "char_name": "char_names",
    "CleanText": "clean",
    "clean_text": "clean",
    "has_surrogates": "clean",
    "CONTROL_PICTURES": "display",
    "DisplayPart": "display",
    "GPT2_BYTE_TO_UNICODE": "display",
    "GPT2_UNICODE_TO_BYTE": "display",
    "PLAIN_CONTROL_GLYPHS": "display",
    "VISIBLE_SPACE": "display",
    "DOTTED_CIRCLE": "display",
    "char_notation": "display",
    "control_glyph": "display",
    "from_gpt2_visible": "display",
    "is_invisible": "display",
    "is_mark": "display",
    "label_glyph": "display",
    "to_gpt2_visible": "display",
    "token_display": "display",
    "token_parts": "display",
    "EDITOR_GLYPHS": "editing",
    "apply_edit": "editing",
    "editor_text": "editing",
    "glyph_positions": "editing",
    "line_ending_summary": "editing",
    "normalize_line_endings": "editing",
    "GraphemeInfo": "graphemes",
    "grapheme_spans": "graphemes",
    "Cut": "partial_tokens",
    "cuts": "partial_tokens",
    "describe_partial_token": "partial_tokens",
    "grapheme_part_tokens": "partial_tokens",
    "grapheme_parts": "partial_tokens",
    "is_grapheme_fragment": "partial_tokens",
    "PATTERNS": "pretokenize",
    "PATTERN_NAMES": "pretokenize",
    "PUBLISHED_PATTERNS": "pretokenize",
    "Splitter": "pretokenize",
    "compile_splitter": "pretokenize",
    "name_of_pattern": "pretokenize",
    "pattern_label": "pretokenize",
    "pattern_name_of": "pretokenize",
    "pattern_string": "pretokenize",
    "split": "pretokenize",
    "LETTER_SPACE_CUT": "safe_cuts",
    "LETTER_SPACE_CUT_ASCII": "safe_cuts",
    "LINE_START_CUT": "safe_cuts",
    "LINE_START_CUT_ASCII": "safe_cuts",
    "SPACE_CUT": "safe_cuts",
    "WORD_SPACE_CUT": "safe_cuts",
    "SCRIPTS": "scripts",
    "SPACE_DELIMITED": "scripts",
    "classify_line": "scripts",
    "looks_like_code": "scripts",
    "script_counts": "scripts",
    "ByteInfo": "utf8",
    "CodePointInfo": "utf8",
    "Utf8Analysis": "utf8",
    "analyze": "utf8",
    "analyze_bytes": "utf8",
    "describe_byte": "utf8",
    "incremental_decode": "utf8",
    "Utf8Issue": "utf8_issues",
    "find_utf8_issues": "utf8_issues",
    "utf8_len": "utf8_issues",
}

__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
