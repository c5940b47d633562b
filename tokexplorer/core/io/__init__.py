"""Files in and out: corpus reading with encoding detection, model file formats
(our ``.bpe`` files, ``.tiktoken`` rank files) and the built-in sample text.
"""

from __future__ import annotations

from tokexplorer.core.io.corpus import (
    RAW,
    Corpus,
    CorpusFile,
    check_binary,
    collect_files,
    count_lines,
    decode_file_bytes,
    guess_encoding,
    line_ending_of,
    load_corpus,
    read_corpus,
    read_raw,
    read_text_file,
    to_raw_bytes,
)
from tokexplorer.core.io.formats import (
    atomic_write_bytes,
    dumps_bpe,
    load_bpe,
    read_tiktoken_file,
    save_bpe,
    write_tiktoken_file,
)
from tokexplorer.core.io.resources import (
    resource_path,
    sample_text,
)

__all__ = [
    "Corpus",
    "CorpusFile",
    "RAW",
    "atomic_write_bytes",
    "check_binary",
    "collect_files",
    "count_lines",
    "decode_file_bytes",
    "dumps_bpe",
    "guess_encoding",
    "line_ending_of",
    "load_bpe",
    "load_corpus",
    "read_corpus",
    "read_raw",
    "read_text_file",
    "read_tiktoken_file",
    "resource_path",
    "sample_text",
    "save_bpe",
    "to_raw_bytes",
    "write_tiktoken_file",
]
