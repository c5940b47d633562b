"""Files in and out: one text file read with its encoding detected (:mod:`.corpus`,
the detection rules in :mod:`.encodings`), files and folders read as a corpus
(:mod:`.folders`), model files (our BPE files in :mod:`.formats`, ``.tiktoken``
rank files in :mod:`.tiktoken_files`, both written by :mod:`.atomic`) and the
built-in sample text (:mod:`.resources`).
"""

from __future__ import annotations

from tokexplorer.core.io.atomic import atomic_write_bytes
from tokexplorer.core.io.corpus import (
    RAW,
    Corpus,
    CorpusFile,
    check_binary,
    count_lines,
    decode_file_bytes,
    line_ending_of,
    read_raw,
    read_text_file,
    to_raw_bytes,
)
from tokexplorer.core.io.encodings import guess_encoding
from tokexplorer.core.io.folders import (
    collect_files,
    load_corpus,
    read_corpus,
)
from tokexplorer.core.io.formats import (
    dumps_bpe,
    load_bpe,
    loads_bpe,
    save_bpe,
)
from tokexplorer.core.io.model_files import read_model_file
from tokexplorer.core.io.resources import (
    resource_path,
    sample_text,
)
from tokexplorer.core.io.tiktoken_files import (
    read_tiktoken_file,
    write_tiktoken_file,
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
    "loads_bpe",
    "read_corpus",
    "read_model_file",
    "read_raw",
    "read_text_file",
    "read_tiktoken_file",
    "resource_path",
    "sample_text",
    "save_bpe",
    "to_raw_bytes",
    "write_tiktoken_file",
]
